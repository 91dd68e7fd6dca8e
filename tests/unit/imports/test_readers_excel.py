"""Excel reading: typed cells, sheet row numbers, padding, named sheets, damaged files."""

from __future__ import annotations

import datetime
from pathlib import Path

import openpyxl
import pytest
import xlwt

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.readers import Cell, SourceRow, cell_to_text, open_table, preview

D = datetime.date
DT = datetime.datetime


def make_xlsx(path: Path, rows: dict[int, list[object]], *, sheet: str = "Data", extra: str | None = None) -> Path:
    """rows: {sheet row number (1-based): values from column A}."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = sheet
    for r, values in rows.items():
        for c, value in enumerate(values, 1):
            if value is not None:
                ws.cell(row=r, column=c, value=value)
    if extra is not None:
        other = wb.create_sheet(extra)
        other.append(["other", "header"])
        other.append(["x", 1])
    wb.save(path)
    return path


def make_xls(path: Path, rows: dict[int, list[object]], *, sheet: str = "Data", extra: str | None = None) -> Path:
    wb = xlwt.Workbook()
    ws = wb.add_sheet(sheet)
    date_style = xlwt.easyxf(num_format_str="YYYY-MM-DD")
    time_style = xlwt.easyxf(num_format_str="YYYY-MM-DD hh:mm:ss")
    for r, values in rows.items():
        for c, value in enumerate(values):
            if value is None:
                continue
            if isinstance(value, DT):
                ws.write(r - 1, c, value, time_style)
            elif isinstance(value, D):
                ws.write(r - 1, c, value, date_style)
            else:
                ws.write(r - 1, c, value)
    if extra is not None:
        other = wb.add_sheet(extra)
        other.write(0, 0, "other")
        other.write(0, 1, "header")
        other.write(1, 0, "x")
        other.write(1, 1, 1)
    wb.save(str(path))
    return path


def read(path: Path, **kwargs: object) -> tuple[tuple[str, ...], list[tuple[int, tuple[Cell, ...]]]]:
    with open_table(path, **kwargs) as reader:  # type: ignore[arg-type]
        return reader.header, [(r.row_number, r.cells) for r in reader.rows()]


@pytest.fixture(params=["xlsx", "xls"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def make(kind: str, path: Path, rows: dict[int, list[object]], **kwargs: str) -> Path:
    maker = make_xlsx if kind == "xlsx" else make_xls
    return maker(path.with_suffix("." + kind), rows, **kwargs)


def test_xlsx_typed_cells(tmp_path: Path) -> None:
    path = make_xlsx(
        tmp_path / "t.xlsx",
        {
            1: ["手机号", "生日", "登记时间", "金额", "启用", "备注"],
            2: [13800138000, D(1990, 5, 17), DT(2024, 3, 5, 10, 31, 7), 12.5, True, "张三"],
            3: [13900139000.0, DT(2024, 1, 2), None, 0.125, False, None],
        },
    )
    header, rows = read(path)
    assert header == ("手机号", "生日", "登记时间", "金额", "启用", "备注")
    assert rows == [
        (2, (13800138000, D(1990, 5, 17), DT(2024, 3, 5, 10, 31, 7), 12.5, True, "张三")),
        (3, (13900139000, D(2024, 1, 2), None, 0.125, False, None)),
    ]
    texts = [[cell_to_text(c) for c in cells] for _, cells in rows]
    assert texts == [
        ["13800138000", "1990-05-17", "2024-03-05 10:31:07", "12.5", "TRUE", "张三"],
        ["13900139000", "2024-01-02", "", "0.125", "FALSE", ""],
    ]
    with open_table(path) as reader:
        assert (reader.format, reader.encoding) == ("xlsx", None)


def test_xlsx_time_and_duration_cells_become_text(tmp_path: Path) -> None:
    path = make_xlsx(
        tmp_path / "t.xlsx",
        {1: ["t", "d"], 2: [datetime.time(8, 5, 9), datetime.timedelta(hours=30, minutes=1)]},
    )
    assert read(path)[1] == [(2, ("08:05:09", "30:01:00"))]


def test_xls_typed_cells(tmp_path: Path) -> None:
    path = make_xls(
        tmp_path / "t.xls",
        {
            1: ["手机号", "生日", "登记时间", "数量", "备注"],
            2: [13800138000, D(1990, 5, 17), DT(2024, 3, 5, 10, 31, 7), 42, "张三"],
            3: [13900139000.0, D(2024, 1, 2), None, 1.25, None],
        },
    )
    header, rows = read(path)
    assert header == ("手机号", "生日", "登记时间", "数量", "备注")
    assert [n for n, _ in rows] == [2, 3]
    first, second = rows[0][1], rows[1][1]
    assert first[0] == 13800138000 and isinstance(first[0], int | float)
    assert first[1] == D(1990, 5, 17) and type(first[1]) is D
    assert first[2] == DT(2024, 3, 5, 10, 31, 7)
    assert first[3] == 42
    assert second == (13900139000.0, D(2024, 1, 2), None, 1.25, None)
    assert [cell_to_text(c) for c in first] == [
        "13800138000",
        "1990-05-17",
        "2024-03-05 10:31:07",
        "42",
        "张三",
    ]
    assert cell_to_text(second[0]) == "13900139000"
    with open_table(path) as reader:
        assert (reader.format, reader.encoding) == ("xls", None)


def test_blank_rows_keep_their_numbers(tmp_path: Path, kind: str) -> None:
    path = make(
        kind,
        tmp_path / "b",
        {
            1: ["id", "name", "note"],
            2: [1, "a", None],
            3: [None, "", "   "],  # blank: empty and whitespace-only cells
            # row 4 missing entirely
            5: [None, None, "x"],
            7: [7, "g", "h"],
        },
    )
    header, rows = read(path)
    assert header == ("id", "name", "note")
    assert rows == [(2, (1, "a", None)), (5, (None, None, "x")), (7, (7, "g", "h"))]
    with open_table(path) as reader:
        assert reader.count_rows() == 3
        assert reader.count_rows(limit=1) == 2
        assert reader.count_rows(limit=3) == 3


def test_rows_are_padded_to_the_header_and_overflow_is_kept(tmp_path: Path, kind: str) -> None:
    path = make(
        kind,
        tmp_path / "p",
        {1: ["a", "b", "c"], 2: ["x"], 3: ["x", None, None, None, "beyond"], 4: [None, None, None, "only"]},
    )
    header, rows = read(path)
    assert header == ("a", "b", "c")
    assert rows == [
        (2, ("x", None, None)),
        (3, ("x", None, None, None, "beyond")),
        (4, (None, None, None, "only")),
    ]


def test_trailing_empty_cells_beyond_the_header_are_dropped(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["a", "b"])
    ws.append(["1", "2"])
    ws["F2"].number_format = "0.00"  # a formatted empty cell: written, with no value
    ws["F1"].number_format = "0.00"
    wb.save(tmp_path / "f.xlsx")
    assert read(tmp_path / "f.xlsx") == (("a", "b"), [(2, ("1", "2"))])


def test_header_cells_are_text(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "h", {1: ["name", 2024, 1.5, None, "x"], 2: ["v"]})
    assert read(path)[0] == ("name", "2024", "1.5", "", "x")


def test_sheet_starting_below_row_one(tmp_path: Path, kind: str) -> None:
    # the header is row 1 of the sheet, even when it is empty; data rows keep their own numbers
    path = make(kind, tmp_path / "s", {3: [None, "h1", None, "h3"], 6: [None, None, "x"]})
    assert read(path) == ((), [(3, (None, "h1", None, "h3")), (6, (None, None, "x"))])


def test_named_sheet(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "n", {1: ["first"], 2: ["a"]}, extra="客户")
    assert read(path) == (("first",), [(2, ("a",))])
    assert read(path, sheet="客户") == (("other", "header"), [(2, ("x", 1))])
    with pytest.raises(PermanentError) as info:
        open_table(path, sheet="Nope")
    assert info.value.code == ErrorCode.INVALID_PARAMS
    assert info.value.params == {"detail": "no sheet named Nope"}


def test_resume_with_skip_through(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "r", {1: ["n"], **{r: [f"v{r}"] for r in range(2, 12) if r != 6}})
    with open_table(path) as reader:
        assert [r.row_number for r in reader.rows()] == [2, 3, 4, 5, 7, 8, 9, 10, 11]
        assert [(r.row_number, r.cells) for r in reader.rows(skip_through=8)] == [
            (9, ("v9",)),
            (10, ("v10",)),
            (11, ("v11",)),
        ]
        assert [r.row_number for r in reader.rows(skip_through=5)] == [7, 8, 9, 10, 11]
        assert list(reader.rows(skip_through=11)) == []
        assert next(iter(reader.rows(skip_through=0))) == SourceRow(1, ("n",))


def test_fraction_done(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "f", {1: ["n"], **{r: [r] for r in range(2, 202)}})
    with open_table(path) as reader:
        assert reader.fraction_done() == 0.0
        it = reader.rows()
        for _ in range(100):
            next(it)
        assert 0.4 < reader.fraction_done() < 0.6
        for _ in it:
            pass
        assert reader.fraction_done() == 1.0


def test_header_only(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "h", {1: ["a", "b"]})
    with open_table(path) as reader:
        assert reader.header == ("a", "b")
        assert list(reader.rows()) == []
        assert reader.count_rows() == 0


@pytest.mark.parametrize("suffix", [".xlsx", ".xls", ".XLSX"])
def test_zero_byte_workbook_opens_empty(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / ("z" + suffix)
    path.write_bytes(b"")
    with open_table(path) as reader:
        assert reader.format == suffix.lower()[1:]
        assert reader.header == ()
        assert list(reader.rows()) == []
        assert reader.count_rows() == 0


def _corrupt_variants(tmp_path: Path) -> list[tuple[str, bytes]]:
    good_xlsx = make_xlsx(tmp_path / "good.xlsx", {1: ["a"], 2: ["b"]}).read_bytes()
    good_xls = make_xls(tmp_path / "good.xls", {1: ["a"], 2: ["b"]}).read_bytes()
    garbage = bytes(range(256)) * 8
    csv_text = "姓名,手机号\n张三,13800138000\n".encode()
    return [
        ("garbage", garbage),
        ("csv", csv_text),
        ("truncated-xlsx", good_xlsx[: len(good_xlsx) // 2]),
        ("truncated-xls", good_xls[: len(good_xls) // 2]),
        ("zip-magic-only", b"PK\x03\x04" + b"\x00" * 100),
        ("ole-magic-only", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600),
    ]


@pytest.mark.parametrize("suffix", [".xlsx", ".xls"])
def test_corrupt_workbooks(tmp_path: Path, suffix: str) -> None:
    for name, data in _corrupt_variants(tmp_path):
        path = tmp_path / (name + suffix)
        path.write_bytes(data)
        with pytest.raises(PermanentError) as info, open_table(path) as reader:
            list(reader.rows())
        assert info.value.code == ErrorCode.CORRUPT_FILE, name


def test_workbook_with_the_wrong_suffix_is_read_by_content(tmp_path: Path) -> None:
    data = make_xlsx(tmp_path / "real.xlsx", {1: ["a"], 2: [1]}).read_bytes()
    (tmp_path / "named.xls").write_bytes(data)
    with open_table(tmp_path / "named.xls") as reader:
        assert reader.format == "xlsx"
        assert [r.cells for r in reader.rows()] == [(1,)]
    data = make_xls(tmp_path / "real.xls", {1: ["a"], 2: [1]}).read_bytes()
    (tmp_path / "named.xlsx").write_bytes(data)
    with open_table(tmp_path / "named.xlsx") as reader:
        assert reader.format == "xls"
        assert [r.cells for r in reader.rows()] == [(1,)]


def test_preview(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "p", {1: ["a"], **{r: [f"v{r}"] for r in range(2, 40)}})
    pv = preview(path, max_rows=2)
    assert (pv.format, pv.encoding, pv.header) == (kind, None, ("a",))
    assert pv.rows == [SourceRow(2, ("v2",)), SourceRow(3, ("v3",))]


def test_closed_reader(tmp_path: Path, kind: str) -> None:
    path = make(kind, tmp_path / "c", {1: ["a"], 2: ["b"]})
    reader = open_table(path)
    reader.close()
    reader.close()  # twice is fine
    with pytest.raises(ValueError):
        reader.rows()


def _set_dimension(path: Path, ref: str | None) -> None:
    """Rewrite the first sheet's declared size (<dimension ref=...>), or drop it."""
    import re
    import zipfile

    with zipfile.ZipFile(path) as zin:
        items = [(info, zin.read(info.filename)) for info in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in items:
            if info.filename == "xl/worksheets/sheet1.xml":
                new = b"" if ref is None else f'<dimension ref="{ref}"/>'.encode()
                data, n = re.subn(rb"<dimension ref=\"[^\"]*\"\s*/>", new, data)
                assert n == 1
            zout.writestr(info, data)


def test_understated_dimension_does_not_cut_the_sheet(tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "d.xlsx", {1: ["a", "b"], **{r: [r, f"v{r}"] for r in range(2, 30)}})
    _set_dimension(path, "A1:A3")
    header, rows = read(path)
    assert header == ("a", "b")
    assert len(rows) == 28
    assert rows[-1] == (29, (29, "v29"))


def test_fraction_done_without_a_declared_size(tmp_path: Path) -> None:
    path = make_xlsx(tmp_path / "n.xlsx", {1: ["n", "s"], **{r: [r * 7919, f"name{r}"] for r in range(2, 20_002)}})
    _set_dimension(path, None)
    with open_table(path) as reader:
        assert reader.fraction_done() == 0.0
        it = reader.rows()
        for _ in range(10_000):
            next(it)
        assert 0.25 < reader.fraction_done() < 0.75
        assert sum(1 for _ in it) == 10_000
        assert reader.fraction_done() == 1.0
