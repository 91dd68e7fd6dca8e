"""Business tables from import types: created when first needed, grown safely, checked when not ours.

BatchDesk's own tables (tasks, the bookkeeping) are under Alembic; a business table is described by
its import type (a :class:`TableSpec`). A table BatchDesk created is *managed* (listed in
``business_tables``): a column a later version of the type declares is added to it (nullable, with
the type's default, which the rows already there get), a text column grows on the servers. A
company's own table is only checked: each column must be there and hold what the type writes, a NOT
NULL column must be filled, the key must be unique. Anything that cannot be applied safely (a type
change, a new unique key, a shorter text than the stored data holds...) is a *problem*, in words that
name the file and the column; a type with a problem is never run.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine, inspect
from sqlalchemy.dialects import sqlite

from desktop_app.domain.table_spec import Storage, StoredColumn, TableSpec
from desktop_app.store.db_errors import is_missing_or_forbidden, is_missing_table
from desktop_app.store.dialects import Dialect, dialect_of
from desktop_app.store.schema import business_tables, metadata

log = logging.getLogger(__name__)

Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
# SQLite keeps a datetime as text: the bulk inserts write 'YYYY-MM-DD HH:MM:SS' (values.canonical), so
# every look-up, update, delete and filter must bind that text too, not SQLAlchemy's '.000000' form.
Stamp = sa.DateTime().with_variant(sqlite.DATETIME(truncate_microseconds=True), "sqlite")
# The columns a managed table keeps for BatchDesk: who inserted the row, from which row of the file,
# and a signature of what it wrote (an undo tells by it whether the row changed since). BatchDesk
# never adds "id" to a table (a company's own may have one; customers lost its own in 0006).
BOOKKEEPING: tuple[StoredColumn, ...] = (
    StoredColumn("task_no", Storage.TEXT, length=32),
    StoredColumn("import_row", Storage.INTEGER),
    StoredColumn("import_sig", Storage.TEXT, length=16),
)
# BatchDesk's own tables are never a type's target (the seeded departments table may be: it is a
# reference table a clerk may fill; customers is the built-in type's own).
RESERVED_TABLES = frozenset(name for name in metadata.tables if name not in ("customers", "departments"))
INTEGER_RANGES = {"small": (-(2**15), 2**15 - 1), "int": (-(2**31), 2**31 - 1), "big": (-(2**63), 2**63 - 1)}


@dataclass(frozen=True)
class SchemaPlan:
    """What making a type's table ready takes: nothing, a creation, added or widened columns; or why not."""

    spec: TableSpec
    exists: bool
    managed: bool
    create: bool = False
    add: tuple[StoredColumn, ...] = ()
    widen: tuple[StoredColumn, ...] = ()
    relax: tuple[StoredColumn, ...] = ()  # NOT NULL columns the type now makes optional (ours only)
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def problem(self) -> str | None:
        """The problems as one line (None when there is none)."""
        return "; ".join(self.problems) if self.problems else None

    @property
    def changes(self) -> bool:
        return self.create or bool(self.add) or bool(self.widen) or bool(self.relax)


def sa_type(col: StoredColumn) -> Any:
    """The SQLAlchemy type a column is created with (and read through)."""
    storage = col.storage
    if storage is Storage.TEXT:
        return sa.String(col.length) if col.length is not None else sa.Text()
    if storage is Storage.INTEGER:
        return sa.BigInteger() if col.name != "import_row" else sa.Integer()
    if storage is Storage.DECIMAL:
        return sa.Numeric(col.precision, col.scale)
    if storage is Storage.DATE:
        return sa.Date()
    if storage is Storage.DATETIME:
        return Stamp
    if storage is Storage.BOOLEAN:
        return sa.Boolean(create_constraint=False)
    return Id


