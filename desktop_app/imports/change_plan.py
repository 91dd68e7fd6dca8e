"""A dry run's change plan: every row it would write, kept in a SQLite file and listed in a change CSV.

The one place plans are written and read (README, "Change plan: dry run → apply"). A dry run writes its plan into
``plan.sqlite3`` in its results folder, one transaction per batch; the apply of that plan reads it back a
batch of row numbers at a time (``between``) and writes a row only as it was planned. Unchanged rows are
not stored, only counted: a row number absent from the plan (not a blank line) was planned unchanged.
Each stored row's cells are canonical texts ([before, after]) as the import's bookkeeping keeps them.

A failed row's reasons are stored as codes and parameters, never words: its ``message`` cell holds a JSON list
of its RowErrors (``[{"code", "column", "value", "params"}, ...]``, always starting ``[{``), rendered in the
viewer's language where the plan is shown or written (PlannedRow.reason). A plan written before (issue 28)
holds the dry run's words there ("手机号不能为空 [required_missing]", in ``plan_meta.lang``): read as text and
shown as it is. A plan that keeps codes says so in ``plan_meta`` (``reasons`` = ``"codes"``); nothing else of
the file changed.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.domain.errors import ErrorCode, Lang, message
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.plan_words import PlanWord, plan_word
from desktop_app.domain.values import canonical
from desktop_app.imports.error_csv import BOM, neutralise
from desktop_app.imports.import_type import ImportType, Kind
from desktop_app.imports.row_plans import Action, RowDecider, RowPlan
from desktop_app.imports.validator import RowError
from desktop_app.store.business_rows import BusinessTable, StoredRow

PLAN_FILE = "plan.sqlite3"
ABSENT_ROW = 0  # a sync's table row that the file lacks (imports/sync.ABSENT_ROW)

_SCHEMA = (
    "CREATE TABLE plan_meta (name TEXT PRIMARY KEY, value TEXT)",
    "CREATE TABLE plan_rows (id INTEGER PRIMARY KEY, row INTEGER NOT NULL, key TEXT NOT NULL, "
    "action TEXT NOT NULL, cells TEXT, message TEXT)",
)
# built once the rows are in (a sorted build, cheaper than keeping them up to date row by row)
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS ix_plan_rows_row ON plan_rows (row)",
    "CREATE INDEX IF NOT EXISTS ix_plan_rows_action ON plan_rows (action, row)",
)
_COLUMNS = "row, key, action, cells, message"


def plan_path(results_dir: Path, task_no: str) -> Path:
    """Where a dry run keeps its plan: its results folder, beside summary.json and the error CSV."""
    return results_dir / task_no / PLAN_FILE


def changes_csv_name(task_no: str) -> str:
    """The change file's name, beside the error CSV."""
    return f"{task_no}-changes.csv"


@dataclass(frozen=True, slots=True)
class PlannedCell:
    """One column of a planned row: its canonical text before and after (None: empty, or no row)."""

    column: str
    before: str | None
    after: str | None


@dataclass(frozen=True, slots=True)
class PlannedRow:
    """One row of the plan: its row in the file (0: a table row a sync deletes), key, action and cells."""

    row: int
    key: str
    action: Action
    cells: tuple[PlannedCell, ...] = ()
    message: str = ""  # a failed row's reasons in words: a plan written before they were stored as codes
    errors: tuple[RowError, ...] = ()  # a failed row's reasons as codes and parameters

    def cell(self, column: str) -> PlannedCell | None:
        return next((c for c in self.cells if c.column == column), None)

    @property
    def codes(self) -> tuple[str, ...]:
        """A failed row's error codes, each once (an older plan's: from the end of its text, "… [not_found]")."""
        if self.errors:
            return tuple(dict.fromkeys(e.code.value for e in self.errors))
        text = self.message.rstrip()
        if not text.endswith("]") or "[" not in text:
            return ()
        return tuple(c.strip() for c in text[text.rindex("[") + 1 : -1].split(","))

    def reason(self, itype: ImportType | None, lang: Lang) -> str:
        """A failed row's reasons in ``lang`` (an older plan's text as it is); ``itype`` names the columns."""
        if not self.errors:
            return self.message
        return failure_message(self.errors, itype, lang)


