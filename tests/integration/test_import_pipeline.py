"""The customers import end to end on every back-end: rules, row numbers, file-level codes, error CSV."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from tests.support.customers import (
    HEADER,
    codes_by_row,
    csv_text,
    customer_codes,
    error_rows,
    row,
    run_import,
    write_csv,
)


def test_clean_file_succeeds(core: Core, tmp_path: Path) -> None:
    task = run_import(core, write_csv(tmp_path / "ok.csv", [row(i) for i in range(1, 51)]))
    assert task.status is TaskStatus.SUCCEEDED
    assert (task.total_count, task.success_count, task.fail_count) == (50, 50, 0)
    assert task.error_csv is None and task.error_code is None and task.progress == 100
    assert customer_codes(core.store) == [f"C{i:06d}" for i in range(1, 51)]
    with core.store.reading() as conn:
        stored = conn.exec_driver_sql(
            "SELECT level, opened_on, credit_limit, department_id, task_no FROM customers WHERE code = 'C000005'"
        ).one()
    assert stored[0] == "gold" and str(stored[1]) == "2024-06-06" and float(stored[2]) == 5.5
    assert stored[3] is not None and stored[4] == task.task_no
    summary = json.loads(Path(task.result_path or "").read_text(encoding="utf-8"))
    assert summary["success_count"] == 50 and summary["encoding"] in ("utf-8-sig", "utf-8")


ROW_CASES = [
    # (changes to a valid row, expected codes)
    ({"客户编号": ""}, ["required_missing"]),
    ({"客户编号": "X123"}, ["pattern_mismatch"]),
    ({"姓名": ""}, ["required_missing"]),
    ({"姓名": "名" * 51}, ["too_long"]),
    ({"手机号": ""}, ["required_missing"]),
    ({"手机号": "23800138000"}, ["pattern_mismatch"]),
    ({"手机号": "1380013800"}, ["pattern_mismatch"]),
    ({"邮箱": "not-an-email"}, ["pattern_mismatch"]),
    ({"等级": "钻石"}, ["not_in_enum"]),
    ({"开户日期": "2023-02-29"}, ["invalid_date"]),
    ({"开户日期": "2024.02.30"}, ["invalid_date"]),
    ({"信用额度": "12.345"}, ["invalid_number"]),
    ({"信用额度": "abc"}, ["invalid_number"]),
    ({"信用额度": "1000000.01"}, ["out_of_range"]),
    ({"信用额度": "-1"}, ["out_of_range"]),
    ({"备注": "注" * 201}, ["too_long"]),
    ({"手机号": "123", "邮箱": "x", "等级": "钻石"}, ["pattern_mismatch", "pattern_mismatch", "not_in_enum"]),
]


def test_every_row_rule_with_its_row_number(core: Core, tmp_path: Path) -> None:
    rows = [row(i) for i in range(1, 101)]
    bad_at = {}
    for n, (changes, codes) in enumerate(ROW_CASES):
        index = 3 * n + 1  # spread among good rows
        rows[index] = row(index + 1, **changes)
        bad_at[index + 2] = codes  # header is row 1, rows[0] is row 2
    task = run_import(core, write_csv(tmp_path / "bad.csv", rows))
    assert task.fail_count == len(ROW_CASES) and task.success_count == 100 - len(ROW_CASES)
    assert codes_by_row(task) == bad_at
    reasons = {int(r["行号"]): r["错误原因"] for r in error_rows(task)}
    assert "手机号格式不正确，应为 11 位数字" in reasons[3 * 5 + 3]
    assert len(reasons[3 * 16 + 3].split(";")) == 3  # one reason per code


def test_already_exists_and_duplicate_in_file(core: Core, tmp_path: Path) -> None:
    run_import(core, write_csv(tmp_path / "first.csv", [row(1), row(2)]))
    rows = [row(2), row(3), row(4), row(3), row(5)]  # C000002 was imported before; C000003 repeats
    task = run_import(core, write_csv(tmp_path / "second.csv", rows))
    assert codes_by_row(task) == {2: ["already_exists"], 5: ["duplicate_in_file"]}
    assert customer_codes(core.store) == ["C000001", "C000002", "C000003", "C000004", "C000005"]


def test_duplicate_in_file_across_batches(core: Core, tmp_path: Path) -> None:
    rows = [row(i) for i in range(1, 26)] + [row(3)]
    task = run_import(core, write_csv(tmp_path / "dup.csv", rows), batch_size=10)
    assert codes_by_row(task) == {27: ["duplicate_in_file"]}
    assert task.success_count == 25


def test_row_numbers_follow_excel_with_multiline_and_blank_lines(core: Core, tmp_path: Path) -> None:
    text = csv_text([row(1, 备注="第一行\n第二行\n第三行"), row(2)])  # rows 2 (3 physical lines) and 3
    text += "\r\n"  # a blank line: row 4, skipped, not counted
    text += ",,,,,,,,\r\n"  # all cells empty: row 5, skipped
    text += csv_text([row(6, 手机号="bad")]).split("\r\n", 1)[1]  # row 6, fails
    text += csv_text([row(7)]).split("\r\n", 1)[1]
    path = tmp_path / "multi.csv"
    path.write_text(text, encoding="utf-8")
    task = run_import(core, path)
    assert task.total_count == 4 and task.fail_count == 1
    assert codes_by_row(task) == {6: ["pattern_mismatch"]}


def test_column_count_mismatch(core: Core, tmp_path: Path) -> None:
    path = tmp_path / "cols.csv"
    good = ",".join(row(1))
    path.write_text(",".join(HEADER) + "\n" + good + "\n" + "C000002,张三,13800000002\n", encoding="utf-8")
    task = run_import(core, path)
    assert codes_by_row(task) == {3: ["column_count_mismatch"]}
    assert error_rows(task)[0]["客户编号"] == "C000002"


def test_a_long_rows_extra_cells_have_a_named_column_a_repair_ignores(core: Core, tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text(csv_text([row(1), [*row(2), "=1+1", "", "多出来"], row(3)]), encoding="utf-8")
    first = run_import(core, path)
    assert (first.success_count, first.fail_count) == (2, 1)
    with open(first.error_csv or "", encoding="utf-8-sig", newline="") as handle:
        lines = list(csv.reader(handle))
    assert lines == [
        ["行号", *HEADER, "错误代码", "错误原因", "多余单元格"],
        ["3", *row(2), "column_count_mismatch", "这一行有 12 列，表头有 9 列（可能多了或少了逗号）",
         "'=1+1 |  | 多出来"],
    ]  # fmt: skip
    # the clerk sees the cells were stray and imports the error CSV back as it is: the extra cells'
    # column is ignored like the other columns of the error CSV, so the row now fits its header
    fixed = tmp_path / f"{first.task_no}-errors-fixed.csv"
    with open(fixed, "w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle).writerows(lines)
    second = run_import(core, fixed)
    assert second.status is TaskStatus.SUCCEEDED and (second.success_count, second.fail_count) == (1, 0)
    assert second.summary["repairs"] == first.task_no
    assert second.summary["warnings"] == []  # "多余单元格" is not an unknown column
    assert customer_codes(core.store) == ["C000001", "C000002", "C000003"]
    with core.store.reading() as conn:
        assert conn.exec_driver_sql("SELECT note FROM customers WHERE code = 'C000002'").scalar() in (None, "")


def test_header_aliases_order_case_and_unknown_columns(core: Core, tmp_path: Path) -> None:
    header = ["\ufeffPhone", " CUSTOMER_CODE ", "Name", "favourite colour"]
    path = tmp_path / "aliases.csv"
    path.write_text(csv_text([["13800000001", "C000001", "Ann", "blue"]], header), encoding="utf-8")
    task = run_import(core, path)
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 1
    assert len(task.summary["warnings"]) == 1 and "favourite colour" in task.summary["warnings"][0]


def test_full_width_input_is_normalised(core: Core, tmp_path: Path) -> None:
    task = run_import(
        core,
        write_csv(tmp_path / "fw.csv", [row(1, 客户编号="Ｃ０００００１", 手机号="１３８００１３８０００")]),
    )
    assert task.status is TaskStatus.SUCCEEDED
    assert customer_codes(core.store) == ["C000001"]


def test_unknown_department_counts_for_completion(core: Core, tmp_path: Path) -> None:
    rows = [row(1, 部门="不存在的部门"), row(2, 部门=""), row(3, 部门="销售部"), row(4, 部门="火星部")]
    task = run_import(core, write_csv(tmp_path / "dept.csv", rows))
    assert task.status is TaskStatus.SUCCEEDED and task.pending_completion_count == 2


@pytest.mark.parametrize(
    ("failed", "expected"),
    [(0, TaskStatus.SUCCEEDED), (3, TaskStatus.PARTIALLY_SUCCEEDED), (4, TaskStatus.FAILED)],
)
def test_thirty_percent_boundary(core: Core, tmp_path: Path, failed: int, expected: TaskStatus) -> None:
    rows = [row(i, 手机号="x") if i <= failed else row(i) for i in range(1, 11)]
    task = run_import(core, write_csv(tmp_path / f"b{failed}.csv", rows))
    assert task.status is expected and task.fail_count == failed
    assert task.error_code is None  # failing only because of rows is not a file-level error
    if expected is TaskStatus.FAILED:
        assert task.error_msg and "6" in task.error_msg  # says the committed rows stay
        assert len(customer_codes(core.store)) == 6


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-8", "gbk", "gb18030", "utf-16"])
def test_encodings(core: Core, tmp_path: Path, encoding: str) -> None:
    name = "𠀀𠀁" if encoding == "gb18030" else "张三丰"  # beyond GBK: only GB18030 has these
    rows = [row(i, 姓名=f"{name}{i}", 备注="北京市朝阳区" * 3) for i in range(1, 40)]
    task = run_import(core, write_csv(tmp_path / f"{encoding}.csv", rows, encoding=encoding))
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    with core.store.reading() as conn:
        names = [r[0] for r in conn.exec_driver_sql("SELECT name FROM customers ORDER BY code").all()]
    assert names[0] == f"{name}1" and names[-1] == f"{name}39"


def test_explicit_encoding_overrides_detection(core: Core, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "gbk.csv", [row(1, 姓名="张三")], encoding="gbk")
    task = run_import(core, path, encoding="gb18030")
    assert task.status is TaskStatus.SUCCEEDED and task.summary["encoding"] == "gb18030"


def test_xlsx_numbers_and_dates(core: Core, tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    sheet.append(["C000001", "张三", 13800138000, "a@b.cn", "金卡", dt.date(2024, 3, 5), 1500.5, "销售部", None])
    sheet.append(["C000002", "李四", 13800138001.0, None, None, dt.datetime(2024, 1, 2), 20, None, None])
    sheet.append(["C000003", "王五", 1.38e9, None, None, "2024/2/30", None, None, None])
    path = tmp_path / "book.xlsx"
    book.save(path)
    task = run_import(core, path)
    assert codes_by_row(task) == {4: ["pattern_mismatch", "invalid_date"]}
    with core.store.reading() as conn:
        got = conn.exec_driver_sql("SELECT phone, opened_on FROM customers ORDER BY code").all()
    assert [r[0] for r in got] == ["13800138000", "13800138001"]
    assert str(got[0][1]) == "2024-03-05" and str(got[1][1]) == "2024-01-02"
    assert error_rows(task)[0]["手机号"] == "1380000000"  # shown as digits, never 1.38E+9


def test_xls_numbers_and_dates(core: Core, tmp_path: Path) -> None:
    import xlwt

    book = xlwt.Workbook()
    sheet = book.add_sheet("客户")
    date_style = xlwt.easyxf(num_format_str="YYYY-MM-DD")
    for col, title in enumerate(HEADER):
        sheet.write(0, col, title)
    sheet.write(1, 0, "C000001")
    sheet.write(1, 1, "张三")
    sheet.write(1, 2, 13800138000)
    sheet.write(1, 5, dt.date(2024, 3, 5), date_style)
    sheet.write(1, 6, 88.5)
    path = tmp_path / "old.xls"
    book.save(str(path))
    task = run_import(core, path)
    assert task.status is TaskStatus.SUCCEEDED, task.error_msg
    with core.store.reading() as conn:
        phone, opened = conn.exec_driver_sql("SELECT phone, opened_on FROM customers").one()
    assert phone == "13800138000" and str(opened) == "2024-03-05"


# --- file-level failures -----------------------------------------------------------------------


def _file_failure(core: Core, path: Path, code: str, **params: object) -> None:
    task = run_import(core, path, **params)
    assert task.status is TaskStatus.FAILED and task.error_code == code, (task.error_code, task.error_msg)
    assert task.success_count == 0 and customer_codes(core.store) == []
    assert task.error_msg


def test_empty_file(core: Core, tmp_path: Path) -> None:
    (tmp_path / "zero.csv").write_bytes(b"")
    _file_failure(core, tmp_path / "zero.csv", "empty_file")


def test_header_only_and_blank_rows_is_empty(core: Core, tmp_path: Path) -> None:
    (tmp_path / "h.csv").write_text(",".join(HEADER) + "\n\n,,,,,,,,\n", encoding="utf-8")
    _file_failure(core, tmp_path / "h.csv", "empty_file")


def test_missing_required_column_names_it(core: Core, tmp_path: Path) -> None:
    path = tmp_path / "nophone.csv"
    path.write_text("客户编号,姓名\nC000001,张三\n", encoding="utf-8")
    task = run_import(core, path)
    assert task.error_code == "missing_required_column" and "手机号" in (task.error_msg or "")


def test_unsupported_format(core: Core, tmp_path: Path) -> None:
    (tmp_path / "x.pdf").write_bytes(b"%PDF-1.4")
    _file_failure(core, tmp_path / "x.pdf", "unsupported_format")


def test_corrupt_xlsx(core: Core, tmp_path: Path) -> None:
    (tmp_path / "broken.xlsx").write_bytes(b"PK\x03\x04 this is not a workbook")
    _file_failure(core, tmp_path / "broken.xlsx", "corrupt_file")


def test_encoding_undetectable(core: Core, tmp_path: Path) -> None:
    (tmp_path / "bin.csv").write_bytes(bytes(range(256)) * 64)
    _file_failure(core, tmp_path / "bin.csv", "encoding_undetectable")


def test_file_too_large(core: Core, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "big.csv", [row(i) for i in range(1, 20000)])
    assert path.stat().st_size > 1024 * 1024
    _file_failure(core, path, "file_too_large", max_file_mb=1)


def test_too_many_rows_counted_before_importing(core: Core, tmp_path: Path) -> None:
    _file_failure(core, write_csv(tmp_path / "rows.csv", [row(i) for i in range(1, 7)]), "too_many_rows", max_rows=5)
    ok = run_import(core, write_csv(tmp_path / "rows5.csv", [row(i) for i in range(1, 6)]), max_rows=5)
    assert ok.status is TaskStatus.SUCCEEDED


# --- dry run and the error CSV round trip -----------------------------------------------------------


def test_dry_run_equals_real_run(core: Core, tmp_path: Path) -> None:
    run_import(core, write_csv(tmp_path / "seed.csv", [row(7)]))
    rows = [row(i) for i in range(1, 40)] + [row(5), row(9, 手机号="0"), row(50, 部门="火星部")]
    path = write_csv(tmp_path / "mixed.csv", rows)
    dry = run_import(core, path, dry_run=True, batch_size=10)
    assert customer_codes(core.store) == ["C000007"]  # nothing committed
    real = run_import(core, path, batch_size=10)
    for field in ("status", "total_count", "success_count", "fail_count", "pending_completion_count"):
        assert getattr(dry, field) == getattr(real, field), field
    assert [r for r in error_rows(dry)] == [r for r in error_rows(real)]
    assert codes_by_row(real) == {8: ["already_exists"], 41: ["duplicate_in_file"], 42: ["pattern_mismatch"]}


def test_error_csv_neutralises_formulas_and_reimports(core: Core, tmp_path: Path) -> None:
    rows = [
        row(1),
        row(2, 姓名='=HYPERLINK("x")', 手机号="bad"),
        row(3, 信用额度="-5"),  # a plain negative number: no formula, left as it is (its sum still adds it)
        row(4, 备注="@note", 邮箱="x"),
    ]
    first = run_import(core, write_csv(tmp_path / "orig.csv", rows))
    assert first.fail_count == 3
    with open(first.error_csv or "", encoding="utf-8-sig", newline="") as handle:
        lines = list(csv.reader(handle))
    # no row longer than its header: the columns it always had, no extra-cells column
    assert lines[0] == ["行号", *HEADER, "错误代码", "错误原因"]
    cells = {int(line[0]): line for line in lines[1:]}
    assert cells[3][2] == '\'=HYPERLINK("x")' and cells[4][7] == "-5" and cells[5][9] == "'@note"
    # the clerk fixes the cells in Excel and imports the error CSV back
    fixed_path = tmp_path / f"{first.task_no}-errors-fixed.csv"
    for number, line in cells.items():
        if number == 3:
            line[3] = "13800000002"
        if number == 4:
            line[7] = "5"
        if number == 5:
            line[4] = "ok@example.com"
    with open(fixed_path, "w", encoding="utf-8-sig", newline="") as handle:
        csv.writer(handle).writerows([lines[0], *cells.values()])
    second = run_import(core, fixed_path)
    assert second.status is TaskStatus.SUCCEEDED and second.success_count == 3
    assert second.summary["warnings"] == []  # its own row-number and reason columns are not "unknown"
    assert second.summary["repairs"] == first.task_no
    with core.store.reading() as conn:
        name, note = conn.exec_driver_sql("SELECT name, note FROM customers WHERE code = 'C000002'").one()
        note4 = conn.exec_driver_sql("SELECT note FROM customers WHERE code = 'C000004'").scalar()
    assert name == '=HYPERLINK("x")' and note4 == "@note"  # neutralised cells were restored
    assert note in (None, "")


def test_long_email_and_department_are_stored(core: Core, tmp_path: Path) -> None:
    email = "a" * 290 + "@example.com"
    task = run_import(core, write_csv(tmp_path / "long.csv", [row(1, 邮箱=email, 部门="部" * 150)]))
    assert task.status is TaskStatus.SUCCEEDED and task.pending_completion_count == 1


def test_a_named_sheet(core: Core, tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["说明"])  # the first sheet is a cover page
    data = book.create_sheet("客户")
    data.append(HEADER)
    data.append(row(1))
    path = tmp_path / "two-sheets.xlsx"
    book.save(path)
    assert run_import(core, path).error_code == "missing_required_column"
    task = run_import(core, path, sheet="客户", force=True)
    assert task.status is TaskStatus.SUCCEEDED and task.success_count == 1


def test_a_file_changed_after_queueing_is_not_imported(core: Core, tmp_path: Path) -> None:
    from desktop_app.tasks.submit import submit_file
    from tests.support.running import run_now

    path = write_csv(tmp_path / "c.csv", [row(1)])
    result = submit_file(core.store, core.registry, task_type="import", path=path, user="t",
                         params={"import_type": "customers"})  # fmt: skip
    write_csv(path, [row(1), row(2)])  # the clerk saves it again in Excel while it waits
    task = run_now(core, result.task.id)
    assert task.status is TaskStatus.FAILED and task.error_code == "file_changed"
    assert customer_codes(core.store) == []


def test_a_bad_byte_deep_in_the_file_fails_it_before_any_row(core: Core, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "late.csv", [row(i) for i in range(1, 30001)], encoding="utf-8")
    path.write_bytes(path.read_bytes() + b"C099999,\xff\xfe,13800000000\n")
    task = run_import(core, path)
    assert task.status is TaskStatus.FAILED and task.error_code == "encoding_undetectable"
    assert customer_codes(core.store) == []


def test_a_cancelled_import_keeps_the_error_rows_it_committed(core: Core, tmp_path: Path) -> None:
    import threading

    from desktop_app.tasks.runner import run_task
    from desktop_app.tasks.submit import submit_file

    rows = [row(i, 手机号="x") if i % 10 == 0 else row(i) for i in range(1, 5001)]
    path = write_csv(tmp_path / "c.csv", rows)
    result = submit_file(core.store, core.registry, task_type="import", path=path, user="t",
                         params={"import_type": "customers", "batch_size": 100})  # fmt: skip
    (task,) = core.store.claim("t:1:1:aa", 1)

    def cancel_midway(progress: object) -> None:
        if getattr(progress, "success_count", 0) >= 900:
            core.store.cancel(task.task_no)

    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), listener=cancel_midway)  # fmt: skip
    ended = core.store.get(result.task.task_no)
    assert ended is not None and ended.status is TaskStatus.CANCELLED
    assert 0 < ended.fail_count < 500 and ended.error_csv
    assert len(codes_by_row(ended)) == ended.fail_count  # every failed row named, none twice
    assert list(core.paths.work_dir.glob("*.part")) == []


def test_a_file_changed_between_a_stop_and_the_resume_is_caught(core: Core, tmp_path: Path) -> None:
    import os

    from desktop_app.store.tasks import Fence
    from desktop_app.tasks.submit import submit_file
    from tests.support.running import run_now

    path = write_csv(tmp_path / "c.csv", [row(1), row(2)])
    result = submit_file(core.store, core.registry, task_type="import", path=path, user="t",
                         params={"import_type": "customers"})  # fmt: skip
    (task,) = core.store.claim("a:1:1:aa", 1)  # as if a first run committed a batch, then stopped
    core.store.report_progress(Fence(task.id, "a:1:1:aa", task.attempt), checkpoint={"row": 2})
    core.store.release(Fence(task.id, "a:1:1:aa", task.attempt))
    stat = path.stat()
    path.write_bytes(path.read_bytes().replace(b"C000002", b"C000009"))  # same size, same time
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    ended = run_now(core, result.task.id)
    assert ended.status is TaskStatus.FAILED and ended.error_code == "file_changed"


def _cut_short(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2].rsplit(b"\n", 1)[0] + b"\n")  # whole rows: no bad last row


def _edited_in_place(path: Path) -> None:
    """Other bytes, the same size and modification time: only the bytes tell."""
    import os

    stat = path.stat()
    path.write_bytes(path.read_bytes().replace(b"C001500", b"C001501", 1))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.parametrize("change", [_cut_short, _edited_in_place], ids=["cut_short", "edited_in_place"])
@pytest.mark.parametrize("bulk", [True, False], ids=["bulk_path", "row_path"])
def test_a_file_changed_while_it_is_read_fails_with_file_changed(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bulk: bool, change: Callable[[Path], None]
) -> None:  # fmt: skip
    # Issue 12: a CSV truncated to half during its import ended partially_succeeded with half the rows
    # and nothing said; the file is checked at the end as at the start. The bulk reader hashes what it
    # reads (those are the rows imported), so its end needs no second pass over the file; the row
    # path's end reads the file again where size and time did not tell.
    from desktop_app.imports import precheck
    from desktop_app.imports.pipeline import ImportRun

    core = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"bulk_loads": bulk})
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 2001)])
    original, hash_file = ImportRun._import_rows, precheck.file_sha256
    passes: list[Path] = []

    def change_then_read(self: ImportRun, *args: object, **kwargs: object) -> None:
        change(path)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    def counted(file: Path) -> str:
        passes.append(file)
        return hash_file(file)

    monkeypatch.setattr(ImportRun, "_import_rows", change_then_read)
    monkeypatch.setattr(precheck, "file_sha256", counted)
    try:
        task = run_import(core, path)
        assert task.status is TaskStatus.FAILED and task.error_code == "file_changed", (task.status, task.error_msg)
        assert 0 < task.success_count < 2000 or change is _edited_in_place  # what went in stays, counted
        assert passes == ([path] if not bulk and change is _edited_in_place else [])
    finally:
        core.store.engine.dispose()


class _Killed(BaseException):
    """kill -9 as a run sees it: nothing after this point of the run happens."""


@pytest.mark.parametrize("bulk", [True, False], ids=["bulk_path", "row_path"])
def test_a_crash_after_the_error_csv_was_handed_over_keeps_its_rows(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bulk: bool
) -> None:  # fmt: skip
    # CI's kill -9 campaign (MariaDB) caught it: a kill between the move of the error CSV into the results
    # folder and the task's end being recorded; the resumed run found no work file, started a fresh one
    # (header only) and handed that over: the counts said 10 failed rows, the error CSV named none.
    import threading

    from desktop_app.imports import pipeline
    from desktop_app.store.tasks import Fence
    from desktop_app.tasks.runner import run_task
    from desktop_app.tasks.submit import submit_file
    from tests.support.running import run_now

    core = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"bulk_loads": bulk})
    try:
        path = write_csv(tmp_path / "c.csv", [row(i, 手机号="x") if i % 100 == 0 else row(i) for i in range(1, 1001)])
        result = submit_file(core.store, core.registry, task_type="import", path=path, user="t",
                             params={"import_type": "customers", "batch_size": 200})  # fmt: skip
        original = pipeline.summarise

        def hand_over_then_die(**kwargs: object) -> object:
            original(**kwargs)  # type: ignore[arg-type]
            raise _Killed

        monkeypatch.setattr(pipeline, "summarise", hand_over_then_die)
        (task,) = core.store.claim("a:1:1:aa", 1)
        with pytest.raises(_Killed):
            run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
                     stop_event=threading.Event())  # fmt: skip
        assert list(core.paths.results_dir.glob("*/*-errors.csv"))  # it got as far as handing it over
        core.store.release(Fence(task.id, "a:1:1:aa", task.attempt))  # as a rescue of the dead worker would
        monkeypatch.setattr(pipeline, "summarise", original)
        ended = run_now(core, result.task.id)
        assert ended.status is TaskStatus.PARTIALLY_SUCCEEDED, (ended.error_code, ended.error_msg)
        assert (ended.total_count, ended.success_count, ended.fail_count) == (1000, 990, 10)
        assert sorted(codes_by_row(ended)) == [i + 1 for i in range(100, 1001, 100)]  # each bad row once
        assert "error_rows_lost" not in json.dumps(ended.summary)
        assert customer_codes(core.store) == sorted(f"C{i:06d}" for i in range(1, 1001) if i % 100)
    finally:
        core.store.engine.dispose()


def test_an_import_builds_its_table_spec_and_reflects_its_table_once(
    core: Core, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.imports import table_spec as spec_module
    from desktop_app.imports import type_schema
    from desktop_app.store import business_schema

    run_import(core, write_csv(tmp_path / "first.csv", [row(1)]))  # the table made: the next task only reads it
    counts = {"spec": 0, "plan": 0}

    def counted(name: str, real: Callable[..., object]) -> Callable[..., object]:
        def call(*args: object, **kwargs: object) -> object:
            counts[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(type_schema, "table_spec", counted("spec", spec_module.table_spec))
    plan = counted("plan", business_schema.plan_table)
    monkeypatch.setattr(business_schema, "plan_table", plan)
    monkeypatch.setattr(type_schema, "plan_table", plan)
    task = run_import(core, write_csv(tmp_path / "second.csv", [row(2)]))
    assert task.status is TaskStatus.SUCCEEDED
    # one spec for the task (the plan and the table share it), one look at the table (plan_table reflects)
    assert counts == {"spec": 1, "plan": 1}


def test_every_tick_of_an_importing_batch_carries_the_files_row_count(core: Core, tmp_path: Path) -> None:
    """The list's Processed cell reads "of N" from the first tick, as the stage's "row … of N" does (seen:
    "Importing row 20,001 of 300,000" beside a bare "20,000" until the checkpoint was read again)."""
    import threading

    from desktop_app.domain.task import Progress
    from desktop_app.tasks.runner import run_task
    from desktop_app.tasks.submit import submit_file

    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 1201)])
    submit_file(core.store, core.registry, task_type="import", path=path, user="t",
                params={"import_type": "customers", "batch_size": 500})  # fmt: skip
    (task,) = core.store.claim("t:1:1:aa", 1)
    ticks: list[Progress] = []
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), listener=ticks.append)  # fmt: skip
    counted = [t for t in ticks if t.success_count + t.fail_count > 0]
    assert counted and all(t.rows_in_file == 1200 for t in counted)
