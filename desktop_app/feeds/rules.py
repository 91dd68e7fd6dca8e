"""A feed's rules, without I/O: which names it takes, when a file has settled, when it looks next."""

from __future__ import annotations

import datetime as dt
import fnmatch
import functools
import re
from collections.abc import Callable, Iterable

from desktop_app.domain.feeds import OFFLINE_RETRY, Schedule

# Names a feed never takes, whatever its pattern: Office's lock files, downloads and copies under way.
IGNORED = ("~$*", "*.tmp", "*.part", "*.crdownload")
_SEPARATORS = re.compile(r"[;,]")
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def patterns(text: str) -> tuple[str, ...]:
    """A pattern list as a person writes it ("*.csv;*.xlsx", commas work too), each folded to lower case:
    a feed matches names whatever their case (BANK.CSV is a .csv on every desk)."""
    found = tuple(p.strip().casefold() for p in _SEPARATORS.split(text) if p.strip())
    if not found:
        raise ValueError("the pattern names no files (e.g. *.csv;*.xlsx)")
    return found


@functools.lru_cache(maxsize=64)
def _matcher(pats: tuple[str, ...]) -> re.Pattern[str]:
    """One regular expression for a list of patterns (a folder of 10,000 names is matched in milliseconds)."""
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in pats), re.DOTALL)


def ignored(name: str, *, hidden: bool = False) -> bool:
    """A name no feed takes: hidden files (a leading dot, or the system's hidden mark), Office's `~$`
    lock files, `.tmp`, `.part` and `.crdownload` files."""
    if hidden or name.startswith("."):
        return True
    return _matcher(IGNORED).match(name.casefold()) is not None


def wanted(name: str, pats: Iterable[str], *, hidden: bool = False) -> bool:
    """Whether a feed with these patterns takes a file of this name."""
    if ignored(name, hidden=hidden):
        return False
    return _matcher(tuple(pats)).match(name.casefold()) is not None


def settled(first_seen: dt.datetime, now: dt.datetime, settle: float) -> bool:
    """A file seen with the same size and time since `first_seen` (any change sets it again) has settled
    once `settle` seconds have passed; both times on one clock (the database's)."""
    return (now - first_seen).total_seconds() >= settle


def settles_in(first_seen: dt.datetime, now: dt.datetime, settle: float) -> float:
    """Seconds until such a file has settled (0 when it has)."""
    return max(0.0, settle - (now - first_seen).total_seconds())


def parse_at(text: str) -> tuple[dt.time, ...]:
    """`--at 07:30,13:00`: times of the desk's day; ValueError in plain words for anything else."""
    times = []
    for part in (p.strip() for p in text.split(",")):
        match = _TIME.match(part)
        if not match:
            raise ValueError(f"not a time of day: {part!r} (HH:MM, e.g. 07:30)")
        times.append(dt.time(int(match.group(1)), int(match.group(2))))
    if not times:
        raise ValueError("no time given (HH:MM, e.g. 07:30,13:00)")
    return tuple(sorted(set(times)))


def _system_local(naive: dt.datetime) -> dt.datetime:
    """A wall-clock time of this desk as an aware time (the system's zone and its summer time)."""
    return naive.astimezone()


def next_look_in(
    schedule: Schedule,
    now: dt.datetime | None = None,
    *,
    local: Callable[[dt.datetime], dt.datetime] = _system_local,
) -> float:
    """Seconds from `now` (an aware time; default: this moment) to the schedule's next look: its interval,
    or the next of its times of day (today's still to come, else tomorrow's), on the desk's wall clock."""
    if schedule.every:
        return float(schedule.every)
    # compared in UTC: two times of one zone subtract as wall-clock times (a summer-time change ignored)
    now = (now or dt.datetime.now().astimezone()).astimezone(dt.UTC)
    # from the day before `now`'s date (its own zone's date may be a day off the desk's) to two days on:
    # the first set time after now is among them, in order
    for days in range(-1, 3):
        day = now.date() + dt.timedelta(days=days)
        for at in schedule.at:
            moment = local(dt.datetime.combine(day, at)).astimezone(dt.UTC)
            if moment > now:
                return (moment - now).total_seconds()
    raise AssertionError("a schedule with set times has one within two days")


def offline_retry(schedule: Schedule) -> int:
    """Seconds until a feed whose folder is away looks again: its interval, at most a minute."""
    return min(schedule.every, OFFLINE_RETRY) if schedule.every else OFFLINE_RETRY