@dataclass(frozen=True, slots=True)
class PlanCounts:
    """How many rows the plan has of each action (unchanged ones included: they are only counted)."""

    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0
    deleted: int = 0
    failed: int = 0

    @property
    def total(self) -> int:
        return self.inserted + self.updated + self.unchanged + self.skipped + self.deleted + self.failed

    def to_json(self) -> dict[str, int]:
        return {"inserted": self.inserted, "updated": self.updated, "unchanged": self.unchanged,
                "skipped": self.skipped, "deleted": self.deleted, "failed": self.failed}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlanCounts:
        return cls(**{name: int(data.get(name) or 0) for name in cls.__slots__})


@dataclass(frozen=True)
class PlanMeta:
    """What the plan is of: the dry run, its file's bytes, its type, mode, profile and scope."""

    task_no: str
    import_type: str
    mode: ImportMode
    file: str
    file_sha256: str | None
    columns: tuple[str, ...]  # the type's column keys, in order
    profile: str | None = None
    profile_version: int | None = None
    scope: Mapping[str, str] = field(default_factory=dict)
    lang: Lang = "zh"  # the dry run's language (an older plan's failed rows' reasons are words in it)
    reasons_as_codes: bool = True  # False: an older plan, its failed rows' reasons words in ``lang``

    def to_values(self) -> dict[str, str]:
        return {
            "task_no": json.dumps(self.task_no),
            "import_type": json.dumps(self.import_type),
            "mode": json.dumps(self.mode.value),
            "file": json.dumps(self.file, ensure_ascii=False),
            "file_sha256": json.dumps(self.file_sha256),
            "columns": json.dumps(list(self.columns)),
            "profile": json.dumps(self.profile, ensure_ascii=False),
            "profile_version": json.dumps(self.profile_version),
            "scope": json.dumps(dict(self.scope), ensure_ascii=False),
            "lang": json.dumps(self.lang),
            **({"reasons": json.dumps("codes")} if self.reasons_as_codes else {}),
        }

    @classmethod
    def from_values(cls, values: Mapping[str, str]) -> PlanMeta:
        get = {name: json.loads(text) for name, text in values.items()}
        version = get.get("profile_version")
        return cls(
            task_no=str(get["task_no"]),
            import_type=str(get["import_type"]),
            mode=ImportMode(get["mode"]),
            file=str(get.get("file") or ""),
            file_sha256=get.get("file_sha256"),
            columns=tuple(get.get("columns") or ()),
            profile=get.get("profile"),
            profile_version=int(version) if version is not None else None,
            scope={str(k): str(v) for k, v in (get.get("scope") or {}).items()},
            lang="en" if get.get("lang") == "en" else "zh",
            reasons_as_codes=get.get("reasons") == "codes",
        )


def _cells_json(cells: Sequence[PlannedCell]) -> str | None:
    if not cells:
        return None
    return json.dumps({c.column: [c.before, c.after] for c in cells}, ensure_ascii=False, separators=(",", ":"))


def _errors_json(errors: Sequence[RowError]) -> str | None:
    """A failed row's errors as the plan keeps them (JSON; a parameter JSON lacks, as its text)."""
    if not errors:
        return None
    listed = [{"code": e.code.value, "column": e.column, "value": e.value, "params": dict(e.params)} for e in errors]
    return json.dumps(listed, ensure_ascii=False, separators=(",", ":"), default=str)


def _errors_of(text: str) -> tuple[RowError, ...] | None:
    """The errors a row's message cell holds, None when it holds words (a plan written before codes were kept)."""
    if not text.startswith("[{"):
        return None
    try:
        listed = json.loads(text)
        return tuple(
            RowError(ErrorCode(e["code"]), e.get("column"), str(e.get("value") or ""), dict(e.get("params") or {}))
            for e in listed
        )
    except (ValueError, TypeError, KeyError, AttributeError):
        return None  # not ours, or a code this version does not know: shown as stored


def _row_of(row: int, key: str, action: str, cells: str | None, stored: str | None) -> PlannedRow:
    parsed: tuple[PlannedCell, ...] = ()
    if cells:
        parsed = tuple(PlannedCell(name, pair[0], pair[1]) for name, pair in json.loads(cells).items())
    text = stored or ""
    errors = _errors_of(text)
    if errors is not None:
        return PlannedRow(row, key, Action(action), parsed, "", errors)
    return PlannedRow(row, key, Action(action), parsed, text)


