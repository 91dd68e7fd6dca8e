"""An SQLite export's rows read by the ADBC driver (C, into Arrow) in a process of its own.

The ADBC driver carries its own copy of SQLite. Two copies in one process must never have one
database file open (their POSIX locks do not see each other: closing one drops the other's, and a
checkpoint of one could reset the log under the other's reader), so the reading copy lives in a
child process, where it is just another reader of the write-ahead log. The child appends the CSV
lines to the part file the parent started, and tells the parent each batch's row count.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from desktop_app.exports.csv_lines import CellSpec

BATCH_ROWS = 20_000
DONE = "done"


def read_into(db_path: str, sql: str, params: Sequence[Any], specs: Sequence[CellSpec], out_path: str, encoding: str,
              pipe: Connection) -> None:  # fmt: skip
    """The child's work: run the query, append its rows as CSV to out_path; sends row counts, then DONE
    (or the error's text)."""
    try:
        import adbc_driver_sqlite.dbapi as adbc

        from desktop_app.exports.csv_lines import csv_bytes

        uri = Path(db_path).resolve().as_uri() + "?mode=ro"
        with adbc.connect(uri) as conn, conn.cursor() as cursor, open(out_path, "ab") as out:
            cursor.adbc_statement.set_options(**{"adbc.sqlite.query.batch_rows": str(BATCH_ROWS)})
            cursor.execute(sql, tuple(params) if params else None)
            # SQLite reads the next batch while Arrow renders this one: both let go of the GIL
            with ThreadPoolExecutor(max_workers=1) as pool:
                reader = cursor.fetch_record_batch()
                ahead = pool.submit(_next, reader)
                while (batch := ahead.result()) is not None:
                    ahead = pool.submit(_next, reader)
                    out.write(csv_bytes(batch, encoding, specs))
                    pipe.send(batch.num_rows)
        pipe.send(DONE)
    except BaseException as exc:  # the parent raises it, with the child's words
        with suppress(OSError):
            pipe.send(f"{type(exc).__name__}: {exc}")
        raise SystemExit(1) from None


def _next(reader: Any) -> Any:
    try:
        return reader.read_next_batch()
    except StopIteration:
        return None


class SqliteReader:
    """The child process, started at once: iterate for row counts; close() ends it (a cancel kills it)."""

    def __init__(self, db_path: Path, sql: str, params: Sequence[Any], specs: Sequence[CellSpec], out_path: Path,
                 encoding: str) -> None:  # fmt: skip
        context = multiprocessing.get_context("spawn")  # no fork: the parent's threads and connections stay its own
        self._pipe, child_end = context.Pipe(duplex=False)
        self._process = context.Process(
            target=read_into,
            args=(str(db_path), sql, list(params), list(specs), str(out_path), encoding, child_end),
            name="batchdesk-export-reader",
            daemon=True,
        )
        self._process.start()
        child_end.close()

    def counts(self, poll_seconds: float = 0.25) -> Iterator[int]:
        """Rows per batch as the child writes them; 0 now and then while it works (a chance to stop)."""
        while True:
            if not self._pipe.poll(poll_seconds):
                if not self._process.is_alive() and not self._pipe.poll(0):
                    raise RuntimeError(f"the export reader ended without a word (exit {self._process.exitcode})")
                yield 0
                continue
            try:
                message = self._pipe.recv()
            except EOFError:
                raise RuntimeError(f"the export reader ended early (exit {self._process.exitcode})") from None
            if message == DONE:
                return
            if isinstance(message, str):
                raise RuntimeError(f"the export reader failed: {message}")
            yield int(message)

    def close(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(timeout=10)
        self._pipe.close()
