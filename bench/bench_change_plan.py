"""The change plan (issue 26), measured: a dry run with its change file, and the apply of its plan, against the
real upsert of the same file; and a sync that deletes 1 % of the table against that upsert.

Run from the repository root:
    .venv/bin/python bench/bench_change_plan.py [--rows 1000000] [--backends sqlite postgresql mariadb] [--work DIR]

Per database: a table of --rows customers (BatchDesk's own insert, not timed), made afresh before each timed
command, so each one starts from the same table: (1) the real upsert of a file of the same codes with 10 % of
its rows changed; (2) the dry run of that upsert, writing its plan and change file; (3) the apply of that
plan (the table unchanged since the dry run, which writes nothing); (4) a sync of that file less 1 % of its
rows (those rows deleted from the table). Each is BatchDesk's real command line (--wait --json), a process of
its own with its peak RSS sampled. Prints each figure, the ratios against the upsert and the issue's goals
(dry run <= 1.5x, apply <= 1.3x the upsert; their peak RSS < 250 MB); a final JSON line holds them all.
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
from bench_import import BACKENDS, Measured, as_installed, database, run_measured  # noqa: E402
from machine import machine_facts, machine_line  # noqa: E402
from make_customers import make  # noqa: E402

DRY_RUN_GOAL = 1.5  # the dry run with its change file, as a share of the real upsert's time
APPLY_GOAL = 1.3
MEMORY_MB = 250
CHANGED_EVERY = 10  # every 10th row of the upsert file a new credit limit: 10 % changed
DROPPED_EVERY = 100  # every 100th row left out of the sync's file: 1 % of the table deleted


def dropped(n: int) -> bool:
    """Whether the sync's file leaves out row n: 55, 155, ... (never a changed row)."""
    return n % DROPPED_EVERY == DROPPED_EVERY // 2 + 5


def sync_deletes(base: Path) -> int:
    """How many of the table's rows the sync deletes: the rows left out that the table has (make_customers'
    bad rows, a phone cut to 7 digits, never went in)."""
    with base.open(encoding="utf-8") as source:
        source.readline()
        return sum(1 for n, line in enumerate(source, start=1) if dropped(n) and len(line.split(",")[2]) == 11)


def files(work: Path, rows: int) -> tuple[Path, Path, Path]:
    """The table's file, the upsert's (the same codes, every 10th row's credit other) and the sync's (the
    upsert's less every 100th row, none of them a changed one)."""
    base, upsert, sync = (work / f"plan-{rows}-{name}.csv" for name in ("base", "upsert", "sync"))
    if not base.exists():
        make(base, rows)
    if not upsert.exists() or not sync.exists():
        with base.open(encoding="utf-8") as source, upsert.open("w", encoding="utf-8", newline="") as up, \
                sync.open("w", encoding="utf-8", newline="") as sy:  # fmt: skip
            header = source.readline()
            up.write(header)
            sy.write(header)
            for n, line in enumerate(source, start=1):
                if n % CHANGED_EVERY == 0:
                    cells = line.rstrip("\n").split(",")
                    whole, _, cents = cells[6].partition(".")
                    cells[6] = f"{(int(whole) + 1) % 100000}.{cents or '00'}"  # another credit limit
                    line = ",".join(cells) + "\n"
                up.write(line)
                if not dropped(n):
                    sy.write(line)
    return base, upsert, sync


def command(data: Path, url: str | None, *args: str) -> tuple[Measured, dict[str, object]]:
    """BatchDesk's command line on the data folder (and the database at `url`), to the task's end."""
    db = ["--db", url] if url else []
    cmd = [sys.executable, "-m", "desktop_app", "--data-dir", str(data), *db, *args, "--wait", "--json"]
    measured = run_measured(cmd, exits=(0, 1), cwd=ROOT)  # 1: the task ended failed, its JSON still printed
    task = json.loads(measured.output)
    if task.get("status") not in ("succeeded", "partially_succeeded"):
        raise RuntimeError(f"{args[0]} ended {task.get('status')}: {task.get('error_msg')}")
    return measured, task


def imported(data: Path, url: str | None, path: Path, mode: str, *more: str) -> tuple[Measured, dict[str, object]]:
    return command(data, url, "import", str(path), "--type", "customers", "--mode", mode, "--max-file-mb", "500",
                   "--force", *more)  # fmt: skip


