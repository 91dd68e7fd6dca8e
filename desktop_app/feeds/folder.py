"""A feed's folder as the scan sees it: the files its pattern takes (name, size, time), and a file's
fingerprint (its SHA-256, read once, while its size and time stay what they were)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from desktop_app.domain.errors import BatchDeskError
from desktop_app.domain.feeds import FileState
from desktop_app.feeds.rules import patterns, wanted
from desktop_app.store.db import is_network_path
from desktop_app.store.feeds import Brief
from desktop_app.tasks.file_hash import file_sha256

_HIDDEN = getattr(stat, "FILE_ATTRIBUTE_HIDDEN", 2)


class FolderUnreachable(Exception):
    """The folder is missing, not a folder, unreadable or offline (a share that is away)."""

    def __init__(self, folder: Path, detail: str) -> None:
        super().__init__(f"{folder}: {detail}")
        self.folder = folder
        self.detail = detail


@dataclass(frozen=True)
class Seen:
    """A file in the folder at the moment of the look."""

    name: str
    size: int
    mtime_ns: int


def reachable(folder: Path) -> str | None:
    """None when the folder can be listed, else why not (the OS's words, for the log)."""
    try:
        with os.scandir(folder) as entries:
            next(entries, None)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def look(folder: Path, pats: Iterable[str]) -> dict[str, Seen]:
    """The regular files of the folder (not its subfolders) that the patterns take, by name; hidden
    files, Office's lock files and downloads under way left out. One stat a file: a folder of 10,000
    files is listed in a few tens of milliseconds. FolderUnreachable when it cannot be listed."""
    pats = tuple(pats)
    found: dict[str, Seen] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if not wanted(name, pats):
                    continue
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue  # a folder (imported/, failed/...), a link, a device: never taken
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue  # gone since the listing
                if getattr(info, "st_file_attributes", 0) & _HIDDEN:
                    continue  # hidden on Windows
                found[name] = Seen(name, info.st_size, info.st_mtime_ns)
    except OSError as exc:
        raise FolderUnreachable(folder, exc.strerror or str(exc)) from exc
    return found


def not_taken_yet(folder: Path, pats: Iterable[str], present: Iterable[Brief]) -> int:
    """How many files of the folder a look would take as new, from one listing (nothing read): a name the
    feed has no row of, or a new version of a file it left there (the rows of `present`, oldest first,
    are compared as look() in the scan compares them). FolderUnreachable when it cannot be listed."""
    newest = {row.name: row for row in present}
    count = 0
    for name, seen in look(folder, pats).items():
        row = newest.get(name)
        if row is None or (row.state is FileState.DONE and (seen.size, seen.mtime_ns) != (row.size, row.mtime_ns)):
            count += 1
    return count


class NotReadable(Exception):
    """The file cannot be opened for reading (another program holds it, no permission)."""


def fingerprint(path: Path, size: int, mtime_ns: int) -> str | None:
    """The file's SHA-256 when it is still the version seen (`size`, `mtime_ns`) before and after the read;
    None when it changed meanwhile (it settles again). NotReadable when it cannot be opened or read."""
    try:
        before = path.stat()
    except OSError as exc:
        raise NotReadable(str(exc)) from exc
    if (before.st_size, before.st_mtime_ns) != (size, mtime_ns):
        return None
    try:
        digest = file_sha256(path)
    except BatchDeskError as exc:
        raise NotReadable(str(exc)) from exc
    try:
        after = path.stat()
    except OSError as exc:
        raise NotReadable(str(exc)) from exc
    if (after.st_size, after.st_mtime_ns) != (size, mtime_ns):
        return None
    return digest


@dataclass(frozen=True)
class MatchNow:
    """What a feed with this folder and pattern would take now (the Feeds view's "3 files match now"):
    the names, or why it cannot say (`problem`: "pattern", "network", "unreachable", "empty")."""

    names: tuple[str, ...] = ()
    problem: str | None = None
    detail: str = ""


def matching_now(folder: str, pattern: str) -> MatchNow:
    """The files of a local folder the pattern takes now, by the scan's own rules (look()); a network
    folder is not listed (a share that is away would hold the caller for its time-out), a folder or pattern
    that cannot be used says so."""
    if not folder.strip():
        return MatchNow(problem="empty")
    try:
        pats = patterns(pattern)
    except ValueError as exc:
        return MatchNow(problem="pattern", detail=str(exc))
    path = Path(folder.strip()).expanduser()
    if is_network_path(path):
        return MatchNow(problem="network")
    try:
        found = look(path, pats)
    except FolderUnreachable as exc:
        return MatchNow(problem="unreachable", detail=exc.detail)
    return MatchNow(names=tuple(sorted(found, key=str.casefold)))
