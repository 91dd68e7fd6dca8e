"""Feeds (watched folders): typed records between the store, the scan and the views, and their words.

A feed watches one folder: each settled file that matches its pattern becomes one ordinary import task
owned by the feed's owner, and the file then moves to imported/, failed/ or duplicates/ inside the
folder (docs/FEEDS.md). Every text a clerk reads about a feed is a code and params here, in Chinese and
English, rendered at the edge like the other catalog texts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang
from desktop_app.domain.phrase import Phrase

DEFAULT_PATTERN = "*.csv;*.xlsx;*.xls"
DEFAULT_SETTLE = 10
DEFAULT_EVERY = 60
# an import task's param naming the feed whose file it imports (the task list shows it; not part of the
# task's identity)
FEED_PARAM = "feed_name"
# A folder that cannot be reached is looked at again after this many seconds at most (or after the
# feed's own interval when it is shorter).
OFFLINE_RETRY = 60


class FileState(StrEnum):
    """Where one file of a feed is on its way (a row of feed_files; a file changed under the same name
    is a new row)."""

    SETTLING = "settling"  # seen; taken once its size and time stay the same for the settle time
    READY = "ready"  # settled, fingerprinted and claimed for this feed: its import is to be queued
    QUEUED = "queued"  # its import task is queued or running
    MOVING = "moving"  # its outcome is known and where it goes recorded: being moved
    DONE = "done"  # moved (or left in place with --leave)


class Outcome(StrEnum):
    """Which folder a file ends in."""

    IMPORTED = "imported"  # succeeded or partially succeeded
    FAILED = "failed"
    DUPLICATE = "duplicate"  # the same bytes were imported already: not imported again
    GONE = "gone"  # the file left the folder before it could be moved (someone took it)


# the folder inside the feed's folder each outcome's files go to (a dated folder under it)
OUTCOME_FOLDERS: dict[Outcome, str] = {
    Outcome.IMPORTED: "imported",
    Outcome.FAILED: "failed",
    Outcome.DUPLICATE: "duplicates",
}


class FeedState(StrEnum):
    """What a feed is doing, as the list shows it (the reason says why, in words)."""

    NEW = "new"  # added, not looked at yet
    WATCHING = "watching"
    OFFLINE = "offline"  # its folder is missing, unreadable or offline: it looks again by itself
    BLOCKED = "blocked"  # its import type cannot be used: files wait in the folder
    PAUSED = "paused"  # paused by a person (feed pause)


class FeedCode(StrEnum):
    """A feed's reasons and the notes it leaves beside the files it moves."""

    FOLDER_UNREACHABLE = "feed_folder_unreachable"
    CANNOT_MOVE = "feed_cannot_move"
    NOT_READABLE = "feed_not_readable"
    QUEUE_PROBLEM = "feed_queue_problem"
    SCAN_PROBLEM = "feed_scan_problem"
    WHY_FAILED = "feed_why_failed"
    WHY_CANCELLED = "feed_why_cancelled"
    ERRORS_ELSEWHERE = "feed_errors_elsewhere"
    DUPLICATE_NOTE = "feed_duplicate_note"
    FILE_GONE = "feed_file_gone"
    CHANGED_AFTER = "feed_changed_after"
    STATE = "feed_state"