def server_default(col: StoredColumn) -> str | None:
    """The default as a literal every back-end casts to the column's type ('1'/'0' for booleans)."""
    if col.default is None:
        return None
    return col.default  # canonical text: '1'/'0' for booleans, ISO dates


def table_object(spec: TableSpec, *, managed: bool) -> sa.Table:
    """The table as SQLAlchemy Core sees it: the type's columns (typed, so values come back as Python
    values on every back-end), the bookkeeping columns when the table is ours."""
    meta = sa.MetaData(schema=spec.schema)
    columns: list[sa.Column[Any]] = []
    for col in spec.columns:
        columns.append(
            sa.Column(
                col.name,
                sa_type(col),
                nullable=not (col.required or col.name in spec.key),
                server_default=server_default(col),
            )
        )
    if managed:
        columns += [sa.Column(c.name, sa_type(c), nullable=True) for c in BOOKKEEPING]
    args: list[Any] = [*columns]
    if managed:
        # The unique key is the only index: no surrogate id, no index on task_no (migration 0006 says
        # why); a bulk load then costs what the database's own loader costs.
        args.append(sa.UniqueConstraint(*spec.key, name=_name("uq", spec)))
    # Our own tables compare text exactly on MySQL too (utf8mb4_bin), as on SQLite and PostgreSQL: a key
    # "abc" and a key "ABC" are two rows everywhere (customers, made by migration 0001, keeps its collation).
    return sa.Table(spec.table, meta, *args, mysql_charset="utf8mb4", mysql_collate="utf8mb4_bin")


def _name(prefix: str, spec: TableSpec) -> str:
    # Constraint names are per schema on PostgreSQL: make them unique and short (63 characters).
    return f"{prefix}_{spec.table[:40]}_{zlib.crc32(spec.name.encode()):08x}"


# --- planning ------------------------------------------------------------------------------------


def plan_table(engine: Engine | Connection, spec: TableSpec, *, reading: bool = False) -> SchemaPlan:
    """Look at the database and say what the type's table needs; never changes anything. `reading` (an
    export): stored values longer than a narrowed max_length are no problem, since only a write must fit
    the type, so the table is not scanned for them (0.27 s of each export of a million rows on SQLite,
    twice: when it is queued and when it runs)."""
    if spec.table in RESERVED_TABLES and spec.schema is None:
        problem = f"{spec.source}: table {spec.name!r} is one of BatchDesk's own tables"
        return SchemaPlan(spec, exists=True, managed=False, problems=(problem,))
    with _connection(engine) as conn:
        insp = inspect(conn)
        dialect = dialect_of(conn)
        exists = insp.has_table(spec.table, schema=spec.schema)
        problems = _reference_problems(insp, spec)
        problems += dialect.spec_problems(spec)
        if not exists:
            if not spec.create:
                problems.insert(
                    0, f"{spec.source}: the table {spec.name!r} does not exist (the type says create = false)"
                )
            return SchemaPlan(spec, exists=False, managed=False, create=spec.create, problems=tuple(problems))
        managed, bounds = _registered(conn, spec)
        reflected = {c["name"]: c for c in insp.get_columns(spec.table, schema=spec.schema)}
        add: list[StoredColumn] = []
        widen: list[StoredColumn] = []
        longest = _Longest(conn, spec, reflected, dialect, scan=not reading, known=bounds) if managed else None
        for col in spec.columns:
            found = reflected.get(col.name)
            if found is None:
                if managed:
                    add.append(col)
                else:
                    problems.append(f"{spec.source}: column {col.name!r}: the table {spec.name!r} has no such column")
                continue
            column_problem, grow = _compare(col, found, longest, dialect=dialect)
            if column_problem:
                problems.append(f"{spec.source}: column {col.name!r}: {column_problem}")
            elif grow:
                widen.append(col)
        if managed:
            add += [c for c in BOOKKEEPING if c.name not in reflected]
        not_null, relax = _not_null_problems(insp, spec, reflected, managed=managed)
        problems += not_null
        if not _key_is_unique(insp, spec):
            what = "a new unique key cannot be applied to the existing table" if managed else "it is not unique"
            problems.append(
                f"{spec.source}: unique_key {list(spec.key)}: {what} (the table has no unique index on exactly "
                "these columns)"
            )
    return SchemaPlan(spec, exists=True, managed=managed, add=tuple(add), widen=tuple(widen), relax=tuple(relax),
                      problems=tuple(problems))  # fmt: skip


