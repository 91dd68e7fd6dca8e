"""Feeds in tests: add one, run its scans and the imports they queue here, read where its files went."""

from __future__ import annotations

import datetime as dt
import hashlib
import threading
from pathlib import Path
from typing import Any

from desktop_app.app import Core
from desktop_app.domain.feeds import Feed, FeedFile, FeedSpec, FileState, Schedule
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.domain.viewer import Viewer
from desktop_app.store.feeds import FeedStore
from desktop_app.submission import feed_scan_key
from desktop_app.tasks.runner import run_task
from tests.support.running import run_now

OWNER = "alice"
OUTCOME_FOLDERS = ("imported", "failed", "duplicates")


def add_feed(core: Core, folder: Path, name: str = "bank", *, user: str = OWNER, **spec: Any) -> Feed:
    """A feed of customers files on `folder`, settling in 0 s unless said (FeedSpec's other fields)."""
    every = spec.pop("every", 60)
    at = spec.pop("at", ())
    spec.setdefault("settle", 0)
    full = FeedSpec(name=name, folder=str(folder), import_type=spec.pop("import_type", "customers"),
                    schedule=Schedule(every=every, at=at), **spec)  # fmt: skip
    core.feeds().add(full, user=user)
    feed = FeedStore(core.store.engine).get(name)
    assert feed is not None
    return feed


def viewer(user: str = OWNER) -> Viewer:
    return Viewer(user, is_admin=False)


def scan_now(core: Core, name: str = "bank", *, lang: str = "zh") -> TaskRecord | None:
    """The feed's pending scan, brought forward and run here (None when it has none pending)."""
    feed = FeedStore(core.store.engine).get(name)
    assert feed is not None
    scan = core.store.active(feed_scan_key(feed.id))
    if scan is None or scan.status is not TaskStatus.PENDING:
        return None
    return run_here(core, scan.id, lang=lang)


def run_here(core: Core, task_id: int, *, lang: str = "zh") -> TaskRecord:
    """A pending task run here now, even one due later (time hurried)."""
    core.store.bring_forward(task_id)
    (task,) = core.store.claim("test:1:1:aa", 1, only_ids=[task_id])
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), lang=lang)  # type: ignore[arg-type]  # fmt: skip
    ended = core.store.get_by_id(task_id)
    assert ended is not None
    return ended


def on_its_way(core: Core, feed_id: int) -> list[FeedFile]:
    """Files of the feed whose way is not over and that nothing holds up (a problem said)."""
    feeds = FeedStore(core.store.engine)
    rows = feeds.in_state(feed_id, FileState.SETTLING, FileState.READY, FileState.QUEUED, FileState.MOVING)
    return [r for r in rows if r.problem is None]


def drive(core: Core, name: str = "bank", *, rounds: int = 60, lang: str = "zh", look: bool = True) -> None:
    """Run the feed's scans and the imports they queue here, as a worker would (time hurried: a scan due
    later runs now; with `look`, the first one looks at the folder as at its next scheduled look), until
    none of its files is on its way."""
    feeds = FeedStore(core.store.engine)
    feed = feeds.get(name)
    assert feed is not None
    if look:
        feeds.request_run(feed.id)
    for _ in range(rounds):
        for row in feeds.in_state(feed.id, FileState.QUEUED):
            task = core.store.get(row.task_no or "")
            if task is not None and task.status is TaskStatus.PENDING:
                run_now(core, task.id)
        scan_now(core, name, lang=lang)
        if not on_its_way(core, feed.id):
            return
    raise AssertionError(f"files still on their way: {on_its_way(core, feed.id)}")


def today() -> str:
    return dt.date.today().isoformat()


def listed(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def where(folder: Path) -> dict[str, list[str]]:
    """Every file under the feed's folder by where it is: the folder itself, or an outcome's folder."""
    found: dict[str, list[str]] = {"": sorted(p.name for p in folder.iterdir() if p.is_file())}
    for outcome in OUTCOME_FOLDERS:
        base = folder / outcome
        files = base.rglob("*") if base.is_dir() else iter(())
        found[outcome] = sorted(str(p.relative_to(base)) for p in files if p.is_file())
    return found


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def feed_imports(core: Core, user: str = OWNER) -> list[TaskRecord]:
    """The import tasks of a user, oldest first."""
    return [t for t in core.store.list(creator=user, newest_first=False, limit=100_000) if t.task_type == "import"]
