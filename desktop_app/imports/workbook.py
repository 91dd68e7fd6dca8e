"""A workbook of several tables: which import type each sheet is, and the order their imports run in.

A sheet is its type's when the clerk says so (``--sheet-type SHEET=TYPE``), else when its name is the
type's name or title (Chinese or English; trimmed, width- and case-folded), else when its header maps to
exactly one type with every required column there (the header matching a single-sheet import uses). A
sheet several types fit, or none, is skipped with its reason: never guessed. The matched sheets run one
after another, a type whose reference column looks up another type's table after that type; otherwise
(and within a cycle) in the book's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, Lang, PermanentError, message
from desktop_app.imports.header import map_header
from desktop_app.imports.import_type import ImportType, Kind, fold_header


class MatchedBy(StrEnum):
    """How a sheet got its type."""

    GIVEN = "given"  # --sheet-type SHEET=TYPE
    NAME = "name"  # the sheet's name is the type's name or title
    HEADER = "header"  # its header maps to the type, every required column there


class Skip(StrEnum):
    """Why a sheet was skipped (the reason of ErrorCode.WORKBOOK_SHEET_SKIPPED)."""

    NO_MATCH = "no_match"
    AMBIGUOUS = "ambiguous"  # its header fits several types
    AMBIGUOUS_NAME = "ambiguous_name"  # its name is several types' name or title
    EMPTY = "empty"  # no header


@dataclass(frozen=True)
class SheetPlan:
    """One sheet of a workbook: its type and how it got it, or why it was skipped. ``position``: its place in
    the book (0 first); ``candidates``: the types that fit it when it is ambiguous."""

    sheet: str
    position: int
    import_type: str | None = None
    matched_by: MatchedBy | None = None
    skipped: Skip | None = None
    candidates: tuple[str, ...] = ()

    def to_params(self) -> dict[str, Any]:
        return {"sheet": self.sheet, "position": self.position, "import_type": self.import_type,
                "matched_by": self.matched_by.value if self.matched_by else None,
                "skipped": self.skipped.value if self.skipped else None,
                "candidates": list(self.candidates)}  # fmt: skip

    @classmethod
    def from_params(cls, data: Mapping[str, Any]) -> SheetPlan:
        by, skipped = data.get("matched_by"), data.get("skipped")
        return cls(sheet=str(data["sheet"]), position=int(data.get("position") or 0),
                   import_type=data.get("import_type"), matched_by=MatchedBy(by) if by else None,
                   skipped=Skip(skipped) if skipped else None,
                   candidates=tuple(str(c) for c in data.get("candidates") or ()))  # fmt: skip

    def reason_text(self, lang: Lang) -> str | None:
        """Why it was skipped, in words; None for a matched sheet."""
        if self.skipped is None:
            return None
        return message(ErrorCode.WORKBOOK_SHEET_SKIPPED, lang, reason=self.skipped.value, sheet=self.sheet,
                       types=", ".join(self.candidates))  # fmt: skip


def _folded(text: str) -> str:
    return fold_header(text)


def given_types(items: Sequence[str]) -> dict[str, str]:
    """--sheet-type's SHEET=TYPE items as {sheet: type} (a sheet named twice: WORKBOOK_OPTIONS)."""
    given: dict[str, str] = {}
    for item in items:
        sheet, _, type_name = item.rpartition("=")
        sheet, type_name = sheet.strip(), type_name.strip()
        if any(_folded(sheet) == _folded(s) for s in given):
            raise PermanentError(ErrorCode.WORKBOOK_OPTIONS, reason="sheet_twice", sheet=sheet)
        given[sheet] = type_name
    return given


