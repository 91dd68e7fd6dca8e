"""Work on a file begun ahead on a thread of its own, taken later only if the file is unchanged since."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")


class FileAhead(Generic[T]):
    """One kind of work on a file (its hash, its line count...), begun while the program loads.

    The command line knows its file before it has loaded its modules and opened the database (~0.4 s of
    one core); the machine's other core meanwhile is idle. What is begun is taken once, and only while
    the file's size and modification time are what they were when it began: else the caller does the
    work again itself, as it would have without it."""

    def __init__(self, name: str, work: Callable[[Path], T]) -> None:
        self._name = name
        self._work = work
        self._begun: dict[Path, tuple[tuple[int, int], Future[T]]] = {}
        self._lock = threading.Lock()

    def begin(self, path: Path) -> None:
        """Start the work on the file, on a daemon thread (a file that cannot be read: nothing begins,
        the caller's own attempt says what is wrong with it)."""
        try:
            stat = path.stat()
        except OSError:
            return
        future: Future[T] = Future()

        def run() -> None:
            try:
                future.set_result(self._work(path))
            except BaseException as exc:  # handed to whoever takes it, raised there as its own would be
                future.set_exception(exc)

        with self._lock:
            self._begun[path] = ((stat.st_size, stat.st_mtime_ns), future)
        threading.Thread(target=run, name=self._name, daemon=True).start()

    def take(self, path: Path) -> Future[T] | None:
        """The work begun on this file if it is unchanged since (its result or its error); None if none was
        begun or the file changed."""
        with self._lock:
            begun = self._begun.pop(path, None)
        return self._unchanged(path, begun)

    def peek(self, path: Path) -> Future[T] | None:
        """As take, leaving the work to be taken."""
        with self._lock:
            begun = self._begun.get(path)
        return self._unchanged(path, begun)

    @staticmethod
    def _unchanged(path: Path, begun: tuple[tuple[int, int], Future[T]] | None) -> Future[T] | None:
        if begun is None:
            return None
        stamp, future = begun
        try:
            stat = path.stat()
        except OSError:
            return None
        return future if (stat.st_size, stat.st_mtime_ns) == stamp else None
