"""What clerks' files really hold, imported end to end on every back-end: regional dates, amounts and
phones (customers turns them on), delimiters and Excel's "Unicode text", the file's declared day/month
order and decimal comma; the row numbers and codes of the rows that still fail; the error CSV of a repair
and the desk's language in it."""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import threading
from decimal import Decimal
from pathlib import Path

import pytest

from desktop_app.app import Core
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.runner import run_task
from desktop_app.tasks.submit import submit_file
from tests.support.customers import HEADER, codes_by_row, csv_text, error_rows, row, run_import, write_csv


def delimited(rows: list[list[str]], delimiter: str) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows([HEADER, *rows])
    return out.getvalue()


def stored(core: Core, code: str) -> tuple[str, dt.date | None, Decimal]:
    with core.store.reading() as conn:
        phone, opened, limit = conn.exec_driver_sql(
            f"SELECT phone, opened_on, credit_limit FROM customers WHERE code = '{code}'"
        ).one()
    if isinstance(opened, str):  # SQLite hands DATE back as text
        opened = dt.date.fromisoformat(opened)
    return phone, opened, Decimal(str(limit)).normalize()


def test_regional_spellings_import(core: Core, tmp_path: Path) -> None:
    rows = [
        row(1, 手机号="139 1234 5678", 开户日期="2024年3月5日", 信用额度="1,000"),
        row(2, 手机号="139-1234-5678", 开户日期="2024.3.5", 信用额度="¥1,234.50"),
        row(3, 手机号="+86 139 1234 5678", 开户日期="20240305", 信用额度="￥1,234.50"),
        row(4, 开户日期="2024-3-5 0:00:00", 信用额度="1,234.50元"),
        row(5, 开户日期="45356"),
        row(6, 开户日期="25/05/2024"),
        # rows that still fail, and why
        row(7, 手机号="139 1234 567"),  # ten digits
        row(8, 开户日期="2024.2.30"),
        row(9, 开户日期="03/05/2024"),  # day or month first? not declared: never guessed
        row(10, 信用额度="1,00"),  # groups are of three digits
        row(11, 信用额度="1 234,50"),  # a comma decimal the file did not declare
        row(12, 开户日期="2024-3-5 10:00"),  # a real time in a date column
        *(row(i) for i in range(13, 31)),
    ]
    task = run_import(core, write_csv(tmp_path / "regional.csv", rows))
    assert task.status is TaskStatus.PARTIALLY_SUCCEEDED and task.success_count == 24
    assert codes_by_row(task) == {8: ["pattern_mismatch"], 9: ["invalid_date"], 10: ["ambiguous_date"],
                                  11: ["invalid_number"], 12: ["invalid_number"], 13: ["invalid_date"]}  # fmt: skip
    march5 = dt.date(2024, 3, 5)
    assert stored(core, "C000001") == ("13912345678", march5, Decimal("1000"))
    assert stored(core, "C000002") == ("13912345678", march5, Decimal("1234.5"))
    assert stored(core, "C000003") == ("13912345678", march5, Decimal("1234.5"))
    assert stored(core, "C000004")[1:] == (march5, Decimal("1234.5"))
    assert stored(core, "C000005")[1] == march5
    assert stored(core, "C000006")[1] == dt.date(2024, 5, 25)
    reasons = {int(r["行号"]): r["错误原因"] for r in error_rows(task)}
    assert "可能是 2024-05-03，也可能是 2024-03-05" in reasons[10]


def test_a_semicolon_file_with_sep_line_decimal_comma_and_day_first_dates(core: Core, tmp_path: Path) -> None:
    """Excel where the decimal mark is a comma: semicolons, a sep=; line, 1 234,50 and 03.05.2024."""
    rows = [
        row(1, 开户日期="03.05.2024", 信用额度="1 234,50"),
        row(2, 开户日期="3/5/2024", 信用额度="1.234,50"),
        row(3, 开户日期="13/05/2024", 信用额度="7"),
        row(4, 开户日期="05/13/2024", 信用额度="0,5"),  # no 13th month, day first as declared
        row(5, 信用额度="1234.50"),  # a point in a comma file
        *(row(i, 信用额度="1,5") for i in range(6, 12)),
    ]
    path = tmp_path / "excel-de.csv"
    path.write_text("sep=;\r\n" + delimited(rows, ";"), encoding="utf-8")
    task = run_import(core, path, date_order="dmy", decimal_comma=True)
    assert codes_by_row(task) == {5: ["invalid_date"], 6: ["invalid_number"]}  # the sep= line is no row
    assert stored(core, "C000001")[1:] == (dt.date(2024, 5, 3), Decimal("1234.5"))
    assert stored(core, "C000002")[1:] == (dt.date(2024, 5, 3), Decimal("1234.5"))
    assert stored(core, "C000003")[1:] == (dt.date(2024, 5, 13), Decimal("7"))
    assert task.params["date_order"] == "dmy" and task.params["decimal_comma"] is True


