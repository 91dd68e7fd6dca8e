"""PySide6 6.12.0 on Python 3.11 aborts after emits from a QThread: fail if an upgrade brings it back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECK = Path(__file__).resolve().parents[3] / "shared" / "checks" / "pyside6_emit_refcount.py"
LOCAL = Path(__file__).resolve().parent / "pyside6_emit_refcount.py"


def test_emit_refcount_check_passes() -> None:
    script = CHECK if CHECK.exists() else LOCAL
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyside6_pinned_below_6_12() -> None:
    import PySide6

    major, minor = (int(x) for x in PySide6.__version__.split(".")[:2])
    assert (major, minor) < (6, 12)