def line(label: str, measured: Measured, task: dict[str, object]) -> str:
    kinds = ", ".join(f"{k.split('_')[0]} {int(str(task[k])):,}" for k in ("inserted_count", "updated_count",
                      "unchanged_count", "deleted_count") if task.get(k))  # fmt: skip
    return (
        f"  {label:<40} {measured.seconds:8.2f} s  {measured.peak_mb:5.0f} MB  {kinds}, failed {task['fail_count']:,}"
    )


def one_backend(backend: str, work: Path, base: Path, upsert: Path, sync: Path, rows: int) -> dict[str, object]:
    """The four timed commands on one database, each on a table made afresh."""
    figures: dict[str, object] = {}
    results: dict[str, tuple[Measured, dict[str, object]]] = {}
    for step in ("upsert", "plan", "sync"):
        with database(backend, work) as db:
            data = work / f"data-{backend}-{step}"
            shutil.rmtree(data, ignore_errors=True)
            made, _task = imported(data, db, base, "insert")
            print(f"  (the table: {rows:,} rows inserted in {made.seconds:.1f} s)")
            if step == "upsert":
                results["upsert"] = imported(data, db, upsert, "upsert")
                print(line("upsert (real)", *results["upsert"]))
            elif step == "plan":
                results["dry_run"] = imported(data, db, upsert, "upsert", "--dry-run")
                print(line("dry run with its change file", *results["dry_run"]))
                dry = results["dry_run"][1]
                changes = Path(str(dry["changes_csv"]))
                figures["changes_csv_mb"] = round(changes.stat().st_size / 1e6, 1)
                figures["plan_mb"] = round((changes.parent / "plan.sqlite3").stat().st_size / 1e6, 1)
                figures["plan_counts"] = dry["plan_counts"]
                results["apply"] = command(data, db, "apply", str(dry["task_no"]))
                print(line("apply of that plan", *results["apply"]))
            else:
                deletes = sync_deletes(base)
                results["sync"] = imported(data, db, sync, "sync", "--confirm-deletes", str(deletes))
                print(line(f"sync, {deletes:,} rows deleted", *results["sync"]))
            shutil.rmtree(data, ignore_errors=True)
    upsert_s = results["upsert"][0].seconds
    for name, (measured, _task) in results.items():
        figures[f"{name}_s"] = round(measured.seconds, 2)
        figures[f"{name}_peak_mb"] = round(measured.peak_mb)
    figures["dry_run_ratio"] = round(results["dry_run"][0].seconds / upsert_s, 2)
    figures["apply_ratio"] = round(results["apply"][0].seconds / upsert_s, 2)
    figures["sync_ratio"] = round(results["sync"][0].seconds / upsert_s, 2)
    # the goal is the dry run's and the apply's (a sync holds its file's keys in memory: README, sync mode)
    peak = max(results[name][0].peak_mb for name in ("dry_run", "apply"))
    met = {
        f"dry run {figures['dry_run_ratio']}x the upsert (goal <= {DRY_RUN_GOAL}x)": (
            figures["dry_run_ratio"] <= DRY_RUN_GOAL  # type: ignore[operator]
        ),
        f"apply {figures['apply_ratio']}x the upsert (goal <= {APPLY_GOAL}x)": (
            figures["apply_ratio"] <= APPLY_GOAL  # type: ignore[operator]
        ),
        f"dry run's and apply's peak RSS {peak:.0f} MB (goal < {MEMORY_MB} MB)": peak < MEMORY_MB,
    }
    print(f"  sync {figures['sync_ratio']}x the upsert")
    for text, ok in met.items():
        print(f"  {text}: {'met' if ok else 'NOT met'}")
    figures["goals_met"] = all(met.values())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--backends", nargs="+", choices=BACKENDS, default=["sqlite"])
    parser.add_argument("--work", type=Path, default=None, help="where the files and data folders go")
    args = parser.parse_args()
    as_installed()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-plan-"))
    work.mkdir(parents=True, exist_ok=True)
    print(machine_line())
    base, upsert, sync = files(work, args.rows)
    print(f"files: {args.rows:,} rows each, {upsert.stat().st_size / 1e6:.1f} MB; 10 % changed, sync 1 % fewer")
    out: dict[str, object] = {"rows": args.rows, **machine_facts()}
    for backend in args.backends:
        print(backend)
        out[backend] = one_backend(backend, work, base, upsert, sync, args.rows)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
