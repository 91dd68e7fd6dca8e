"""A clerk's words, not a developer's (issue 11): how a task ended, system tasks, encodings, settings,
technical details, and the toolbar."""

from __future__ import annotations

from desktop_app.ui.encodings import encoding_words


def test_encodings_are_named_in_words() -> None:
    assert encoding_words("gb18030") == "Chinese (GBK) - Excel on Chinese Windows"
    assert encoding_words("GBK") == encoding_words("cp936") == encoding_words("gb2312") == encoding_words("gb18030")
    assert encoding_words("utf-8") == "Unicode (UTF-8)"
    assert encoding_words("utf-8-sig") == "UTF-8 with BOM (Excel)"
    assert encoding_words("cp1252") == "Western (Windows-1252) - Excel on English Windows"
    assert encoding_words("latin-1") == "Western (Latin-1)"
    assert encoding_words("utf-16") == 'Unicode (UTF-16) - Excel\'s "Unicode text"'
    assert encoding_words("koi8-r") == "koi8-r", "one it does not know keeps its name"
