"""The preview's engine side: the sample as the import reads it, the real validator on its rows, the row
count (estimated when large), the sheets, what the day/month dates say, and what would stop the import."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.imports import file_preview
from desktop_app.imports.file_preview import RowCount, check_sample, count_problem, count_rows, read_sample
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.regional import DateOrder
from tests.support.customers import HEADER, row, write_csv

CUSTOMERS = load_import_type(builtin_import_types_dir() / "customers.toml")


def options(path: Path, **changes: object) -> ImportOptions:
    base = ImportOptions(file=path, import_type="customers", max_rows=1_000_000, max_file_mb=50)
    return base.but(**changes)


def test_bad_cells_are_named_by_position_with_the_validators_reasons(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "c.csv", [row(1), row(2, 手机号="bad", 信用额度="-1"), row(3), row(4, 开户日期="x")])
    sample = read_sample(path)
    assert (sample.format, sample.complete, len(sample.rows)) == ("csv", True, 4)
    result = check_sample(sample, CUSTOMERS, options(path), "en")
    assert result.blocking is None and result.checked == 4
    assert [(p.row_number, sorted(p.cells)) for p in result.rows] == [(3, [2, 6]), (5, [5])]
    (phone,) = result.rows[0].cells[2]
    assert phone.message(CUSTOMERS, "en") == "Phone has the wrong format, it must be 11 digits starting with 1"


def test_a_short_csv_row_is_a_whole_row_problem(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text(",".join(HEADER) + "\nC000001,张三\n", encoding="utf-8")
    (problem,) = check_sample(read_sample(path), CUSTOMERS, options(path), "en").rows
    assert [e.code for e in problem.whole_row] == [ErrorCode.COLUMN_COUNT_MISMATCH] and not problem.cells


@pytest.mark.parametrize("text", ["", "\r\n\r\n", ",".join(HEADER) + "\r\n", ",".join(HEADER) + "\r\n,,,\r\n\r\n"])
def test_an_empty_file_says_so(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(text, encoding="utf-8")
    blocking = check_sample(read_sample(path), CUSTOMERS, options(path), "zh").blocking
    assert blocking is not None and blocking.code == ErrorCode.EMPTY_FILE
    assert blocking.text("zh") == "文件是空的：没有任何数据行"


def test_an_empty_workbook_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    Workbook().save(path)
    blocking = check_sample(read_sample(path), CUSTOMERS, options(path), "en").blocking
    assert blocking is not None and blocking.code == ErrorCode.EMPTY_FILE


def test_a_missing_column_reads_as_the_engine_says_it(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text("客户编号,姓名\nC000001,张三\n", encoding="utf-8")
    blocking = check_sample(read_sample(path), CUSTOMERS, options(path), "zh").blocking
    assert blocking is not None and blocking.code == ErrorCode.MISSING_REQUIRED_COLUMN
    assert blocking.text("zh") == "缺少必填列：手机号（表头里找不到这一列）"
    # an update needs only the key
    update = options(path, mode=ImportMode.UPDATE)
    assert check_sample(read_sample(path), CUSTOMERS, update, "zh").blocking is None


def test_a_file_over_the_limit_says_so_and_a_raised_limit_lets_it_through(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "big.csv", [row(i, 备注="x" * 150) for i in range(1, 7001)])
    sample = read_sample(path, max_file_mb=1)
    assert sample.size_mb == 2 and len(sample.rows) == file_preview.SAMPLE_ROWS and not sample.complete
    blocking = check_sample(sample, CUSTOMERS, options(path, max_file_mb=1), "en").blocking
    assert blocking is not None and blocking.code == ErrorCode.FILE_TOO_LARGE
    assert blocking.text("en").startswith("The file is too large: 1.") and "the limit is 1 MB" in blocking.text("en")
    assert check_sample(sample, CUSTOMERS, options(path, max_file_mb=sample.size_mb), "en").blocking is None


def test_rows_are_counted_or_estimated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 1201)])
    sample = read_sample(path)
    assert count_rows(sample, encoding=None, sheet=None) == RowCount(1200)
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0})
    assert count_rows(sample, encoding=None, sheet=None) == RowCount(1200, estimated=True, at_most=True)
    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for i in range(1, 3001):
        sheet.append(row(i))
    xlsx = tmp_path / "c.xlsx"
    book.save(xlsx)
    estimate = count_rows(read_sample(xlsx), encoding=None, sheet=None)
    assert estimate.estimated and 2500 <= estimate.rows <= 3500
    assert count_problem(RowCount(0), 10) is not None and count_problem(RowCount(0, estimated=True), 10) is None
    assert count_problem(RowCount(11), 10).code == ErrorCode.TOO_MANY_ROWS  # type: ignore[union-attr]


def test_an_estimate_is_over_the_row_limit_only_when_clearly_over(tmp_path: Path) -> None:
    # an estimate (a CSV's line breaks, an Excel file's share of bytes) is an estimate: near the limit the task
    # counts; clearly over, the preview says so and offers the limit that lets the file through
    assert count_problem(RowCount(1_050_000, estimated=True), 1_000_000) is None
    over = count_problem(RowCount(2_500_000, estimated=True, at_most=True), 1_000_000)
    assert over is not None and over.code == ErrorCode.TOO_MANY_ROWS
    assert RowCount(2_500_000, estimated=True, at_most=True).limit_to_allow() == 2_500_000  # no more rows than that
    assert RowCount(2_500_001, estimated=True).limit_to_allow() == 2_751_000  # the margin, in whole thousands
    assert RowCount(1_200).limit_to_allow() == 1_200
    # counted whole, past the limit: the limit to offer is the file's own count
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 1201)])
    assert count_rows(read_sample(path), encoding=None, sheet=None) == RowCount(1200)


def test_the_row_limit_message_writes_its_number_with_separators() -> None:
    error = PermanentError(ErrorCode.TOO_MANY_ROWS, limit=1_000_000)
    assert "more than the limit of 1,000,000;" in error.text("en")
    assert "超过上限 1,000,000 行" in error.text("zh")
    assert error.code.value == "too_many_rows"


def test_a_workbooks_sheets_are_listed_and_read(tmp_path: Path) -> None:
    book = Workbook()
    book.active.title = "说明"
    book.active.append(["这张表是说明"])
    data = book.create_sheet("客户")
    data.append(HEADER)
    data.append(row(1))
    book.create_chartsheet("图表")
    book.create_sheet("lists").sheet_state = "hidden"  # a template's drop-down lists: not the clerk's
    path = tmp_path / "two.xlsx"
    book.save(path)
    first = read_sample(path)
    assert first.sheets == ("说明", "客户") and first.header == ("这张表是说明",)
    second = read_sample(path, sheet="客户")
    assert second.header == tuple(HEADER) and len(second.rows) == 1
    assert check_sample(second, CUSTOMERS, options(path, sheet="客户"), "en").blocking is None


def test_what_day_month_dates_say(tmp_path: Path) -> None:
    only_both = write_csv(tmp_path / "a.csv", [row(1, 开户日期="03/05/2024"), row(2, 开户日期="04/06/2024")])
    evidence = check_sample(read_sample(only_both), CUSTOMERS, options(only_both), "en").day_month
    assert evidence is not None and evidence.must_ask and evidence.ambiguous == (2, "03/05/2024")
    shown = write_csv(tmp_path / "b.csv", [row(1, 开户日期="03/05/2024"), row(2, 开户日期="25/05/2024 0:00")])
    evidence = check_sample(read_sample(shown), CUSTOMERS, options(shown), "en").day_month
    assert evidence is not None and not evidence.must_ask and evidence.suggested is DateOrder.DMY
    assert evidence.day_first == (3, "25/05/2024 0:00")
    mixed = write_csv(tmp_path / "c.csv", [row(1, 开户日期="03/05/2024"), row(2, 开户日期="25/05/2024"),
                                           row(3, 开户日期="05/25/2024")])  # fmt: skip
    evidence = check_sample(read_sample(mixed), CUSTOMERS, options(mixed), "en").day_month
    assert evidence is not None and evidence.must_ask and evidence.suggested is None
    plain = write_csv(tmp_path / "d.csv", [row(1), row(2, 开户日期="2024年3月5日")])
    assert check_sample(read_sample(plain), CUSTOMERS, options(plain), "en").day_month is None


def test_the_chosen_order_and_decimal_comma_change_the_check(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "a.csv", [row(1, 开户日期="03/05/2024", 信用额度="1 234,50")])
    sample = read_sample(path)
    (problem,) = check_sample(sample, CUSTOMERS, options(path), "en").rows
    assert {p: [e.code.value for e in errors] for p, errors in problem.cells.items()} == {
        5: ["ambiguous_date"], 6: ["invalid_number"]}  # fmt: skip
    chosen = options(path, date_order=DateOrder.DMY, decimal_comma=True)
    assert check_sample(sample, CUSTOMERS, chosen, "en").rows == ()


def test_a_neutralised_error_csv_is_checked_restored(tmp_path: Path) -> None:
    header = ["行号", *HEADER, "错误代码", "错误原因"]
    path = write_csv(tmp_path / "T260101-AAAAAA-errors.csv", [["3", *row(1, 姓名="'=SUM(A1)"), "x", "y"]],
                     header=header)  # fmt: skip
    result = check_sample(read_sample(path), CUSTOMERS, options(path), "en")
    assert result.blocking is None and result.rows == ()


def test_a_typed_date_cell_is_fine(tmp_path: Path) -> None:
    book = Workbook()
    book.active.append(HEADER)
    book.active.append(["C000001", "张三", 13800138000, None, None, dt.date(2024, 3, 5), 1500.5, None, None])
    path = tmp_path / "c.xlsx"
    book.save(path)
    assert check_sample(read_sample(path), CUSTOMERS, options(path), "en").rows == ()


def test_a_large_csv_whose_notes_hold_line_breaks_is_counted_before_it_is_called_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import counts a CSV whose line breaks pass its limit (imports/precheck.count_rows) and takes it when
    its records are within: the preview, holding it to the same limit, must not say "Cannot queue: about 3,000
    rows" of the 1,000 the import would take at a limit of 1,500."""
    path = write_csv(tmp_path / "c.csv", [row(i, 备注="line one\nline two\nline three") for i in range(1, 1001)])
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0})  # as a file above 20 MB
    sample = read_sample(path)
    assert count_rows(sample, encoding=None, sheet=None) == RowCount(3000, estimated=True, at_most=True)
    count = count_rows(sample, encoding=None, sheet=None, max_rows=1500)
    assert count == RowCount(1000) and count_problem(count, 1500) is None
    # truly over: the bound stays (the limit that lets the file through), and the preview says so
    over = count_rows(sample, encoding=None, sheet=None, max_rows=900)
    assert over == RowCount(3000, estimated=True, at_most=True)
    assert count_problem(over, 900).code == ErrorCode.TOO_MANY_ROWS  # type: ignore[union-attr]


