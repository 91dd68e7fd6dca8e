"""Opening a task's file with the system's program, and showing a file in its folder (Explorer, Finder)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QProcess, QUrl
from PySide6.QtGui import QDesktopServices

Runner = Callable[[str, Sequence[str]], bool]


def open_local(path: Path) -> bool:
    """Open a file or folder with the system's application (a spreadsheet app for a CSV). False when the
    desktop has no program for it."""
    return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))


def start_detached(program: str, arguments: Sequence[str]) -> bool:
    ok, _pid = QProcess.startDetached(program, list(arguments))
    return bool(ok)


def show_in_folder(
    path: Path,
    *,
    platform: str = sys.platform,
    run: Runner = start_detached,
    opener: Callable[[Path], bool] = open_local,
) -> bool:
    """Show `path` selected in the file manager on Windows and macOS; elsewhere open the folder holding it.
    False when nothing could be opened."""
    if platform == "win32":
        return run("explorer", [f"/select,{path}"])
    if platform == "darwin":
        return run("open", ["-R", str(path)])
    # Linux desktops differ in how a file is selected; every one of them opens a folder.
    return opener(path.parent if path.parent != path else path)
