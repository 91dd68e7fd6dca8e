"""Qt's own texts that Qt's Chinese translation (qtbase_zh_CN.qm) lacks, carried in BatchDesk's own .ts.

Qt 6 changed some source texts of its file chooser ("Look in:" became "&Look in:") without updating the
zh_CN translation, and has none for the file type column's words. Qt asks every installed translator in
turn, so these entries, in the contexts Qt looks them up in, fill the gaps (their Chinese:
scripts/fill_zh_translations.py). Nothing calls this: pyside6-lupdate reads the markers.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Folder"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "File Folder"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Drive"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Shortcut"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Alias"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Unknown"),
)
