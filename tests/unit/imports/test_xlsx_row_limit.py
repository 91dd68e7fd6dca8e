"""A sheet with rows beyond Excel's last row is refused as soon as its XML says so, not after a pass over all of it."""

from __future__ import annotations

import random
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports import file_preview
from desktop_app.imports.readers import ReadLimits, open_table, preview, xlsx_merges
from desktop_app.imports.readers.xlsx_merges import scan_sheet
from desktop_app.imports.readers.xlsx_rows import SheetRows
from desktop_app.imports.readers.xlsx_zip import open_zip
from tests.support import hostile_files as hostile

SHEET = "xl/worksheets/sheet1.xml"
BLANK_MB = 8  # blank rows after the sign: the reader must not get through them
READ_MB = 2.5  # what a refusal may have inflated of the sheet (its first pieces)
MESSAGE = "the sheet has rows beyond row {limit}, Excel's last"
SMALL_ROWS = ReadLimits(max_rows=5000)
DEFAULT = ReadLimits()


@pytest.fixture
def inflated(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Bytes of the sheet's XML inflated by anyone (the scan, the row parser, calamine's checker...)."""
    counts = {SHEET: 0}
    read = zipfile.ZipExtFile.read

    def counting(self: Any, n: int = -1) -> bytes:
        data = read(self, n)
        if self.name == SHEET:
            counts[SHEET] += len(data)
        return data

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting)
    return counts


def data_rows(first: int, last: int) -> bytes:
    return b"".join(
        b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>C%d</t></is></c><c r="C%d"><v>%d</v></c></row>' % (n, n, n, n, n)
        for n in range(first, last + 1)
    )


def blank_rows(first: int, size: int) -> Iterator[bytes]:
    """Formatted blank rows, numbered from first on, about size bytes of them."""
    given, n = 0, first
    while given < size:
        piece = b"".join(b'<row r="%d" spans="1:3" s="1" customFormat="1" ht="15"/>' % k for k in range(n, n + 10_000))
        n += 10_000
        given += len(piece)
        yield piece


def refusal(path: Path, limits: ReadLimits = DEFAULT) -> PermanentError:
    """What the import's reader says (it opens counting the rows, then counts them as the import does)."""
    with pytest.raises(PermanentError) as info, open_table(path, limits=limits, precount=True) as reader:
        reader.count_rows()
    return info.value


def assert_too_many_rows(error: PermanentError, limit: int = 1_048_576) -> None:
    assert (error.code, error.params) == (ErrorCode.CORRUPT_FILE, {"reason": "too_many_rows", "limit": limit})
    assert MESSAGE.format(limit=f"{limit:,}") in error.text("en")
    assert f"工作表的行号超过了 {limit:,}" in error.text("zh")


def test_a_row_beyond_the_last_is_refused_before_the_rows_after_it(tmp_path: Path, inflated: dict[str, int]) -> None:
    rows = [data_rows(2, 4), b'<row r="1048577" spans="1:3"/>', *blank_rows(1_048_578, BLANK_MB * hostile.MIB)]
    path = hostile.write_xlsx(tmp_path / "far.xlsx", hostile.sheet_xml(rows))
    assert_too_many_rows(refusal(path))
    assert inflated[SHEET] < READ_MB * hostile.MIB, inflated
    inflated[SHEET] = 0
    with pytest.raises(PermanentError) as info:
        preview(path)  # the window's preview says the same, as soon
    assert_too_many_rows(info.value)
    assert inflated[SHEET] < READ_MB * hostile.MIB, inflated


def test_a_dimension_beyond_the_last_row_is_refused_at_once(tmp_path: Path, inflated: dict[str, int]) -> None:
    rows = [data_rows(2, 4), *blank_rows(5, BLANK_MB * hostile.MIB)]  # every row within the limit
    path = hostile.write_xlsx(tmp_path / "dim.xlsx",
                              hostile.sheet_xml(rows, head=b'<dimension ref="A1:Z2000000"/>'))  # fmt: skip
    assert_too_many_rows(refusal(path))
    assert inflated[SHEET] < READ_MB * hostile.MIB, inflated
    for sample in (lambda: preview(path), lambda: file_preview.read_sample(path)):
        inflated[SHEET] = 0
        with pytest.raises(PermanentError) as info:
            sample()
        assert_too_many_rows(info.value)
        assert inflated[SHEET] < READ_MB * hostile.MIB, inflated