def _may_exceed(col: StoredColumn, found: Any, dialect: Dialect) -> bool:
    """A stored text column whose values the table does not bound to the type's max_length."""
    if (
        col.storage is not Storage.TEXT
        or col.length is None
        or found is None
        or not isinstance(found["type"], sa.String)
    ):
        return False
    have = dialect.text_bound(found["type"])
    return have is None or have > col.length


class _Longest:
    """The longest stored value of each text column whose type's max_length the table may not bound: the
    registry's bound where it is within the max_length (text_bounds: no stored value is longer), else all
    read by one scan of the table, on first use (a scan per column cost a second or more each at a
    million rows, on every import and export; the one scan 0.2 s at a million rows, twice an import)."""

    def __init__(self, conn: Connection, spec: TableSpec, reflected: dict[str, Any], dialect: Dialect, *,
                 scan: bool = True, known: dict[str, int] | None = None) -> None:  # fmt: skip
        self._conn, self._spec, self._dialect = conn, spec, dialect
        self._known = known or {}
        self._names = [col.name for col in spec.columns if _may_exceed(col, reflected.get(col.name), dialect)
                       and not self._knows(col.name, col.length)]  # fmt: skip
        self._found: dict[str, int | None] | None = None
        self._scan_table = scan  # False: nothing is known of the stored values (a plan for reading)

    def _knows(self, name: str, length: int | None) -> bool:
        bound = self._known.get(name)
        return bound is not None and length is not None and bound <= length

    def of(self, name: str, length: int) -> int | None:
        """The longest stored value of the column (None: no value), or a bound on it within `length`."""
        if not self._scan_table:
            return None
        if self._knows(name, length):
            return self._known[name]
        if name not in self._names:  # a column of another type the table still stores texts in
            return self._scan([name])[name]
        if self._found is None:
            self._found = self._scan(self._names)
        return self._found[name]

    def _scan(self, names: list[str]) -> dict[str, int | None]:
        length = self._dialect.char_length
        maxima = sa.select(*(sa.func.max(length(sa.column(n))) for n in names)).select_from(_lightweight(self._spec))
        row = self._conn.execute(maxima).one()
        return {n: None if v is None else int(v) for n, v in zip(names, row, strict=True)}


