"""The log file each core opens is closed: by the next core, or by the core's own close().

A fresh-clone run failed once in a GUI test that builds a second desk while the first one's workers
log: a line in flight reopened the file the second core had just closed, and its collection later
raised a ResourceWarning (an error under the suite's filterwarnings) in an unrelated test."""

from __future__ import annotations

import gc
import logging
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import build_core
from desktop_app.log import close_logging, our_handlers, setup_logging


@pytest.fixture(autouse=True)
def _no_handlers_left() -> Iterator[None]:
    yield
    close_logging()


def _collected_resource_warnings() -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        gc.collect()
    return [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]


def test_a_line_in_flight_does_not_reopen_a_log_file_a_second_core_closed(tmp_path: Path) -> None:
    setup_logging(tmp_path / "first")
    (first,) = our_handlers()
    setup_logging(tmp_path / "second")  # a second core: the first file's handler is closed
    assert first not in logging.getLogger().handlers
    # What a worker thread does that took the handler from the root logger just before the close.
    first.handle(logging.LogRecord("w", logging.INFO, __file__, 1, "a worker's line", None, None))
    assert getattr(first, "stream", None) is None, "the closed handler opened its file again"
    del first
    assert _collected_resource_warnings() == []


def test_two_cores_in_one_process_leave_no_file_open(tmp_path: Path) -> None:
    cores = [build_core(data_dir=tmp_path / name) for name in ("one", "two")]
    for core in cores:
        logging.getLogger("desktop_app.test").info("a line into %s", core.paths.log_dir)
    first_handlers = cores[0].log_handlers
    for core in cores:
        core.close()
    assert not our_handlers()
    assert all(getattr(h, "stream", None) is None for h in first_handlers + cores[1].log_handlers)
    del cores
    assert _collected_resource_warnings() == []