def test_rows_without_numbers_are_counted_to_the_limit(tmp_path: Path, inflated: dict[str, int]) -> None:
    """The hostile blank rows (<row .../> without r, each the one after the row before): refused at row 5,001."""
    path = hostile.xlsx_blank_rows(tmp_path / "blank.xlsx", BLANK_MB * hostile.MIB)
    assert_too_many_rows(refusal(path, SMALL_ROWS), 5000)
    assert inflated[SHEET] < READ_MB * hostile.MIB, inflated


def test_a_sheet_the_bytes_cannot_be_sure_of_is_refused_by_the_parse(tmp_path: Path, inflated: dict[str, int]) -> None:
    """A comment makes the scan parse the sheet (expat): the parse stops at the row too."""
    rows = [b"<!-- a note -->", data_rows(2, 4), b'<row r="1048577"/>', *blank_rows(1_048_578, BLANK_MB * hostile.MIB)]
    path = hostile.write_xlsx(tmp_path / "comment.xlsx", hostile.sheet_xml(rows))
    assert_too_many_rows(refusal(path))
    assert inflated[SHEET] < READ_MB * hostile.MIB, inflated


@pytest.mark.parametrize("head", [b"", b'<dimension ref="A1"/>', b'<dimension ref="A1:C3"/>'])
def test_a_sheet_to_the_last_row_opens_whatever_its_dimension(tmp_path: Path, head: bytes) -> None:
    """Some writers leave the dimension out or write A1: only the rows themselves say how far the sheet goes."""
    numbered = [data_rows(2, 4), *(b'<row r="%d" s="1"/>' % n for n in range(5, 4999)), data_rows(4999, 5000)]
    unnumbered = [b"<row/>" * 4990, b'<row spans="1:3"><c><v>1</v></c></row>' * 9]  # rows 2..5000
    for name, rows in (("numbered", numbered), ("unnumbered", unnumbered)):
        path = hostile.write_xlsx(tmp_path / f"{name}.xlsx", hostile.sheet_xml(rows, head=head))
        with open_table(path, limits=SMALL_ROWS, precount=True) as reader:
            assert reader.count_rows() in (5, 9), name
            assert list(reader.rows())[-1].row_number == 5000, name


# --- the scan's row numbers are the row parser's --------------------------------------------------


PLAIN = 5
"""_row's first forms: as writers write rows (numbered first, in digits, or not numbered)."""


def _row(rng: random.Random, last: int, forms: int) -> bytes:
    """A row element as writers write it (going up), or as few do (the scan may leave those to the parser)."""
    odd = forms > PLAIN and rng.random() < 0.1
    up = [last + 1, last + 1, last + 2]
    number = rng.choice([*up, rng.randint(1, 60), rng.randint(40, 60)] if odd else up)
    cell = rng.choice([b"", b"<c><v>1</v></c>", b'<c r="B7" s="1"><v>1</v></c>'])
    tail = b"/>" if not cell else b">" + cell + b"</row>"
    return rng.choice([
        b"<row" + tail,
        b'<row s="1" ht="15"' + tail,
        b'<row r="%d"' % number + tail,
        b'<row r="%d" spans="1:2"' % number + tail,
        b'<row r="00%d"' % number + tail,
        b'<row spans="1:2" r="%d"' % number + tail,
        b"<row r='%d'" % number + tail,
        b"<row\n r=\"%d\"" % number + tail,
        b'<row r="%d.0"' % number + tail,
        b'<row r="0"' + tail,
        b'<row s="1" r = "%d"' % number + tail,
        b'<row r="%d"' % number + tail,  # going back, or not
    ][PLAIN if odd else 0 : forms if odd else PLAIN])  # fmt: skip


def _scan_refuses(path: Path, limits: ReadLimits) -> bool:
    with path.open("rb", buffering=0) as raw, open_zip(raw, limits) as archive:
        try:
            scan_sheet(archive, SHEET, limits, count=True)
        except PermanentError as exc:
            assert exc.params == {"reason": "too_many_rows", "limit": limits.max_rows}
            return True
    return False


def _parser_refuses(path: Path, limits: ReadLimits) -> bool:
    """Whether the row parser, reading every row, fails on a row number (too_many_rows)."""
    book = type("Book", (), {"epoch": None, "_date_formats": set(), "_timedelta_formats": set()})()
    overrun = lambda: PermanentError(ErrorCode.CORRUPT_FILE)  # noqa: E731
    with (
        path.open("rb", buffering=0) as raw,
        open_zip(raw, limits) as archive,
        archive.open_streamed(SHEET, limits.part_bytes, overrun) as source,
    ):
        try:
            for _ in SheetRows(source, book, [], limits):
                pass
        except PermanentError as exc:
            return exc.params == {"reason": "too_many_rows", "limit": limits.max_rows}
    return False


