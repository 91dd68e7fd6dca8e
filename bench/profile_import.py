"""Where one import's CPU goes, per part and per thread (time.thread_time: immune to the machine's load).

Run from the repository root, on a data folder already at the schema's head:
    .venv/bin/python -m desktop_app --data-dir /tmp/prof tasks --json
    .venv/bin/python bench/profile_import.py --data-dir /tmp/prof import FILE --type customers --wait --json
Prints each part's thread CPU seconds on stderr at exit: the reading side (CSV blocks, the split and
each column's check, signatures) and the writing side (the SQLite stage file, INSERT ... SELECT, the
PostgreSQL COPY). Wall times on this shared machine drift by 15-40 %; these figures do not.
"""

from __future__ import annotations

import collections
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_app.cli.main import main
from desktop_app.imports.bulk import batching, checks, csv_batches
from desktop_app.store import bulk_load

spent: collections.Counter[str] = collections.Counter()


def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.thread_time() - start

    return wrapper


def timed_iter(name: str, make: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    def wrapper(*args: Any, **kwargs: Any) -> Iterator[Any]:
        items = make(*args, **kwargs)
        while True:
            start = time.thread_time()
            try:
                item = next(items)
            except StopIteration:
                return
            finally:
                spent[name] += time.thread_time() - start
            yield item

    return wrapper


_check = checks.ColumnCheck.check


def check(self: checks.ColumnCheck, cells: Any) -> Any:
    start = time.thread_time()
    try:
        return _check(self, cells)
    finally:
        spent[f"  check {self.spec.key} ({self.spec.kind})"] += time.thread_time() - start


checks.ColumnCheck.check = check  # type: ignore[method-assign]
batching.BatchSplitter.split = timed("split (checks included)", batching.BatchSplitter.split)  # type: ignore[method-assign]
batching.signatures = timed("  signatures", batching.signatures)
csv_batches.CsvBatches._read = timed_iter("CSV blocks", csv_batches.CsvBatches._read)  # type: ignore[method-assign]
bulk_load.BulkLoader._write_stage = timed("writer: SQLite stage file", bulk_load.BulkLoader._write_stage)  # type: ignore[method-assign]
bulk_load.BulkLoader._insert_select = timed("writer: INSERT ... SELECT", bulk_load.BulkLoader._insert_select)  # type: ignore[method-assign]
bulk_load.BulkLoader._copy = timed("writer: PostgreSQL COPY", bulk_load.BulkLoader._copy)  # type: ignore[method-assign]


def report() -> None:
    for name, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"{seconds:7.2f} s  {name}", file=sys.stderr)


# main() itself, not the program's entry: that one leaves the process at once when the command is done
# (desktop_app.cli.main.leave), before any atexit hook could print
code = main(sys.argv[1:])
report()
sys.exit(code)
