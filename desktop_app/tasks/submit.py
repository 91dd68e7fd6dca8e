"""Submitting a file: its content hash makes the idempotency key; runs off any GUI thread."""

from __future__ import annotations

import getpass
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.task import SubmitResult
from desktop_app.store.db import is_network_path
from desktop_app.store.tasks import TaskStore
from desktop_app.tasks.file_hash import content_sha256
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.registry import HandlerRegistry


@dataclass(frozen=True)
class FileFacts:
    """A file's SHA-256 and the size and time it had when it was read."""

    sha256: str
    size: int
    mtime_ns: int


def current_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name (some services and containers)
        return "unknown"


def biz_key(content_hash: str, user: str, kind: str) -> str:
    """Content hash + user + type (seed 000 §2.3), folded to one fixed-length key."""
    return hashlib.sha256(f"{content_hash}\0{user}\0{kind}".encode()).hexdigest()


def submit_file(
    store: TaskStore,
    registry: HandlerRegistry,
    *,
    task_type: str,
    path: Path,
    user: str,
    params: dict[str, Any],
    force: bool = False,
    identity: str | None = None,
    known: FileFacts | None = None,
) -> SubmitResult:
    """Queue a file task. The same bytes from the same user for the same kind of task give one task;
    ``identity`` names that kind (default: the task type and its import type). ``known``: the file's
    SHA-256 read already (a feed's fingerprint), taken when its size and time are still those it was
    read at, else read again."""
    handler = registry.get(task_type)
    path = path.expanduser().resolve()
    if not path.exists():
        raise PermanentError(ErrorCode.FILE_NOT_FOUND, path=str(path))
    if not path.is_file():
        raise PermanentError(ErrorCode.FILE_UNREADABLE, path=str(path))
    stat = path.stat()
    if known is not None and (stat.st_size, stat.st_mtime_ns) == (known.size, known.mtime_ns):
        content_hash = known.sha256
    else:
        content_hash = content_sha256(path)
        stat = path.stat()
    kind = (identity or task_type + ":" + str(params.get("import_type", ""))) + (
        ":dry-run" if params.get("dry_run") else ""
    )
    full = {
        **params,
        "file": str(path),
        "file_sha256": content_hash,
        "file_size": stat.st_size,
        "file_mtime_ns": stat.st_mtime_ns,
    }
    return store.submit(
        task_type=task_type,
        params=full,
        creator=user,
        lane=handler.lane,
        biz_key=biz_key(content_hash, user, kind),
        force=force,
        # A validation-only run commits nothing, so running it again is never "importing twice".
        refuse_if_committed=not params.get("dry_run"),
        # The file is on this desk (and so will its results be): on a shared database only this desk
        # runs it, unless the file sits on a network share every desk can read.
        host=None if is_network_path(path.parent) else host_name(),
    )
