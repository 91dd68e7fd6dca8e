"""Task handlers registered by type: a new type is one new class; the executor and table never change."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Protocol, runtime_checkable

from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.task import Lane, TaskOutcome
from desktop_app.tasks.builtin_kinds import builtin_task_kinds
from desktop_app.tasks.context import TaskContext
from desktop_app.tasks.kinds import TaskKind, TaskKinds


@runtime_checkable
class TaskHandler(Protocol):
    """One task type. run() returns an outcome or raises PermanentError / TransientError / Stopped."""

    task_type: ClassVar[str]
    lane: Lane

    def run(self, ctx: TaskContext) -> TaskOutcome: ...


class HandlerRegistry:
    """The task types this process can run, built by the composition root (no module globals)."""

    def __init__(self, handlers: list[TaskHandler] | None = None) -> None:
        self._handlers: dict[str, TaskHandler] = {}
        for handler in handlers or []:
            self.add(handler)

    def add(self, handler: TaskHandler) -> None:
        if handler.task_type in self._handlers:
            raise ValueError(f"task type {handler.task_type!r} is registered twice")
        self._handlers[handler.task_type] = handler

    def get(self, task_type: str) -> TaskHandler:
        try:
            return self._handlers[task_type]
        except KeyError:
            raise PermanentError(ErrorCode.UNKNOWN_TASK_TYPE, task_type=task_type) from None

    def __contains__(self, task_type: object) -> bool:
        return task_type in self._handlers

    def __iter__(self) -> Iterator[TaskHandler]:
        return iter(self._handlers.values())

    def types(self) -> list[str]:
        return sorted(self._handlers)

    def kinds(self) -> TaskKinds:
        """What the window needs of each type: the handler's kind; the built-in kinds besides (a list shows
        the tasks another desk made, and a handler without a kind under a built-in name, a test's stand-in,
        is that type); any other type reads plainly."""
        builtin = builtin_task_kinds()
        own = {h.task_type: getattr(h, "kind", None) or builtin.known(h.task_type)
               or TaskKind(name=h.task_type, lane=h.lane) for h in self}  # fmt: skip
        return TaskKinds.of_kinds([*own.values(), *(k for k in builtin if k.name not in own)])
