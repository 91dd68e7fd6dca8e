"""The import modes and the undo bookkeeping, measured: insert with and without the bookkeeping an undo
needs, then update (unchanged, changed) and upsert of the same table, on the embedded database.

Run from the repository root:  .venv/bin/python bench/bench_modes.py [--rows 1000000] [--work DIR] [--rounds 2]
Prints each figure; a final JSON line holds them all. "Without bookkeeping" is the same import with
the row signature replaced by nothing (a child process patches both the row path's and the bulk
path's): the difference is what the signature costs an insert (the other bookkeeping, the row
number, is one integer per row). A CSV insert takes the bulk path, the other modes the row path.
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
from bench_import import as_installed, run_measured  # noqa: E402
from machine import machine_line  # noqa: E402
from make_customers import make  # noqa: E402

NO_BOOKKEEPING = (
    "import sys\n"
    "import pyarrow as pa\n"
    "import desktop_app.imports.pipeline as pipeline\n"
    "import desktop_app.imports.bulk.batching as batching\n"
    "pipeline.signature_function = lambda columns: (lambda values: None)\n"
    "batching.signatures = lambda texts: pa.repeat(pa.scalar(None, pa.string()), len(texts[0]))\n"
    "from desktop_app.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def cli(data: Path, *args: str, patched: bool = False) -> tuple[float, float, dict[str, object]]:
    head = [sys.executable, "-c", NO_BOOKKEEPING] if patched else [sys.executable, "-m", "desktop_app"]
    cmd = [*head, *args, "--wait", "--json", "--data-dir", str(data)]
    measured = run_measured(cmd, exits=(0, 1), cwd=ROOT)  # 1: the task ended failed, its JSON still printed
    return measured.seconds, measured.peak_mb, json.loads(measured.output)


def imported(
    data: Path, path: Path, mode: str = "insert", *, patched: bool = False
) -> tuple[float, float, dict[str, object]]:
    return cli(data, "import", str(path), "--type", "customers", "--mode", mode, "--max-file-mb", "500", "--force",
               patched=patched)  # fmt: skip


def forget_half(data: Path) -> None:
    """Delete the second half of the customers (by code) from the desk's database, as if never imported."""
    import sqlite3

    with sqlite3.connect(data / "batchdesk.sqlite3") as conn:
        conn.execute("DELETE FROM customers WHERE code > 'C500000'")


def line(label: str, wall: float, rss: float, task: dict[str, object]) -> str:
    kinds = ", ".join(f"{k.split('_')[0]} {task[k]}" for k in ("inserted_count", "updated_count", "unchanged_count",
                                                                "skipped_count", "deleted_count", "restored_count")
                      if task.get(k))  # fmt: skip
    return f"{label:<44} {wall:7.2f} s  {rss:5.0f} MB  {task['status']}: {kinds}, failed {task['fail_count']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    as_installed()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-modes-"))
    work.mkdir(parents=True, exist_ok=True)
    n = args.rows
    base, changed, again = work / f"modes-{n}.csv", work / f"modes-{n}-changed.csv", work / f"modes-{n}-again.csv"
    if not base.exists():
        make(base, n)
    if not changed.exists():
        make(changed, n, seed=43)  # the same codes, other values
    if not again.exists():
        make(again, n, seed=44)  # the upsert's: the same codes, other values again
    print(f"files: {base.name} / {changed.name} / {again.name}: {n} rows each, {base.stat().st_size / 1e6:.1f} MB")
    figures: dict[str, list[float]] = {}

    def keep(name: str, wall: float) -> None:
        figures.setdefault(name, []).append(round(wall, 2))

    for round_no in range(1, args.rounds + 1):
        print(f"round {round_no}")
        for patched in (True, False):
            data = work / "data-plain" if patched else work / "data"
            shutil.rmtree(data, ignore_errors=True)
            wall, rss, task = imported(data, base, patched=patched)
            keep("insert_no_bookkeeping_s" if patched else "insert_s", wall)
            print(line("insert, without the undo bookkeeping" if patched else "insert (with bookkeeping)", wall, rss,
                       task))  # fmt: skip
        data = work / "data"
        for label, path, mode, name in (
            ("update, every row unchanged", base, "update", "update_unchanged_s"),
            ("update, every row changed", changed, "update", "update_changed_s"),
            ("upsert, half new and half changed", again, "upsert", "upsert_s"),
        ):
            if mode == "upsert":
                forget_half(data)  # the codes of the second half are then new to the table
            wall, rss, task = imported(data, path, mode)
            keep(name, wall)
            print(line(label, wall, rss, task))
        last_upsert = str(task["task_no"])
        wall, rss, task = cli(data, "undo", last_upsert)
        keep("undo_upsert_s", wall)
        print(line("undo of that upsert", wall, rss, task))
    overhead = [b / a - 1 for a, b in zip(figures["insert_no_bookkeeping_s"], figures["insert_s"], strict=True)]
    figures["bookkeeping_overhead_pct"] = [round(100 * o, 1) for o in overhead]
    print()
    print(
        f"bookkeeping overhead on the insert: {', '.join(f'{100 * o:.1f} %' for o in overhead)}  (goal: at most 15 %)"
    )
    print(json.dumps({"rows": n, **figures}))


if __name__ == "__main__":
    main()