def _compare(col: StoredColumn, found: Any, longest: _Longest | None, *, dialect: Dialect) -> tuple[str | None, bool]:
    """(problem, needs widening) for a column that exists; ``longest`` is None for a table not ours."""
    managed = longest is not None
    stored = found["type"]
    kind = col.storage
    if not _compatible(kind, stored, col):
        return (f"the table stores it as {stored}, which cannot hold a {kind.value} value (a type change cannot "
                "be applied)"), False  # fmt: skip
    was = stored_kind(stored)
    if managed and not _same_kind(kind, was):
        # Our own table says what the column was made for: a value of another kind may fit its type
        # (a boolean in a BIGINT) but would not mean what the stored rows mean.
        return (f"the column holds {was.value if was else stored} values and the type now says {kind.value}: "
                "a kind change cannot be applied to the stored data"), False  # fmt: skip
    if kind is Storage.TEXT:
        have = dialect.text_bound(stored)
        if have is not None and (col.length is None or col.length > have):
            want = "unbounded text" if col.length is None else f"{col.length} characters"
            if managed:
                return None, True
            return f"the table's column holds at most {have} characters; the type allows {want}", False
        # a server enforces its VARCHAR's length: no stored value is longer than `have`
        if longest is not None and col.length is not None and (have is None or have > col.length):
            most = longest.of(col.name, col.length)
            if most is not None and most > col.length:
                return (f"the stored data holds values of up to {most} characters, longer than the "
                        f"new max_length {col.length}"), False  # fmt: skip
    if kind is Storage.DECIMAL:
        scale = getattr(stored, "scale", None)
        precision = getattr(stored, "precision", None)
        if isinstance(stored, sa.Integer):
            scale, precision = 0, 19
        if scale is not None and col.scale is not None and scale < col.scale:
            return f"the table keeps {scale} decimal places, the type allows {col.scale}", False
        if (
            precision is not None
            and scale is not None
            and col.precision is not None
            and col.scale is not None
            and dialect.bounds_decimal_digits()
            and precision - scale < col.precision - col.scale
        ):
            if managed:
                return None, True
            return (f"the table keeps {precision - scale} digits before the decimal point, the type's bounds "
                    f"need {col.precision - col.scale}"), False  # fmt: skip
    if kind is Storage.INTEGER and not managed:
        low, high = dialect.integer_range(stored) or _integer_range(stored)
        want_low = col.integer_min if col.integer_min is not None else INTEGER_RANGES["big"][0]
        want_high = col.integer_max if col.integer_max is not None else INTEGER_RANGES["big"][1]
        if want_low < low or want_high > high:
            return (f"the table's integer column holds {low}..{high}; declare integer_min and integer_max "
                    "within that range"), False  # fmt: skip
    return None, False


def _compatible(kind: Storage, stored: Any, col: StoredColumn) -> bool:
    if kind is Storage.TEXT:
        return isinstance(stored, sa.String) and not isinstance(stored, sa.Enum)
    if kind in (Storage.INTEGER, Storage.ID):
        return isinstance(stored, sa.Integer) or (isinstance(stored, sa.Numeric) and not _is_float(stored)
                                                  and (getattr(stored, "scale", 0) or 0) == 0)  # fmt: skip
    if kind is Storage.DECIMAL:
        return isinstance(stored, sa.Integer | sa.Numeric) and not _is_float(stored)
    if kind is Storage.DATE:
        return isinstance(stored, sa.Date) and not isinstance(stored, sa.DateTime)
    if kind is Storage.DATETIME:
        return isinstance(stored, sa.DateTime)
    if kind is Storage.BOOLEAN:
        return isinstance(stored, sa.Boolean | sa.Integer) or type(stored).__name__ == "BIT"
    return False


def stored_kind(stored: Any) -> Storage | None:
    """What a reflected column type was made for, as BatchDesk makes its tables (None: none of ours)."""
    if isinstance(stored, sa.Enum):
        return None
    if isinstance(stored, sa.String):
        return Storage.TEXT
    if isinstance(stored, sa.Boolean) or type(stored).__name__ == "BIT":
        return Storage.BOOLEAN
    if isinstance(stored, sa.Integer):
        # MySQL/MariaDB make a BOOLEAN a TINYINT(1); BatchDesk makes no other TINYINT
        tiny = type(stored).__name__ == "TINYINT" and getattr(stored, "display_width", None) == 1
        return Storage.BOOLEAN if tiny else Storage.INTEGER
    if isinstance(stored, sa.Numeric) and not _is_float(stored):
        return Storage.DECIMAL
    if isinstance(stored, sa.DateTime):
        return Storage.DATETIME
    if isinstance(stored, sa.Date):
        return Storage.DATE
    return None


def _same_kind(kind: Storage, was: Storage | None) -> bool:
    """Whether a managed column made for ``was`` may take the type's ``kind``: the same kind, or an
    integer and a decimal (``_compare`` refuses the decimal places an integer column lacks)."""
    wanted = Storage.INTEGER if kind is Storage.ID else kind
    return was is wanted or {was, wanted} == {Storage.INTEGER, Storage.DECIMAL}