class PlanWriter:
    """Writes one dry run's plan: a fresh file (a dry run never resumes), one transaction per batch."""

    def __init__(self, path: Path, meta: PlanMeta) -> None:
        self.path = path
        self.meta = meta
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal")):
            old.unlink(missing_ok=True)
        # the dry run's own thread writes it; a bulk path's second thread never does, but the check would
        # refuse a writer made on one thread and finished on another for no gain
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        # No WAL (one file beside the others); no sync per batch: a dry run killed half way is run again
        # from the top, its plan file started afresh; finish() syncs once.
        self._conn.execute("PRAGMA journal_mode=DELETE")
        self._conn.execute("PRAGMA synchronous=OFF")
        with self._transaction():
            for statement in _SCHEMA:
                self._conn.execute(statement)
            self._conn.executemany("INSERT INTO plan_meta (name, value) VALUES (?, ?)", meta.to_values().items())
        self.rows_written = 0

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)

    def add(self, rows: Sequence[PlannedRow]) -> None:
        """One batch's planned rows (not the unchanged ones), in one transaction."""
        if not rows:
            return
        values = [(r.row, r.key, r.action.value, _cells_json(r.cells), _errors_json(r.errors) or r.message or None)
                  for r in rows]  # fmt: skip
        with self._transaction():
            self._conn.executemany(f"INSERT INTO plan_rows ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)", values)
        self.rows_written += len(values)

    def finish(self, counts: PlanCounts) -> None:
        """The counts, the indexes, and the file synced to disk: the plan is complete."""
        self._conn.execute("PRAGMA synchronous=FULL")
        with self._transaction():
            for statement in _INDEXES:
                self._conn.execute(statement)
            self._conn.execute("INSERT OR REPLACE INTO plan_meta (name, value) VALUES ('counts', ?)",
                               (json.dumps(counts.to_json()),))  # fmt: skip
        self.close()

    def close(self) -> None:
        self._conn.close()


