"""Import speed and memory on all three databases: BatchDesk's validated import against each one's own loader.

Run from the repository root:
    .venv/bin/python bench/bench_import.py [--rows 1000000] [--small 100000] [--runs 3] [--backends ...]

Per run, on the same file and in one go: each database's own loader into a table of the customers
table's shape with its unique code (the sqlite3 shell's .import, psql's \\copy ... CSV HEADER, MariaDB's
LOAD DATA LOCAL INFILE), pandas read_csv + to_sql on SQLite, and BatchDesk's real command line
(import --wait --json) on each database, every one a process of its own with its peak RSS sampled.
Then BatchDesk on the small file, for the memory growth. Prints each figure and ratio, the goals of
the speed issue and whether every run met them; a final JSON line holds it all.

--tries N: within a run, the loader and BatchDesk each run N times, interleaved, and the fastest of each
makes the run's ratio (peak memory: the highest try). On a machine whose CPU speed drifts from one
second to the next (seen: the sqlite3 shell's own CPU time for the same import 1.9-2.9 s, five times in
a row), one try each measures the drift as much as the programs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from machine import machine_facts, machine_line  # noqa: E402
from make_customers import make  # noqa: E402

PG_URL = os.environ.get("BATCHDESK_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("BATCHDESK_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test")
BACKENDS = ("sqlite", "postgresql", "mariadb")
GOALS = {"sqlite": 0.6, "postgresql": 0.6, "mariadb": 0.6}  # BatchDesk's speed as a share of the loader's (issue 28)
MEMORY_MB = 200
GROWTH_MB = 30

# The customers table's shape (BatchDesk's own: tests/integration/test_migrations.py), as the floor
# loads it: every text as it is in the file, the unique code the one index.
COLUMNS = (
    "code VARCHAR(16) NOT NULL UNIQUE, name VARCHAR(50), phone VARCHAR(20), email TEXT, level VARCHAR(10), "
    "opened_on DATE, credit_limit NUMERIC(12,2), department TEXT, note VARCHAR(200)"
)


def as_installed() -> None:
    """BatchDesk's modules compiled to bytecode once, as an installer leaves them (pip compiles what it
    installs; the frozen app carries its bytecode). A checkout run with PYTHONDONTWRITEBYTECODE=1, as on
    the benchmark machines, otherwise compiles its ~100 modules from source at every start: ~0.25 s of
    each timed command that no clerk's copy spends."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "desktop_app")], check=True)


@dataclass
class Measured:
    seconds: float
    peak_mb: float
    output: str = ""


def run_measured(cmd: list[str], *, exits: tuple[int, ...] = (0,), **kwargs: object) -> Measured:
    """Wall seconds and peak RSS (MB, the process and its children) of a command, which must exit with
    one of `exits`."""
    start = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    peak = 0
    children: list[psutil.Process] = []
    samples = 0
    while proc.poll() is None:
        # The process's children are looked for at the first ten samples, then every 25th: a look walks
        # every process of the machine (psutil reads each one's stat, 1.6 ms of CPU measured), and at
        # every 10 ms sample it took ~16 % of a core from the program measured -- from BatchDesk, whose
        # two threads keep both cores busy, more than from a loader whose work is the server's on one.
        if samples < 10 or samples % 25 == 0:
            with contextlib.suppress(psutil.Error):
                children = proc.children(recursive=True)
        samples += 1
        try:
            rss = proc.memory_info().rss + sum(_rss(c) for c in children)
            peak = max(peak, rss)
        except psutil.Error:
            pass
        time.sleep(0.01)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    if proc.returncode not in exits:
        raise RuntimeError(f"{cmd[0]} failed ({proc.returncode}): {err.strip()[-2000:]}")
    return Measured(wall, peak / 1e6, out)


def _rss(process: psutil.Process) -> int:
    """A child's resident bytes; 0 once it has ended."""
    try:
        return int(process.memory_info().rss)
    except psutil.Error:
        return 0


# --- databases -------------------------------------------------------------------------------


