"""A task's stage and error are stored as code and params and shown in the language of the moment, on
every database: a task that ended under one language reads in the other after a switch (the command
line's JSON, the window's task list), and rows without a code show their text as it is."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from PySide6.QtCore import QLocale, Qt
from sqlalchemy import text, update

from desktop_app.app import Core, build_core
from desktop_app.cli.main import main
from desktop_app.domain.errors import ErrorCode, Lang, TransientError, message
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.store import migrate
from desktop_app.store.db import make_engine
from desktop_app.store.schema import tasks
from desktop_app.store.tasks import Fence
from desktop_app.tasks.builtin_kinds import builtin_task_kinds
from desktop_app.tasks.runner import run_task
from desktop_app.tasks.submit import submit_file
from desktop_app.ui.task_model import STAGE, STATUS, TaskTableModel

OWNER = "test:1:1:aa"
CJK = re.compile(r"[\u4e00-\u9fff]")
OTHER: dict[Lang, Lang] = {"zh": "en", "en": "zh"}
LOCALES: dict[Lang, str] = {"zh": "zh_CN.UTF-8", "en": "en_US.UTF-8"}


def _running(core: Core) -> tuple[TaskRecord, Fence]:
    submitted = core.store.submit(task_type="import", params={"file": "/x/c.csv", "import_type": "customers"},
                                  creator="tester").task  # fmt: skip
    (task,) = core.store.claim(OWNER, 1, only_ids=[submitted.id])
    return task, Fence(task.id, OWNER, task.attempt)


def _get(core: Core, task: TaskRecord) -> TaskRecord:
    current = core.store.get_by_id(task.id)
    assert current is not None
    return current


def test_the_store_keeps_stages_and_errors_as_code_and_params(core: Core) -> None:
    task, fence = _running(core)
    core.store.report_progress(fence, stage=stage_text(Stage.IMPORTING, "zh", row=500, total=1000))
    now = _get(core, task)
    # the text as written stays where it was read
    assert now.stage == stage_text(Stage.IMPORTING, "zh", row=500, total=1000)
    assert now.stage_phrase == {"kind": "stage", "code": "importing", "params": {"row": 500, "total": 1000}}
    assert now.stage_in("en") == stage_text(Stage.IMPORTING, "en", row=500, total=1000)
    # a caller's own words (or an older version's) replace the code: shown as written, never a stale code
    core.store.report_progress(fence, stage="正在校验第 12000 行")
    now = _get(core, task)
    assert now.stage_phrase is None and now.stage_in("en") == "正在校验第 12000 行"

    passing = TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail="timeout")
    core.store.release(fence, delay=0.0, is_retry=True, error_msg=passing.text("zh"),
                       stage=stage_text(Stage.WAITING_RETRY, "zh", number=1))  # fmt: skip
    now = _get(core, task)
    assert now.error_msg == passing.text("zh") and now.error_in("en") == passing.text("en")
    assert now.stage_in("en") == "Waiting for retry 1"

    (task,) = core.store.claim(OWNER, 1, only_ids=[task.id])
    fence = Fence(task.id, OWNER, task.attempt)
    exhausted = message(ErrorCode.RETRIES_EXHAUSTED, "zh", count=3, reason=passing.text("zh"))
    core.store.finish(fence, TaskStatus.FAILED, error_code=ErrorCode.RETRIES_EXHAUSTED.value,
                      error_msg=exhausted, stage=stage_text(Stage.FAILED, "zh"))  # fmt: skip
    ended = _get(core, task)
    assert (ended.stage, ended.error_msg) == ("失败", exhausted)
    assert ended.error_phrase is not None and ended.error_phrase["params"]["reason"]["code"] == "database_unavailable"
    assert ended.error_in("en") == message(ErrorCode.RETRIES_EXHAUSTED, "en", count=3, reason=passing.text("en"))
    assert (ended.stage_in("en"), ended.stage_in("zh")) == ("Failed", "失败")


def test_a_worker_lost_and_a_cancel_keep_their_codes(core: Core) -> None:
    task, _ = _running(core)
    waiting = stage_text(Stage.WAITING_RECOVERY, "zh")
    assert core.store.recover_dead_owners("test", lambda owner: False, 0, stage=waiting, lang="zh") == [task.task_no]
    lost = _get(core, task)
    assert lost.error_code == "worker_lost" and CJK.search(lost.error_msg or "")
    assert lost.error_in("en") == message(ErrorCode.WORKER_LOST, "en", count=1)

    pending = core.store.submit(task_type="import", params={"file": "/x/d.csv"}, creator="tester").task
    core.store.cancel(pending.task_no, stage=stage_text(Stage.CANCELLED, "en"))
    cancelled = _get(core, pending)
    assert (cancelled.stage, cancelled.stage_in("zh")) == ("Cancelled", "已取消")


def test_a_row_written_before_the_codes_shows_its_text(core: Core) -> None:
    task, fence = _running(core)
    core.store.finish(fence, TaskStatus.FAILED, error_code="corrupt_file", error_msg=message(ErrorCode.CORRUPT_FILE),
                      stage=stage_text(Stage.FAILED, "zh"))  # fmt: skip
    with core.store.engine.begin() as conn:  # as an older version left it: text, no code
        conn.execute(update(tasks).where(tasks.c.id == task.id).values(stage_phrase=None, error_phrase=None))
    old = _get(core, task)
    assert (old.stage_phrase, old.error_phrase) == (None, None)
    assert (old.stage_in("en"), old.error_in("en")) == ("失败", message(ErrorCode.CORRUPT_FILE, "zh"))
    assert old.to_json(lang="en")["error_msg"] == message(ErrorCode.CORRUPT_FILE, "zh")


def test_a_task_of_the_previous_schema_shows_its_text_after_the_upgrade(empty_db_url: str, tmp_path: Path) -> None:
    engine = make_engine(empty_db_url)
    try:
        with engine.begin() as conn:  # a database the previous release made (0006), with one ended task
            command.upgrade(migrate._config(conn), "0006")
            conn.execute(
                text(
                    "INSERT INTO tasks (task_no, task_type, lane, params, status, stage, error_code, error_msg, "
                    "creator, created_at, updated_at) VALUES ('T000000-AAAAAA', 'import', 'long', '{}', 'failed', "
                    "'失败', 'corrupt_file', '文件已损坏', 'alice', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
                )
            )
        migrate.upgrade(engine)
    finally:
        engine.dispose()
    core = build_core(data_dir=tmp_path / "data", db_url=empty_db_url)
    try:
        old = core.store.get("T000000-AAAAAA")
        assert old is not None and (old.stage_phrase, old.error_phrase) == (None, None)
        assert (old.stage_in("en"), old.error_in("en")) == ("失败", "文件已损坏")
    finally:
        core.store.engine.dispose()


def _failed_import(core: Core, tmp_path: Path, lang: Lang) -> TaskRecord:
    """A file without the phone column, imported by a desk in `lang`: a file-level failure."""
    path = tmp_path / f"nophone-{lang}.csv"
    path.write_text("客户编号,姓名\nC000001,张三\n", encoding="utf-8")
    result = submit_file(core.store, core.registry, task_type="import", path=path, user="tester",
                         params={"import_type": "customers", "dry_run": False})  # fmt: skip
    (task,) = core.store.claim(OWNER, 1, only_ids=[result.task.id])
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), lang=lang)  # fmt: skip
    ended = _get(core, task)
    assert ended.status is TaskStatus.FAILED and ended.error_code == "missing_required_column"
    return ended


def _cli_json(core: Core, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: Lang,
              *args: str) -> Any:  # fmt: skip
    monkeypatch.setenv("LC_ALL", LOCALES[lang])  # the command line's language, as a clerk's shell sets it
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))  # its settings name no language
    capsys.readouterr()
    assert main([*args, "--json", "--db", core.db_url, "--user", "tester"]) == 0
    return json.loads(capsys.readouterr().out)


WORDS = {
    "zh": ("失败", "缺少必填列：手机号（表头里找不到这一列）"),
    "en": ("Failed", "A required column is missing: Phone (no header names it)"),
}


@pytest.mark.parametrize("written", ["zh", "en"])
def test_a_task_that_failed_in_one_language_reads_in_the_other_on_the_command_line(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, written: Lang
) -> None:
    failed = _failed_import(core, tmp_path, written)
    assert (failed.stage, failed.error_msg) == WORDS[written]  # stored as written
    shown = OTHER[written]
    status = _cli_json(core, capsys, monkeypatch, shown, "status", failed.task_no)
    assert (status["stage"], status["error_msg"], status["error_code"]) == (*WORDS[shown], "missing_required_column")
    (listed,) = _cli_json(core, capsys, monkeypatch, shown, "tasks")
    assert (listed["stage"], listed["error_msg"]) == WORDS[shown]
    # the JSON keeps exactly its fields, strings as before
    assert set(status) == set(failed.to_json()) and all(isinstance(status[k], str) for k in ("stage", "error_msg"))
    again = _cli_json(core, capsys, monkeypatch, written, "status", failed.task_no)
    assert (again["stage"], again["error_msg"]) == WORDS[written]


@pytest.mark.parametrize("written", ["zh", "en"])
def test_a_task_that_failed_in_one_language_reads_in_the_other_in_the_window_list(
    core: Core, tmp_path: Path, qapp: Any, written: Lang
) -> None:
    failed = _failed_import(core, tmp_path, written)
    model = TaskTableModel(lambda _before, _limit: None, kinds=builtin_task_kinds())
    model.upsert(failed)
    before = QLocale()
    try:
        for shown in (OTHER[written], written):
            # what Translations.switch() does to the window's language
            QLocale.setDefault(QLocale(LOCALES[shown].split(".")[0]))
            model.retranslate()
            stage, tip = model.index(0, STAGE).data(), model.index(0, STATUS).data(Qt.ItemDataRole.ToolTipRole)
            reason = WORDS[shown][1]
            assert tip == reason and reason in stage, (stage, tip)
            assert bool(CJK.search(tip)) is (shown == "zh")
    finally:
        QLocale.setDefault(before)
