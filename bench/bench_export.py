"""Export speed and memory: 1,000,000 customers streamed to CSV (and XLSX), peak RSS of the process.

Run from the repository root:  .venv/bin/python bench/bench_export.py [--rows 1000000] [--xlsx-rows 100000]
The table is filled through the real import (so the rows are what an import makes), then exported
with the command line; the benchmark checks the file has every row and prints time and peak memory.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from bench_import import run_measured  # noqa: E402
from make_customers import make  # noqa: E402


def cli(data: Path, *args: str) -> tuple[float, float, dict[str, object]]:
    cmd = [sys.executable, "-m", "desktop_app", *args, "--json", "--data-dir", str(data)]
    wall, rss, result = run_measured(cmd, cwd=ROOT)
    if not result.stdout.strip():
        raise SystemExit(f"{' '.join(args)} failed: {result.stderr}")
    return wall, rss, json.loads(result.stdout)


def count_lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--xlsx-rows", type=int, default=100_000)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-export-"))
    work.mkdir(parents=True, exist_ok=True)
    figures: dict[str, object] = {"rows": args.rows}
    for rows, fmt in ((args.rows, "csv"), (args.xlsx_rows, "xlsx")):
        source = work / f"customers-{rows}.csv"
        if not source.exists():
            make(source, rows)
        data = work / f"data-{rows}"
        shutil.rmtree(data, ignore_errors=True)
        _, _, imported = cli(data, "import", str(source), "--type", "customers", "--wait", "--max-file-mb", "500")
        wall, rss, task = cli(data, "export", "customers", "--wait", "--format", fmt)
        path = Path(str(task["result_path"]))
        size = path.stat().st_size / 1e6
        print(f"export {fmt:4} of {task['total_count']} rows: {wall:6.2f} s, peak RSS {rss:5.0f} MB, "
              f"file {size:6.1f} MB ({imported['success_count']} rows in the table)")  # fmt: skip
        if fmt == "csv":
            assert count_lines(path) == int(task["total_count"]) + 1, "the file lacks rows"  # type: ignore[call-overload]
        figures[f"{fmt}_rows"] = task["total_count"]
        figures[f"{fmt}_s"] = round(wall, 2)
        figures[f"{fmt}_peak_mb"] = round(rss)
        figures[f"{fmt}_file_mb"] = round(size, 1)
    print(f"peak memory goal: under 200 MB -> csv {figures['csv_peak_mb']} MB, xlsx {figures['xlsx_peak_mb']} MB")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
