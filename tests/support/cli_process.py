"""The command line in a process of its own, on a server or embedded database, as a clerk runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def bd(home: Path, db_url: str, *args: str, as_json: bool = True) -> tuple[int, Any, str]:
    """`python -m desktop_app ARGS --db URL`, its files under `home`: (exit code, JSON or text, stderr)."""
    result = subprocess.run(
        [sys.executable, "-m", "desktop_app", *args, "--db", db_url],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(home), "LANG": "C.UTF-8"},
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert "Traceback" not in result.stderr, result.stderr
    data = json.loads(result.stdout) if as_json and result.stdout.strip() else result.stdout
    return result.returncode, data, result.stderr


def refused_in_one_line(home: Path, db_url: str, *args: str, says: str = "") -> str:
    """A request refused as the README says: exit 2, one line on stderr naming `says`."""
    code, _, err = bd(home, db_url, *args, as_json=False)
    assert code == 2, (args, code, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("batchdesk: "), err
    assert says in err, err
    return err
