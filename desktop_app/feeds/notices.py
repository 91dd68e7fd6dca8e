"""Which feed and file an ended task imported, for the window's notices (Qt-free; read off the GUI thread).

A feed's import is an ordinary import task; the feed's file row knows its number (store/feeds.py). The
window asks this about the imports it saw end, a few at a time, and says a feed's outcome in the feed's
words: a clean import says nothing (a drop of 1,000 files must not make 1,000 notices)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine

from desktop_app.domain.task import TaskRecord
from desktop_app.feeds.mail import wants_mail
from desktop_app.store.feeds import FeedStore


@dataclass(frozen=True)
class FeedTask:
    """The feed an import came from, and the name of its file in the feed's folder."""

    feed: str
    file: str


def feeds_of_tasks(engine: Engine, task_nos: Sequence[str]) -> dict[str, FeedTask]:
    """The ones of these tasks that imported a feed's file, by task number (a feed removed since: none)."""
    if not task_nos:
        return {}
    store = FeedStore(engine)
    rows = store.files_of_tasks(task_nos)
    names: dict[int, str | None] = {}
    found: dict[str, FeedTask] = {}
    for task_no, row in rows.items():
        if row.feed_id not in names:
            feed = store.get_by_id(row.feed_id)
            names[row.feed_id] = feed.name if feed is not None else None
        name = names[row.feed_id]
        if name is not None:
            found[task_no] = FeedTask(name, row.name)
    return found


def worth_a_notice(record: TaskRecord) -> bool:
    """A feed's import is told when it failed or some of its rows did (the mail's rule)."""
    return wants_mail(record)
