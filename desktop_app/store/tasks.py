"""The task repository: submit with a unique active key, claim, and fenced transitions by row count."""

from __future__ import annotations

import builtins
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, and_, case, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from desktop_app.domain.errors import ErrorCode, Lang, TransientError, message
from desktop_app.domain.phrase import stored_phrase
from desktop_app.domain.status import ACTIVE, TaskStatus, check_transition
from desktop_app.domain.task import Lane, SubmitResult, TaskLink, TaskRecord
from desktop_app.store.db import READONLY
from desktop_app.store.dialects import dialect_of
from desktop_app.store.schema import tasks, tasks_archive
from desktop_app.store.task_rows import new_task_no, record_from_row, retry_db
from desktop_app.store.team import login_of

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class Fence:
    """Who may write a running task: the owner that claimed it, for that attempt only."""

    task_id: int
    owner: str
    attempt: int


class LostOwnership(Exception):
    """A fenced write matched no row: another worker owns the task now, so our result is dropped."""


class LinkTaken(Exception):
    """A submission's mark on another task (submit's ``marks``) found that link set already: nothing created."""

    def __init__(self, task_id: int, link: TaskLink) -> None:
        super().__init__(f"task {task_id} has its {link.value} set already")
        self.task_id = task_id
        self.link = link


