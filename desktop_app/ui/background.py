"""Run a short piece of I/O off the GUI thread and get its result back on the GUI thread."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import shiboken6
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

    def __init__(
        self,
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        finish: Callable[[], None],
        parent: QObject,
    ) -> None:
        super().__init__(parent)
        self._on_done = on_done
        self._on_error = on_error
        self._finish = finish
        self._context: QObject | None = None
        self._gone = False
        # Bound slots of an object living on the GUI thread: the call is queued to that thread.
        self.done.connect(self._deliver)
        self.failed.connect(self._fail)

    def watch(self, context: QObject) -> None:
        """Drop the answer once `context` (the object the callbacks touch) is destroyed."""
        self._context = context
        context.destroyed.connect(self._context_destroyed)

    @Slot()
    def _context_destroyed(self) -> None:
        self._gone = True

    def _receiver_gone(self) -> bool:
        return self._gone or (self._context is not None and not shiboken6.isValid(self._context))

    @Slot(object)
    def _deliver(self, value: Any) -> None:
        self._finish()
        if self._receiver_gone():
            log.debug("a background result was dropped: its receiver is gone")
            return
        self._on_done(value)

    @Slot(object)
    def _fail(self, exc: Any) -> None:
        self._finish()
        if self._receiver_gone():
            log.debug("a background failure was dropped: its receiver is gone (%s)", exc)
            return
        self._on_error(exc)


class _Gate:
    """Whether the relays may still be told: shut, under its lock, as their Background is destroyed (before Qt
    deletes them as its children). An emit from a pool thread while the GUI thread deleted its relay crashed the
    process (a segmentation fault, seen in the test suite; reproduced by closing Backgrounds while their calls
    ended): an emit now happens under the lock, on a relay not yet deleted, or not at all."""

    def __init__(self) -> None:
        # re-entrant: a runner that calls at once (the tests') emits on the GUI thread, whose delivery may call
        # again (a model fetching more rows) or close the window (shut) before the first emit returns
        self.lock = threading.RLock()
        self.open = True

    def shut(self, *_args: object) -> None:
        with self.lock:
            self.open = False


def _emit(gate: _Gate, signal: Any, value: Any) -> None:
    with gate.lock:
        if not gate.open:
            log.debug("a background answer arrived after its window went away")
            return
        try:
            signal.emit(value)
        except RuntimeError:  # the relay alone was deleted while the call ran
            log.debug("a background answer arrived after its relay was deleted")


def _qobject_of(callback: Callable[..., Any]) -> QObject | None:
    owner = getattr(callback, "__self__", None)
    return owner if isinstance(owner, QObject) else None


class Background(QObject):
    """Calls functions through a runner (the executor's small pool) and delivers results as callbacks.

    A result whose receiver was destroyed meanwhile (a dialog closed while it was still reading) is
    dropped: the receiver is `context`, else the QObject whose bound method `on_done` is.

    Tests may pass a runner that calls the function at once: the callbacks then still arrive through
    the event loop, as in production.
    """

    def __init__(self, runner: Runner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._pending: set[_Relay] = set()
        # not a method of self: Qt calls it from this object's destructor, before the relays (its children) go
        self._gate = _Gate()
        self.destroyed.connect(self._gate.shut)

    def call(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None] | None = None,
        *,
        context: QObject | None = None,
    ) -> None:
        def finish() -> None:
            self._pending.discard(relay)
            relay.deleteLater()

        def fail(exc: BaseException) -> None:
            if on_error is not None:
                on_error(exc)
            else:
                log.error("background call failed: %s", exc, exc_info=exc)

        relay = _Relay(on_done, fail, finish, self)
        receiver = context if context is not None else _qobject_of(on_done)
        if receiver is not None:
            relay.watch(receiver)
        self._pending.add(relay)

        gate = self._gate

        def work() -> None:
            try:
                value = fn()
            except Exception as exc:
                _emit(gate, relay.failed, exc)
            else:
                _emit(gate, relay.done, value)

        self._runner(work)

    def busy(self) -> bool:
        return bool(self._pending)
