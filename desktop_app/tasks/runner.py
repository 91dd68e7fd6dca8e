"""Runs one claimed task through its handler and records how it ended; Qt-free, so tests can call it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from desktop_app.config import Paths, Settings
from desktop_app.domain.errors import BatchDeskError, ErrorCode, Lang, disk_full, message
from desktop_app.domain.retry import retry_delay
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress, TaskRecord
from desktop_app.log import TaskAdapter, task_logger
from desktop_app.store.db_errors import classify, is_passing
from desktop_app.store.tasks import Fence, LostOwnership, TaskStore
from desktop_app.tasks import task_files
from desktop_app.tasks.context import Stopped, StopReason, TaskContext
from desktop_app.tasks.registry import HandlerRegistry, TaskHandler
from desktop_app.tasks.result_paths import is_task_no

log = logging.getLogger(__name__)


def run_task(
    task: TaskRecord,
    *,
    registry: HandlerRegistry,
    store: TaskStore,
    paths: Paths,
    settings: Settings,
    stop_event: threading.Event,
    listener: Callable[[Progress], None] | None = None,
    lang: Lang = "zh",
    retry_rand: Callable[[], float] | None = None,
) -> None:
    """Run a task this process has claimed; every ending is one fenced write."""
    assert task.owner is not None and task.status is TaskStatus.RUNNING
    fence = Fence(task.id, task.owner, task.attempt)
    tlog = task_logger(__name__, task.task_no)
    ending = _SettlingStore(store, stop_event, tlog, work_dir=paths.work_dir, task_no=task.task_no)
    ctx = TaskContext(
        task=task, store=store, fence=fence, paths=paths, settings=settings,
        stop_event=stop_event, listener=listener, lang=lang,
    )  # fmt: skip
    handler = None
    try:
        handler = registry.get(task.task_type)
        tlog.info("started %s (attempt %d)", task.task_type, task.attempt)
        outcome = handler.run(ctx)
    except Stopped as stop:
        ctx.flush_quietly()
        if stop.reason is StopReason.CANCEL:
            total, success, fail = ctx.counts
            ending.finish(fence, TaskStatus.CANCELLED, total=total, success=success, fail=fail,
                         stage=stage_text(Stage.CANCELLED_KEPT, lang), summary=_on_end(handler, ctx))  # fmt: skip
            tlog.info("cancelled at a batch boundary; %d rows committed stay", success)
        else:
            ending.release(fence, stage=stage_text(Stage.PAUSED, lang))
            tlog.info("stopped for shutdown; back to pending with its checkpoint")
    except LostOwnership:
        tlog.warning("lost ownership (another worker recovered it); this run's result is dropped")
    except BatchDeskError as exc:
        _ended_by_error(ending, fence, task, ctx, exc, lang, retry_rand, handler)
    except SQLAlchemyError as exc:
        # one place decides: a lost connection or a lock passes (retry), a missing table does not
        typed = classify(exc)
        if not typed.retryable:
            tlog.warning("database error that a retry cannot fix", exc_info=exc)
        _ended_by_error(ending, fence, task, ctx, typed, lang, retry_rand, handler)
    except OSError as exc:
        full = disk_full(exc)  # a full disk is a known, passing problem, not a bug
        if full is None:
            _internal(ending, fence, tlog, exc, lang, _on_end(handler, ctx))
        else:
            _ended_by_error(ending, fence, task, ctx, full, lang, retry_rand, handler)
    except Exception as exc:
        _internal(ending, fence, tlog, exc, lang, _on_end(handler, ctx))
    else:
        if ending.finish(
            fence,
            outcome.status,
            total=outcome.total_count,
            success=outcome.success_count,
            fail=outcome.fail_count,
            result_path=outcome.result_path,
            error_code=outcome.error_code,
            error_msg=outcome.error_msg,
            summary={**outcome.summary, **ctx.annotated_summary()},
            stage=_final_stage(outcome.status, lang),
        ):
            tlog.info("ended %s: total %d, ok %d, failed %d", outcome.status.value,
                      outcome.total_count, outcome.success_count, outcome.fail_count)  # fmt: skip


def _final_stage(status: TaskStatus, lang: Lang) -> str:
    stage = {
        TaskStatus.SUCCEEDED: Stage.DONE,
        TaskStatus.PARTIALLY_SUCCEEDED: Stage.DONE_PARTIAL,
        TaskStatus.FAILED: Stage.FAILED,
        TaskStatus.CANCELLED: Stage.CANCELLED,
    }.get(status)
    return stage_text(stage, lang) if stage else ""


def _ended_by_error(
    store: _SettlingStore,
    fence: Fence,
    task: TaskRecord,
    ctx: TaskContext,
    exc: BatchDeskError,
    lang: Lang,
    retry_rand: Callable[[], float] | None,
    handler: TaskHandler | None,
) -> None:
    tlog = task_logger(__name__, task.task_no)
    total, success, fail = ctx.counts
    if exc.retryable and not ctx.cancel_requested:
        number = task.retries + 1
        delay = retry_delay(number) if retry_rand is None else retry_delay(number, rand=retry_rand)
        if delay is not None:
            tlog.warning("transient error (%s); retry %d in %.0f s", exc, number, delay)
            store.release(fence, delay=delay, is_retry=True, error_msg=exc.text(lang),
                          stage=stage_text(Stage.WAITING_RETRY, lang, number=number),
                          before=lambda: _on_hand_back(handler, ctx))  # fmt: skip
            return
        text = message(ErrorCode.RETRIES_EXHAUSTED, lang, count=task.retries, reason=exc.text(lang))
        store.finish(fence, TaskStatus.FAILED, total=total, success=success, fail=fail,
                     error_code=ErrorCode.RETRIES_EXHAUSTED.value, error_msg=text,
                     stage=stage_text(Stage.FAILED, lang), summary=_on_end(handler, ctx))  # fmt: skip
        tlog.error("failed after %d retries: %s", task.retries, exc)
        return
    if ctx.cancel_requested:
        store.finish(fence, TaskStatus.CANCELLED, total=total, success=success, fail=fail,
                     stage=stage_text(Stage.CANCELLED, lang), summary=_on_end(handler, ctx))  # fmt: skip
        return
    store.finish(fence, TaskStatus.FAILED, total=total, success=success, fail=fail,
                 error_code=exc.code.value, error_msg=exc.text(lang), stage=stage_text(Stage.FAILED, lang),
                 summary=_on_end(handler, ctx))  # fmt: skip
    tlog.info("failed: %s", exc)


def _on_hand_back(handler: TaskHandler | None, ctx: TaskContext) -> None:
    """The handler's work files cut back to its checkpoint before a retry (its hook, if it has one)."""
    hook = getattr(handler, "on_hand_back", None)
    if hook is not None:
        hook(ctx)


