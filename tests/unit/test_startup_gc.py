"""The collector is off while the program loads and back on, with the loaded heap frozen, once it is loaded."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app import startup_gc


@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    yield
    startup_gc._paused = False
    gc.unfreeze()
    if was:
        gc.enable()


def test_paused_then_resumed_with_the_loaded_heap_frozen(collector: None) -> None:
    gc.unfreeze()
    gc.enable()
    startup_gc.pause()
    assert not gc.isenabled()
    loaded = [object() for _ in range(10)]
    startup_gc.resume()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0
    startup_gc.resume()  # once only
    assert loaded


def test_resume_leaves_a_collector_it_did_not_pause_alone(collector: None) -> None:
    gc.unfreeze()
    gc.disable()  # a caller's own choice (a test, a script calling the command line)
    startup_gc.resume()
    assert not gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_the_programs_entry_pauses_before_its_own_modules_load() -> None:
    code = (
        "import gc, sys\n"
        "import desktop_app.__main__\n"
        "assert not gc.isenabled()\n"
        "assert 'desktop_app.cli.main' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_command_runs_with_the_collector_on(collector: None, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    from desktop_app.cli.main import main

    startup_gc.pause()
    assert main(["--data-dir", str(tmp_path), "tasks", "--json"]) == 0
    assert gc.isenabled()
