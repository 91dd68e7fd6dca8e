"""The change plan's storage (imports/change_plan.py): written per batch, read back by row, listed in a CSV."""

from __future__ import annotations

import csv
import re
import sqlite3
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, Lang
from desktop_app.domain.modes import ImportMode
from desktop_app.imports.change_plan import (
    ChangePlan,
    PlanCounts,
    PlanMeta,
    PlannedCell,
    PlannedRow,
    PlanWriter,
    changes_csv_name,
    plan_path,
    planned_failure,
    write_changes_csv,
)
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import builtin_import_types_dir, load_import_type
from desktop_app.imports.row_plans import Action
from desktop_app.imports.validator import RowError, compile_validator

COLUMNS = ("sku", "valid_from", "price", "currency")


@pytest.fixture
def itype():  # type: ignore[no-untyped-def]
    return load_import_type(builtin_import_types_dir() / "price_list.toml")


def meta(**changes: object) -> PlanMeta:
    values: dict[str, object] = dict(task_no="T261206-ABC123", import_type="price_list", mode=ImportMode.SYNC,
                                     file="/data/价目表.csv", file_sha256="ab" * 32, columns=COLUMNS, profile="华东",
                                     profile_version=3, scope={"currency": "CNY"}, lang="en")  # fmt: skip
    values.update(changes)
    return PlanMeta(**values)  # type: ignore[arg-type]


def update(row: int, price_before: str, price_after: str) -> PlannedRow:
    return PlannedRow(
        row, f"SKU-{row}\x1f2024-01-01", Action.UPDATE, (PlannedCell("price", price_before, price_after),)
    )


def write_plan(path: Path, counts: PlanCounts | None = None) -> None:
    writer = PlanWriter(path, meta())
    # a sync writes its deletes of the table's rows first (row 0), then the file's batches
    writer.add([PlannedRow(0, "SKU-GONE\x1f2023-01-01", Action.DELETE,
                           (PlannedCell("sku", "SKU-GONE", None), PlannedCell("price", "1.00", None)))])  # fmt: skip
    inserted = zip(COLUMNS, ["SKU-2", "2024-01-01", "9.90", "CNY"], strict=True)
    writer.add([
        PlannedRow(2, "SKU-2\x1f2024-01-01", Action.INSERT, tuple(PlannedCell(c, None, v) for c, v in inserted)),
        update(3, "12.50", "13.00"),
        # row 4: unchanged, not stored
    ])  # fmt: skip
    writer.add([
        PlannedRow(5, "", Action.FAIL, (), "Price has the wrong format [invalid_number]"),
        update(6, "1.00", "2.00"),
        PlannedRow(0, "SKU-KEPT\x1f2023-01-01", Action.FAIL, (), "still referenced [still_referenced]"),
    ])  # fmt: skip
    writer.finish(counts or PlanCounts(inserted=1, updated=2, unchanged=1, deleted=1, failed=2))


def test_round_trip_meta_counts_and_rows(tmp_path: Path) -> None:
    path = plan_path(tmp_path, "T261206-ABC123")
    write_plan(path)
    assert path.name == "plan.sqlite3" and path.parent.name == "T261206-ABC123"
    with ChangePlan.open(path) as plan:
        assert plan.meta == meta()
        assert plan.finished
        assert plan.counts == PlanCounts(inserted=1, updated=2, unchanged=1, deleted=1, failed=2)
        assert plan.counts.total == 7
        rows = plan.rows()
        # row order, the table rows a sync deletes (row 0) last in the order they were written
        assert [r.row for r in rows] == [2, 3, 5, 6, 0, 0]
        assert rows[1] == update(3, "12.50", "13.00")
        assert rows[1].cell("price") == PlannedCell("price", "12.50", "13.00")
        assert rows[0].cells[0] == PlannedCell("sku", None, "SKU-2")
        assert rows[2].message == "Price has the wrong format [invalid_number]" and rows[2].cells == ()
        assert plan.count() == 6
        assert plan.count({Action.UPDATE}) == 2
        assert plan.count({Action.UPDATE, Action.INSERT}) == 3
        assert plan.count(set()) == 0


def test_pages_and_action_filter(tmp_path: Path) -> None:
    path = tmp_path / "plan.sqlite3"
    write_plan(path)
    with ChangePlan.open(path) as plan:
        assert [r.row for r in plan.rows(offset=1, limit=2)] == [3, 5]
        assert [r.row for r in plan.rows(offset=3, limit=2)] == [6, 0]
        assert [r.key for r in plan.rows(offset=4)] == ["SKU-GONE\x1f2023-01-01", "SKU-KEPT\x1f2023-01-01"]
        assert [r.row for r in plan.rows({Action.FAIL})] == [5, 0]
        assert [r.row for r in plan.rows({Action.DELETE, Action.UPDATE}, limit=10)] == [3, 6, 0]
        assert plan.rows(limit=0) == []
        assert list(plan.iter_rows({Action.UPDATE})) == [update(3, "12.50", "13.00"), update(6, "1.00", "2.00")]


