"""The bulk path and the row path give the same import: the same rows stored, counts, error CSV, failures.

Each file is imported twice on the same database: once on the bulk path (tiny blocks and batches, so
that block and batch boundaries fall everywhere), once row by row, the table emptied in between. The
rows stored (every column but the task number: the row number and the signature included), the
task's counts and end, and the error CSV byte for byte must be the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from desktop_app.app import Core, build_core
from desktop_app.domain.task import TaskRecord
from desktop_app.imports.bulk import csv_batches
from desktop_app.store.bulk_load import BulkLoader
from tests.support.customers import HEADER, csv_text, row, run_import
from tests.support.imports import ORDER_HEADER, order_row, run_type_import, write_rows, write_type

SEEDED = [f"C9{i:05d}" for i in range(1, 6)]  # in the table before each run: already_exists


LOADED: list[int] = []  # rows each bulk load put in (the bulk path really ran)


@pytest.fixture
def paths(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Core, Core]]:
    monkeypatch.setattr(csv_batches, "BLOCK", 2048)
    load = BulkLoader._load  # what a batch's load in line (load) and a load ahead (preload) both run

    def counted(self: BulkLoader, conn: Any, rows: Any, **kwargs: Any) -> None:
        try:
            load(self, conn, rows, **kwargs)
        except Exception:
            LOADED.append(0)
            raise
        LOADED.append(rows.num_rows)

    monkeypatch.setattr(BulkLoader, "_load", counted)
    LOADED.clear()
    bulk = build_core(data_dir=tmp_path / "bulk", db_url=db_url, overrides={"bulk_batch_rows": 7})
    rows = build_core(data_dir=tmp_path / "rows", db_url=db_url, overrides={"bulk_loads": False, "batch_size": 5})
    yield bulk, rows
    bulk.store.engine.dispose()
    rows.store.engine.dispose()


def snapshot(core: Core, table: str, key: list[str]) -> list[tuple[str, ...]]:
    with core.store.reading() as conn:
        cols = [c["name"] for c in sa.inspect(conn).get_columns(table) if c["name"] != "task_no"]
        t = sa.table(table, *(sa.column(c) for c in cols))
        query = sa.select(*(t.c[c] for c in cols)).order_by(*(t.c[k] for k in key))
        return [tuple("" if v is None else str(v) for v in r) for r in conn.execute(query).all()]


def clear(core: Core, table: str) -> None:
    with core.store.engine.begin() as conn:
        if sa.inspect(conn).has_table(table):
            conn.execute(sa.text(f"DELETE FROM {table}"))


def facts(task: TaskRecord) -> dict[str, Any]:
    j = task.to_json()
    keys = ("status", "error_code", "total_count", "success_count", "fail_count", "pending_completion_count",
            "inserted_count", "updated_count", "unchanged_count", "skipped_count")  # fmt: skip
    out = {k: j[k] for k in keys}
    out["error_csv"] = Path(task.error_csv).read_bytes() if task.error_csv else None
    return out


Stored = list[tuple[str, ...]]


def both(cores: tuple[Core, Core], path: Path, *, table: str = "customers", key: list[str] | None = None,
         import_type: str = "customers", seed: bool = True) -> tuple[dict[str, Any], Stored]:  # fmt: skip
    """Import the file on each path; assert the two agree; the bulk run's facts and rows."""
    key = key or ["code"]
    results = []
    for core in cores:
        clear(core, table)
        if seed:
            base = path.with_name("seed.csv")
            base.write_bytes(csv_text([row(i, 客户编号=c) for i, c in enumerate(SEEDED, 1)]).encode("utf-8"))
            assert run_import(cores[1], base, force=True).success_count == len(SEEDED)
        if import_type == "customers":
            task = run_import(core, path, force=True)
        else:
            task = run_type_import(core, path, import_type, force=True)
        results.append((facts(task), snapshot(core, table, key)))
        if core is cores[0]:
            assert sum(LOADED) > 0, "the bulk run loaded nothing in bulk"
        LOADED.clear()
    (bulk_facts, bulk_rows), (row_facts, row_rows) = results
    assert bulk_facts == row_facts
    assert bulk_rows == row_rows
    return bulk_facts, bulk_rows


