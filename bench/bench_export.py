"""Export speed and memory on all three databases: BatchDesk's CSV export against each one's own.

Run from the repository root:
    .venv/bin/python bench/bench_export.py [--rows 1000000] [--xlsx-rows 1000000] [--runs 3] [--backends ...]

Per database, in one go: a fresh database filled with the customers file through BatchDesk's real
import, its statistics then brought up to date (settle()), then the same query (the export's nine
columns in key order) written to a file by the database's own client (the sqlite3 shell's .mode csv /
.once; psql's \\copy (SELECT ...) TO ... CSV HEADER; the mariadb client's --batch -e "SELECT ..." >
file, tab-separated, as INTO OUTFILE writes on the server's disk), then BatchDesk's command line
(export --wait --json) to CSV and to XLSX, each a process of its own with its peak RSS sampled; --runs
repeats the exports (one import per database); --tries N makes each run's CSV figures the fastest of N
interleaved tries of each (bench_import's --tries). Prints each figure, the ratio and the goals of the
speed issue (issue 10); a final JSON line holds it all.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_import import BACKENDS, Measured, _parts, as_installed, database, fastest, run_measured, spread  # noqa: E402
from machine import machine_facts, machine_line  # noqa: E402
from make_customers import make  # noqa: E402

GOAL = 0.7  # BatchDesk's CSV export speed as a share of the database's own (issue 28)
MEMORY_MB = 200
XLSX_SECONDS = 60
COLUMNS = "code, name, phone, email, level, opened_on, credit_limit, department, note"
QUERY = f"SELECT {COLUMNS} FROM customers ORDER BY code"


def own_export(backend: str, url: str, out: Path) -> tuple[str, Measured]:
    if backend == "sqlite":
        db = url.removeprefix("sqlite:///")
        return "sqlite3 shell .mode csv / .once", run_measured(
            ["sqlite3", db, ".headers on", ".mode csv", f".once {out}", QUERY]
        )
    p = _parts(url)
    if backend == "postgresql":
        cmd = ["psql", "-X", "-q", "-h", p["host"], "-p", p["port"] or "5432", "-U", p["user"], p["database"],
               "-c", f"\\copy ({QUERY}) TO '{out}' CSV HEADER"]  # fmt: skip
        return "psql \\copy (SELECT ...) TO file CSV HEADER", run_measured(cmd)
    client = shutil.which("mariadb") or "mysql"
    cmd = [client, "--batch", "-h", p["host"], "-P", p["port"] or "3306", "-u", p["user"], p["database"], "-e", QUERY]
    # the shell redirects: the client writes the file itself, the rows never pass through this process
    shell = ["sh", "-c", f"{shlex.join(cmd)} > {shlex.quote(str(out))}"]
    return 'mariadb --batch -e "SELECT ..." > file (TSV)', run_measured(shell)


def settle(backend: str, url: str) -> None:
    """The table's statistics brought up to date, as the server's own background work does within a minute
    of a load (autovacuum's ANALYZE on PostgreSQL, InnoDB's recalculation on MariaDB). Left to it, the
    statistics changed between one try and the next: on PostgreSQL the query's plan went from a sort of the
    million rows (stale statistics: psql's export 1.04-1.41 s) to a walk of the key's index (0.79-0.82 s),
    so a run's figures depended on when autovacuum woke. SQLite has no such background work (and walks
    the index either way): nothing to do there."""
    if backend == "sqlite":
        return
    from sqlalchemy import create_engine, text

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("ANALYZE customers" if backend == "postgresql" else "ANALYZE TABLE customers"))
    finally:
        engine.dispose()


def batchdesk(url: str, data: Path, *args: str) -> tuple[Measured, dict[str, object]]:
    cmd = [sys.executable, "-m", "desktop_app", "--data-dir", str(data), "--db", url, *args, "--json"]
    measured = run_measured(cmd, cwd=ROOT)
    return measured, json.loads(measured.output)


def count_lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def xlsx_rows(path: Path) -> int:
    """The sheet's rows, counted in its XML as it streams out of the zip (no workbook in memory)."""
    count, tail = 0, b""
    with zipfile.ZipFile(path) as book, book.open("xl/worksheets/sheet1.xml") as sheet:
        for chunk in iter(lambda: sheet.read(1 << 20), b""):
            data = tail + chunk
            count += data.count(b"<row ")
            tail = data[-4:]  # a tag cut between two reads is counted once: 4 bytes hold no whole one
    return count


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def one_run(backend: str, url: str, data: Path, work: Path, rows: int, run: int, xlsx: int,
            tries: int = 1) -> dict[str, object]:  # fmt: skip
    """The database's own export, then BatchDesk's CSV and (xlsx) XLSX exports, each timed and checked;
    with tries, the CSV exports that many times each, interleaved, the fastest of each making the ratio."""
    floors: list[Measured] = []
    csv_runs: list[Measured] = []
    for _ in range(tries):
        floor_name, measured = own_export(backend, url, work / f"own-{backend}.csv")
        floors.append(measured)
        measured, csv_task = batchdesk(url, data, "export", "customers", "--wait")
        csv_runs.append(measured)
        csv_path = Path(str(csv_task["result_path"]))
        exported = int(csv_task["total_count"])  # type: ignore[call-overload]
        assert count_lines(csv_path) == rows + 1 == exported + 1, "the file lacks rows"
    floor, csv_run = fastest(floors), fastest(csv_runs)
    ratio = floor.seconds / csv_run.seconds
    verdict = "met" if ratio >= GOAL and csv_run.peak_mb < MEMORY_MB else "MISSED"
    print(f"{backend:10} run {run + 1}: {rows} rows | {floor_name}: {floor.seconds:5.2f} s | BatchDesk CSV: "
          f"{csv_run.seconds:5.2f} s, peak RSS {csv_run.peak_mb:4.0f} MB | ratio {ratio:4.2f} "
          f"(goal >= {GOAL}) {verdict}{spread(floors)}{spread(csv_runs)}")  # fmt: skip
    result: dict[str, object] = {"floor": floor_name, "floor_s": round(floor.seconds, 2),
                                 "csv_s": round(csv_run.seconds, 2), "csv_peak_mb": round(csv_run.peak_mb),
                                 "ratio": round(ratio, 2), "csv_file_mb": round(csv_path.stat().st_size / 1e6, 1),
                                 "floor_tries_s": [round(m.seconds, 2) for m in floors],
                                 "csv_tries_s": [round(m.seconds, 2) for m in csv_runs], "load": uptime()}  # fmt: skip
    if xlsx:
        xlsx_run, xlsx_task = batchdesk(url, data, "export", "customers", "--wait", "--format", "xlsx")
        xlsx_path = Path(str(xlsx_task["result_path"]))
        assert xlsx_rows(xlsx_path) == rows + 1, "the sheet lacks rows"
        met = xlsx_run.seconds < XLSX_SECONDS and xlsx_run.peak_mb < MEMORY_MB
        print(f"{'':10} BatchDesk XLSX: {xlsx_run.seconds:5.2f} s, peak RSS {xlsx_run.peak_mb:4.0f} MB, "
              f"file {xlsx_path.stat().st_size / 1e6:5.1f} MB (goal < {XLSX_SECONDS} s, "
              f"< {MEMORY_MB} MB) {'met' if met else 'MISSED'}")  # fmt: skip
        result.update(xlsx_s=round(xlsx_run.seconds, 2), xlsx_peak_mb=round(xlsx_run.peak_mb))
    print(uptime())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--xlsx-rows", type=int, default=1_000_000, help="0 leaves the XLSX export out")
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS), choices=BACKENDS)
    parser.add_argument("--runs", type=int, default=1, help="the exports this many times, back to back")
    parser.add_argument("--tries", type=int, default=1, help="per run, the database's own CSV export and "
                        "BatchDesk's each this many times, interleaved; the fastest of each: the ratio")  # fmt: skip
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-export-"))
    work.mkdir(parents=True, exist_ok=True)
    source = work / f"customers-{args.rows}.csv"
    if not source.exists():
        make(source, args.rows)
    as_installed()
    figures: dict[str, object] = {"machine": machine_facts(), "rows": args.rows, "load_before": uptime()}
    print(machine_line())
    print(uptime())
    for backend in args.backends:
        with database(backend, work) as url:
            data = work / f"bd-{secrets.token_hex(4)}"
            try:
                _, imported = batchdesk(url, data, "import", str(source), "--type", "customers", "--wait",
                                        "--max-file-mb", "500")  # fmt: skip
                rows = int(imported["success_count"])  # type: ignore[call-overload]
                settle(backend, url)
                results = [one_run(backend, url, data, work, rows, run, args.xlsx_rows, args.tries)
                           for run in range(args.runs)]  # fmt: skip
                figures[backend] = results
            finally:
                shutil.rmtree(data, ignore_errors=True)
                for own in work.glob("own-*.csv"):
                    own.unlink()
        print(uptime())
    figures["load_after"] = uptime()
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    main()
