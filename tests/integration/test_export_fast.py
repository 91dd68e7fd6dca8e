"""The CSV export's fast paths (the database renders the cells) write the row-by-row writer's bytes."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.exports import fast_csv, fast_xlsx, sqlite_pages
from tests.support.customers import row, run_import, write_csv
from tests.support.exports import run_export
from tests.support.imports import ORDER_HEADER, ORDERS, order_row, run_type_import, write_rows, write_type

TRICKY = ["a,b", 'say "hi"', "two\nlines", "=SUM(A1)", "+1", "-2", "@me", "中文，全角", "x\r\ny", "plain", "'quoted"]


@pytest.fixture
def imported(core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(fast_csv, "STREAM_ROWS", 4)  # batches end inside an order's lines
    monkeypatch.setattr(sqlite_pages, "PAGE_ROWS", 4)  # so do SQLite's pages
    monkeypatch.setattr(fast_xlsx, "SLICE_ROWS", 3)  # and the sheet's slices
    write_type(core)
    rows = []
    for n in range(1, 16):
        for line in (1, 2):
            changes = {"品名": TRICKY[(n + line) % len(TRICKY)]}
            if n % 4 == 0:
                changes.update({"下单时间": f"2024-03-0{n % 9 + 1} 00:00", "数量": "", "发货日期": "", "部门": ""})
            rows.append(order_row(n, line, **changes))
    task = run_type_import(core, write_rows(tmp_path / "o.csv", ORDER_HEADER, rows), "orders")
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 30, task.error_msg
    return task.task_no


@pytest.mark.parametrize("encoding", ["utf-8-sig", "gb18030"])
def test_the_fast_path_writes_what_the_row_writer_writes(core: Core, imported: str, encoding: str) -> None:
    fast = run_export(core, "orders", encoding=encoding)
    slow = run_export(core, "orders", encoding=encoding, filters={"imported_by": imported})  # row by row
    assert fast.status is TaskStatus.SUCCEEDED and fast.total_count == slow.total_count == 30
    fast_bytes = Path(fast.result_path or "").read_bytes()
    assert fast_bytes == Path(slow.result_path or "").read_bytes()
    assert fast_bytes.count(b"\r\n") == 31 + 2  # a row each, the header, and the two CR LF inside cells
    assert b"'=SUM(A1)" in fast_bytes and b'"two\nlines"' in fast_bytes


def test_fast_path_filters(core: Core, imported: str) -> None:
    web = run_export(core, "orders", filters={"channel": "网店"})
    assert web.status is TaskStatus.SUCCEEDED and web.total_count == 10
    text = Path(web.result_path or "").read_text(encoding="utf-8-sig")
    assert text.count("网店") == 10 and "门店" not in text


def test_a_cancel_during_the_fast_path_leaves_no_file(
    core: Core, imported: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.tasks.context import StopReason, TaskContext

    monkeypatch.setattr(
        TaskContext, "stop_reason", lambda self: StopReason.CANCEL if self.task.task_type == "export" else None
    )
    task = run_export(core, "orders")
    assert task.status is TaskStatus.CANCELLED
    assert list(core.paths.work_dir.glob("*.part")) == [] and not list((core.paths.results_dir / "exports").glob("*"))


PARCELS = """\
name = "parcels"
title_zh = "包裹"
title_en = "Parcels"
table = "parcels"
unique_key = "code"

[[columns]]
key = "code"
label_zh = "编码"
label_en = "Code"
aliases = ["编码"]
required = true

[[columns]]
key = "phone"
label_zh = "电话"
label_en = "Phone"
aliases = ["电话"]

