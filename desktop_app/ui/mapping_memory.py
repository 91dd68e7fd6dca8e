"""Header mappings a clerk adjusted, remembered per import type and header set (a JSON file)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path

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
