"""Benchmark of the task engine (issue 2): submit latency for a 50 MB file, claim throughput of 4 processes.

1. Submit latency. A 50 MB CSV file of random-ish rows is written to a temp dir; ``submit_file`` is
   called N times, each time on new content (a few bytes of its first data row change), so each call
   creates a new pending task. Reported: median / p90 / max of the whole call, and apart from it the
   SHA-256 of the file alone and the database insert alone (``TaskStore.submit`` with a new key).
   The file is in the page cache (just written), as it is right after a clerk saved or copied it.
   Then the window's way, under a QCoreApplication: ``submit_file`` handed to the executor's small
   pool through ``ui.background.Background`` (as ``TaskService`` does): the time the call takes on the
   calling thread (the hash runs in a pool thread, so ~0 ms), the time until the answer arrives on the
   calling thread, and the longest gap of a 5 ms QTimer on that thread while the submissions
   ran (how long the event loop, i.e. a GUI, was ever kept waiting).
2. Claim throughput. T short ``test.steps`` tasks (steps=1: one ledger row each) are queued, then 4
   worker processes (``tests.support.workerproc``) are started; the wall time runs from their start
   until every task is final (so it includes the workers' start-up). The span between the first
   task's start and the last task's end, by the database's clock, is reported too. Then the ledger is
   checked: one row per task, exactly once, and every task succeeded.

Each run uses a fresh schema (PostgreSQL) or database (MariaDB) or SQLite file, dropped afterwards.
Prints a plain table and, last, one JSON line. Run from the repository root:

    PYTHONPATH=. .venv/bin/python bench/bench_engine.py [--backend sqlite|postgresql|mariadb]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sqlalchemy import create_engine, func, select, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from desktop_app.app import Core, build_core, build_executor  # noqa: E402
from desktop_app.domain.status import ACTIVE, TaskStatus  # noqa: E402
from desktop_app.store.schema import tasks  # noqa: E402
from desktop_app.tasks.file_hash import file_sha256  # noqa: E402
from desktop_app.tasks.submit import biz_key, submit_file  # noqa: E402
from tests.support.handlers import ledger_meta, ledger_rows, make_test_handlers  # noqa: E402

PG_URL = os.environ.get("BATCHDESK_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("BATCHDESK_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test")
WORKER_SETTINGS = {"poll_interval": 0.2, "heartbeat_interval": 5, "max_workers": 4}
FILE_BYTES = 50 * 1024 * 1024
MARK = b"C9"  # the first data row's code starts here; its next 8 digits change per submission


# --- set-up ----------------------------------------------------------------------------------


@contextmanager
def fresh_database(backend: str, tmp: Path) -> Iterator[str]:
    """A URL to an empty database of its own (as tests/support/backends.py does), dropped afterwards."""
    name = "bd_bench_" + secrets.token_hex(4)
    if backend == "sqlite":
        yield f"sqlite:///{tmp / 'bench.sqlite3'}"
        return
    if backend == "postgresql":
        admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f"CREATE SCHEMA {name}"))
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={name}"})
        drop = f"DROP SCHEMA IF EXISTS {name} CASCADE"
    elif backend == "mariadb":
        admin = create_engine(MYSQL_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"))
        url = make_url(MYSQL_URL).set(database=name).update_query_dict({"charset": "utf8mb4"})
        drop = f"DROP DATABASE IF EXISTS {name}"
    else:
        raise ValueError(backend)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(drop))
        admin.dispose()


def open_core(data_dir: Path, db_url: str) -> Core:
    """The built-in task types (the CSV import) plus the test step types, and the test ledger table."""
    core = build_core(data_dir=data_dir, db_url=db_url)
    for handler in make_test_handlers():
        core.registry.add(handler)
    ledger_meta.create_all(core.store.engine)
    return core


def file_task(core: Core) -> tuple[str, dict[str, Any]]:
    """The real CSV import type when it is registered, else the test step type (never run here)."""
    if "import" in core.registry:
        return "import", {"import_type": "customers", "dry_run": False}
    return "test.steps", {"steps": 1}


def write_csv(path: Path, size: int) -> int:
    """A customer CSV of random-ish rows, about `size` bytes; returns the offset of MARK's digits."""
    rnd = random.Random(20240501)
    header = "客户编号,姓名,手机号,邮箱,等级,开户日期,信用额度,部门,备注\n".encode()
    first = "C900000000,王伟,13800138000,first@example.com,gold,2021-03-04,1000.00,销售部,\n".encode()
    names = [a + b + c for a in "王李张刘陈杨赵黄周吴" for b in "伟芳娜敏静丽" for c in "强磊洋艳军"]
    levels = ["standard", "silver", "gold", "普通", "银卡", "金卡", ""]
    depts = ["销售部", "市场部", "客服部", "华东区", ""]
    with path.open("wb") as out:
        out.write(header + first)
        written = len(header) + len(first)
        i = 0
        while written < size:
            lines = []
            for _ in range(5000):
                i += 1
                lines.append(
                    f"C{i:08d},{rnd.choice(names)},1{rnd.randrange(3, 10)}{rnd.randrange(10**9):09d},"
                    f"u{i}@example.com,{rnd.choice(levels)},20{rnd.randrange(10, 25)}-"
                    f"{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d},{rnd.randrange(100000)}."
                    f"{rnd.randrange(100):02d},{rnd.choice(depts)},{'x' * rnd.randrange(0, 12)}\n"
                )
            block = "".join(lines).encode()[: size - written]
            out.write(block)
            written += len(block)
    return len(header) + len(MARK)


