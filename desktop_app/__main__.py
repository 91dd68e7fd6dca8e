"""python -m desktop_app: the window, or a command (batchdesk --help)."""

import multiprocessing
import sys

from desktop_app.cli.main import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen child process (spawn) starts here: no child runs the CLI
    sys.exit(main(leave_when_done=True))