def match_sheets(
    file: Path,
    sheets: Sequence[str],
    header_of: Callable[[str], Sequence[str]],
    types: Mapping[str, ImportType],
    given: Mapping[str, str] | None = None,
) -> list[SheetPlan]:
    """Each sheet's plan, in the book's order. ``header_of``: a sheet's header row (read only for a sheet
    neither given nor named after a type); ``given``: --sheet-type's {sheet: type}, each sheet one of the
    book's (WORKBOOK_UNKNOWN_SHEET) and each type one of ``types`` (UNKNOWN_IMPORT_TYPE)."""
    by_folded = {_folded(s): s for s in sheets}
    chosen: dict[str, str] = {}
    for sheet, type_name in (given or {}).items():
        found = by_folded.get(_folded(sheet))
        if found is None:
            raise PermanentError(ErrorCode.WORKBOOK_UNKNOWN_SHEET, file=file.name, sheet=sheet,
                                 sheets=", ".join(sheets))  # fmt: skip
        if type_name not in types:
            raise PermanentError(ErrorCode.UNKNOWN_IMPORT_TYPE, import_type=type_name,
                                 available=", ".join(sorted(types)))  # fmt: skip
        chosen[found] = type_name
    plans = []
    for position, sheet in enumerate(sheets):
        if sheet in chosen:
            plans.append(SheetPlan(sheet, position, chosen[sheet], MatchedBy.GIVEN))
            continue
        named = sorted(name for name, t in types.items()
                       if _folded(sheet) in {_folded(name), _folded(t.title_zh), _folded(t.title_en)})  # fmt: skip
        if len(named) == 1:
            plans.append(SheetPlan(sheet, position, named[0], MatchedBy.NAME))
            continue
        if named:
            plans.append(SheetPlan(sheet, position, skipped=Skip.AMBIGUOUS_NAME, candidates=tuple(named)))
            continue
        plans.append(_by_header(sheet, position, header_of(sheet), types))
    return plans


def _by_header(sheet: str, position: int, header: Sequence[str], types: Mapping[str, ImportType]) -> SheetPlan:
    if not any(str(h or "").strip() for h in header):
        return SheetPlan(sheet, position, skipped=Skip.EMPTY)
    fits = sorted(name for name, t in types.items() if header_fits(t, header))
    if len(fits) == 1:
        return SheetPlan(sheet, position, fits[0], MatchedBy.HEADER)
    if fits:
        return SheetPlan(sheet, position, skipped=Skip.AMBIGUOUS, candidates=tuple(fits))
    return SheetPlan(sheet, position, skipped=Skip.NO_MATCH)


def header_fits(itype: ImportType, header: Sequence[str]) -> bool:
    """Whether a header maps to the type as a single-sheet import maps it, every required column there (and
    at least one column of the type: a type with no required column does not fit every header)."""
    mapping = map_header(itype, [str(h) if h is not None else "" for h in header])
    return mapping.ok and bool(mapping.index_by_key)


def run_order(plans: Sequence[SheetPlan], types: Mapping[str, ImportType]) -> list[SheetPlan]:
    """The matched sheets in the order their imports run: a sheet whose type has a reference column looking
    up another matched sheet's table after that sheet; otherwise the book's order. Sheets in a cycle of
    references go in the book's order (the cycle's first sheet in the book first)."""
    matched = sorted((p for p in plans if p.import_type), key=lambda p: p.position)
    tables = {p.position: _table(types[str(p.import_type)]) for p in matched}
    needs: dict[int, set[int]] = {}
    for p in matched:
        looked_up = {_folded(str(c.reference_table).rsplit(".", 1)[-1]) for c in types[str(p.import_type)].columns
                     if c.kind == Kind.REFERENCE and c.reference_table}  # fmt: skip
        needs[p.position] = {q.position for q in matched if q.position != p.position and tables[q.position] in looked_up
                             and tables[q.position] != tables[p.position]}  # fmt: skip
    left = list(matched)
    ordered: list[SheetPlan] = []
    while left:
        waiting = {p.position for p in left}
        ready = [p for p in left if not (needs[p.position] & waiting)]
        # none ready: a cycle; its first sheet in the book goes first (a sheet that only waits for a cycle waits)
        chosen = ready[0] if ready else next((p for p in left if _in_cycle(p.position, needs, waiting)), left[0])
        ordered.append(chosen)
        left.remove(chosen)
    return ordered


def _in_cycle(start: int, needs: Mapping[int, set[int]], waiting: set[int]) -> bool:
    """Whether a sheet waits, through the sheets still waiting, for itself."""
    seen: set[int] = set()
    todo = [n for n in needs[start] if n in waiting]
    while todo:
        n = todo.pop()
        if n == start:
            return True
        if n not in seen:
            seen.add(n)
            todo.extend(m for m in needs[n] if m in waiting)
    return False


def _table(itype: ImportType) -> str:
    """The table a type writes, as a reference names it (a schema-qualified name by its last part too)."""
    return _folded(itype.table.rsplit(".", 1)[-1])