TEXTS: dict[Any, tuple[str, str]] = {
    FeedCode.FOLDER_UNREACHABLE: (
        "文件夹 {folder} 无法访问；{seconds} 秒后再看一次",
        "The folder {folder} is not reachable; looking again in {seconds} s",
    ),
    FeedCode.CANNOT_MOVE: (
        "{count:,} 个文件无法移走（{name}：无法移动），文件留在原处，任务照常有效；下次查看时再试",
        "{count:,} {count:plural:file|files} could not be moved ({name}: it cannot be moved); "
        "{count:plural:it stays|they stay} where {count:plural:it is|they are}, "
        "{count:plural:its task stands|their tasks stand}; trying again at the next look",
    ),
    (FeedCode.CANNOT_MOVE, "locked"): (
        "{count:,} 个文件无法移走（{name} 正被其他程序占用），文件留在原处，任务照常有效；下次查看时再试",
        "{count:,} {count:plural:file|files} could not be moved ({name} is open in another program); "
        "{count:plural:it stays|they stay} where {count:plural:it is|they are}, "
        "{count:plural:its task stands|their tasks stand}; trying again at the next look",
    ),
    (FeedCode.CANNOT_MOVE, "denied"): (
        "{count:,} 个文件无法移走（没有移动 {name} 的权限），文件留在原处，任务照常有效；下次查看时再试",
        "{count:,} {count:plural:file|files} could not be moved (no permission to move {name}); "
        "{count:plural:it stays|they stay} where {count:plural:it is|they are}, "
        "{count:plural:its task stands|their tasks stand}; trying again at the next look",
    ),
    FeedCode.NOT_READABLE: (
        "{name} 现在还无法读取（可能正被其他程序占用），能读取后再导入",
        "{name} cannot be read yet (another program may hold it); it is taken once it can be",
    ),
    FeedCode.QUEUE_PROBLEM: (
        "无法为文件排队导入：{problem}；文件在文件夹里等待",
        "Its files cannot be queued for import: {problem}; they wait in the folder",
    ),
    FeedCode.SCAN_PROBLEM: (
        "查看文件夹时出错（已记录到日志）：{detail}；下次查看时再试",
        "Looking at the folder went wrong (written to the log): {detail}; trying again at the next look",
    ),
    FeedCode.WHY_FAILED: (
        "任务 {task_no} 没能导入 {name}：{reason}",
        "Task {task_no} could not import {name}: {reason}",
    ),
    FeedCode.WHY_CANCELLED: (
        "导入 {name} 的任务 {task_no} 被取消了；已提交的 {count:,} 行保留在表中",
        "Task {task_no} importing {name} was cancelled; the {count:,} {count:plural:row|rows} already "
        "committed stay in the table",
    ),
    FeedCode.ERRORS_ELSEWHERE: (
        "错误明细文件保存在运行任务 {task_no} 的电脑 {host} 上",
        "The error file is kept on {host}, the desk that ran task {task_no}",
    ),
    FeedCode.DUPLICATE_NOTE: (
        "{name} 的内容与任务 {task_no} 在 {date} 导入的文件完全相同，没有再次导入",
        "{name} has the same content as the file task {task_no} imported on {date}; it was not imported again",
    ),
    FeedCode.FILE_GONE: (
        "{name} 在移走之前已经不在文件夹里了",
        "{name} was no longer in the folder when it was to be moved",
    ),
    FeedCode.CHANGED_AFTER: (
        "{name} 在取走之后又被修改过：它留在文件夹里，作为新文件重新导入",
        "{name} was changed after it was taken: it stays in the folder and is taken again as a new file",
    ),
    FeedCode.STATE: ("在监视", "Watching"),
    (FeedCode.STATE, "new"): ("尚未查看", "Not looked at yet"),
    (FeedCode.STATE, "watching"): ("在监视", "Watching"),
    (FeedCode.STATE, "offline"): ("文件夹无法访问", "Folder not reachable"),
    (FeedCode.STATE, "blocked"): ("受阻", "Blocked"),
    (FeedCode.STATE, "paused"): ("已暂停", "Paused"),
}

messages.register(FeedCode, TEXTS)


def feed_text(code: FeedCode, lang: Lang = "zh", **params: object) -> str:
    """A feed's text in `lang`: a Phrase keeping its code and params, so it is stored as such and shown
    in another language (domain/rendering.py)."""
    return Phrase(messages.text(code, lang, **params), "feed", code.value, params)


def state_words(state: FeedState, lang: Lang) -> str:
    return messages.text(FeedCode.STATE, lang, reason=state.value)


@dataclass(frozen=True)
class Schedule:
    """When a feed looks at its folder: every `every` seconds, or at set times of the desk's day."""

    every: int | None = DEFAULT_EVERY
    at: tuple[dt.time, ...] = ()

    def __post_init__(self) -> None:
        if self.at:
            object.__setattr__(self, "every", None)
            object.__setattr__(self, "at", tuple(sorted(set(self.at))))
        elif not self.every or self.every <= 0:
            raise ValueError("a schedule looks every N seconds (N > 0) or at set times")

    @property
    def at_text(self) -> str | None:
        return ",".join(t.strftime("%H:%M") for t in self.at) if self.at else None


@dataclass(frozen=True)
class FeedSpec:
    """What a person sets when adding a feed (feed add)."""

    name: str
    folder: str
    import_type: str
    pattern: str = DEFAULT_PATTERN
    profile: str | None = None  # a mapping profile's name, passed on to each import (docs/FEEDS.md)
    mode: str = "insert"
    settle: int = DEFAULT_SETTLE
    schedule: Schedule = field(default_factory=Schedule)
    in_order: bool = False
    leave: bool = False
    # who is mailed when one of its files' imports fails or has failed rows (domain/feed_mail.py); (): nobody
    mail_to: tuple[str, ...] = ()