def change_content(path: Path, offset: int, n: int) -> None:
    with path.open("r+b") as handle:
        handle.seek(offset)
        handle.write(f"{n:08d}".encode())


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return {
        "median_ms": ms(statistics.median(ordered)),
        "p90_ms": ms(p90),
        "max_ms": ms(ordered[-1]),
        "min_ms": ms(ordered[0]),
    }


# --- 1. submit latency -----------------------------------------------------------------------


def bench_submit(core: Core, work: Path, runs: int) -> dict[str, Any]:
    path = work / "customers_50mb.csv"
    offset = write_csv(path, FILE_BYTES)
    task_type, params = file_task(core)
    size = path.stat().st_size
    counter = 0

    def next_content() -> None:
        nonlocal counter
        counter += 1
        change_content(path, offset, counter)

    # One warm-up of each (imports, connection pool, first statements), not counted.
    next_content()
    submit_file(core.store, core.registry, task_type=task_type, path=path, user="bench", params=params)
    total, hashing, insert = [], [], []
    for _ in range(runs):
        next_content()
        t0 = time.perf_counter()
        result = submit_file(core.store, core.registry, task_type=task_type, path=path, user="bench", params=params)
        total.append(time.perf_counter() - t0)
        assert result.duplicate_of is None, "expected a new task per submission"
        t0 = time.perf_counter()
        digest = file_sha256(path)
        hashing.append(time.perf_counter() - t0)
        key = biz_key(digest + secrets.token_hex(4), "bench-insert", task_type)
        full = {**params, "file": str(path), "file_sha256": digest, "file_size": size}
        t0 = time.perf_counter()
        result = core.store.submit(task_type=task_type, params=full, creator="bench-insert", biz_key=key)
        insert.append(time.perf_counter() - t0)
        assert result.duplicate_of is None
    background_figures = bench_submit_background(core, path, offset, runs, task_type, params, start=counter + 1)
    return {
        "file_bytes": size,
        "runs": runs,
        "task_type": task_type,
        "submit_file": summary(total),
        "sha256_only": summary(hashing),
        "db_insert_only": summary(insert),
        "submit_background": background_figures,
    }


