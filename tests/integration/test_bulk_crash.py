"""kill -9 during a bulk import in its own batch size, then a restart: every row lands once, the error CSV too
(a CSV's, and an .xlsx's whose checkpoint falls inside one of calamine's slices).

The bulk path's batches (settings.bulk_batch_rows: 2,000 rows here, ten batches in the file, as its own 20,000
made of 200,000 rows) each commit with their checkpoint in one transaction; the worker is killed in the middle of
the file (a polite pause between batches gives the test time to aim), and the restarted worker resumes after the
last committed batch.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from tests.integration.test_bulk_xlsx_path import _slice_ends
from tests.integration.test_import_crash import BAD_EVERY, ROOT, ROWS, _cli, big_csv  # noqa: F401  (big_csv: a fixture)
from tests.support import forked
from tests.support.customers import HEADER, codes_by_row, row
from tests.support.forked import fork_server  # noqa: F401  (pytestmark's: the workers are forked)
from tests.support.once import made_once

sys.path.insert(0, str(ROOT / "bench"))
from make_customers_xlsx import write_customers_xlsx

BULK_BATCH = ROWS // 10  # settings.bulk_batch_rows

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


def _wait(desk: Core, task_no: str, until: object, seconds: float) -> object:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        task = desk.store.get(task_no)
        if task is not None and until(task):  # type: ignore[operator]
            return task
        time.sleep(0.02)
    raise AssertionError(f"{task_no}: timed out")


def _big_workbook(path: Path) -> Path:
    """_big_file's rows as a clerk's sheet (make_customers_xlsx: phones and limits as numbers, dates as date
    cells), read by calamine's slices: a batch of 20,000 ends inside one."""
    # names repeat (as the 200,000-row sheet's had to: a shared string table that large is over what calamine is
    # given, xlsx_plain)
    names = ({"姓名": f"客户{i % 1000}"} for i in range(1, ROWS + 1))
    records = ([*HEADER], *(row(i, **({"手机号": "bad"} if i % BAD_EVERY == 0 else {}), **n)
                            for i, n in enumerate(names, 1)))  # fmt: skip
    return write_customers_xlsx(path, ROWS, records)


@pytest.fixture
def big_xlsx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """_big_workbook, made once a test process for every database."""
    return made_once(tmp_path_factory, "big.xlsx", _big_workbook)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_kill_9_mid_bulk_import_then_restart(core: Core, db_url: str, tmp_path: Path,
                                             suffix: str, request: pytest.FixtureRequest) -> None:  # fmt: skip
    path: Path = request.getfixturevalue("big_csv" if suffix == ".csv" else "big_xlsx")
    data_dir = tmp_path / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    settings = {"batch_pause": 0.3, "bulk_batch_rows": BULK_BATCH}
    (data_dir / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    submit = _cli(db_url, data_dir, "submit", str(path), "--type", "customers", "--json")
    out, err = submit.communicate(timeout=120)
    assert submit.returncode == 0, err
    task_no = json.loads(out)["task_no"]

    worker = forked.worker(db_url, data_dir)
    try:  # three batches in (each of BULK_BATCH rows less its few bad ones), seven to go
        task = _wait(core, task_no, lambda t: t.success_count >= 3 * (BULK_BATCH * 19 // 20) or t.status.is_final,
                     180)  # fmt: skip
        assert task.status is TaskStatus.RUNNING and task.success_count < ROWS  # type: ignore[attr-defined]
        worker.kill()
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.communicate()
    log = "\n".join(p.read_text(encoding="utf-8") for p in (data_dir / "logs").glob("*.log*"))
    assert "bulk path" not in log  # killed before its end: the line comes only when the bulk run ends
    if suffix == ".xlsx":  # the run resumes inside a slice of calamine's
        killed = core.store.get(task_no)
        assert killed is not None and killed.checkpoint and killed.checkpoint["row"] not in _slice_ends(path)

    restarted = forked.worker(db_url, data_dir)
    try:
        task = _wait(core, task_no, lambda t: t.status.is_final, 300)
    finally:
        restarted.terminate()
        restarted.communicate(timeout=60)

    ended = core.store.get(task_no)
    assert ended is not None and ended.status is TaskStatus.PARTIALLY_SUCCEEDED, ended and ended.error_msg
    bad = ROWS // BAD_EVERY
    assert (ended.total_count, ended.success_count, ended.fail_count) == (ROWS, ROWS - bad, bad)
    assert ended.attempt == 2 and ended.recoveries == 0  # recovered once, then it moved on
    with core.store.reading() as conn:
        count, distinct, rows = conn.exec_driver_sql(
            f"SELECT COUNT(*), COUNT(DISTINCT code), COUNT(DISTINCT import_row) FROM customers "
            f"WHERE task_no = '{task_no}'"
        ).one()
    assert count == distinct == rows == ROWS - bad
    assert codes_by_row(ended) == {i + 1: ["pattern_mismatch"] for i in range(BAD_EVERY, ROWS + 1, BAD_EVERY)}
    log = "\n".join(p.read_text(encoding="utf-8") for p in (data_dir / "logs").glob("*.log*"))
    assert "bulk path: " in log  # the resumed run went on in bulk