@contextmanager
def database(backend: str, work: Path) -> Iterator[str]:
    """A SQLAlchemy URL to an empty database of its own, dropped afterwards."""
    name = "bench_" + secrets.token_hex(4)
    if backend == "sqlite":
        path = work / f"{name}.sqlite3"
        try:
            yield f"sqlite:///{path}"
        finally:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = PG_URL if backend == "postgresql" else MYSQL_URL
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}" + (" CHARACTER SET utf8mb4" if backend == "mariadb" else "")))
    url = make_url(base).set(database=name)
    if backend == "mariadb":
        url = url.update_query_dict({"charset": "utf8mb4"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            if backend == "postgresql":
                conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            else:
                conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        admin.dispose()


def _parts(url: str) -> dict[str, str]:
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return {"host": u.host or "127.0.0.1", "port": str(u.port or ""), "user": u.username or "",
            "database": u.database or ""}  # fmt: skip


# --- the databases' own loaders ---------------------------------------------------------------


def sqlite_shell(path: Path, url: str) -> Measured:
    db = url.removeprefix("sqlite:///")
    with sqlite3.connect(db) as conn:
        conn.execute(f"CREATE TABLE customers ({COLUMNS})")
    return run_measured(["sqlite3", db, ".mode csv", f".import --skip 1 {path} customers"])


def psql_copy(path: Path, url: str) -> Measured:
    p = _parts(url)
    base = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", p["host"], "-p", p["port"] or "5432", "-U", p["user"],
            p["database"]]  # fmt: skip
    subprocess.run([*base, "-c", f"CREATE TABLE customers ({COLUMNS})"], check=True, capture_output=True)
    return run_measured([*base, "-c", f"\\copy customers FROM '{path}' WITH (FORMAT csv, HEADER true)"])


def mariadb_load(path: Path, url: str) -> Measured:
    p = _parts(url)
    base = ["mysql", "--local-infile=1", "-h", p["host"], "-P", p["port"] or "3306", "-u", p["user"], p["database"]]
    subprocess.run([*base, "-e", f"CREATE TABLE customers ({COLUMNS}) CHARACTER SET utf8mb4"], check=True,
                   capture_output=True)  # fmt: skip
    sql = (f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE customers CHARACTER SET utf8mb4 FIELDS TERMINATED BY ',' "
           "OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\n' IGNORE 1 LINES")  # fmt: skip
    return run_measured([*base, "-e", sql])


LOADERS: dict[str, tuple[str, Callable[[Path, str], Measured]]] = {
    "sqlite": ("sqlite3 shell .import", sqlite_shell),
    "postgresql": ("psql \\copy ... CSV HEADER", psql_copy),
    "mariadb": ("LOAD DATA LOCAL INFILE", mariadb_load),
}


PANDAS_VENV = ROOT / ".venv-bench-pandas"


def pandas_python() -> str | None:
    """The Python of a virtualenv of its own with pandas, made the first time (from PyPI). Not the app's
    .venv: pandas installed beside pyarrow is imported by pyarrow into BatchDesk too (+60 MB resident),
    which a clerk's install does not have."""
    python = PANDAS_VENV / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(PANDAS_VENV)], check=False)
        if made.returncode != 0 or subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "pandas"], check=False
        ).returncode != 0:  # fmt: skip
            return None
    return str(python)


def pandas_sqlite(path: Path, work: Path) -> Measured | None:
    python = pandas_python()
    if python is None:
        return None
    db = work / "pandas.sqlite3"
    db.unlink(missing_ok=True)
    code = (
        "import pandas, sqlite3, sys\n"
        "df = pandas.read_csv(sys.argv[1], dtype=str)\n"
        "conn = sqlite3.connect(sys.argv[2])\n"
        "df.to_sql('customers', conn, index=False, chunksize=1000)\n"
    )
    try:
        return run_measured([python, "-c", code, str(path), str(db)])
    finally:
        db.unlink(missing_ok=True)


