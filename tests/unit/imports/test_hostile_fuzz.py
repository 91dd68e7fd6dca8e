"""Fuzzing the readers with mutated .csv, .xlsx and .xls bytes: a file-level error or the true row count.

Deterministic (derandomized, no example database) and bounded (a fixed number of examples per format),
so it runs the same in CI every time. For every mutated file the reader either raises a PermanentError
with a file-level code, or reads as many rows as an independent reader finds (Python's csv module,
openpyxl, xlrd); never another exception, never a hang.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
import xlrd
import xlwt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.readers import open_table

ROWS = 60
FILE_LEVEL = frozenset({
    ErrorCode.CORRUPT_FILE, ErrorCode.FILE_TOO_LARGE, ErrorCode.CSV_FIELD_TOO_LONG, ErrorCode.CSV_NUL_BYTES,
    ErrorCode.ENCODING_UNDETECTABLE, ErrorCode.EMPTY_FILE,
})  # fmt: skip
SLOWEST_READ = 10.0  # seconds: a file this small read for longer is a hang


def _values(n: int) -> list[object]:
    return [f"C{n:04d}", f"名字 {n}", 13800000000 + n, n * 1.5 if n % 3 else None]


def _csv_seed() -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(["customer_code", "name", "phone", "credit_limit"])
    for n in range(ROWS):
        writer.writerow(["" if v is None else v for v in _values(n)] + (['a "quoted", field'] if n % 7 == 0 else []))
    return out.getvalue().encode()


def _xlsx_seed() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["customer_code", "name", "phone", "credit_limit"])
    for n in range(ROWS):
        sheet.append(_values(n))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _xls_seed() -> bytes:
    book = xlwt.Workbook()
    sheet = book.add_sheet("Data")
    for c, name in enumerate(["customer_code", "name", "phone", "credit_limit"]):
        sheet.write(0, c, name)
    for n in range(ROWS):
        for c, value in enumerate(_values(n)):
            if value is not None:
                sheet.write(n + 1, c, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _csv_count(path: Path, encoding: str) -> int | None:
    with path.open(encoding=encoding, newline="") as handle:
        records = list(csv.reader(handle))
    return sum(1 for r in records[1:] if not all(_blank(v) for v in r))


def _xlsx_count(path: Path, encoding: str) -> int | None:
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        sheet.reset_dimensions()
        rows = sheet.iter_rows(min_row=2, values_only=True)
        return sum(1 for r in rows if not all(_blank(v) for v in r))
    finally:
        book.close()


def _xls_count(path: Path, encoding: str) -> int | None:
    with open(os.devnull, "w") as quiet:
        book = xlrd.open_workbook(str(path), logfile=quiet)
    sheet = book.sheet_by_index(0)
    return sum(1 for r in range(1, sheet.nrows) if not all(_blank(v) for v in sheet.row_values(r)))


def _independent(count: Callable[[Path, str], int | None], path: Path, encoding: str) -> int | None:
    """The other reader's row count, or None when it cannot read the file either."""
    try:
        return count(path, encoding)
    except Exception:
        return None


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """The seed with 1-3 mutations: bytes zeroed, flipped, cut out, or copied in from elsewhere."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 3))):
        if not data:
            break
        start = draw(st.integers(0, len(data) - 1))
        size = draw(st.integers(1, max(1, len(data) // 8)))
        kind = draw(st.sampled_from(["zero", "flip", "cut", "copy", "byte"]))
        end = min(len(data), start + size)
        if kind == "zero":
            data[start:end] = bytes(end - start)
        elif kind == "flip":
            data[start:end] = bytes(b ^ 0xFF for b in data[start:end])
        elif kind == "cut":
            del data[start:end]
        elif kind == "copy":
            src = draw(st.integers(0, len(data) - 1))
            data[start:start] = data[src : src + size]
        else:
            data[start] = draw(st.sampled_from([0, 0x22, 0x0A, 0x0D, 0x2C, 0xFF, 0x3C]))
    return bytes(data)


_FUZZ = settings(
    max_examples=400, derandomize=True, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)  # fmt: skip
_SEEDS = {"csv": _csv_seed(), "xlsx": _xlsx_seed(), "xls": _xls_seed()}
_COUNTS = {"csv": _csv_count, "xlsx": _xlsx_count, "xls": _xls_count}


def _check(suffix: str, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzz.{suffix}"
        path.write_bytes(data)
        started = time.monotonic()
        try:
            with open_table(path) as reader:
                count = reader.count_rows()
                rows = list(reader.rows())
                encoding = reader.encoding or ""
        except PermanentError as exc:
            assert exc.code in FILE_LEVEL, exc
            return
        finally:
            assert time.monotonic() - started < SLOWEST_READ
        assert count == len(rows)
        expected = _independent(_COUNTS[suffix], path, encoding)
        if expected is not None:
            assert count == expected, (count, expected)


@pytest.mark.parametrize("suffix", ["csv", "xlsx", "xls"])
def test_seeds_read_whole(suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"seed.{suffix}"
        path.write_bytes(_SEEDS[suffix])
        with open_table(path) as reader:
            assert reader.count_rows() == ROWS
            assert reader.warnings == ()


@_FUZZ
@given(data=mutated(_SEEDS["csv"]))
def test_fuzz_csv(data: bytes) -> None:
    _check("csv", data)


@_FUZZ
@given(data=mutated(_SEEDS["xlsx"]))
def test_fuzz_xlsx(data: bytes) -> None:
    _check("xlsx", data)


@_FUZZ
@given(data=mutated(_SEEDS["xls"]))
def test_fuzz_xls(data: bytes) -> None:
    _check("xls", data)