[[columns]]
key = "balance"
label_zh = "余额"
label_en = "Balance"
aliases = ["余额"]
kind = "decimal"
decimal_scale = 2
"""


def test_xlsx_cells_are_typed_and_the_sheet_is_named(core: Core, imported: str, tmp_path: Path) -> None:
    import datetime as dt
    from decimal import Decimal

    from openpyxl import load_workbook

    assert run_import(core, write_csv(tmp_path / "c.csv", [row(1), row(2)])).success_count == 2
    book = load_workbook(Path(run_export(core, "customers", fmt="xlsx").result_path or ""))
    assert book.sheetnames == [core.catalog.get("customers").title("zh")]  # the type's title
    sheet = book.worksheets[0]
    header, first, second = (list(r) for r in sheet.iter_rows(min_row=1, max_row=3, values_only=True))
    values = dict(zip(header, first, strict=True))
    assert values["客户编号"] == "C000001" and values["手机号"] == "13800000001" and sheet["C2"].data_type == "s"
    assert values["开户日期"] == dt.datetime(2024, 2, 2) and sheet["F2"].is_date
    assert values["信用额度"] == 1.5 and sheet["G2"].data_type == "n"
    assert dict(zip(header, second, strict=True))["信用额度"] == 2.5
    assert values["等级"] == "银卡"
    orders = load_workbook(Path(run_export(core, "orders", fmt="xlsx").result_path or "")).worksheets[0]
    rows = list(orders.iter_rows(min_row=2, values_only=True))
    assert len(rows) == 30 and isinstance(rows[0][1], int) and isinstance(rows[0][6], dt.datetime)
    assert {r[2] for r in rows} >= {"=SUM(A1)", "two\nlines"}  # texts as they are: inline strings never run
    assert isinstance(rows[0][7], bool) and Decimal(str(rows[0][4])) == Decimal(order_row(1)[4])
    write_type(core, PARCELS, "parcels.toml")
    parcels = write_rows(
        tmp_path / "p.csv", ["编码", "电话", "余额"], [["00123", "0755-1234", "-12.50"], ["00124", "", ""]]
    )
    assert run_type_import(core, parcels, "parcels").success_count == 2
    kept = load_workbook(Path(run_export(core, "parcels", fmt="xlsx").result_path or "")).worksheets[0]
    assert list(kept.iter_rows(min_row=2, values_only=True)) == [
        ("00123", "0755-1234", -12.5),
        ("00124", None, None),
    ]  # a number, not neutralised
    assert kept.title == "包裹"


def test_a_value_holding_the_unit_separator_is_written_row_by_row(core: Core, imported: str, tmp_path: Path) -> None:
    odd = write_rows(tmp_path / "odd.csv", ORDER_HEADER, [order_row(99, 1, 品名="a\x1fb")])
    assert run_type_import(core, odd, "orders").success_count == 1
    task = run_export(core, "orders")
    assert task.status is TaskStatus.SUCCEEDED and task.total_count == 31
    text = Path(task.result_path or "").read_text(encoding="utf-8-sig")
    assert "a\x1fb" in text and text.count("SO0099") == 1


def test_the_fast_xlsx_path_writes_the_row_paths_sheet(
    core: Core, imported: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import zipfile

    typed: list[int] = []
    real = fast_xlsx.typed_rows

    def counted(batch: Any, typers: Any) -> Any:
        typed.append(batch.num_rows)
        return real(batch, typers)

    monkeypatch.setattr(fast_xlsx, "typed_rows", counted)

    rows = [row(n) for n in range(1, 12)]
    rows[3] = row(4, 开户日期="", 等级="", 部门="")  # NULLs of a date, a labelled text and a plain text
    rows[5] = row(6, 备注="=1+1 & <b>")  # a text a spreadsheet would run, and XML's own characters
    task = run_import(core, write_csv(tmp_path / "c.csv", rows))
    assert task.success_count == 11, task.error_msg
    fast = run_export(core, "customers", fmt="xlsx")
    slow = run_export(core, "customers", fmt="xlsx", filters={"imported_by": task.task_no})  # row by row
    assert fast.status is TaskStatus.SUCCEEDED and fast.total_count == slow.total_count == 11

    def sheet(path: str | None) -> bytes:
        with zipfile.ZipFile(path or "") as book:
            return book.read("xl/worksheets/sheet1.xml")

    fast_sheet = sheet(fast.result_path)
    assert fast_sheet == sheet(slow.result_path)
    assert sum(typed) == 11 and max(typed) <= 3  # the fast path wrote them, a slice at a time
    assert fast_sheet.count(b"<row ") == 12 and b"=1+1 &amp; &lt;b&gt;" in fast_sheet


def test_an_xlsx_export_with_a_separator_in_a_value_starts_again_row_by_row(core: Core, tmp_path: Path) -> None:
    import zipfile

    rows = [row(1), row(2, 备注="a\x1fb"), row(3, 备注="c\x1ed")]  # the unit and the record separator
    assert run_import(core, write_csv(tmp_path / "c.csv", rows)).success_count == 3
    task = run_export(core, "customers", fmt="xlsx")
    assert task.status is TaskStatus.SUCCEEDED and task.total_count == 3
    with zipfile.ZipFile(task.result_path or "") as book:
        sheet = book.read("xl/worksheets/sheet1.xml")
    # each row once (the fast path's rows were thrown away with its sheet); XML cannot hold the
    # control characters, so the sheet shows the texts without them, as the row writer writes them
    assert sheet.count(b"<row ") == 4 and sheet.count(b"C000002") == 1
    assert b"<t>ab</t>" in sheet and b"<t>cd</t>" in sheet


def test_a_nul_in_a_stored_text_is_exported_whole(
    core: Core, db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    # SQLite's printf, which makes each row's text on the fast path, ends a text at a NUL: the page's
    # texts are measured beside, and the export goes row by row rather than cut the value short.
    import sqlalchemy as sa

    if db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's text cannot hold a NUL")
    monkeypatch.setattr(sqlite_pages, "PAGE_ROWS", 4)
    assert run_import(core, write_csv(tmp_path / "c.csv", [row(n) for n in range(1, 11)])).success_count == 10
    with core.store.engine.begin() as conn:  # an import refuses a NUL (invalid_character): put there by hand
        conn.execute(sa.text("UPDATE customers SET note = :v WHERE code = 'C000006'"), {"v": "a\x00b"})
    task = run_export(core, "customers")
    assert task.status is TaskStatus.SUCCEEDED and task.total_count == 10
    data = Path(task.result_path or "").read_bytes()
    assert b"a\x00b" in data and data.count(b"C000006") == 1 and data.count(b"\r\n") == 11


def test_a_record_separator_in_a_value_stays_on_the_fast_path(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    # A page's rows and values are both joined by the unit separator (one split): the record separator
    # is only a character now, and the file is the row writer's.
    monkeypatch.setattr(sqlite_pages, "PAGE_ROWS", 3)
    pages: list[int] = []
    real = fast_csv._fields

    def counted(page: Any, rows: int, width: int) -> Any:
        pages.append(rows)
        return real(page, rows, width)

    monkeypatch.setattr(fast_csv, "_fields", counted)
    rows = [row(n, 备注="c\x1ed") if n == 5 else row(n) for n in range(1, 9)]
    task = run_import(core, write_csv(tmp_path / "c.csv", rows))
    assert task.success_count == 8, task.error_msg
    fast = run_export(core, "customers")
    slow = run_export(core, "customers", filters={"imported_by": task.task_no})  # row by row
    assert fast.status is TaskStatus.SUCCEEDED and fast.total_count == 8
    data = Path(fast.result_path or "").read_bytes()
    assert data == Path(slow.result_path or "").read_bytes() and b"c\x1ed" in data
    if core.store.engine.dialect.name == "sqlite":
        assert pages == [3, 3, 2]  # SQLite's pages, none thrown away


def test_postgresql_dates_read_yyyy_mm_dd_whatever_the_servers_datestyle(
    core: Core, imported: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export's session sets its own DateStyle (store/dialects/postgresql.EXPORT_SESSION): a date's own text is
    the export's, even where the server or the database says day/month first."""
    if core.store.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's DateStyle")
    import adbc_driver_postgresql

    plain = Path(run_export(core, "orders").result_path or "").read_bytes()
    connect = adbc_driver_postgresql.connect

    def day_first(uri: str, *args: Any, **kwargs: Any) -> Any:
        parts = urlsplit(uri)
        query = dict(parse_qsl(parts.query))
        query["options"] = (query.get("options", "") + " -c DateStyle=SQL,DMY").strip()  # the test's schema kept
        return connect(urlunsplit(parts._replace(query=urlencode(query, quote_via=quote))), *args, **kwargs)

    monkeypatch.setattr(adbc_driver_postgresql, "connect", day_first)
    task = run_export(core, "orders")
    written = Path(task.result_path or "").read_bytes()
    assert task.status is TaskStatus.SUCCEEDED and written == plain
    assert b"-03-0" in written and b"/03/" not in written