# --- BatchDesk --------------------------------------------------------------------------------


def batchdesk(path: Path, url: str | None, work: Path) -> tuple[Measured, dict[str, object]]:
    """BatchDesk's real command line importing `path` (into `url`, else the data folder's own SQLite)."""
    data = work / f"bd-{secrets.token_hex(4)}"
    db = ["--db", url] if url else []
    cmd = [sys.executable, "-m", "desktop_app", "--data-dir", str(data), *db, "import", str(path),
           "--type", "customers", "--wait", "--json", "--max-file-mb", "500"]  # fmt: skip
    try:
        measured = run_measured(cmd, cwd=ROOT)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    task = json.loads(measured.output)
    if task.get("status") not in ("succeeded", "partially_succeeded"):
        raise RuntimeError(f"BatchDesk's import ended {task.get('status')}: {task.get('error_msg')}")
    return measured, task


def prepare(url: str, work: Path) -> None:
    """BatchDesk's schema made in the fresh database before the timed run (a clerk's desk has it; the
    loaders' tables are made before theirs too), and the program's files in the page cache."""
    data = work / f"bd-{secrets.token_hex(4)}"
    try:
        run_measured([sys.executable, "-m", "desktop_app", "--data-dir", str(data), "--db", url, "tasks", "--json"],
                     cwd=ROOT)  # fmt: skip
    finally:
        shutil.rmtree(data, ignore_errors=True)


# --- one run ----------------------------------------------------------------------------------


def fastest(tries: list[Measured]) -> Measured:
    """The try that ran fastest (timeit's rule: on a shared machine the noise only ever adds time), with
    the highest peak memory of them all (memory is not flattered by picking)."""
    best = min(tries, key=lambda m: m.seconds)
    return Measured(best.seconds, max(m.peak_mb for m in tries), best.output)


def spread(tries: list[Measured]) -> str:
    return "" if len(tries) < 2 else "  (tries: " + " / ".join(f"{m.seconds:.2f}" for m in tries) + " s)"


def one_run(number: int, big: Path, small: Path, backends: tuple[str, ...], work: Path,
            tries: int = 1) -> dict[str, object]:  # fmt: skip
    print(f"\n--- run {number} ---")
    out: dict[str, object] = {}
    for backend in backends:
        label, loader = LOADERS[backend]
        floors: list[Measured] = []
        ourses: list[tuple[Measured, dict[str, object]]] = []
        for _ in range(tries):  # interleaved, so that a slow spell of the machine falls on both
            with database(backend, work) as url:
                floors.append(loader(big, url))
            with database(backend, work) as url:
                prepare(url, work)
                ourses.append(batchdesk(big, url, work))
        floor, ours, task = fastest(floors), fastest([m for m, _ in ourses]), ourses[0][1]
        with database(backend, work) as url:
            prepare(url, work)
            ours_small, _ = batchdesk(small, url, work)
        ratio = floor.seconds / ours.seconds
        growth = ours.peak_mb - ours_small.peak_mb
        print(f"{backend:10} {label:26} {floor.seconds:6.2f} s {floor.peak_mb:6.0f} MB{spread(floors)}")
        print(f"{'':10} {'BatchDesk':26} {ours.seconds:6.2f} s {ours.peak_mb:6.0f} MB   ratio {ratio:.2f} "
              f"(goal >= {GOALS[backend]})  {task['success_count']} ok, {task['fail_count']} failed"
              f"{spread([m for m, _ in ourses])}")  # fmt: skip
        print(f"{'':10} {'BatchDesk, small file':26} {ours_small.seconds:6.2f} s {ours_small.peak_mb:6.0f} MB   "
              f"growth {growth:+.0f} MB (goal within {GROWTH_MB})")  # fmt: skip
        out[backend] = {
            "loader_s": round(floor.seconds, 2), "batchdesk_s": round(ours.seconds, 2), "ratio": round(ratio, 2),
            "batchdesk_mb": round(ours.peak_mb), "batchdesk_small_mb": round(ours_small.peak_mb),
            "growth_mb": round(growth), "ok": task["success_count"], "failed": task["fail_count"],
            "loader_tries_s": [round(m.seconds, 2) for m in floors],
            "batchdesk_tries_s": [round(m.seconds, 2) for m, _ in ourses],
        }  # fmt: skip
        if backend == "sqlite":
            pandas = pandas_best(big, work, tries)
            if pandas is None:
                print(f"{'':10} pandas could not be installed into .venv-bench-pandas")
            else:
                print(f"{'':10} {'pandas read_csv + to_sql':26} {pandas.seconds:6.2f} s {pandas.peak_mb:6.0f} MB   "
                      f"BatchDesk takes {ours.seconds / pandas.seconds:.2f}x its time (goal <= 1)")  # fmt: skip
                out["pandas"] = {"pandas_s": round(pandas.seconds, 2), "pandas_mb": round(pandas.peak_mb),
                                 "batchdesk_over_pandas": round(ours.seconds / pandas.seconds, 2)}  # fmt: skip
    return out


