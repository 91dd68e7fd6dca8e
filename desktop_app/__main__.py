"""python -m desktop_app: the window, or a command (batchdesk --help)."""

import multiprocessing
import sys

from desktop_app.cli.main import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # the frozen app runs an export's SQLite reader as a child of itself
    sys.exit(main())