def _is_float(stored: Any) -> bool:
    return isinstance(stored, sa.Float) or type(stored).__name__ in ("REAL", "DOUBLE", "DOUBLE_PRECISION", "FLOAT")


def _integer_range(stored: Any) -> tuple[int, int]:
    name = type(stored).__name__.upper()
    if isinstance(stored, sa.BigInteger) or "BIG" in name:
        return INTEGER_RANGES["big"]
    if isinstance(stored, sa.SmallInteger) or name in ("SMALLINT", "TINYINT", "MEDIUMINT"):
        return INTEGER_RANGES["small"] if name != "MEDIUMINT" else (-(2**23), 2**23 - 1)
    if isinstance(stored, sa.Numeric):
        digits = getattr(stored, "precision", None) or 18
        return -(10**digits) + 1, 10**digits - 1
    return INTEGER_RANGES["int"]


def _not_null_problems(
    insp: Any, spec: TableSpec, reflected: dict[str, Any], *, managed: bool
) -> tuple[list[str], list[StoredColumn]]:
    """A NOT NULL column without a default must get a value from every row the type writes: the
    problems, and the columns of our own table whose NOT NULL goes instead (the type made them
    optional: dropping NOT NULL loses nothing)."""
    filled = {c.name for c in spec.columns if c.required or c.default is not None or c.name in spec.key}
    ours = {c.name: c for c in spec.columns}
    pk = insp.get_pk_constraint(spec.table, schema=spec.schema).get("constrained_columns") or []
    problems = []
    relax = []
    for name, info in reflected.items():
        if info.get("nullable", True) or info.get("default") is not None or name in filled:
            continue
        if info.get("autoincrement") is True or (len(pk) == 1 and name in pk and isinstance(info["type"], sa.Integer)):
            continue  # an id the database fills
        if info.get("computed") or info.get("identity"):
            continue
        if name in ours and managed:
            relax.append(ours[name])
        elif name in ours:
            problems.append(
                f"{spec.source}: column {name!r}: the table requires a value (NOT NULL without a default); make the "
                "column required or give it a default"
            )
        else:
            problems.append(
                f"{spec.source}: the table's column {name!r} requires a value (NOT NULL without a default) and the "
                "type has no column for it"
            )
    return problems, relax


def _key_is_unique(insp: Any, spec: TableSpec) -> bool:
    key = set(spec.key)
    pk = insp.get_pk_constraint(spec.table, schema=spec.schema).get("constrained_columns") or []
    if set(pk) == key:
        return True
    for uc in insp.get_unique_constraints(spec.table, schema=spec.schema):
        if set(uc.get("column_names") or []) == key:
            return True
    for ix in insp.get_indexes(spec.table, schema=spec.schema):
        if ix.get("unique") and set(ix.get("column_names") or []) == key:
            return True
    return False


def _reference_problems(insp: Any, spec: TableSpec) -> list[str]:
    """Each referenced table must exist with its look-up column and an id."""
    problems = []
    for ref in spec.references:
        schema, _, table = ref.ref_table.rpartition(".")
        if not insp.has_table(table, schema=schema or None):
            problems.append(
                f"{spec.source}: column {ref.column!r}: the reference_table {ref.ref_table!r} does not exist"
            )
            continue
        names = {c["name"] for c in insp.get_columns(table, schema=schema or None)}
        for needed in (ref.ref_column, "id"):
            if needed not in names:
                problems.append(
                    f"{spec.source}: column {ref.column!r}: the reference_table {ref.ref_table!r} has no column "
                    f"{needed!r}"
                )
    return problems