class TaskStore:
    """The task table behind a narrow interface; every transition is one conditional UPDATE."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = dialect_of(engine)

    def _own_runs(self) -> builtins.list[Any]:
        """In team mode, the tasks a desk runs and recovers: its login's own (a task runs with its owner's
        rights, so an administrator's desk, which sees every task, never runs another clerk's); else any."""
        login = login_of(self.engine)
        return [tasks.c.creator == login.name] if login is not None else []

    # --- reading -------------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(**{READONLY: True}) as conn, conn.begin():
            yield conn

    def now(self, offset: float = 0.0) -> Any:
        return self.dialect.now(offset)

    def get(self, task_no: str) -> TaskRecord | None:
        with self.reading() as conn:
            row = conn.execute(select(tasks).where(tasks.c.task_no == task_no)).first()
        return record_from_row(row) if row else None

    def get_by_id(self, task_id: int) -> TaskRecord | None:
        with self.reading() as conn:
            row = conn.execute(select(tasks).where(tasks.c.id == task_id)).first()
        return record_from_row(row) if row else None

    def get_many(self, task_nos: Sequence[str]) -> dict[str, TaskRecord]:
        """Tasks by number (the task table, else the archive), read a few hundred at a time; a number
        found in neither is left out."""
        wanted = list(dict.fromkeys(task_nos))
        found: dict[str, TaskRecord] = {}
        for table in (tasks, tasks_archive):
            missing = [n for n in wanted if n not in found]
            for start in range(0, len(missing), 500):
                chunk = missing[start : start + 500]
                with self.reading() as conn:
                    rows = conn.execute(select(table).where(table.c.task_no.in_(chunk))).all()
                found.update((r.task_no, record_from_row(r)) for r in rows)
            if len(found) == len(wanted):
                break
        return found

    def list(
        self,
        *,
        statuses: Sequence[TaskStatus] | None = None,
        task_type: str | None = None,
        limit: int = 1000,
        offset: int = 0,
        newest_first: bool = True,
        before_id: int | None = None,
        creator: str | None = None,
        archived: bool = False,
        other_than: Sequence[str] = (),
    ) -> builtins.list[TaskRecord]:
        """Tasks newest first (or oldest first). `before_id` pages by id (keyset): a page stays the
        same when new tasks arrive meanwhile, unlike an offset. `creator`: only that user's tasks
        (None: everyone's); `archived`: the tasks the clean-up moved to the archive instead; `other_than`:
        task types left out (the command line's listing without the system tasks)."""
        table = tasks_archive if archived else tasks
        query = select(table)
        if before_id is not None:
            query = query.where(table.c.id < before_id)
        query = _listed(query, table, statuses, creator, task_types=[task_type] if task_type else (),
                        other_than=other_than)  # fmt: skip
        query = query.order_by(table.c.id.desc() if newest_first else table.c.id.asc())
        with self.reading() as conn:
            rows = conn.execute(query.limit(limit).offset(offset)).all()
        return [record_from_row(r) for r in rows]

    def count_of_types(self, task_types: Sequence[str], *, statuses: Sequence[TaskStatus] | None = None,
                       creator: str | None = None, archived: bool = False,
                       newer_than: int | None = None) -> int:  # fmt: skip
        """How many tasks of these types list() would give with the same filters and no limit; with
        `newer_than`, only those after that task (a listing cut at its limit spans no older ones)."""
        table = tasks_archive if archived else tasks
        query = _listed(select(func.count()).select_from(table), table, statuses, creator, task_types=task_types)
        if newer_than is not None:
            query = query.where(table.c.id > newer_than)
        with self.reading() as conn:
            return int(conn.execute(query).scalar_one())

    def find(self, task_no: str, *, creator: str | None = None) -> TaskRecord | None:
        """A task by number, in the task table or else the archive; with `creator`, only that user's
        (another user's task is answered as no task at all)."""
        for table in (tasks, tasks_archive):
            query = select(table).where(table.c.task_no == task_no)
            if creator is not None:
                query = query.where(table.c.creator == creator)
            with self.reading() as conn:
                row = conn.execute(query).first()
            if row is not None:
                return record_from_row(row)
        return None

    def children(self, task_no: str) -> builtins.list[TaskRecord]:
        """The tasks whose parent is this one (a workbook's sheets), in created order."""
        with self.reading() as conn:
            rows = conn.execute(select(tasks).where(tasks.c.parent == task_no).order_by(tasks.c.id)).all()
        return [record_from_row(r) for r in rows]

    def count(self) -> int:
        with self.reading() as conn:
            return int(conn.execute(select(func.count()).select_from(tasks)).scalar_one())

    def changed_since(self, stamp: Any, *, creator: str | None = None) -> builtins.list[TaskRecord]:
        """Tasks updated after a database timestamp (for views that refresh incrementally); with
        `creator`, only that user's."""
        query = select(tasks).where(tasks.c.updated_at > stamp)
        if creator is not None:
            query = query.where(tasks.c.creator == creator)
        with self.reading() as conn:
            rows = conn.execute(query.order_by(tasks.c.id)).all()
        return [record_from_row(r) for r in rows]

    # --- submission ----------------------------------------------------------------------

    def submit(
        self,
        *,
        task_type: str,
        params: dict[str, Any],
        creator: str,
        lane: Lane = Lane.LONG,
        biz_key: str | None = None,
        force: bool = False,
        refuse_if_committed: bool = True,
        host: str | None = None,
        delay: float | None = None,
        succeeds: Fence | None = None,
        parent: str | None = None,
        marks: tuple[int, TaskLink] | None = None,
    ) -> SubmitResult:
        """Create a pending task, or return the active one with the same key (idempotent).

        The unique index on active_key decides concurrent submissions; the look-ups first only
        make the common repeat fast. An ended task with the same key that committed rows refuses
        the same bytes again unless forced (one that committed nothing, or was cancelled before it
        did, does not: there is nothing to import twice).

        `delay`: the task is due that many seconds from now (the database's clock; claim() takes it
        only then). `succeeds`: the running task (its fence) that queues its own successor under the
        same key as it ends (a feed's next scan): the key passes from it to the new task in one
        transaction, so there is one active task with the key at every moment; LostOwnership when that
        task is no longer the caller's. `parent`: the task this one is a part of (a workbook's sheet): no
        worker claims it on its own, its parent's run does (claim(parent=...)).
        `marks`: (task id, link) set to the new task's number in the same
        transaction, only where that link is still empty (a dry run's applied_by: of two applies at once,
        one wins); LinkTaken, nothing created, when it is set already.
        """
        for _ in range(5):
            if biz_key is not None:
                existing = self._find_active(biz_key)
                if existing is not None and not (succeeds is not None and existing.id == succeeds.task_id):
                    return SubmitResult(existing, duplicate_of=existing.task_no)
                if not force and refuse_if_committed:
                    ended = self._find_committed(biz_key)
                    if ended is not None:
                        return SubmitResult(ended, duplicate_of=ended.task_no, refused=True)
            task_no = new_task_no()
            try:
                with self.engine.begin() as conn:
                    if succeeds is not None:
                        handed = conn.execute(update(tasks).where(self._fenced(succeeds)).values(active_key=None))
                        if handed.rowcount != 1:
                            raise LostOwnership(succeeds.task_id)
                    if marks is not None:
                        marked_id, link = marks
                        column = tasks.c[link.value]
                        marked = conn.execute(update(tasks).where(tasks.c.id == marked_id, column.is_(None))
                                              .values({column: task_no, "updated_at": self.now()}))  # fmt: skip
                        if marked.rowcount != 1:
                            raise LinkTaken(marked_id, link)
                    conn.execute(
                        tasks.insert().values(
                            task_no=task_no,
                            task_type=task_type,
                            lane=lane.value,
                            biz_key=biz_key,
                            active_key=biz_key,
                            host=host,
                            params=params,
                            status=TaskStatus.PENDING.value,
                            creator=creator,
                            summary={},
                            next_run_at=self.now(delay) if delay and delay > 0 else None,
                            parent=parent,
                            created_at=self.now(),
                            updated_at=self.now(),
                        )
                    )
            except IntegrityError:
                # Another submission of the same key won the unique index (or, rarely, the task
                # number collided): look again.
                continue
            record = self.get(task_no)
            assert record is not None
            log.info("[%s] submitted %s by %s", task_no, task_type, creator)
            return SubmitResult(record)
        raise TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail="could not create the task after 5 tries")

    def active(self, biz_key: str) -> TaskRecord | None:
        """The pending or running task with this key, if there is one."""
        return self._find_active(biz_key)

    def bring_forward(self, task_id: int) -> bool:
        """A pending task due later is due now (a feed's `run`): False when it is no longer pending."""
        with self.engine.begin() as conn:
            matched = conn.execute(
                update(tasks)
                .where(tasks.c.id == task_id, tasks.c.status == TaskStatus.PENDING.value)
                .values(next_run_at=None, updated_at=self.now())
            ).rowcount
        return matched == 1

    def forget_idle(self, biz_key: str, *, before_id: int, task_type: str) -> int:
        """Delete the ended tasks of a key that did nothing (succeeded with a total of 0), older than
        `before_id`: a feed's scans that found nothing to do, one a minute, would otherwise fill the
        task table with rows that say nothing. The number deleted."""
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    tasks.delete().where(
                        tasks.c.biz_key == biz_key,
                        tasks.c.task_type == task_type,
                        tasks.c.id < before_id,
                        tasks.c.status == TaskStatus.SUCCEEDED.value,
                        tasks.c.total_count == 0,
                        tasks.c.active_key.is_(None),
                    )
                ).rowcount
            )

    def _find_active(self, biz_key: str) -> TaskRecord | None:
        with self.reading() as conn:
            row = conn.execute(select(tasks).where(tasks.c.active_key == biz_key)).first()
        return record_from_row(row) if row else None

    def _find_committed(self, biz_key: str) -> TaskRecord | None:
        """The newest ended task with this key that committed rows still in place (an undone one does
        not count: after an undo the same bytes may be imported again). The archive too: the same
        bytes imported 100 days ago are still imported."""
        for table in (tasks, tasks_archive):
            query = (
                select(table)
                .where(
                    table.c.biz_key == biz_key,
                    table.c.status.not_in([s.value for s in ACTIVE]),
                    table.c.success_count > 0,
                )
                .order_by(table.c.id.desc())
                .limit(20)
            )
            with self.reading() as conn:
                rows = conn.execute(query).all()
            found = next((t for t in map(record_from_row, rows) if _wrote_rows(t)), None)
            if found is not None:
                return found
        return None

    # --- claiming ------------------------------------------------------------------------

    def claim(
        self,
        owner: str,
        limit: int,
        *,
        lanes: Sequence[Lane] | None = None,
        only_ids: Sequence[int] | None = None,
        task_types: Sequence[str] | None = None,
        host: str | None = None,
        parent: str | None = None,
    ) -> builtins.list[TaskRecord]:
        """Claim up to `limit` due pending tasks in created order; each won by a conditional UPDATE.

        With `host`, only tasks of that desk or of no desk in particular (a file on a share, a task
        that only touches the database) are taken. A task with a parent (a workbook's sheet) is never
        claimed on its own: only with `parent`, by its parent's run, which takes its parts in turn."""
        if limit <= 0:
            return []
        due = or_(tasks.c.next_run_at.is_(None), tasks.c.next_run_at <= self.now())
        query = select(tasks.c.id).where(tasks.c.status == TaskStatus.PENDING.value, due, *self._own_runs())
        query = query.where(tasks.c.parent.is_(None) if parent is None else tasks.c.parent == parent)
        if lanes:
            query = query.where(tasks.c.lane.in_([lane.value for lane in lanes]))
        if only_ids is not None:
            query = query.where(tasks.c.id.in_(list(only_ids)))
        if host is not None:
            query = query.where(or_(tasks.c.host.is_(None), tasks.c.host == host))
        if task_types is not None:
            # A worker claims only the types it can run, so a newer desk's task waits for a newer desk.
            query = query.where(tasks.c.task_type.in_(list(task_types)))
        query = query.order_by(tasks.c.id).limit(limit)
        if self.dialect.row_locks:
            # Other claimers skip rows we hold instead of queueing behind us (SQLite's BEGIN
            # IMMEDIATE already serialises claimers; it has no row locks).
            query = query.with_for_update(skip_locked=True)
        won: builtins.list[int] = []
        with self.engine.begin() as conn:
            for task_id in conn.execute(query).scalars().all():
                result = conn.execute(
                    update(tasks)
                    .where(tasks.c.id == task_id, tasks.c.status == TaskStatus.PENDING.value)
                    .values(
                        status=TaskStatus.RUNNING.value,
                        owner=owner,
                        attempt=tasks.c.attempt + 1,
                        started_at=func.coalesce(tasks.c.started_at, self.now()),
                        heartbeat_at=self.now(),
                        next_run_at=None,
                        updated_at=self.now(),
                    )
                )
                if result.rowcount == 1:
                    won.append(task_id)
            if not won:
                return []
            rows = conn.execute(select(tasks).where(tasks.c.id.in_(won)).order_by(tasks.c.id)).all()
        claimed = [record_from_row(r) for r in rows if r.owner == owner]
        for task in claimed:
            log.info("[%s] claimed by %s (attempt %d)", task.task_no, owner, task.attempt)
        return claimed

    # --- fenced writes by the owner ------------------------------------------------------

    def _fenced(self, fence: Fence) -> Any:
        return and_(
            tasks.c.id == fence.task_id,
            tasks.c.status == TaskStatus.RUNNING.value,
            tasks.c.owner == fence.owner,
            tasks.c.attempt == fence.attempt,
        )

    def report_progress(
        self,
        fence: Fence,
        *,
        progress: int | None = None,
        stage: str | None = None,
        counts: tuple[int, int, int] | None = None,
        conn: Connection | None = None,
        checkpoint: dict[str, Any] | None = None,
        read_cancel: bool = True,
    ) -> bool:
        """Progress, heartbeat and (optionally) the checkpoint in one fenced UPDATE.

        Returns whether a cancel was requested. Raises LostOwnership when we no longer own it.
        """
        values: dict[str, Any] = {"heartbeat_at": self.now(), "updated_at": self.now()}
        if progress is not None:
            # Progress never runs backwards on screen, whatever order writes land in.
            values["progress"] = self.dialect.greatest(tasks.c.progress, max(0, min(100, int(progress))))
        if stage is not None:
            values.update(_stage_values(stage))
        moved_on: list[tuple[Any, Any]] = []
        if counts is not None:
            values["total_count"], values["success_count"], values["fail_count"] = counts
        # Only a checkpoint resets the recoveries: a task without one (an export) starts again from its
        # first row after every crash, keeps nothing a later run builds on, and so every crash of it
        # counts against the cap, however far the run had gone (its counts say how far that run got,
        # not what is kept; a crash that recurs, at the same row or near it, is a loop; a clerk queues
        # the export again at no cost, nothing was written).
        if checkpoint is not None:
            values["checkpoint"] = checkpoint
            if counts is not None:
                # A batch that takes the task further than any run before it: the crashes so far were
                # not a crash loop (a loop dies at the same batch every time), so they stop counting
                # against the cap; nor were the passing errors so far one lasting problem (the database
                # took this batch): the next outage is a new one, retried from the first delay, and
                # four short outages during a long import do not fail it. First in the SET list:
                # MySQL reads columns already assigned.
                further = counts[1] + counts[2] > tasks.c.success_count + tasks.c.fail_count
                moved_on.append((tasks.c.recoveries, case((further, 0), else_=tasks.c.recoveries)))
                moved_on.append((tasks.c.retries, case((further, 0), else_=tasks.c.retries)))
        assignments = [*moved_on, *((tasks.c[key], value) for key, value in values.items())]
        statement = update(tasks).where(self._fenced(fence)).ordered_values(*assignments)
        with self.engine.begin() if conn is None else nullcontext(conn) as on:
            matched, cancel_requested = self._fenced_update(
                on, statement, fence, read_cancel=read_cancel or conn is None
            )
        if matched != 1:
            log.warning("task id %s: progress write dropped, %s no longer owns attempt %s",
                        fence.task_id, fence.owner, fence.attempt)  # fmt: skip
            raise LostOwnership(fence.task_id)
        return cancel_requested

    def _fenced_update(self, conn: Connection, statement: Any, fence: Fence, *, read_cancel: bool) -> tuple[int, bool]:
        """The fenced UPDATE's matched rows and, when asked, whether a cancel was requested: one statement
        with RETURNING where the database has it for an UPDATE (PostgreSQL, SQLite), else an UPDATE and a
        SELECT (MySQL/MariaDB). Every batch's commit writes twice (measured on a million-row import into
        PostgreSQL: 76 statements and round trips fewer)."""
        if read_cancel and conn.dialect.update_returning:
            returned = conn.execute(statement.returning(tasks.c.cancel_requested)).all()
            return len(returned), bool(returned and returned[0][0])
        matched = conn.execute(statement).rowcount
        if not read_cancel:
            return matched, False
        cancel = conn.execute(select(tasks.c.cancel_requested).where(tasks.c.id == fence.task_id))
        return matched, bool(cancel.scalar())

    def heartbeat(self, owner: str, task_ids: Sequence[int]) -> set[int]:
        """Stamp the heartbeat of our running tasks; returns the ids still ours."""
        if not task_ids:
            return set()
        with self.engine.begin() as conn:
            conn.execute(
                update(tasks)
                .where(
                    tasks.c.id.in_(list(task_ids)),
                    tasks.c.owner == owner,
                    tasks.c.status == TaskStatus.RUNNING.value,
                )
                .values(heartbeat_at=self.now())
            )
            ours = conn.execute(
                select(tasks.c.id).where(
                    tasks.c.id.in_(list(task_ids)),
                    tasks.c.owner == owner,
                    tasks.c.status == TaskStatus.RUNNING.value,
                )
            )
            return set(ours.scalars().all())

    def finish(
        self,
        fence: Fence,
        status: TaskStatus,
        *,
        total: int | None = None,
        success: int | None = None,
        fail: int | None = None,
        result_path: str | None = None,
        error_code: str | None = None,
        error_msg: str | None = None,
        summary: dict[str, Any] | None = None,
        stage: str | None = None,
    ) -> bool:
        """running -> a final status (or cancelled), fenced. False: dropped, another owner has it."""
        check_transition(TaskStatus.RUNNING, status)
        if not status.is_final:
            raise ValueError("finish() takes a final status; use release() to go back to pending")
        values: dict[str, Any] = {
            "status": status.value,
            "active_key": None,
            "ended_at": self.now(),
            "updated_at": self.now(),
            "result_path": result_path,
            "error_code": error_code,
            **_error_values(error_msg or None),
        }
        if status in (TaskStatus.SUCCEEDED, TaskStatus.PARTIALLY_SUCCEEDED):
            values["progress"] = 100
        for key, value in (("total_count", total), ("success_count", success), ("fail_count", fail)):
            if value is not None:
                values[key] = value
        if summary is not None:
            values["summary"] = summary
        if stage is not None:
            values.update(_stage_values(stage))
        return self._write(fence, values, f"finish as {status.value}")

    def release(
        self,
        fence: Fence,
        *,
        delay: float | None = None,
        is_retry: bool = False,
        stage: str | None = None,
        error_msg: str | None = None,
    ) -> bool:
        """running -> pending: a graceful stop or a retry; the checkpoint stays for the next run."""
        check_transition(TaskStatus.RUNNING, TaskStatus.PENDING)
        values: dict[str, Any] = {
            "status": TaskStatus.PENDING.value,
            "owner": None,
            "updated_at": self.now(),
            "next_run_at": self.now(delay) if delay else None,
        }
        if is_retry:
            values["retries"] = tasks.c.retries + 1
        if stage is not None:
            values.update(_stage_values(stage))
        if error_msg is not None:
            values.update(_error_values(error_msg))
        return self._write(fence, values, "release to pending")

    def _write(self, fence: Fence, values: dict[str, Any], what: str) -> bool:
        def attempt() -> int:
            with self.engine.begin() as conn:
                return int(conn.execute(update(tasks).where(self._fenced(fence)).values(**values)).rowcount)

        # The final write is retried: a lost "finished" would leave the task claimed while we live.
        matched = retry_db(attempt)
        if matched != 1:
            log.warning("task id %s: %s dropped, %s no longer owns attempt %s (another worker took over)",
                        fence.task_id, what, fence.owner, fence.attempt)  # fmt: skip
            return False
        return True

    # --- transitions by anyone -----------------------------------------------------------

    def cancel(self, task_no: str, stage: str = "", *, creator: str | None = None) -> TaskRecord | None:
        """pending -> cancelled at once; running -> a request the worker honours at its next batch.
        With `creator`, only that user's task (another user's is left alone and answered as None). Its
        parts (a workbook's sheets: tasks whose parent it is) are cancelled with it, in the same transaction."""
        mine = tasks.c.task_no == task_no
        if creator is not None:
            mine = and_(mine, tasks.c.creator == creator)
        with self.engine.begin() as conn:
            if conn.execute(select(tasks.c.id).where(mine, tasks.c.status.in_([s.value for s in ACTIVE]))).first():
                mine = or_(mine, and_(tasks.c.parent == task_no, tasks.c.creator == creator) if creator is not None
                           else tasks.c.parent == task_no)  # fmt: skip
            conn.execute(
                update(tasks)
                .where(mine, tasks.c.status == TaskStatus.PENDING.value)
                .values(
                    status=TaskStatus.CANCELLED.value,
                    active_key=None,
                    ended_at=self.now(),
                    updated_at=self.now(),
                    **_stage_values(stage),
                )
            )
            conn.execute(
                update(tasks)
                .where(mine, tasks.c.status == TaskStatus.RUNNING.value)
                .values(cancel_requested=True, updated_at=self.now())
            )
        return self.find(task_no, creator=creator)

    def recover_stale(
        self,
        stale_after: float,
        max_recoveries: int,
        stage: str = "",
        *,
        exclude_owner: str | None = None,
        lang: Lang = "zh",
    ) -> builtins.list[str]:
        """Running tasks whose heartbeat is older than stale_after go back to pending (an attempt);
        past max_recoveries recoveries without progress in between they fail (in the recovering
        desk's `lang`). Each row is re-checked in its own conditional UPDATE."""
        with self.reading() as conn:
            rows = conn.execute(
                select(tasks.c.id, tasks.c.task_no, tasks.c.owner, tasks.c.attempt, tasks.c.recoveries).where(
                    tasks.c.status == TaskStatus.RUNNING.value,
                    tasks.c.heartbeat_at < self.now(-stale_after),
                    # never our own: this process knows its tasks are alive (it heartbeats first)
                    tasks.c.owner != (exclude_owner or ""),
                    *self._own_runs(),
                ).order_by(tasks.c.id)  # a workbook before its sheets (it settles them when it fails)
            ).all()
        changed = []
        for row in rows:
            condition = and_(
                tasks.c.id == row.id,
                tasks.c.status == TaskStatus.RUNNING.value,
                tasks.c.attempt == row.attempt,
                tasks.c.heartbeat_at < self.now(-stale_after),
            )
            if self._recover(condition, row, max_recoveries, f"heartbeat older than {stale_after:.0f} s", stage, lang):
                changed.append(row.task_no)
        return changed

    def recover_dead_owners(
        self, host: str, is_alive: Callable[[str], bool], max_recoveries: int, stage: str = "", lang: Lang = "zh"
    ) -> builtins.list[str]:
        """At start-up: tasks owned by a process of this host that no longer exists, recovered at once."""
        with self.reading() as conn:
            rows = conn.execute(
                select(tasks.c.id, tasks.c.task_no, tasks.c.owner, tasks.c.attempt, tasks.c.recoveries).where(
                    tasks.c.status == TaskStatus.RUNNING.value,
                    tasks.c.owner.like(f"{host}:%"),
                    *self._own_runs(),
                )
            ).all()
        changed = []
        for row in rows:
            if is_alive(row.owner):
                continue
            condition = and_(
                tasks.c.id == row.id,
                tasks.c.status == TaskStatus.RUNNING.value,
                tasks.c.owner == row.owner,
                tasks.c.attempt == row.attempt,
            )
            if self._recover(condition, row, max_recoveries, "its process is gone", stage, lang):
                changed.append(row.task_no)
        return changed

    def _recover(self, condition: Any, row: Any, max_recoveries: int, why: str, stage: str, lang: Lang) -> bool:
        if row.recoveries >= max_recoveries:
            values: dict[str, Any] = {
                "status": TaskStatus.FAILED.value,
                "active_key": None,
                "ended_at": self.now(),
                "error_code": ErrorCode.WORKER_LOST.value,
                **_error_values(message(ErrorCode.WORKER_LOST, lang, count=row.recoveries + 1)),
                "recoveries": tasks.c.recoveries + 1,
                "updated_at": self.now(),
            }
        else:
            values = {
                "status": TaskStatus.PENDING.value,
                "owner": None,
                "recoveries": tasks.c.recoveries + 1,
                **_stage_values(stage),
                "updated_at": self.now(),
            }
        with self.engine.begin() as conn:
            if self.dialect.row_locks:
                # A row another desk holds locked (frozen mid-batch) is skipped, not waited for: the
                # server ends that desk's session, and the next round takes the task.
                free = select(tasks.c.id).where(condition).with_for_update(skip_locked=True)
                if conn.execute(free).first() is None:
                    return False
            matched = conn.execute(update(tasks).where(condition).values(**values)).rowcount
            if matched == 1 and values["status"] == TaskStatus.FAILED.value:
                # a workbook lost for good: its sheets would wait for a run that never comes (the rows its
                # running sheet committed stay, as a cancelled import's do)
                conn.execute(
                    update(tasks)
                    .where(tasks.c.parent == row.task_no,
                           tasks.c.status.in_([TaskStatus.PENDING.value, TaskStatus.RUNNING.value]))
                    .values(status=TaskStatus.CANCELLED.value, active_key=None, ended_at=self.now(),
                            updated_at=self.now(), **_stage_values(stage))
                )  # fmt: skip
        if matched == 1:
            log.warning("[%s] recovered from %s (%s): now %s", row.task_no, row.owner, why, values["status"])
            return True
        return False

    def ended_with_key(self, biz_key: str, *, exclude_id: int | None = None) -> builtins.list[TaskRecord]:
        """Ended tasks that had this key (an export's earlier runs), oldest first."""
        query = select(tasks).where(tasks.c.biz_key == biz_key, tasks.c.status.not_in([s.value for s in ACTIVE]))
        if exclude_id is not None:
            query = query.where(tasks.c.id != exclude_id)
        with self.reading() as conn:
            return [record_from_row(r) for r in conn.execute(query.order_by(tasks.c.id)).all()]

    def ended_before(self, cutoff: Any) -> builtins.list[TaskRecord]:
        """Final tasks that ended before a (UTC) time."""
        query = select(tasks).where(tasks.c.status.not_in([s.value for s in ACTIVE]), tasks.c.ended_at < cutoff)
        with self.reading() as conn:
            return [record_from_row(r) for r in conn.execute(query.order_by(tasks.c.id)).all()]

    def annotate(self, task_id: int, links: Mapping[TaskLink, str] | None = None, **fields: Any) -> None:
        """Mark a task from another one: its link columns (an import undone by T…, an export replaced by
        T…) and facts merged into its summary (an export's file expired). Not a transition: the status
        stays what it is."""
        values: dict[str, Any] = {link.value: str(number) for link, number in (links or {}).items()}
        with self.engine.begin() as conn:
            if fields:
                # FOR UPDATE: two annotations at once (a clean-up, a completion) must not lose one another
                current = conn.execute(select(tasks.c.summary).where(tasks.c.id == task_id).with_for_update()).scalar()
                values["summary"] = {**(current or {}), **fields}
            conn.execute(update(tasks).where(tasks.c.id == task_id).values(**values, updated_at=self.now()))

    def lock_summary(self, conn: Connection, task_id: int) -> dict[str, Any] | None:
        """A task's summary, its row locked for the rest of ``conn``'s transaction (SQLite: BEGIN IMMEDIATE
        already holds the write lock), so two completions of one import take their turns."""
        row = conn.execute(select(tasks.c.summary, tasks.c.undone_by).where(tasks.c.id == task_id).with_for_update())
        found = row.first()
        if found is None:
            return None
        return {**(found.summary or {}), "undone_by": found.undone_by}

    def add_counts(self, task_id: int, added: Mapping[str, int], *, conn: Connection | None = None,
                   **fields: Any) -> None:  # fmt: skip
        """Rows of an ended import completed afterwards (a value fix): ``added`` is added to the summary's
        counts of those names, and to the task's own ``success_count`` and ``fail_count``; ``fields`` are
        merged into its summary. Not a transition: the status stays what it is. In ``conn``'s transaction
        when given (the rows written and the counts commit together)."""
        with nullcontext(conn) if conn is not None else self.engine.begin() as conn:
            row = conn.execute(select(tasks.c.summary, tasks.c.success_count, tasks.c.fail_count)
                               .where(tasks.c.id == task_id).with_for_update()).first()  # fmt: skip
            if row is None:
                return
            summary = dict(row.summary or {})
            for name, delta in added.items():
                summary[name] = int(summary.get(name) or 0) + int(delta)
            summary.update(fields)
            values: dict[str, Any] = {"summary": summary, "updated_at": self.now()}
            values["success_count"] = int(row.success_count) + int(added.get("success_count", 0))
            values["fail_count"] = max(0, int(row.fail_count) + int(added.get("fail_count", 0)))
            conn.execute(update(tasks).where(tasks.c.id == task_id).values(**values))


