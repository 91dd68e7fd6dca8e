"""Excel import speed and memory: a 200,000-row and a 1,000,000-row customers .xlsx through the real command line.

Run from the repository root:
    .venv/bin/python bench/bench_xlsx.py --work /tmp/benchwork [--rows 200000,1000000] [--no-reader]

Each workbook (bench/make_customers_xlsx.py: make_customers's rows as an Excel clerk's sheet holds them)
is written once and kept in --work. Each is imported into a fresh SQLite data folder with
`import --wait --json`, a process of its own with its peak RSS sampled (bench_import.run_measured); then
the reader alone (open_table + rows(), what the import reads twice: a count, then the rows) for
reference, in a process of its own too. Prints rows/s, peak RSS and the goals of issue 10, and a final
JSON line with it all.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_import import as_installed, batchdesk, run_measured  # noqa: E402
from machine import machine_line  # noqa: E402
from make_customers_xlsx import write_customers_xlsx  # noqa: E402

SPEED_ROWS, SPEED_GOAL, SPEED_MEMORY_MB = 200_000, 40_000, 250  # rows/s of the whole import, peak MB
BIG_MEMORY_MB = 300  # the 1,000,000-row sheet's peak

_READER = """
import sys, time
from desktop_app.imports.readers import ReadLimits, open_table
start = time.perf_counter()
with open_table(sys.argv[1], limits=ReadLimits(max_file_mb=500)) as reader:
    rows = sum(1 for _ in reader.rows())
print(rows, time.perf_counter() - start)
"""


def workbook(work: Path, rows: int) -> Path:
    path = work / f"customers-{rows}.xlsx"
    if not path.exists():
        part = path.with_suffix(".part")
        write_customers_xlsx(part, rows)
        part.rename(path)
    return path


def import_xlsx(path: Path, work: Path) -> tuple[float, float, dict[str, object]]:
    measured, task = batchdesk(path, None, work)  # a fresh SQLite data folder of its own
    return measured.seconds, measured.peak_mb, task


def reader_alone(path: Path) -> tuple[int, float, float]:
    measured = run_measured([sys.executable, "-c", _READER, str(path)], cwd=ROOT)
    rows, seconds = measured.output.split()
    return int(rows), float(seconds), measured.peak_mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=f"{SPEED_ROWS},1000000", help="comma-separated sheet sizes")
    parser.add_argument("--work", type=Path, default=None, help="where the workbooks are kept (default: a temp dir)")
    parser.add_argument("--no-reader", action="store_true", help="skip the reader-alone reference")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-xlsx-"))
    work.mkdir(parents=True, exist_ok=True)
    as_installed()
    print(machine_line())
    results: dict[str, object] = {}
    missed: list[str] = []
    for rows in (int(n) for n in args.rows.split(",") if n):
        path = workbook(work, rows)
        seconds, peak, task = import_xlsx(path, work)
        rate = rows / seconds
        fig: dict[str, object] = {"file_mb": round(path.stat().st_size / 1e6, 1), "import_s": round(seconds, 2),
                                  "rows_per_s": round(rate), "peak_mb": round(peak),
                                  "ok": task["success_count"], "failed": task["fail_count"]}  # fmt: skip
        print(f"{rows:>9,} rows ({fig['file_mb']} MB): import {seconds:7.2f} s = {rate:8,.0f} rows/s, "
              f"peak {peak:4.0f} MB, {task['success_count']} ok, {task['fail_count']} failed")  # fmt: skip
        if rows == SPEED_ROWS:
            print(f"{'':10} goal: >= {SPEED_GOAL:,} rows/s and peak < {SPEED_MEMORY_MB} MB")
            if rate < SPEED_GOAL:
                missed.append(f"{rows} rows at {rate:,.0f} rows/s < {SPEED_GOAL:,}")
            if peak >= SPEED_MEMORY_MB:
                missed.append(f"{rows} rows peak {peak:.0f} MB >= {SPEED_MEMORY_MB}")
        elif peak >= BIG_MEMORY_MB:
            missed.append(f"{rows} rows peak {peak:.0f} MB >= {BIG_MEMORY_MB}")
        if rows != SPEED_ROWS:
            print(f"{'':10} goal: peak < {BIG_MEMORY_MB} MB")
        if not args.no_reader:
            count, alone, alone_peak = reader_alone(path)
            fig.update(reader_s=round(alone, 2), reader_rows_per_s=round(count / alone),
                       reader_peak_mb=round(alone_peak))  # fmt: skip
            print(f"{'':10} the reader alone: {alone:7.2f} s = {count / alone:8,.0f} rows/s, peak {alone_peak:4.0f} MB")
        results[str(rows)] = fig
    print(f"load after: {os.getloadavg()[0]:.2f}")
    print("every goal met" if not missed else "missed: " + "; ".join(missed))
    print(json.dumps({"results": results, "missed": missed}))


if __name__ == "__main__":
    main()
