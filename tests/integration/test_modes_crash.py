"""kill -9 during an update, an upsert and an undo, then a restart: each row changed once, undone once."""

from __future__ import annotations

import json
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import Core
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import SubmitResult, TaskRecord
from desktop_app.imports.options import ImportOptions
from desktop_app.store import import_log
from desktop_app.store.import_log import LogAction
from tests.integration.test_import_modes import PRODUCT_HEADER, product
from tests.support import forked
from tests.support.forked import fork_server  # noqa: F401  (pytestmark's)
from tests.support.imports import rows_of, run_type_import, write_rows

# Few rows in many small batches: a kill aimed at committed progress lands a batch or more into the run
# and dozens of batches before its end, as 20,000 rows in batches of 200 did, for a tenth of the work.
ROWS = 2_000
BATCH = 80  # --batch-size: 25 batches, killed after the 5th (ROWS // 5)
UNDO_PAGE = 25  # settings.undo_page_rows: 80 pages an undo (which has no pause), killed after the 8th (ROWS // 10)
PAUSE = 0.08  # settings.batch_pause: the 20 batches after the kill's aim last 1.6 s at least, on any load

# each module that runs crash_and_finish uses fork_server: its workers are forked (tests/support/forked.py)
pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


def prices(core: Core) -> dict[str, Decimal]:
    return {sku: Decimal(str(p)) for sku, p in rows_of(core, "products", ["sku", "unit_price"], ["sku"])}


def worker_settings(data_dir: Path, **settings: object) -> None:
    """The settings file the worker processes read: a polite pause between batches and small undo pages,
    so that a kill on a condition of committed progress has seconds of the run left to land in."""
    data_dir.mkdir(parents=True, exist_ok=True)
    chosen = {"batch_pause": PAUSE, "undo_page_rows": UNDO_PAGE, **settings}
    (data_dir / "settings.json").write_text(json.dumps(chosen), encoding="utf-8")


def crash_and_finish(core: Core, db_url: str, data_dir: Path, task_no: str, *, progress: int) -> TaskRecord:
    """Run the queued task in a worker process, kill -9 it once `progress` rows are in, run it to the end."""
    worker = forked.worker(db_url, data_dir)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            task = core.store.get(task_no)
            if task is not None and (task.success_count >= progress or task.status.is_final):
                break
            time.sleep(0.02)
        assert task is not None and task.status is TaskStatus.RUNNING, "killed before it ended"
        worker.kill()
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.communicate()
    restarted = forked.worker(db_url, data_dir)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            task = core.store.get(task_no)
            if task is not None and task.status.is_final:
                return task
            time.sleep(0.05)
        raise AssertionError("the task did not finish after the restart")
    finally:
        restarted.terminate()
        restarted.communicate(timeout=60)


def queued(result: SubmitResult) -> str:
    """A task queued through the one submission path here, for a worker process to run: what the command
    line's submit, undo and apply do (a Python process's start-up for each cost seconds a test)."""
    assert not result.refused and result.duplicate_of is None, result
    return result.task.task_no


def changes(path: Path, mode: str, **options: Any) -> ImportOptions:
    """A products import of `path` in `mode`, in batches of BATCH rows (`submit --batch-size`)."""
    return ImportOptions(file=path, import_type="products", mode=ImportMode(mode), batch_size=BATCH, **options)


@pytest.mark.parametrize("mode", ["update", "upsert"])
def test_kill_9_mid_update_then_restart_changes_each_row_once(core: Core, db_url: str, tmp_path: Path,
                                                              mode: str) -> None:  # fmt: skip
    data_dir = tmp_path / "data"
    start = write_rows(tmp_path / "base.csv", PRODUCT_HEADER, [product(n) for n in range(1, ROWS + 1)])
    base = run_type_import(core, start, "products", batch_size=2000)
    assert base.success_count == ROWS
    worker_settings(data_dir)  # read by the worker processes (the core here has its settings)
    before = prices(core)
    # update: every row a new price; upsert: the second half new rows as well
    first = 1 if mode == "update" else ROWS // 2 + 1
    rows = [product(n, 单价=f"{n + 1}.25") for n in range(first, first + ROWS)]
    path = write_rows(tmp_path / "changes.csv", PRODUCT_HEADER, rows)
    task_no = queued(core.submitter().submit_import(changes(path, mode), user="tester"))
    task = crash_and_finish(core, db_url, data_dir, task_no, progress=ROWS // 5)
    # recovered once, then it moved on: recoveries count only since the last progress
    assert task.status is TaskStatus.SUCCEEDED and task.attempt == 2 and task.recoveries == 0, task.error_msg
    inserted = 0 if mode == "update" else ROWS // 2
    j = task.to_json()
    assert (j["inserted_count"], j["updated_count"], j["unchanged_count"], j["fail_count"]) == (
        inserted, ROWS - inserted, 0, 0)  # fmt: skip
    with core.store.reading() as conn:
        assert import_log.count(conn, task_no, [LogAction.UPDATED]) == ROWS - inserted  # each update recorded once
    now = prices(core)
    assert all(now[f"SKU-{n:04d}"] == Decimal(f"{n + 1}.25") for n in range(first, first + ROWS))
    # and the values it replaced were recorded once: the undo puts every one back
    undo_no = queued(core.submitter().submit_undo(task_no, user="tester"))
    undone = crash_and_finish(core, db_url, data_dir, undo_no, progress=ROWS // 10)
    j = undone.to_json()
    assert (j["deleted_count"], j["restored_count"], j["kept_count"]) == (inserted, ROWS - inserted, 0)
    assert undone.status is TaskStatus.SUCCEEDED and prices(core) == before