@pytest.mark.parametrize("delimiter", ["\t", "|", ";"])
def test_sniffed_delimiters(core: Core, tmp_path: Path, delimiter: str) -> None:
    text = csv_text([row(1), row(2, 手机号="bad"), row(3)]).replace(",", delimiter)
    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    task = run_import(core, path)
    assert (task.success_count, codes_by_row(task)) == (2, {3: ["pattern_mismatch"]})


def test_the_delimiter_parameter_overrides_the_sniffing(core: Core, tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text(csv_text([row(1), row(2)]).replace(",", ";"), encoding="utf-8")
    task = run_import(core, path, delimiter=",")  # wrong on purpose: one header cell, no column found
    assert task.status is TaskStatus.FAILED and task.error_code == "missing_required_column"


def test_excel_unicode_text_imports_as_is(core: Core, tmp_path: Path) -> None:
    rows = [row(1, 信用额度="¥1,234.50", 开户日期="2024年3月5日"), row(2, 手机号="x"), row(3)]
    path = tmp_path / "客户.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + delimited(rows, "\t").encode("utf-16-le"))
    task = run_import(core, path)
    assert (task.success_count, codes_by_row(task)) == (2, {3: ["pattern_mismatch"]})
    assert task.summary["encoding"] == "utf-16"
    assert stored(core, "C000001")[1:] == (dt.date(2024, 3, 5), Decimal("1234.5"))


# --- the error CSV of a repair, and the desk's language ----------------------------------------------


def run_in(core: Core, path: Path, lang: str) -> TaskRecord:
    result = submit_file(core.store, core.registry, task_type="import", path=path, user="tester",
                         params={"import_type": "customers", "dry_run": False})  # fmt: skip
    (task,) = core.store.claim("test:1:1:aa", 1, only_ids=[result.task.id])
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), lang=lang)  # fmt: skip
    ended = core.store.get_by_id(result.task.id)
    assert ended is not None
    return ended


def read(path: str | None) -> list[list[str]]:
    with open(path or "", encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_a_second_round_error_csv_has_its_columns_once(core: Core, tmp_path: Path) -> None:
    rows = [row(1), row(2, 手机号="bad", 邮箱="x"), row(3), row(4, 信用额度="abc"), row(5, 姓名=""),
            *(row(i) for i in range(6, 12))]  # fmt: skip
    first = run_import(core, write_csv(tmp_path / "orig.csv", rows))
    lines = read(first.error_csv)
    assert lines[0] == ["行号", *HEADER, "错误代码", "错误原因"]
    assert [line[0] for line in lines[1:]] == ["3", "5", "6"]
    # the clerk fixes one row of three; the other two still fail, one of them for a new reason
    fixed = [lines[0]]
    for line in lines[1:]:
        line = list(line)
        if line[0] == "3":
            line[3], line[4] = "13800000002", "ok@example.com"
        if line[0] == "5":
            line[7] = "12.345"
        fixed.append(line)
    path = tmp_path / f"{first.task_no}-errors-fixed.csv"
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle).writerows(fixed)
    second = run_in(core, path, "en")
    assert (second.success_count, second.fail_count) == (1, 2)
    assert second.summary["repairs"] == first.task_no and second.summary["warnings"] == []
    again = read(second.error_csv)
    assert again[0] == ["Row number", *HEADER, "Error codes", "Error reasons"]
    assert [(line[0], line[-2]) for line in again[1:]] == [("5", "invalid_number"), ("6", "required_missing")]
    assert all(len(line) == len(again[0]) for line in again)
    # a third round reads the English file back: its own columns are known in either language
    third = run_in(core, Path(second.error_csv or ""), "zh")
    assert third.summary["warnings"] == [] and third.summary["repairs"] == second.task_no
    assert read(third.error_csv)[0] == ["行号", *HEADER, "错误代码", "错误原因"]
    assert [line[0] for line in read(third.error_csv)[1:]] == ["5", "6"]


def test_a_formula_in_a_header_is_neutralised(core: Core, tmp_path: Path) -> None:
    header = [*HEADER, '=HYPERLINK("http://evil","x")']
    path = write_csv(tmp_path / "h.csv", [[*row(1, 手机号="bad"), "v"]], header=header)
    task = run_import(core, path)
    assert read(task.error_csv)[0][-3] == '\'=HYPERLINK("http://evil","x")'