def _registered(conn: Connection, spec: TableSpec) -> tuple[bool, dict[str, int] | None]:
    """Whether BatchDesk made the table (the registry lists it), and the bounds it keeps on its stored
    texts (None: none known)."""
    by_name = business_tables.c.name == spec.name
    try:
        found = conn.execute(sa.select(business_tables.c.name).where(by_name)).first()
    except sa.exc.DBAPIError as exc:
        if not is_missing_table(exc):
            raise  # a lost connection, a lock: the caller decides (swallowed, the next statement would fail)
        return False, None  # an older schema without the registry: nothing is managed yet
    if found is None:
        return False, None
    bounds = sa.select(business_tables.c.text_bounds).where(by_name)
    dialect = dialect_of(conn)
    if dialect.row_security or dialect.team is None:
        return True, _bounds(conn.execute(bounds).scalar())  # the table itself, at the schema's head
    try:
        # a team's views (MariaDB) made before migration 0014 lack the column until `admin secure` runs
        # again; the error leaves MariaDB's transaction as it was (PostgreSQL's it would end)
        return True, _bounds(conn.execute(bounds).scalar())
    except sa.exc.DBAPIError as exc:
        if not is_missing_or_forbidden(exc):
            raise
        return True, None


def _bounds(text: str | None) -> dict[str, int] | None:
    """The registry's bounds as stored (anything but an object of whole numbers: none known)."""
    try:
        found = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(found, dict):
        return None
    return {k: v for k, v in found.items() if isinstance(v, int) and not isinstance(v, bool)}


def remember_bounds(engine: Engine, spec: TableSpec) -> None:
    """After a plan for writing found the type's table fit (every text column's stored values within the
    type's max_length, by the table's own VARCHAR, the bounds kept or a scan): the import writes nothing
    longer, so each text column's bound rises to the type's max_length (an unbounded column's goes). A
    bound never falls: a type narrowed below it has its table scanned by every plan, as before. Written
    only where the stored bounds are still the ones read (another desk's raise is merged, not lost)."""
    by_name = business_tables.c.name == spec.name
    for _ in range(3):
        with engine.begin() as conn:
            try:
                row = conn.execute(sa.select(business_tables.c.text_bounds).where(by_name)).first()
                if row is None:
                    return  # not ours (a table a company made): nothing is kept for it
                stored = row[0]
                new = json.dumps(_raised(_bounds(stored), spec), sort_keys=True)
                if new == stored:
                    return
                same = business_tables.c.text_bounds.is_(None) if stored is None else (
                    business_tables.c.text_bounds == stored)  # fmt: skip
                if conn.execute(business_tables.update().where(by_name, same).values(text_bounds=new)).rowcount:
                    return
            except sa.exc.DBAPIError as exc:
                if not is_missing_or_forbidden(exc):
                    raise
                return  # a team's view without the column, a login without the right: plans scan, as before
    log.info("text bounds of %s left as they are: changed by another desk meanwhile", spec.name)


def widen_bound(conn: Connection, table: str, column: str, longest: int) -> None:
    """Texts up to `longest` characters written into a column of one of our tables other than by an import
    of its type (names a completion adds to a reference table): the column's bound rises to take them, in
    the writer's transaction."""
    by_name = business_tables.c.name == table
    try:
        row = conn.execute(sa.select(business_tables.c.text_bounds).where(by_name).with_for_update()).first()
        bounds = _bounds(row[0]) if row is not None else None
        if bounds is None or bounds.get(column, longest) >= longest:
            return  # not ours, nothing known, or within the bound already
        bounds[column] = longest
        conn.execute(business_tables.update().where(by_name).values(text_bounds=json.dumps(bounds, sort_keys=True)))
    except sa.exc.DBAPIError as exc:
        if not is_missing_or_forbidden(exc):
            raise


def _raised(bounds: dict[str, int] | None, spec: TableSpec) -> dict[str, int]:
    raised = dict(bounds or {})
    for col in spec.columns:
        if col.storage is not Storage.TEXT:
            continue
        if col.length is None:
            raised.pop(col.name, None)  # the type writes texts of any length
        else:
            raised[col.name] = max(raised.get(col.name, 0), col.length)
    return raised


