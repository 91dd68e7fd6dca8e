"""A task's stored file (store/task_files.py): chunked, compressed, read back byte for byte; replaced, removed."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, func, select, update

from desktop_app.store import task_files
from desktop_app.store.schema import metadata, task_file_chunks
from desktop_app.store.task_files import DamagedFile, FileKind


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    made = create_engine(f"sqlite:///{tmp_path / 'files.sqlite3'}")
    metadata.create_all(made)
    return made


def test_a_file_of_several_chunks_comes_back_byte_for_byte(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(task_files, "CHUNK_BYTES", 1000)
    source = tmp_path / "T260101-AAAAAA-errors.csv"
    content = ("\ufeff行号,客户编码\n".encode() + os.urandom(3000) + b"1,C001\n" * 500)
    source.write_bytes(content)
    stored = task_files.store(engine, "T260101-AAAAAA", FileKind.ERRORS, source, "alice")
    assert stored.chunks == -(-len(content) // 1000) and stored.chunks > 3
    assert stored.size == len(content)
    with engine.connect() as conn:
        biggest = conn.execute(select(func.max(func.length(task_file_chunks.c.data)))).scalar_one()
    assert biggest < 1100  # each chunk compressed on its own: never more than its share of the file
    found = task_files.find(engine, "T260101-AAAAAA", FileKind.ERRORS)
    assert found == stored
    out = io.BytesIO()
    task_files.read_into(engine, found, out)
    assert out.getvalue() == content
    assert task_files.find(engine, "T260101-AAAAAA", FileKind.CHANGES) is None


def test_storing_again_replaces_and_remove_deletes_chunks_too(engine: Engine, tmp_path: Path) -> None:
    source = tmp_path / "a.csv"
    source.write_bytes(b"first\n" * 10)
    task_files.store(engine, "T260101-AAAAAA", FileKind.CHANGES, source, "alice")
    source.write_bytes(b"second\n")
    again = task_files.store(engine, "T260101-AAAAAA", FileKind.CHANGES, source, "alice")
    out = io.BytesIO()
    task_files.read_into(engine, again, out)
    assert out.getvalue() == b"second\n"
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(task_file_chunks)).scalar_one() == 1
    assert task_files.remove(engine, ["T260101-AAAAAA", "T260101-BBBBBB"]) == 1
    assert task_files.find(engine, "T260101-AAAAAA", FileKind.CHANGES) is None
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(task_file_chunks)).scalar_one() == 0


def test_an_empty_file_and_a_damaged_one(engine: Engine, tmp_path: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    stored = task_files.store(engine, "T260101-AAAAAA", FileKind.ERRORS, empty, "alice")
    out = io.BytesIO()
    task_files.read_into(engine, stored, out)
    assert stored.chunks == 0 and out.getvalue() == b""
    full = tmp_path / "full.csv"
    full.write_bytes(b"x,y\n" * 100)
    stored = task_files.store(engine, "T260101-BBBBBB", FileKind.ERRORS, full, "alice")
    with engine.begin() as conn:
        import zlib

        conn.execute(update(task_file_chunks).where(task_file_chunks.c.file_id == stored.id)
                     .values(data=zlib.compress(b"x,z\n" * 100)))  # fmt: skip
    with pytest.raises(DamagedFile):
        task_files.read_into(engine, stored, io.BytesIO())
