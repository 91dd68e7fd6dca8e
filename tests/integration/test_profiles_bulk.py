"""A profiled import gives the same on the bulk path as row by row: rows stored, counts, error CSV bytes (every
database). The messy files of the path tests, with a profile that renames and ignores headers, fills two columns
with constants and maps values of five columns (enum spellings onto other valid ones, folded full-width and case
variants, a number, a date, a name, an Excel number cell), so that mapped, unmapped, sure and unsure cells meet
in every batch."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from desktop_app.app import Core
from desktop_app.domain.profiles import Profile
from desktop_app.imports.bulk import batching
from desktop_app.store.profiles import ProfileStore
from tests.integration.test_bulk_path import LOADED, SEEDED, clear, facts, messy_customers, paths, snapshot  # noqa: F401
from tests.integration.test_bulk_xlsx_path import messy_workbook, small_slices  # noqa: F401
from tests.support.customers import csv_text, row, run_import

PROFILE = Profile(
    import_type="customers",
    # the email cells go to the note, the note and the department headers are ignored
    columns=MappingProxyType({"邮箱": "note", "备注": "", "部门": ""}),
    constants=MappingProxyType({"department": "华东销售部", "email": "info@example.com"}),
    values=MappingProxyType({
        "level": MappingProxyType({"vip": "金卡", "钻石": "gold", "GOLD": "银卡", " 金卡 ": "普通", "1": "银卡"}),
        "credit_limit": MappingProxyType({"１２.５": "99", "12": "13", "1e3": "1,000"}),
        "opened_on": MappingProxyType({"2024-02-29": "2024-03-01", "2023-02-29": "2023年3月1日"}),
        "name": MappingProxyType({"王7": "王七", "'=HYPERLINK(1)": "链接"}),
        "note": MappingProxyType({"u5@ex.com": "", "U9@EX.COM": "九"}),
    }),
)  # fmt: skip


@pytest.fixture(autouse=True)
def replaced(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Cells the bulk path replaced in its columns (its own look-up, not the row validator's), per call."""
    counts: list[int] = []
    mapped = batching.mapped

    def counted(cells: pa.Array, value_map: Any) -> pa.Array:
        out = mapped(cells, value_map)
        counts.append(int(pc.sum(pc.invert(pc.equal(out, cells))).as_py() or 0))
        return out

    monkeypatch.setattr(batching, "mapped", counted)
    REPLACED[:] = [counts]
    return counts


REPLACED: list[list[int]] = []


def both_profiled(cores: tuple[Core, Core], path: Path) -> dict[str, Any]:
    """Import the file with the profile on each path; assert the two agree; the bulk run's facts."""
    ProfileStore(cores[0].store.engine).save("messy", PROFILE, by="admin")
    results = []
    for core in cores:
        clear(core, "customers")
        seed = path.with_name("seed.csv")
        seed.write_bytes(csv_text([row(i, 客户编号=c) for i, c in enumerate(SEEDED, 1)]).encode("utf-8"))
        assert run_import(cores[1], seed, force=True).success_count == len(SEEDED)
        task = run_import(core, path, force=True, profile="messy", profile_version=1)
        assert task.to_json()["profile_version"] == 1
        results.append((facts(task), snapshot(core, "customers", ["code"])))
        if core is cores[0]:
            assert sum(LOADED) > 0, "the bulk run loaded nothing in bulk"
            assert sum(REPLACED[0]) > 20, "the bulk path replaced no cell itself"
        LOADED.clear()
    (bulk_facts, bulk_rows), (row_facts, row_rows) = results
    assert bulk_facts == row_facts
    assert bulk_rows == row_rows
    levels = {r[4] for r in bulk_rows}  # code, name, phone, email, level...
    assert {r[3] for r in bulk_rows if r[0] not in SEEDED} == {"info@example.com"}  # the constant
    assert "gold" in levels and "silver" in levels
    return bulk_facts


@pytest.mark.parametrize("seed", [1, 2])
def test_a_messy_csv_with_a_profile_imports_the_same_on_both_paths(paths: tuple[Core, Core],  # noqa: F811
                                                                   tmp_path: Path, seed: int) -> None:  # fmt: skip
    found = both_profiled(paths, messy_customers(tmp_path / "messy.csv", seed))
    assert found["fail_count"] > 10 and found["success_count"] > 100


def test_a_messy_workbook_with_a_profile_imports_the_same_on_both_paths(paths: tuple[Core, Core],  # noqa: F811
                                                                        tmp_path: Path,
                                                                        small_slices: None) -> None:  # noqa: F811
    found = both_profiled(paths, messy_workbook(tmp_path / "messy.xlsx", 4))
    assert found["fail_count"] > 10 and found["success_count"] > 200
