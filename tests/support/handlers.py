"""Test task types: a step task that writes a ledger row per step, fenced, so "exactly once" is checkable."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Column, Connection, Integer, MetaData, String, Table, select

from desktop_app.domain.errors import ErrorCode, PermanentError, TransientError
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.tasks.context import TaskContext

ledger_meta = MetaData()
ledger = Table(
    "test_ledger",
    ledger_meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("task_no", String(32), nullable=False),
    Column("step", Integer, nullable=False),
    Column("worker", String(200), nullable=False),
)


class StepHandler:
    """Runs params['steps'] steps, sleeping params['sleep'] s each; each step's ledger row and the
    checkpoint commit together, so a rerun resumes after the last committed step."""

    task_type = "test.steps"
    lane = Lane.LONG

    def run(self, ctx: TaskContext) -> TaskOutcome:
        steps = int(ctx.params.get("steps", 1))
        pause = float(ctx.params.get("sleep", 0.0))
        if ctx.params.get("fail") == "permanent":
            raise PermanentError(ErrorCode.INVALID_PARAMS, detail="asked to fail")
        if ctx.params.get("fail") == "transient":
            raise TransientError(ErrorCode.DATABASE_UNAVAILABLE, detail="asked to fail")
        if ctx.params.get("fail") == "bug":
            raise RuntimeError("a bug")
        start = int((ctx.checkpoint or {}).get("next", 0))
        for step in range(start, steps):
            ctx.check_stop()
            if pause:
                time.sleep(pause)

            def work(conn: Connection, step: int = step) -> None:
                conn.execute(ledger.insert().values(task_no=ctx.task.task_no, step=step, worker=ctx.fence.owner))
                if step == ctx.params.get("hold_at") and ctx.task.attempt == 1:  # in the transaction: row locked
                    time.sleep(float(ctx.params.get("hold", 0.0)))

            ctx.commit_batch(work, checkpoint={"next": step + 1}, progress=100 * (step + 1) / steps,
                             stage=f"step {step + 1} of {steps}", counts=(steps, step + 1, 0))  # fmt: skip
        return TaskOutcome(TaskStatus.SUCCEEDED, total_count=steps, success_count=steps)


class CrashHandler:
    """Kills its own worker process every time it runs (a task that crashes its worker)."""

    task_type = "test.crash"
    lane = Lane.LONG

    def run(self, ctx: TaskContext) -> TaskOutcome:
        import os

        os._exit(3)


class ShortHandler(StepHandler):
    task_type = "test.short"
    lane = Lane.SHORT


def ledger_rows(conn: Connection) -> list[Any]:
    return list(conn.execute(select(ledger.c.task_no, ledger.c.step, ledger.c.worker)).all())


def make_test_handlers() -> list[Any]:
    return [StepHandler(), ShortHandler(), CrashHandler()]
