"""A feed in words for the command line's readable lines (`feed list`, `show`, `add`...), zh and en, so that a
line reads wholly in one language (its JSON keeps its codes and numbers)."""

from __future__ import annotations

from enum import StrEnum

from desktop_app.domain import messages
from desktop_app.domain.errors import Lang


class FeedLine(StrEnum):
    EVERY = "feed_every"
    AT = "feed_at"
    TODAY = "feed_today"
    WAITING = "feed_waiting"
    LAST_SCAN = "feed_last_scan"
    SCANNING = "feed_scanning"
    NEXT = "feed_next"
    NEXT_NOW = "feed_next_now"
    NONE = "feed_none"


TEXTS: dict[FeedLine, tuple[str, str]] = {
    FeedLine.EVERY: ("每 {seconds} 秒查看", "every {seconds} s"),
    FeedLine.AT: ("每天 {times} 查看", "at {times}"),
    FeedLine.TODAY: (
        "今天：导入 {imported:,} 个，失败 {failed:,} 个，重复 {duplicates:,} 个",
        "today: {imported} imported, {failed} failed, {duplicates} duplicates",
    ),
    FeedLine.WAITING: ("等待 {count:,} 个", "waiting {count}"),
    FeedLine.LAST_SCAN: ("上次查看 {stamp}", "last scan {stamp}"),
    FeedLine.SCANNING: ("正在查看", "scanning now"),
    FeedLine.NEXT: ("下次查看 {stamp}", "next {stamp}"),
    FeedLine.NEXT_NOW: ("下次查看：现在", "next: now"),
    # {command}: how to add one, its words for the name, the folder and the type in the same language
    FeedLine.NONE: ("没有自动导入（添加一个：{command}）", "no feeds (add one: {command})"),
}

messages.register(FeedLine, TEXTS)


ADD_COMMAND = {
    "zh": "batchdesk feed add 名称 --folder 文件夹 --type 导入类型",
    "en": "batchdesk feed add NAME --folder DIR --type T",
}


def feed_line_word(word: FeedLine, lang: Lang, **params: object) -> str:
    return messages.text(word, lang, **params)