def test_a_large_workbook_with_a_formatted_cell_far_below_is_counted_before_it_is_called_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An .xlsx estimate is the sheet's size (its dimension): one formatted empty cell at row 50,000 made it
    "about 49,975 rows" for a sheet of 3,000, which the import (its row elements, then a count) takes at a
    limit of 10,000."""
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for i in range(1, 3001):
        sheet.append(row(i))
    sheet.cell(row=50_000, column=1).font = Font(bold=True)
    path = tmp_path / "c.xlsx"
    book.save(path)
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0})  # as a file above 2 MB
    sample = read_sample(path)
    assert count_rows(sample, encoding=None, sheet=None).rows > 40_000  # the estimate alone
    count = count_rows(sample, encoding=None, sheet=None, max_rows=10_000)
    assert count == RowCount(3000) and count_problem(count, 10_000) is None


def test_a_large_workbooks_estimate_is_of_the_chosen_sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a template's notes sheet first (as clerks' workbooks have it): "About 0 rows" for the customers' 3,000
    book = Workbook()
    book.active.title = "说明"
    book.active.append(["填写说明"])
    data = book.create_sheet("客户")
    data.append(HEADER)
    for i in range(1, 3001):
        data.append(row(i))
    path = tmp_path / "two.xlsx"
    book.save(path)
    monkeypatch.setattr(file_preview, "EXACT_COUNT_MB", {"csv": 0, "xlsx": 0})  # as a file above 2 MB
    estimate = count_rows(read_sample(path, sheet="客户"), encoding=None, sheet="客户")
    assert estimate.estimated and 2500 <= estimate.rows <= 3500, estimate
