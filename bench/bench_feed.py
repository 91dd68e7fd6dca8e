"""Feeds (watched folders): what a scan costs on a big folder, and how long a big drop takes.

Run from the repository root:
    PYTHONPATH=. .venv/bin/python bench/bench_feed.py [--big 10000] [--files 1000] [--rows 100]
                                                      [--backends sqlite postgresql] [--runs 5]

1. A folder of `--big` files the feed imported already (left in place, `--leave`) plus one new one: the
   feed's scan that looks at the folder, takes the new file (fingerprint, claim) and queues its import,
   timed as the executor runs it (claim to end), `--runs` times; and the look alone (the listing and its
   comparison with the database). The files' rows in the database are written as a scan leaves them
   (done, imported, fingerprinted): a scan reads them and the folder, never the imports themselves.
   Issue 25's goal: under 1 s.
2. `--files` files of `--rows` customer rows each dropped at once into a feed's folder (default settle
   time 10 s, a look every 60 s), a real `worker` process (default slots: 2 x cores) started right after:
   the seconds until every file is imported and moved to imported/ (and until the first import is queued),
   every task checked (one import a file, all succeeded, every row in the table once). Issue 25's goal:
   under 5 minutes, on SQLite and on PostgreSQL.
Prints each figure and the machine; a final JSON line holds it all.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from bench_import import as_installed, database  # noqa: E402
from machine import machine_facts, machine_line  # noqa: E402

GOAL_SCAN_S = 1.0
GOAL_DROP_S = 300.0
HEADER = "客户编号,姓名,手机号,邮箱,等级,开户日期,信用额度,部门,备注\n"


def customers_file(path: Path, first: int, rows: int) -> None:
    lines = [HEADER]
    for i in range(first, first + rows):
        lines.append(f"C{i:06d},客户{i},138{i:08d},c{i}@example.com,普通,2024-05-{i % 28 + 1:02d},{i % 1000}.50,"
                     f"销售部,\n")  # fmt: skip
    path.write_text("".join(lines), encoding="utf-8")


def big_folder(backend: str, url: str, work: Path, count: int, runs: int) -> dict[str, object]:
    """A scan of a folder of `count` files the feed imported already, plus one new one."""
    import datetime as dt
    import hashlib

    from desktop_app.app import build_core
    from desktop_app.domain.feeds import FeedSpec, FileState, Outcome
    from desktop_app.feeds.folder import look
    from desktop_app.feeds.rules import patterns
    from desktop_app.store.feeds import FeedStore
    from desktop_app.store.schema import feed_files
    from desktop_app.submission import feed_scan_key
    from desktop_app.tasks.runner import run_task

    folder = work / f"big-{backend}"
    folder.mkdir()
    core = build_core(data_dir=work / f"data-big-{backend}", db_url=url)
    try:
        core.feeds().add(FeedSpec(name="big", folder=str(folder), import_type="customers", settle=0, leave=True),
                         user="bench")  # fmt: skip
        feeds = FeedStore(core.store.engine)
        feed = feeds.get("big")
        assert feed is not None
        rows = []
        now = feeds.db_now()
        for i in range(count):
            path = folder / f"old-{i:05d}.csv"
            customers_file(path, i * 2 + 1, 2)
            info = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            rows.append({"feed_id": feed.id, "name": path.name, "size": info.st_size, "mtime_ns": info.st_mtime_ns,
                         "first_seen_at": now, "sha256": digest, "claim": digest, "state": FileState.DONE.value,
                         "outcome": Outcome.IMPORTED.value, "task_no": f"T000000-{i:06d}", "in_folder": True,
                         "day": dt.date.today().isoformat(), "created_at": now, "updated_at": now})  # fmt: skip
        with core.store.engine.begin() as conn:
            for start in range(0, len(rows), 1000):
                conn.execute(feed_files.insert(), rows[start : start + 1000])
        looks = []
        pats = patterns(feed.spec.pattern)
        for _ in range(runs):
            began = time.perf_counter()
            listing = look(folder, pats)
            present = feeds.present_brief(feed.id)  # what a scan's look compares the listing with
            looks.append(time.perf_counter() - began)
            assert len(listing) == count and len(present) == count
        scans, idle = [], []
        for run in range(runs):
            new = folder / f"new-{run}.csv"
            customers_file(new, 900_000 + run * 10, 10)
            for seconds, expect_new in ((scans, True), (idle, False)):
                feeds.request_run(feed.id)
                scan = core.store.active(feed_scan_key(feed.id))
                assert scan is not None
                core.store.bring_forward(scan.id)
                (task,) = core.store.claim(f"bench:{os.getpid()}:1:aa", 1, only_ids=[scan.id])
                began = time.perf_counter()
                run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                         stop_event=threading.Event(), lang="en")  # fmt: skip
                seconds.append(time.perf_counter() - began)
                ended = core.store.get_by_id(scan.id)
                assert ended is not None and ended.status.value == "succeeded", ended
                assert len(ended.summary.get("queued", [])) == (1 if expect_new else 0), ended.summary
        return {"files": count, "look_s": statistics.median(looks), "scan_new_s": statistics.median(scans),
                "scan_new_max_s": max(scans), "scan_idle_s": statistics.median(idle)}  # fmt: skip
    finally:
        core.close()


def big_drop(backend: str, url: str, work: Path, files: int, rows: int) -> dict[str, object]:
    """`files` files dropped at once, a worker started: until every one is imported and moved."""
    from sqlalchemy import create_engine, text

    folder = work / f"drop-{backend}"
    folder.mkdir()
    data = work / f"data-drop-{backend}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(data)}
    db = ["--db", url]
    subprocess.run([sys.executable, "-m", "desktop_app", "feed", "add", "drop", "--folder", str(folder), "--type",
                    "customers", "--user", "bench", *db], check=True, env=env, capture_output=True)  # fmt: skip
    staging = work / f"staging-{backend}"
    staging.mkdir()
    for n in range(files):
        customers_file(staging / f"part-{n:04d}.csv", n * rows + 1, rows)
    for path in staging.iterdir():  # dropped at once: renamed into the folder
        path.rename(folder / path.name)
    began = time.perf_counter()
    worker = subprocess.Popen([sys.executable, "-m", "desktop_app", "worker", *db], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    first_queued = None
    engine = create_engine(url)
    imported = folder / "imported"
    try:
        while True:
            time.sleep(0.5)
            moved = sum(1 for _ in imported.rglob("*.csv")) if imported.is_dir() else 0
            if first_queued is None:
                with engine.connect() as conn:
                    if conn.execute(text("SELECT COUNT(*) FROM tasks WHERE task_type = 'import'")).scalar():
                        first_queued = time.perf_counter() - began
            if moved >= files:
                break
            failed = folder / "failed"
            if failed.is_dir() and any(failed.rglob("*.csv")):
                raise SystemExit(f"{backend}: a file failed: {next(failed.rglob('*.csv'))}")
            if time.perf_counter() - began > 1800:
                raise SystemExit(f"{backend}: only {moved} of {files} files moved after 30 minutes")
        seconds = time.perf_counter() - began
    finally:
        worker.terminate()
        worker.wait(120)
    with engine.connect() as conn:
        statuses = dict(conn.execute(text(
            "SELECT status, COUNT(*) FROM tasks WHERE task_type = 'import' GROUP BY status")).all())  # fmt: skip
        customers, distinct = conn.execute(text("SELECT COUNT(*), COUNT(DISTINCT code) FROM customers")).one()
        scans = conn.execute(text("SELECT COUNT(*) FROM tasks WHERE task_type = 'feed_scan'")).scalar()
    engine.dispose()
    assert statuses == {"succeeded": files}, statuses
    assert customers == distinct == files * rows, (customers, distinct)
    assert not [p for p in folder.iterdir() if p.is_file()], "files left in the folder"
    return {"files": files, "rows_each": rows, "all_moved_s": seconds, "first_import_queued_s": first_queued,
            "scan_tasks_left": scans}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rows", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--skip-drop", action="store_true", help="only the scan of the big folder")
    args = parser.parse_args()
    as_installed()
    print(machine_line(), flush=True)
    results: dict[str, object] = {"machine": machine_facts()}
    for backend in args.backends:
        with tempfile.TemporaryDirectory(prefix=f"bench-feed-{secrets.token_hex(2)}-") as tmp:
            work = Path(tmp)
            with database(backend, work) as url:
                scan = big_folder(backend, url, work, args.big, args.runs)
                print(f"{backend}: a folder of {args.big:,} files imported already plus one new: the look "
                      f"{scan['look_s']:.3f} s, the scan that takes the new file and queues its import "
                      f"{scan['scan_new_s']:.3f} s (slowest {scan['scan_new_max_s']:.3f} s), a scan that finds "
                      f"nothing new {scan['scan_idle_s']:.3f} s (goal: under {GOAL_SCAN_S:.0f} s)",
                      flush=True)  # fmt: skip
                entry: dict[str, object] = {"big_folder": scan}
            if not args.skip_drop:
                with database(backend, work) as url:
                    drop = big_drop(backend, url, work, args.files, args.rows)
                    print(f"{backend}: {args.files:,} files of {args.rows} rows dropped at once: the first import "
                          f"queued after {drop['first_import_queued_s']:.1f} s (settle 10 s), all imported and moved "
                          f"after {drop['all_moved_s']:.1f} s (goal: under {GOAL_DROP_S:.0f} s); "
                          f"{drop['scan_tasks_left']} scan tasks left in the table", flush=True)  # fmt: skip
                    entry["drop"] = drop
            results[backend] = entry
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