def test_the_command_lines_export_reads_through_the_database_begun_ahead(
    core: Core, imported: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """export --wait opens PostgreSQL's ADBC database while it submits (adbc_ahead); the reader takes
    it, opens no other, and writes what the export writes without it."""
    if core.store.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL's reader")
    import threading

    import adbc_driver_postgresql

    from desktop_app.cli.main import main

    plain = Path(run_export(core, "orders").result_path or "").read_bytes()
    opened: list[str] = []
    connect = adbc_driver_postgresql.connect

    def counted(uri: str, *args: Any, **kwargs: Any) -> Any:
        opened.append(threading.current_thread().name)
        return connect(uri, *args, **kwargs)

    monkeypatch.setattr(adbc_driver_postgresql, "connect", counted)
    out = tmp_path / "ahead.csv"
    data = ["--data-dir", str(core.paths.data_dir), "--db", core.db_url]
    assert main([*data, "export", "orders", "--wait", "--output", str(out)]) == 0
    assert opened == ["batchdesk-adbc-ahead"] and out.read_bytes() == plain
    opened.clear()  # row by row (imported_by): nothing begun, nothing opened
    by_rows = ["--imported-by", imported, "--wait", "--output", str(tmp_path / "r.csv")]
    assert main([*data, "export", "orders", *by_rows]) == 0
    assert opened == []


def test_labels_in_the_rows_sql_match_byte_for_byte(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    """On PostgreSQL a CSV's labels are applied in the rows' SQL: a stored text that only looks like a
    labelled one (another case, a trailing space) keeps its text, as on the row path (and on every
    database); a batch that needs nothing more is written as it came, one that does cell by cell, one
    holding the row separator row by row."""
    import sqlalchemy as sa

    from desktop_app.exports.row_texts import ROW_END, RowTexts

    monkeypatch.setattr(sqlite_pages, "PAGE_ROWS", 3)
    monkeypatch.setattr(fast_csv, "STREAM_ROWS", 3)
    monkeypatch.setattr(fast_csv, "BATCH_BYTES", 1)  # PostgreSQL's driver: a row or so a batch
    written_as_they_came: list[bool] = []
    clean_csv = RowTexts.clean_csv

    def counted(self: RowTexts, *args: Any) -> Any:
        lines = clean_csv(self, *args)
        written_as_they_came.append(lines is not None)
        return lines

    monkeypatch.setattr(RowTexts, "clean_csv", counted)
    rows = [row(n, 备注="plain") for n in range(1, 10)]
    rows[7] = row(8, 备注="a, b")  # the third batch needs quotes
    task = run_import(core, write_csv(tmp_path / "c.csv", rows))
    assert task.success_count == 9, task.error_msg
    with core.store.engine.begin() as conn:  # an import stores the canonical texts: these by hand
        conn.execute(sa.text("UPDATE customers SET level = 'GOLD' WHERE code = 'C000002'"))
        conn.execute(sa.text("UPDATE customers SET level = 'gold ' WHERE code = 'C000005'"))

    def both() -> tuple[bytes, bytes]:
        fast = run_export(core, "customers")
        slow = run_export(core, "customers", filters={"imported_by": task.task_no})  # row by row
        assert fast.status is TaskStatus.SUCCEEDED and fast.total_count == 9
        return Path(fast.result_path or "").read_bytes(), Path(slow.result_path or "").read_bytes()

    fast, slow = both()
    assert fast == slow
    text = fast.decode("utf-8-sig")
    assert "金卡" in text and ",GOLD," in text and ",gold ," in text and '"a, b"' in text
    if core.store.engine.dialect.name == "postgresql":  # the others' batches go cell by cell
        assert True in written_as_they_came and False in written_as_they_came
    with core.store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE customers SET note = :v WHERE code = 'C000004'"), {"v": f"x{ROW_END}y"})
    fast, slow = both()
    assert fast == slow and f"x{ROW_END}y".encode() in fast


def test_negative_numbers_stay_numbers_on_both_paths(core: Core, tmp_path: Path) -> None:
    # a quantity returned and a price refunded: "-3" and "-12.50" are numbers a clerk's sum adds, not
    # formulas (an apostrophe before them made them text); a "-" formula in a text is still neutralised
    signed = ORDERS.replace("integer_min = 0", "integer_min = -1000")
    signed = signed.replace("decimal_min = 0", "decimal_min = -100000")
    assert signed != ORDERS
    write_type(core, signed)
    rows = [order_row(1, 1, 数量="-3", 单价="-12.50", 品名="-2+3"), order_row(2, 1), order_row(3, 1, 数量="-0")]
    task = run_type_import(core, write_rows(tmp_path / "o.csv", ORDER_HEADER, rows), "orders")
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 3, task.error_msg
    fast = run_export(core, "orders")
    slow = run_export(core, "orders", filters={"imported_by": task.task_no})  # row by row
    fast_bytes = Path(fast.result_path or "").read_bytes()
    assert fast_bytes == Path(slow.result_path or "").read_bytes()
    first = next(line for line in fast_bytes.decode("utf-8-sig").splitlines() if line.startswith("SO0001"))
    assert first.split(",")[2:5] == ["'-2+3", "-3", "-12.50"], first