@dataclass(frozen=True)
class Feed:
    """A feed as stored."""

    id: int
    spec: FeedSpec
    owner: str
    host: str | None  # the desk whose folder it is; None: a network folder any desk reaches
    paused: bool = False
    state: FeedState = FeedState.NEW
    reason: dict[str, Any] | None = None  # a stored phrase (kind, code, params) or None
    run_requests: int = 0
    runs_seen: int = 0
    next_look_at: dt.datetime | None = None
    last_scan_at: dt.datetime | None = None
    last_look_at: dt.datetime | None = None
    created_at: dt.datetime | None = None

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(frozen=True)
class FeedFile:
    """One file a feed saw (one version of it: size and time), and where it is on its way."""

    id: int
    feed_id: int
    name: str
    size: int
    mtime_ns: int
    first_seen_at: dt.datetime
    state: FileState
    sha256: str | None = None
    claim: str | None = None
    outcome: Outcome | None = None
    task_no: str | None = None
    duplicate_of: str | None = None
    tries: int = 0
    in_folder: bool = True
    move_to: str | None = None
    note_to: str | None = None
    moved_to: str | None = None
    problem: dict[str, Any] | None = None
    day: str | None = None
    updated_at: dt.datetime | None = None


@dataclass(frozen=True)
class FeedDay:
    """A day's files of a feed, by where they ended."""

    imported: int = 0
    failed: int = 0
    duplicates: int = 0


@dataclass(frozen=True)
class FeedView:
    """A feed as a list shows it (the command line's `feed list`, the window's Feeds view): its
    settings, its state with the reason in words, its last scan, today's files and its next run."""

    feed: Feed
    state: FeedState
    reason: str | None  # in the language asked for
    next_run_at: dt.datetime | None  # its pending scan's time (None with a scan due now or running)
    scanning: bool  # a scan of it is running now
    queued_scan: str | None  # the task number of its active scan, None when it has none
    today: FeedDay
    # files seen and not ended yet (settling, ready, queued, being moved); a paused feed's also the files in its
    # folder (on this desk) that it would take once resumed
    waiting: int
    problems: tuple[str, ...] = ()  # files that could not be moved or read, in words

    def to_json(self) -> dict[str, Any]:
        spec = self.feed.spec
        return {
            "name": spec.name,
            "folder": spec.folder,
            "pattern": spec.pattern,
            "import_type": spec.import_type,
            "profile": spec.profile,
            "mode": spec.mode,
            "settle_seconds": spec.settle,
            "every_seconds": spec.schedule.every,
            "at": [t.strftime("%H:%M") for t in spec.schedule.at],
            "in_order": spec.in_order,
            "leave": spec.leave,
            "mail_to": list(spec.mail_to),
            "owner": self.feed.owner,
            "host": self.feed.host,
            "paused": self.feed.paused,
            "state": self.state.value,
            "reason": self.reason,
            "last_scan_at": _iso(self.feed.last_scan_at),
            "last_look_at": _iso(self.feed.last_look_at),
            "next_run_at": _iso(self.next_run_at),
            "scanning": self.scanning,
            "scan_task": self.queued_scan,
            "today": {
                "imported": self.today.imported,
                "failed": self.today.failed,
                "duplicates": self.today.duplicates,
            },
            "waiting": self.waiting,
            "problems": list(self.problems),
        }


def file_json(row: FeedFile, lang: Lang) -> dict[str, Any]:
    """One file of a feed as the command line's JSON gives it."""
    from desktop_app.domain.rendering import render

    return {
        "name": row.name,
        "state": row.state.value,
        "outcome": row.outcome.value if row.outcome else None,
        "task_no": row.task_no,
        "duplicate_of": row.duplicate_of,
        "sha256": row.sha256,
        "size": row.size,
        "moved_to": row.moved_to,
        "in_folder": row.in_folder,
        "problem": render(row.problem, None, lang) if row.problem else None,
        "day": row.day,
    }


def _iso(value: dt.datetime | None) -> str | None:
    return None if value is None else value.replace(tzinfo=dt.UTC).isoformat(timespec="seconds")
