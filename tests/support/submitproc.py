"""Submit one file at an agreed moment: python -m tests.support.submitproc URL DATA_DIR FILE START_EPOCH."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from desktop_app.app import build_core
from desktop_app.tasks.submit import submit_file
from tests.support.handlers import make_test_handlers


def main() -> int:
    url, data_dir, file, start = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    core = build_core(data_dir=data_dir, db_url=url, handlers=make_test_handlers())
    time.sleep(max(0.0, start - time.time() - 0.02))  # in one sleep until just before the moment, then
    while time.time() < start:  # in steps of 1 ms, as before (3,000 wake-ups a process took 0.1 s of CPU)
        time.sleep(0.001)
    result = submit_file(core.store, core.registry, task_type="test.steps", path=Path(file), user="clerk",
                         params={"steps": 1})  # fmt: skip
    print(result.task.task_no, result.duplicate_of or "-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
