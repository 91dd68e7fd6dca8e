"""An import type against a database: whether its table is usable, and making it ready to be written."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.table_spec import TableSpec
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.table_spec import table_spec
from desktop_app.store.business_rows import BusinessTable
from desktop_app.store.business_schema import SchemaPlan, ensure_table, key_folds_case, plan_table
from desktop_app.store.dialects import dialect_of
from desktop_app.store.table_in_use import LOOK_MS


def type_problem(engine: Engine, itype: ImportType) -> str | None:
    """Why the type cannot be used on this database (its table, a column, the key...), or None."""
    return plan_table(engine, table_spec(itype)).problem


def check_type(
    engine: Engine, itype: ImportType, *, reading: bool = False, spec: TableSpec | None = None
) -> SchemaPlan:
    """The type's plan; PermanentError import_type_invalid when it has a problem (a bad type never runs).
    `reading`: for an export, which never writes (business_schema.plan_table); `spec`: the type's table
    spec when the caller has built it already."""
    plan = _quick_plan(engine, spec or table_spec(itype), reading=reading)
    if not plan.ok:
        raise PermanentError(ErrorCode.IMPORT_TYPE_INVALID, import_type=itype.name, problem=plan.problem)
    return plan


def _quick_plan(engine: Engine, spec: TableSpec, *, reading: bool) -> SchemaPlan:
    """The plan as accepting a task needs it, waiting for no lock: a table another connection holds
    locked is planned without reading its rows (the stored texts' lengths), which the run checks
    again before it writes (prepare_type), when the lock is gone or said as the table in use."""
    dialect = dialect_of(engine)
    with engine.connect() as conn:
        try:
            with dialect.short_lock_wait(conn, LOOK_MS):
                return plan_table(conn, spec, reading=reading)
        except DBAPIError as exc:
            if not dialect.lock_wait(exc):
                raise
    return plan_table(engine, spec, reading=True)


def prepare_type(
    engine: Engine, itype: ImportType, *, reading: bool = False, spec: TableSpec | None = None
) -> SchemaPlan:
    """Create or grow the type's table as needed before an import writes it (or an export reads it);
    raises as check_type."""
    plan = ensure_table(engine, spec or table_spec(itype), reading=reading)
    if not plan.ok:
        raise PermanentError(ErrorCode.IMPORT_TYPE_INVALID, import_type=itype.name, problem=plan.problem)
    return plan


def open_business_table(engine: Engine, itype: ImportType, *, prepare: bool, reading: bool = False) -> BusinessTable:
    """The type's table for reading and writing: made ready first (``prepare``), else only checked;
    ``reading``: only read (an export)."""
    spec = table_spec(itype)  # built once: the plan and the table share it
    check = prepare_type if prepare else check_type
    plan = check(engine, itype, reading=reading, spec=spec)
    managed = plan.managed or plan.create
    with engine.connect() as conn:
        folds = plan.exists and key_folds_case(conn, spec)
    return BusinessTable(engine, spec, managed=managed, folds_case=folds)


def table_to_look_in(engine: Engine, itype: ImportType) -> tuple[BusinessTable, tuple[str, ...] | None]:
    """The type's table to look rows up in before an import (the preview), checked as a task is accepted,
    never made ready nor scanned; with the columns it has of the type's (a column a later version of the
    type declares is added by the import, not there yet), or None when the table does not exist yet (the
    import creates it: no row is in it). Raises as check_type."""
    spec = table_spec(itype)
    plan = check_type(engine, itype, reading=True, spec=spec)
    if not plan.exists:
        return BusinessTable(engine, spec, managed=plan.create, folds_case=False), None
    with engine.connect() as conn:
        folds = key_folds_case(conn, spec)
    added = {c.name for c in plan.add}
    columns = tuple(c.name for c in spec.columns if c.name not in added)
    return BusinessTable(engine, spec, managed=plan.managed, folds_case=folds), columns