# --- files ---------------------------------------------------------------------------------

# Per column: cells the row validator accepts (some only after NFKC or trimming), then tricky ones.
PALETTE: dict[str, tuple[list[str], list[str]]] = {
    "客户编号": (["C{n:06d}", "Ｃ{n:06d}", " C{n:06d} ", "C{n:06d}\u3000"],
                 ["c{n:06d}", "C{n:05d}", "", "C{n:06d}\x00"]),
    "姓名": (["王{n}", " 李{n} ", "'=HYPERLINK(1)", "=1+{n}", '"{n}"', "名\n字{n}"], ["", "   ", "x" * 51]),
    "手机号": (["138{n:08d}", "１３８{n:08d}", "138{n:08d}\t"], ["138-{n:07d}", "", "2{n:010d}"]),
    "邮箱": (["u{n}@ex.com", "", "ｕ{n}@ｅｘ.com", "u{n}@ex.com\u3000"],
             ["u{n}@ex", "u {n}@ex.com", "u{n}\x1c@ex.com"]),
    "等级": (["普通", "银卡", "金卡", "gold", "Gold", "GOLD", " 金卡", "", "ｇｏｌｄ"], ["vip"]),
    "开户日期": (["2024-02-29", "2024-1-5", "2024/01/05", "", "２０２４-01-05"],
                 ["2023-02-29", "2024-13-01", "0999-12-31"]),
    "信用额度": (["12.5", "012.50", "", ".5", "1000000", "１２.５", "0"], ["1e3", "-0", "1000000.01", "12.505"]),
    "部门": (["销售部", "市场部", "", "不存在部", " 财务部 ", "销售部\n"], []),
    "备注": (["", "备注{n}", "多行\n备注\r\n{n}", "😀" * 30, "'+1", '引号"在"中', "a,b,c", "NULL", "\\N", "null"],
             ["x" * 201]),
}  # fmt: skip


def _pick(rng: random.Random, valid: list[str], tricky: list[str]) -> str:
    """Mostly the plain spelling (a batch of only those goes in bulk), then the others, rarely a bad one."""
    draw = rng.random()
    if draw < 0.75:
        return valid[0]
    if draw < 0.975 or not tricky:
        return rng.choice(valid)
    return rng.choice(tricky)


def messy_customers(path: Path, seed: int, rows: int = 200) -> Path:
    """Rows of tricky cells, odd records, blank lines, repeated and seeded keys, multi-line cells."""
    rng = random.Random(seed)
    out = []
    used: list[int] = []
    for i in range(1, rows + 1):
        n = i if rng.random() > 0.01 or not used else rng.choice(used)  # a key again: duplicate_in_file
        used.append(n)
        cells = [_pick(rng, *PALETTE[h]).format(n=n) for h in HEADER]
        if rng.random() < 0.005:
            cells[0] = rng.choice(SEEDED)  # already in the table
        out.append(cells)
    text = csv_text(out)
    lines = text.split("\r\n")
    for _ in range(12):  # odd records and blank lines between whole records
        at = rng.randrange(1, len(lines))
        if lines[at - 1].count('"') % 2 == 0:
            lines.insert(at, rng.choice(["", "   ", "C000001,only two", ",".join(["x"] * 12), "\t"]))
    path.write_bytes("\r\n".join(lines).encode("utf-8-sig"))
    return path


# --- the cases -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_messy_file_imports_the_same_on_both_paths(paths: tuple[Core, Core], tmp_path: Path, seed: int) -> None:
    bulk, _stored = both(paths, messy_customers(tmp_path / "messy.csv", seed))
    assert bulk["fail_count"] > 20 and bulk["success_count"] > 100  # both kinds of rows, plenty


