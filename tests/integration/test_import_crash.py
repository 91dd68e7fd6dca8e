"""kill -9 during a 20,000-row import in 80 batches, then a restart: every row lands exactly once, the error CSV too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from tests.support import forked
from tests.support.customers import HEADER, codes_by_row, row
from tests.support.forked import fork_server  # noqa: F401  (pytestmark's: the workers are forked)
from tests.support.once import made_once

ROOT = Path(__file__).resolve().parents[2]
# 80 batches of 250 rows, killed after the 12th: as far into the run and from its end, in batches, as
# 200,000 rows in batches of 500 were killed after 30,000, for a tenth of the rows
ROWS = 20_000
BATCH = 250
BAD_EVERY = 200  # 100 bad rows spread over the file

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


@pytest.fixture
def big_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """_big_file, made once a test process for every database (and test_bulk_crash's .csv)."""
    return made_once(tmp_path_factory, "big.csv", _big_file)


def _big_file(path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write(",".join(HEADER) + "\n")
        for i in range(1, ROWS + 1):
            cells = row(i, 手机号="bad") if i % BAD_EVERY == 0 else row(i)
            handle.write(",".join(cells) + "\n")
    return path


def _cli(db_url: str, data_dir: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        # --db and --data-dir are alternatives on the command line; BATCHDESK_HOME places the files
        [sys.executable, "-m", "desktop_app", *args, "--db", db_url],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(data_dir)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_kill_9_mid_import_then_restart(core: Core, db_url: str, tmp_path: Path, big_csv: Path) -> None:
    data_dir = tmp_path / "data"
    submit = _cli(db_url, data_dir, "submit", str(big_csv), "--type", "customers", "--json", "--batch-size", str(BATCH))
    out, err = submit.communicate(timeout=120)
    assert submit.returncode == 0, err
    task_no = json.loads(out)["task_no"]

    worker = forked.worker(db_url, data_dir)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            task = core.store.get(task_no)
            if task is not None and task.success_count >= 12 * (BATCH - 2):
                break
            time.sleep(0.02)
        else:
            raise AssertionError("the import did not get going")
        assert task.status is TaskStatus.RUNNING and task.success_count < ROWS
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
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the import did not finish after the restart")
    finally:
        restarted.terminate()
        restarted.communicate(timeout=60)

    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED, task.error_msg
    bad = ROWS // BAD_EVERY
    assert (task.total_count, task.success_count, task.fail_count) == (ROWS, ROWS - bad, bad)
    assert task.attempt == 2 and task.recoveries == 0  # recovered once, then it moved on
    with core.store.reading() as conn:
        count, distinct = conn.exec_driver_sql(
            "SELECT COUNT(*), COUNT(DISTINCT code) FROM customers WHERE task_no = :t".replace(":t", "'" + task_no + "'")
        ).one()
    assert count == distinct == ROWS - bad
    # the error CSV names each bad row once, with its row number, despite the crash
    assert codes_by_row(task) == {i + 1: ["pattern_mismatch"] for i in range(BAD_EVERY, ROWS + 1, BAD_EVERY)}
