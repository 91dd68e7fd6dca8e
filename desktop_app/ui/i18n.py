"""Languages: .ts sources in resources/i18n are compiled to .qm on first use (pyside6-lrelease)."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from desktop_app.config import resources_dir

log = logging.getLogger(__name__)

# Settings value ("zh"/"en") -> Qt locale name of the translation; English is the source language.
LOCALES = {"zh": "zh_CN", "en": "en"}


def ts_file(locale: str) -> Path:
    return resources_dir() / "i18n" / f"batchdesk_{locale}.ts"


def _lrelease() -> list[str] | None:
    found = shutil.which("pyside6-lrelease") or shutil.which("lrelease")
    if found:
        return [found]
    beside = Path(sys.executable).parent / ("pyside6-lrelease" + (".exe" if os.name == "nt" else ""))
    if beside.exists():
        return [str(beside)]
    try:
        import PySide6

        binary = Path(PySide6.__file__).parent / ("lrelease" + (".exe" if os.name == "nt" else ""))
        return [str(binary)] if binary.exists() else None
    except ImportError:
        return None


def compiled(locale: str, cache_dir: Path) -> Path | None:
    """The .qm for a locale: a prebuilt one beside the .ts (frozen builds), else built into cache_dir
    when missing or older than its .ts. None when there is neither a .ts nor a way to compile it."""
    source = ts_file(locale)
    prebuilt = source.with_suffix(".qm")
    if prebuilt.exists() and (not source.exists() or prebuilt.stat().st_mtime >= source.stat().st_mtime):
        return prebuilt
    if not source.exists():
        return None
    target = cache_dir / source.with_suffix(".qm").name
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    tool = _lrelease()
    if tool is None:
        log.warning("no lrelease found: the window stays in English")
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run([*tool, "-silent", str(source), "-qm", str(target)], check=True, capture_output=True,
                       timeout=60)  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("compiling %s failed: %s", source, exc)
        return None
    return target if target.exists() else None


def qt_translations_dir(locale: str) -> Path | None:
    """The folder holding Qt's own translation (qtbase_<locale>.qm): QLibraryInfo's TranslationsPath (the
    checkout's PySide6/Qt/translations; in the frozen bundle PySide6's qt.conf points it at
    _internal/PySide6/Qt/translations), else that folder found beside the PySide6 package, frozen or not."""
    import PySide6

    candidates = [Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)),
                  Path(PySide6.__file__).resolve().parent / "Qt" / "translations"]  # fmt: skip
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(Path(bundle) / "PySide6" / "Qt" / "translations")
    return next((folder for folder in candidates if (folder / f"qtbase_{locale}.qm").is_file()), None)


class Translations:
    """Installs the application's and Qt's own translators for one language and swaps them on demand;
    widgets then get a LanguageChange event and retranslate themselves."""

    def __init__(self, app: QCoreApplication, cache_dir: Path) -> None:
        self._app = app
        self._cache_dir = cache_dir
        self._installed: list[QTranslator] = []
        self.lang = "en"

    def switch(self, lang: str) -> bool:
        """Use "zh" or "en"; returns whether the translation for it could be loaded."""
        for translator in self._installed:
            self._app.removeTranslator(translator)
            translator.deleteLater()  # a child of the application: it would live as long as it
        self._installed = []
        self.lang = lang if lang in LOCALES else "en"
        locale = LOCALES[self.lang]
        QLocale.setDefault(QLocale(locale))
        if self.lang == "en":
            # No translator: English is the source text. Removing the old ones sent LanguageChange.
            return True
        ok = True
        qm = compiled(locale, self._cache_dir)
        app_translator = QTranslator(self._app)
        if qm is None or not app_translator.load(str(qm)):
            log.warning("translation %s could not be loaded", locale)
            app_translator.deleteLater()
            ok = False
        else:
            self._installed.append(app_translator)
        # Qt's own dialogs (file chooser, message box buttons): Qt's translation, its gaps filled by ours
        # (qt_words.py); the app's translator goes in first, so Qt's, installed after it, is asked first.
        qt_translator = QTranslator(self._app)
        qt_dir = qt_translations_dir(locale)
        if qt_dir is not None and qt_translator.load(f"qtbase_{locale}", str(qt_dir)):
            self._installed.append(qt_translator)
        else:
            log.warning("Qt's own translation qtbase_%s was not found: Qt's dialogs stay in English", locale)
            qt_translator.deleteLater()
        for translator in self._installed:
            self._app.installTranslator(translator)
        return ok
