"""The command line's readable feed line (`feed list`): wholly in its language (seen in a tryout: "尚未查看 … at 07:30
today: 0 imported, 0 failed, 0 duplicates waiting 0 next: now"); its JSON keeps its fields."""

from __future__ import annotations

import datetime as dt
import re
from types import SimpleNamespace

import pytest

from desktop_app.cli.feeds import _line
from desktop_app.domain.errors import Lang
from desktop_app.domain.feeds import Feed, FeedDay, FeedSpec, FeedState, FeedView, Schedule

FOLDER = "/data/inbox"


def _view(schedule: Schedule, **changes: object) -> FeedView:
    feed = Feed(id=1, spec=FeedSpec(name="bank", folder=FOLDER, import_type="customers", schedule=schedule),
                owner="alice", host=None, last_scan_at=dt.datetime(2025, 3, 1, 7, 30))  # fmt: skip
    fields: dict[str, object] = {"feed": feed, "state": FeedState.NEW, "reason": None, "next_run_at": None,
                                 "scanning": False, "queued_scan": "T250301-AB12CD",
                                 "today": FeedDay(1200, 1, 0), "waiting": 3}  # fmt: skip
    return FeedView(**{**fields, **changes})  # type: ignore[arg-type]


def _core(lang: Lang) -> object:
    return SimpleNamespace(lang=lang)


def test_a_chinese_feed_line_has_no_english_word() -> None:
    views = [_view(Schedule(at=(dt.time(7, 30),))), _view(Schedule(every=60), scanning=True),
             _view(Schedule(every=60), next_run_at=dt.datetime(2025, 3, 1, 8, 0), queued_scan=None)]  # fmt: skip
    lines = [_line(_core("zh"), view) for view in views]  # type: ignore[arg-type]
    scanned = lines[0].split("上次查看 ")[1].split("  ")[0]  # the desk's local time
    assert lines[0] == (f"bank  尚未查看  {FOLDER}  customers  每天 07:30 查看  "
                        "今天：导入 1,200 个，失败 1 个，重复 0 个  "
                        f"等待 3 个  上次查看 {scanned}  下次查看：现在")  # fmt: skip
    assert "每 60 秒查看" in lines[1] and lines[1].endswith("正在查看")
    for line in lines:
        # the feed's name, its folder and its import type's name are the clerk's own; the rest is Chinese
        rest = line.replace("bank", "").replace(FOLDER, "").replace("customers", "")
        assert not re.findall(r"[A-Za-z]{2,}", rest), line


@pytest.mark.parametrize("lang", ["en"])
def test_the_english_feed_line_reads_as_before(lang: Lang) -> None:
    line = _line(_core(lang), _view(Schedule(at=(dt.time(7, 30),))))  # type: ignore[arg-type]
    assert "  at 07:30  today: 1200 imported, 1 failed, 0 duplicates  waiting 3  last scan " in line
    assert line.endswith("next: now") and not re.search(r"[\u4e00-\u9fff]", line)
