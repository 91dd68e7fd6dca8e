"""Writing and reading one import type's business rows, on any back-end, without speaking a dialect.

The hot path (insert mode) is one driver-level executemany of plain tuples per batch (SQLAlchemy Core
with dicts costs about twice as much); look-ups, updates, deletes and reads go through Core with the
table's typed columns, so values come back as the same Python values on SQLite, PostgreSQL and MySQL.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

from desktop_app.domain.table_spec import Storage, TableReference, TableSpec
from desktop_app.domain.values import SEPARATOR, canonical
from desktop_app.store import row_images
from desktop_app.store.business_schema import table_object, widen_bound
from desktop_app.store.dialects import dialect_of

LOOKUP_CHUNK = 400  # keys per look-up: under every driver's parameter limit, composite keys included
TASK_NO = re.compile(r"[A-Z0-9-]{1,32}")

Key = tuple[object, ...]
# What a foreign key may do to its rows when the row they refer to is deleted: rows an undo of the
# delete could not put back, so a delete leaves such a row alone (still_referenced).
CASCADING = frozenset({"CASCADE", "SET NULL", "SET DEFAULT"})


@dataclass(frozen=True)
class StoredRow:
    """A row as it is in the table: its values by column name, and (our tables) who inserted it."""

    values: dict[str, object]
    task_no: str | None = None
    import_row: int | None = None
    import_sig: str | None = None


@dataclass(frozen=True)
class _ForeignKey:
    """Another table's foreign key to a business table: its ``columns`` hold the ``referred`` ones."""

    schema: str | None
    table: str
    columns: tuple[str, ...]
    referred: tuple[str, ...]
    cascades: bool = False  # ON DELETE CASCADE, SET NULL or SET DEFAULT: a delete changes its rows