def test_bad_rows_first_and_last_in_each_batch(paths: tuple[Core, Core], tmp_path: Path) -> None:
    # batches of 7 records: rows 2, 8, 9, 15, 16, ... are the first or the last of one (14 batches: 28 did no more)
    bad = {n for n in range(2, 100) if (n - 2) % 7 in (0, 6)}
    data = [row(n, 手机号="x") if n + 1 in bad else row(n) for n in range(1, 100)]
    path = tmp_path / "edges.csv"
    path.write_bytes(csv_text(data).encode("utf-8"))
    facts_, _ = both(paths, path, seed=False)
    assert facts_["fail_count"] == len(bad)


def test_a_multi_line_field_and_wide_characters_across_blocks(paths: tuple[Core, Core], tmp_path: Path) -> None:
    # 120 rows: each length of note (60) beside each length of name (40) once, in ~15 blocks of 2 KB
    data = [row(n, 备注="第一行\n" + "中" * (n % 60) + "\r\n第三行", 姓名="名" * (n % 40 + 1)) for n in range(1, 121)]
    path = tmp_path / "wide.csv"
    path.write_bytes(csv_text(data).encode("utf-8"))
    facts_, stored = both(paths, path, seed=False)
    assert facts_["success_count"] == 120 and len(stored) == 120


def test_a_record_longer_than_a_block_hands_over_to_the_row_reader(paths: tuple[Core, Core], tmp_path: Path) -> None:
    data = [row(n) for n in range(1, 120)]
    data[60] = row(61, 备注="长" * 3000)  # 9,000 bytes: no block holds it
    path = tmp_path / "long.csv"
    path.write_bytes(csv_text(data).encode("utf-8"))
    facts_, _ = both(paths, path, seed=False)
    assert facts_["fail_count"] == 1  # the note is too long, the row fails alone; the rest go in


def test_a_quote_left_open_at_the_end_fails_the_same_way(paths: tuple[Core, Core], tmp_path: Path) -> None:
    path = tmp_path / "open.csv"
    path.write_bytes((csv_text([row(n) for n in range(1, 60)]) + 'C000099,"unclosed\r\nmore').encode("utf-8"))
    ended = []
    for core in paths:
        clear(core, "customers")
        task = run_import(core, path, force=True)
        ended.append((task.status.value, task.error_code))
        # what was committed before the end is whole batches of the file's own rows, each once
        codes = [r[0] for r in snapshot(core, "customers", ["code"])]
        assert codes == [f"C{n:06d}" for n in range(1, len(codes) + 1)]
    assert ended[0] == ended[1] == ("failed", "corrupt_file")


def test_gb18030_imports_the_same(paths: tuple[Core, Core], tmp_path: Path) -> None:
    path = tmp_path / "gb.csv"
    path.write_bytes(csv_text([row(n, 备注=f"备注{n}") for n in range(1, 100)]).encode("gb18030"))
    facts_, _ = both(paths, path, seed=False)
    assert facts_["success_count"] == 99


def test_the_error_csv_imported_again_restores_its_neutralised_cells(paths: tuple[Core, Core],
                                                                     tmp_path: Path) -> None:  # fmt: skip
    data = [row(n, 姓名="=SUM(A1)" if n % 3 else "+1", 手机号="x" if n % 2 else row(n)[2]) for n in range(1, 80)]
    path = tmp_path / "first.csv"
    path.write_bytes(csv_text(data).encode("utf-8"))
    first = run_import(paths[0], path)
    assert first.error_csv and first.fail_count
    again = tmp_path / "again.csv"
    again.write_bytes(Path(first.error_csv).read_bytes())
    facts_, _stored = both(paths, again, seed=False)
    assert facts_["fail_count"] == first.fail_count  # the phones are still bad; the names came back whole


