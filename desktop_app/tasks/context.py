"""What a running handler gets: its task, throttled progress, fenced batch commits and stop checks."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

from desktop_app.config import Paths, Settings
from desktop_app.domain.errors import Lang
from desktop_app.domain.task import Progress, TaskLink, TaskRecord
from desktop_app.log import TaskAdapter, task_logger
from desktop_app.store.tasks import Fence, TaskStore

T = TypeVar("T")


class StopReason(StrEnum):
    CANCEL = "cancel"
    SHUTDOWN = "shutdown"


class Stopped(Exception):
    """Raised by a handler at a batch boundary when asked to stop; what it committed stays."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass
class _Pending:
    progress: int = 0
    stage: str = ""
    counts: tuple[int, int, int] = (0, 0, 0)
    rows_in_file: int | None = None


ANNOTATED = "annotated"  # an ended task's summary: the task numbers its run annotated (True: too many to name)
ANNOTATED_MAX = 500  # a clean-up may mark thousands: past this, a view reads its whole list again


class TaskContext:
    """The handler's window on the engine. Progress goes to the database at most every
    `progress_db_interval` and to listeners at most every `progress_signal_interval`."""

    def __init__(
        self,
        *,
        task: TaskRecord,
        store: TaskStore,
        fence: Fence,
        paths: Paths,
        settings: Settings,
        stop_event: threading.Event,
        listener: Callable[[Progress], None] | None = None,
        lang: Lang = "zh",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.task = task
        self.store = store
        self.fence = fence
        self.paths = paths
        self.settings = settings
        self.lang: Lang = lang
        self.log: TaskAdapter = task_logger("desktop_app.task", task.task_no)
        self._stop_event = stop_event
        self._listener = listener
        self._clock = clock
        # the stage it stopped at, with its code: a write of it before the first new stage keeps the code
        stage = task.stage_in(lang)
        self._state = _Pending(task.progress, stage, (task.total_count, task.success_count, task.fail_count))
        self._last_db = float("-inf")
        self._last_signal = float("-inf")
        self._dirty = False
        self.cancel_requested = task.cancel_requested
        self._saved_checkpoint = task.checkpoint  # the newest committed one
        self._doubtful_checkpoint: dict[str, Any] | None = None
        self.annotated: list[str] = []  # the other tasks this run wrote facts on, in the order it did

    @property
    def params(self) -> dict[str, Any]:
        return self.task.params

    @property
    def checkpoint(self) -> dict[str, Any] | None:
        return self.task.checkpoint

    @property
    def saved_checkpoint(self) -> dict[str, Any] | None:
        """The checkpoint of the last batch committed (this run's, else the one it started from)."""
        return self._saved_checkpoint

    @property
    def doubtful_checkpoint(self) -> dict[str, Any] | None:
        """The checkpoint of a batch whose COMMIT raised (the connection lost as it went: the server may
        have committed it, the newest checkpoint then); None once a later batch committed."""
        return self._doubtful_checkpoint

    @property
    def stop_event(self) -> threading.Event:
        """The worker's shutdown signal (a task that runs its parts hands it on to each)."""
        return self._stop_event

    @property
    def listener(self) -> Callable[[Progress], None] | None:
        """Whoever hears the progress of the worker's tasks (a task's parts report to it too)."""
        return self._listener

    @property
    def work_dir(self) -> Path:
        return self.paths.work_dir

    @property
    def results_dir(self) -> Path:
        return self.paths.results_dir

    # --- other tasks ---------------------------------------------------------------------

    def annotate(self, other: TaskRecord, links: Mapping[TaskLink, str] | None = None, **fields: Any) -> None:
        """Mark another task (an import undone, an export replaced: `links`; facts for its summary) and
        remember it: the run's end names the tasks it changed (ANNOTATED), so a view reads them again
        without knowing the type."""
        self.store.annotate(other.id, links, **fields)
        if other.task_no not in self.annotated:
            self.annotated.append(other.task_no)

    def annotated_summary(self) -> dict[str, Any]:
        """What the run's end adds to its summary about the other tasks it changed (nothing if none)."""
        if not self.annotated:
            return {}
        return {ANNOTATED: self.annotated if len(self.annotated) <= ANNOTATED_MAX else True}

    # --- progress ------------------------------------------------------------------------

    def report(
        self,
        *,
        progress: float | None = None,
        stage: str | None = None,
        counts: tuple[int, int, int] | None = None,
        rows_in_file: int | None = None,
        force: bool = False,
    ) -> None:
        """Say where the task is; cheap to call per row: writes are throttled here, not by callers.
        `rows_in_file`: the rows the whole run will process, once known (the ticks carry it)."""
        if rows_in_file is not None:
            self._state.rows_in_file = rows_in_file
        if progress is not None:
            self._state.progress = max(self._state.progress, min(100, int(progress)))
        if stage is not None:
            self._state.stage = stage
        if counts is not None:
            self._state.counts = counts
        self._dirty = True
        now = self._clock()
        if force or now - self._last_db >= self.settings.progress_db_interval:
            self._write(now)
        elif now - self._last_signal >= self.settings.progress_signal_interval:
            self._notify(now)

    def commit_batch(
        self,
        work: Callable[[Connection], T],
        *,
        checkpoint: dict[str, Any] | Callable[[], dict[str, Any]],
        progress: float | None = None,
        stage: str | None = None,
        counts: tuple[int, int, int] | Callable[[], tuple[int, int, int]] | None = None,
        rows_in_file: int | None = None,
        connection: Connection | None = None,
    ) -> T:
        """Run `work` and record the checkpoint in the same transaction, fenced by our ownership:
        a crash resumes after the last committed batch, and a worker that lost its task commits nothing.

        `checkpoint` and `counts` may be callables, read after `work` ran (inside the transaction),
        when the work itself decides them. `connection`: run on this one (a bulk load's, set up for
        it) rather than one of the engine's. `rows_in_file`: as report()'s.
        """
        if rows_in_file is not None:
            self._state.rows_in_file = rows_in_file
        if progress is not None:
            self._state.progress = max(self._state.progress, min(100, int(progress)))
        if stage is not None:
            self._state.stage = stage
        previous = self._state.counts
        doubtful: dict[str, Any] | None = None
        try:
            with _transaction(self.store.engine, connection) as conn:
                # Ownership first: this fenced write locks our task row (SQLite: the database) until the
                # commit, so no rescuer can take the task while `work` runs, and a worker that lost it
                # (asleep through its own recovery) stops here before it writes anything, files included.
                self.store.report_progress(self.fence, conn=conn, read_cancel=False)
                result = work(conn)
                if counts is not None:
                    self._state.counts = counts() if callable(counts) else counts
                saved = checkpoint() if callable(checkpoint) else checkpoint
                try:
                    self.cancel_requested = self.store.report_progress(
                        self.fence,
                        progress=self._state.progress,
                        stage=self._state.stage,
                        counts=self._state.counts,
                        checkpoint=saved,
                        conn=conn,
                    )
                except BaseException:
                    self._state.counts = previous
                    raise
                # from here the batch is the server's: a connection lost at COMMIT leaves it in doubt
                doubtful = saved
        except BaseException:
            if doubtful is not None:
                self._doubtful_checkpoint = doubtful
            raise
        self._saved_checkpoint = saved
        self._doubtful_checkpoint = None
        now = self._clock()
        self._last_db = now
        self._notify(now)
        return result

    @property
    def counts(self) -> tuple[int, int, int]:
        return self._state.counts

    def flush_quietly(self) -> None:
        """Write the last progress if we still own the task; used on the way out, so never raises."""
        try:
            self.flush()
        except Exception:  # LostOwnership or a database error: the ending write decides
            self.log.debug("final progress write skipped", exc_info=True)

    def flush(self) -> None:
        if self._dirty:
            self._write(self._clock())

    def _write(self, now: float) -> None:
        self.cancel_requested = self.store.report_progress(
            self.fence, progress=self._state.progress, stage=self._state.stage, counts=self._state.counts
        )
        self._last_db = now
        self._notify(now)

    def _notify(self, now: float) -> None:
        self._dirty = False
        self._last_signal = now
        if self._listener is not None:
            total, success, fail = self._state.counts
            self._listener(
                Progress(
                    task_id=self.task.id,
                    task_no=self.task.task_no,
                    progress=self._state.progress,
                    stage=self._state.stage,
                    total_count=total,
                    success_count=success,
                    fail_count=fail,
                    rows_in_file=self._state.rows_in_file,
                )
            )

    # --- stopping ------------------------------------------------------------------------

    def stop_reason(self) -> StopReason | None:
        if self.cancel_requested:
            return StopReason.CANCEL
        if self._stop_event.is_set():
            return StopReason.SHUTDOWN
        return None

    def check_stop(self) -> None:
        """Call at each batch boundary: raises Stopped when a cancel or a shutdown was asked for."""
        reason = self.stop_reason()
        if reason is not None:
            raise Stopped(reason)

    def sleep(self, seconds: float) -> None:
        """A pause that a shutdown interrupts."""
        self._stop_event.wait(seconds)


@contextmanager
def _transaction(engine: Engine, connection: Connection | None) -> Iterator[Connection]:
    """A transaction on `connection` (going on with the one it is in: a batch loaded ahead), or on a
    connection of the engine's; committed when the block ends."""
    if connection is None:
        with engine.begin() as conn:
            yield conn
        return
    begun = connection.get_transaction()
    with begun if begun is not None else connection.begin():
        yield connection