def bench_submit_background(
    core: Core, path: Path, offset: int, runs: int, task_type: str, params: dict[str, Any], *, start: int
) -> dict[str, Any]:
    from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer, Slot

    from desktop_app.ui.background import Background

    app = QCoreApplication.instance() or QCoreApplication([])
    executor = build_executor(core)  # not started: nothing claims the tasks, only submission is timed
    main = threading.get_ident()

    class Receiver(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.loop: QEventLoop | None = None
            self.arrived = 0.0
            self.thread_ok = True
            self.failed = ""
            self.ticks: list[float] = []

        def on_submitted(self, _result: object) -> None:
            self.arrived = time.perf_counter()
            self.thread_ok = self.thread_ok and threading.get_ident() == main
            if self.loop is not None:
                self.loop.quit()

        def on_failed(self, exc: BaseException) -> None:
            self.failed = repr(exc)
            if self.loop is not None:
                self.loop.quit()

        @Slot()
        def tick(self) -> None:
            self.ticks.append(time.perf_counter())

    receiver = Receiver()
    background = Background(executor.run_in_background)

    def submit() -> object:
        return submit_file(core.store, core.registry, task_type=task_type, path=path, user="bench-background",
                           params=params)  # fmt: skip
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(receiver.tick)
    returned, arrived, gaps = [], [], []
    try:
        for i in range(runs + 1):  # the first is a warm-up
            change_content(path, offset, start + i)
            loop = QEventLoop()
            receiver.loop = loop
            receiver.ticks = []
            timer.start()
            QTimer.singleShot(60_000, loop.quit)
            t0 = time.perf_counter()
            background.call(submit, receiver.on_submitted, receiver.on_failed)
            t1 = time.perf_counter()
            loop.exec()
            timer.stop()
            if receiver.failed:
                raise RuntimeError(f"the background submission failed: {receiver.failed}")
            if i == 0:
                continue
            returned.append(t1 - t0)
            arrived.append(receiver.arrived - t0)
            stamps = [t0, *receiver.ticks, receiver.arrived]
            gaps.append(max(b - a for a, b in itertools.pairwise(stamps)))
    finally:
        executor.shutdown(10)
        app.processEvents()
    return {
        "call_returns": summary(returned),
        "submitted_signal": summary(arrived),
        "event_loop_max_gap_ms": ms(max(gaps)),
        "signal_on_calling_thread": receiver.thread_ok,
    }


# --- 2. claim throughput ---------------------------------------------------------------------


def final_count(core: Core) -> int:
    query = select(func.count()).select_from(tasks).where(tasks.c.status.not_in([s.value for s in ACTIVE]))
    with core.store.reading() as conn:
        return int(conn.execute(query).scalar_one())


def bench_claim(core: Core, db_url: str, data_dir: Path, count: int, procs: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    numbers = [
        core.store.submit(task_type="test.steps", params={"steps": 1}, creator="bench").task.task_no
        for _ in range(count)
    ]
    queued = time.perf_counter() - t0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [
        sys.executable,
        "-m",
        "tests.support.workerproc",
        "--db",
        db_url,
        "--data-dir",
        str(data_dir),
        "--settings",
        json.dumps(WORKER_SETTINGS),
    ]
    workers: list[subprocess.Popen[bytes]] = []
    start = time.perf_counter()
    try:
        for _ in range(procs):
            workers.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        deadline = start + 900
        while final_count(core) < count:
            if time.perf_counter() > deadline:
                raise RuntimeError("timed out waiting for the tasks to end")
            if any(w.poll() is not None for w in workers):
                raise RuntimeError("a worker process ended early")
            time.sleep(0.05)
        wall = time.perf_counter() - start
    finally:
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
        errors = []
        for w in workers:
            try:
                _, err = w.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                w.kill()
                _, err = w.communicate()
            if w.returncode not in (0, -signal.SIGTERM):
                errors.append(err.decode(errors="replace")[-2000:])
    with core.store.reading() as conn:
        rows = ledger_rows(conn)
        first, last = conn.execute(select(func.min(tasks.c.started_at), func.max(tasks.c.ended_at))).one()
        statuses = Counter(s for (s,) in conn.execute(select(tasks.c.status)).all())
    per_task = Counter(no for no, _, _ in rows)
    per_worker = Counter(worker for _, _, worker in rows)
    exactly_once = sorted(per_task) == sorted(numbers) and set(per_task.values()) == {1}
    all_succeeded = statuses == Counter({TaskStatus.SUCCEEDED.value: count})
    span = (last - first).total_seconds() if first is not None and last is not None else float("nan")
    return {
        "tasks": count,
        "processes": procs,
        "worker_settings": WORKER_SETTINGS,
        "queue_seconds": round(queued, 2),
        "wall_seconds": round(wall, 2),
        "tasks_per_second": round(count / wall, 1),
        "db_span_seconds": round(span, 2),
        "tasks_per_second_db_span": round(count / span, 1) if span > 0 else None,
        "ledger_rows": len(rows),
        "exactly_once": exactly_once,
        "all_succeeded": all_succeeded,
        "statuses": dict(statuses),
        "rows_per_worker": sorted(per_worker.values(), reverse=True),
        "worker_errors": errors,
    }


# --- report ----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "os": platform.platform(),
    }


def print_table(backend: str, facts: dict[str, Any], sub: dict[str, Any], claim: dict[str, Any]) -> None:
    out = sys.stdout.write
    out(f"BatchDesk engine benchmark - backend {backend}\n")
    out(f"machine: {facts['nproc']} CPUs, {facts['cpu']}, Python {facts['python']}, {facts['os']}\n\n")
    out(
        f"1. submit latency: {sub['file_bytes'] / 2**20:.0f} MB file, type {sub['task_type']}, "
        f"{sub['runs']} runs (after 1 warm-up), page cache warm\n"
    )
    out(f"   {'measure':<42}{'median':>10}{'p90':>10}{'max':>10}{'min':>10}\n")
    rows = [
        ("submit_file() (hash + look-ups + insert)", sub["submit_file"]),
        ("  sha256 of the file alone", sub["sha256_only"]),
        ("  DB insert alone (TaskStore.submit)", sub["db_insert_only"]),
        ("in the background: call returns", sub["submit_background"]["call_returns"]),
        ("in the background: the answer arrives", sub["submit_background"]["submitted_signal"]),
    ]
    for label, s in rows:
        figures = "".join(f"{s[k]:>8.2f}ms" for k in ("median_ms", "p90_ms", "max_ms", "min_ms"))
        out(f"   {label:<42}{figures}\n")
    a = sub["submit_background"]
    out(
        f"   calling thread's event loop: longest gap {a['event_loop_max_gap_ms']:.1f} ms (5 ms timer); "
        f"signal delivered on the calling thread: {a['signal_on_calling_thread']}\n\n"
    )
    out(
        f"2. claim throughput: {claim['tasks']} test.steps tasks (steps=1), "
        f"{claim['processes']} worker processes, "
        f"settings {json.dumps(claim['worker_settings'])}\n"
    )
    out(f"   queued in {claim['queue_seconds']:.2f} s\n")
    out(
        f"   wall time from worker start to all final: {claim['wall_seconds']:.2f} s "
        f"-> {claim['tasks_per_second']:.1f} tasks/s\n"
    )
    out(
        f"   first start to last end (database clock): {claim['db_span_seconds']:.2f} s "
        f"-> {claim['tasks_per_second_db_span']} tasks/s\n"
    )
    check = "PASS" if claim["exactly_once"] and claim["all_succeeded"] else "FAIL"
    out(
        f"   ledger check: {check} - {claim['ledger_rows']} rows for {claim['tasks']} tasks, exactly once: "
        f"{claim['exactly_once']}, all succeeded: {claim['all_succeeded']} {claim['statuses']}\n"
    )
    out(f"   rows per worker process: {claim['rows_per_worker']}\n")
    for err in claim["worker_errors"]:
        out(f"   worker error output: {err}\n")
    out("\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "mariadb"), default="sqlite")
    parser.add_argument("--runs", type=int, default=21, help="submissions of the 50 MB file (default 21)")
    parser.add_argument("--tasks", type=int, default=2000, help="tasks to claim (default 2000)")
    parser.add_argument("--processes", type=int, default=4, help="worker processes (default 4)")
    args = parser.parse_args()
    facts = machine()
    with tempfile.TemporaryDirectory(prefix="batchdesk-bench-") as tmp:
        work = Path(tmp)
        with fresh_database(args.backend, work) as submit_url:
            core = open_core(work / "data-submit", submit_url)
            try:
                sub = bench_submit(core, work, args.runs)
            finally:
                core.store.engine.dispose()
        (work / "claim").mkdir()
        with fresh_database(args.backend, work / "claim") as claim_url:
            core = open_core(work / "data-claim", claim_url)
            try:
                claim = bench_claim(core, claim_url, work / "data-claim", args.tasks, args.processes)
            finally:
                core.store.engine.dispose()
    print_table(args.backend, facts, sub, claim)
    ok = claim["exactly_once"] and claim["all_succeeded"]
    print(
        json.dumps(
            {"backend": args.backend, "machine": facts, "submit": sub, "claim": claim, "ok": ok},
            ensure_ascii=False,
        )
    )
    sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
