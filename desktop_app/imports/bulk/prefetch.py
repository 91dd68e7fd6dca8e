"""The next batch made on a second thread while this one writes: reading and checking overlap the load.

Both halves spend most of their time in C++ (pyarrow) or C (the database drivers) with the GIL
released, so two threads use two cores. One batch is made ahead, no more: the next is begun only once
the consumer has taken the one made (a queue of one would let a third be built meanwhile, ~5 MB more at
the peak of a bulk import for no speed: the reading side is the busier one), so memory stays that of
two batches whatever the file's size.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Generic, TypeVar

T = TypeVar("T")

_END = object()
_POLL = 0.2  # seconds between looks at whether the consumer stopped


class Prefetch(Generic[T]):
    """Iterates `source` on a thread of its own, one item ahead. Close it (or leave the `with`) to stop
    the thread: an exception on the thread comes out of the iteration, in the consumer's thread."""

    def __init__(self, source: Iterator[T], *, name: str = "batchdesk-prefetch") -> None:
        self._source = source
        self._queue: queue.Queue[object] = queue.Queue(maxsize=1)
        self._stop = threading.Event()
        self._taken = threading.Event()  # the consumer took the item last put
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for item in self._source:
                if not self._put(item) or not self._wait_taken():
                    return
            self._put(_END)
        except BaseException as exc:  # handed to the consumer, which raises it
            self._put(_Failure(exc))
        finally:
            close = getattr(self._source, "close", None)
            if close is not None:
                close()

    def _put(self, item: object) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def _wait_taken(self) -> bool:
        while not self._taken.wait(_POLL):
            if self._stop.is_set():
                return False
        self._taken.clear()
        return True

    def __iter__(self) -> Iterator[T]:
        while True:
            item = self._queue.get()
            self._taken.set()
            if item is _END:
                return
            if isinstance(item, _Failure):
                raise item.exc
            yield item  # type: ignore[misc]

    def close(self) -> None:
        """Stop the thread and wait for it (it stops at its next batch)."""
        self._stop.set()
        while True:  # free a put that waits, so the thread sees the stop
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
        self._thread.join()

    def __enter__(self) -> Prefetch[T]:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class _Failure:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc
