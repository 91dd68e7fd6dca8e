"""The command line as a clerk runs it, on a server or embedded database: in this process (most tests), or
in a process of its own (a few per command family, so the real process path stays covered)."""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def _signals_kept() -> Iterator[None]:
    """A command's Ctrl-C and SIGTERM handlers (cli/commands.py) are its process's: put pytest's back after."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def _watchdog(timeout: float) -> Iterator[None]:
    """A command that hangs (a --wait that never returns) ends this process after `timeout` with every
    thread's traceback, as the process's own timeout failed the test: the run never hangs (pytest-xdist
    reports the test as crashed and starts another worker)."""
    faulthandler.dump_traceback_later(timeout, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def in_process(args: Sequence[str], env: Mapping[str, str] | None = None,
               timeout: float = 180) -> tuple[int, str, str]:  # fmt: skip
    """`python -m desktop_app ARGS` run in this process: (exit code, stdout, stderr). The same entry
    (desktop_app.cli.main.main) with `env` set and the repository as the working folder, as the process
    would have them; a bad argument's SystemExit is its exit code. A Python process per call cost each
    command 0.5-1 s of start-up (Python, SQLAlchemy, the migrations check): the fast stage's slowest tests."""
    from desktop_app.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(_watchdog(timeout))
        stack.enter_context(mock.patch.dict(os.environ, dict(env or {})))
        stack.enter_context(contextlib.chdir(ROOT))
        stack.enter_context(_signals_kept())
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's refusal (parser.py): what the process would exit with
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue(), err.getvalue()


def in_a_process(args: Sequence[str], env: Mapping[str, str] | None = None,
                 timeout: float = 180) -> tuple[int, str, str]:  # fmt: skip
    """`python -m desktop_app ARGS` in a Python process of its own: (exit code, stdout, stderr)."""
    result = subprocess.run(
        [sys.executable, "-m", "desktop_app", *args],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    return result.returncode, result.stdout, result.stderr


def bd(home: Path, db_url: str, *args: str, as_json: bool = True, process: bool = False) -> tuple[int, Any, str]:
    """`python -m desktop_app ARGS --db URL`, its files under `home`: (exit code, JSON or text, stderr).
    In this process unless `process` (then in a Python process of its own)."""
    run = in_a_process if process else in_process
    code, out, err = run([*args, "--db", db_url], {"BATCHDESK_HOME": str(home), "LANG": "C.UTF-8"})
    assert "Traceback" not in err, err
    data = json.loads(out) if as_json and out.strip() else out
    return code, data, err


def refused_in_one_line(home: Path, db_url: str, *args: str, says: str = "", process: bool = False) -> str:
    """A request refused as the README says: exit 2, one line on stderr naming `says`."""
    code, _, err = bd(home, db_url, *args, as_json=False, process=process)
    assert code == 2, (args, code, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("batchdesk: "), err
    assert says in err, err
    return err
