"""Rows of the task table as typed records, task numbers, and the small SQL helpers the store uses."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Row
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane, TaskRecord
from desktop_app.store.db_errors import classify, is_passing

log = logging.getLogger(__name__)
T = TypeVar("T")

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U to misread


def new_task_no() -> str:
    """A public task number a clerk can read out on the phone: T + date + 6 random characters."""
    stamp = time.strftime("%y%m%d")
    return "T" + stamp + "-" + "".join(secrets.choice(_ALPHABET) for _ in range(6))


def retry_db(fn: Callable[[], T], attempts: int = 5, pause: float = 0.5) -> T:
    """Run a database write, retrying connection-level failures a few times."""
    for number in range(1, attempts + 1):
        try:
            return fn()
        except (OperationalError, PoolTimeout) as exc:
            if not is_passing(exc):
                raise  # a missing table or a refused statement: trying again cannot help
            if number == attempts:
                raise classify(exc) from exc
            log.warning("database write failed (%s), retrying in %.1f s", exc, pause * number)
            time.sleep(pause * number)
    raise AssertionError("unreachable")


def record_from_row(row: Row[Any]) -> TaskRecord:
    m = row._mapping
    return TaskRecord(
        id=int(m["id"]),
        task_no=m["task_no"],
        task_type=m["task_type"],
        lane=Lane(m["lane"]),
        status=TaskStatus(m["status"]),
        params=dict(m["params"] or {}),
        biz_key=m["biz_key"],
        progress=int(m["progress"]),
        stage=m["stage"] or "",
        total_count=int(m["total_count"]),
        success_count=int(m["success_count"]),
        fail_count=int(m["fail_count"]),
        result_path=m["result_path"],
        error_code=m["error_code"],
        error_msg=m["error_msg"],
        creator=m["creator"] or "",
        host=m["host"],
        owner=m["owner"],
        attempt=int(m["attempt"]),
        recoveries=int(m["recoveries"]),
        retries=int(m["retries"]),
        cancel_requested=bool(m["cancel_requested"]),
        next_run_at=m["next_run_at"],
        checkpoint=m["checkpoint"],
        summary=dict(m["summary"] or {}),
        started_at=m["started_at"],
        ended_at=m["ended_at"],
        heartbeat_at=m["heartbeat_at"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        stage_phrase=m["stage_phrase"],
        error_phrase=m["error_phrase"],
        undone_by=m["undone_by"],
        resumed_by=m["resumed_by"],
        replaced_by=m["replaced_by"],
        applied_by=m["applied_by"],
        parent=m["parent"],
    )
