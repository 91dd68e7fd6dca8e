"""The feed commands: add, list, show, run (--wait), pause, resume, remove (feeds/service.py does the work)."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from desktop_app.app import Core, build_executor
from desktop_app.cli.commands import _qt_core, _stop_on_signals, look_pauses, viewer_of
from desktop_app.cli.output import print_json
from desktop_app.cli.parser import EXIT_OK, EXIT_TASK_FAILED
from desktop_app.domain.feed_mail import parse_addresses
from desktop_app.domain.feed_words import ADD_COMMAND, LIST_SEPARATOR, FeedLine, feed_line_word, file_words
from desktop_app.domain.feeds import (
    FeedFile,
    FeedSpec,
    FeedState,
    FeedView,
    FileState,
    Outcome,
    Schedule,
    file_json,
    state_words,
)
from desktop_app.domain.rendering import render
from desktop_app.domain.task import TaskRecord
from desktop_app.feeds.rules import parse_at
from desktop_app.feeds.service import Feeds
from desktop_app.store.feeds import UNDER_WAY
from desktop_app.submission import feed_scan_key
from desktop_app.tasks.identity import host_name

# how long `feed run --wait` waits at most for files that keep changing (still being written) once
# nothing else is on its way, beyond their settle time
SETTLING_PATIENCE = 30.0


def cmd_feed_add(core: Core, args: argparse.Namespace) -> int:
    schedule = Schedule(at=parse_at(args.at)) if args.at else Schedule(every=args.every or Schedule().every)
    spec = FeedSpec(name=args.name, folder=args.folder, import_type=args.import_type, pattern=args.pattern,
                    profile=args.profile, mode=args.mode, settle=args.settle, schedule=schedule,
                    in_order=args.in_order, leave=args.leave,
                    mail_to=parse_addresses(args.mail))  # fmt: skip
    view = core.feeds().add(spec, user=core.user(args.user))
    _print_view(core, view, as_json=args.json)
    return EXIT_OK


def cmd_feed_edit(core: Core, args: argparse.Namespace) -> int:
    """The settings given change; the others stay as they are."""
    feeds, viewer = core.feeds(), viewer_of(core, args)
    spec = feeds.find(args.name, viewer).spec
    if args.at:
        schedule = Schedule(at=parse_at(args.at))
    elif args.every:
        schedule = Schedule(every=args.every)
    else:
        schedule = spec.schedule
    given = {"folder": args.folder, "import_type": args.import_type, "mode": args.mode, "pattern": args.pattern,
             "settle": args.settle, "in_order": args.in_order, "leave": args.leave,
             "profile": None if args.no_profile else args.profile}  # fmt: skip
    changed = replace(spec, schedule=schedule, **{k: v for k, v in given.items() if v is not None})
    if args.no_profile:
        changed = replace(changed, profile=None)
    _print_view(core, feeds.edit(args.name, changed, viewer), as_json=args.json)
    return EXIT_OK


def cmd_feed_list(core: Core, args: argparse.Namespace) -> int:
    views = core.feeds().views(viewer_of(core, args))
    if args.json:
        print_json([v.to_json() for v in views])
        return EXIT_OK
    if not views:
        sys.stdout.write(feed_line_word(FeedLine.NONE, core.lang, command=ADD_COMMAND[core.lang]) + "\n")
    for view in views:
        sys.stdout.write(_line(core, view) + "\n")
    return EXIT_OK


def cmd_feed_show(core: Core, args: argparse.Namespace) -> int:
    feeds = core.feeds()
    viewer = viewer_of(core, args)
    view = feeds.view(args.name, viewer)
    files = feeds.files(args.name, viewer)
    if args.json:
        print_json({**view.to_json(), "files": [file_json(f, core.lang) for f in files]})
        return EXIT_OK
    _print_view(core, view, as_json=False)
    if view.feed.spec.mail_to:
        to = LIST_SEPARATOR[core.lang].join(view.feed.spec.mail_to)
        sys.stdout.write(f"    {feed_line_word(FeedLine.MAILED_TO, core.lang, to=to)}\n")
    for row in files:
        sys.stdout.write("  " + _file_line(core, row) + "\n")
    return EXIT_OK


def cmd_feed_mail(core: Core, args: argparse.Namespace) -> int:
    view = core.feeds().set_mail(args.name, viewer_of(core, args), "" if args.none else args.to)
    if args.json:
        print_json(view.to_json())
    else:
        to = ", ".join(view.feed.spec.mail_to) or "nobody"
        sys.stdout.write(f"feed {view.feed.name}: failed imports are mailed to {to}\n")
    return EXIT_OK


def cmd_feed_pause(core: Core, args: argparse.Namespace) -> int:
    _print_view(core, core.feeds().pause(args.name, viewer_of(core, args)), as_json=args.json)
    return EXIT_OK


def cmd_feed_resume(core: Core, args: argparse.Namespace) -> int:
    _print_view(core, core.feeds().resume(args.name, viewer_of(core, args)), as_json=args.json)
    return EXIT_OK


def cmd_feed_remove(core: Core, args: argparse.Namespace) -> int:
    feed = core.feeds().remove(args.name, viewer_of(core, args))
    if args.json:
        print_json({"name": feed.name, "removed": True})
    else:
        sys.stdout.write(f"feed {feed.name} removed (its import tasks stay; files in {feed.spec.folder} stay)\n")
    return EXIT_OK


def cmd_feed_run(core: Core, args: argparse.Namespace) -> int:
    """A look at the folder now; with --wait, the imports it queued (and the scans that follow them) run
    here to the end, and the outcome of each file is printed. Exit 1 when a file failed or the folder
    could not be reached."""
    feeds = core.feeds()
    viewer = viewer_of(core, args)
    since = feeds.feeds.db_now() - dt.timedelta(seconds=1)
    scan = feeds.run(args.name, viewer)
    if not args.wait:
        view = feeds.view(args.name, viewer)
        if args.json:
            print_json({**view.to_json(), "scan_task": scan.task_no})
        else:
            sys.stdout.write(f"feed {view.feed.name}: scan {scan.task_no} queued\n")
        return EXIT_OK
    if (view_host := feeds.view(args.name, viewer).feed.host) and view_host != host_name():
        sys.stderr.write(f"batchdesk: feed {args.name} watches a folder of the desk {view_host}: its worker "
                         "runs the scan; waiting for it\n")  # fmt: skip
    run_until_idle(core, feeds, args.name, scan)
    view = feeds.view(args.name, viewer)
    files = feeds.files(args.name, viewer, limit=100_000, since=since)
    ended = [f for f in files if f.state is FileState.DONE]
    counts = {o: sum(1 for f in ended if f.outcome is o) for o in (Outcome.IMPORTED, Outcome.FAILED, Outcome.DUPLICATE)}
    waiting = sum(1 for f in files if f.state in UNDER_WAY)
    if args.json:
        print_json({"feed": view.to_json(), "scan_task": scan.task_no,
                    "files": [file_json(f, core.lang) for f in files], "imported": counts[Outcome.IMPORTED],
                    "failed": counts[Outcome.FAILED], "duplicates": counts[Outcome.DUPLICATE],
                    "waiting": waiting})  # fmt: skip
    else:
        sys.stdout.write(f"feed {view.feed.name}: {counts[Outcome.IMPORTED]} imported, {counts[Outcome.FAILED]} "
                         f"failed, {counts[Outcome.DUPLICATE]} duplicates, {waiting} waiting\n")  # fmt: skip
        if view.reason:
            sys.stdout.write(f"  {view.reason}\n")
        for row in files:
            sys.stdout.write("  " + _file_line(core, row) + "\n")
    failed = counts[Outcome.FAILED] > 0 or view.state in (FeedState.OFFLINE, FeedState.BLOCKED)
    return EXIT_TASK_FAILED if failed else EXIT_OK


def run_until_idle(
    core: Core, feeds: Feeds, name: str, scan: TaskRecord, *, patience: float = SETTLING_PATIENCE
) -> None:
    """Run the feed's scan here, then the imports it queued and the scans that follow them, until none of
    its files is on its way (a file that keeps changing is waited for `patience` seconds past its settle
    time at most). Another desk's worker may run some of them: their ends are read from the table."""
    _qt_core()
    stop = _stop_on_signals()
    executor = build_executor(core, only_task_ids=[scan.id])
    wake = threading.Event()

    def changed(record: TaskRecord) -> None:  # on a worker's thread, as a task ends
        if record.status.is_final:
            wake.set()

    from PySide6.QtCore import Qt

    executor.task_changed.connect(changed, Qt.ConnectionType.DirectConnection)
    executor.start()
    executor.wake()
    feed = feeds.feeds.get(name)  # run() checked that the asker may see it
    if feed is None:
        executor.shutdown()
        return
    key = feed_scan_key(feed.id)
    included = {scan.id}
    settle = float(feed.spec.settle)
    quiet_since: float | None = None
    try:
        for pause in look_pauses():
            if stop.is_set():
                break
            active = core.store.active(key)
            on_way = feeds.feeds.in_state(feed.id, FileState.READY, FileState.QUEUED, FileState.MOVING)
            moving = [r for r in on_way if r.state is not FileState.MOVING or r.problem is None]
            settling = feeds.feeds.in_state(feed.id, FileState.SETTLING)
            numbers = [r.task_no for r in on_way if r.task_no and r.state is FileState.QUEUED]
            wanted = {t.id for t in core.store.get_many(numbers).values() if t.status.is_active}
            if active is not None and _soon(active, settle):
                wanted.add(active.id)
            fresh = wanted - included
            if fresh:
                included |= fresh
                executor.include(fresh)
            scanning = active is not None and active.id in included and active.status.is_active
            if not moving and not scanning:
                if not settling:
                    break
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since > settle + patience:
                    break  # files that keep changing: reported as waiting
            else:
                quiet_since = None
            wake.wait(pause)
            wake.clear()
    finally:
        executor.shutdown()


