"""Run a short piece of I/O off the GUI thread and get its result back on the GUI thread."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

log = logging.getLogger(__name__)

Runner = Callable[[Callable[[], None]], None]


class _Relay(QObject):
    """Carries one result from a pool thread to the GUI thread (a queued connection).

    Signals:
        done(object): the function returned this value.
        failed(object): the function raised this exception.
    """

    done = Signal(object)
    failed = Signal(object)

    def __init__(self, on_done: Callable[[Any], None], on_error: Callable[[BaseException], None],
                 parent: QObject) -> None:  # fmt: skip
        super().__init__(parent)
        self._on_done = on_done
        self._on_error = on_error
        # Bound slots of an object living on the GUI thread: the call is queued to that thread.
        self.done.connect(self._deliver)
        self.failed.connect(self._fail)

    @Slot(object)
    def _deliver(self, value: Any) -> None:
        self._on_done(value)

    @Slot(object)
    def _fail(self, exc: Any) -> None:
        self._on_error(exc)


class Background(QObject):
    """Calls functions through a runner (the executor's small pool) and delivers results as callbacks.

    Tests may pass a runner that calls the function at once: the callbacks then still arrive through
    the event loop, as in production.
    """

    def __init__(self, runner: Runner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._pending: set[_Relay] = set()

    def call(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        def finish() -> None:
            self._pending.discard(relay)
            relay.deleteLater()

        def deliver(value: Any) -> None:
            finish()
            on_done(value)

        def fail(exc: BaseException) -> None:
            finish()
            if on_error is not None:
                on_error(exc)
            else:
                log.error("background call failed: %s", exc, exc_info=exc)

        relay = _Relay(deliver, fail, self)
        self._pending.add(relay)

        def work() -> None:
            try:
                value = fn()
            except Exception as exc:
                relay.failed.emit(exc)
            else:
                relay.done.emit(value)

        self._runner(work)

    def busy(self) -> bool:
        return bool(self._pending)
