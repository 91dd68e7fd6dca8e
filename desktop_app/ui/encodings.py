"""Text encodings in a clerk's words: "Chinese (GBK) - Excel on Chinese Windows", not `gb18030`."""

from __future__ import annotations

import codecs

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

# Python's codec name (codecs.lookup(...).name) -> the family the clerk knows it by.
_FAMILY = {
    "utf-8": "utf-8",
    "utf-8-sig": "utf-8-sig",
    "utf-16": "utf-16",
    "utf-16-le": "utf-16",
    "utf-16-be": "utf-16",
    "utf-32": "utf-32",
    "utf-32-le": "utf-32",
    "utf-32-be": "utf-32",
    "gb18030": "gbk",
    "gbk": "gbk",
    "gb2312": "gbk",
    "big5": "big5",
    "big5hkscs": "big5",
    "cp950": "big5",
    "shift_jis": "shift_jis",
    "cp932": "shift_jis",
    "euc_jp": "shift_jis",
    "euc_kr": "korean",
    "cp949": "korean",
    "cp1252": "cp1252",
    "iso8859-1": "latin-1",
    "iso8859-15": "latin-1",
    "ascii": "ascii",
}


def codec_family(encoding: str) -> str | None:
    """The family of a codec name as the engine or the clerk wrote it; None for one not listed."""
    try:
        name = codecs.lookup(encoding.strip()).name
    except (LookupError, AttributeError):
        return None
    return _FAMILY.get(name)


# The family's words; QT_TRANSLATE_NOOP marks them for pyside6-lupdate, encoding_words() translates them.
_WORDS: dict[str, object] = {
    "utf-8": QT_TRANSLATE_NOOP("Encodings", "Unicode (UTF-8)"),
    "utf-8-sig": QT_TRANSLATE_NOOP("Encodings", "UTF-8 with BOM (Excel)"),
    "utf-16": QT_TRANSLATE_NOOP("Encodings", 'Unicode (UTF-16) - Excel\'s "Unicode text"'),
    "utf-32": QT_TRANSLATE_NOOP("Encodings", "Unicode (UTF-32)"),
    "gbk": QT_TRANSLATE_NOOP("Encodings", "Chinese (GBK) - Excel on Chinese Windows"),
    "big5": QT_TRANSLATE_NOOP("Encodings", "Traditional Chinese (Big5) - Taiwan, Hong Kong"),
    "shift_jis": QT_TRANSLATE_NOOP("Encodings", "Japanese (Shift-JIS)"),
    "korean": QT_TRANSLATE_NOOP("Encodings", "Korean (EUC-KR)"),
    "cp1252": QT_TRANSLATE_NOOP("Encodings", "Western (Windows-1252) - Excel on English Windows"),
    "latin-1": QT_TRANSLATE_NOOP("Encodings", "Western (Latin-1)"),
    "ascii": QT_TRANSLATE_NOOP("Encodings", "Plain English text (ASCII)"),
}


def encoding_words(encoding: str | None) -> str:
    """How the window names an encoding; a codec it does not know keeps its own name."""
    if not encoding:
        return ""
    words = _WORDS.get(codec_family(encoding) or "")
    return QCoreApplication.translate("Encodings", str(words)) if words else encoding


def detected_words(encoding: str | None) -> str:
    """ "Detected: Unicode (UTF-8)", or "detected from the file" before the file was read."""
    if not encoding:
        return QCoreApplication.translate("Encodings", "detected from the file")
    return QCoreApplication.translate("Encodings", "Detected: %1").replace("%1", encoding_words(encoding))