def _stage_values(stage: str) -> dict[str, Any]:
    """The stage column and its code and params (None for plain text): a view renders the latter in the
    language it shows, the former stays for readers of the text and for rows without a code."""
    return {"stage": str(stage)[:200], "stage_phrase": stored_phrase(stage)}


def _error_values(error_msg: str | None) -> dict[str, Any]:
    """The error_msg column and its code and params, as _stage_values() for a stage."""
    return {"error_msg": None if error_msg is None else str(error_msg)[:2000], "error_phrase": stored_phrase(error_msg)}


def _wrote_rows(task: TaskRecord) -> bool:
    """Whether an ended import left rows of its own in a table: it inserted, updated or deleted some (rows
    it skipped or found unchanged are not "imported"), and no undo took them back."""
    if task.undone_by:
        return False
    kinds = task.to_json()
    return bool(
        kinds.get("inserted_count", task.success_count) or kinds.get("updated_count") or kinds.get("deleted_count")
    )


def _listed(query: Any, table: Any, statuses: Sequence[TaskStatus] | None, creator: str | None, *,
            task_types: Sequence[str] = (), other_than: Sequence[str] = ()) -> Any:  # fmt: skip
    """A listing's filters (TaskStore.list, count_of_types): statuses, creator, task types in or out."""
    if statuses:
        query = query.where(table.c.status.in_([s.value for s in statuses]))
    if task_types:
        query = query.where(table.c.task_type.in_(list(task_types)))
    if other_than:
        query = query.where(table.c.task_type.not_in(list(other_than)))
    if creator is not None:
        query = query.where(table.c.creator == creator)
    return query
