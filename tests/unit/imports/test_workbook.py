"""A workbook's sheets matched to import types (given, by name or title, by header; ambiguous and unmatched
sheets skipped, never guessed) and the order their imports run in (references first, a cycle by the book)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.type_parser import load_file
from desktop_app.imports.workbook import MatchedBy, SheetPlan, Skip, given_types, match_sheets, run_order


def make_type(tmp_path: Path, name: str, columns: Sequence[tuple[str, bool]], *, title_zh: str = "",
              title_en: str = "", table: str = "", refs: Mapping[str, str] | None = None) -> ImportType:  # fmt: skip
    """A type with text columns (key, required), and reference columns {key: table}."""
    lines = [f'name = "{name}"', f'title_zh = "{title_zh or name + "导入"}"',
             f'title_en = "{title_en or name.title() + " import"}"', f'table = "{table or name}"',
             f'unique_key = "{columns[0][0]}"']  # fmt: skip
    for key, required in columns:
        lines += ["[[columns]]", f'key = "{key}"', f'label_zh = "{key}"', f'label_en = "{key}"',
                  f'aliases = ["{key}"]', f"required = {'true' if required else 'false'}"]  # fmt: skip
    for key, target in (refs or {}).items():
        lines += ["[[columns]]", f'key = "{key}"', f'label_zh = "{key}"', f'label_en = "{key}"', f'aliases = ["{key}"]',
                  'kind = "reference"', f'reference_table = "{target}"', 'reference_column = "code"',
                  f'reference_target = "{key}_id"']  # fmt: skip
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_file(path)


@pytest.fixture
def types(tmp_path: Path) -> dict[str, ImportType]:
    found = [
        make_type(tmp_path, "products", [("code", True), ("name", True)], title_zh="商品", title_en="Products list"),
        make_type(tmp_path, "prices", [("price_code", True), ("amount", True)], refs={"product": "products"}),
        make_type(tmp_path, "suppliers", [("supplier", True), ("name", True)]),
        make_type(tmp_path, "loose", [("memo", True), ("remark", False)]),
    ]
    return {t.name: t for t in found}


HEADERS = {
    "Sheet1": ["price_code", "product", "amount"],
    "商品": ["whatever"],
    "  PRODUCTS LIST ": ["whatever"],
    "mixed": ["supplier", "code", "name"],  # products' and suppliers' required columns both there
    "notes": ["note", "author"],
    "empty": [],
    "part of it": ["code", "remark"],  # products' code without its name; loose's remark without its memo
}


def plan(types: Mapping[str, ImportType], sheets: Sequence[str], given: Mapping[str, str] | None = None,
         read: list[str] | None = None) -> list[SheetPlan]:  # fmt: skip
    def header_of(sheet: str) -> Sequence[str]:
        if read is not None:
            read.append(sheet)
        return HEADERS[sheet]

    return match_sheets(Path("book.xlsx"), sheets, header_of, types, given)


def test_a_sheet_matches_by_name_or_title_else_by_header(types: dict[str, ImportType]) -> None:
    read: list[str] = []
    plans = plan(types, ["Sheet1", "商品", "  PRODUCTS LIST ", "notes", "empty"], read=read)
    assert [(p.sheet, p.import_type, p.matched_by, p.skipped) for p in plans] == [
        ("Sheet1", "prices", MatchedBy.HEADER, None),
        ("商品", "products", MatchedBy.NAME, None),  # the Chinese title
        ("  PRODUCTS LIST ", "products", MatchedBy.NAME, None),  # the English title, trimmed, case-folded
        ("notes", None, None, Skip.NO_MATCH),
        ("empty", None, None, Skip.EMPTY),
    ]
    assert read == ["Sheet1", "notes", "empty"]  # a sheet named after its type is never read for its header
    assert [p.position for p in plans] == [0, 1, 2, 3, 4]


def test_a_header_that_fits_several_types_is_skipped_never_guessed(types: dict[str, ImportType]) -> None:
    (mixed,) = plan(types, ["mixed"])
    assert (mixed.import_type, mixed.skipped, mixed.candidates) == (None, Skip.AMBIGUOUS, ("products", "suppliers"))
    assert "products, suppliers" in str(mixed.reason_text("en")) and "mixed" in str(mixed.reason_text("zh"))
    # a header with some of a type's required columns, or its optional ones alone, fits no type
    (part,) = plan(types, ["part of it"])
    assert part.skipped is Skip.NO_MATCH


def test_sheet_type_names_a_sheet_outright(types: dict[str, ImportType]) -> None:
    plans = plan(types, ["mixed", "notes"], given=given_types(["MIXED=suppliers", "notes = products"]))
    assert [(p.import_type, p.matched_by) for p in plans] == [("suppliers", MatchedBy.GIVEN),
                                                              ("products", MatchedBy.GIVEN)]  # fmt: skip
    with pytest.raises(PermanentError) as unknown_sheet:
        plan(types, ["mixed"], given={"other": "products"})
    assert unknown_sheet.value.code is ErrorCode.WORKBOOK_UNKNOWN_SHEET
    with pytest.raises(PermanentError) as unknown_type:
        plan(types, ["mixed"], given={"mixed": "nope"})
    assert unknown_type.value.code is ErrorCode.UNKNOWN_IMPORT_TYPE
    with pytest.raises(PermanentError) as twice:
        given_types(["a=products", " A =prices"])
    assert twice.value.code is ErrorCode.WORKBOOK_OPTIONS


def test_a_plan_round_trips_through_params(types: dict[str, ImportType]) -> None:
    plans = plan(types, ["Sheet1", "mixed"])
    assert [SheetPlan.from_params(p.to_params()) for p in plans] == plans


def order(types: dict[str, ImportType], assigned: Sequence[tuple[str, str | None]]) -> list[str]:
    plans = [SheetPlan(sheet, n, t, MatchedBy.GIVEN) if t else SheetPlan(sheet, n, skipped=Skip.NO_MATCH)
             for n, (sheet, t) in enumerate(assigned)]  # fmt: skip
    return [p.sheet for p in run_order(plans, types)]


def test_a_sheet_whose_type_looks_up_another_types_table_runs_after_it(types: dict[str, ImportType]) -> None:
    assert order(types, [("p", "prices"), ("n", None), ("s", "suppliers"), ("g", "products")]) == ["s", "g", "p"]
    assert order(types, [("g", "products"), ("p", "prices")]) == ["g", "p"]
    # no sheet of the referenced type: the book's order
    assert order(types, [("p", "prices"), ("s", "suppliers")]) == ["p", "s"]


def test_a_cycle_of_references_runs_in_the_books_order(tmp_path: Path) -> None:
    a = make_type(tmp_path, "a", [("code", True)], refs={"b_ref": "b"})
    b = make_type(tmp_path, "b", [("code", True)], refs={"a_ref": "a"})
    c = make_type(tmp_path, "c", [("code", True)], refs={"a_ref": "A"})  # the table's name, any case
    self_ref = make_type(tmp_path, "tree", [("code", True)], refs={"parent": "tree"})
    types = {t.name: t for t in (a, b, c, self_ref)}
    # a and b wait for each other: the book's order (b first); c waits for a
    assert order(types, [("c", "c"), ("b", "b"), ("a", "a")]) == ["b", "a", "c"]
    assert order(types, [("a", "a"), ("c", "c"), ("b", "b")]) == ["a", "c", "b"]
    assert order(types, [("c", "c"), ("a", "a")]) == ["a", "c"]
    assert order(types, [("t", "tree"), ("a", "a")]) == ["t", "a"]  # a type that refers to its own table


def test_a_workbook_ends_as_its_worst_sheet_with_the_counts_added_up() -> None:
    from desktop_app.domain.status import TaskStatus
    from desktop_app.domain.task import Lane, TaskRecord
    from desktop_app.imports.workbook_task import outcome
    from desktop_app.tasks.children import worst

    s = TaskStatus
    assert worst([s.SUCCEEDED, s.PARTIALLY_SUCCEEDED]) is s.PARTIALLY_SUCCEEDED
    assert worst([s.PARTIALLY_SUCCEEDED, s.CANCELLED, s.SUCCEEDED]) is s.CANCELLED
    assert worst([s.CANCELLED, s.FAILED]) is s.FAILED
    assert worst([s.SUCCEEDED]) is s.SUCCEEDED

    def part(n: int, status: TaskStatus, ok: int, bad: int) -> TaskRecord:
        return TaskRecord(id=n, task_no=f"T{n}", task_type="import", lane=Lane.LONG, status=status,
                          params={"sheet": f"s{n}", "file": "b.xlsx", "import_type": "x"}, total_count=ok + bad,
                          success_count=ok, fail_count=bad, summary={"inserted_count": ok})  # fmt: skip

    ended = outcome([part(1, s.SUCCEEDED, 10, 0), part(2, s.FAILED, 1, 9)], "en",
                    skipped=[SheetPlan("notes", 2, skipped=Skip.NO_MATCH)])  # fmt: skip
    assert ended.status is s.FAILED and (ended.total_count, ended.success_count, ended.fail_count) == (20, 11, 9)
    assert ended.error_code == "workbook_sheets_failed" and ended.error_msg == (
        "The import of 1 sheet failed: s2 (T2)")  # fmt: skip
    assert ended.summary["inserted_count"] == 11 and ended.summary["parts"] == ["T1", "T2"]
    assert ended.summary["skipped"] == [{"sheet": "notes", "reason": "no_match", "candidates": []}]
