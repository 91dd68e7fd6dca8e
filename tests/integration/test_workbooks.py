"""A workbook of several tables (issue 26) on every back-end: `import BOOK.xlsx --all-sheets` queues one
workbook task with an import of each matched sheet under it, run in the order the types' references need
(the book has them the wrong way round), each with its own counts and error file; a skipped sheet is
listed with its reason; --sheet-type names a sheet's type; the workbook's undo restores both tables."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.cli.main import main
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.status import TaskStatus
from desktop_app.tasks.builtin_kinds import WORKBOOK
from tests.support.imports import write_type
from tests.support.running import run_now
from tests.support.workbooks import (
    GOODS,
    GOODS_HEADER,
    NOTES_HEADER,
    PRICES_HEADER,
    set_up_goods_and_prices,
    write_book,
)


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    set_up_goods_and_prices(core)
    yield core
    core.store.engine.dispose()


def prices_first(path: Path, *, bad_price: bool = False) -> Path:
    """The book with its sheets the wrong way round: the prices (which name the goods) before the goods,
    and a sheet of notes that is no type's. The sheets are named after the types' titles (any case)."""
    prices = [["P1", "G1", "12.50"], ["P2", "G2", "-3" if bad_price else "7"], ["P3", "G0", "99"], ["P4", "G1", "1"],
              ["P5", "G2", "2"]]  # fmt: skip
    return write_book(path, [
        ("PRICE SHEET", PRICES_HEADER, prices),
        ("notes", NOTES_HEADER, [["hello", "me"]]),
        ("商品清单", GOODS_HEADER, [["G1", "茶叶"], ["G2", "咖啡"]]),
    ])  # fmt: skip


def cli(core: Core, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *args: str) -> tuple[int, str, str]:  # fmt: skip
    monkeypatch.setenv("BATCHDESK_HOME", str(core.paths.data_dir))  # the data folder with the user's types
    capsys.readouterr()
    try:
        code = main([*args, "--db", core.db_url, "--user", "tester"])
    except SystemExit as exc:  # argparse's own refusals (cli/parser.py Parser.error)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def rows(core: Core, query: str) -> list[tuple[object, ...]]:
    with core.store.reading() as conn:
        return [tuple(r) for r in conn.execute(sa.text(query)).all()]


def test_workbook_imports_each_sheet_in_reference_order_and_undoes_as_one(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = prices_first(tmp_path / "book.xlsx", bad_price=True)
    code, out, err = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--wait", "--json")
    assert code == 0, err
    parent = json.loads(out)
    assert parent["type"] == WORKBOOK.name and parent["status"] == "partially_succeeded", parent
    assert (parent["total_count"], parent["success_count"], parent["fail_count"]) == (7, 6, 1)
    sheets = parent["sheets"]
    # the goods first though the book has them last: the prices look them up
    assert [(s["sheet"], s["import_type"], s["skipped"]) for s in sheets] == [
        ("商品清单", "goods", False), ("PRICE SHEET", "prices", False), ("notes", None, True)]  # fmt: skip
    goods, prices, notes = sheets
    assert (goods["status"], goods["success_count"], goods["fail_count"], goods["inserted_count"]) == (
        "succeeded", 2, 0, 2)  # fmt: skip
    assert (prices["status"], prices["success_count"], prices["fail_count"]) == ("partially_succeeded", 4, 1)
    assert prices["pending_completion_count"] == 0  # every goods code found: its sheet ran first
    assert goods["parent"] == prices["parent"] == parent["task_no"]
    assert notes["reason"] == "no_match" and "notes" in notes["reason_text"]
    ended = core.store.get(parent["task_no"])
    assert ended is not None
    assert ended.summary["skipped"] == [{"sheet": "notes", "reason": "no_match", "candidates": []}]
    assert (goods["position"], prices["position"], notes["position"]) == (3, 1, 2)
    # the bad row is in the prices' own error file, by its row in that sheet
    error_text = Path(prices["error_csv"]).read_text(encoding="utf-8-sig")
    assert "P2" in error_text and "P1" not in error_text
    assert goods["error_csv"] is None
    assert rows(core, "SELECT goods_code FROM wb_goods ORDER BY goods_code") == [("G0",), ("G1",), ("G2",)]
    linked = rows(core, "SELECT p.price_code, g.goods_code FROM wb_prices p JOIN wb_goods g ON g.id = p.goods_id "
                        "ORDER BY p.price_code")  # fmt: skip
    assert linked == [("P1", "G1"), ("P3", "G0"), ("P4", "G1"), ("P5", "G2")]

    # the children are ordinary imports, each its own task; `tasks` shows them under the workbook
    children = core.store.children(parent["task_no"])
    assert [c.params["sheet"] for c in children] == ["商品清单", "PRICE SHEET"]
    code, out, _ = cli(core, capsys, monkeypatch, "tasks")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(parent["task_no"]))
    assert lines[at + 1].startswith("    " + children[0].task_no)
    assert lines[at + 2].startswith("    " + children[1].task_no)
    code, out, _ = cli(core, capsys, monkeypatch, "status", parent["task_no"])
    assert code == 0 and "[notes]" in out and "[PRICE SHEET] prices" in out

    # the same book again is the same workbook: refused as imported
    code, out, _ = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--json")
    assert code == 1 and json.loads(out)["duplicate_of"] == parent["task_no"]

    # the workbook's undo: the prices' rows first, then the goods'; both tables as they were
    code, out, err = cli(core, capsys, monkeypatch, "undo", parent["task_no"], "--wait", "--json")
    assert code == 0, err
    undo = json.loads(out)
    assert undo["status"] == "succeeded" and undo["undoes"] == parent["task_no"], undo
    assert undo["deleted_count"] == 6
    parts = core.store.children(undo["task_no"])
    assert [p.params["undoes"] for p in parts] == [children[1].task_no, children[0].task_no]
    assert all(p.status is TaskStatus.SUCCEEDED for p in parts)
    assert parts[0].ended_at is not None and parts[1].started_at is not None
    assert parts[0].ended_at <= parts[1].started_at
    assert rows(core, "SELECT goods_code FROM wb_goods") == [("G0",)]
    assert rows(core, "SELECT COUNT(*) FROM wb_prices") == [(0,)]
    assert core.store.get(parent["task_no"]).undone_by == undo["task_no"]  # type: ignore[union-attr]
    assert all(c.undone_by for c in core.store.children(parent["task_no"]))
    # undone: the same book may be imported again
    code, out, err = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--wait", "--json")
    assert code == 0, err
    assert json.loads(out)["success_count"] == 6


def test_an_undone_sheet_is_skipped_by_the_workbooks_undo(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = prices_first(tmp_path / "book.xlsx")
    code, out, err = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--wait", "--json")
    assert code == 0, err
    parent = json.loads(out)
    assert parent["status"] == "succeeded" and parent["success_count"] == 7
    goods, prices = core.store.children(parent["task_no"])
    first = run_now(core, core.submitter().submit_undo(prices.task_no, user="tester").task.id)
    assert first.status is TaskStatus.SUCCEEDED and first.parent is None
    undo = run_now(core, core.submitter().submit_undo(parent["task_no"], user="tester").task.id)
    assert undo.status is TaskStatus.SUCCEEDED, undo.error_msg
    assert [p.params["undoes"] for p in core.store.children(undo.task_no)] == [goods.task_no]
    assert rows(core, "SELECT goods_code FROM wb_goods") == [("G0",)]


def test_sheet_type_names_a_sheet_and_a_header_that_fits_two_types_is_skipped(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a second type whose header the goods' header fits too: that sheet is ambiguous, never guessed
    write_type(core, GOODS.replace('name = "goods"', 'name = "goods_copy"').replace("商品清单", "商品副本")
               .replace("Goods list", "Goods copy"), "goods_copy.toml")  # fmt: skip
    book = write_book(tmp_path / "book.xlsx", [
        ("Sheet1", GOODS_HEADER, [["G1", "茶叶"]]),
        ("Sheet2", PRICES_HEADER, [["P1", "G1", "5"]]),
    ])  # fmt: skip
    code, out, err = cli(core, capsys, monkeypatch, "submit", str(book), "--all-sheets", "--json")
    assert code == 0, err
    sheets = json.loads(out)["sheets"]
    assert [(s["sheet"], s["import_type"], s.get("matched_by")) for s in sheets] == [
        ("Sheet2", "prices", "header"), ("Sheet1", None, None)]  # fmt: skip
    assert sheets[1]["reason"] == "ambiguous" and sheets[1]["candidates"] == ["goods", "goods_copy"]
    assert sheets[0]["status"] == "pending" and sheets[0]["parent"]

    code, out, err = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--sheet-type",
                         "sheet1=goods", "--wait", "--json")  # fmt: skip
    assert code == 0, err
    parent = json.loads(out)
    assert [(s["sheet"], s["import_type"], s["matched_by"], s["status"]) for s in parent["sheets"]] == [
        ("Sheet1", "goods", "given", "succeeded"), ("Sheet2", "prices", "header", "succeeded")]  # fmt: skip
    assert rows(core, "SELECT COUNT(*) FROM wb_prices WHERE goods_id IS NOT NULL") == [(1,)]


def test_exit_2_cases_queue_nothing(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    book = prices_first(tmp_path / "book.xlsx")
    nothing = write_book(tmp_path / "nothing.xlsx", [("a", NOTES_HEADER, [["x", "y"]]), ("b", [], [])])
    csv = tmp_path / "book.csv"
    csv.write_text("goods_code,goods_name\nG1,tea\n", encoding="utf-8")
    cases = [
        (["import", str(nothing), "--all-sheets"], "No sheet of the workbook"),
        (["import", str(book), "--all-sheets", "--sheet-type", "missing=goods"], 'no sheet named "missing"'),
        (["import", str(book), "--all-sheets", "--sheet-type", "notes=nope"], "nope"),
        (["import", str(csv), "--all-sheets"], "needs an Excel workbook"),
        (["import", str(book), "--all-sheets", "--sheet", "notes"], "leave out --sheet"),
        (["import", str(book), "--all-sheets", "--type", "goods"], "leave out --type"),
        (["import", str(book), "--type", "goods", "--sheet-type", "notes=goods"], "--sheet-type goes with"),
        (["import", str(book)], "required: --type"),
        (["import", str(book), "--all-sheets", "--sheet-type", "notes"], "not SHEET=TYPE"),
    ]
    for args, words in cases:
        code, out, err = cli(core, capsys, monkeypatch, *args)
        assert code == 2, (args, out, err)
        assert words in err and "Traceback" not in err, (args, err)
    code, _, err = cli(core, capsys, monkeypatch, "import", str(nothing), "--all-sheets")
    assert 'Sheet "a" skipped' in err and 'Sheet "b" skipped: it has no header' in err
    assert core.store.list() == []


def test_cancel_of_a_queued_workbook_cancels_its_sheets(core: Core, tmp_path: Path) -> None:
    from desktop_app.imports.options import ImportOptions

    submitter = core.submitter()
    request = ImportOptions(file=prices_first(tmp_path / "book.xlsx"), import_type="")
    result = submitter.submit_workbook(request, submitter.plan_workbook(request), user="tester")
    parts = core.store.children(result.task.task_no)
    assert len(parts) == 2 and all(p.status is TaskStatus.PENDING for p in parts)
    # no worker claims a sheet on its own
    assert [t.id for t in core.store.claim("someone:1:1:aa", 10)] == [result.task.id]
    cancelled = core.store.cancel(result.task.task_no)
    assert cancelled is not None and cancelled.cancel_requested
    ended = run_now_claimed(core, result.task.id)
    assert ended.status is TaskStatus.CANCELLED
    assert all(p.status is TaskStatus.CANCELLED for p in core.store.children(result.task.task_no))


def run_now_claimed(core: Core, task_id: int) -> object:
    """Run a task already claimed by "someone:1:1:aa" here, to its end."""
    import threading

    from desktop_app.tasks.runner import run_task

    task = core.store.get_by_id(task_id)
    assert task is not None
    run_task(task, registry=core.registry, store=core.store, paths=core.paths, settings=core.settings,
             stop_event=threading.Event(), lang="en")  # fmt: skip
    ended = core.store.get_by_id(task_id)
    assert ended is not None
    return ended


def test_cancel_of_a_running_workbook_stops_its_running_sheet_and_cancels_the_waiting_ones(
    core: Core, tmp_path: Path
) -> None:
    from desktop_app.imports.options import ImportOptions

    submitter = core.submitter()
    request = ImportOptions(file=prices_first(tmp_path / "book.xlsx"), import_type="")
    parent = submitter.submit_workbook(request, submitter.plan_workbook(request), user="tester").task
    (claimed,) = core.store.claim("desk:1:1:aa", 1)
    assert claimed.id == parent.id
    first, _ = core.store.children(parent.task_no)
    assert core.store.claim("desk:1:1:aa", 1, only_ids=[first.id]) == []  # a sheet is its workbook's to claim
    assert [t.id for t in core.store.claim("desk:1:1:aa", 1, only_ids=[first.id], parent=parent.task_no)] == [first.id]
    core.store.cancel(parent.task_no)
    first_now, second_now = core.store.children(parent.task_no)
    assert first_now.status is TaskStatus.RUNNING and first_now.cancel_requested  # stops at its next batch
    assert second_now.status is TaskStatus.CANCELLED
    # another clerk's cancel of the workbook touches none of it
    other = submitter.submit_workbook(request.but(dry_run=True), submitter.plan_workbook(request), user="tester").task
    assert core.store.cancel(other.task_no, creator="someone else") is None
    assert all(p.status is TaskStatus.PENDING for p in core.store.children(other.task_no))


def test_a_dry_run_of_a_workbook_is_a_dry_run_of_each_sheet(core: Core, tmp_path: Path) -> None:
    from desktop_app.domain.errors import PermanentError
    from desktop_app.imports.options import ImportOptions

    submitter = core.submitter()
    request = ImportOptions(file=prices_first(tmp_path / "book.xlsx", bad_price=True), import_type="", dry_run=True)
    parent = submitter.submit_workbook(request, submitter.plan_workbook(request), user="tester").task
    ended = run_now(core, parent.id)
    assert ended.status is TaskStatus.PARTIALLY_SUCCEEDED and ended.to_json()["dry_run"]
    assert all(c.params["dry_run"] and c.status.is_final for c in core.store.children(parent.task_no))
    assert rows(core, "SELECT goods_code FROM wb_goods") == [("G0",)]
    with pytest.raises(PermanentError):
        submitter.submit_undo(parent.task_no, user="tester")


def test_a_workbooks_dry_run_plans_each_sheet_and_is_applied_together(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: a dry run of the workbook writes one plan per sheet; `apply` of the workbook applies them
    together as a workbook (in the same order, each sheet held to its plan); a sheet's plan alone is refused
    (its workbook is applied whole); the workbook cannot be applied twice."""
    book = prices_first(tmp_path / "book.xlsx", bad_price=True)
    code, out, err = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--dry-run", "--wait",
                         "--json")  # fmt: skip
    assert code == 0, err
    dry = json.loads(out)
    sheets = {s["sheet"]: s for s in dry["sheets"] if not s["skipped"]}
    for sheet in sheets.values():
        assert sheet["dry_run"] and sheet["changes_csv"] and Path(sheet["changes_csv"]).is_file(), sheet
    assert sheets["商品清单"]["plan_counts"]["inserted"] == 2 and sheets["PRICE SHEET"]["plan_counts"]["failed"] == 1
    assert rows(core, "SELECT goods_code FROM wb_goods") == [("G0",)]  # a dry run writes nothing

    code, out, err = cli(core, capsys, monkeypatch, "apply", sheets["PRICE SHEET"]["task_no"], "--json")
    assert code == 2 and f"a sheet of the workbook {dry['task_no']}" in err, (out, err)

    code, out, err = cli(core, capsys, monkeypatch, "apply", dry["task_no"], "--wait", "--json")
    assert code == 0, err
    applied = json.loads(out)
    assert applied["type"] == WORKBOOK.name and not applied["dry_run"], applied
    assert (applied["status"], applied["success_count"], applied["fail_count"]) == ("partially_succeeded", 6, 1)
    parts = core.store.children(applied["task_no"])
    assert [p.params["sheet"] for p in parts] == ["商品清单", "PRICE SHEET"]
    planned = {s["sheet"]: s["task_no"] for s in sheets.values()}
    assert [p.params["plan_of"] for p in parts] == [planned["商品清单"], planned["PRICE SHEET"]]
    assert all(core.store.get(planned[p.params["sheet"]]).applied_by == p.task_no for p in parts)  # type: ignore[union-attr]
    assert core.store.get(dry["task_no"]).applied_by == applied["task_no"]  # type: ignore[union-attr]
    assert rows(core, "SELECT goods_code FROM wb_goods ORDER BY goods_code") == [("G0",), ("G1",), ("G2",)]
    assert rows(core, "SELECT COUNT(*) FROM wb_prices") == [(4,)]

    code, out, err = cli(core, capsys, monkeypatch, "apply", dry["task_no"], "--json")
    assert code == 2 and f"already applied by {applied['task_no']}" in err, (out, err)


