"""A task made of parts (a workbook's sheets, their undo): its run runs each unfinished part in turn, here.

Each part is an ordinary task row with ``parent`` set (migration 0012), which no worker claims on its own
(store.claim): the parent's run claims it under the parent's owner and runs it through the runner with
its own context (its status, fenced batches, checkpoint, progress, error file), on the parent's worker
slot, so the long lane is held once. A thread keeps the part's heartbeat while it runs (the executor
stamps the parent's). After a crash the executor recovers both rows; the parent's next run skips the
parts that ended and resumes the one that was running from its checkpoint. A shutdown stops the part at
its batch boundary and hands both back; a cancel of the parent cancels its parts (store.cancel).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord
from desktop_app.tasks.context import Stopped, StopReason, TaskContext
from desktop_app.tasks.registry import HandlerRegistry
from desktop_app.tasks.runner import run_task

# the worst ending first: a parent ends as its worst part
WORST_FIRST = (TaskStatus.FAILED, TaskStatus.CANCELLED, TaskStatus.PARTIALLY_SUCCEEDED, TaskStatus.SUCCEEDED)
WAIT = 1.0  # seconds between looks at a part that is not due yet (a retry's pause) or held by a worker that died


def worst(statuses: Sequence[TaskStatus]) -> TaskStatus:
    """The worst of the parts' endings (failed > cancelled > partly succeeded > succeeded); none: succeeded."""
    return next((s for s in WORST_FIRST if s in statuses), TaskStatus.SUCCEEDED)


def run_parts(
    ctx: TaskContext,
    handlers: HandlerRegistry,
    parts: Sequence[str],
    *,
    starting: Callable[[int, TaskRecord], None] | None = None,
) -> list[TaskRecord]:
    """Run each part (task numbers, in order) that has not ended, one after another, and return them all as
    they ended. ``starting(index, part)``: called as a part begins (the parent's stage). A shutdown raises
    Stopped (the running part has gone back to pending with its checkpoint); a cancel lets the parts end
    cancelled (store.cancel cancelled them with their parent)."""
    for index, task_no in enumerate(parts):
        told = False
        while True:
            part = ctx.store.get(task_no)
            if part is None or part.status.is_final:
                break
            if ctx.stop_reason() is StopReason.SHUTDOWN:
                raise Stopped(StopReason.SHUTDOWN)
            if not told and starting is not None:
                starting(index, part)
                told = True
            claimed = ctx.store.claim(ctx.fence.owner, 1, only_ids=[part.id], parent=ctx.task.task_no)
            if not claimed:
                # not due yet (a retry's pause), or still held by a worker that died (the rescue hands it back)
                ctx.report(force=True)  # our own heartbeat, and whether we were cancelled meanwhile
                if ctx.cancel_requested and part.status is TaskStatus.PENDING:
                    ctx.store.cancel(part.task_no)
                ctx.sleep(WAIT)
                continue
            _run_one(ctx, handlers, claimed[0])
            ctx.report(force=True)
    ended = [ctx.store.get(t) for t in parts]
    return [t for t in ended if t is not None]


def _run_one(ctx: TaskContext, handlers: HandlerRegistry, part: TaskRecord) -> None:
    """Run one claimed part through the runner (every ending one fenced write), its heartbeat kept."""
    beating = threading.Event()
    owner = ctx.fence.owner
    every = max(0.5, ctx.settings.heartbeat_interval)

    def beat() -> None:
        while not beating.wait(every):
            try:
                ctx.store.heartbeat(owner, [part.id])
            except Exception:  # the database away: the part's own batches stamp it too
                ctx.log.debug("part %s: heartbeat skipped", part.task_no, exc_info=True)

    thread = threading.Thread(target=beat, name=f"batchdesk-part-{part.task_no}", daemon=True)
    thread.start()
    try:
        run_task(part, registry=handlers, store=ctx.store, paths=ctx.paths, settings=ctx.settings,
                 stop_event=ctx.stop_event, listener=ctx.listener, lang=ctx.lang)  # fmt: skip
    finally:
        beating.set()
        thread.join()
