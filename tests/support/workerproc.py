"""A worker process with the test task types.

python -m tests.support.workerproc --db URL --data-dir D [--settings JSON]
"""

from __future__ import annotations

import argparse
import json
import sys

from desktop_app.app import build_core
from desktop_app.cli.commands import cmd_worker
from tests.support.handlers import ledger_meta, make_test_handlers


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--settings", default="{}")
    args = parser.parse_args()
    core = build_core(data_dir=args.data_dir, db_url=args.db, overrides=json.loads(args.settings),
                      handlers=make_test_handlers())  # fmt: skip
    ledger_meta.create_all(core.store.engine)
    return cmd_worker(core, args)


if __name__ == "__main__":
    sys.exit(main())
