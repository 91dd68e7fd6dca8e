"""Worker processes forked from a server that imported BatchDesk once (multiprocessing's forkserver): each
a process of its own, killed with SIGKILL as any other, without the ~1.5 s of CPU that a Python start and
BatchDesk's imports cost (the slow stage starts a hundred and more of them)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(["desktop_app.cli.main", "desktop_app.cli.commands", "desktop_app.executor.executor",
                               "desktop_app.feeds.scan", "desktop_app.imports.pipeline",
                               "desktop_app.imports.bulk.choice", "tests.support.feedworker"])  # fmt: skip


def stop_server() -> None:
    """The server stopped and reaped: no process left, and its CPU and its workers' count as the test
    process's (what /usr/bin/time and the stage's figures measure)."""
    from multiprocessing import forkserver

    getattr(forkserver, "_forkserver")._stop()  # noqa: B009  (multiprocessing's own way, used by its tests)


@pytest.fixture(scope="module")
def fork_server() -> Iterator[None]:
    """Use in a module (autouse there) whose tests fork workers: the server goes with the module."""
    yield
    stop_server()


def _run(target: Callable[[list[str]], int], argv: list[str], env: dict[str, str], stderr_file: str) -> None:
    os.chdir(ROOT)
    os.environ.update(env)
    handle = open(stderr_file, "a", encoding="utf-8")  # noqa: SIM115  (the process's stderr until it ends)
    os.dup2(handle.fileno(), 2)
    sys.stderr = handle
    sys.exit(target(argv))


def cli_main(argv: list[str]) -> int:
    """`python -m desktop_app ARGV`'s entry."""
    from desktop_app.cli.main import main

    return int(main(argv) or 0)


def feed_main(argv: list[str]) -> int:
    """`python -m tests.support.feedworker ARGV`'s entry."""
    from tests.support.feedworker import main

    return main(argv)


class Forked:
    """A forked process as the few subprocess.Popen calls the tests make of it."""

    def __init__(self, target: Callable[[list[str]], int], argv: Sequence[str], stderr_file: Path,
                 env: Mapping[str, str] | None = None) -> None:  # fmt: skip
        self.stderr_file = stderr_file
        stderr_file.parent.mkdir(parents=True, exist_ok=True)
        args: tuple[Any, ...] = (target, list(argv), dict(env or {}), str(stderr_file))
        self.process = _FORKS.Process(target=_run, args=args)
        self.process.start()

    @property
    def returncode(self) -> int | None:
        return self.process.exitcode

    def poll(self) -> int | None:
        return self.process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self.process.join(timeout)
        if self.process.exitcode is None:
            raise subprocess.TimeoutExpired("forked worker", timeout or 0)
        return self.process.exitcode

    def send_signal(self, sig: int) -> None:
        if self.process.exitcode is None and self.process.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        self.wait(timeout)
        err = self.stderr_file.read_text(encoding="utf-8", errors="replace") if self.stderr_file.exists() else ""
        return "", err


def worker(db_url: str, data_dir: Path) -> Forked:
    """`python -m desktop_app worker --db URL` with its files in data_dir (BATCHDESK_HOME), forked."""
    stderr_file = data_dir.parent / f"worker-{time.monotonic_ns()}.err"
    return Forked(cli_main, ["worker", "--db", db_url], stderr_file, {"BATCHDESK_HOME": str(data_dir)})