class BusinessTable:
    """One import type's table: fast inserts, look-ups by key, updates and deletes (with the whole rows
    they delete, put back by an undo)."""

    def __init__(self, engine: Engine, spec: TableSpec, *, managed: bool, folds_case: bool = False) -> None:
        self.spec = spec
        self.managed = managed
        self.dialect = dialect_of(engine)
        self.table = table_object(spec, managed=managed)
        self.columns = tuple(c.name for c in spec.columns)  # the insert's value columns, in order
        self.key = spec.key
        self._storage = {c.name: (c.storage, c.scale) for c in spec.columns}
        self._key_cols = [self.table.c[k] for k in spec.key]
        quote = engine.dialect.identifier_preparer.quote
        self._quote = quote
        mark = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        target = self._target = ".".join(quote(p) for p in spec.name.split("."))
        names = [quote(c) for c in self.columns]
        marks = [mark] * len(self.columns)
        if managed:
            names += [quote("import_row"), quote("import_sig"), quote("task_no")]
            marks += [mark, mark]
        self._insert_prefix = f"INSERT INTO {target} ({', '.join(names)}) VALUES ({', '.join(marks)}"
        self._insert_sql: dict[str, str] = {}
        # A MySQL table with a *_ci collation compares keys case-insensitively: keys found there are
        # matched, and repeated keys in a file recognised, the same way (business_schema.key_folds_case).
        self.folds_case = folds_case
        self._all_columns: list[str] | None = None  # every column of the table, the type's or not (a delete's image)
        self._computed: frozenset[str] = frozenset()  # generated columns: the database computes them
        self._always: frozenset[str] = frozenset()  # PostgreSQL identity columns GENERATED ALWAYS
        self._as_text: frozenset[str] = frozenset()  # JSON columns read as their text (dialect.json_as_text)
        self._referrers: list[_ForeignKey] | None = None  # other tables' foreign keys to this one

    # --- keys ----------------------------------------------------------------------------

    def key_text(self, key: Key) -> str:
        """A key as one text (the bookkeeping's look-up), the same for the validator's and the DB's values."""
        parts = []
        for name, value in zip(self.key, key, strict=True):
            storage, scale = self._storage[name]
            text = canonical(storage, value, scale) or ""
            parts.append(text.casefold() if self.folds_case else text)
        return SEPARATOR.join(parts)

    def fold(self, key: Key) -> Key:
        """The key as the table compares it (case-folded text on a case-insensitive MySQL table)."""
        if not self.folds_case:
            return key
        return tuple(v.casefold() if isinstance(v, str) else v for v in key)

    # --- writing -------------------------------------------------------------------------

    def _insert(self, task_no: str) -> str:
        # The task number goes into the statement as a literal: copying a million row tuples just to
        # append it costs more than the validation of a column. It is our own format, checked here.
        sql = self._insert_sql.get(task_no)
        if sql is None:
            if not TASK_NO.fullmatch(task_no):
                raise ValueError(f"not a task number: {task_no!r}")
            tail = f", '{task_no}')" if self.managed else ")"
            sql = self._insert_sql[task_no] = self._insert_prefix + tail
        return sql

    def insert_many(self, conn: Connection, rows: Sequence[tuple[Any, ...]], task_no: str) -> None:
        """All rows or none (raises IntegrityError on a conflict; the caller's savepoint decides).

        Each row: the value columns, then (our tables) its row number in the file and its signature."""
        if rows:
            conn.exec_driver_sql(self._insert(task_no), list(rows))


    def update_rows(self, conn: Connection, changes: Sequence[tuple[Key, dict[str, object]]]) -> None:
        """Set columns of rows found by key; rows that change the same columns share one statement."""
        groups: dict[tuple[str, ...], list[dict[str, object]]] = {}
        for key, values in changes:
            names = tuple(sorted(values))
            params = {f"v_{n}": values[n] for n in names}
            params.update({f"k_{k}": v for k, v in zip(self.key, key, strict=True)})
            groups.setdefault(names, []).append(params)
        t = self.table
        for names, batch in groups.items():
            statement = (
                sa.update(t)
                .where(*(t.c[k] == sa.bindparam(f"k_{k}") for k in self.key))
                .values({n: sa.bindparam(f"v_{n}") for n in names})
            )
            conn.execute(statement, batch)

    def delete_rows(self, conn: Connection, keys: Sequence[Key]) -> None:
        if not keys:
            return
        t = self.table
        statement = sa.delete(t).where(*(t.c[k] == sa.bindparam(f"k_{k}") for k in self.key))
        conn.execute(statement, [{f"k_{k}": v for k, v in zip(self.key, key, strict=True)} for key in keys])

    # --- whole rows (delete mode and its undo) --------------------------------------------

    def _every_column(self, conn: Connection) -> list[str]:
        """The table's columns as the database has them (a company's table may have more than the type),
        but those it computes itself (generated columns): it refuses a value for them and recomputes them
        when a row goes back."""
        if self._all_columns is None:
            found = sa.inspect(conn).get_columns(self.spec.table, schema=self.spec.schema)
            self._computed = frozenset(str(c["name"]) for c in found if c.get("computed"))
            stored = [c for c in found if not c.get("computed")]
            # PostgreSQL's GENERATED ALWAYS identity takes a value only with OVERRIDING SYSTEM VALUE
            identities = {str(c["name"]): c.get("identity") for c in stored}
            self._always = frozenset(name for name, found in identities.items() if found and found.get("always"))
            # a JSON column the driver reads as lists and dicts (a top-level list would go back as an
            # array): read as its JSON text instead, which the server casts back
            json_as_text = self.dialect.json_as_text
            self._as_text = frozenset(str(c["name"]) for c in stored if json_as_text and isinstance(c["type"], sa.JSON))
            self._all_columns = [str(c["name"]) for c in stored]
        return self._all_columns

    def images(self, conn: Connection, keys: Sequence[Key]) -> dict[Key, row_images.Image]:
        """The whole rows with these keys, every column as the driver reads it untyped (exactly what is
        stored), as JSON-ready images by (folded) key.

        The rows are locked (FOR UPDATE; SQLite locks the whole database anyway) until the caller's
        transaction ends: read before their delete, no other session may change them in between, or the
        undo would put back values they no longer had."""
        names = self._every_column(conn)
        wanted = list(dict.fromkeys(keys))
        key_cols = [self.table.c[k] for k in self.key]
        selected: list[Any] = [
            sa.cast(sa.literal_column(self._quote(n)), sa.Text) if n in self._as_text
            else sa.literal_column(self._quote(n))
            for n in names
        ]  # fmt: skip
        out: dict[Key, row_images.Image] = {}
        for start in range(0, len(wanted), LOOKUP_CHUNK):
            chunk = wanted[start : start + LOOKUP_CHUNK]
            query = sa.select(*key_cols, *selected).select_from(self.table).where(self._key_filter(chunk))
            query = query.with_for_update()
            for row in conn.execute(query).all():
                key = tuple(row[: len(key_cols)])
                out[self.fold(key)] = row_images.image(dict(zip(names, row[len(key_cols) :], strict=True)))
        return out

    def put_back(self, conn: Connection, images: Sequence[row_images.Image]) -> None:
        """Insert whole rows as images() read them (raises on a refusal: the caller's savepoint decides).
        A generated column is left to the database (an image from before it was one too); a PostgreSQL
        identity GENERATED ALWAYS takes its old value back (OVERRIDING SYSTEM VALUE)."""
        if not images:
            return
        self._every_column(conn)
        groups: dict[tuple[str, ...], list[dict[str, object]]] = {}
        for data in images:
            kept = {n: v for n, v in data.items() if n not in self._computed}
            groups.setdefault(tuple(kept), []).append(row_images.restored(kept))
        for names, rows in groups.items():
            if self._always.intersection(names):
                marks = ", ".join(f":p{i}" for i in range(len(names)))
                sql = (f"INSERT INTO {self._target} ({', '.join(self._quote(n) for n in names)}) "
                       f"OVERRIDING SYSTEM VALUE VALUES ({marks})")  # fmt: skip
                conn.execute(sa.text(sql), [{f"p{i}": row[n] for i, n in enumerate(names)} for row in rows])
                continue
            target = sa.table(self.spec.table, *(sa.column(n) for n in names), schema=self.spec.schema)
            conn.execute(sa.insert(target), rows)

    def cascades(self, conn: Connection) -> bool:
        """Whether a delete here would change rows of another table (ON DELETE CASCADE, SET NULL, SET DEFAULT)."""
        return any(fk.cascades for fk in self._foreign_keys(conn))

    def referrer(self, conn: Connection, key: Key, *, cascading: bool = False) -> tuple[str, tuple[str, ...]] | None:
        """Which other table's rows refer to the row with this key (a foreign key that blocks its delete or,
        ``cascading``, one whose rows the delete would change): that table's name and its referring columns;
        None when no such foreign key's rows do."""
        for fk in self._foreign_keys(conn):
            if cascading and not fk.cascades:
                continue
            referred: list[Any] = [sa.literal_column(self._quote(c)) for c in fk.referred]
            source = sa.select(*referred).select_from(self.table)
            values = conn.execute(source.where(self._key_filter([key]))).first()
            if values is None or any(v is None for v in values):
                continue
            other = sa.table(fk.table, *(sa.column(c) for c in fk.columns), schema=fk.schema)
            hit = sa.select(sa.literal(1)).select_from(other).where(
                *(other.c[c] == v for c, v in zip(fk.columns, values, strict=True))).limit(1)  # fmt: skip
            if conn.execute(hit).first() is not None:
                return (f"{fk.schema}.{fk.table}" if fk.schema else fk.table), fk.columns
        return None

    def _foreign_keys(self, conn: Connection) -> list[_ForeignKey]:
        """The foreign keys of the tables in this table's schema that refer to it (read once a task, all
        tables' in one reflection where the database allows)."""
        if self._referrers is None:
            insp = sa.inspect(conn)
            schema = self.spec.schema
            ours = {schema, None} | ({insp.default_schema_name} if schema is None else set())
            found = []
            for (_schema, name), fks in insp.get_multi_foreign_keys(schema=schema).items():
                for fk in fks:
                    if str(fk["referred_table"]).casefold() != self.spec.table.casefold():
                        continue
                    if fk.get("referred_schema") not in ours:
                        continue
                    action = str((fk.get("options") or {}).get("ondelete") or "").upper()
                    found.append(_ForeignKey(schema, name, tuple(fk["constrained_columns"]),
                                             tuple(fk["referred_columns"]), action in CASCADING))  # fmt: skip
            self._referrers = found
        return self._referrers

    # --- reading -------------------------------------------------------------------------

    def _key_filter(self, keys: Sequence[Key]) -> Any:
        if len(self._key_cols) == 1:
            return self._key_cols[0].in_([k[0] for k in keys])
        return sa.tuple_(*self._key_cols).in_([tuple(k) for k in keys])

    def find(
        self, conn: Connection, keys: Iterable[Key], columns: Sequence[str] | None = None, where: Sequence[Any] = ()
    ) -> dict[Key, StoredRow]:
        """The rows with these keys that are in the table (and pass ``where``), by (folded) key."""
        wanted = list(dict.fromkeys(keys))
        names = list(columns) if columns is not None else list(self.columns)
        for k in self.key:
            if k not in names:
                names.append(k)
        t = self.table
        selected = [t.c[n] for n in names]
        extra = [t.c.task_no, t.c.import_row, t.c.import_sig] if self.managed else []
        found: dict[Key, StoredRow] = {}
        for start in range(0, len(wanted), LOOKUP_CHUNK):
            chunk = wanted[start : start + LOOKUP_CHUNK]
            for row in conn.execute(sa.select(*selected, *extra).where(self._key_filter(chunk), *where)).all():
                values = dict(zip(names, row[: len(names)], strict=True))
                key = tuple(values[k] for k in self.key)
                meta = row[len(names) :]
                stored = StoredRow(values, *meta) if self.managed else StoredRow(values)
                found[self.fold(key)] = stored
        return found

    def rows_inserted_by(self, conn: Connection, task_no: str, after: Key | None, limit: int) -> list[StoredRow]:
        """Our table's rows a task inserted, in key order after the key `after` (an undo's pages)."""
        t = self.table
        selected = [t.c[n] for n in self.columns]
        keys = self._key_cols
        query = sa.select(*selected, t.c.task_no, t.c.import_row, t.c.import_sig).where(t.c.task_no == task_no)
        if after is not None:
            query = query.where(keys[0] > after[0] if len(keys) == 1 else sa.tuple_(*keys) > sa.tuple_(*after))
        query = query.order_by(*keys).limit(limit)
        out = []
        for row in conn.execute(query).all():
            values = dict(zip(self.columns, row[: len(self.columns)], strict=True))
            out.append(StoredRow(values, *row[len(self.columns) :]))
        return out

    def pages(
        self, conn_factory: Callable[[], Any], columns: Sequence[str], where: Sequence[Any], size: int
    ) -> Iterator[list[tuple[Any, ...]]]:
        """The table in key order, a page at a time (keyset paging: each page one short read)."""
        t = self.table
        selected = [t.c[n] for n in columns]
        keys = [t.c[k] for k in self.key]
        query = sa.select(*selected, *keys).where(*where).order_by(*keys).limit(size)
        last: tuple[Any, ...] | None = None
        while True:
            page = query
            if last is not None:
                after = keys[0] > last[0] if len(keys) == 1 else sa.tuple_(*keys) > sa.tuple_(*last)
                page = query.where(after)
            with conn_factory() as conn:
                rows = conn.execute(page).all()
            if not rows:
                return
            yield [tuple(r[: len(selected)]) for r in rows]
            last = tuple(rows[-1][len(selected) :])

    # --- references ----------------------------------------------------------------------

    def reference_ids(self, conn: Connection, ref: TableReference) -> dict[object, int]:
        """The referenced table as name -> id (a small look-up table: departments, regions...)."""
        schema, _, name = ref.ref_table.rpartition(".")
        target = sa.table(name, sa.column(ref.ref_column), sa.column("id"), schema=schema or None)
        rows = conn.execute(sa.select(target.c[ref.ref_column], target.c.id)).all()
        return {r[0]: int(r[1]) for r in rows}

    def complete_references(
        self, conn: Connection, ref: TableReference, *, task_no: str | None = None, keys: Sequence[Key] | None = None
    ) -> int:
        """Resolve unresolved references of some rows: those a task inserted (our tables, by task_no) or
        those with these keys; returns how many of them are still unresolved."""
        schema, _, name = ref.ref_table.rpartition(".")
        r = sa.table(name, sa.column(ref.ref_column), sa.column("id"), schema=schema or None)
        t = self.table
        lookup = sa.select(r.c.id).where(r.c[ref.ref_column] == t.c[ref.column]).scalar_subquery()
        open_ = [t.c[ref.column].is_not(None), t.c[ref.id_column].is_(None)]
        filters = [t.c.task_no == task_no] if keys is None else []
        chunks = [filters] if keys is None else [
            [self._key_filter(keys[i : i + LOOKUP_CHUNK])] for i in range(0, len(keys), LOOKUP_CHUNK)
        ]  # fmt: skip
        left = 0
        for where in chunks:
            conn.execute(sa.update(t).where(*where, *open_).values({ref.id_column: lookup}))
            still = conn.execute(sa.select(sa.func.count()).select_from(t).where(*where, *open_))
            left += int(still.scalar() or 0)
        return left

    def unresolved_names(
        self, conn: Connection, ref: TableReference, *, task_no: str | None = None, keys: Sequence[Key] | None = None
    ) -> dict[str, int]:
        """The names of a reference still not found, each with its number of rows: among the rows a task
        inserted (our tables, by task_no) or those with these keys."""
        t = self.table
        open_ = [t.c[ref.column].is_not(None), t.c[ref.id_column].is_(None)]
        chunks = [[t.c.task_no == task_no]] if keys is None else [
            [self._key_filter(keys[i : i + LOOKUP_CHUNK])] for i in range(0, len(keys), LOOKUP_CHUNK)
        ]  # fmt: skip
        found: dict[str, int] = {}
        for where in chunks:
            query = sa.select(t.c[ref.column], sa.func.count()).where(*where, *open_).group_by(t.c[ref.column])
            for name, count in conn.execute(query).all():
                found[str(name)] = found.get(str(name), 0) + int(count)
        return found

    @staticmethod
    def known_reference_names(conn: Connection, ref: TableReference, names: Sequence[str]) -> set[str]:
        """Those of these names the reference table holds: one query for up to LOOKUP_CHUNK distinct names."""
        schema, _, name = ref.ref_table.rpartition(".")
        r = sa.table(name, sa.column(ref.ref_column), schema=schema or None)
        wanted = list(dict.fromkeys(n for n in names if n))
        present: set[str] = set()
        for i in range(0, len(wanted), LOOKUP_CHUNK):
            chunk = wanted[i : i + LOOKUP_CHUNK]
            present.update(str(v) for v in conn.execute(sa.select(r.c[ref.ref_column]).where(
                r.c[ref.ref_column].in_(chunk))).scalars())  # fmt: skip
        return present

    @staticmethod
    def add_reference_names(conn: Connection, ref: TableReference, names: Sequence[str]) -> int:
        """Insert the names not yet in the reference table (its other columns take their defaults);
        returns how many were added."""
        schema, _, name = ref.ref_table.rpartition(".")
        r = sa.table(name, sa.column(ref.ref_column), schema=schema or None)
        present = BusinessTable.known_reference_names(conn, ref, names)
        new = [n for n in dict.fromkeys(names) if n and n not in present]
        if new:
            conn.execute(sa.insert(r), [{ref.ref_column: n} for n in new])
            widen_bound(conn, ref.ref_table, ref.ref_column, max(map(len, new)))
        return len(new)

    def storage_of(self, name: str) -> tuple[Storage, int | None]:
        return self._storage[name]
