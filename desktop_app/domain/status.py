"""Task statuses and the one small state machine over them."""

from __future__ import annotations

from enum import StrEnum


class TaskStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    PARTIALLY_SUCCEEDED = "partially_succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def is_active(self) -> bool:
        return self in ACTIVE

    @property
    def is_final(self) -> bool:
        return self not in ACTIVE


ACTIVE = frozenset({TaskStatus.PENDING, TaskStatus.RUNNING})
FINAL = frozenset(set(TaskStatus) - ACTIVE)

# Stages are text plus progress, never statuses: these edges are the whole machine.
TRANSITIONS: dict[TaskStatus, frozenset[TaskStatus]] = {
    TaskStatus.PENDING: frozenset({TaskStatus.RUNNING, TaskStatus.CANCELLED}),
    TaskStatus.RUNNING: frozenset(
        {
            TaskStatus.SUCCEEDED,
            TaskStatus.PARTIALLY_SUCCEEDED,
            TaskStatus.FAILED,
            TaskStatus.CANCELLED,
            TaskStatus.PENDING,  # a retry after a transient error, or recovery of a stale task
        }
    ),
    TaskStatus.SUCCEEDED: frozenset(),
    TaskStatus.PARTIALLY_SUCCEEDED: frozenset(),
    TaskStatus.FAILED: frozenset(),
    TaskStatus.CANCELLED: frozenset(),
}


class IllegalTransition(ValueError):
    """A transition the state machine does not have: a bug in the caller, never a clerk's mistake."""

    def __init__(self, current: TaskStatus, target: TaskStatus) -> None:
        super().__init__(f"illegal task transition {current.value} -> {target.value}")
        self.current, self.target = current, target


def check_transition(current: TaskStatus, target: TaskStatus) -> None:
    """Raise IllegalTransition unless current -> target is an edge of the machine."""
    if target not in TRANSITIONS[current]:
        raise IllegalTransition(current, target)


def outcome_status(total: int, failed: int, threshold: float = 0.30) -> TaskStatus:
    """The final status from row counts: none failed, up to threshold failed, or more."""
    if failed == 0:
        return TaskStatus.SUCCEEDED
    if total > 0 and failed / total <= threshold:
        return TaskStatus.PARTIALLY_SUCCEEDED
    return TaskStatus.FAILED