class _Transaction:
    """BEGIN ... COMMIT (ROLLBACK on an error) on a connection in autocommit mode."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self._conn.execute("BEGIN")
        return self._conn

    def __exit__(self, kind: object, *_: object) -> None:
        self._conn.execute("ROLLBACK" if kind is not None else "COMMIT")


def _actions_filter(actions: Collection[Action] | None) -> tuple[str, list[str]]:
    if actions is None:
        return "", []
    if not actions:
        return " AND 0", []
    return f" AND action IN ({', '.join('?' * len(actions))})", [a.value for a in actions]


class ChangePlan:
    """A plan read back (read-only): its meta, counts, and rows by action, page or row numbers."""

    def __init__(self, conn: sqlite3.Connection, meta: PlanMeta, counts: PlanCounts | None) -> None:
        self._conn = conn
        self.meta = meta
        self._counts = counts

    @classmethod
    def open(cls, path: Path) -> ChangePlan:
        """The plan at ``path``: FileNotFoundError when there is none, sqlite3.DatabaseError when it is not one."""
        if not path.is_file():
            raise FileNotFoundError(str(path))
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        try:
            values = dict(conn.execute("SELECT name, value FROM plan_meta").fetchall())
            counts = values.pop("counts", None)
            meta = PlanMeta.from_values(values)
        except (sqlite3.DatabaseError, KeyError, ValueError, TypeError):
            conn.close()
            raise
        return cls(conn, meta, PlanCounts.from_json(json.loads(counts)) if counts else None)

    @property
    def finished(self) -> bool:
        """Whether the dry run finished its plan (its counts written): else it stopped half way."""
        return self._counts is not None

    @property
    def counts(self) -> PlanCounts:
        return self._counts or PlanCounts()

    def rows(
        self, actions: Collection[Action] | None = None, offset: int = 0, limit: int | None = None
    ) -> list[PlannedRow]:
        """A page of the planned rows with these actions (None: all), in row order, a sync's row 0 last."""
        where, params = _actions_filter(actions)
        numbered = self._conn.execute(f"SELECT COUNT(*) FROM plan_rows WHERE row > 0{where}", params).fetchone()[0]
        out: list[PlannedRow] = []
        want = -1 if limit is None else limit
        if offset < numbered and want != 0:
            query = f"SELECT {_COLUMNS} FROM plan_rows WHERE row > 0{where} ORDER BY row, id LIMIT ? OFFSET ?"
            out = [_row_of(*r) for r in self._conn.execute(query, [*params, want, offset])]
        if limit is not None and len(out) >= limit:
            return out
        rest = -1 if limit is None else limit - len(out)
        query = f"SELECT {_COLUMNS} FROM plan_rows WHERE row = 0{where} ORDER BY id LIMIT ? OFFSET ?"
        out += [_row_of(*r) for r in self._conn.execute(query, [*params, rest, max(0, offset - numbered)])]
        return out

    def iter_rows(self, actions: Collection[Action] | None = None) -> Iterator[PlannedRow]:
        """Every planned row with these actions, in row order, row 0 last, streamed (never all in memory)."""
        where, params = _actions_filter(actions)
        for zero in (False, True):
            test = "row = 0" if zero else "row > 0"
            order = "id" if zero else "row, id"
            cursor = self._conn.execute(
                f"SELECT {_COLUMNS} FROM plan_rows WHERE {test}{where} ORDER BY {order}", params
            )
            for r in cursor:
                yield _row_of(*r)

    def count(self, actions: Collection[Action] | None = None) -> int:
        """How many stored rows have these actions (unchanged rows are not stored: see counts)."""
        where, params = _actions_filter(actions)
        return int(self._conn.execute(f"SELECT COUNT(*) FROM plan_rows WHERE 1{where}", params).fetchone()[0])

    def between(self, first_row: int, last_row: int) -> dict[int, PlannedRow]:
        """The planned rows of the file's rows first_row..last_row, by row number (an apply's batch)."""
        query = f"SELECT {_COLUMNS} FROM plan_rows WHERE row BETWEEN ? AND ?"
        return {r[0]: _row_of(*r) for r in self._conn.execute(query, (max(first_row, 1), last_row))}

    def absent_deletes(self) -> list[PlannedRow]:
        """A sync's planned rows of the table that its file lacks (row 0): deletes, and deletes that failed."""
        query = f"SELECT {_COLUMNS} FROM plan_rows WHERE row = 0 ORDER BY id"
        return [_row_of(*r) for r in self._conn.execute(query)]

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> ChangePlan:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def write_changes_csv(plan: ChangePlan, path: Path, itype: ImportType, lang: Lang) -> int:
    """The human change file: one line per planned row (unchanged ones are not listed), in row order, a
    sync's deleted table rows at the end with an empty row number; UTF-8 with BOM like the error CSV, every
    cell neutralised against formulas. Written beside and moved into place whole. Returns its lines."""
    columns = plan.meta.columns or itype.keys
    labels = [itype.column(c).label(lang) if c in itype.keys else c for c in columns]
    header = [plan_word(PlanWord.ROW, lang), plan_word(PlanWord.KEY, lang), plan_word(PlanWord.ACTION, lang),
              plan_word(PlanWord.REASON, lang)]  # fmt: skip
    for label in labels:
        header += [plan_word(PlanWord.BEFORE, lang, column=label), plan_word(PlanWord.AFTER, lang, column=label)]
    words = {a: plan_word(a.value, lang) for a in Action}
    position = {c: i for i, c in enumerate(columns)}
    width = 2 * len(columns)
    temp = path.with_name(path.name + ".part")
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = 0
    with temp.open("w", encoding="utf-8", newline="") as handle:
        handle.write(BOM)
        out = csv.writer(handle)
        out.writerow([neutralise(h) for h in header])
        for row in plan.iter_rows():
            cells = [""] * width
            for cell in row.cells:
                at = position.get(cell.column)
                if at is None:
                    continue  # a reference's id column: the clerk reads its name's column
                cells[2 * at] = cell.before or ""
                cells[2 * at + 1] = cell.after or ""
            number = "" if row.row == ABSENT_ROW else str(row.row)
            line = [number, row.key, words[row.action], row.reason(itype, lang), *cells]
            out.writerow([neutralise(c) for c in line])
            lines += 1
    temp.replace(path)
    return lines


# --- a writer's decisions as planned rows ----------------------------------------------------


def reference_ids(itype: ImportType) -> dict[str, str]:
    """Each reference column's id column (the column of the table that holds the referenced row's id)."""
    return {c.key: c.reference_target for c in itype.columns if c.kind == Kind.REFERENCE and c.reference_target}


