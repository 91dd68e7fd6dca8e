"""Moving a feed's file to where its outcome says, never overwriting and never losing it.

Every step can be done again after a crash at any point: the destination is written in the database
before the move (store/feeds.py intend), and move() reads what it finds there:

- the source and the destination are one file (a hard link made, the source not yet unlinked), or the
  destination holds the same bytes (a copy finished, the source not yet deleted): the source goes;
- the destination is missing: the move is done (again);
- the destination holds other bytes (another file took the name meanwhile): TAKEN, the caller writes
  the next free name and moves there.

On one volume a move is a hard link and an unlink (a link never replaces a file; where the file
system has no links, a rename after a look). Across volumes (EXDEV) the file is copied to a hidden
name beside the destination, its size and SHA-256 checked, put in place under its name (never over a
file), and only then is the source deleted. A source that cannot be deleted (held open, no
permission) takes the destination back with it: the file is in exactly one place, still the feed's.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets
import shutil
from enum import StrEnum
from pathlib import Path

from desktop_app.domain.errors import BatchDeskError
from desktop_app.domain.feeds import OUTCOME_FOLDERS, Outcome
from desktop_app.tasks.file_hash import file_sha256

log = logging.getLogger(__name__)

# the OS calls a move makes, by name so a test can make them fail as a share or another volume would
_link = os.link
_rename = os.rename
_unlink = os.unlink

# errors that say "this file system has no hard links" (a FAT drive, some shares): a rename then
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, getattr(errno, "ENOSYS", 38)}
_LOCKED_WINERRORS = {32, 33}  # ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION


class Moved(StrEnum):
    MOVED = "moved"  # the file is at the destination and no longer at the source
    GONE = "gone"  # neither here nor there: someone took the file away
    TAKEN = "taken"  # the destination holds another file: choose the next free name


class MoveFailed(Exception):
    """The file could not be moved; it is still where it was. `reason`: "locked", "denied" or None."""

    def __init__(self, reason: str | None, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def step(point: str) -> None:
    """A named point inside a move ("linked", "copied", "placed"): nothing happens here; the crash tests
    end the process at one to see the next scan finish the move."""


def destination(folder: Path, outcome: Outcome, day: str, name: str, note: str | None) -> tuple[Path, Path | None]:
    """Where a file goes: `<folder>/<imported|failed|duplicates>/<day>/<name>`, and its note beside it as
    `<stem>-<note>` (errors.csv, why.txt, duplicate.txt). A name taken (by the file or by its note) gets
    a number: "bank (2).csv" with "bank (2)-errors.csv"; nothing is overwritten."""
    base = folder / OUTCOME_FOLDERS[outcome] / day
    stem, suffix = _split(name)
    number = 1
    while True:
        candidate = name if number == 1 else f"{stem} ({number}){suffix}"
        target = base / candidate
        companion = base / f"{_split(candidate)[0]}-{note}" if note else None
        if not _exists(target) and (companion is None or not _exists(companion)):
            return target, companion
        number += 1


def _split(name: str) -> tuple[str, str]:
    path = Path(name)
    return (path.stem, path.suffix) if path.stem else (name, "")


def _exists(path: Path) -> bool:
    return os.path.lexists(path)


def move(source: Path, target: Path, *, sha256: str, size: int) -> Moved:
    """Move `source` to `target` (see the module's words); MoveFailed when the file cannot be moved now."""
    there = _exists(target)
    here = _exists(source)
    if there:
        if not _holds(target, sha256, size, source if here else None):
            return Moved.TAKEN if here else Moved.GONE
        if here:  # moved, the source not yet deleted: delete it (or take the destination back)
            _let_go(source, target)
        return Moved.MOVED
    if not here:
        return Moved.GONE
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _failed(exc) from exc
    _clear_parts(target)
    try:
        _link(source, target)
    except FileExistsError:
        return Moved.TAKEN
    except OSError as exc:
        if exc.errno == errno.EXDEV:
            return _copy_move(source, target, sha256=sha256, size=size)
        if exc.errno in _NO_LINKS or getattr(exc, "winerror", None) == 1:  # ERROR_INVALID_FUNCTION
            return _rename_move(source, target)
        raise _failed(exc) from exc
    step("linked")
    _let_go(source, target)
    return Moved.MOVED


def _holds(target: Path, sha256: str, size: int, source: Path | None) -> bool:
    """Whether the destination is this file: the same file as the source (a hard link), or its bytes."""
    try:
        if source is not None and os.path.samefile(source, target):
            return True
        if target.stat().st_size != size:
            return False
        return file_sha256(target) == sha256
    except (OSError, BatchDeskError):
        return False


def _let_go(source: Path, target: Path) -> None:
    """The source deleted now that the destination holds the file; when it cannot be (held open, no
    permission), the destination goes instead and the file stays the feed's, where it was."""
    try:
        _unlink(source)
    except FileNotFoundError:
        return
    except OSError as exc:
        with contextlib.suppress(OSError):
            _unlink(target)
        raise _failed(exc) from exc


def _rename_move(source: Path, target: Path) -> Moved:
    """A move where the file system has no hard links: a rename, after a look that the name is free
    (Windows' rename never replaces a file; elsewhere the look and the rename are a moment apart)."""
    if _exists(target):
        return Moved.TAKEN
    try:
        _rename(source, target)
    except FileExistsError:
        return Moved.TAKEN
    except OSError as exc:
        raise _failed(exc) from exc
    return Moved.MOVED


def _copy_move(source: Path, target: Path, *, sha256: str, size: int) -> Moved:
    """Across volumes: copy to a hidden name beside the destination, check size and SHA-256, put it in
    place under its name, then delete the source."""
    part = _part_name(target)
    try:
        with source.open("rb") as src, part.open("xb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
            dst.flush()
            os.fsync(dst.fileno())
        shutil.copystat(source, part)
    except OSError as exc:
        with contextlib.suppress(OSError):
            _unlink(part)
        raise _failed(exc) from exc
    if part.stat().st_size != size or file_sha256(part) != sha256:
        with contextlib.suppress(OSError):
            _unlink(part)
        raise MoveFailed(None, f"the copy of {source} to {target} differs from the file")
    step("copied")
    placed = _place(part, target)
    if not placed:
        return Moved.TAKEN
    step("placed")
    _let_go(source, target)
    return Moved.MOVED


def _part_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")


def _clear_parts(target: Path) -> None:
    """Hidden copies an interrupted move left beside the destination."""
    with contextlib.suppress(OSError):
        for leftover in target.parent.glob(f".{_glob_escape(target.name)}.*.part"):
            with contextlib.suppress(OSError):
                _unlink(leftover)


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _place(part: Path, target: Path) -> bool:
    """A whole file under a hidden name put in place under its own, never over another file: False
    when the name was taken (the hidden copy is removed)."""
    try:
        _link(part, target)
    except FileExistsError:
        with contextlib.suppress(OSError):
            _unlink(part)
        return False
    except OSError as exc:
        if exc.errno not in _NO_LINKS and getattr(exc, "winerror", None) != 1:
            with contextlib.suppress(OSError):
                _unlink(part)
            raise _failed(exc) from exc
        if _exists(target):
            with contextlib.suppress(OSError):
                _unlink(part)
            return False
        try:
            _rename(part, target)
        except OSError as exc2:
            with contextlib.suppress(OSError):
                _unlink(part)
            if isinstance(exc2, FileExistsError):
                return False
            raise _failed(exc2) from exc2
        return True
    with contextlib.suppress(OSError):
        _unlink(part)
    return True


def place_note(target: Path, *, text: str | None = None, copy_of: Path | None = None) -> bool:
    """A note beside a moved file (its error CSV copied, or a few lines of text), written whole under a
    hidden name and put in place; one already there (an earlier try's) is kept. False when the note
    could not be written (logged: the file is moved all the same)."""
    if _exists(target):
        return True
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        part = _part_name(target)
        if copy_of is not None:
            shutil.copyfile(copy_of, part)
        else:
            part.write_text(text or "", encoding="utf-8-sig")
        return _place(part, target) or _exists(target)
    except (OSError, MoveFailed) as exc:
        log.warning("could not write %s: %s", target, exc)
        return False


def _failed(exc: OSError) -> MoveFailed:
    if getattr(exc, "winerror", None) in _LOCKED_WINERRORS or exc.errno in (errno.EBUSY, errno.ETXTBSY):
        return MoveFailed("locked", str(exc))
    if isinstance(exc, PermissionError) or exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return MoveFailed("denied", str(exc))
    return MoveFailed(None, str(exc))
