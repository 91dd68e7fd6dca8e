"""The one way a task is asked for, by the window, the command line and the demo alike (Qt-free).

It builds an import's typed parameters once (type, mode, mapping, encoding, sheet, limits), checks
the type against the database before anything is queued (a broken type is never queued), and owns
each task type's idempotency key and lane: the same request gives the same task while it is active.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Collection, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop_app.config import Settings
from desktop_app.domain.errors import ErrorCode, Lang, PermanentError
from desktop_app.domain.feeds import FEED_PARAM, Feed
from desktop_app.domain.modes import BlankPolicy, ImportMode
from desktop_app.domain.profiles import OPTION_NAMES, Profile, ProfileRef, ProfileVersion, check_name
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, SubmitResult, TaskLink, TaskRecord
from desktop_app.domain.viewer import Right, TeamLogin
from desktop_app.exports.definition import IMPORTED_BY
from desktop_app.exports.placing import check_destination
from desktop_app.exports.task import ExportHandler, export_key
from desktop_app.exports.writer import ENCODINGS, FORMATS
from desktop_app.imports.completion import CompleteReferencesHandler
from desktop_app.imports.import_type import ImportType
from desktop_app.imports.missing_references import MissingReference, column_label, missing_of
from desktop_app.imports.options import FILE_FACTS, ImportOptions
from desktop_app.imports.profiles import check_fits, check_profile, with_options
from desktop_app.imports.resume import RESUMES, ResumeProblem, resume_problem
from desktop_app.imports.table_spec import references_of, table_spec
from desktop_app.imports.task import ImportHandler
from desktop_app.imports.type_catalog import TypeCatalog
from desktop_app.imports.type_schema import check_type, table_to_look_in
from desktop_app.imports.undo import UndoHandler, queue_undo_parts, undo_key, undo_parts, undo_problem
from desktop_app.store import team
from desktop_app.store.profiles import ProfileStore
from desktop_app.store.task_files import FileKind
from desktop_app.store.tasks import Fence, LinkTaken, TaskStore
from desktop_app.tasks.builtin_kinds import FEED_MAIL, FEED_SCAN, WORKBOOK
from desktop_app.tasks.file_hash import file_sha256
from desktop_app.tasks.identity import host_name
from desktop_app.tasks.registry import HandlerRegistry
from desktop_app.tasks.result_paths import task_folder
from desktop_app.tasks.submit import FileFacts, biz_key, current_user, submit_file

if TYPE_CHECKING:
    from desktop_app.imports.value_fixes import BadValue
    from desktop_app.imports.workbook import SheetPlan

log = logging.getLogger(__name__)


def plan_desk(record: TaskRecord) -> str | None:
    """The desk (host name) whose results folder holds a dry run's plan: the desk it was queued for, else the
    one that ran it; None when neither is known. A plan file stays on its desk (the shared database keeps the
    change file, not the plan)."""
    return record.host or (record.owner.split(":", 1)[0] if record.owner else None)

class Submitter:
    """Queues tasks: imports, exports, undos, reference completions."""

    def __init__(self, store: TaskStore, registry: HandlerRegistry, settings: Settings, catalog: TypeCatalog, *,
                 results_dir: Path | None = None) -> None:  # fmt: skip
        """``results_dir``: this desk's results folder (a dry run's change plan is there); None: a plan is
        looked for beside its dry run's summary.json."""
        self.store = store
        self.registry = registry
        self.settings = settings
        self.catalog = catalog
        self.results_dir = results_dir

    # --- imports -------------------------------------------------------------------------

    def import_type(self, name: str) -> ImportType:
        """The type, checked against the database: PermanentError when it is unknown or has a problem (in
        team mode, a type whose table the login may not read is unknown to it)."""
        itype = self.catalog.get(name)
        if not self.visible(itype):
            shown = (e.name for e in self.catalog.entries() if e.import_type is None or self.visible(e.import_type))
            raise PermanentError(ErrorCode.UNKNOWN_IMPORT_TYPE, import_type=name, available=", ".join(sorted(shown)))
        check_type(self.store.engine, itype)
        return itype

    # --- team mode (store/team.py, docs/TEAM.md) ------------------------------------------

    @property
    def login(self) -> TeamLogin | None:
        """The database login in team mode (the server's answer at the start), else None."""
        return team.login_of(self.store.engine)

    def user(self, asked: str | None = None) -> str:
        """Who a request runs as: in team mode the login (another name is refused in words), else the name
        asked for, else the OS login name."""
        login = self.login
        return login.user(asked) if login is not None else asked or current_user()

    def _owner(self, user: str) -> str:
        """The creator of a task queued for `user`: what the desk says, except in team mode, where it is the
        login and nothing else (a desk naming another clerk is refused)."""
        login = self.login
        return login.user(user) if login is not None else user

    def visible(self, itype: ImportType) -> bool:
        """Whether the type shows in the login's lists: in team mode the login may read its table (or the
        table is not made yet); outside team mode every type."""
        return not team.missing(self.store.engine, itype.table, [Right.SELECT])

    def check_rights(self, itype: ImportType, mode: ImportMode) -> None:
        """In team mode, refuse before anything is queued an import the login's rights on the type's table
        would refuse row by row (the server's GRANTs: `admin grant NAME TYPE --insert`)."""
        self._refuse_lacking(itype, needed_rights(mode))

    def rights_refusal(self, import_type: str, mode: ImportMode) -> PermanentError | None:
        """Why the login may not import into the type in the mode (check_rights' refusal), or None: the
        preview says it before the clerk gets to Queue. Asks the database: never on the GUI thread."""
        try:
            self.check_rights(self.catalog.get(import_type), mode)
        except PermanentError as exc:
            if exc.code is ErrorCode.TEAM_MAY_NOT:
                return exc
        return None

    def _refuse_lacking(self, itype: ImportType, rights: Sequence[Right]) -> None:
        """TEAM_MAY_NOT naming the rights the login lacks on the type's table (none lacking: nothing)."""
        lacking = team.missing(self.store.engine, itype.table, rights)
        if lacking:
            raise PermanentError(ErrorCode.TEAM_MAY_NOT, name=itype.name,
                                 rights_en="/".join(RIGHT_WORDS[r][1] for r in lacking),
                                 rights_zh="、".join(RIGHT_WORDS[r][0] for r in lacking))  # fmt: skip

    def profiles(self) -> ProfileStore:
        """The mapping profiles of this database (shared by the desks that use it)."""
        return ProfileStore(self.store.engine)

    def save_profile(self, name: str, profile: Profile, *, user: str, source: str) -> ProfileVersion:
        """Save a new version of a mapping profile (the command line's `profile save`, the window's "Save as
        profile"), held to its import type first: PROFILE_TYPE_MISMATCH, or PROFILE_INVALID naming the key
        in `source` (the file, or the task the profile was made from) of the first thing that does not fit."""
        itype = self.import_type(profile.import_type)
        check_profile(profile, itype, name=check_name(name), path=source)
        return self.profiles().save(name, profile, by=self._owner(user))

    def with_profile(
        self, request: ImportOptions, ref: ProfileRef | str, *, keep: Collection[str] | None = None
    ) -> ImportOptions:
        """The request naming a mapping profile's version (NAME: its latest, NAME@N: that one), with the
        profile's reading options (encoding, delimiter, sheet, date_order, decimal_comma, mode, blank)
        where the request does not keep its own. `keep`: the names of the options the clerk gave, which
        win over the profile's (the command line's flags); None: every option whose value in the request
        is not the default. A removed or unknown profile is PROFILE_NOT_FOUND, another type's
        PROFILE_TYPE_MISMATCH (the fit is checked when the request is queued: import_options)."""
        ref = ProfileRef.parse(ref) if isinstance(ref, str) else ref
        version = self.profiles().get(ref.name, ref.version)
        if version.import_type != request.import_type:
            raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=version.name,
                                 profile_type=version.import_type, import_type=request.import_type)  # fmt: skip
        return with_options(request, version, keep=given_options(request) if keep is None else keep)

    def request_profile(self, request: ImportOptions, itype: ImportType | None = None) -> ProfileVersion | None:
        """The version a request (or a task's parameters) names, held to its type as the type is now:
        PROFILE_NOT_FOUND, PROFILE_TYPE_MISMATCH or PROFILE_UNFIT (naming the column) before anything is
        queued. A version stays readable after its name was removed: a retry or a resume names it."""
        if request.profile is None:
            return None
        itype = itype or self.import_type(request.import_type)
        version = self.profiles().get(request.profile, request.profile_version,
                                      removed_ok=request.profile_version is not None)  # fmt: skip
        check_fits(version, itype, request.conventions)
        return version

    def import_options(self, request: ImportOptions) -> ImportOptions:
        """The task's typed parameters: the request, the settings' defaults where it says nothing. A
        profile named without a version is its latest (with its options, as with_profile gives them)."""
        # the login's rights first (team mode): a type it may not even read is named, not "unknown"
        self.check_rights(self.catalog.get(request.import_type), ImportMode(request.mode))
        itype = self.import_type(request.import_type)
        if request.profile is not None and request.profile_version is None:
            request = self.with_profile(request, ProfileRef(request.profile))
        self.request_profile(request, itype)
        s = self.settings
        return request.but(
            mode=ImportMode(request.mode),
            blank=BlankPolicy(request.blank),
            encoding=request.encoding or None,
            max_rows=request.max_rows or s.max_rows,
            max_file_mb=request.max_file_mb or s.max_file_mb,
            # 0: the batch size of the path that runs it (settings.batch_size row by row, bulk_batch_rows
            # on the bulk path); a size the request names holds on both
            batch_size=request.batch_size or 0,
            repairs=request.repairs or None,
            sheet=request.sheet or None,
            scope=self._scope(request, itype),
        )

    @staticmethod
    def _scope(request: ImportOptions, itype: ImportType) -> dict[str, str]:
        """A sync's scope, each column one of the type's (sync_scope_invalid); only a sync has one."""
        if not request.scope:
            return {}
        if ImportMode(request.mode) is not ImportMode.SYNC:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="--scope goes with --mode sync")
        from desktop_app.imports.sync import parse_scope  # the readers it needs load when a sync is asked for

        return parse_scope([f"{k}={v}" for k, v in request.scope.items()], itype)

    def sync_deletes(self, request: ImportOptions) -> int:
        """How many rows a sync of the request's file would delete now (rows of the scope its file lacks):
        the number the clerk confirms (the window asks it off the GUI thread: it reads the file's keys)."""
        from desktop_app.imports.sync import count_deletes

        options = self.import_options(request)
        itype = self.import_type(options.import_type)
        table, columns = table_to_look_in(self.store.engine, itype)
        if columns is None:  # the import creates the table: nothing in it to delete
            return 0
        version = self.request_profile(options, itype)
        return count_deletes(self.store.engine, table, itype, options, version.profile if version else None, "en")

    def confirmed_sync(self, options: ImportOptions) -> ImportOptions:
        """A sync's options with the number of its deletes confirmed: the count now must be the clerk's
        (--confirm-deletes N; none given: 0), else sync_confirm_deletes names the number, nothing queued.
        The task counts again before it writes (the table may change while it waits)."""
        from desktop_app.imports.sync import confirmation_error

        count = self.sync_deletes(options)
        if count != (options.confirm_deletes or 0):
            raise confirmation_error(options, table_spec(self.import_type(options.import_type)).name, count)
        return options.but(confirm_deletes=count)

    def submit_import(
        self,
        request: ImportOptions,
        *,
        user: str,
        force: bool = False,
        known: FileFacts | None = None,
        feed: str | None = None,
    ) -> SubmitResult:
        """Queue an import. The same bytes, type, mode and user give one task (submit_file); ``known``:
        the file's SHA-256 read already (a feed's fingerprint), used while the file is unchanged; ``feed``:
        the name of the feed that took the file, kept in the task's params for the task list (not part of
        its identity: the same bytes by hand and by a feed are one task)."""
        user = self._owner(user)
        options = self.import_options(request)
        if feed and options.mode.removes_rows:  # its profile saved since with mode = "delete" or "sync"
            raise PermanentError(ErrorCode.FEED_NEVER_DELETES, profile=options.profile)
        if options.mode is ImportMode.SYNC and not options.dry_run:
            options = self.confirmed_sync(options)
        params = options.to_params()
        params.pop("file")
        if feed:
            params[FEED_PARAM] = feed
        kind = import_identity(options)
        return submit_file(self.store, self.registry, task_type=ImportHandler.task_type, path=options.file,
                           user=user, params=params, force=force, identity=kind, known=known)  # fmt: skip

    def resubmission(self, record: TaskRecord, **changes: Any) -> ImportOptions:
        """An earlier import's request again (a retry, the real run after a validation, a fixed error
        file), with some of it changed."""
        params = {k: v for k, v in record.params.items() if k not in FILE_FACTS}
        options = ImportOptions.from_params(params, batch_default=self.settings.batch_size,
                                            rows_default=self.settings.max_rows,
                                            mb_default=self.settings.max_file_mb)  # fmt: skip
        return options.but(batch_size=int(params.get("batch_size") or 0), **changes)

    def submit_resume(self, task_no: str, *, user: str, creator: str | None = None) -> SubmitResult:
        """ "Import the remaining rows" of a cancelled or early-failed import: a new import task that starts
        from the stopped one's last committed batch (imports/resume.py says why a new task). Asking again
        gives the same task (duplicate_of); with ``creator`` (a clerk who is not an administrator) only
        that clerk's tasks: another's is "no task"."""
        source = self.store.find(task_no, creator=creator)
        if source is None:
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        seen = {source.task_no}
        while True:
            problem = resume_problem(source)
            if problem is not None:
                raise PermanentError(ErrorCode.NOT_RESUMABLE, task_no=source.task_no, reason=problem.value,
                                     why=source.error_code or "")  # fmt: skip
            later_no = source.resumed_by
            later = self.store.get(str(later_no)) if later_no else None
            if later is None or resume_problem(later) is ResumeProblem.UNDONE:
                break  # none yet, or its rows were taken back: go on from this one's checkpoint again
            if resume_problem(later) is not None or later.task_no in seen:
                return SubmitResult(later, duplicate_of=later.task_no)  # running, or it finished the file
            seen.add(later.task_no)
            source = later  # it stopped too: go on from where it stopped
        self.import_type(str(source.params.get("import_type")))
        # the same profile version as the stopped import (read again when it runs): refused now if it no
        # longer fits the type
        self.request_profile(self.resubmission(source))
        path = Path(str(source.params["file"]))
        if not path.is_file():
            raise PermanentError(ErrorCode.FILE_NOT_FOUND, path=str(path))
        if file_sha256(path) != source.params.get("file_sha256"):
            # the checkpoint's row numbers speak of the bytes that were queued
            raise PermanentError(ErrorCode.FILE_CHANGED, path=str(path))
        params = {**source.params, RESUMES: source.task_no}
        # The file's own key: while it runs, queueing the same file again returns it; once it ended, the
        # file counts as imported (a forced re-import, running meanwhile, is returned instead).
        # in team mode the one who asks owns (and their desk runs) it: a task runs with its owner's rights
        owner = source.creator if self.login is None else self._owner(user)
        result = self.store.submit(task_type=ImportHandler.task_type, params=params, creator=owner,
                                   lane=ImportHandler.lane, biz_key=source.biz_key, refuse_if_committed=False,
                                   host=source.host)  # fmt: skip
        if result.duplicate_of is None:
            self.store.annotate(source.id, {TaskLink.RESUMED_BY: result.task.task_no})
        return result

    # --- workbooks (issue 26) ------------------------------------------------------------

    def plan_workbook(self, request: ImportOptions, given: Mapping[str, str] | None = None) -> list[SheetPlan]:
        """Every sheet of a workbook with the type it is imported as (given, by its name, by its header) or
        why it is skipped, in the book's order. Refused at once: an option that does not go with every sheet
        (WORKBOOK_OPTIONS), a file that is not a workbook (WORKBOOK_NEEDS_BOOK), a given sheet the book lacks
        (WORKBOOK_UNKNOWN_SHEET) or type the desk lacks (UNKNOWN_IMPORT_TYPE)."""
        from desktop_app.imports import readers
        from desktop_app.imports.file_preview import sheet_names
        from desktop_app.imports.readers import ReadLimits
        from desktop_app.imports.workbook import match_sheets

        for reason, wrong in (("sheet", request.sheet), ("profile", request.profile), ("repairs", request.repairs),
                              ("sync", ImportMode(request.mode) is ImportMode.SYNC)):  # fmt: skip
            if wrong:
                raise PermanentError(ErrorCode.WORKBOOK_OPTIONS, reason=reason)
        path = request.file.expanduser().resolve()
        if not path.is_file():
            raise PermanentError(ErrorCode.FILE_NOT_FOUND, path=str(path))
        if readers.FORMATS.get(path.suffix.lower()) not in ("xlsx", "xls"):
            raise PermanentError(ErrorCode.WORKBOOK_NEEDS_BOOK, file=path.name)
        limits = ReadLimits(max_file_mb=request.max_file_mb or self.settings.max_file_mb)
        with readers.open_table(path, limits=limits):  # a file that is not a workbook says why, as an import would
            pass
        sheets = sheet_names(path)

        def header_of(sheet: str) -> list[str]:
            with readers.open_table(path, sheet=sheet, limits=limits) as reader:
                return [str(h) if h is not None else "" for h in reader.header]

        # team mode: a sheet is matched only to a type the login may see
        types = {name: t for name, t in self.catalog.types().items() if self.visible(t)}
        return match_sheets(path, sheets, header_of, types, given)

    def submit_workbook(
        self, request: ImportOptions, plans: list[SheetPlan], *, user: str, force: bool = False
    ) -> SubmitResult:
        """Queue a workbook: one `workbook` task and, under it, an import task per matched sheet, in the order
        they run (imports/workbook.py run_order); the request's options (mode, blank, dry run, limits...) go to
        every sheet. No sheet matched: WORKBOOK_NO_SHEET_MATCHED, nothing queued. The same bytes, the same
        sheets' types and mode from the same user are one workbook task (as an import's file identity)."""
        from desktop_app.imports.workbook import run_order
        from desktop_app.imports.workbook_task import PARTS, SHEETS, WorkbookHandler, queue_parts

        user = self._owner(user)  # team mode: the login (its sheets are its tasks too: queue_parts)
        types = self.catalog.types()
        ordered = run_order(plans, types)
        if not ordered:
            raise PermanentError(ErrorCode.WORKBOOK_NO_SHEET_MATCHED, file=request.file.name,
                                 sheets=", ".join(p.sheet for p in plans) or "-")  # fmt: skip
        parts = []
        for plan in ordered:
            options = self.import_options(request.but(import_type=str(plan.import_type), sheet=plan.sheet))
            params = options.to_params()
            params.pop("file")
            parts.append(params)
        params = {SHEETS: [p.to_params() for p in plans], PARTS: parts, "mode": ImportMode(request.mode).value,
                  "dry_run": bool(request.dry_run)}  # fmt: skip
        result = submit_file(self.store, self.registry, task_type=WorkbookHandler.task_type, path=request.file,
                             user=user, params=params, force=force, identity=workbook_identity(parts))  # fmt: skip
        if result.duplicate_of is None:
            queue_parts(self.store, result.task)
        return result

    # --- change plans (issue 26) ---------------------------------------------------------------

    def plan_file(self, record: TaskRecord) -> Path | None:
        """Where a dry run's change plan is (its results folder), or None when its folder is not BatchDesk's."""
        from desktop_app.imports.change_plan import PLAN_FILE

        if self.results_dir is not None:
            folder = task_folder(self.results_dir, record.task_no)
            return folder / PLAN_FILE if folder is not None else None
        return Path(record.result_path).parent / PLAN_FILE if record.result_path else None

    def changes_file(self, record: TaskRecord, lang: Lang, *, strict: bool = False) -> Path | None:
        """The dry run's change file in ``lang``: its own (task_file) when it was written in that language or its
        plan is not on this desk, else written again from the plan beside it, ``<task_no>-changes-<lang>.csv``
        (a failed row's reasons are kept as codes: issue 28), once for each plan. Never on the GUI thread."""
        from desktop_app.imports.change_plan import ChangePlan, write_changes_csv

        own = self.task_file(record, FileKind.CHANGES, strict=strict)
        plan_file = self.plan_file(record)
        if own is None or plan_file is None or not plan_file.is_file():
            return own
        try:
            with ChangePlan.open(plan_file) as plan:
                if plan.meta.lang == lang or not plan.finished or not plan.meta.reasons_as_codes:
                    return own  # an older plan's reasons are words in its own language: its own file
                itype = self.catalog.get(plan.meta.import_type)
                target = plan_file.with_name(f"{record.task_no}-changes-{lang}.csv")
                if not target.is_file() or target.stat().st_mtime_ns < plan_file.stat().st_mtime_ns:
                    write_changes_csv(plan, target, itype, lang)
                return target
        except (OSError, sqlite3.DatabaseError, PermanentError) as exc:  # the type gone: the dry run's own file
            log.warning("[%s] the change file in %s could not be written from the plan: %s", record.task_no, lang, exc)
            return own

    def _plan_source(self, task_no: str, creator: str | None) -> TaskRecord:
        """The dry run whose plan is asked for: TASK_NOT_FOUND, or PLAN_NOT_APPLICABLE (not a dry run, applied,
        a workbook's sheet: its workbook is applied whole)."""
        source = self.store.find(task_no, creator=creator)
        if source is None:
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        owned = ImportHandler.kind.owns(source) or WORKBOOK.owns(source)
        if not owned or not source.params.get("dry_run"):
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="not_dry_run", task_no=source.task_no)
        if source.applied_by:
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="applied", task_no=source.task_no,
                                 by=source.applied_by)  # fmt: skip
        if source.parent:
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="workbook_sheet", task_no=source.task_no,
                                 parent=source.parent)  # fmt: skip
        return source

    def _checked_plan(self, source: TaskRecord, task_no: str) -> tuple[int, str]:
        """A dry run's plan as it may be applied: (its sync deletes, the file's SHA-256 it planned). Refused
        (PLAN_NOT_APPLICABLE, naming ``task_no``, the dry run asked for): discarded, not ended well, its plan
        gone or unfinished."""
        import sqlite3

        from desktop_app.imports.change_plan import ChangePlan
        from desktop_app.imports.row_plans import Action as RowAction

        def refused(reason: str, **params: object) -> PermanentError:
            return PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason=reason, task_no=task_no, **params)

        if source.summary.get("plan_discarded"):
            raise refused("discarded")
        if source.status not in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED):
            raise refused("not_succeeded")
        path = self.plan_file(source)
        try:
            if path is None:
                raise FileNotFoundError(source.task_no)
            plan = ChangePlan.open(path)
        except (OSError, sqlite3.DatabaseError) as exc:
            desk = plan_desk(source)
            if isinstance(exc, FileNotFoundError) and desk not in (None, host_name()):
                # a shared database: the plan stays in the results folder of the desk that made it
                raise refused("plan_elsewhere", host=desk) from exc
            raise refused("plan_gone", path=str(path or "")) from exc
        with plan:
            if not plan.finished:
                raise refused("not_succeeded")
            return sum(1 for r in plan.absent_deletes() if r.action is RowAction.DELETE), plan.meta.file_sha256 or ""

    def _unchanged_file(self, source: TaskRecord, planned: set[str]) -> tuple[Path, str, os.stat_result]:
        """The dry run's file, as its plans read it: PLAN_NOT_APPLICABLE when it is gone or changed since."""
        file = Path(str(source.params.get("file") or ""))
        if not file.is_file():
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="file_gone", task_no=source.task_no,
                                 path=str(file))  # fmt: skip
        stat = file.stat()
        sha = file_sha256(file)
        if planned | {source.params.get("file_sha256")} != {sha}:
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="file_changed", task_no=source.task_no,
                                 path=str(file))  # fmt: skip
        return file, sha, stat

    def submit_apply(self, task_no: str, *, user: str, creator: str | None = None) -> SubmitResult:
        """Queue the apply of a dry run's change plan (`apply TASK_NO`): an import of the same file with the
        dry run's parameters, each row written only as the plan has it (imports/plan_apply.py). Refused,
        nothing queued (PLAN_NOT_APPLICABLE): not a dry run, not ended well, its plan discarded or gone,
        already applied (naming the apply), its file gone or changed since (naming the file). The dry run's
        applied_by is set in the transaction that queues the apply: of two applies at once, one wins. A
        workbook's dry run is applied whole: every sheet's plan (submit_workbook_apply)."""
        user = self._owner(user)  # team mode: the login (the apply is its task)
        source = self._plan_source(task_no, creator)
        task_no = source.task_no
        if WORKBOOK.owns(source):
            return self._submit_workbook_apply(source, user)
        deletes, planned_sha = self._checked_plan(source, task_no)
        file, sha, stat = self._unchanged_file(source, {planned_sha})
        options = self._apply_options(source, deletes)
        params = {**options.to_params(), "file": str(file), "file_sha256": sha, "file_size": stat.st_size,
                  "file_mtime_ns": stat.st_mtime_ns}  # fmt: skip
        # The import's own key (the same bytes imported again later are refused as imported): while the
        # apply runs, asking again returns it.
        key = biz_key(sha, user, import_identity(options))
        return self._queue_apply(source, ImportHandler.task_type, params, user, key)

    def _apply_options(self, source: TaskRecord, deletes: int) -> ImportOptions:
        """A dry run's import for real, held to its plan; a sync confirming exactly the plan's deletes. In team
        mode the login's rights are checked now (a dry run writes nothing, so it did not need them)."""
        options = self.resubmission(source, dry_run=False, plan_of=source.task_no)
        if options.mode is ImportMode.SYNC:
            options = options.but(confirm_deletes=deletes)  # the plan's deletes, each held to its row
        self.check_rights(self.import_type(options.import_type), options.mode)
        self.request_profile(options)  # the dry run's profile version, still fitting the type
        return options

    def _queue_apply(self, source: TaskRecord, task_type: str, params: dict[str, Any], user: str,
                     key: str) -> SubmitResult:  # fmt: skip
        """Queue the apply, marking the dry run applied by it in the same transaction (one of two wins)."""
        host = plan_desk(source)
        lane = self.registry.get(task_type).lane
        try:
            result = self.store.submit(task_type=task_type, params=params, creator=user, lane=lane, biz_key=key,
                                       refuse_if_committed=False, host=host,
                                       marks=(source.id, TaskLink.APPLIED_BY))  # fmt: skip
        except LinkTaken:
            again = self.store.get(source.task_no)
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="applied", task_no=source.task_no,
                                 by=again.applied_by if again else "") from None  # fmt: skip
        if result.duplicate_of is not None:
            # the same bytes already importing (another apply, or an import of them): not this plan's apply
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="applied", task_no=source.task_no,
                                 by=result.duplicate_of)  # fmt: skip
        return result

    def _submit_workbook_apply(self, source: TaskRecord, user: str) -> SubmitResult:
        """A workbook's dry run applied whole: every sheet's plan checked first (one refused: nothing queued),
        then a workbook task whose sheets are each its dry-run sheet's apply (plan_of), run in the same order;
        each dry-run sheet is marked applied by its apply, the workbook's dry run by the new workbook."""
        from desktop_app.imports.workbook_task import PARTS, WorkbookHandler, queue_parts

        if source.status not in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED):
            raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="not_succeeded", task_no=source.task_no)
        sheets = {str(c.params.get("sheet")): c for c in self.store.children(source.task_no)
                  if ImportHandler.kind.owns(c)}  # fmt: skip
        parts, planned = [], set()
        for part in source.params.get(PARTS) or []:
            sheet = sheets.get(str(part.get("sheet")))
            if sheet is None:
                raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="not_succeeded", task_no=source.task_no)
            if sheet.applied_by:
                raise PermanentError(ErrorCode.PLAN_NOT_APPLICABLE, reason="applied", task_no=sheet.task_no,
                                     by=sheet.applied_by)  # fmt: skip
            deletes, sha = self._checked_plan(sheet, sheet.task_no)
            planned.add(sha)
            options = self._apply_options(sheet, deletes)
            params = options.to_params()
            params.pop("file")
            parts.append(params)
        file, sha, stat = self._unchanged_file(source, planned)
        params = {**source.params, PARTS: parts, "dry_run": False, "plan_of": source.task_no, "file": str(file),
                  "file_sha256": sha, "file_size": stat.st_size, "file_mtime_ns": stat.st_mtime_ns}  # fmt: skip
        # the same key as the workbook imported for real (submit_workbook): imported again later, it is refused
        key = biz_key(sha, user, workbook_identity(parts))
        result = self._queue_apply(source, WorkbookHandler.task_type, params, user, key)
        for applied in queue_parts(self.store, result.task):
            planned_by = applied.params.get("plan_of")
            dry = next((c for c in sheets.values() if c.task_no == planned_by), None)
            if dry is not None:
                self.store.annotate(dry.id, {TaskLink.APPLIED_BY: applied.task_no})
        return result

    def discard_plan(self, task_no: str, user: str, *, creator: str | None = None) -> TaskRecord:
        """Discard a dry run's change plan: its summary says plan_discarded and its plan file is deleted (the
        change CSV stays, a record of what was planned); an apply of it is refused from then on."""
        source = self._plan_source(task_no, creator)
        self.store.annotate(source.id, plan_discarded=True, plan_discarded_by=user)
        path = self.plan_file(source)
        if path is not None:
            for part in (path, path.with_name(path.name + "-journal")):
                part.unlink(missing_ok=True)
        return self.store.get(source.task_no) or source

    # --- feeds ---------------------------------------------------------------------------

    def feed_import(self, feed: Feed, path: Path) -> ImportOptions:
        """The import a feed asks for one of its files: its type and mode, and its mapping profile by name
        (its latest version when the file is queued, with its reading options: import_options)."""
        request = ImportOptions(file=path, import_type=feed.spec.import_type, mode=ImportMode(feed.spec.mode))
        return request.but(profile=feed.spec.profile) if feed.spec.profile else request

    def submit_feed_scan(
        self, feed: Feed, *, delay: float | None = None, succeeds: Fence | None = None
    ) -> SubmitResult:
        """Queue a look at a feed's folder (submit_feed_scan below)."""
        return submit_feed_scan(self.store, feed, delay=delay, succeeds=succeeds)

    # --- other task types ----------------------------------------------------------------

    def submit_export(self, name: str, *, filters: dict[str, Any], fmt: str = "csv", encoding: str = "utf-8-sig",
                      user: str, output: str | Path | None = None, replace: bool = False) -> SubmitResult:  # fmt: skip
        """Accept an export: returns the task at once (or the same export still pending/running). With
        ``output``, the file goes there ("Save as"), replacing a file there only with ``replace``."""
        handler: ExportHandler = self.registry.get(ExportHandler.task_type)  # type: ignore[assignment]
        user = self._owner(user)
        definition = handler.definition(name)
        if not self.visible(definition.import_type):
            raise PermanentError(ErrorCode.UNKNOWN_IMPORT_TYPE, import_type=name, available="")
        if fmt not in FORMATS:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"format must be one of {', '.join(FORMATS)}")
        if encoding not in ENCODINGS:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail=f"encoding must be one of {', '.join(ENCODINGS)}")
        check_type(self.store.engine, definition.import_type, reading=True)
        clean = definition.clean_filters(filters)
        task_no = clean.get(IMPORTED_BY)
        if self.login is not None and task_no and self.store.find(str(task_no)) is None:
            # team mode: the rows of another clerk's import are asked for by a task this login cannot see
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        params: dict[str, Any] = {"export": definition.name, "import_type": definition.import_type.name,
                                  "filters": clean, "format": fmt, "encoding": encoding}  # fmt: skip
        destination = ""
        if output:
            chosen = Path(output).expanduser().absolute()
            check_destination(chosen, replace=replace)
            destination = str(chosen)
            params.update(output=destination, replace=replace)
        # the file is written into the data dir of the desk that runs it: the asking desk
        key = export_key(definition.name, clean, fmt, encoding, destination)
        if self.login is not None:
            # each clerk's own export: another's same export (invisible to this login) is not this one
            key = hashlib.sha256(f"{key}\0{user}".encode()).hexdigest()
        return self.store.submit(task_type=ExportHandler.task_type, params=params, creator=user,
                                 lane=handler.lane, biz_key=key, refuse_if_committed=False,
                                 host=host_name())  # fmt: skip

    def submit_undo(self, task_no: str, *, user: str, creator: str | None = None) -> SubmitResult:
        """Queue the undo of an import; asking again gives the same undo (duplicate_of). With ``creator``
        (a clerk who is not an administrator), only that clerk's imports: another's is "no task"."""
        user = self._owner(user)
        source = self.store.find(task_no, creator=creator)
        if source is None:
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        problem = undo_problem(source)
        if problem:
            raise PermanentError(ErrorCode.NOT_UNDOABLE, task_no=task_no, reason=problem)
        if source.undone_by:
            earlier = self.store.get(source.undone_by)
            if earlier is not None:
                return SubmitResult(earlier, duplicate_of=earlier.task_no)
        workbook = WORKBOOK.owns(source)
        if workbook and self.store.active(undo_key(task_no)) is None and not undo_parts(self.store, source):
            raise PermanentError(ErrorCode.NOT_UNDOABLE, task_no=task_no, reason="nothing_left")
        if self.login is not None:
            self._check_undo_rights(source)
        result = self.store.submit(task_type=UndoHandler.task_type, params={"undoes": task_no}, creator=user,
                                   lane=UndoHandler.lane, biz_key=undo_key(task_no),
                                   refuse_if_committed=False)  # fmt: skip
        if workbook and result.duplicate_of is None:
            # one undo of the workbook; under it, the undo of each sheet, last imported first
            queue_undo_parts(self.store, result.task, source)
        return result

    def _check_undo_rights(self, source: TaskRecord) -> None:
        """Team mode: refuse, before the undo is queued, one the login's rights would refuse row by row (a
        workbook's: each sheet's type). An undo runs as its own asker, not as the import's owner."""
        imports = [c for c in self.store.children(source.task_no) if ImportHandler.kind.owns(c)] \
            if WORKBOOK.owns(source) else [source]  # fmt: skip
        for part in imports:
            itype = self.catalog.get(str(part.params.get("import_type")))
            self._refuse_lacking(itype, undo_rights(ImportMode(part.params.get("mode") or ImportMode.INSERT)))

    def submit_completion(
        self, task_no: str, *, user: str, add: bool = False, creator: str | None = None
    ) -> SubmitResult:
        """Queue the completion of an import's pending references (a short task: it never waits behind
        long ones). A completion of the same import still pending or running is returned. With ``add``
        the names not found are added to their reference tables first: refused (NOT_ADDABLE) for a
        column whose type does not say ``allow_add = true``. With ``creator``, only that clerk's imports."""
        user = self._owner(user)
        if add or creator is not None:
            source = self.store.find(task_no, creator=creator)
            if source is None or not ImportHandler.kind.owns(source):
                raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
            if add:
                self._check_addable(source)
        task_type = CompleteReferencesHandler.task_type
        return self.store.submit(task_type=task_type, params={"task_no": task_no, "add": add}, creator=user,
                                 lane=Lane.SHORT, biz_key=f"{task_type}:{task_no}" + (":add" if add else ""),
                                 refuse_if_committed=False)  # fmt: skip

    def names_to_add(self, task_no: str, *, creator: str | None = None) -> list[MissingReference]:
        """Every name adding an import's missing names would add now (the clerk confirms them first); with
        ``creator``, only that clerk's imports."""
        from desktop_app.imports.completion import names_to_add

        if self.store.find(task_no, creator=creator) is None:
            raise PermanentError(ErrorCode.TASK_NOT_FOUND, task_no=task_no)
        return names_to_add(self.store, self.catalog, task_no)

    # --- value fixes (issue 25) -------------------------------------------------------------

    def value_fix_source(self, task_no: str, *, creator: str | None = None) -> tuple[TaskRecord, ImportType]:
        """The import whose values are to be fixed and its type: TASK_NOT_FOUND (none, another clerk's, not an
        import), VALUES_NOT_FIXABLE (not ended, a dry run, undone, no error rows)."""
        from desktop_app.imports import value_fixes

        found = self.store.find(task_no, creator=creator)
        source = value_fixes.check_fixable(found, task_no, self._error_file(found))
        return source, self.import_type(str(source.params.get("import_type")))

    def _error_file(self, record: TaskRecord | None) -> Path | None:
        """The import's error CSV on this desk: its own, or the copy its shared database keeps (fetched)."""
        return None if record is None else self.task_file(record, FileKind.ERRORS)

    def task_file(self, record: TaskRecord, kind: FileKind, *, strict: bool = False) -> Path | None:
        """The task's error CSV or change file on this desk (tasks/task_files.py local_path): the local file,
        or the copy a shared database keeps, fetched into the data folder; None when there is neither. With
        ``strict``, a failure to reach the stored copy is raised rather than answered None. It may fetch a
        large file: never on the GUI thread (task_file_at_hand says when it needs not)."""
        from desktop_app.tasks.task_files import local_path, recorded_path

        if self.results_dir is None:  # no data folder to fetch into: the row's path, where it exists
            recorded = recorded_path(record, kind)
            return Path(recorded) if recorded and Path(recorded).is_file() else None
        return local_path(self.store, self.results_dir.parent, record, kind, strict=strict)

    def task_file_at_hand(self, record: TaskRecord, kind: FileKind) -> tuple[bool, Path | None]:
        """(True, task_file's answer) when it asks no database and fetches nothing (cheap: a file's stat);
        (False, None) when task_file must look in the shared database."""
        from desktop_app.tasks.task_files import at_hand, recorded_path

        if self.results_dir is None:
            recorded = recorded_path(record, kind)
            return True, (Path(recorded) if recorded and Path(recorded).is_file() else None)
        return at_hand(self.store, record, kind)

    def bad_values(self, task_no: str, *, creator: str | None = None) -> list[BadValue]:
        """The distinct values an ended import's enum columns refused, each with its row count and its
        column's allowed values (the window's "Fix values" lists these)."""
        from desktop_app.imports import value_fixes

        source, itype = self.value_fix_source(task_no, creator=creator)
        options = self._task_options(source)
        profile = value_fixes.task_profile_of(self.store.engine, options)
        errors = value_fixes.read_error_file(self._error_file(source) or Path(str(source.error_csv)))
        return value_fixes.bad_values(itype, errors, options, profile)

    def submit_value_fix(
        self, task_no: str, values: Mapping[str, Mapping[str, str]], *, user: str, creator: str | None = None
    ) -> SubmitResult:
        """Queue the fix of an import's values (column key or label -> {bad: good}): a short completion task
        that writes the rows that failed only for those values. Refused at once: an unknown column
        (VALUE_COLUMN_UNKNOWN), a value the column does not allow (VALUE_NOT_ALLOWED), and as
        :meth:`value_fix_source`."""
        from desktop_app.imports import value_fixes

        user = self._owner(user)
        source, itype = self.value_fix_source(task_no, creator=creator)
        mappings: dict[str, dict[str, str]] = {}
        for column, pairs in values.items():
            spec = value_fixes.find_column(itype, column)
            for bad, good in pairs.items():
                value_fixes.check_target(spec, good)
                mappings.setdefault(spec.key, {})[bad] = good
        if not mappings:
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="no value mapping given")
        digest = hashlib.sha256(json.dumps(mappings, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
        task_type = CompleteReferencesHandler.task_type
        return self.store.submit(task_type=task_type, params={"task_no": source.task_no, "values": mappings},
                                 creator=user, lane=Lane.SHORT, biz_key=f"{task_type}:{source.task_no}:values:{digest}",
                                 refuse_if_committed=False)  # fmt: skip

    def save_value_mappings(self, name: str, import_type: str, values: Mapping[str, Mapping[str, str]], *,
                            user: str, source: str) -> ProfileVersion:  # fmt: skip
        """Add value mappings (column key -> {bad: good}) to a profile as its new version; a name not saved
        yet becomes a profile of ``import_type`` holding only them."""
        from desktop_app.imports.value_fixes import merged_profile

        try:
            existing: Profile | None = self.profiles().get(name).profile
        except PermanentError as exc:
            if exc.code is not ErrorCode.PROFILE_NOT_FOUND:
                raise
            existing = None
        if existing is not None and existing.import_type != import_type:
            raise PermanentError(ErrorCode.PROFILE_TYPE_MISMATCH, name=name, profile_type=existing.import_type,
                                 import_type=import_type)  # fmt: skip
        return self.save_profile(name, merged_profile(existing, import_type, values), user=user, source=source)

    def _task_options(self, record: TaskRecord) -> ImportOptions:
        from desktop_app.imports.value_fixes import task_options

        s = self.settings
        return task_options(record, batch_size=s.batch_size, max_rows=s.max_rows, max_file_mb=s.max_file_mb)

    def _check_addable(self, source: TaskRecord) -> None:
        """Every column with a missing name lets a clerk add it (the type as it is now)."""
        itype = self.import_type(str(source.params.get("import_type")))
        refs = {ref.column: ref for ref in references_of(itype)}
        for missing in missing_of(source.summary):
            ref = refs.get(missing.column)
            if ref is None or not ref.allow_add:
                raise PermanentError(ErrorCode.NOT_ADDABLE, table=missing.table,
                                     column_zh=column_label(itype, missing.column, "zh"),
                                     column_en=column_label(itype, missing.column, "en"))  # fmt: skip


# the rights an import's mode needs on the type's table (team mode), and their words (zh, en)
RIGHT_WORDS = {Right.SELECT: ("查看", "read"), Right.INSERT: ("新增", "insert"), Right.UPDATE: ("修改", "update"),
               Right.DELETE: ("删除", "delete")}  # fmt: skip


def needed_rights(mode: ImportMode) -> list[Right]:
    """What an import in `mode` does to the table's rows, as rights: read it always (keys are looked up)."""
    needed = [Right.SELECT]
    if mode.inserts:
        needed.append(Right.INSERT)
    if mode.updates:
        needed.append(Right.UPDATE)
    if mode.removes_rows:
        needed.append(Right.DELETE)
    return needed


def undo_rights(mode: ImportMode) -> list[Right]:
    """What undoing an import in `mode` does to the table's rows, as rights: the rows it inserted are
    deleted, the ones it updated put back (updated), the ones it deleted inserted again; reading always."""
    needed = {Right.SELECT}
    if mode.inserts:
        needed.add(Right.DELETE)
    if mode.updates:
        needed.add(Right.UPDATE)
    if mode.removes_rows:
        needed.add(Right.INSERT)
    return [r for r in Right if r in needed]  # in the order the refusal names them


def workbook_identity(parts: Sequence[Mapping[str, Any]]) -> str:
    """What makes two imports of the same workbook one task: the mode (with its blank policy) and which
    sheet goes to which type, in the order they run (``parts``: the sheets' import params)."""
    from desktop_app.imports.workbook_task import WorkbookHandler

    first = parts[0] if parts else {}
    mode = ImportMode(first.get("mode") or ImportMode.INSERT)
    identity = f"{WorkbookHandler.task_type}:{mode.value}"
    if mode.updates:
        identity += f":{BlankPolicy(first.get('blank') or BlankPolicy.KEEP).value}"
    assignment = json.dumps([[p.get("sheet"), p.get("import_type")] for p in parts], ensure_ascii=False)
    return f"{identity}:{assignment}"


def import_identity(options: ImportOptions) -> str:
    """What makes two imports of the same bytes one task: the type, and the mode (with its blank policy)
    and a sync's scope where they are not the defaults."""
    kind = f"{ImportHandler.task_type}:{options.import_type}"
    if options.mode is not ImportMode.INSERT:
        # the mode is part of the identity: the same bytes in another mode are another task
        kind += f":{options.mode.value}" + (f":{options.blank.value}" if options.mode.updates else "")
    if options.scope:  # the same bytes synced over another part of the table are another task
        kind += ":" + json.dumps(options.scope, sort_keys=True, ensure_ascii=False)
    return kind


_DEFAULTS = {f.name: f.default for f in fields(ImportOptions) if f.name in OPTION_NAMES}


def given_options(request: ImportOptions) -> set[str]:
    """The reading options a request sets to something other than their defaults."""
    return {name for name, default in _DEFAULTS.items() if getattr(request, name) != default}


def feed_scan_key(feed_id: int) -> str:
    """The key of a feed's scans: one active scan per feed (pending or running), on every desk."""
    return f"{FEED_SCAN.name}:{feed_id}"


def submit_feed_scan(
    store: TaskStore, feed: Feed, *, delay: float | None = None, succeeds: Fence | None = None
) -> SubmitResult:
    """Queue a scan of a feed (a short system task of the feed's owner, run by the desk whose folder it is,
    or by any desk for a network folder), due in `delay` seconds. While one is pending or running, that
    one is returned (duplicate_of). `succeeds`: the running scan that queues its successor as it ends."""
    return store.submit(task_type=FEED_SCAN.name, params={"feed": feed.id, "name": feed.name}, creator=feed.owner,
                        lane=FEED_SCAN.lane, biz_key=feed_scan_key(feed.id), refuse_if_committed=False,
                        host=feed.host, delay=delay, succeeds=succeeds)  # fmt: skip


def feed_mail_key(task_no: str) -> str:
    """The key of the mail about one import of a feed: a scan killed and redone never mails twice."""
    return f"{FEED_MAIL.name}:{task_no}"


def submit_feed_mail(store: TaskStore, feed: Feed, task_no: str, file_name: str) -> SubmitResult:
    """Queue the mail about a feed's import that failed or had failed rows (a short system task of the
    feed's owner, run where its scans run). Once sent, the same key is refused (returned as it is)."""
    params = {"feed": feed.id, "name": feed.name, "task_no": task_no, "file": file_name}
    return store.submit(task_type=FEED_MAIL.name, params=params, creator=feed.owner, lane=FEED_MAIL.lane,
                        biz_key=feed_mail_key(task_no), host=feed.host)  # fmt: skip