def _soon(scan: TaskRecord, settle: float) -> bool:
    """A follow-up scan (due within the feed's settle time and a little): run here; the next regular look
    is left to the workers."""
    if scan.status.is_final:
        return False
    if scan.next_run_at is None:
        return True
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    return (scan.next_run_at - now).total_seconds() <= max(settle, 2.0) + 5.0


def _line(core: Core, view: FeedView) -> str:
    """One feed for people: name, state (and why), what today brought, when it looks next."""
    spec, lang = view.feed.spec, core.lang
    # the words from the domain's table (domain/feed_words.py), as the task line's: wholly in the desk's language
    when = (feed_line_word(FeedLine.EVERY, lang, seconds=spec.schedule.every) if spec.schedule.every
            else feed_line_word(FeedLine.AT, lang, times=spec.schedule.at_text))  # fmt: skip
    today = view.today
    parts = [view.feed.name, state_words(view.state, lang), f"{spec.folder}", f"{spec.import_type}", when,
             feed_line_word(FeedLine.TODAY, lang, imported=today.imported, failed=today.failed,
                            duplicates=today.duplicates),
             feed_line_word(FeedLine.WAITING, lang, count=view.waiting)]  # fmt: skip
    if view.feed.last_scan_at:
        parts.append(feed_line_word(FeedLine.LAST_SCAN, lang, stamp=_stamp(view.feed.last_scan_at)))
    if view.scanning:
        parts.append(feed_line_word(FeedLine.SCANNING, lang))
    elif view.next_run_at:
        parts.append(feed_line_word(FeedLine.NEXT, lang, stamp=_stamp(view.next_run_at, seconds=False)))
    elif view.queued_scan:
        parts.append(feed_line_word(FeedLine.NEXT_NOW, lang))
    line = "  ".join(parts)
    if view.reason:
        line += f"\n    {view.reason}"
    for problem in view.problems[:5]:
        line += f"\n    {problem}"
    return line


def _print_view(core: Core, view: FeedView, *, as_json: bool) -> None:
    if as_json:
        print_json(view.to_json())
    else:
        sys.stdout.write(_line(core, view) + "\n")


def _file_line(core: Core, row: FeedFile) -> str:
    # the words of `feed list`'s table (seen: "failed  customers_gbk.csv" on a Chinese desk)
    parts = [file_words(row.state, row.outcome, core.lang), row.name]
    if row.task_no:
        parts.append(row.task_no)
    if row.duplicate_of:
        parts.append(feed_line_word(FeedLine.SAME_BYTES, core.lang, task_no=row.duplicate_of))
    if row.moved_to:
        parts.append(f"-> {Path(row.moved_to)}")
    if row.problem:
        parts.append(render(row.problem, None, core.lang) or "")
    return "  ".join(p for p in parts if p)


def _stamp(value: dt.datetime, *, seconds: bool = True) -> str:
    """A UTC stamp of the database as the desk's local time (a look to come to the minute, as a feed's times)."""
    return value.replace(tzinfo=dt.UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
