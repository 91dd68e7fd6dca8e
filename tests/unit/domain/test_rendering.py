"""Stages and errors kept as code and params render in either language; plain text passes through."""

from __future__ import annotations

import json
import pickle
import re
import string
from typing import Any

import pytest

from desktop_app.domain.errors import MESSAGES, REASONS, ErrorCode, Lang, TransientError, message
from desktop_app.domain.notes import TEXTS as NOTE_TEXTS
from desktop_app.domain.notes import Note, NoteCode
from desktop_app.domain.phrase import Phrase, is_stored_phrase, stored_phrase
from desktop_app.domain.rendering import render
from desktop_app.domain.stages import TEXTS, Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord

LANGS: tuple[Lang, ...] = ("zh", "en")
LEFTOVER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def _fields(*templates: str) -> set[str]:
    return {name for t in templates for _, name, _, _ in string.Formatter().parse(t) if name}


def _unsuffixed(names: set[str]) -> set[str]:
    return {re.sub(r"_(zh|en)$", "", name) for name in names}


def _params(names: set[str]) -> dict[str, Any]:
    # each a value of its own, so a rendering that dropped one is seen
    return {name: f"<{name}>" if name != "count" else 7 for name in sorted(names)}


def _through_the_table(text: str) -> dict[str, Any] | None:
    """What a task row keeps and gives back: JSON, as the JSON columns store it."""
    stored = stored_phrase(text)
    return None if stored is None else json.loads(json.dumps(stored))


@pytest.mark.parametrize("stage", list(Stage))
def test_every_stage_renders_in_both_languages_from_what_is_stored(stage: Stage) -> None:
    zh, en = TEXTS[stage]
    assert _fields(zh) == _fields(en), "both languages take the same params"
    params = _params(_fields(zh))
    for written in LANGS:
        stored = _through_the_table(stage_text(stage, written, **params))
        assert stored is not None and is_stored_phrase(stored)
        for shown in LANGS:
            text = render(stored, "stale text", shown)
            assert text == stage_text(stage, shown, **params)
            assert not LEFTOVER.search(text or ""), text
            assert all(str(v) in (text or "") for v in params.values()), text


def _error_cases() -> list[tuple[ErrorCode, dict[str, Any]]]:
    cases = [(code, _params(_fields(*MESSAGES[code]))) for code in ErrorCode]
    for (code, reason), templates in REASONS.items():
        cases.append((code, {**_params(_fields(*templates) - {"reason"}), "reason": reason}))
    return cases


@pytest.mark.parametrize(("code", "params"), _error_cases(), ids=lambda v: str(v) if isinstance(v, str) else "")
def test_every_error_renders_in_both_languages_from_what_is_stored(code: ErrorCode, params: dict[str, Any]) -> None:
    zh, en = REASONS.get((code, str(params.get("reason"))), MESSAGES[code])
    # the same params in both (a label in each language, `column_zh` / `column_en`, counts as one)
    assert _unsuffixed(_fields(zh)) == _unsuffixed(_fields(en)), "both languages take the same params"
    for written in LANGS:
        stored = _through_the_table(TransientError(code, **params).text(written))
        assert stored is not None and stored["code"] == code.value
        for shown in LANGS:
            text = render(stored, "stale text", shown)
            assert text == message(code, shown, **params)
            assert not LEFTOVER.search(text or ""), text
            template = zh if shown == "zh" else en
            assert all(str(params[k]) in (text or "") for k in _fields(template)), text


@pytest.mark.parametrize("code", list(NoteCode))
def test_every_note_renders_in_both_languages_from_what_is_stored(code: NoteCode) -> None:
    """A failed import's reason (too many rows failed) is a note: its error_msg renders the same way."""
    zh, en = NOTE_TEXTS[code]
    assert _fields(zh) == _fields(en), "both languages take the same params"
    note = Note(code, _params(_fields(zh)))
    for written in LANGS:
        stored = _through_the_table(note.text(written))
        assert stored is not None and stored["kind"] == "note"
        for shown in LANGS:
            text = render(stored, "stale text", shown)
            assert text == note.text(shown) and not LEFTOVER.search(text or ""), text