def pandas_best(big: Path, work: Path, tries: int) -> Measured | None:
    runs = [pandas_sqlite(big, work) for _ in range(tries)]
    done = [m for m in runs if m is not None]
    return fastest(done) if done else None


def goals_met(run: dict[str, object]) -> list[str]:
    """The goals a run missed, in words (empty: all met)."""
    missed = []
    for backend, goal in GOALS.items():
        fig = run.get(backend)
        if not isinstance(fig, dict):
            continue
        if fig["ratio"] < goal:
            missed.append(f"{backend} ratio {fig['ratio']} < {goal}")
        if fig["batchdesk_mb"] >= MEMORY_MB:
            missed.append(f"{backend} peak {fig['batchdesk_mb']} MB >= {MEMORY_MB}")
        if abs(fig["growth_mb"]) > GROWTH_MB:
            missed.append(f"{backend} growth {fig['growth_mb']} MB > {GROWTH_MB}")
    pandas = run.get("pandas")
    if isinstance(pandas, dict) and pandas["batchdesk_over_pandas"] > 1:
        missed.append(f"slower than pandas ({pandas['batchdesk_over_pandas']}x)")
    return missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tries", type=int, default=1, help="per run, the loader and BatchDesk each this many "
                        "times, interleaved; the fastest of each makes the run's ratio")  # fmt: skip
    parser.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated (default: all three)")
    parser.add_argument("--work", type=Path, default=None, help="where to put the files (default: a temp dir)")
    args = parser.parse_args()
    backends = tuple(b for b in args.backends.split(",") if b)
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-import-"))
    work.mkdir(parents=True, exist_ok=True)
    big, small = work / f"customers-{args.rows}.csv", work / f"customers-{args.small}.csv"
    if not big.exists():
        make(big, args.rows)
    if not small.exists():
        make(small, args.small)
    as_installed()
    print(f"files: {big} ({big.stat().st_size / 1e6:.1f} MB), {small} ({small.stat().st_size / 1e6:.1f} MB)")
    print(f"{machine_line()}, SQLite {sqlite3.sqlite_version}")
    if args.tries > 1:
        print(f"each figure: the fastest of {args.tries} tries, the loader's and BatchDesk's interleaved; "
              "peak memory: the highest of them")  # fmt: skip
    runs = [one_run(n, big, small, backends, work, args.tries) for n in range(1, args.runs + 1)]
    print()
    all_met = True
    for n, run in enumerate(runs, 1):
        missed = goals_met(run)
        all_met = all_met and not missed
        print(f"run {n}: " + ("every goal met" if not missed else "missed: " + "; ".join(missed)))
    print(f"goals held in all {len(runs)} runs: {'yes' if all_met else 'no'}")
    print(json.dumps({"machine": machine_facts(), "rows": args.rows, "small": args.small,
                       "tries": args.tries, "runs": runs, "all_met": all_met}))


if __name__ == "__main__":
    main()