def _last_number(rows: list[bytes]) -> int:
    """The number the parser gives the last of these rows (1: the header's)."""
    number = 1
    for row in rows:
        found = re.match(rb"<row[^>]*?\sr\s*=\s*[\"']([\d.]+)", row)
        number = int(float(found.group(1))) if found else number + 1
    return number


@pytest.mark.parametrize("seed", range(60))
def test_the_scan_refuses_what_the_parser_refuses(tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows as writers write them: the scan refuses exactly what the parser would; any rows: the scan refuses
    nothing the parser would let through (it leaves what it cannot be sure of to the parser). In pieces of a
    few bytes (tags cut anywhere) as in one."""
    rng = random.Random(seed)
    limits = ReadLimits(max_rows=50)
    forms = PLAIN if seed % 2 else 12
    rows: list[bytes] = []
    for _ in range(rng.randint(5, 70)):
        rows.append(_row(rng, _last_number(rows), forms))
    pieces = [b"".join(rows[k : k + 7]) for k in range(0, len(rows), 7)]
    head = rng.choice([b"", b'<dimension ref="A1:C%d"/>' % rng.choice([1, 50, 51])])
    path = hostile.write_xlsx(tmp_path / "rows.xlsx", hostile.sheet_xml(pieces, head=head))
    scan, parser = _scan_refuses(path, limits), _parser_refuses(path, limits) or b"C51" in head
    assert scan == parser if forms == PLAIN else parser or not scan, (scan, parser, b"".join(rows))
    monkeypatch.setattr(xlsx_merges, "CHUNK", rng.randint(3, 40))
    cut = _scan_refuses(path, limits)  # the rows before an odd one may be checked now: refused sooner, not otherwise
    assert cut == scan if forms == PLAIN else parser or not cut


def test_rows_of_a_prefixed_namespace_are_numbered_alike(tmp_path: Path) -> None:
    rows = b"".join([b"<x:row/>" * 48, b'<x:row r="50"/>', b"<x:row/>"])  # rows 2..49, 50, 51
    text = b"".join(hostile.sheet_xml([rows])).replace(b"<worksheet xmlns=", b"<worksheet xmlns:x=")
    for name in (b"worksheet", b"sheetData", b"row", b"c", b"is", b"t"):  # every element in the prefix
        text = text.replace(b"<" + name + b" ", b"<x:" + name + b" ").replace(b"<" + name + b">", b"<x:" + name + b">")
        text = text.replace(b"</" + name + b">", b"</x:" + name + b">")
    path = hostile.write_xlsx(tmp_path / "prefixed.xlsx", [text])
    assert _parser_refuses(path, ReadLimits(max_rows=50))
    assert _scan_refuses(path, ReadLimits(max_rows=50))
    assert not _scan_refuses(path, ReadLimits(max_rows=51)) and not _parser_refuses(path, ReadLimits(max_rows=51))


@pytest.mark.parametrize("numbered", [True, False])
def test_rows_counted_across_many_pieces(tmp_path: Path, inflated: dict[str, int], numbered: bool) -> None:
    """Rows past the first pieces of the XML, numbered or not: the first one beyond the limit, wherever it is."""
    count = 240_000  # after the header: ~8.5 MB
    rows: Iterator[bytes]
    if numbered:
        rows = (b"".join(b'<row r="%d" s="1"/>' % n for n in range(k, k + 20_000)) for k in range(2, count + 2, 20_000))
    else:
        rows = (b'<row s="1" customFormat="1" ht="15"/>' * 20_000 for _ in range(count // 20_000))
    path = hostile.write_xlsx(tmp_path / "blank.xlsx", hostile.sheet_xml(rows))
    with zipfile.ZipFile(path) as book:
        size = book.getinfo(SHEET).file_size
    limits = ReadLimits(max_rows=count * 7 * hostile.MIB // 2 // size)  # the row ~3.5 MB into the sheet
    assert_too_many_rows(refusal(path, limits), limits.max_rows)
    assert 3 * hostile.MIB < inflated[SHEET] < 5 * hostile.MIB, inflated
    assert _scan_refuses(path, ReadLimits(max_rows=count))
    assert not _scan_refuses(path, ReadLimits(max_rows=count + 1))
