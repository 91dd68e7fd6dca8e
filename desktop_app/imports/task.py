"""The `import` task type: one registered class that runs the staged import pipeline."""

from __future__ import annotations

from typing import Any, ClassVar

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.profiles import Profile
from desktop_app.domain.task import TaskOutcome
from desktop_app.imports.error_csv import cut_back_to_checkpoint, keep_error_rows
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.progress_state import ImportCheckpoint
from desktop_app.imports.table_spec import table_spec
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.type_schema import open_business_table
from desktop_app.store.table_in_use import said_in_use
from desktop_app.tasks import builtin_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.kinds import TaskKind


def task_profile(ctx: TaskContext, itype: ImportType, options: ImportOptions) -> Profile | None:
    """The mapping profile's version the task names, read as it is now (versions never change), held to
    the type as it is now: a version gone or no longer fitting fails the task as its file would
    (profile_not_found, profile_unfit: never retried, never half applied)."""
    if options.profile is None:
        return None
    # loaded when an import with a profile runs (the command line's other commands never load them)
    from desktop_app.imports.profiles import check_fits
    from desktop_app.store.profiles import ProfileStore

    if options.profile_version is None:  # the submission always names one
        raise PermanentError(ErrorCode.INVALID_PARAMS, detail="profile without its version")
    version = ProfileStore(ctx.store.engine).get(options.profile, options.profile_version, removed_ok=True)
    check_fits(version, itype, options.conventions)
    ctx.log.info("mapping profile %s version %d", version.name, version.version)
    return version.profile


class ImportHandler:
    """Imports a CSV/XLSX/XLS file with a declarative import type, in one of the four modes."""

    kind: ClassVar[TaskKind] = builtin_kinds.IMPORT
    task_type: ClassVar[str] = kind.name
    lane = kind.lane

    def __init__(self, catalog: TypeCatalog) -> None:
        self.catalog = catalog

    def check_import_type(self, name: str) -> ImportType:
        """The type, or PermanentError unknown_import_type / import_type_invalid (never runs, never retries)."""
        return self.catalog.get(name)

    def options(self, ctx: TaskContext) -> ImportOptions:
        settings = ctx.settings
        return ImportOptions.from_params(ctx.params, batch_default=settings.batch_size,
                                         rows_default=settings.max_rows, mb_default=settings.max_file_mb)  # fmt: skip

    def run(self, ctx: TaskContext) -> TaskOutcome:
        options = self.options(ctx)
        itype = self.check_import_type(options.import_type)
        profile = task_profile(ctx, itype, options)
        # The type's table made ready (created, or a new column added) before the first row; a type
        # that does not fit its table fails here with import_type_invalid.
        # the pipeline (its readers, Arrow's compute functions) loaded when an import runs: the command
        # line's other commands (an export, a task list) never load it
        from desktop_app.imports.pipeline import ImportRun

        # a table another program holds locked: one line (which table, by whom) and a retry, not the
        # driver's error with its statement
        with said_in_use(ctx.store.engine, table_spec(itype)):
            table = open_business_table(ctx.store.engine, itype, prepare=True)
            return ImportRun(ctx, itype, options, table, profile).run()

    def on_hand_back(self, ctx: TaskContext) -> None:
        """Called before the task goes back to pending for a retry: its work files as its checkpoint has them."""
        cut_back_to_checkpoint(ctx)

    def on_end(self, ctx: TaskContext) -> dict[str, Any]:
        """Called when the task ends without an outcome of its own (cancel, failure): keep its error rows
        and the counts of what it committed."""
        kept: dict[str, Any] = dict(keep_error_rows(ctx))
        if ctx.saved_checkpoint and not ctx.params.get("dry_run"):
            saved = ImportCheckpoint.from_dict(ctx.saved_checkpoint)
            kept.update(saved.counts.mode_counts())
            kept["rows_in_file"] = saved.rows_in_file
            kept["stopped_at_row"] = saved.row
        kept["mode"] = str(ctx.params.get("mode") or "insert")
        return kept
