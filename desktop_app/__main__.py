"""python -m desktop_app: the window, or a command (batchdesk --help)."""

from __future__ import annotations

import argparse
import sys

from desktop_app import malloc_threshold, startup_gc

startup_gc.pause()  # before the program's own imports: cli.main's below is the first
malloc_threshold.hold()  # before anything large is allocated and freed

from desktop_app.cli.main import main as run  # noqa: E402


def open_window(args: argparse.Namespace) -> int:
    """No command given: the window (desktop_app.ui), with the options parsed beside the commands'."""
    from desktop_app.ui.main import run as run_window

    return int(run_window(args))


def main() -> int:
    """The program's entry (`python -m desktop_app`, the `batchdesk` script, the frozen app)."""
    return run(window=open_window, leave_when_done=True)


if __name__ == "__main__":
    if getattr(sys, "frozen", False):
        # a frozen child process (spawn) starts here: no child runs the CLI. Imported only when frozen, where
        # it does anything: 10 ms of every command's start otherwise
        import multiprocessing

        multiprocessing.freeze_support()
    sys.exit(main())
