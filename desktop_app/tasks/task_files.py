"""A task's error CSV and change file from any desk of its owner: kept in the shared database when the task
ends, fetched back into the desk's private folder when the local file is not there (Qt-free).

On a desk's own database (SQLite) the local file is all there is. On a shared one the database holds a
copy under the same rules as the task's row (docs/TEAM.md "Error CSVs and change files"): the owner and an
administrator read it, nobody else.
"""

from __future__ import annotations

import hashlib
import logging
import os
from pathlib import Path

from desktop_app.domain.task import TaskRecord
from desktop_app.private import private_file, private_folder
from desktop_app.store import task_files
from desktop_app.store.task_files import FileKind, StoredFile
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.result_paths import is_task_no

log = logging.getLogger(__name__)

FETCHED = "fetched"  # under the data folder: the files fetched from the database (0700, each 0600)


def recorded_path(record: TaskRecord, kind: FileKind) -> str | None:
    """The path the task's row names for its file of that kind (on the desk that ran it)."""
    value = record.error_csv if kind is FileKind.ERRORS else record.summary.get("changes_csv")
    return str(value) if value else None


def keep(store: TaskStore, record: TaskRecord) -> None:
    """Store an ended task's error CSV and change file in a shared database (nothing on SQLite). A failure
    is logged and changes nothing else: the local file is still there."""
    if store.dialect.embedded:
        return
    for kind in FileKind:
        recorded = recorded_path(record, kind)
        if recorded is None:
            continue
        path = Path(recorded)
        try:
            if not path.is_file():
                continue
            stored = task_files.store(store.engine, record.task_no, kind, path, record.creator)
            log.info("[%s] kept the %s file in the database (%d bytes, %d chunks)", record.task_no, kind.value,
                     stored.size, stored.chunks)  # fmt: skip
        except Exception as exc:  # the database's refusal or a lost connection: the local file remains
            log.warning("[%s] could not keep the %s file in the database: %s", record.task_no, kind.value, exc)


def refresh(store: TaskStore, task_no: str) -> None:
    """After a task's file changed once it had ended (a value fix rewrites its import's error CSV): the
    stored copy made again from the file the row names now, or dropped when it names none."""
    if store.dialect.embedded:
        return
    try:
        record = store.get(task_no)
        if record is None:
            return
        if recorded_path(record, FileKind.ERRORS) is None:
            with store.engine.begin() as conn:
                task_files.drop(conn, task_no, FileKind.ERRORS)
        keep(store, record)
    except Exception as exc:
        log.warning("[%s] could not keep the changed file in the database: %s", task_no, exc)


def at_hand(store: TaskStore, record: TaskRecord, kind: FileKind) -> tuple[bool, Path | None]:
    """(True, local_path's answer) when it needs no look in the database (a desk's own database, this desk's
    own file, an expired one); (False, None) when the database must be asked, and maybe a file fetched: the
    window then asks off its GUI thread."""
    if record.summary.get("expired"):
        return True, None
    recorded = recorded_path(record, kind)
    local = Path(recorded) if recorded and Path(recorded).is_file() else None
    if store.dialect.embedded or (local is not None and record.host in (None, host_name())):
        return True, local
    return False, None


def local_path(store: TaskStore, data_dir: Path, record: TaskRecord, kind: FileKind, *,
               strict: bool = False) -> Path | None:  # fmt: skip
    """The path of the task's file of that kind on this desk: the local file when this desk wrote it (a
    clerk's edits to it kept) or it is the one stored, else the stored one fetched into the desk's private
    folder; None when neither exists (an expired file, a task that wrote none, or another's task, whose
    stored file the server does not show). A failure to look or to fetch is logged and answered as the local
    file (None when there is none); with ``strict`` it is raised (the window says it in words)."""
    known, path = at_hand(store, record, kind)
    if known:
        return path
    recorded = recorded_path(record, kind)
    local = Path(recorded) if recorded and Path(recorded).is_file() else None
    try:
        stored = task_files.find(store.engine, record.task_no, kind)
    except Exception as exc:
        log.warning("[%s] could not look for the stored %s file: %s", record.task_no, kind.value, exc)
        if strict and local is None:
            raise
        return local
    if stored is None:
        return local  # a task that ended before files were kept, or whose keeping failed
    if local is not None and _same(local, stored):
        return local
    return _fetched(store, data_dir, stored, strict=strict)


def _same(path: Path, stored: StoredFile) -> bool:
    try:
        if path.stat().st_size != stored.size:
            return False
        return _sha256(path) == stored.sha256
    except OSError:
        return False


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while piece := handle.read(1 << 20):
            digest.update(piece)
    return digest.hexdigest()


def _fetched(store: TaskStore, data_dir: Path, stored: StoredFile, *, strict: bool = False) -> Path | None:
    """The stored file in data/fetched/<task_no>/ (fetched again unless the copy there is the same)."""
    if not is_task_no(stored.task_no):
        return None  # a row's task number names a folder only in BatchDesk's own format
    folder = data_dir / FETCHED
    private_folder(folder)
    private_folder(folder / stored.task_no)
    name = Path(stored.name).name or f"{stored.task_no}-{stored.kind.value}.csv"
    target = folder / stored.task_no / name
    if target.is_file() and _same(target, stored):
        return target
    part = target.with_name(target.name + ".part")
    try:
        part.unlink(missing_ok=True)
        private_file(part)
        with part.open("wb") as out:
            task_files.read_into(store.engine, stored, out)
        os.replace(part, target)
    except Exception as exc:
        part.unlink(missing_ok=True)
        log.warning("[%s] could not fetch the stored %s file: %s", stored.task_no, stored.kind.value, exc)
        if strict:
            raise
        return None
    return target
