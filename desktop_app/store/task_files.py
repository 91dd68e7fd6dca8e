"""A task's error CSV and change file kept in a shared database (tables task_files, task_file_chunks).

A file is written and read as a stream of chunks, each CHUNK_BYTES of the file compressed on its own
with zlib (so about 1 MB a row, never near MariaDB's max_allowed_packet, and never the whole file in
memory). Who may read a stored file is the server's rule, the same as for the task's row (team mode:
row-level security on PostgreSQL, DEFINER views on MariaDB; docs/TEAM.md): this module filters nothing.
"""

from __future__ import annotations

import datetime as dt
import enum
import hashlib
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from sqlalchemy import Connection, Engine, delete, insert, select, update

from desktop_app.store.schema import task_file_chunks, task_files

CHUNK_BYTES = 1 << 20
"""Bytes of the file in one chunk row, before compression (a module constant: tests lower it)."""


class FileKind(enum.StrEnum):
    """Which of a task's files: its error CSV, or a dry run's change file."""

    ERRORS = "errors"
    CHANGES = "changes"


@dataclass(frozen=True, slots=True)
class StoredFile:
    """One stored file's facts (its content is read with read_into)."""

    id: int
    task_no: str
    kind: FileKind
    name: str
    creator: str
    size: int
    sha256: str
    chunks: int
    stored_at: dt.datetime


class DamagedFile(Exception):
    """The stored chunks do not make the file that was stored (a chunk missing or changed)."""


def store(engine: Engine, task_no: str, kind: FileKind, path: Path, creator: str) -> StoredFile:
    """Store the file at `path` as the task's `kind` (replacing one stored before), in one transaction:
    another desk never reads half a file."""
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    digest = hashlib.sha256()
    size = chunks = 0
    with engine.begin() as conn:
        _delete(conn, [task_no], kind)
        first = dict(task_no=task_no, kind=kind.value, name=path.name, creator=creator, size=0, sha256="", chunks=0)
        made = conn.execute(insert(task_files).values(**first, stored_at=now)).inserted_primary_key
        assert made is not None
        file_id = int(made[0])
        with path.open("rb") as handle:
            while piece := handle.read(CHUNK_BYTES):
                digest.update(piece)
                conn.execute(insert(task_file_chunks).values(file_id=file_id, chunk_no=chunks,
                                                             data=zlib.compress(piece, 6)))  # fmt: skip
                size += len(piece)
                chunks += 1
        conn.execute(
            update(task_files)
            .where(task_files.c.id == file_id)
            .values(size=size, sha256=digest.hexdigest(), chunks=chunks)
        )
    return StoredFile(int(file_id), task_no, kind, path.name, creator, size, digest.hexdigest(), chunks, now)


def find(engine: Engine, task_no: str, kind: FileKind) -> StoredFile | None:
    """The task's stored file of that kind, if the database holds one this login may read."""
    with engine.connect() as conn:
        row = conn.execute(
            select(task_files).where(task_files.c.task_no == task_no, task_files.c.kind == kind.value)
        ).first()
    if row is None:
        return None
    return StoredFile(int(row.id), str(row.task_no), FileKind(row.kind), str(row.name), str(row.creator),
                      int(row.size), str(row.sha256), int(row.chunks), row.stored_at)  # fmt: skip


def read_into(engine: Engine, stored: StoredFile, out: BinaryIO) -> None:
    """Write the stored file's bytes to `out`, a chunk at a time; DamagedFile when they are not the
    bytes that were stored (size or SHA-256)."""
    digest = hashlib.sha256()
    size = 0
    with engine.connect() as conn:
        for number in range(stored.chunks):
            data = conn.execute(
                select(task_file_chunks.c.data).where(
                    task_file_chunks.c.file_id == stored.id, task_file_chunks.c.chunk_no == number
                )
            ).scalar()
            if data is None:
                raise DamagedFile(f"chunk {number} of {stored.chunks} is missing")
            piece = zlib.decompress(bytes(data))
            digest.update(piece)
            size += len(piece)
            out.write(piece)
    if size != stored.size or digest.hexdigest() != stored.sha256:
        raise DamagedFile("the chunks do not make the stored file")


def remove(engine: Engine, task_nos: Iterable[str]) -> int:
    """Delete the stored files of these tasks (retention); how many files went."""
    numbers = list(task_nos)
    if not numbers:
        return 0
    with engine.begin() as conn:
        return _delete(conn, numbers, None)


def delete_in(conn: Connection, task_nos: list[str]) -> int:
    """Delete the stored files of these tasks in the caller's transaction (the archive's move)."""
    return _delete(conn, task_nos, None) if task_nos else 0


def drop(conn: Connection, task_no: str, kind: FileKind) -> int:
    """Delete the task's stored file of that kind (its task no longer names one)."""
    return _delete(conn, [task_no], kind)


def _delete(conn: Connection, task_nos: list[str], kind: FileKind | None) -> int:
    query = select(task_files.c.id).where(task_files.c.task_no.in_(task_nos))
    if kind is not None:
        query = query.where(task_files.c.kind == kind.value)
    ids = list(conn.execute(query).scalars())
    if ids:
        conn.execute(delete(task_file_chunks).where(task_file_chunks.c.file_id.in_(ids)))
        conn.execute(delete(task_files).where(task_files.c.id.in_(ids)))
    return len(ids)
