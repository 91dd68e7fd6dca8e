"""kill -9 of a worker anywhere in a feed's run, then a restart: no file lost, none imported twice, every
file in exactly one place (still in the folder, or in imported/, failed/ or duplicates/). And two desks'
workers on one database: each file of a feed imported once."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.feeds import FileState
from desktop_app.domain.status import TaskStatus
from desktop_app.store.feeds import FeedStore
from tests.support.customers import row, write_csv
from tests.support.feeds import OUTCOME_FOLDERS, add_feed
from tests.support.forked import Forked, feed_main, fork_server  # noqa: F401  (fork_server: below)

ROOT = Path(__file__).resolve().parents[2]
NOTES = ("-errors.csv", "-why.txt", "-duplicate.txt")
# A worker quick to look for work and to scan again while files are on their way (2 s each by default):
# the tests wait on the feed's steps, not on its pauses between them
QUICK: dict[str, object] = {"poll_interval": 0.1}
FOLLOW_UP = "0.3"

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.usefixtures("fork_server"),
]


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    yield core
    core.close()


def _drop(inbox: Path, files: int, rows: int = 3) -> dict[str, str]:
    """`files` distinct files, one copy of the first under another name, one bad file; name -> SHA-256."""
    for n in range(files):
        write_csv(inbox / f"f{n:03d}.csv", [row(n * rows + i) for i in range(1, rows + 1)])
    shutil.copyfile(inbox / "f000.csv", inbox / "copy.csv")
    write_csv(inbox / "bad.csv", [row(900_000 + i, 手机号="x") for i in range(3)])
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in inbox.iterdir()}


def _worker(db_url: str, data_dir: Path, *args: str, settings: dict[str, object] | None = None) -> Forked:
    """The feed worker (tests/support/feedworker.py), forked (tests/support/forked.py)."""
    argv = ["--db", db_url, "--data-dir", str(data_dir), "--settings", json.dumps({**QUICK, **(settings or {})}),
            "--follow-up", FOLLOW_UP, *args]  # fmt: skip
    return Forked(feed_main, argv, data_dir.parent / f"{data_dir.name}-worker-{time.monotonic_ns()}.err")


def _stop(worker: Forked) -> None:
    if worker.poll() is None:
        worker.terminate()
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            worker.kill()
    worker.communicate()


def _until_done(core: Core, feed_id: int, inbox: Path, timeout: float = 300) -> None:
    feeds = FeedStore(core.store.engine)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        on_way = feeds.in_state(feed_id, FileState.SETTLING, FileState.READY, FileState.QUEUED, FileState.MOVING)
        if not on_way and not [p for p in inbox.iterdir() if p.is_file()]:
            return
        time.sleep(0.05)
    raise AssertionError(f"still on their way: {[(r.name, r.state.value, r.problem) for r in on_way]}")


def _check(core: Core, inbox: Path, dropped: dict[str, str]) -> None:
    """Each dropped file in exactly one place; each file's bytes imported at most once (the good ones
    exactly once); every row of the table once; no half-made copy left anywhere."""
    found: list[tuple[str, str]] = []
    leftovers = []
    for folder, _, names in os.walk(inbox, followlinks=True):  # an outcome folder may be a link elsewhere
        for name in names:
            path = Path(folder) / name
            if name.startswith("."):
                leftovers.append(path)
            elif not name.endswith(NOTES):
                found.append((name, hashlib.sha256(path.read_bytes()).hexdigest()))
    assert not leftovers, leftovers
    names = Counter(name for name, _ in found)
    assert sorted(Counter(dropped.values()).elements()) == sorted(Counter(s for _, s in found).elements()), found
    assert sum(names.values()) == len(dropped), names  # nothing lost, nothing doubled
    imports = [t for t in core.store.list(limit=100_000) if t.task_type == "import"]
    wrote = Counter(t.params["file_sha256"] for t in imports if t.success_count > 0)
    assert all(count == 1 for count in wrote.values()), wrote  # no bytes imported twice
    good = {sha for name, sha in dropped.items() if name != "bad.csv"}
    assert set(wrote) == good
    assert all(t.status.is_final for t in imports)
    with core.store.reading() as conn:
        count, distinct = conn.exec_driver_sql("SELECT COUNT(*), COUNT(DISTINCT code) FROM customers").one()
    assert count == distinct == 3 * (len(dropped) - 2)
    where = {name: "" for name, _ in found if (inbox / name).exists()}
    for outcome in OUTCOME_FOLDERS:
        for _folder, _, names in os.walk(inbox / outcome, followlinks=True):
            where.update((name, outcome) for name in names if not name.endswith(NOTES))
    assert where.get("copy.csv") == "duplicates" and where.get("bad.csv") == "failed"


def _other_volume(inbox: Path) -> Iterator[Path]:
    """The outcome folders of the feed on another file system (tmpfs): moves there copy, check, delete."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(inbox).st_dev:
        pytest.skip("no other volume to move to")
    with tempfile.TemporaryDirectory(dir=shm) as folder:
        for outcome in OUTCOME_FOLDERS:
            (Path(folder) / outcome).mkdir()
            (inbox / outcome).symlink_to(Path(folder) / outcome)
        yield Path(folder)


