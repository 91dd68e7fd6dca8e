"""Qt's own dialogs (file chooser, message box buttons) speak the window's language and switch with it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import PySide6
import pytest
from PySide6.QtCore import QEvent, QLocale
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMessageBox, QTreeView

from desktop_app.ui import i18n


def _file_dialog_words(qtbot: Any, folder: Path) -> set[str]:
    (folder / "inner").mkdir(exist_ok=True)
    dialog = QFileDialog(None, "x", str(folder))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.show()
    view = dialog.findChild(QTreeView)
    qtbot.waitUntil(lambda: view.model().rowCount(view.rootIndex()) > 0)
    kind = str(view.model().index(0, 2, view.rootIndex()).data())
    words = {label.text() for label in dialog.findChildren(QLabel)} | {kind}
    dialog.close()
    dialog.deleteLater()  # gone before the language switches, as a modal chooser is
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return words


def _cancel_text(qtbot: Any) -> str:
    box = QMessageBox()
    box.setStandardButtons(QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
    text = box.button(QMessageBox.StandardButton.Cancel).text()
    box.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return text


def test_qt_dialogs_speak_the_window_language_and_switch_back(qtbot: Any, make_desk: Any, tmp_path: Path) -> None:
    desk = make_desk()
    desk.set_language("zh")
    assert {"查找范围(&L)：", "文件类型(&T)：", "文件夹"} <= _file_dialog_words(qtbot, tmp_path)
    assert _cancel_text(qtbot) == "取消"
    assert QLocale().name() == "zh_CN"
    desk.set_language("en")
    assert {"&Look in:", "Files of &type:", "Folder"} <= _file_dialog_words(qtbot, tmp_path)
    assert _cancel_text(qtbot) == "Cancel"
    assert QLocale().language() == QLocale.Language.English


def test_qt_translation_is_found_in_the_frozen_bundle_layout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert i18n.qt_translations_dir("zh_CN") is not None, "the checkout's PySide6 has qtbase_zh_CN.qm"
    bundle = tmp_path / "_internal"
    (bundle / "PySide6" / "Qt" / "translations").mkdir(parents=True)
    (bundle / "PySide6" / "Qt" / "translations" / "qtbase_zh_CN.qm").write_bytes(b"")
    monkeypatch.setattr(i18n.QLibraryInfo, "path", lambda _which: str(tmp_path / "nowhere"))
    monkeypatch.setattr(PySide6, "__file__", str(tmp_path / "elsewhere" / "__init__.py"))
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert i18n.qt_translations_dir("zh_CN") == bundle / "PySide6" / "Qt" / "translations"
