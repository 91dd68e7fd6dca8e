"""What every command's start loads: nothing that only some commands or some files need (each costs the start)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# loaded only where used: charset-normalizer past the UTF-8 test (20-25 ms), psutil by a worker (11 ms),
# platformdirs without a redirected data folder (13 ms), the window's Qt modules and the import pipeline
# (Arrow's compute functions) by the window and an import
LATER = ("charset_normalizer", "psutil", "platformdirs", "PySide6.QtWidgets", "desktop_app.imports.pipeline",
         "pyarrow.compute")  # fmt: skip


@pytest.mark.parametrize("command", [["tasks", "--json"], ["status", "T000000-NOTASK", "--json"]])
def test_a_command_that_runs_no_task_loads_none_of_them(tmp_path: Path, command: list[str]) -> None:
    code = (
        "import json, sys\n"
        "from desktop_app.cli.main import main\n"
        f"main(['--data-dir', {str(tmp_path)!r}, *{command!r}])\n"
        f"print(json.dumps([m for m in {LATER!r} if m in sys.modules]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert loaded == [], done.stderr
