"""Every path and setting, declared once with its default (platformdirs; --data-dir and BATCHDESK_HOME redirect)."""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from desktop_app import APP_NAME
from desktop_app.domain.errors import ErrorCode, Lang, message

log = logging.getLogger(__name__)

HOME_ENV = "BATCHDESK_HOME"
SETTINGS_FILE = "settings.json"


@dataclass(frozen=True)
class Paths:
    """Where BatchDesk keeps its files: everything under one data dir when redirected."""

    data_dir: Path
    log_dir: Path

    @property
    def database_file(self) -> Path:
        return self.data_dir / "batchdesk.sqlite3"

    @property
    def results_dir(self) -> Path:
        return self.data_dir / "results"

    @property
    def work_dir(self) -> Path:
        # Temp files live beside the results so the final move is a rename on one file system.
        return self.data_dir / "results" / ".work"

    @property
    def settings_file(self) -> Path:
        return self.data_dir / SETTINGS_FILE

    def ensure(self) -> Paths:
        from desktop_app.private import private_folder

        for path in (self.data_dir, self.log_dir):  # only its OS user may read a desk's tasks and logs
            private_folder(path)
        for path in (self.results_dir, self.work_dir):
            path.mkdir(parents=True, exist_ok=True)
        return self


def resolve_paths(data_dir: str | os.PathLike[str] | None = None) -> Paths:
    """--data-dir wins, then BATCHDESK_HOME, then the user's data dir; logs follow a redirect."""
    chosen = data_dir or os.environ.get(HOME_ENV)
    if chosen:
        root = Path(chosen).expanduser().resolve()
        return Paths(data_dir=root, log_dir=root / "logs")
    import platformdirs  # here: a redirected desk never needs it (13 ms of every command's start)

    return Paths(
        data_dir=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        log_dir=Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )


def default_workers() -> int:
    return 2 * (os.cpu_count() or 1)


@dataclass(frozen=True)
class Settings:
    """Tunable settings with their defaults; a settings file in the data dir may override them."""

    db_url: str | None = None  # None: the embedded SQLite file in the data dir
    max_workers: int = 0  # 0: 2 x cores
    short_slots: int = 1  # slots kept for short tasks (seed 003)
    batch_size: int = 1000
    poll_interval: float = 2.0
    poll_batch: int = 10
    heartbeat_interval: float = 10.0
    stale_after: float = 90.0
    max_recoveries: int = 3
    progress_db_interval: float = 0.8
    progress_signal_interval: float = 0.2
    max_file_mb: int = 50
    max_rows: int = 1_000_000
    fail_threshold: float = 0.30
    # seconds between batches, a polite pause (seed 000 §3.2); the window sets one so its thread gets the GIL
    batch_pause: float = 0.0
    # a CSV inserted into one of BatchDesk's own tables goes through the bulk path (imports/bulk):
    # the same rows, checks and errors, loaded by the database's own loader; false: always row by row
    bulk_loads: bool = True
    # rows a bulk batch holds (one transaction, one checkpoint); 0: the bulk path's own (imports/bulk/choice.py)
    bulk_batch_rows: int = 0
    # rows an undo puts back or takes out a page (one transaction, one checkpoint); 0: the undo's own (500)
    undo_page_rows: int = 0
    result_retention_days: int = 7
    task_retention_days: int = 90  # final tasks older than this move to the archive (seed 000 §6)
    daily_cleanup: bool = True  # queue the retention clean-up once a day when a worker or window starts
    language: str = ""  # "" follows the system locale; "zh" or "en"
    # the company's mail server a feed's mail goes through (feeds/mail.py); its password is in the system
    # keyring (feeds/mail_secret.py), never here. No host or no sender: no mail is sent.
    smtp_host: str = ""
    smtp_port: int = 0  # 0: the usual port of the security (25 none, 587 STARTTLS, 465 SSL)
    smtp_security: str = "starttls"  # none | starttls | ssl
    smtp_user: str = ""  # "": the server takes mail without signing in
    mail_from: str = ""  # the sender address
    mail_attach_mb: float = 5.0  # an error file up to this size is attached; a larger one is named
    smtp_timeout: float = 30.0  # seconds a mail server may take to answer

    @property
    def mail_ready(self) -> bool:
        """Whether a mail server and a sender are set (a feed's mail is queued only then)."""
        return bool(self.smtp_host.strip() and self.mail_from.strip())

    @property
    def workers(self) -> int:
        return self.max_workers if self.max_workers > 0 else default_workers()

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


@dataclass(frozen=True)
class SettingProblem:
    """A setting in the settings file of the wrong type or out of range: its default is used instead."""

    name: str
    value: Any
    default: Any

    def text(self, lang: Lang = "en") -> str:
        zh, en = _expected(self.name)
        value = json.dumps(self.value, ensure_ascii=False)
        default = _default_words(self.name, self.default, lang)
        return message(ErrorCode.INVALID_SETTING, lang, name=self.name, value=value,
                       expected=zh if lang == "zh" else en, default=default)  # fmt: skip


@dataclass(frozen=True)
class SettingsFileProblem:
    """A settings file that is not valid JSON (or cannot be read at all): every default is used, and the
    file is left as it is for the clerk to mend, until the settings are saved from the window."""

    path: str
    line: int | None = None  # where the JSON goes wrong; None when the file could not be read as text
    column: int | None = None
    detail: str = ""

    def text(self, lang: Lang = "en") -> str:
        if self.line is None:
            return message(ErrorCode.SETTINGS_FILE_INVALID, lang, path=self.path, reason="unreadable",
                           detail=self.detail)  # fmt: skip
        return message(ErrorCode.SETTINGS_FILE_INVALID, lang, path=self.path, line=self.line, column=self.column)


