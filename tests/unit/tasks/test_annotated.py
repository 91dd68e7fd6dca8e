"""A run names the other tasks it annotated in its end's summary, and only a bounded number of them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from desktop_app.domain.task import TaskLink
from desktop_app.tasks.context import ANNOTATED, ANNOTATED_MAX, TaskContext


class _Store:
    def __init__(self) -> None:
        self.written: list[tuple[int, dict[str, Any]]] = []

    def annotate(self, task_id: int, links: dict[TaskLink, str] | None = None, **fields: Any) -> None:
        self.written.append((task_id, {**{k.value: v for k, v in (links or {}).items()}, **fields}))


def _ctx(store: _Store) -> TaskContext:
    ctx = TaskContext.__new__(TaskContext)  # only the annotation part: no database, no task behind it
    ctx.store = store  # type: ignore[assignment]
    ctx.annotated = []
    return ctx


def test_a_run_names_each_task_it_annotated_once() -> None:
    store = _Store()
    ctx = _ctx(store)
    assert ctx.annotated_summary() == {}
    for other in ("T1", "T2", "T1"):
        ctx.annotate(SimpleNamespace(id=int(other[1:]), task_no=other), {TaskLink.UNDONE_BY: "T9"})  # type: ignore[arg-type]
    assert store.written == [(1, {"undone_by": "T9"}), (2, {"undone_by": "T9"}), (1, {"undone_by": "T9"})]
    assert ctx.annotated_summary() == {ANNOTATED: ["T1", "T2"]}


def test_too_many_to_name_reads_as_true() -> None:
    ctx = _ctx(_Store())
    for n in range(ANNOTATED_MAX + 1):
        ctx.annotate(SimpleNamespace(id=n, task_no=f"T{n}"), expired=True)  # type: ignore[arg-type]
    assert ctx.annotated_summary() == {ANNOTATED: True}
