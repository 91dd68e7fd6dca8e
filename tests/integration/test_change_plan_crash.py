"""kill -9 during the apply of a change plan, then a restart: each row written once, held to the plan throughout."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.store import import_log
from desktop_app.store.import_log import LogAction
from tests.integration.test_import_modes import PRODUCT_HEADER, product
from tests.integration.test_modes_crash import BATCH, ROWS, crash_and_finish, prices, queued, worker_settings
from tests.support.forked import fork_server  # noqa: F401  (pytestmark's: the workers are forked)
from tests.support.imports import run_type_import, write_rows

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


def test_kill_9_mid_apply_then_restart_writes_each_planned_row_once(core: Core, db_url: str, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    start = write_rows(tmp_path / "base.csv", PRODUCT_HEADER, [product(n) for n in range(1, ROWS + 1)])
    base = run_type_import(core, start, "products", batch_size=2000)
    assert base.success_count == ROWS
    worker_settings(data_dir)  # read by the worker processes (the core here has its settings)
    # an upsert: the second half of the table a new price (every other row: the rest unchanged), as many new rows
    first = ROWS // 2 + 1
    rows = [product(n, 单价=f"{n + 1}.25" if n % 2 or n > ROWS else f"{n}.50") for n in range(first, first + ROWS)]
    path = write_rows(tmp_path / "changes.csv", PRODUCT_HEADER, rows)
    dry = run_type_import(core, path, "products", mode="upsert", dry_run=True, batch_size=BATCH)  # the apply's too
    planned = dry.to_json()["plan_counts"]
    inserted, updated = ROWS // 2, ROWS // 4
    assert (planned["inserted"], planned["updated"], planned["unchanged"]) == (inserted, updated, ROWS // 4)
    task_no = queued(core.submitter().submit_apply(dry.task_no, user="tester"))
    task = crash_and_finish(core, db_url, data_dir, task_no, progress=ROWS // 5)
    assert task.status is TaskStatus.SUCCEEDED and task.attempt == 2, task.error_msg
    j = task.to_json()
    # the resumed run held its rows to the plan as the first did: nothing refused, nothing twice
    assert (j["inserted_count"], j["updated_count"], j["unchanged_count"], j["fail_count"]) == (
        inserted, updated, ROWS // 4, 0)  # fmt: skip
    assert j["plan_of"] == dry.task_no
    with core.store.reading() as conn:
        assert import_log.count(conn, task_no, [LogAction.UPDATED]) == updated  # each update recorded once
    now = prices(core)
    assert len(now) == ROWS + ROWS // 2
    assert all(now[f"SKU-{n:04d}"] == Decimal(f"{n + 1}.25") for n in range(first, first + ROWS) if n % 2 or n > ROWS)
    assert all(now[f"SKU-{n:04d}"] == Decimal(f"{n}.50") for n in range(1, first))
    marked = core.store.get(dry.task_no)
    assert marked is not None and marked.applied_by == task_no