def planned_insert(plan: RowPlan, decider: RowDecider, ids: Mapping[str, object] | None = None) -> PlannedRow:
    """An insert: every column of the type, [None, after]; with ``ids`` (ReferenceResolver.ids_for of its
    values), the id column of each reference it names, empty where the name is not in the table yet (the row
    waits for it: waits_for_name)."""
    text = decider.written_text
    values = plan.values or ()
    cells = [PlannedCell(c.key, None, text(c.key, v)) for c, v in zip(decider.columns, values, strict=False)]
    for target in reference_ids(decider.itype).values():
        if ids is not None and target in ids:
            cells.append(PlannedCell(target, None, text(target, ids[target])))
    return PlannedRow(plan.source.row_number, plan.key_text, Action.INSERT, tuple(cells))


def waits_for_name(row: PlannedRow, references: Mapping[str, str]) -> bool:
    """An insert that names a reference (``references``: reference_ids) the table lacks: it waits for the name
    to be added. An older plan keeps no id cells: it never says so."""
    if row.action is not Action.INSERT:
        return False
    cells = {c.column: c for c in row.cells}
    for column, target in references.items():
        name, found = cells.get(column), cells.get(target)
        if name is not None and name.after and found is not None and found.after is None:
            return True
    return False


def update_cells(plan: RowPlan, decider: RowDecider, written: Mapping[str, object],
                 ids: Mapping[str, str]) -> tuple[PlannedCell, ...]:  # fmt: skip
    """An update's changed columns [before, after] (a column it writes with the value it has is left out),
    with the id column of each reference column that changes."""
    before = plan.before or {}
    text = decider.written_text
    cells: list[PlannedCell] = []
    for name in plan.changes or {}:
        after = text(name, written.get(name))
        if before.get(name) == after:
            continue
        cells.append(PlannedCell(name, before.get(name), after))
        target = ids.get(name)
        if target is not None and target in written:
            cells.append(PlannedCell(target, before.get(target), text(target, written[target])))
    return tuple(cells)


def planned_update(plan: RowPlan, decider: RowDecider, written: Mapping[str, object],
                   ids: Mapping[str, str]) -> PlannedRow:  # fmt: skip
    """An update: ``written`` the changes as the table takes them (ReferenceResolver.ids_for)."""
    return PlannedRow(plan.source.row_number, plan.key_text, Action.UPDATE, update_cells(plan, decider, written, ids))


def row_cells(table: BusinessTable, stored: StoredRow) -> tuple[PlannedCell, ...]:
    """A stored row whole ([before, None] for each of the table's type columns), a delete's plan."""
    cells = []
    for name in table.columns:
        storage, scale = table.storage_of(name)
        cells.append(PlannedCell(name, canonical(storage, stored.values.get(name), scale), None))
    return tuple(cells)


def planned_delete(row: int, key_text: str, table: BusinessTable, stored: StoredRow | None) -> PlannedRow:
    """A delete: the whole stored row it takes away."""
    return PlannedRow(row, key_text, Action.DELETE, row_cells(table, stored) if stored is not None else ())


def _error_words(error: RowError, itype: ImportType | None, lang: Lang) -> str:
    if itype is not None:
        try:
            return error.message(itype, lang)
        except KeyError:
            pass  # a column the type no longer has: its key names it
    return message(error.code, lang, **{"hint": "", "time": "", **error.params, "column": error.column or ""})


def failure_message(errors: Sequence[RowError], itype: ImportType | None, lang: Lang) -> str:
    """A failed row's reasons in words, then its codes: "手机号不能为空 [required_missing]"."""
    reasons = ("；" if lang == "zh" else "; ").join(_error_words(e, itype, lang) for e in errors)
    codes = ", ".join(dict.fromkeys(e.code.value for e in errors))
    return f"{reasons} [{codes}]" if codes else reasons


def planned_failure(row: int, key_text: str, errors: Sequence[RowError]) -> PlannedRow:
    """A failed row: its errors kept as codes and parameters (words only where the plan is shown)."""
    return PlannedRow(row, key_text, Action.FAIL, (), "", tuple(errors))


def planned_skip(plan: RowPlan) -> PlannedRow:
    return PlannedRow(plan.source.row_number, plan.key_text, Action.SKIP)
