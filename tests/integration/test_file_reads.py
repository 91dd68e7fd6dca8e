"""How often an import task opens its file, on each path: each open named by the stage that needs it."""

from __future__ import annotations

import builtins
import io
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.status import TaskStatus
from tests.support.customers import HEADER, row, run_import, write_csv


@pytest.fixture
def cores(db_url: str, tmp_path: Path) -> Iterator[dict[str, Core]]:
    made = {"bulk": build_core(data_dir=tmp_path / "bulk", db_url=db_url),
            "rows": build_core(data_dir=tmp_path / "rows", db_url=db_url, overrides={"bulk_loads": False})}  # fmt: skip
    yield made
    for core in made.values():
        core.store.engine.dispose()


def opens_of(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, each open of ``path``: the BatchDesk function that opened it, and the one that asked."""
    where: list[str] = []
    real_open = io.open

    def note(file: Any) -> None:
        if isinstance(file, (str, Path)) and Path(file).resolve() == path.resolve():
            frames = [f.name for f in traceback.extract_stack()[:-2] if "desktop_app" in f.filename]
            where.append(" < ".join(frames[-1:-3:-1]))

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        note(file)
        return real_open(file, *args, **kwargs)

    class CountedFileIO(io.FileIO):  # the readers' unbuffered open (readers/files.open_binary)
        def __init__(self, file: Any, *args: Any, **kwargs: Any) -> None:
            note(file)
            super().__init__(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting_open)
    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(io, "FileIO", CountedFileIO)
    return where


# The opens of a CSV every path makes before it writes: the encoding's sample, the delimiter's sniff, the
# header, the first rows' decode check, the scans for neutralised cells and NUL bytes, the count-ahead.
CSV_CHECKS = [
    "open_binary < read_sample",  # the encoding (readers/encoding.py)
    "open_binary < read_dialect",  # the delimiter and a "sep=" line (readers/csv_sniff.py)
    "open_binary < _open",  # the header
    "open_binary < _open",  # the first PRECHECK_ROWS decoded before anything is written (precheck.check_header)
    "holds_neutralised_cells < check_header",  # whether the error CSV must restore '=... cells
    "holds_nul < check_header",  # whether the validator must look for NUL
    "_whole_pass < _line_bound",  # the count (precheck.count_rows; begun ahead on the command line)
]
HASH_AGAIN = "file_sha256 < file_changed"  # the file unchanged since it was queued (pipeline._file_changed)
CASES = {
    # path: (core, file, dry run, the opens while the task runs)
    "row path csv": ("rows", "csv", False, [*CSV_CHECKS, "open_binary < _open", HASH_AGAIN]),
    "bulk csv": ("bulk", "csv", False, [*CSV_CHECKS, "__init__ < _read"]),  # csv_batches' one read
    "dry run csv": ("bulk", "csv", True, [*CSV_CHECKS, "open_binary < _open", HASH_AGAIN]),
    "xlsx": ("bulk", "xlsx", False, ["open_binary < open_table", HASH_AGAIN]),  # the one zip, held open
}


@pytest.mark.parametrize("case", CASES)
def test_an_import_opens_its_file_once_per_stage(
    cores: dict[str, Core], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    core_name, kind, dry_run, expected = CASES[case]
    rows = [row(i) for i in range(1, 21)]
    if kind == "csv":
        path = write_csv(tmp_path / "file.csv", rows)
    else:
        book = openpyxl.Workbook()
        sheet = book.active
        assert sheet is not None
        for cells in [HEADER, *rows]:
            sheet.append(list(cells))
        path = tmp_path / "file.xlsx"
        book.save(path)
    where = opens_of(path, monkeypatch)
    task = run_import(cores[core_name], path, dry_run=dry_run)
    assert task.status is TaskStatus.SUCCEEDED
    assert where[0] == "file_sha256 < content_sha256"  # the submission's hash, not the task's
    assert where[1:] == expected
