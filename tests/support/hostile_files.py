"""Hostile and broken files built by streaming (zip bombs, giant fields), so the repository stays small."""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

import xlwt

MIB = 1024 * 1024
_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
_REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "{strings}</Types>"
)
_STRINGS_TYPE = (
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
)
_ROOT_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    f'relationships"><Relationship Id="rId1" Type="{_REL_NS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
_WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook {_NS} xmlns:r="{_REL_NS}"><sheets>'
    '<sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    f'relationships"><Relationship Id="rId1" Type="{_REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>'
    "{strings}</Relationships>"
)
_STRINGS_REL = f'<Relationship Id="rId2" Type="{_REL_NS}/sharedStrings" Target="sharedStrings.xml"/>'

HEADER_ROW = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>customer_code</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>name</t></is></c><c r="C1" t="inlineStr"><is><t>phone</t></is></c></row>'
)


def _repeat(piece: bytes, total: int) -> Iterator[bytes]:
    """piece repeated in ~1 MB chunks until total bytes have been given."""
    chunk = piece * max(1, MIB // len(piece))
    given = 0
    while given < total:
        part = chunk[: total - given]
        given += len(part)
        yield part


def write_xlsx(
    path: Path, sheet: Iterable[bytes], strings: Iterable[bytes] | None = None, *, extra_parts: int = 0
) -> Path:
    """A one-sheet workbook whose sheet XML (and shared strings XML) are streamed through deflate."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES.format(strings=_STRINGS_TYPE if strings else ""))
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS.format(strings=_STRINGS_REL if strings else ""))
        for name, body in (("xl/worksheets/sheet1.xml", sheet), ("xl/sharedStrings.xml", strings)):
            if body is not None:
                with zf.open(name, "w", force_zip64=True) as out:
                    for piece in body:
                        out.write(piece)
        for n in range(extra_parts):
            zf.writestr(f"xl/media/p{n}.bin", b"")
    return path


def sheet_xml(rows: Iterable[bytes], *, head: bytes = b"") -> Iterator[bytes]:
    yield f'<?xml version="1.0" encoding="UTF-8"?><worksheet {_NS}>'.encode() + head + b"<sheetData>"
    yield HEADER_ROW.encode()
    yield from rows
    yield b"</sheetData></worksheet>"


def strings_xml(items: Iterable[bytes], *, unique_count: int | None = None) -> Iterator[bytes]:
    count = f' uniqueCount="{unique_count}"' if unique_count is not None else ""
    yield f'<?xml version="1.0" encoding="UTF-8"?><sst {_NS}{count}>'.encode()
    yield from items
    yield b"</sst>"


# --- the hostile workbooks ----------------------------------------------------------------------


def xlsx_blank_rows(path: Path, unpacked: int) -> Path:
    """A sheet of formatted blank rows, unpacked bytes long (a 1.5 GB one packs to ~10 MB)."""
    return write_xlsx(path, sheet_xml(_repeat(b'<row s="1" customFormat="1" ht="15"/>', unpacked)))


def xlsx_huge_cell(path: Path, chars: int) -> Path:
    """One inline-string cell of chars characters at row 2."""
    body = [b'<row r="2"><c r="A2" t="inlineStr"><is><t>', *_repeat(b"A", chars), b"</t></is></c></row>"]
    return write_xlsx(path, sheet_xml(body))


def xlsx_huge_shared_string(path: Path, chars: int) -> Path:
    sheet = sheet_xml([b'<row r="2"><c r="A2" t="s"><v>0</v></c></row>'])
    return write_xlsx(path, sheet, strings_xml([b"<si><t>", *_repeat(b"B", chars), b"</t></si>"]))


def xlsx_many_shared_strings(path: Path, count: int, *, declared: bool) -> Path:
    sheet = sheet_xml([b'<row r="2"><c r="A2" t="s"><v>0</v></c></row>'])
    items = (b"<si><t>s%d</t></si>" % n for n in range(count))
    return write_xlsx(path, sheet, strings_xml(items, unique_count=count if declared else None))


def xlsx_far_row(path: Path) -> Path:
    """A row numbered far beyond Excel's last (openpyxl would fill in every missing row before it)."""
    return write_xlsx(path, sheet_xml([b'<row r="2000000000"><c t="inlineStr"><is><t>x</t></is></c></row>']))


def xlsx_wide_row(path: Path, cells: int) -> Path:
    """Row 2 with cells cells (no coordinates: each one the next column)."""
    return write_xlsx(path, sheet_xml([b"<row r='2'>", *_repeat(b"<c><v>1</v></c>", 15 * cells), b"</row>"]))


def xlsx_many_parts(path: Path, parts: int) -> Path:
    return write_xlsx(path, sheet_xml([]), extra_parts=parts)


def xls_far_cell(path: Path) -> Path:
    """Two cells, A1 and IV65536: calamine would hold the whole area between them (~1 GB)."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("Data")
    sheet.write(0, 0, "customer_code")
    sheet.write(65535, 255, 1)
    book.save(str(path))
    return path


# --- the hostile CSV files ---------------------------------------------------------------------

CSV_HEADER = b"customer_code,name,phone\n"


def write_stream(path: Path, pieces: Iterable[bytes]) -> Path:
    with path.open("wb") as out:
        for piece in pieces:
            out.write(piece)
    return path


def csv_long_field(path: Path, chars: int) -> Path:
    return write_stream(path, [CSV_HEADER, b"C1,", *_repeat(b"x", chars), b",13800138000\n"])


def csv_nul_bytes(path: Path, size: int) -> Path:
    return write_stream(path, [CSV_HEADER, b"C1,a,13800138000\n", *_repeat(b"\x00", size)])


def csv_rows(count: int, *, start: int = 0, end: bytes = b"\n") -> Iterator[bytes]:
    for n in range(start, start + count):
        yield b"C%06d,Name %d,138%08d%s" % (n, n, n, end)


def csv_unclosed_quote(path: Path, rows: int) -> Path:
    """An unbalanced quote at row 2, then rows - 1 ordinary rows."""
    return write_stream(path, [CSV_HEADER, b'C0,"Name 0,13800000000\n', *csv_rows(rows - 1, start=1)])


def csv_cr_only(path: Path, rows: int) -> Path:
    return write_stream(path, [CSV_HEADER.replace(b"\n", b"\r"), *csv_rows(rows, end=b"\r")])
