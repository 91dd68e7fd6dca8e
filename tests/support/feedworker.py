"""A worker process (the real task types) that can kill itself with SIGKILL at a named point of a feed's
run, as a kill -9 landing there would: between the claim and the import's queueing, between the queueing
and its record, before an outcome is written, inside a move (after the link, after the copy, after it is
put in place) and after the move before its record.

python -m tests.support.feedworker --db URL --data-dir D [--crash-at POINT] [--crash-after N] [--settings JSON]
    [--follow-up SECONDS]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from desktop_app.app import build_core
from desktop_app.cli.commands import cmd_worker

POINTS = ("claimed", "submitted", "intend", "move", "linked", "copied", "placed", "moved")


def _die() -> None:
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def arm(point: str, after: int) -> None:
    """SIGKILL this process the `after`-th time the point is reached."""
    from desktop_app.feeds import moving
    from desktop_app.store.feeds import FeedStore
    from desktop_app.submission import Submitter

    seen = {"count": 0}

    def reached() -> None:
        seen["count"] += 1
        if seen["count"] >= after:
            _die()

    def after_call(owner: Any, name: str) -> None:
        real: Callable[..., Any] = getattr(owner, name)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            result = real(*args, **kwargs)
            if name != "claim" or result:  # a claim that held the bytes
                reached()
            return result

        setattr(owner, name, wrapped)

    def before_call(owner: Any, name: str) -> None:
        real: Callable[..., Any] = getattr(owner, name)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            reached()
            return real(*args, **kwargs)

        setattr(owner, name, wrapped)

    if point == "claimed":
        after_call(FeedStore, "claim")
    elif point == "submitted":
        after_call(Submitter, "submit_import")
    elif point == "intend":
        before_call(FeedStore, "intend")
    elif point == "move":
        before_call(moving, "move")
    elif point == "moved":
        before_call(FeedStore, "moved")
    else:  # a step inside a move
        real_step = moving.step

        def step(name: str) -> None:
            if name == point:
                reached()
            real_step(name)

        moving.step = step  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--settings", default="{}")
    parser.add_argument("--crash-at", choices=POINTS)
    parser.add_argument("--crash-after", type=int, default=1)
    # seconds to a feed's next scan while its imports run or its files are on their way (feeds/scan.py's
    # FOLLOW_UP, 2 s): a test waits out fewer of them
    parser.add_argument("--follow-up", type=float)
    args = parser.parse_args(argv)
    if args.follow_up is not None:
        from desktop_app.feeds import scan

        scan.FOLLOW_UP = args.follow_up
    if args.crash_at:
        arm(args.crash_at, args.crash_after)
    core = build_core(data_dir=args.data_dir, db_url=args.db, overrides=json.loads(args.settings))
    return cmd_worker(core, args)


if __name__ == "__main__":
    sys.exit(main())