def test_between_is_the_batch_look_up(tmp_path: Path) -> None:
    path = tmp_path / "plan.sqlite3"
    write_plan(path)
    with ChangePlan.open(path) as plan:
        found = plan.between(1, 4)
        assert sorted(found) == [2, 3]  # row 4 absent: planned unchanged
        assert found[3].action is Action.UPDATE
        assert plan.between(5, 1000).keys() == {5, 6}
        assert plan.between(0, 1) == {}  # the row-0 deletes are never a file row's plan
        assert plan.between(7, 9) == {}


def test_absent_deletes_are_row_zero(tmp_path: Path) -> None:
    path = tmp_path / "plan.sqlite3"
    write_plan(path)
    with ChangePlan.open(path) as plan:
        absent = plan.absent_deletes()
        assert [(r.row, r.action) for r in absent] == [(0, Action.DELETE), (0, Action.FAIL)]
        assert absent[0].cell("price") == PlannedCell("price", "1.00", None)


def test_a_rerun_starts_the_file_afresh_and_an_unfinished_plan_says_so(tmp_path: Path) -> None:
    path = tmp_path / "plan.sqlite3"
    write_plan(path)
    writer = PlanWriter(path, meta(task_no="T261206-ABC123", mode=ImportMode.UPSERT, scope={}))
    writer.add([update(9, "1", "2")])
    writer.close()  # killed before finish()
    with ChangePlan.open(path) as plan:
        assert not plan.finished
        assert plan.counts == PlanCounts()
        assert plan.meta.mode is ImportMode.UPSERT
        assert [r.row for r in plan.rows()] == [9]


def test_open_of_a_missing_or_foreign_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        ChangePlan.open(tmp_path / "plan.sqlite3")
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database")
    with pytest.raises(sqlite3.DatabaseError):
        ChangePlan.open(junk)


def test_plan_file_is_not_wal_and_has_its_indexes(tmp_path: Path) -> None:
    path = tmp_path / "plan.sqlite3"
    write_plan(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"ix_plan_rows_row", "ix_plan_rows_action"} <= indexes
    names = {r[0] for r in conn.execute("SELECT name FROM plan_meta")}
    assert {"task_no", "import_type", "mode", "file_sha256", "profile", "profile_version", "columns", "counts",
            "scope"} <= names  # fmt: skip
    conn.close()
    assert not (tmp_path / "plan.sqlite3-wal").exists()


