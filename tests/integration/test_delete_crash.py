"""kill -9 during a delete and during its undo, then a restart: each row deleted once, recorded once, put back once."""

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

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


def test_kill_9_mid_delete_then_restart_deletes_each_row_once(core: Core, db_url: str, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    start = write_rows(tmp_path / "base.csv", PRODUCT_HEADER, [product(n) for n in range(1, ROWS + 2)])
    base = run_type_import(core, start, "products", batch_size=2000)
    assert base.success_count == ROWS + 1
    worker_settings(data_dir)  # read by the worker processes (the core here has its settings)
    before = whole_rows(core, "products", "sku")
    keys = write_rows(tmp_path / "gone.csv", ["商品编码"], [[f"SKU-{n:04d}"] for n in range(1, ROWS + 1)])
    task_no = queued(core.submitter().submit_import(changes(keys, "delete"), user="tester"))
    task = crash_and_finish(core, db_url, data_dir, task_no, progress=ROWS // 5)
    assert task.status is TaskStatus.SUCCEEDED and task.attempt == 2, task.error_msg
    j = task.to_json()
    assert (j["deleted_count"], j["fail_count"], j["success_count"]) == (ROWS, 0, ROWS)
    with core.store.reading() as conn:
        assert import_log.count(conn, task_no, [LogAction.DELETED]) == ROWS  # each whole row recorded once
    assert [r[0] for r in whole_rows(core, "products", "sku")] == [f"SKU-{ROWS + 1:04d}"]
    # the undo, killed as well, puts every row back once, every column as it was
    undo_no = queued(core.submitter().submit_undo(task_no, user="tester"))
    undone = crash_and_finish(core, db_url, data_dir, undo_no, progress=ROWS // 10)
    j = undone.to_json()
    assert undone.status is TaskStatus.SUCCEEDED and (j["restored_count"], j["kept_count"]) == (ROWS, 0)
    assert whole_rows(core, "products", "sku") == before
