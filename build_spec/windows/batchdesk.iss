; Inno Setup 6 script: BatchDesk-Setup-<version>.exe from the PyInstaller onedir (dist\BatchDesk).
; Built by build_spec\windows\build_windows.ps1, which passes:
;   /DAppVersion=<desktop_app.__version__>   /DSourceDir=<repo>\dist\BatchDesk   /O<repo>\dist
;   /DSign /Sbatchdesk=.. when a code-signing certificate is configured (signs the exes, Setup, uninstaller)
; Saved as UTF-8 with a BOM (Inno Setup then reads the Chinese messages right).
; Per-user by default (no administrator rights); an administrator may choose "all users" in the dialog.

#ifndef AppVersion
  #error Pass /DAppVersion=x.y.z (build_windows.ps1 reads it from desktop_app/__init__.py)
#endif
#define RepoDir AddBackslash(SourcePath) + "..\.."
#ifndef SourceDir
  #define SourceDir RepoDir + "\dist\BatchDesk"
#endif
#ifdef Sign
  #define SignFlags "signonce"
#else
  #define SignFlags ""
#endif
#define AppName "BatchDesk"
#define AppExe "BatchDesk.exe"

[Setup]
AppId={{530929CF-224B-4148-B4B5-86151A08E19C}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=BatchDesk
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog commandline
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
WizardStyle=modern
SetupIconFile={#RepoDir}\resources\icons\batchdesk.ico
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
OutputBaseFilename=BatchDesk-Setup-{#AppVersion}
Compression=lzma2/max
SolidCompression=yes
ChangesAssociations=yes
CloseApplications=yes
#ifdef Sign
SignTool=batchdesk
SignedUninstaller=yes
#endif

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
#if FileExists(CompilerPath + "Languages\ChineseSimplified.isl")
Name: "chinesesimplified"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"
#endif

[CustomMessages]
english.AssocTask=Add "Import with BatchDesk" to the menu of .csv and .xlsx files
english.AssocGroup=File types:
english.ImportVerb=Import with BatchDesk
english.DeleteData=Also delete your BatchDesk data (task history, result files and logs)?%n%n%1%n%nChoose No to keep them for a later installation.
#if FileExists(CompilerPath + "Languages\ChineseSimplified.isl")
chinesesimplified.AssocTask=在 .csv 和 .xlsx 文件的右键菜单中添加“用 BatchDesk 导入”
chinesesimplified.AssocGroup=文件类型:
chinesesimplified.ImportVerb=用 BatchDesk 导入
chinesesimplified.DeleteData=是否同时删除 BatchDesk 的数据(任务记录、结果文件和日志)?%n%n%1%n%n选择“否”则保留,以便以后重新安装时继续使用。
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "assoc"; Description: "{cm:AssocTask}"; GroupDescription: "{cm:AssocGroup}"

[Files]
Source: "{#SourceDir}\{#AppExe}"; DestDir: "{app}"; Flags: ignoreversion {#SignFlags}
Source: "{#SourceDir}\batchdesk-cli.exe"; DestDir: "{app}"; Flags: ignoreversion {#SignFlags}
Source: "{#SourceDir}\_internal\*"; DestDir: "{app}\_internal"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; An upgrade replaces the bundle wholesale: files of the previous version must not linger beside the new ones.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; A context-menu verb on .csv/.xlsx that does not take over their default program (Excel stays the default).
; `BatchDesk.exe --open FILE` opens the window with FILE in the file field and its import preview shown.
; HKA is HKCU for a per-user install, HKLM for an all-users one.
Root: HKA; Subkey: "Software\Classes\SystemFileAssociations\.csv\shell\BatchDesk.Import"; ValueType: string; ValueName: ""; ValueData: "{cm:ImportVerb}"; Flags: uninsdeletekey; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\SystemFileAssociations\.csv\shell\BatchDesk.Import"; ValueType: string; ValueName: "Icon"; ValueData: """{app}\{#AppExe}"",0"; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\SystemFileAssociations\.csv\shell\BatchDesk.Import\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" --open ""%1"""; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\SystemFileAssociations\.xlsx\shell\BatchDesk.Import"; ValueType: string; ValueName: ""; ValueData: "{cm:ImportVerb}"; Flags: uninsdeletekey; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\SystemFileAssociations\.xlsx\shell\BatchDesk.Import"; ValueType: string; ValueName: "Icon"; ValueData: """{app}\{#AppExe}"",0"; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\SystemFileAssociations\.xlsx\shell\BatchDesk.Import\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" --open ""%1"""; Tasks: assoc
; "Open with" lists BatchDesk for these types too.
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}"; Flags: uninsdeletekey; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".csv"; ValueData: ""; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".xlsx"; ValueData: ""; Tasks: assoc
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" --open ""%1"""; Tasks: assoc

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[Code]
{ The user's data lives outside {app}: %LOCALAPPDATA%\BatchDesk (database, results, logs; platformdirs) and
  %APPDATA%\BatchDesk (window layout, QSettings). The uninstaller keeps both unless the user says otherwise;
  a silent uninstall always keeps them. }
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  DataDir, SettingsDir: String;
begin
  if CurUninstallStep <> usPostUninstall then
    Exit;
  DataDir := ExpandConstant('{localappdata}\BatchDesk');
  SettingsDir := ExpandConstant('{userappdata}\BatchDesk');
  if UninstallSilent or not (DirExists(DataDir) or DirExists(SettingsDir)) then
    Exit;
  if MsgBox(FmtMessage(CustomMessage('DeleteData'), [DataDir]), mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
  begin
    DelTree(DataDir, True, True, True);
    DelTree(SettingsDir, True, True, True);
  end;
end;
