"""The prefetch thread: order, errors, stopping, and no more than one item made ahead."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from desktop_app.imports.bulk.prefetch import Prefetch


def test_items_come_in_order_and_the_thread_ends() -> None:
    with Prefetch(iter(range(50))) as items:
        assert list(items) == list(range(50))
    assert not items._thread.is_alive()


def test_an_error_on_the_thread_comes_out_of_the_iteration() -> None:
    def failing() -> Iterator[int]:
        yield 1
        raise ValueError("bad block")

    with Prefetch(failing()) as items, pytest.raises(ValueError, match="bad block"):
        list(items)


def test_only_one_item_is_made_ahead_of_the_one_in_hand() -> None:
    made: list[int] = []

    def source() -> Iterator[int]:
        for i in range(6):
            made.append(i)
            yield i

    with Prefetch(source()) as items:
        for item in items:
            time.sleep(0.15)  # the consumer is slow: a queue of one would let item+2 be made meanwhile
            assert len(made) <= item + 2, f"holding {item}, the thread had made {made}"


def test_closing_early_stops_the_thread_and_closes_the_source() -> None:
    closed = threading.Event()

    def endless() -> Iterator[int]:
        try:
            i = 0
            while True:
                yield i
                i += 1
        finally:
            closed.set()

    items = Prefetch(endless())
    first = next(iter(items))
    items.close()
    assert first == 0
    assert not items._thread.is_alive()
    assert closed.wait(2)