def test_a_nested_error_keeps_its_own_code_and_renders_in_the_language_shown() -> None:
    inner = TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail="timeout").text("zh")
    outer = message(ErrorCode.RETRIES_EXHAUSTED, "zh", count=3, reason=inner)
    stored = _through_the_table(outer)
    assert stored is not None
    assert stored["params"]["reason"] == {"kind": "error", "code": "database_unavailable",
                                          "params": {"detail": "timeout"}}  # fmt: skip
    english = render(stored, outer, "en")
    assert english == message(ErrorCode.RETRIES_EXHAUSTED, "en", count=3,
                              reason=message(ErrorCode.DATABASE_UNAVAILABLE, "en", detail="timeout"))  # fmt: skip
    assert "The database cannot be reached" in (english or "") and "数据库" not in (english or "")


@pytest.mark.parametrize("text", ["正在校验第 12000 行", "step 3", "", None])
def test_plain_text_from_an_older_version_is_shown_as_it_is(text: str | None) -> None:
    assert stored_phrase(text) is None
    for lang in LANGS:
        assert render(None, text, lang) == text


@pytest.mark.parametrize(
    "stored",
    [
        {"kind": "stage", "code": "beamed_up", "params": {}},  # a newer desk's stage
        {"kind": "error", "code": "no_such_code", "params": {}},
        {"kind": "stage", "code": "importing", "params": {"row": 1}},  # a param gone missing
        {"kind": "weather", "code": "importing", "params": {}},
        {"code": "importing"},
        "importing",
    ],
)
def test_what_this_version_cannot_render_shows_the_stored_text(stored: Any) -> None:
    assert render(stored, "as written", "en") == "as written"


def test_a_phrase_is_its_text_and_survives_a_copy() -> None:
    phrase = stage_text(Stage.IMPORTING, "en", row=5, total=10)
    assert phrase == "Importing row 5 of 10" and isinstance(phrase, Phrase)
    copied = pickle.loads(pickle.dumps(phrase))
    assert copied == phrase and stored_phrase(copied) == stored_phrase(phrase)
    assert stored_phrase(phrase[:9]) is None  # an edited text is plain text: shown as it is


def _record(**values: Any) -> TaskRecord:
    return TaskRecord(id=1, task_no="T260101-AAAAAA", task_type="import", lane=Lane.LONG,
                      status=TaskStatus.FAILED, params={"file": "/x/c.csv", "import_type": "customers"},
                      **values)  # fmt: skip


def test_the_record_renders_in_the_language_asked_and_its_json_keeps_its_fields() -> None:
    stage = stage_text(Stage.FAILED, "zh")
    error = TransientError(ErrorCode.CORRUPT_FILE, detail="bad zip").text("zh")
    record = _record(stage=stage, error_msg=error, error_code="corrupt_file",
                     stage_phrase=stored_phrase(stage), error_phrase=stored_phrase(error))  # fmt: skip
    assert (record.stage, record.error_msg) == (stage, error)  # the stored text, as before
    assert record.stage_in("en") == "Failed" and record.error_in("en") == message(ErrorCode.CORRUPT_FILE, "en",
                                                                                  detail="bad zip")  # fmt: skip
    english, stored = record.to_json(lang="en"), record.to_json()
    assert set(english) == set(stored)
    assert (english["stage"], english["error_msg"], english["error_code"]) == (
        "Failed", record.error_in("en"), "corrupt_file")  # fmt: skip
    assert (stored["stage"], stored["error_msg"]) == (stage, error)
    legacy = _record(stage="失败", error_msg="文件已损坏")
    assert (legacy.stage_in("en"), legacy.error_in("en")) == ("失败", "文件已损坏")
    assert _record().error_in("en") is None and _record().stage_in("en") == ""


def test_a_stage_reads_its_numbers_with_thousands_separators() -> None:
    # seen in the window: "正在导入第 50001 行（共 200000 行）", 200000 read as 20000 at a glance
    zh = stage_text(Stage.IMPORTING, "zh", row=50_001, total=200_000)
    assert zh == "正在导入第 50,001 行（共 200,000 行）"
    assert stage_text(Stage.EXPORTING, "en", row=1_234_567, total=2_000_000) == "Exporting row 1,234,567 of 2,000,000"
    assert stored_phrase(zh) == {"kind": "stage", "code": "importing", "params": {"row": 50_001, "total": 200_000}}
    assert render(stored_phrase(zh), None, "en") == "Importing row 50,001 of 200,000"
    assert stage_text(Stage.IMPORTING, "en", row=5, total=999) == "Importing row 5 of 999"
