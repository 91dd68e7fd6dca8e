"""Import speed and memory: BatchDesk's validated import against the sqlite3 shell, plain Python and pandas.

Run from the repository root:  .venv/bin/python bench/bench_import.py [--rows 1000000] [--small 100000]
Prints each figure and the ratios the import issue asks for; a final JSON line holds them all.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from make_customers import make  # noqa: E402


def run_measured(cmd: list[str], **kwargs: object) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds and peak RSS (MB, the process and its children) of a command."""
    start = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    peak = 0
    while proc.poll() is None:
        try:
            rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
            peak = max(peak, rss)
        except psutil.Error:
            pass
        time.sleep(0.02)
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    return wall, peak / 1e6, subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def shell_import(path: Path, work: Path) -> tuple[float, float]:
    db = work / "shell.sqlite3"
    db.unlink(missing_ok=True)
    wall, rss, result = run_measured(["sqlite3", str(db), ".mode csv", f".import {path} customers"])
    assert result.returncode == 0, result.stderr
    return wall, rss


def plain_python(path: Path, work: Path) -> float:
    """csv.reader + sqlite3 executemany into an unconstrained table: no validation at all."""
    db = work / "plain.sqlite3"
    db.unlink(missing_ok=True)
    start = time.perf_counter()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE customers (a, b, c, d, e, f, g, h, i)")
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        batch = []
        for record in reader:
            batch.append(record)
            if len(batch) == 1000:
                conn.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?)", batch)
                conn.commit()
                batch = []
        conn.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?,?)", batch)
        conn.commit()
    conn.close()
    return time.perf_counter() - start


def pandas_import(path: Path, work: Path) -> tuple[float, float] | None:
    code = (
        "import pandas, sqlite3, sys\n"
        "df = pandas.read_csv(sys.argv[1], dtype=str)\n"
        "conn = sqlite3.connect(sys.argv[2])\n"
        "df.to_sql('customers', conn, index=False, chunksize=1000)\n"
    )
    try:
        import pandas  # noqa: F401
    except ImportError:
        return None
    db = work / "pandas.sqlite3"
    db.unlink(missing_ok=True)
    wall, rss, result = run_measured([sys.executable, "-c", code, str(path), str(db)])
    assert result.returncode == 0, result.stderr
    return wall, rss


def batchdesk_import(path: Path, work: Path) -> tuple[float, float, dict[str, object]]:
    data = work / f"bd-{path.stem}"
    shutil.rmtree(data, ignore_errors=True)
    cmd = [sys.executable, "-m", "desktop_app", "import", str(path), "--type", "customers", "--wait", "--json",
           "--data-dir", str(data), "--max-file-mb", "500"]  # fmt: skip
    wall, rss, result = run_measured(cmd, cwd=ROOT)
    task = json.loads(result.stdout)
    return wall, rss, task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument("--work", type=Path, default=None, help="where to put the files (default: a temp dir)")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-import-"))
    work.mkdir(parents=True, exist_ok=True)
    big, small = work / f"customers-{args.rows}.csv", work / f"customers-{args.small}.csv"
    if not big.exists():
        make(big, args.rows)
    if not small.exists():
        make(small, args.small)
    print(f"files: {big} ({big.stat().st_size / 1e6:.1f} MB), {small} ({small.stat().st_size / 1e6:.1f} MB)")
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}")

    shell_s, shell_mb = shell_import(big, work)
    print(f"sqlite3 shell .import (no validation, no indexes): {shell_s:6.2f} s  {shell_mb:6.0f} MB")
    plain_s = plain_python(big, work)
    print(f"Python csv + sqlite3 executemany (no validation): {plain_s:6.2f} s")
    pandas = pandas_import(big, work)
    if pandas:
        print(f"pandas read_csv + to_sql (no validation):         {pandas[0]:6.2f} s  {pandas[1]:6.0f} MB")
    else:
        print("pandas read_csv + to_sql: pandas is not installed (pip install pandas to include it)")
    bd_s, bd_mb, task = batchdesk_import(big, work)
    print(f"BatchDesk validated import, {args.rows} rows:       {bd_s:6.2f} s  {bd_mb:6.0f} MB  "
          f"({task['status']}: {task['success_count']} ok, {task['fail_count']} failed)")  # fmt: skip
    bd_small_s, bd_small_mb, _ = batchdesk_import(small, work)
    print(f"BatchDesk validated import, {args.small} rows:        {bd_small_s:6.2f} s  {bd_small_mb:6.0f} MB")

    figures = {
        "rows": args.rows,
        "shell_s": round(shell_s, 2),
        "plain_python_s": round(plain_s, 2),
        "pandas_s": round(pandas[0], 2) if pandas else None,
        "pandas_mb": round(pandas[1]) if pandas else None,
        "batchdesk_s": round(bd_s, 2),
        "batchdesk_mb": round(bd_mb),
        "batchdesk_small_mb": round(bd_small_mb),
        "ratio_to_shell": round(bd_s / shell_s, 2),
        "ratio_to_pandas": round(bd_s / pandas[0], 2) if pandas else None,
        "memory_growth_mb": round(bd_mb - bd_small_mb),
    }
    print()
    print(f"ratio to the sqlite3 shell:  {figures['ratio_to_shell']:.2f}x  (goal: at most 2.5x)")
    if pandas:
        print(f"ratio to pandas:             {figures['ratio_to_pandas']:.2f}x  (goal: at most 1.0x)")
    print(f"peak memory:                 {bd_mb:.0f} MB  (goal: under 200 MB)")
    print(f"growth over {args.small} rows:   {figures['memory_growth_mb']} MB  (goal: within 30 MB)")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