def test_a_workbooks_apply_refuses_a_row_changed_since_its_plan(core: Core, tmp_path: Path) -> None:
    """A row of a sheet changed in the table between the workbook's dry run and its apply is not written
    (changed_since_plan, in that sheet's error file); the rest are."""
    from desktop_app.imports.options import ImportOptions

    submitter = core.submitter()
    first = write_book(tmp_path / "first.xlsx", [("商品清单", GOODS_HEADER, [["G1", "茶叶"], ["G2", "咖啡"]])])
    request = ImportOptions(file=first, import_type="")
    parent = submitter.submit_workbook(request, submitter.plan_workbook(request), user="tester").task
    assert run_now(core, parent.id).status is TaskStatus.SUCCEEDED
    renamed = write_book(tmp_path / "renamed.xlsx", [("商品清单", GOODS_HEADER, [["G1", "红茶"], ["G2", "黑咖啡"]])])
    request = ImportOptions(file=renamed, import_type="", mode=ImportMode.UPSERT, dry_run=True)
    dry = submitter.submit_workbook(request, submitter.plan_workbook(request), user="tester").task
    assert run_now(core, dry.id).status is TaskStatus.SUCCEEDED
    with core.store.engine.begin() as conn:  # another desk renames G2 meanwhile
        conn.execute(sa.text("UPDATE wb_goods SET goods_name = '速溶咖啡' WHERE goods_code = 'G2'"))
    applied = submitter.submit_apply(dry.task_no, user="tester").task
    ended = run_now(core, applied.id)
    (part,) = core.store.children(applied.task_no)
    assert part.to_json()["updated_count"] == 1 and part.fail_count == 1, part.to_json()
    assert ended.status is part.status  # 1 of 2 failed: past the failure threshold, as any import would be
    assert "changed_since_plan" in Path(str(part.error_csv)).read_text(encoding="utf-8-sig")
    assert rows(core, "SELECT goods_code, goods_name FROM wb_goods WHERE goods_code <> 'G0' ORDER BY goods_code") == [
        ("G1", "红茶"), ("G2", "速溶咖啡")]  # fmt: skip


def test_an_export_of_the_rows_a_workbook_imported_takes_its_sheets_rows_of_that_table(
    core: Core, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the frozen window: "only the rows imported by" a workbook exported 0 rows (its rows carry
    their sheet's task number). Each table's export takes the rows its own sheet imported."""
    from tests.support.exports import run_export

    book = prices_first(tmp_path / "book.xlsx", bad_price=True)
    code, out, err = cli(core, capsys, monkeypatch, "import", str(book), "--all-sheets", "--wait", "--json")
    assert code == 0, err
    parent = json.loads(out)["task_no"]
    goods = run_export(core, "goods", filters={"imported_by": parent})
    assert goods.status is TaskStatus.SUCCEEDED and goods.total_count == 2, goods.error_msg
    text = Path(goods.result_path or "").read_text(encoding="utf-8-sig")
    assert "G1" in text and "G2" in text and "G0" not in text  # G0 was there before the workbook
    prices = run_export(core, "prices", filters={"imported_by": parent})
    assert prices.status is TaskStatus.SUCCEEDED and prices.total_count == 4, prices.error_msg
    assert "P1" in Path(prices.result_path or "").read_text(encoding="utf-8-sig")