def test_a_composite_key_type_with_every_kind(paths: tuple[Core, Core], tmp_path: Path) -> None:
    for core in paths:
        write_type(core)
    rng = random.Random(7)
    data = []
    for n in range(1, 250):
        r = order_row(n % 90 + 1, line=n // 90 + 1)
        if rng.random() < 0.1:
            r[rng.randrange(len(r))] = rng.choice(["", "x", "-1", "2024-02-30", "１２", "是 ", "未知部", "00:61"])
        data.append(r)
    path = write_rows(tmp_path / "orders.csv", ORDER_HEADER, data)
    facts_, _ = both(paths, path, table="order_lines", key=["order_no", "line_no"], import_type="orders", seed=False)
    assert facts_["success_count"] > 100


def test_a_semicolon_file_imports_the_same(paths: tuple[Core, Core], tmp_path: Path) -> None:
    import csv
    import io

    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows([HEADER, *(row(n) for n in range(1, 90))])
    path = tmp_path / "semi.csv"
    path.write_bytes(out.getvalue().encode("utf-8"))
    facts_, _ = both(paths, path, seed=False)
    assert facts_["success_count"] == 89


# --- memory: the bulk path loads only what it uses ------------------------------------------------

_LEAN_CHECK = """
import json, sys
from desktop_app.cli.main import main
code = main(["import", sys.argv[1], "--type", "customers", "--wait", "--json", "--data-dir", sys.argv[2]])
print(json.dumps({"code": code, "dataset": "pyarrow.dataset" in sys.modules}))
"""


def test_a_bulk_import_does_not_load_pyarrow_dataset(tmp_path: Path) -> None:
    # adbc_driver_manager.dbapi imports pyarrow.dataset (and, through it, pandas where pandas is
    # installed: 60 MB more resident, the memory goal missed); the low-level ADBC API does not
    import json
    import subprocess
    import sys

    path = tmp_path / "c.csv"
    path.write_bytes(csv_text([row(i) for i in range(1, 51)]).encode("utf-8"))
    done = subprocess.run([sys.executable, "-c", _LEAN_CHECK, str(path), str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    out = json.loads(done.stdout.strip().splitlines()[-1])
    log = (tmp_path / "data" / "logs").glob("*.log")
    assert out == {"code": 0, "dataset": False}, (out, done.stderr)
    assert any("bulk" in p.read_text(encoding="utf-8") for p in log), "the bulk path did not run"


@pytest.mark.parametrize("seed", [4, 5])
def test_a_refused_batch_written_in_slices_imports_the_same(
    paths: tuple[Core, Core], tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:  # fmt: skip
    # A batch the database refuses goes to the row writer a slice at a time in its transaction (a refused
    # 20,000-row batch held whole took a re-import of existing rows past 200 MB): a key repeated across
    # slices is still duplicate_in_file, a seeded one already_exists, every row once, in file order.
    from desktop_app.imports.bulk import batching
    from desktop_app.imports.bulk.insert import BulkInsert
    from desktop_app.imports.row_writer import BatchWriter

    monkeypatch.setattr(batching, "SLICE_ROWS", 2)
    parts: list[int] = []  # what the row writer took at a time from the bulk path's batches
    in_bulk: list[bool] = []
    write, bulk_write = BatchWriter.write, BulkInsert.write

    def counted(self: BatchWriter, conn: Any, rows: Any) -> Any:
        if in_bulk:
            parts.append(len(rows))
        return write(self, conn, rows)

    def marked(self: BulkInsert, conn: Any, batch: Any, spill: Any = None, **kwargs: Any) -> Any:
        in_bulk.append(True)
        try:
            return bulk_write(self, conn, batch, spill, **kwargs)
        finally:
            in_bulk.pop()

    monkeypatch.setattr(BatchWriter, "write", counted)
    monkeypatch.setattr(BulkInsert, "write", marked)
    bulk, _stored = both(paths, messy_customers(tmp_path / "messy.csv", seed))
    assert bulk["fail_count"] > 20
    assert max(parts) == 2 and parts.count(2) > 10  # refused 7-row batches went two rows at a time
