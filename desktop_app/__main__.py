"""python -m desktop_app: the window, or a command (batchdesk --help)."""

import sys

from desktop_app.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