# what read_settings names: one setting given way to its default, or the whole file
AnySettingProblem = SettingProblem | SettingsFileProblem


# Settings that must be above 0 (a 0 would make a loop spin or a limit refuse everything); the other
# numbers may be 0 or more.
_POSITIVE = frozenset({"batch_size", "poll_interval", "poll_batch", "heartbeat_interval",
                       "stale_after", "max_file_mb", "max_rows", "result_retention_days",
                       "task_retention_days", "smtp_timeout"})  # fmt: skip
_LANGUAGES = ("", "zh", "en")
SMTP_SECURITY = ("none", "starttls", "ssl")
# the largest error file attached to a feed's mail: mail servers commonly take 25 MB at most, and a base64
# attachment is a third larger (the window's spin box, `settings mail --attach-mb` and the file alike)
MAIL_ATTACH_MAX_MB = 25


def _kind(name: str) -> str:
    return str(next(f.type for f in fields(Settings) if f.name == name))


def _valid(name: str, value: Any) -> bool:
    kind = _kind(name)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        if name == "smtp_security":
            return value in SMTP_SECURITY
        return isinstance(value, str) and (name != "language" or value in _LANGUAGES)
    if kind == "str | None":
        return value is None or isinstance(value, str)
    number = (int,) if kind == "int" else (int, float)
    if isinstance(value, bool) or not isinstance(value, number) or not math.isfinite(value):
        return False
    if name == "fail_threshold":
        return 0 <= value <= 1
    if name == "smtp_port":
        return 0 <= value <= 65535
    if name == "mail_attach_mb":
        return 0 <= value <= MAIL_ATTACH_MAX_MB
    return value > 0 if name in _POSITIVE else value >= 0


# Defaults whose value alone says nothing to a clerk ("using the default 0" workers)
_DEFAULT_MEANING = {
    "max_workers": ("（处理器核数的两倍）", " (twice the number of processor cores)"),
    "bulk_batch_rows": (
        "（每批 20,000 行；命令行导入 PostgreSQL 时为 13,333 行）",
        " (20,000 rows a batch; 13,333 on PostgreSQL from the command line)",
    ),
    "undo_page_rows": ("（每页 500 行）", " (500 rows a page)"),
}


def _default_words(name: str, default: Any, lang: Lang) -> str:
    """The default as the message shows it: its value, and what it means where the value does not say."""
    meaning = _DEFAULT_MEANING.get(name)
    text = json.dumps(default, ensure_ascii=False)
    return text if meaning is None else text + meaning[0 if lang == "zh" else 1]


def _expected(name: str) -> tuple[str, str]:
    """What the setting takes, in Chinese and English."""
    kind = _kind(name)
    if name == "language":
        return '""、"zh" 或 "en"', '"", "zh" or "en"'
    if name == "smtp_security":
        return '"none"、"starttls" 或 "ssl"', '"none", "starttls" or "ssl"'
    if name == "smtp_port":
        return "0 到 65535 之间的整数", "a whole number from 0 to 65535"
    if name == "fail_threshold":
        return "0 到 1 之间的数字", "a number from 0 to 1"
    if name == "mail_attach_mb":
        return f"0 到 {MAIL_ATTACH_MAX_MB} 之间的数字", f"a number from 0 to {MAIL_ATTACH_MAX_MB}"
    if kind == "bool":
        return "true 或 false", "true or false"
    if kind in ("str", "str | None"):
        return "文本", "text"
    zh, en = ("整数", "whole number") if kind == "int" else ("数字", "number")
    if name in _POSITIVE:
        return f"大于 0 的{zh}", f"a {en} above 0"
    return f"不小于 0 的{zh}", f"a {en} of 0 or more"


def read_settings(paths: Paths) -> tuple[Settings, list[AnySettingProblem]]:
    """Settings from the data dir's settings file, and the ones that were not valid (each logged and
    replaced by its default, for the window or the command line to show). Unknown keys are ignored;
    a file that is not valid JSON is logged, named as a problem of its own, and all defaults used."""
    path = paths.settings_file
    if not path.exists():
        return Settings(), []
    try:
        # utf-8-sig: Notepad's "UTF-8" puts a BOM in front, which json refuses
        raw = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        log.warning("ignoring settings file %s that is not valid JSON: %s", path, exc)
        return Settings(), [SettingsFileProblem(str(path), exc.lineno, exc.colno)]
    except (OSError, ValueError) as exc:  # unreadable, or not UTF-8 text
        log.warning("ignoring unreadable settings file %s: %s", path, exc)
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Settings(), [SettingsFileProblem(str(path), detail=detail)]
    if not isinstance(raw, dict):
        log.warning("ignoring settings file %s: it does not hold a JSON object", path)
        return Settings(), []
    defaults = Settings()
    known = {f.name for f in fields(Settings)}
    good: dict[str, Any] = {}
    problems: list[AnySettingProblem] = []
    for name, value in raw.items():
        if name not in known:
            continue
        if _valid(name, value):
            good[name] = value
        else:
            problem = SettingProblem(name, value, getattr(defaults, name))
            log.warning("%s (in %s)", problem.text("en"), path)
            problems.append(problem)
    return defaults.with_overrides(**good), problems


def load_settings(paths: Paths) -> Settings:
    """The settings (a setting that is not valid gives way to its default; see read_settings)."""
    return read_settings(paths)[0]


def save_settings(paths: Paths, settings: Settings) -> None:
    paths.data_dir.mkdir(parents=True, exist_ok=True)
    tmp = paths.settings_file.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(settings), ensure_ascii=False, indent=2), encoding="utf-8")
    tmp.replace(paths.settings_file)


def resources_dir() -> Path:
    """The resources folder: beside the package in a checkout, inside the bundle when frozen."""
    import sys

    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"
