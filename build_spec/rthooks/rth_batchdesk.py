"""Runtime hook of the frozen BatchDesk: keep the bundle read-only and give windowed builds real streams."""

import os
import sys

# Alembic loads env.py and the revision files from disk; without this Python would write their
# bytecode into __pycache__ beside the executable (and break a signed macOS bundle).
sys.dont_write_bytecode = True

# A windowed Windows executable has no console: sys.stdout/sys.stderr are None, and one stray write
# (a warning, an error line) would raise. Send them nowhere instead.
for _name in ("stdout", "stderr"):
    if getattr(sys, _name) is None:
        setattr(sys, _name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