def _lightweight(spec: TableSpec) -> Any:
    return sa.table(spec.table, schema=spec.schema)


@contextmanager
def _connection(engine: Engine | Connection) -> Iterator[Connection]:
    if isinstance(engine, Connection):
        yield engine
        return
    with engine.connect() as conn:
        yield conn


def key_folds_case(conn: Connection, spec: TableSpec) -> bool:
    """Whether the table compares a text key column case-insensitively (a MySQL *_ci collation)."""
    return dialect_of(conn).key_folds_case(conn, spec)


# --- applying ------------------------------------------------------------------------------------


def ensure_table(engine: Engine, spec: TableSpec, *, reading: bool = False) -> SchemaPlan:
    """Create or grow the type's table as planned (one desk at a time); returns the plan it ended with:
    its problems, if any, are why the type cannot run (`reading`: as plan_table's)."""
    plan = plan_table(engine, spec, reading=reading)
    if plan.ok and plan.changes:
        with _schema_lock(engine) as conn:
            plan = plan_table(conn, spec, reading=reading)  # again, under the lock: another desk may have done it
            if plan.ok and plan.changes:
                _apply(conn, plan)
        plan = plan_table(engine, spec, reading=reading)
    if plan.ok and plan.managed and not reading:
        remember_bounds(engine, spec)
    return plan


def _apply(conn: Connection, plan: SchemaPlan) -> None:
    spec = plan.spec
    if plan.create:
        table_object(spec, managed=True).create(conn)
        # A table we made and someone dropped by hand is made again: its old registry row goes first.
        conn.execute(business_tables.delete().where(business_tables.c.name == spec.name))
        conn.execute(business_tables.insert().values(name=spec.name, import_type=spec.import_type))
        log.info("created table %s for import type %s", spec.name, spec.import_type)
        return
    # Alembic's operations only when a table changes: loading it costs every start of the program 0.15 s
    from alembic.operations import Operations
    from alembic.runtime.migration import MigrationContext

    ops = Operations(MigrationContext.configure(conn))
    for col in plan.add:
        ops.add_column(
            spec.table, sa.Column(col.name, sa_type(col), nullable=True, server_default=server_default(col)),
            schema=spec.schema,
        )  # fmt: skip
        log.info("added column %s to %s (import type %s)", col.name, spec.name, spec.import_type)
    for col in plan.widen:
        ops.alter_column(spec.table, col.name, type_=sa_type(col), schema=spec.schema,
                         existing_nullable=True, existing_server_default=server_default(col))  # fmt: skip
        log.info("widened column %s of %s (import type %s)", col.name, spec.name, spec.import_type)
    if plan.relax:
        # SQLite cannot drop a NOT NULL in place: batch mode copies the table there, and is a plain
        # ALTER on the servers.
        reflected = {c["name"]: c for c in inspect(conn).get_columns(spec.table, schema=spec.schema)}
        with ops.batch_alter_table(spec.table, schema=spec.schema) as batch:
            for col in plan.relax:
                found = reflected[col.name]
                batch.alter_column(col.name, nullable=True, existing_type=found["type"],
                                   existing_server_default=found.get("default"))  # fmt: skip
        log.info("made %s of %s optional (import type %s)", ", ".join(c.name for c in plan.relax), spec.name,
                 spec.import_type)  # fmt: skip


def _schema_lock(engine: Engine) -> AbstractContextManager[Connection]:
    """Serialise DDL between desks: an advisory lock on PostgreSQL, a named lock on MySQL/MariaDB
    (whose DDL commits on its own), BEGIN IMMEDIATE on SQLite (the dialect's ddl_lock)."""
    return dialect_of(engine).ddl_lock(engine, "batchdesk_business_schema", 728420)