@pytest.mark.slow
@pytest.mark.parametrize("point", ["claimed", "submitted", "intend", "move", "linked", "moved", "copied", "placed"])
def test_kill_9_at_each_point_of_a_feed_run_then_a_restart(
    core: Core, db_url: str, tmp_path: Path, point: str
) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    dropped = _drop(inbox, 10)
    volumes = _other_volume(inbox) if point in ("copied", "placed") else iter([tmp_path])
    next(volumes)
    try:
        feed = add_feed(core, inbox)
        data = tmp_path / "desk"
        # the third time the point is reached, the worker dies there (a few files are past it, some not)
        doomed = _worker(db_url, data, "--crash-at", point, "--crash-after", "3")
        try:
            doomed.wait(180)
        finally:
            if doomed.poll() is None:
                doomed.kill()
            _, err = doomed.communicate()
        assert doomed.returncode == -signal.SIGKILL, f"the worker did not die at {point}: {err[-2000:]}"
        restarted = _worker(db_url, data)
        try:
            _until_done(core, feed.id, inbox)
        finally:
            _stop(restarted)
        _check(core, inbox, dropped)
    finally:
        next(volumes, None)


@pytest.mark.slow
def test_kill_9_at_random_moments_of_a_big_drop_then_a_restart(core: Core, db_url: str, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    dropped = _drop(inbox, 120)
    feed = add_feed(core, inbox)
    data = tmp_path / "desk"
    chance = random.Random(25)
    for _ in range(3):
        worker = _worker(db_url, data)
        time.sleep(chance.uniform(1.5, 4.0))  # the scan, the imports and the moves all under way somewhere
        worker.send_signal(signal.SIGKILL)
        worker.communicate()
    restarted = _worker(db_url, data)
    try:
        _until_done(core, feed.id, inbox, timeout=600)
    finally:
        _stop(restarted)
    _check(core, inbox, dropped)


BIG = 2_000  # rows of each of three files (20,000 in 40 batches of 500 before: the same batches, a tenth of the rows)


@pytest.mark.slow
def test_kill_9_during_a_feeds_import_then_a_restart(core: Core, db_url: str, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for n in range(3):  # 40 batches a file (row by row, below), killed inside one file's run
        write_csv(inbox / f"big{n}.csv", [row(n * BIG + i) for i in range(1, BIG + 1)])
    dropped = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in inbox.iterdir()}
    feed = add_feed(core, inbox)
    data = tmp_path / "desk"
    # row by row, in small batches with a polite pause between them: an import to land in
    slow = {"bulk_loads": False, "batch_size": BIG // 40, "batch_pause": 0.03}
    worker = _worker(db_url, data, settings=slow)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            running = [t for t in core.store.list(statuses=[TaskStatus.RUNNING]) if t.task_type == "import"]
            if any(0 < t.success_count < BIG for t in running):
                break
            time.sleep(0.02)
        else:
            raise AssertionError("no import got going")
        worker.kill()
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.communicate()
    restarted = _worker(db_url, data, settings=slow)
    try:
        _until_done(core, feed.id, inbox, timeout=600)
    finally:
        _stop(restarted)
    imports = [t for t in core.store.list(limit=1000) if t.task_type == "import"]
    assert len(imports) == 3 and {t.status for t in imports} == {TaskStatus.SUCCEEDED}
    assert max(t.attempt for t in imports) == 2  # one of them was recovered and resumed
    with core.store.reading() as conn:
        count, distinct = conn.exec_driver_sql("SELECT COUNT(*), COUNT(DISTINCT code) FROM customers").one()
    assert count == distinct == 3 * BIG
    moved = sorted(p.name for p in (inbox / "imported").rglob("*.csv"))
    assert moved == sorted(dropped) and not [p for p in inbox.iterdir() if p.is_file()]


@pytest.mark.slow
def test_two_desks_on_one_database_import_each_file_of_a_feed_once(core: Core, db_url: str, tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    dropped = _drop(inbox, 40)
    feed = add_feed(core, inbox)
    # one import at a time a desk, and quick to look for work: both desks take part, whichever scans
    each = {"max_workers": 2, "poll_interval": 0.1}
    desks = [_worker(db_url, tmp_path / f"desk{n}", settings=each) for n in (1, 2)]
    try:
        _until_done(core, feed.id, inbox)
    finally:
        for desk in desks:
            _stop(desk)
    _check(core, inbox, dropped)
    imports = [t for t in core.store.list(limit=1000) if t.task_type == "import"]
    owners = {(t.owner or "").rsplit(":", 3)[1] for t in imports if t.owner}
    assert len(owners) == 2, owners  # both desks ran some of them
