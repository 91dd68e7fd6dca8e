"""The state machine: exactly these edges, and nothing else."""

from __future__ import annotations

import itertools

import pytest

from desktop_app.domain.status import IllegalTransition, TaskStatus, check_transition, outcome_status

S = TaskStatus
LEGAL = {
    (S.PENDING, S.RUNNING),
    (S.PENDING, S.CANCELLED),
    (S.RUNNING, S.SUCCEEDED),
    (S.RUNNING, S.PARTIALLY_SUCCEEDED),
    (S.RUNNING, S.FAILED),
    (S.RUNNING, S.CANCELLED),
    (S.RUNNING, S.PENDING),
}


@pytest.mark.parametrize(("current", "target"), sorted(LEGAL))
def test_legal(current: TaskStatus, target: TaskStatus) -> None:
    check_transition(current, target)


@pytest.mark.parametrize(
    ("current", "target"), [p for p in itertools.product(TaskStatus, TaskStatus) if p not in LEGAL]
)
def test_illegal(current: TaskStatus, target: TaskStatus) -> None:
    with pytest.raises(IllegalTransition):
        check_transition(current, target)


def test_final_and_active() -> None:
    assert {s for s in S if s.is_active} == {S.PENDING, S.RUNNING}
    assert {s for s in S if s.is_final} == {S.SUCCEEDED, S.PARTIALLY_SUCCEEDED, S.FAILED, S.CANCELLED}


@pytest.mark.parametrize(
    ("total", "failed", "expected"),
    [
        (100, 0, S.SUCCEEDED),
        (0, 0, S.SUCCEEDED),
        (100, 1, S.PARTIALLY_SUCCEEDED),
        (100, 30, S.PARTIALLY_SUCCEEDED),  # exactly 30 % is still partial
        (100, 31, S.FAILED),
        (1000, 301, S.FAILED),
        (3, 1, S.FAILED),  # 33 %
        (10, 10, S.FAILED),
    ],
)
def test_outcome_threshold(total: int, failed: int, expected: TaskStatus) -> None:
    assert outcome_status(total, failed) is expected
