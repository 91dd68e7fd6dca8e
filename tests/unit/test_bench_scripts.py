"""The benchmark scripts still import against the package: a name moved in desktop_app (file_sha256 left
tasks/submit.py for tasks/file_hash.py) broke bench_engine.py with no test to say so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# profile_import.py runs its import at module level (a script to run, not a module): compiled only
RUNS_ON_IMPORT = {"profile_import"}


def test_every_benchmark_script_imports() -> None:
    scripts = sorted(p.stem for p in (ROOT / "bench").glob("*.py"))
    modules = [s for s in scripts if s not in RUNS_ON_IMPORT]
    assert modules
    code = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    path = os.pathsep.join([str(ROOT), str(ROOT / "bench")])
    env = {**os.environ, "PYTHONPATH": path, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code, *modules], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    for name in RUNS_ON_IMPORT:
        compile((ROOT / "bench" / f"{name}.py").read_text(encoding="utf-8"), name, "exec")