def read_csv(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    assert raw.startswith("\ufeff".encode())  # UTF-8 with BOM, like the error CSV
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_changes_csv_in_english(tmp_path: Path, itype) -> None:  # type: ignore[no-untyped-def]
    write_plan(tmp_path / "plan.sqlite3")
    target = tmp_path / changes_csv_name("T261206-ABC123")
    assert target.name == "T261206-ABC123-changes.csv"
    with ChangePlan.open(tmp_path / "plan.sqlite3") as plan:
        assert write_changes_csv(plan, target, itype, "en") == 6
    rows = read_csv(target)
    assert rows[0] == ["Row number", "Key", "Action", "Reason", "SKU (before)", "SKU (after)", "Valid from (before)",
                       "Valid from (after)", "Price (before)", "Price (after)", "Currency (before)",
                       "Currency (after)"]  # fmt: skip
    assert [r[0] for r in rows[1:]] == ["2", "3", "5", "6", "", ""]
    assert [r[2] for r in rows[1:]] == ["insert", "update", "fail", "update", "delete", "fail"]
    assert rows[1][4:] == ["", "SKU-2", "", "2024-01-01", "", "9.90", "", "CNY"]
    # an update's unchanged columns leave both cells empty
    assert rows[2][4:] == ["", "", "", "", "12.50", "13.00", "", ""]
    assert rows[3][3] == "Price has the wrong format [invalid_number]"
    assert rows[5][4:6] == ["SKU-GONE", ""] and rows[5][8:10] == ["1.00", ""]
    assert not target.with_name(target.name + ".part").exists()


def test_changes_csv_in_chinese(tmp_path: Path, itype) -> None:  # type: ignore[no-untyped-def]
    write_plan(tmp_path / "plan.sqlite3")
    target = tmp_path / "changes.csv"
    with ChangePlan.open(tmp_path / "plan.sqlite3") as plan:
        write_changes_csv(plan, target, itype, "zh")
    rows = read_csv(target)
    assert rows[0][:6] == ["行号", "键", "动作", "原因", "商品编码（原值）", "商品编码（新值）"]
    assert rows[0][-2:] == ["币种（原值）", "币种（新值）"]
    assert [r[2] for r in rows[1:]] == ["新增", "更新", "失败", "更新", "删除", "失败"]


def test_changes_csv_neutralises_formulas(tmp_path: Path, itype) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "plan.sqlite3"
    writer = PlanWriter(path, meta(mode=ImportMode.UPSERT, scope={}))
    writer.add([
        PlannedRow(2, "=HYPERLINK(\"x\")", Action.UPDATE, (PlannedCell("currency", "+CNY", "@USD"),)),
        PlannedRow(3, "-1+A1", Action.FAIL, (), "=1+1 [invalid_number]"),
        PlannedRow(4, "SKU-4", Action.SKIP),
    ])  # fmt: skip
    writer.finish(PlanCounts(updated=1, failed=1, skipped=1))
    target = tmp_path / "changes.csv"
    with ChangePlan.open(path) as plan:
        write_changes_csv(plan, target, itype, "en")
    rows = read_csv(target)
    assert rows[1][1] == '\'=HYPERLINK("x")'
    assert rows[1][-2:] == ["'+CNY", "'@USD"]
    assert rows[2][1] == "'-1+A1" and rows[2][3] == "'=1+1 [invalid_number]"
    assert rows[3][2] == "skip"
    assert read_csv(target)[0][0] == "Row number"  # a header is neutralised as the cells are (none needs it)


# --- a failed row's reasons: stored as codes, said in the viewer's language (issue 28) -------------------------

PRICE_WRONG = RowError(ErrorCode.INVALID_NUMBER, "price", "abc", {"value": "abc", "scale": 2})
SKU_MISSING = RowError(ErrorCode.REQUIRED_MISSING, "sku", "", {})


def failed_plan(path: Path, lang: Lang, itype) -> None:  # type: ignore[no-untyped-def]
    """A dry run made in ``lang``: a failed row (two reasons, as the validator gives them) and a sync's table
    row that failed to go."""
    checked = compile_validator(itype, map_header(itype, [c.label("zh") for c in itype.columns]))
    errors = checked.check(["", "2024-01-01", "abc", "CNY"]).errors
    assert errors == (SKU_MISSING, PRICE_WRONG)
    writer = PlanWriter(path, meta(lang=lang))
    writer.add([planned_failure(5, "SKU-5", errors), planned_failure(0, "SKU-KEPT", (PRICE_WRONG,))])
    writer.finish(PlanCounts(failed=2))


@pytest.mark.parametrize(("made", "shown"), [("zh", "en"), ("en", "zh")])
def test_a_failed_rows_reasons_are_said_in_the_viewers_language(tmp_path: Path, itype, made: Lang,  # type: ignore[no-untyped-def]
                                                                shown: Lang) -> None:  # fmt: skip
    path = tmp_path / "plan.sqlite3"
    failed_plan(path, made, itype)
    # the file keeps codes and parameters, no words of either language
    stored = sqlite3.connect(path).execute("SELECT message FROM plan_rows WHERE row = 5").fetchone()[0]
    assert stored.startswith("[{") and "required_missing" in stored
    for words in (SKU_MISSING.message(itype, "zh"), SKU_MISSING.message(itype, "en")):
        assert words not in stored
    target = tmp_path / "changes.csv"
    with ChangePlan.open(path) as plan:
        row = plan.between(5, 5)[5]
        assert row.errors == (SKU_MISSING, PRICE_WRONG) and row.codes == ("required_missing", "invalid_number")
        expected = ("；" if shown == "zh" else "; ").join(e.message(itype, shown) for e in row.errors)
        assert row.reason(itype, shown) == f"{expected} [required_missing, invalid_number]"
        write_changes_csv(plan, target, itype, shown)
    rows = read_csv(target)
    assert rows[1][3] == f"{expected} [required_missing, invalid_number]"
    assert rows[2][3] == f"{PRICE_WRONG.message(itype, shown)} [invalid_number]"
    cjk = re.compile(r"[\u4e00-\u9fff]")
    assert bool(cjk.search(rows[1][3])) is (shown == "zh")


def test_an_older_plans_words_are_shown_as_they_are(tmp_path: Path, itype) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "plan.sqlite3"
    write_plan(path)  # its failed rows' reasons are words, as a plan made before issue 28 kept them
    target = tmp_path / "changes.csv"
    with ChangePlan.open(path) as plan:
        (row,) = plan.between(5, 5).values()
        assert row.errors == () and row.codes == ("invalid_number",)
        assert row.reason(itype, "zh") == "Price has the wrong format [invalid_number]"
        write_changes_csv(plan, target, itype, "zh")
    assert read_csv(target)[3][3] == "Price has the wrong format [invalid_number]"
    # a plan that keeps codes says so in its meta; an older one's meta lacks it
    assert meta().to_values()["reasons"] == '"codes"' and PlanMeta.from_values(meta().to_values()) == meta()
    older = {k: v for k, v in meta().to_values().items() if k != "reasons"}
    assert PlanMeta.from_values(older) == meta(reasons_as_codes=False)
    assert "reasons" not in meta(reasons_as_codes=False).to_values()


def test_a_reason_whose_column_or_type_is_gone_still_reads(tmp_path: Path, itype) -> None:  # type: ignore[no-untyped-def]
    gone = RowError(ErrorCode.REQUIRED_MISSING, "old_column", "", {})
    row = planned_failure(7, "SKU-7", (gone,))
    assert "old_column" in row.reason(itype, "en") and row.reason(itype, "en").endswith("[required_missing]")
    assert row.reason(None, "zh").endswith("[required_missing]")  # the type itself gone from the catalog
