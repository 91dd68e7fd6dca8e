"""Where import types come from: the built-in folder and the data folder's import_types/, each file
with its problem, if any; a broken file is listed and never blocks the others."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.imports.import_type import ImportType, ImportTypeError
from desktop_app.imports.type_parser import load_file

log = logging.getLogger(__name__)

USER_TYPES_FOLDER = "import_types"


class TypeSource(StrEnum):
    BUILTIN = "builtin"
    USER = "user"


@dataclass(frozen=True)
class TypeEntry:
    """One import type file: the type when it loads, else the problem that keeps it from running."""

    name: str
    source: TypeSource
    path: Path
    import_type: ImportType | None
    problem: str | None

    @property
    def ok(self) -> bool:
        return self.import_type is not None and self.problem is None


def user_types_dir(data_dir: Path) -> Path:
    return data_dir / USER_TYPES_FOLDER


def default_catalog(data_dir: Path) -> TypeCatalog:
    """The built-in types and the data folder's own (import_types/ inside it)."""
    from desktop_app.imports.import_type import builtin_import_types_dir

    return TypeCatalog(builtin_import_types_dir(), user_types_dir(data_dir))


class TypeCatalog:
    """The import types this desk knows, read again when a file changes (a clerk's administrator
    drops a new type into the folder while the window is open; a type edited between queueing and
    running is checked as it is when the task runs)."""

    def __init__(self, builtin_dir: Path, user_dir: Path | None = None) -> None:
        self.builtin_dir = builtin_dir
        self.user_dir = user_dir
        self._lock = threading.Lock()
        self._stamp: tuple[tuple[str, int, int], ...] | None = None
        self._entries: list[TypeEntry] = []

    @classmethod
    def of(cls, types: dict[str, ImportType]) -> TypeCatalog:
        """A fixed catalog of already loaded types (tests, tools)."""
        catalog = cls(Path("."), None)
        catalog._stamp = ()
        catalog._entries = [TypeEntry(t.name, TypeSource.BUILTIN, t.source_path, t, None) for t in types.values()]
        catalog._fixed = True
        return catalog

    _fixed = False

    def entries(self) -> list[TypeEntry]:
        """Every type file, built-in first, then the user's, each by name."""
        with self._lock:
            if not self._fixed:
                stamp = self._files_stamp()
                if stamp != self._stamp:
                    self._entries = self._load()
                    self._stamp = stamp
            return list(self._entries)

    def types(self) -> dict[str, ImportType]:
        """The types that load (a type whose table has a problem is still here: see type_schema)."""
        return {e.name: e.import_type for e in self.entries() if e.import_type is not None and e.problem is None}

    def entry(self, name: str) -> TypeEntry | None:
        return next((e for e in self.entries() if e.name == name), None)

    def get(self, name: str) -> ImportType:
        """The type by name; PermanentError unknown_import_type, or import_type_invalid with its problem."""
        entry = self.entry(name)
        if entry is None:
            raise PermanentError(ErrorCode.UNKNOWN_IMPORT_TYPE, import_type=name,
                                 available=", ".join(sorted(self.types())))  # fmt: skip
        if entry.import_type is None or entry.problem:
            raise PermanentError(ErrorCode.IMPORT_TYPE_INVALID, import_type=name, problem=entry.problem)
        return entry.import_type

    def __contains__(self, name: object) -> bool:
        return any(e.name == name for e in self.entries())

    # --- loading -------------------------------------------------------------------------

    def _folders(self) -> list[tuple[TypeSource, Path]]:
        folders = [(TypeSource.BUILTIN, self.builtin_dir)]
        if self.user_dir is not None:
            folders.append((TypeSource.USER, self.user_dir))
        return folders

    def _files(self) -> list[tuple[TypeSource, Path]]:
        found = []
        for source, folder in self._folders():
            try:
                found += [(source, p) for p in sorted(folder.glob("*.toml")) if p.is_file()]
            except OSError:
                continue
        return found

    def _files_stamp(self) -> tuple[tuple[str, int, int], ...]:
        stamp = []
        for _source, path in self._files():
            try:
                st = path.stat()
            except OSError:
                continue
            stamp.append((str(path), st.st_mtime_ns, st.st_size))
        return tuple(stamp)

    def _load(self) -> list[TypeEntry]:
        entries: list[TypeEntry] = []
        by_name: dict[str, TypeEntry] = {}
        for source, path in self._files():
            try:
                itype = load_file(path)
            except ImportTypeError as exc:
                log.warning("import type file %s has a problem: %s", path, exc)
                entries.append(TypeEntry(path.stem, source, path, None, str(exc)))
                continue
            earlier = by_name.get(itype.name)
            if earlier is not None:
                problem = f"{path}: import type name {itype.name!r} is already declared by {earlier.path}"
                log.warning("%s", problem)
                entries.append(TypeEntry(itype.name + f" ({path.name})", source, path, None, problem))
                continue
            entry = TypeEntry(itype.name, source, path, itype, None)
            by_name[itype.name] = entry
            entries.append(entry)
        return entries
