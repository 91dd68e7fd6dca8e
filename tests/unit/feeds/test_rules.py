"""A feed's rules without I/O: the names it takes and ignores, the settle rule, the --at schedule."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from desktop_app.domain.feeds import DEFAULT_PATTERN, Schedule
from desktop_app.feeds.rules import (
    ignored,
    next_look_in,
    offline_retry,
    parse_at,
    patterns,
    settled,
    settles_in,
    wanted,
)

DEFAULT = patterns(DEFAULT_PATTERN)


@pytest.mark.parametrize(
    "name",
    ["bank.csv", "BANK.CSV", "对账单 2024-05.xlsx", "old.xls", "a b (2).csv", "x.Csv"],
)
def test_the_default_pattern_takes_csv_and_excel_files_whatever_their_case(name: str) -> None:
    assert wanted(name, DEFAULT)


@pytest.mark.parametrize(
    "name",
    [
        "~$bank.xlsx",  # Office's lock file while the book is open
        "bank.csv.tmp", "bank.tmp", "bank.TMP",
        "bank.csv.part", "bank.xlsx.crdownload",  # a download under way
        ".bank.csv", ".~lock.bank.csv#",  # hidden (LibreOffice's lock too)
        "notes.txt", "bank.csv.bak", "bank.csvx",
    ],
)  # fmt: skip
def test_lock_files_downloads_hidden_files_and_other_names_are_never_taken(name: str) -> None:
    assert not wanted(name, DEFAULT)


def test_a_file_marked_hidden_by_the_system_is_ignored() -> None:
    assert ignored("bank.csv", hidden=True) and not ignored("bank.csv")
    assert not wanted("bank.csv", DEFAULT, hidden=True)


def test_patterns_split_on_semicolons_or_commas_and_an_empty_one_is_refused() -> None:
    assert patterns("*.CSV; *.txt ,bank-*.xlsx") == ("*.csv", "*.txt", "bank-*.xlsx")
    assert wanted("Bank-May.XLSX", patterns("bank-*.xlsx")) and not wanted("other.xlsx", patterns("bank-*.xlsx"))
    with pytest.raises(ValueError):
        patterns(" ; ,")


def test_a_pattern_cannot_take_what_is_always_ignored() -> None:
    assert not wanted("~$x.csv", patterns("*"))
    assert not wanted("x.part", patterns("*.part"))


NOW = dt.datetime(2026, 5, 1, 9, 0, 0)


@pytest.mark.parametrize(
    "age, settle, taken, left",
    [(0, 10, False, 10.0), (9.9, 10, False, 0.1), (10, 10, True, 0.0), (600, 10, True, 0.0), (0, 0, True, 0.0)],
)
def test_a_file_is_settled_once_it_kept_its_size_and_time_for_the_settle_time(
    age: float, settle: int, taken: bool, left: float
) -> None:
    first_seen = NOW - dt.timedelta(seconds=age)
    assert settled(first_seen, NOW, settle) is taken
    assert settles_in(first_seen, NOW, settle) == pytest.approx(left)


@pytest.mark.parametrize(
    "text, times",
    [
        ("07:30", ((7, 30),)),
        ("13:00,07:30", ((7, 30), (13, 0))),
        ("7:05, 23:59 ,00:00", ((0, 0), (7, 5), (23, 59))),
        ("07:30,07:30", ((7, 30),)),
    ],
)
def test_at_reads_times_of_day(text: str, times: tuple[tuple[int, int], ...]) -> None:
    assert parse_at(text) == tuple(dt.time(h, m) for h, m in times)


@pytest.mark.parametrize("text", ["24:00", "7", "07:60", "07:30,", "half past seven", "", "07:30:00", "-1:00"])
def test_at_refuses_anything_but_hh_mm(text: str) -> None:
    with pytest.raises(ValueError, match="HH:MM"):
        parse_at(text)


SHANGHAI = ZoneInfo("Asia/Shanghai")
BERLIN = ZoneInfo("Europe/Berlin")


def _in(zone: ZoneInfo):  # type: ignore[no-untyped-def]
    return lambda naive: naive.replace(tzinfo=zone)


@pytest.mark.parametrize(
    "now, expected",
    [
        (dt.datetime(2026, 5, 1, 6, 0, tzinfo=SHANGHAI), 90 * 60),  # before the first: today 07:30
        (dt.datetime(2026, 5, 1, 7, 30, tzinfo=SHANGHAI), 5.5 * 3600),  # at 07:30 exactly: the next, 13:00
        (dt.datetime(2026, 5, 1, 12, 59, 30, tzinfo=SHANGHAI), 30),
        (dt.datetime(2026, 5, 1, 20, 0, tzinfo=SHANGHAI), 11.5 * 3600),  # after the last: tomorrow 07:30
    ],
)
def test_the_next_look_is_the_next_set_time_of_the_desks_day(now: dt.datetime, expected: float) -> None:
    schedule = Schedule(at=parse_at("07:30,13:00"))
    assert next_look_in(schedule, now, local=_in(SHANGHAI)) == pytest.approx(expected)


def test_the_desks_clock_decides_even_across_a_change_to_summer_time() -> None:
    # Berlin's clocks go from 02:00 to 03:00 on 2026-03-29: from 20:00 the day before to 07:30 is 10.5 h
    schedule = Schedule(at=(dt.time(7, 30),))
    now = dt.datetime(2026, 3, 28, 20, 0, tzinfo=BERLIN)
    assert next_look_in(schedule, now, local=_in(BERLIN)) == pytest.approx(10.5 * 3600)
    # "now" given in UTC (another zone's date) still finds the desk's next 07:30
    utc_now = dt.datetime(2026, 3, 28, 23, 30, tzinfo=dt.UTC)  # 00:30 in Berlin on the 29th
    assert next_look_in(schedule, utc_now, local=_in(BERLIN)) == pytest.approx(6 * 3600)


def test_the_system_zone_is_used_by_default() -> None:
    schedule = Schedule(at=(dt.time(0, 0), dt.time(12, 0)))
    assert 0 < next_look_in(schedule) <= 12 * 3600 + 1


def test_an_interval_schedule_looks_every_n_seconds_and_offline_retries_within_a_minute() -> None:
    assert next_look_in(Schedule(every=300)) == 300
    assert offline_retry(Schedule(every=300)) == 60 and offline_retry(Schedule(every=15)) == 15
    assert offline_retry(Schedule(at=(dt.time(7, 30),))) == 60
    assert Schedule(every=60, at=(dt.time(7, 30),)).every is None  # set times win
    with pytest.raises(ValueError):
        Schedule(every=0)
