"""Opening the window from the command line (the window itself lives in desktop_app.ui)."""

from __future__ import annotations

import argparse
import sys


def run_window(args: argparse.Namespace) -> int:
    try:
        from desktop_app.ui.main import run  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        sys.stderr.write("BatchDesk: the window is not built yet; use the command line (batchdesk --help).\n")
        return 0
    return int(run(args))
