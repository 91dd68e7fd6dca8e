"""How a command ends: the wait wakes as the task ends (not at its next look), and the process leaves at
once with its output, its exit code and its log written."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from desktop_app.app import build_core
from desktop_app.cli import commands
from desktop_app.domain.status import TaskStatus
from desktop_app.tasks.submit import submit_file
from tests.support.customers import row, write_csv

ROOT = Path(__file__).resolve().parents[2]


def test_the_wait_ends_when_the_task_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Looks a minute apart: only the end's own wake-up (the executor's signal, called directly on the
    # worker's thread: the command line runs no event loop) can end the wait this soon.
    monkeypatch.setattr(commands, "LOOK_EVERY", 60.0)
    core = build_core(data_dir=tmp_path / "data")
    try:
        path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 21)])
        task = submit_file(core.store, core.registry, task_type="import", path=path, user="tester",
                           params={"import_type": "customers", "dry_run": False}).task  # fmt: skip
        started = time.monotonic()
        ended = commands.run_until_done(core, task)
        assert ended.status is TaskStatus.SUCCEEDED and ended.success_count == 20
        assert time.monotonic() - started < 30
    finally:
        core.store.engine.dispose()


def test_leave_writes_the_output_and_the_log_then_ends_with_the_code(tmp_path: Path) -> None:
    log_file = tmp_path / "last.log"
    script = textwrap.dedent(f"""
        import logging, sys, threading
        from desktop_app.cli.main import leave
        handler = logging.FileHandler({str(log_file)!r})
        logging.getLogger().addHandler(handler)
        logging.getLogger().warning("the last line")
        sys.stdout.write("partial output without a newline")
        threading.Thread(target=threading.Event().wait, daemon=False).start()  # never ends by itself
        leave(3)
    """)  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (3, "partial output without a newline", "")
    assert log_file.read_text(encoding="utf-8") == "the last line\n"


def test_a_command_exits_with_its_code_and_its_json(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    base = [sys.executable, "-m", "desktop_app", "--data-dir", str(tmp_path / "data")]
    done = subprocess.run([*base, "status", "T000000-NOSUCH", "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env)  # fmt: skip
    assert done.returncode == 2 and "T000000-NOSUCH" in done.stderr
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 4)])
    done = subprocess.run([*base, "import", str(path), "--type", "customers", "--wait", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"status": "succeeded"' in done.stdout and done.stdout.rstrip().endswith("}")
    assert "stopped (clean)" in (tmp_path / "data" / "logs" / "batchdesk.log").read_text(encoding="utf-8")
