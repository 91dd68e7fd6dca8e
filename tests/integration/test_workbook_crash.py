"""kill -9 of a workbook's worker while its second sheet imports, then a restart: the first sheet is not run
again, the second resumes from its checkpoint, every row lands exactly once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from tests.support import forked
from tests.support.forked import fork_server  # noqa: F401  (pytestmark's: the workers are forked)
from tests.support.once import made_once
from tests.support.workbooks import GOODS_HEADER, PRICES_HEADER, set_up_goods_and_prices

ROOT = Path(__file__).resolve().parents[2]
GOODS = 200
# 80 batches of 50 rows, killed after the 10th: as far into the sheet and from its end, in batches, as 40,000
# rows in batches of 500 killed after 5,000, for a tenth of the rows
PRICES = 4_000
BATCH = 50
PAUSE = 0.03  # settings.batch_pause: the 70 batches after the kill's aim last 2 s at least, on any load

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
              pytest.mark.usefixtures("fork_server")]  # fmt: skip


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    set_up_goods_and_prices(core)
    yield core
    core.store.engine.dispose()


def _book(path: Path) -> Path:
    book = openpyxl.Workbook(write_only=True)
    prices = book.create_sheet("price sheet")  # the prices first: they run second
    prices.append(PRICES_HEADER)
    for n in range(1, PRICES + 1):
        prices.append([f"P{n}", f"G{n % GOODS + 1}", f"{n % 1000}.50"])
    goods = book.create_sheet("goods")
    goods.append(GOODS_HEADER)
    for n in range(1, GOODS + 1):
        goods.append([f"G{n}", f"货{n}"])
    book.save(path)
    return path


@pytest.fixture
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """_book, made once a test process for every database."""
    return made_once(tmp_path_factory, "book.xlsx", _book)


def _cli(db_url: str, data_dir: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_app", *args, "--db", db_url],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(data_dir)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _wait_for(what: str, seconds: float, check: object) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError(what)


def test_kill_9_mid_second_sheet_then_restart(core: Core, db_url: str, book: Path) -> None:
    data_dir = core.paths.data_dir
    (data_dir / "settings.json").write_text(json.dumps({"batch_pause": PAUSE}), encoding="utf-8")  # the workers'
    submit = _cli(db_url, data_dir, "submit", str(book), "--all-sheets", "--json", "--batch-size", str(BATCH))
    out, err = submit.communicate(timeout=120)
    assert submit.returncode == 0, err
    parent_no = json.loads(out)["task_no"]
    goods, prices = core.store.children(parent_no)
    assert (goods.params["sheet"], prices.params["sheet"]) == ("goods", "price sheet")

    worker = forked.worker(db_url, data_dir)
    try:
        def going() -> bool:
            now = core.store.get(prices.task_no)
            return now is not None and now.success_count >= 10 * BATCH

        _wait_for("the second sheet did not get going", 180, going)
        running = core.store.get(prices.task_no)
        assert running is not None and running.status is TaskStatus.RUNNING and running.success_count < PRICES
        worker.kill()
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.communicate()
    first = core.store.get(goods.task_no)
    assert first is not None and first.status is TaskStatus.SUCCEEDED

    restarted = forked.worker(db_url, data_dir)
    try:
        def ended() -> bool:
            now = core.store.get(parent_no)
            return now is not None and now.status.is_final

        _wait_for("the workbook did not finish after the restart", 300, ended)
    finally:
        restarted.terminate()
        restarted.communicate(timeout=60)

    parent = core.store.get(parent_no)
    goods_done, prices_done = core.store.children(parent_no)
    assert parent is not None and parent.status is TaskStatus.SUCCEEDED, parent
    assert (parent.total_count, parent.success_count) == (GOODS + PRICES, GOODS + PRICES)
    assert goods_done.attempt == 1 and goods_done.ended_at == first.ended_at  # not run again
    assert prices_done.status is TaskStatus.SUCCEEDED and prices_done.attempt == 2  # resumed once
    assert (prices_done.total_count, prices_done.success_count) == (PRICES, PRICES)
    assert parent.attempt == 2
    with core.store.reading() as conn:
        count, distinct, linked = conn.execute(sa.text(
            "SELECT COUNT(*), COUNT(DISTINCT price_code), COUNT(goods_id) FROM wb_prices")).one()  # fmt: skip
    assert count == distinct == linked == PRICES