def _on_end(handler: TaskHandler | None, ctx: TaskContext) -> dict[str, Any] | None:
    """The handler's last word when the task ends without its own outcome (e.g. files to keep)."""
    hook = getattr(handler, "on_end", None)
    if hook is None:
        return None
    try:
        ctx.store.report_progress(ctx.fence)  # only the task's owner may touch its files
    except Exception:
        return None
    try:
        return dict(hook(ctx)) or None
    except Exception:
        ctx.log.exception("could not keep the task's partial results")
        return None


def _internal(
    store: _SettlingStore, fence: Fence, tlog: TaskAdapter, exc: Exception, lang: Lang, summary: dict[str, Any] | None
) -> None:
    tlog.exception("internal error while running the task")
    text = message(ErrorCode.INTERNAL_ERROR, lang, detail=f"{type(exc).__name__}: {exc}"[:500])
    try:
        store.finish(fence, TaskStatus.FAILED, error_code=ErrorCode.INTERNAL_ERROR.value, error_msg=text,
                     stage=stage_text(Stage.FAILED, lang), summary=summary)  # fmt: skip
    except Exception:  # the database itself may be what broke; the stale check will recover it
        tlog.exception("could not record the failure")


class _SettlingStore:
    """The task's ending writes (finish, release), kept trying until the database takes them.

    A lost ending would leave the task running under a live owner that no longer runs it: nobody
    rescues it (its owner never rescues itself) and `--wait` never returns (Solid Queue #748). So a
    write that fails for a passing reason (the server restarting, a file locked by another process,
    a full disk) is tried again with a growing pause, on a fresh connection each time (the pool
    pings first), until it lands or this process shuts down (then its next start recovers the task).
    """

    def __init__(
        self,
        store: TaskStore,
        stop_event: threading.Event,
        tlog: TaskAdapter,
        *,
        work_dir: Path,
        task_no: str,
        pause_max: float = 30.0,
    ) -> None:
        self._store = store
        self._stop = stop_event
        self._log = tlog
        self._work_dir = work_dir
        self._task_no = task_no
        self._pause_max = pause_max

    def finish(self, fence: Fence, status: TaskStatus, **values: Any) -> bool:
        # First: an ended task keeps no work file (what it hands over the handler has moved out), and
        # on a full disk the space they free is what the status write itself may need (SQLite's file).
        # Only while the task is still ours (a read: it needs no disk space): a worker that lost it
        # must not delete its successor's files.
        self._drop_work_files(fence)
        ended = self._settle(lambda: self._store.finish(fence, status, **values), f"finish as {status.value}")
        if ended:
            self._drop_work_files(fence, ended=True)
            self._keep_files(fence)
        return ended

    def _keep_files(self, fence: Fence) -> None:
        """Every ending passes here once: the task's error CSV and change file go to a shared database,
        so that its owner opens them from any desk (tasks/task_files.py). Never fails the task."""
        if self._store.dialect.embedded:
            return
        try:
            record = self._store.get_by_id(fence.task_id)
            if record is not None:
                task_files.keep(self._store, record)
        except Exception as exc:
            self._log.warning("could not keep the task's files in the database: %s", exc)

    def _still_ours(self, fence: Fence) -> bool:
        """Whether the task is still this worker's (a read: it needs no disk space); a planted task
        number names no file of ours."""
        if not is_task_no(self._task_no):
            return False
        try:
            current = self._store.get_by_id(fence.task_id)
        except Exception:
            return False
        return current is not None and current.owner == fence.owner and current.attempt == fence.attempt

    def _drop_work_files(self, fence: Fence, *, ended: bool = False) -> None:
        """Remove the task's work files: only while it is ours, or once our own fenced write ended it
        (nobody can take a final task over). No file, no read of the task row."""
        if not is_task_no(self._task_no):  # a planted task number names no file of ours
            return
        parts = list(self._work_dir.glob(f"{self._task_no}-*.part"))
        if not parts or not (ended or self._still_ours(fence)):
            return
        for part in parts:
            try:
                part.unlink(missing_ok=True)
            except OSError as exc:
                self._log.warning("could not remove the work file %s: %s", part, exc)

    def release(self, fence: Fence, *, before: Callable[[], None] | None = None, **values: Any) -> bool:
        """Hand the task back as pending; `before` first trims its work files (only while it is ours:
        on a full disk, the space they free is what this write may need)."""
        if before is not None and self._still_ours(fence):
            try:
                before()
            except OSError as exc:
                self._log.warning("could not cut the work files back to the checkpoint: %s", exc)
        return self._settle(lambda: self._store.release(fence, **values), "hand back as pending")

    def _settle(self, write: Callable[[], bool], what: str) -> bool:
        pause = 1.0
        while True:
            try:
                return write()
            except (SQLAlchemyError, BatchDeskError) as exc:
                passing = exc.retryable if isinstance(exc, BatchDeskError) else is_passing(exc)
                if not passing:
                    raise
                if self._stop.is_set():
                    self._log.warning("could not %s before shutting down (%s); the next start recovers it",
                                      what, exc)  # fmt: skip
                    return False
                self._log.warning("could not %s (%s); trying again in %.0f s", what, exc, pause)
            self._stop.wait(pause)
            pause = min(self._pause_max, pause * 2)
