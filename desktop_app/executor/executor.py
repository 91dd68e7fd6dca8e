"""The executor: claims tasks into QThreadPool slots (with a lane for short tasks), heartbeats, recovers.

Signals:
    progress(Progress): a running task moved; throttled to a few times a second per task.
    task_changed(TaskRecord): a task was claimed, or ended (any final status or back to pending).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from desktop_app.config import Paths, Settings
from desktop_app.domain.errors import BatchDeskError, Lang
from desktop_app.domain.stages import Stage, stage_text
from desktop_app.domain.task import Lane, Progress, TaskRecord
from desktop_app.store.tasks import TaskStore
from desktop_app.store.team import login_of
from desktop_app.tasks.identity import host_name, make_owner, owner_alive
from desktop_app.tasks.maintenance import CleanupHandler
from desktop_app.tasks.registry import HandlerRegistry
from desktop_app.tasks.runner import run_task

log = logging.getLogger(__name__)

KEEP_EVERY = 600.0  # seconds between looks at what the task types keep queued (a feed's next scan)


def _passing(exc: Exception) -> bool:
    from sqlalchemy.exc import SQLAlchemyError

    from desktop_app.store.db_errors import is_passing

    if isinstance(exc, BatchDeskError):
        return exc.retryable
    return isinstance(exc, SQLAlchemyError) and is_passing(exc)


def _first_line(exc: Exception) -> str:
    from sqlalchemy.exc import SQLAlchemyError

    from desktop_app.store.db_errors import db_detail

    return db_detail(exc) if isinstance(exc, SQLAlchemyError) else str(exc)


class _Job(QRunnable):
    """One task run in a pool thread."""

    def __init__(self, fn: Callable[[], None]) -> None:
        super().__init__()
        self._fn = fn
        self.setAutoDelete(True)

    def run(self) -> None:
        self._fn()


class Executor(QObject):
    """Runs the task table's pending tasks in this process; serves the window and the command line."""

    progress = Signal(object)
    task_changed = Signal(object)

    def __init__(
        self,
        *,
        store: TaskStore,
        registry: HandlerRegistry,
        paths: Paths,
        settings: Settings,
        lang: Lang = "zh",
        only_task_ids: Iterable[int] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.registry = registry
        self.paths = paths
        self.settings = settings
        self.lang: Lang = lang
        self.owner = make_owner()
        self._host = host_name()
        self._only_ids = set(only_task_ids) if only_task_ids is not None else None
        self._slots = max(1, settings.workers)
        self._short_slots = min(max(0, settings.short_slots), self._slots - 1) if self._slots > 1 else 0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(self._slots)
        # Hashing a submitted file must not wait behind busy task slots, nor run on the GUI thread.
        self._submit_pool = QThreadPool(self)
        # One thread: hashing runs in native code on a free core, and two of them at once fill both
        # cores of a small machine, so the window's thread would wait for a core (not for the GIL).
        self._submit_pool.setMaxThreadCount(1)
        # Fetching a task's stored file from a shared database (100 MB, say) takes long: in a pool of its own,
        # so that the window's short reads (a page, a submission) never wait behind it.
        self._file_pool = QThreadPool(self)
        self._file_pool.setMaxThreadCount(1)
        self._lock = threading.Lock()
        self._running: dict[int, tuple[int, Lane]] = {}  # task id -> (attempt, lane)
        self._wake = threading.Event()
        self._stop = threading.Event()  # asks running handlers to stop at their next batch
        self._quit = threading.Event()  # ends the scheduler loop
        # Held by a claim round from its look at _stop to its last task handed to the pool, and by
        # shutdown() to set _stop: a round that began before the stop (its claim waiting on a busy
        # database) could otherwise claim a task the stop had just sent back to pending, and start it
        # after the pool's wait had ended (seen: an undo run again as the window closed, then failed).
        self._claiming = threading.Lock()
        self._thread: threading.Thread | None = None
        self._idle = threading.Condition(self._lock)

    # --- life cycle ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the scheduler thread; it first recovers this host's orphaned tasks, then claims.
        Nothing here touches the database, so the window's thread never waits on it."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._loop, name="batchdesk-scheduler", daemon=True)
        self._thread.start()
        log.info(
            "executor %s started: %d slots (%d kept for short tasks)",
            self.owner,
            self._slots,
            self._short_slots,
        )

    def _schedule_cleanup(self) -> None:
        """Once a day, whichever desk starts first queues the retention clean-up (a short task); the
        day's key makes the other desks' submissions return the same task."""
        if CleanupHandler.task_type not in self.registry or not self.settings.daily_cleanup:
            return
        key = f"cleanup:{host_name()}:{time.strftime('%Y-%m-%d')}"  # the result files are this desk's
        creator = "BatchDesk"
        try:
            login = login_of(self.store.engine)
            if login is not None:
                # team mode: a task is its login's (the server refuses another name), and each login's
                # clean-up sees only its own tasks, so two logins on one computer each run theirs
                creator, key = login.name, f"{key}:{login.name}"
            if self.store.ended_with_key(key):
                return  # it ran today already (even if it found nothing to remove)
            params = {"retention_days": self.settings.result_retention_days}
            self.store.submit(task_type=CleanupHandler.task_type, params=params, creator=creator,
                              lane=Lane.SHORT, biz_key=key, host=self._host)  # fmt: skip
        except Exception:
            log.exception("could not queue the daily clean-up")

    def shutdown(self, timeout: float = 60.0) -> bool:
        """Graceful stop: running tasks stop at a batch boundary and go back to pending with their
        checkpoint. Returns True when every worker ended in time."""
        with self._claiming:
            self._stop.set()
        self._wake.set()
        # The scheduler keeps heartbeating (it no longer claims) until the running tasks have
        # reached their batch boundary and gone back to pending: they must not look dead meanwhile.
        done = self._pool.waitForDone(int(timeout * 1000))
        self._submit_pool.waitForDone(int(timeout * 1000))
        self._file_pool.waitForDone(int(timeout * 1000))
        self._quit.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        log.info("executor %s stopped (%s)", self.owner, "clean" if done else "workers still running")
        return done

    def include(self, task_ids: Iterable[int]) -> None:
        """Run these tasks too (an executor made for some tasks only: `feed run --wait` follows the
        imports and the scans its scan queued)."""
        with self._lock:
            if self._only_ids is not None:
                self._only_ids.update(task_ids)
        self._wake.set()

    def wake(self) -> None:
        """Claim now instead of at the next poll (a local submission, a slot came free)."""
        self._wake.set()

    def running_count(self) -> int:
        with self._lock:
            return len(self._running)

    def wait_idle(self, timeout: float) -> bool:
        """Block until no task runs here (tests and the command line; never the GUI thread)."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._running:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    # --- off the caller's thread ----------------------------------------------------------

    def run_in_background(self, fn: Callable[[], None]) -> None:
        """Run a short piece of I/O (a cancel, a look-up) off the caller's thread."""
        self._submit_pool.start(_Job(fn))

    def run_file_work(self, fn: Callable[[], None]) -> None:
        """Run a long piece of file I/O (fetching a task's stored file) off the caller's thread, beside the
        short ones."""
        self._file_pool.start(_Job(fn))

    # --- the scheduler thread ------------------------------------------------------------

    def _first_round(self) -> None:
        stage = stage_text(Stage.WAITING_RECOVERY, self.lang)
        cap = self.settings.max_recoveries
        recovered = self.store.recover_dead_owners(host_name(), owner_alive, cap, stage, self.lang)
        if recovered:
            log.warning("recovered tasks of processes that are gone: %s", ", ".join(recovered))
        if self._only_ids is None:
            self._schedule_cleanup()
            self._keep_queued()

    def _keep_queued(self) -> None:
        """The task types that keep a task of theirs queued (a feed's next scan) make sure of it: as the
        executor starts and every KEEP_EVERY seconds (a chain a person cut, or a retry past its last)."""
        for handler in self.registry:
            keep = getattr(handler, "keep_queued", None)
            if keep is None:
                continue
            try:
                keep(self.store)
            except Exception as exc:
                if _passing(exc):
                    log.warning("could not look at what %s keeps queued (%s)", handler.task_type, _first_line(exc))
                else:
                    log.exception("could not look at what %s keeps queued", handler.task_type)

    def _loop(self) -> None:
        try:
            self._first_round()
        except Exception:
            log.exception("start-up recovery failed; the stale-heartbeat check will catch those tasks")
        next_heartbeat = time.monotonic() + self.settings.heartbeat_interval
        next_rescue = time.monotonic()
        next_keep = time.monotonic() + KEEP_EVERY
        while not self._quit.is_set():
            now = time.monotonic()
            if now >= next_keep and self._only_ids is None and not self._stop.is_set():
                self._keep_queued()
                next_keep = now + KEEP_EVERY
            try:
                # Heartbeat before judging others stale: after a sleep (laptop lid, paused VM) our own
                # tasks look stale too, and must be stamped before any rescue looks at them.
                if now >= next_heartbeat or now >= next_rescue:
                    self._heartbeat()
                    next_heartbeat = now + self.settings.heartbeat_interval
                if now >= next_rescue and not self._stop.is_set():
                    self._rescue()
                    next_rescue = now + max(1.0, min(30.0, self.settings.stale_after / 3))
                with self._claiming:
                    if not self._stop.is_set():
                        self._claim()
            except Exception as exc:
                # The database may be down or busy for a while: keep polling, never die silently; a
                # passing state (busy, locked, unreachable) is one plain line, a bug its traceback.
                if _passing(exc):
                    log.warning("database busy or unreachable (%s); trying again in %.0f s",
                                _first_line(exc), self.settings.poll_interval)  # fmt: skip
                else:
                    log.exception("scheduler round failed; trying again in %.0f s", self.settings.poll_interval)
                # A failed heartbeat or rescue must wait the poll interval, as the line says: left due,
                # the round came back every 50 ms (a full disk logged twenty lines a second).
                retry_at = time.monotonic() + self.settings.poll_interval
                next_heartbeat, next_rescue = max(next_heartbeat, retry_at), max(next_rescue, retry_at)
            timeout = min(self.settings.poll_interval, max(0.05, next_heartbeat - time.monotonic()))
            self._wake.wait(timeout)
            self._wake.clear()

    def _heartbeat(self) -> None:
        with self._lock:
            ids = list(self._running)
        if ids:
            ours = self.store.heartbeat(self.owner, ids)
            lost = set(ids) - ours
            with self._lock:
                lost &= self._running.keys()  # a run that ended meanwhile let its task go
            # a task this executor ended between taking the ids and the heartbeat's look is not lost (seen in a
            # tryout's log, 45 ms after the window ended it): read again, on this rare path only
            lost = {i for i in lost if not self._ended_here(i)}
            if lost:
                log.warning("tasks %s are no longer ours (ended or recovered elsewhere)", sorted(lost))

    def _ended_here(self, task_id: int) -> bool:
        record = self.store.get_by_id(task_id)
        return record is not None and record.status.is_final and record.owner == self.owner

    def _rescue(self) -> None:
        stage = stage_text(Stage.WAITING_RECOVERY, self.lang)
        recovered = self.store.recover_stale(
            self.settings.stale_after, self.settings.max_recoveries, stage, exclude_owner=self.owner, lang=self.lang
        )
        for task_no in recovered:
            log.warning("[%s] recovered: its heartbeat was older than %.0f s", task_no, self.settings.stale_after)
            self._wake.set()

    def _free_slots(self) -> tuple[int, int]:
        """(any-lane slots free, long-lane slots free): one slot or more stays for short tasks."""
        with self._lock:
            running = len(self._running)
            running_long = sum(1 for _, lane in self._running.values() if lane is Lane.LONG)
        free = self._slots - running
        free_long = min(free, (self._slots - self._short_slots) - running_long)
        return max(0, free), max(0, free_long)

    def _claim(self) -> None:
        with self._lock:
            only = None if self._only_ids is None else sorted(self._only_ids)
        if only is not None and not only:
            return
        types = self.registry.types()
        free, _ = self._free_slots()
        if free > 0:
            limit = min(free, self.settings.poll_batch)
            for task in self.store.claim(
                self.owner, limit, lanes=[Lane.SHORT], only_ids=only, task_types=types, host=self._host
            ):
                self._start(task)
        _, free_long = self._free_slots()
        if free_long > 0:
            limit = min(free_long, self.settings.poll_batch)
            for task in self.store.claim(
                self.owner, limit, lanes=[Lane.LONG], only_ids=only, task_types=types, host=self._host
            ):
                self._start(task)

    def _tell_progress(self, progress: Progress) -> None:
        """A task's progress to whoever listens; a task never fails because no one can hear it."""
        try:
            self.progress.emit(progress)
        except RuntimeError:  # the executor's Qt side is already gone (the window closed)
            log.debug("[%s] progress after the executor was deleted", progress.task_no)

    def _start(self, task: TaskRecord) -> None:
        with self._lock:
            self._running[task.id] = (task.attempt, task.lane)
        self.task_changed.emit(task)

        def work() -> None:
            try:
                run_task(
                    task,
                    registry=self.registry,
                    store=self.store,
                    paths=self.paths,
                    settings=self.settings,
                    stop_event=self._stop,
                    listener=self._tell_progress,
                    lang=self.lang,
                )
            except Exception:
                log.exception("[%s] runner failed", task.task_no)
            finally:
                with self._idle:
                    if self._running.get(task.id, (None,))[0] == task.attempt:
                        del self._running[task.id]  # only our attempt's entry, never a newer one's
                    self._idle.notify_all()
                self._wake.set()
                try:
                    record = self.store.get_by_id(task.id)
                except Exception:
                    log.exception("[%s] could not read the task after it ran", task.task_no)
                    record = None
                if record is not None:
                    try:
                        self.task_changed.emit(record)
                    except RuntimeError:  # the window (and this executor's Qt side) is already gone
                        log.debug("[%s] ended after the executor was deleted", task.task_no)

        self._pool.start(_Job(work))
