"""Header mappings a clerk adjusted, remembered per import type and header set (a JSON file).

Kept for the carry-over only (issue 25): the preview now applies mapping profiles, shared by the desks
of a database; on the first start after that change :func:`carry_over` saves each remembered mapping
once as a profile ("Remembered: customers 1"), and the window records in its settings that it did.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from types import MappingProxyType

from desktop_app.domain.errors import BatchDeskError
from desktop_app.domain.profiles import Profile, ProfileVersion
from desktop_app.store.profiles import name_key

log = logging.getLogger(__name__)

FILE_NAME = "header_mappings.json"


def header_key(header: Sequence[str]) -> str:
    """The same set of headers, in any order, gives the same key."""
    texts = sorted({h.replace("\ufeff", "").strip().casefold() for h in header if h and h.strip()})
    return hashlib.sha1("\x1f".join(texts).encode("utf-8")).hexdigest()[:16]


class MappingMemory:
    """{import type: {header key: {header text: column key or ""}}} in the data dir."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_dir(cls, data_dir: Path) -> MappingMemory:
        return cls(data_dir / FILE_NAME)

    def _read(self) -> dict[str, dict[str, dict[str, str]]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable %s: %s", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def recall(self, import_type: str, header: Sequence[str]) -> dict[str, str]:
        entry = self._read().get(import_type, {}).get(header_key(header), {})
        return {str(k): str(v) for k, v in entry.items()} if isinstance(entry, dict) else {}

    def remember(self, import_type: str, header: Sequence[str], overrides: dict[str, str]) -> None:
        data = self._read()
        per_type = data.setdefault(import_type, {})
        key = header_key(header)
        if overrides:
            per_type[key] = dict(overrides)
        else:
            per_type.pop(key, None)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(self.path)


REMEMBERED_NAME = "Remembered: {type} {n}"


def carry_over(
    memory: MappingMemory, save: Callable[[str, Profile], ProfileVersion], taken: Collection[str]
) -> list[ProfileVersion]:
    """Save each remembered mapping as a profile of its import type, named "Remembered: TYPE N" with the
    first N no profile has (``taken``: the names already in the database, removed ones too, so another
    desk's carry-over is never given a version of ours). A mapping its type no longer accepts (a column
    taken out of the type, a type removed) is left out, and logged. Asks the database: not for the GUI
    thread."""
    used = {name_key(n) for n in taken}
    saved: list[ProfileVersion] = []
    for import_type, entries in sorted(memory._read().items()):
        if not isinstance(entries, dict):
            continue
        n = 0
        for overrides in entries.values():
            if not isinstance(overrides, dict) or not overrides:
                continue
            n += 1
            while name_key(name := REMEMBERED_NAME.format(type=import_type, n=n)) in used:
                n += 1
            columns = {str(h): str(k) for h, k in overrides.items()}
            try:
                version = save(name, Profile(import_type=str(import_type), columns=MappingProxyType(columns)))
            except BatchDeskError as exc:
                log.warning("a remembered mapping of %s was not carried over: %s", import_type, exc)
                continue
            used.add(name_key(name))
            saved.append(version)
    return saved
