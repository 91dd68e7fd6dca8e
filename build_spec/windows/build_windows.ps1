# Builds dist\BatchDesk (PyInstaller onedir) and dist\BatchDesk-Setup-<version>.exe (Inno Setup 6) on Windows.
#   powershell -ExecutionPolicy Bypass -File build_spec\windows\build_windows.ps1 [-SkipBuild]
# Python: $env:PYTHON, else `python` on PATH, with the package, its extras and pyinstaller installed.
# Code signing (skipped when neither is set):
#   WINDOWS_SIGN_PFX (path to a .pfx) + WINDOWS_SIGN_PASSWORD   imported into the user's certificate store, or
#   WINDOWS_SIGN_THUMBPRINT                                      a certificate already there (e.g. on a token)
#   WINDOWS_SIGN_TIMESTAMP_URL                                   default http://timestamp.digicert.com
# Then the two executables, Setup and its uninstaller are signed by signtool (SHA-256, RFC 3161 timestamp).
param([switch]$SkipBuild)
$ErrorActionPreference = "Stop"
$root = (Resolve-Path (Join-Path $PSScriptRoot "..\..")).Path
Set-Location $root
$py = if ($env:PYTHON) { $env:PYTHON } else { "python" }

$version = (& $py -c "import desktop_app; print(desktop_app.__version__)").Trim()
if ($LASTEXITCODE) { throw "cannot read the version from desktop_app" }

if (-not $SkipBuild) {
    & $py -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build\pyinstaller build_spec\batchdesk.spec
    if ($LASTEXITCODE) { throw "PyInstaller failed" }
}
$bundle = Join-Path $root "dist\BatchDesk"
if (-not (Test-Path (Join-Path $bundle "BatchDesk.exe"))) { throw "no $bundle\BatchDesk.exe" }

# Inno Setup 6: on PATH, in its default folder, or installed now with Chocolatey.
$iscc = (Get-Command iscc.exe -ErrorAction SilentlyContinue).Source
if (-not $iscc) {
    $iscc = @("${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe", "$env:ProgramFiles\Inno Setup 6\ISCC.exe",
              "$env:LOCALAPPDATA\Programs\Inno Setup 6\ISCC.exe") | Where-Object { Test-Path $_ } | Select-Object -First 1
}
if (-not $iscc) {
    choco install innosetup --yes --no-progress | Out-Host
    $iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe"
}

$isccArgs = @("/DAppVersion=$version", "/DSourceDir=$bundle", "/O$root\dist")
# The "Import with BatchDesk" verb runs `BatchDesk.exe --open "%1"`: refuse to package a build without it.
$help = & (Join-Path $bundle "batchdesk-cli.exe") --help | Out-String
if ($help -notmatch "--open") { throw "this build's --help does not list --open, which the file verb runs" }

$thumb = $env:WINDOWS_SIGN_THUMBPRINT
if (-not $thumb -and $env:WINDOWS_SIGN_PFX) {
    $password = ConvertTo-SecureString -String "$env:WINDOWS_SIGN_PASSWORD" -AsPlainText -Force
    $cert = Import-PfxCertificate -FilePath $env:WINDOWS_SIGN_PFX -CertStoreLocation Cert:\CurrentUser\My -Password $password
    $thumb = $cert.Thumbprint
}
if ($thumb) {
    $signtool = (Get-Command signtool.exe -ErrorAction SilentlyContinue).Source
    if (-not $signtool) {
        $signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
            Sort-Object FullName -Descending | Select-Object -First 1 -ExpandProperty FullName
    }
    if (-not $signtool) { throw "signing asked for, but signtool.exe is not installed (Windows SDK)" }
    $ts = if ($env:WINDOWS_SIGN_TIMESTAMP_URL) { $env:WINDOWS_SIGN_TIMESTAMP_URL } else { "http://timestamp.digicert.com" }
    # Inno Setup replaces $q with a quote and $f with the file to sign; the certificate is picked by thumbprint,
    # so no password reaches a command line.
    $isccArgs += "/DSign"
    $isccArgs += ('/Sbatchdesk=$q' + $signtool + '$q sign /sha1 ' + $thumb + ' /fd sha256 /tr ' + $ts + ' /td sha256 /d $qBatchDesk$q $f')
} else {
    Write-Host "build: no signing certificate configured; Setup and the executables stay unsigned"
}

& $iscc @isccArgs (Join-Path $PSScriptRoot "batchdesk.iss")
if ($LASTEXITCODE) { throw "Inno Setup failed" }
$setup = Join-Path $root "dist\BatchDesk-Setup-$version.exe"
Write-Host ("build: {0} ({1:N1} MB); onedir {2:N1} MB" -f $setup, ((Get-Item $setup).Length / 1MB),
    ((Get-ChildItem $bundle -Recurse -File | Measure-Object Length -Sum).Sum / 1MB))
