"""Generate a customers .xlsx for benchmarks: make_customers's rows as typed cells, written as XML directly."""

from __future__ import annotations

import argparse
import csv
import datetime
import re
import tempfile
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from make_customers import make

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006"
_EPOCH = datetime.date(1899, 12, 30)
_COLUMNS = "ABCDEFGHI"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")  # as Excel writes a number: no leading zero

_CONTENT_TYPES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="{_PKG}/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"""  # noqa: E501
_ROOT_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="{_PKG}/relationships"><Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>"""  # noqa: E501
_WORKBOOK = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="{_NS}" xmlns:r="{_REL}"><sheets><sheet name="客户" sheetId="1" r:id="rId1"/></sheets></workbook>"""
_WORKBOOK_RELS = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="{_PKG}/relationships"><Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{_REL}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>"""  # noqa: E501
# style 1 is Excel's built-in short date (numFmtId 14): the opened_on cells are date serials in it
_STYLES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="{_NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>"""  # noqa: E501


def _csv_rows(rows: int) -> Iterator[list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = make(Path(tmp) / "customers.csv", rows)
        with path.open(encoding="utf-8", newline="") as f:
            yield from csv.reader(f)


def _t(text: str) -> str:
    """A <t> as Excel writes it: spaces at either end kept by xml:space="preserve"."""
    if text != text.strip():
        return f'<t xml:space="preserve">{escape(text)}</t>'
    return f"<t>{escape(text)}</t>"


def write_customers_xlsx(path: Path, rows: int, records: Iterable[Sequence[str]] | None = None) -> Path:
    """`rows` customers as an Excel clerk's sheet holds them: repeated texts (name, level, department,
    note, header) as shared strings, unique ones (code, e-mail) inline, the phone and the credit limit as
    numbers and the opening date as a date serial (each as inline text where it is no number or no
    date). records: the header and the rows as CSV cells (default: make_customers's `rows`)."""
    strings: dict[str, int] = {}

    def shared(ref: str, text: str) -> str:
        index = strings.setdefault(text, len(strings))
        return f'<c r="{ref}" t="s"><v>{index}</v></c>'

    def inline(ref: str, text: str) -> str:
        return f'<c r="{ref}" t="inlineStr"><is>{_t(text)}</is></c>'

    def number(ref: str, text: str) -> str:
        if not _NUMBER.fullmatch(text):
            return inline(ref, text)
        return f'<c r="{ref}"><v>{text}</v></c>'

    def day(ref: str, text: str) -> str:
        try:
            serial = (datetime.date.fromisoformat(text) - _EPOCH).days
        except ValueError:
            serial = 0
        if serial < 61:  # no date, or one before March 1900 (Excel keeps those as text): the text as it is
            return inline(ref, text)
        return f'<c r="{ref}" s="1"><v>{serial}</v></c>'

    kinds = (inline, shared, number, inline, shared, day, number, shared, shared)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as zf:
        zf.writestr("[Content_Types].xml", _CONTENT_TYPES)
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("xl/workbook.xml", _WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS)
        zf.writestr("xl/styles.xml", _STYLES)
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{_NS}">'
                        f'<dimension ref="A1:I{rows + 1}"/><sheetData>'.encode())  # fmt: skip
            chunk: list[str] = []
            for num, record in enumerate(_csv_rows(rows) if records is None else records, 1):
                if num == 1:
                    cells = [shared(f"{col}1", text) for col, text in zip(_COLUMNS, record, strict=True)]
                else:
                    cells = [
                        kind(f"{col}{num}", text)
                        for kind, col, text in zip(kinds, _COLUMNS, record, strict=True)
                        if text
                    ]
                chunk.append(f'<row r="{num}">{"".join(cells)}</row>')
                if len(chunk) >= 5000:
                    sheet.write("".join(chunk).encode())
                    chunk.clear()
            sheet.write(("".join(chunk) + "</sheetData></worksheet>").encode())
        body = "".join(f"<si>{_t(text)}</si>" for text in strings)
        zf.writestr("xl/sharedStrings.xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                    f'<sst xmlns="{_NS}" count="{len(strings)}" uniqueCount="{len(strings)}">{body}</sst>')  # fmt: skip
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    write_customers_xlsx(args.path, args.rows)
    print(f"{args.path}: {args.rows} rows, {args.path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
