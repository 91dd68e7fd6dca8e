"""kill -9 during a sync after its deletes committed, then a restart: no row deleted twice, the table ends equal to
the file, and the undo puts back every column."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.store import import_log
from desktop_app.store.import_log import LogAction
from tests.integration.test_delete_mode import whole_rows
from tests.integration.test_import_modes import PRODUCT_HEADER, product
from tests.integration.test_modes_crash import ROWS, changes, crash_and_finish, queued, worker_settings
from tests.support.forked import fork_server  # noqa: F401  (pytestmark's: the workers are forked)
from tests.support.imports import run_type_import, write_rows

GONE = ROWS // 10  # the table's first rows, which the file lacks

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


def test_kill_9_mid_sync_then_restart_deletes_each_row_once(core: Core, db_url: str, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    start = write_rows(tmp_path / "base.csv", PRODUCT_HEADER, [product(n) for n in range(1, ROWS + 1)])
    base = run_type_import(core, start, "products", batch_size=2000)
    assert base.success_count == ROWS
    worker_settings(data_dir)  # read by the worker processes (the core here has its settings)
    before = whole_rows(core, "products", "sku")
    # rows GONE+1.. of the table, every other one with a new price, and as many new rows
    file = [product(n, 单价="9.99") if n % 2 else product(n) for n in range(GONE + 1, ROWS + GONE + 1)]
    path = write_rows(tmp_path / "sync.csv", PRODUCT_HEADER, file)
    task_no = queued(core.submitter().submit_import(changes(path, "sync", confirm_deletes=GONE), user="tester"))
    # killed once the deletes and some batches of the file's rows are committed
    task = crash_and_finish(core, db_url, data_dir, task_no, progress=GONE + ROWS // 5)
    assert task.status is TaskStatus.SUCCEEDED and task.attempt == 2, task.error_msg
    j = task.to_json()
    assert (j["deleted_count"], j["inserted_count"], j["fail_count"]) == (GONE, GONE, 0), j
    assert j["updated_count"] + j["unchanged_count"] == ROWS - GONE
    with core.store.reading() as conn:
        assert import_log.count(conn, task_no, [LogAction.DELETED]) == GONE  # each whole row recorded once
    skus = [r[0] for r in whole_rows(core, "products", "sku")]
    assert sorted(skus) == sorted(f"SKU-{n:04d}" for n in range(GONE + 1, ROWS + GONE + 1))
    undo_no = queued(core.submitter().submit_undo(task_no, user="tester"))
    undone = crash_and_finish(core, db_url, data_dir, undo_no, progress=ROWS // 10)
    assert undone.status is TaskStatus.SUCCEEDED and undone.to_json()["kept_count"] == 0, undone.error_msg
    assert whole_rows(core, "products", "sku") == before
