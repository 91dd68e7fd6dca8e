"""open_table: choosing a reader by suffix, and file-level errors."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from desktop_app.domain.errors import ErrorCode, PermanentError, TransientError
from desktop_app.imports.readers import TableReader, open_table, preview
from desktop_app.imports.readers import files as files_module
from desktop_app.imports.readers.files import file_error


@pytest.mark.parametrize(
    ("name", "suffix"), [("a.doc", ".doc"), ("a.XLSM", ".XLSM"), ("noext", ""), ("a.csv.bak", ".bak")]
)
def test_unsupported_suffix(tmp_path: Path, name: str, suffix: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"a,b\n1,2\n")
    with pytest.raises(PermanentError) as info:
        open_table(path)
    assert info.value.code == ErrorCode.UNSUPPORTED_FORMAT
    assert info.value.params == {"suffix": suffix}


@pytest.mark.parametrize("name", ["a.CSV", "b.Xlsx", "c.XLS"])
def test_suffix_is_case_insensitive(tmp_path: Path, name: str) -> None:
    with pytest.raises(PermanentError) as info:
        open_table(tmp_path / name)
    assert info.value.code == ErrorCode.FILE_NOT_FOUND


@pytest.mark.parametrize("name", ["missing.csv", "missing.xlsx", "missing.xls"])
def test_missing_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    with pytest.raises(PermanentError) as info:
        open_table(path)
    assert info.value.code == ErrorCode.FILE_NOT_FOUND
    assert info.value.params == {"path": str(path)}
    with pytest.raises(PermanentError) as info:
        preview(str(path))
    assert info.value.code == ErrorCode.FILE_NOT_FOUND


@pytest.mark.parametrize("name", ["dir.csv", "dir.xlsx"])
def test_directory_is_unreadable(tmp_path: Path, name: str) -> None:
    (tmp_path / name).mkdir()
    with pytest.raises(PermanentError) as info:
        open_table(tmp_path / name)
    assert info.value.code == ErrorCode.FILE_UNREADABLE


@pytest.mark.parametrize("name", ["locked.csv", "locked.xlsx", "locked.xls"])
def test_permission_denied_is_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"a\n1\n")

    def denied(file: object, mode: str = "r") -> object:
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr(files_module, "io", types.SimpleNamespace(FileIO=denied))
    with pytest.raises(PermanentError) as info:
        open_table(path)
    assert info.value.code == ErrorCode.FILE_UNREADABLE
    assert info.value.params["path"] == str(path)


def test_file_held_by_another_program_is_transient(tmp_path: Path) -> None:
    exc = PermissionError(13, "The process cannot access the file")
    exc.winerror = 32  # type: ignore[attr-defined]  # ERROR_SHARING_VIOLATION on Windows
    error = file_error(tmp_path / "a.xlsx", exc)
    assert isinstance(error, TransientError)
    assert error.code == ErrorCode.FILE_UNREADABLE
    assert error.retryable
    assert isinstance(file_error(tmp_path / "a.xlsx", PermissionError(13, "denied")), PermanentError)


def test_reader_satisfies_the_protocol(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"a\n1\n")
    reader: TableReader = open_table(path, sheet="ignored for csv")
    with reader as same:
        assert same is reader
        assert [r.cells for r in same.rows()] == [("1",)]
