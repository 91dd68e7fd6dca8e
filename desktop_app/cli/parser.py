"""The command line's arguments: a stable contract other checks drive the product through."""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from desktop_app import __version__

MODES = ("insert", "insert_new", "update", "upsert")
# an import asked for by hand may also delete; a watched folder's imports never do (feeds keep MODES)
IMPORT_MODES = (*MODES, "delete", "sync")
EXIT_OK = 0
EXIT_TASK_FAILED = 1
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line on stderr and exits 2, never a usage dump."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"batchdesk: {message} (see --help)\n")
        raise SystemExit(EXIT_USAGE)


def _count(text: str) -> int:
    return 0 if text.strip() == "0" else _positive(text)


def _scope_item(text: str) -> str:
    if "=" not in text or not text.partition("=")[0].strip():
        raise argparse.ArgumentTypeError(f"not COLUMN=VALUE: {text!r}")
    return text


def _sheet_type(text: str) -> str:
    sheet, sep, type_name = text.rpartition("=")
    if not sep or not sheet.strip() or not type_name.strip():
        raise argparse.ArgumentTypeError(f"not SHEET=TYPE: {text!r}")
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0: {text}")
    return value


# --delimiter's words for the characters a shell makes awkward to type
DELIMITER_WORDS = {"comma": ",", "semicolon": ";", "tab": "\t", "pipe": "|", ",": ",", ";": ";", "\t": "\t", "|": "|"}


def _delimiter(text: str) -> str:
    value = DELIMITER_WORDS.get(text.lower()) or DELIMITER_WORDS.get(text.encode().decode("unicode_escape"))
    if value is None:
        raise argparse.ArgumentTypeError(f"must be comma, semicolon, tab or pipe (or , ; |), not {text!r}")
    return value


def _seconds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of seconds: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text}")
    return value


def _times_of_day(text: str) -> str:
    from desktop_app.feeds.rules import parse_at

    try:
        parse_at(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _common(p: argparse.ArgumentParser) -> None:
    # SUPPRESS: a value given before the command name must not be reset by the subcommand's default.
    where = p.add_mutually_exclusive_group()
    where.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS,
                       help="keep everything (database, results, logs) in DIR")  # fmt: skip
    where.add_argument("--db", metavar="URL", default=argparse.SUPPRESS,
                       help="database URL: postgresql+psycopg://... or mysql+pymysql://...")  # fmt: skip
    p.add_argument("--verbose", action="store_true", default=argparse.SUPPRESS, help="also log to stderr")


def _file_task(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a .csv, .xlsx or .xls file")
    p.add_argument("--type", dest="import_type", metavar="T",
                   help="import type, e.g. customers (required, except with --all-sheets)")  # fmt: skip
    p.add_argument("--all-sheets", action="store_true",
                   help="a workbook of several tables: import each sheet as the import type its name or header "
                   "matches (a sheet that matches none, or several, is skipped and listed), in the order the "
                   "types' references need")  # fmt: skip
    p.add_argument("--sheet-type", action="append", default=[], type=_sheet_type, metavar="SHEET=TYPE",
                   help="with --all-sheets: import SHEET as TYPE, whatever its name or header says (repeatable)")
    p.add_argument("--json", action="store_true", help="print the task as JSON")
    p.add_argument("--user", help="who submits (default: the OS login name)")
    p.add_argument("--force", action="store_true", help="import again bytes that were already imported")
    p.add_argument("--max-rows", type=_positive, metavar="N", help="refuse files with more data rows (default 1000000)")
    p.add_argument("--max-file-mb", type=_positive, metavar="N", help="refuse files larger than N MiB (default 50)")
    p.add_argument("--dry-run", action="store_true", help="validate only: run the whole pipeline, commit nothing")
    p.add_argument("--encoding", metavar="E", help="the CSV's text encoding, overriding detection (e.g. gb18030)")
    p.add_argument("--batch-size", type=_positive, metavar="N",
                   help="rows per transaction (default 1000 row by row, 20000 on the bulk path)")  # fmt: skip
    p.add_argument("--sheet", metavar="NAME", help="the Excel sheet to read (default: the first)")
    p.add_argument("--repairs", metavar="TASK_NO", help="this file is the fixed error CSV of TASK_NO")
    # no default: a flag given wins over a profile's option, one not given leaves the profile's (else insert/keep)
    p.add_argument("--mode", choices=IMPORT_MODES,
                   help="insert: add new rows only; insert_new: add new, skip existing; update: update existing; "
                   "upsert: add new and update existing; delete: delete the rows with the file's keys (other "
                   "columns are ignored); sync: the table (or its rows in --scope) ends equal to the file, rows the "
                   "file lacks deleted (needs --confirm-deletes N) (default insert)")  # fmt: skip
    p.add_argument("--scope", action="append", default=[], type=_scope_item, metavar="COLUMN=VALUE",
                   help="sync: only the table's rows with this value may be deleted; the file's rows must carry it "
                   "(repeatable: every one holds)")  # fmt: skip
    p.add_argument("--confirm-deletes", type=_count, metavar="N",
                   help="sync: the number of rows it deletes, as it says without this flag (nothing is written "
                   "when the number differs)")  # fmt: skip
    p.add_argument("--blank", choices=("keep", "clear"),
                   help="update/upsert: a blank cell keeps the stored value (keep) or empties it (clear)")  # fmt: skip
    p.add_argument("--date-order", choices=("dmy", "mdy"),
                   help="how the file writes day/month dates such as 03/05/2024: dmy (3 May) or mdy (March 5); "
                   "without it, such a date that reads both ways is a row error (ambiguous_date)")  # fmt: skip
    p.add_argument("--delimiter", type=_delimiter, metavar="D",
                   help="a CSV's field separator: comma, semicolon, tab or pipe (default: the file's sep= line, "
                   "else detected)")  # fmt: skip
    p.add_argument("--decimal-comma", action="store_true",
                   help="the file writes numbers with a decimal comma (1 234,50 or 1.234,50)")  # fmt: skip
    p.add_argument("--profile", metavar="NAME[@N]",
                   help="a saved mapping profile (its latest version, or version N): its header mapping, constants, "
                   "value mappings and reading options; the flags given here win over its options")  # fmt: skip
    _common(p)


@functools.cache
def build_parser() -> Parser:
    """The command line's parser, built once a process (~15 ms: every in-process command of a test built it
    again); parse_args leaves a parser as it was."""
    return _built()


def _built() -> Parser:
    parser = Parser(prog="batchdesk", description="BatchDesk: queue imports and exports, watch them run.")
    parser.add_argument("--version", action="version", version=f"BatchDesk {__version__}")
    parser.add_argument("--demo", action="store_true", help="open the window on a temporary data dir with samples")
    parser.add_argument("--self-test", action="store_true", help="open the window offscreen, import a sample, exit")
    # nargs="?": a menu entry's `--open %f` launched without a file keeps `--open` and drops `%f`.
    parser.add_argument("--open", metavar="FILE", nargs="?", const=None, default=None,
                        help="open the window with FILE ready to queue (its preview shown)")  # fmt: skip
    parser.add_argument("--data-dir", metavar="DIR", help="keep everything (database, results, logs) in DIR")
    parser.add_argument("--db", metavar="URL", help="database URL")
    parser.add_argument("--verbose", action="store_true", help="also log to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    p = sub.add_parser("import", help="queue a file and (with --wait) run it to the end")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_submit"))
    _file_task(p)
    p.add_argument("--wait", action="store_true", help="wait until the task ends")

    p = sub.add_parser("submit", help="queue a file only; a worker runs it")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_submit"))
    _file_task(p)

    p = sub.add_parser("export", help="export a table to a file (with --wait, until it is written)")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_export"))
    p.add_argument("export_name", metavar="TYPE", help="the import type whose table to export, e.g. customers")
    p.add_argument("--wait", action="store_true", help="wait until the file is written")
    p.add_argument("--json", action="store_true", help="print the task as JSON")
    p.add_argument("--format", choices=("csv", "xlsx"), default="csv")
    p.add_argument("--encoding", choices=("utf-8-sig", "gb18030"), default="utf-8-sig", help="for CSV")
    p.add_argument(
        "--output",
        metavar="PATH",
        help="save the file here (default: the results folder); an existing file is not replaced",
    )
    p.add_argument("--replace", action="store_true", help="with --output: replace the file already there")
    p.add_argument("--user", help="who asks (default: the OS login name)")
    p.add_argument("--level", help="filter: customer level (普通/银卡/金卡 or standard/silver/gold)")
    p.add_argument("--department", help="filter: department name")
    p.add_argument("--opened-from", metavar="DATE", help="filter: opened on or after YYYY-MM-DD")
    p.add_argument("--opened-to", metavar="DATE", help="filter: opened on or before YYYY-MM-DD")
    p.add_argument("--imported-by", metavar="TASK_NO", help="filter: rows imported by this task")
    p.add_argument("--filter", action="append", default=[], metavar="KEY=VALUE",
                   help="rows whose column KEY equals VALUE (repeatable; any column of the type)")  # fmt: skip
    _common(p)

    _task_command(sub, "undo", "undo an import: delete the rows it inserted, put back what it updated", "the undo")
    _task_command(sub, "resume", "import the remaining rows of a cancelled or early-failed import", "the import")
    _task_command(sub, "apply", "apply a dry run's change plan: write its rows only as it planned them", "the apply")

    p = sub.add_parser("values", help="the values an import's columns did not allow; --map fixes them once")
    p.add_argument("task_no", metavar="TASK_NO")
    p.add_argument("--map", action="append", default=[], metavar="COLUMN:BAD=GOOD",
                   help="read BAD as GOOD in COLUMN (repeatable), then write the rows that failed only for "
                        "such values and wait")  # fmt: skip
    p.add_argument(
        "--save-to",
        metavar="PROFILE",
        help="also add the mappings to this mapping profile as its new version (created if new)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--user", help="who asks (default: the OS login name)")
    p.set_defaults(func=_lazy("desktop_app.cli.values", "cmd_values"))
    _common(p)

    p = sub.add_parser("references", help="the reference names an import did not find; --add adds them, then completes")
    p.set_defaults(func=_lazy("desktop_app.cli.references", "cmd_references"))
    p.add_argument("task_no", metavar="TASK_NO")
    p.add_argument("--add", action="store_true",
                   help="add the names not found to their reference tables (where the type allows it), then "
                        "complete the references and wait")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the import as JSON")
    p.add_argument("--user", help="who asks (default: the OS login name)")
    _common(p)

    p = sub.add_parser("types", help="the import types this desk knows, each with its problem if it has one")
    p.set_defaults(func=_lazy("desktop_app.cli.catalog", "cmd_types"))
    p.add_argument("--json", action="store_true", help="print them as JSON")
    _common(p)

    p = sub.add_parser("template", help="write a file a clerk fills in for an import type")
    p.set_defaults(func=_lazy("desktop_app.cli.catalog", "cmd_template"))
    p.add_argument("type_name", metavar="TYPE", help="import type, e.g. customers")
    p.add_argument("--out", required=True, metavar="FILE", help="where to write it")
    p.add_argument("--format", choices=("csv", "xlsx"), default="csv")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    _common(p)

    p = sub.add_parser("worker", help="run queued tasks until SIGTERM or Ctrl-C")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_worker"))
    p.add_argument("--workers", type=_positive, metavar="N", help="concurrent tasks (default 2 x cores)")
    _common(p)

    p = sub.add_parser("tasks", help="list your tasks, newest first (an administrator: anyone's)")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_tasks"))
    p.add_argument("--json", action="store_true")
    p.add_argument("--status", action="append", metavar="S", help="only tasks with this status (repeatable)")
    p.add_argument("--limit", type=_positive, default=100)
    _viewer(p)
    whose = p.add_mutually_exclusive_group()
    whose.add_argument("--all", action="store_true", help="every user's tasks (administrators only)")
    whose.add_argument("--creator", metavar="NAME", help="the tasks NAME submitted (administrators only)")
    p.add_argument("--archived", action="store_true", help="the tasks the daily clean-up moved to the archive")
    p.add_argument("--system", action="store_true",
                   help="also the system tasks (a feed's look at its folder, the clean-up); --json lists them always")
    _common(p)

    p = sub.add_parser("status", help="one of your tasks (an administrator: anyone's)")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_status"))
    p.add_argument("task_no", metavar="TASK_NO")
    p.add_argument("--json", action="store_true")
    _viewer(p)
    _common(p)

    p = sub.add_parser("errors", help="a task's error CSV (--changes: a dry run's change file), from any desk of yours")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_errors"))
    p.add_argument("task_no", metavar="TASK_NO")
    p.add_argument("--save", metavar="PATH", help="write the file to PATH (default: print where it is on this desk)")
    p.add_argument("--changes", action="store_true", help="the dry run's change file, not the error CSV")
    p.add_argument("--json", action="store_true")
    _viewer(p)
    _common(p)

    p = sub.add_parser("cancel", help="cancel a pending or running task of yours (an administrator: anyone's)")
    p.set_defaults(func=_lazy("desktop_app.cli.commands", "cmd_cancel"))
    p.add_argument("task_no", metavar="TASK_NO")
    p.add_argument("--json", action="store_true")
    _viewer(p)
    _common(p)

    _profile_commands(sub)

    _admin_commands(sub)

    _feed_commands(sub)
    _settings_commands(sub)
    return parser


def _admin_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """admin list | add | remove (a shared login's administrators) and team mode's secure | add-user | grant |
    revoke | users (cli/admin.py; docs/TEAM.md)."""
    group = sub.add_parser("admin", help="who administers a shared database; team mode: its logins and rights")
    actions = group.add_subparsers(dest="action", metavar="ACTION", parser_class=Parser, required=True)
    module = "desktop_app.cli.admin"
    who = "who asks (default: the OS login name); must be an administrator, except to add the first"
    for action, about in (("list", "the administrators"), ("add", "name an administrator (a shared login)"),
                          ("remove", "remove an administrator (a shared login)")):  # fmt: skip
        p = actions.add_parser(action, help=about)
        p.add_argument("name", metavar="NAME", nargs="?", help="the user to add or remove")
        p.add_argument("--json", action="store_true", help="print the administrators as JSON")
        _viewer(p, who=who)
        _common(p)
        p.set_defaults(func=_lazy(module, "cmd_admin"))

    p = actions.add_parser("secure", help="team mode: each clerk a database login, their rows kept to them (a DBA)")
    p.add_argument("--print-sql", action="store_true", help="print the SQL it runs, for a DBA to run by hand")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_admin_secure"))

    p = actions.add_parser("add-user", help="team mode: a clerk's database login (an owner name's role: claimed)")
    p.add_argument("name", metavar="NAME", help="the login's name")
    p.add_argument("--admin", action="store_true", help="an administrator: sees and manages every clerk's tasks")
    p.add_argument("--password-stdin", action="store_true",
                   help="read the password from stdin's first line (default: a new one, printed once)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the login as JSON")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_admin_add_user"))

    for action, about in (("grant", "team mode: let a login import into a type (and always read it)"),
                          ("revoke", "team mode: take rights on a type's table back (none named: all)")):  # fmt: skip
        p = actions.add_parser(action, help=about)
        p.add_argument("name", metavar="NAME", help="the login")
        p.add_argument("import_type", metavar="TYPE", help="the import type, e.g. customers")
        for right in ("insert", "update", "delete"):
            p.add_argument(f"--{right}", action="store_true", help=f"the right to {right} rows of its table")
        p.add_argument("--json", action="store_true", help="print the login's rights as JSON")
        _common(p)
        p.set_defaults(func=_lazy(module, f"cmd_admin_{action}"))

    p = actions.add_parser("users", help="team mode: the clerks' logins, administrators and rights per type")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_admin_users"))


def _settings_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """settings mail: the mail server a feed's mail goes through (cli/settings.py; docs/FEEDS.md)."""
    group = sub.add_parser("settings", help="this desk's settings (its settings file in the data folder)")
    actions = group.add_subparsers(dest="settings_action", metavar="ACTION", parser_class=Parser, required=True)
    p = actions.add_parser("mail", help="the mail server a feed's mail goes through (no option: show it)")
    p.add_argument("--host", help='the mail server\'s name or address ("": no mail is sent)')
    p.add_argument("--port", type=int, metavar="N", help="its port (0: 25, 587 with starttls, 465 with ssl)")
    p.add_argument("--security", choices=("none", "starttls", "ssl"), help="how the connection is protected")
    p.add_argument("--user", dest="smtp_user", metavar="NAME", help='the user to sign in as ("": none)')
    p.add_argument("--from", dest="mail_from", metavar="ADDRESS", help="the sender address")
    p.add_argument(
        "--attach-mb", type=float, metavar="MB", help="attach an error file up to this size (default 5, at most 25)"
    )
    p.add_argument("--password-stdin", action="store_true",
                   help="read the user's password from the first line of stdin, into the system keyring")  # fmt: skip
    p.add_argument("--test", metavar="ADDRESS", help="send a test mail to ADDRESS through the server")
    p.add_argument("--json", action="store_true", help="print the mail settings as JSON")
    _common(p)
    p.set_defaults(func=_lazy("desktop_app.cli.settings", "cmd_settings_mail"))


def _lazy(module: str, name: str) -> Callable[..., Any]:
    """A command's function, its module loaded when the command runs (the parser stays light)."""

    def run(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return run


def _profile_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """profile save | list | show | export | remove (cli/profiles.py; docs/PROFILES.md)."""
    p = sub.add_parser("profile", help="mapping profiles kept in the database: save, list, show, export, remove")
    p.set_defaults(func=_lazy("desktop_app.cli.profiles", "cmd_profile"))
    actions = p.add_subparsers(dest="profile_action", metavar="ACTION", parser_class=Parser, required=True)

    a = actions.add_parser("save", help="save a new version of a profile, from a task or a TOML file")
    a.add_argument("name", metavar="NAME")
    a.add_argument("--type", dest="import_type", required=True, metavar="T", help="the import type it belongs to")
    source = a.add_mutually_exclusive_group(required=True)
    source.add_argument("--from-task", metavar="TASK_NO", help="a task's header mapping and reading options")
    source.add_argument("--file", metavar="F.toml", help="a profile file (docs/PROFILES.md)")
    a.add_argument("--json", action="store_true", help="print the version saved as JSON")
    a.add_argument("--user", help="who saves it (default: the OS login name)")
    _common(a)

    a = actions.add_parser("list", help="the profiles, each with its latest version")
    a.add_argument("--json", action="store_true")
    _common(a)

    for name, about in (("show", "a profile's version (default: the latest), as its TOML file"),
                        ("export", "write a profile's version (default: the latest) to a TOML file")):  # fmt: skip
        a = actions.add_parser(name, help=about)
        a.add_argument("name", metavar="NAME")
        a.add_argument("--version", type=_positive, metavar="N", help="that version (default: the latest)")
        if name == "show":
            a.add_argument("--json", action="store_true")
        else:
            a.add_argument("--output", required=True, metavar="F.toml", help="where to write it")
            a.add_argument("--replace", action="store_true", help="replace a file already there")
        _common(a)

    a = actions.add_parser("remove", help="hide a profile (the versions tasks name stay readable)")
    a.add_argument("name", metavar="NAME")
    a.add_argument("--json", action="store_true")
    a.add_argument("--user", help="who removes it (default: the OS login name)")
    _common(a)


def _feed_commands(sub: argparse._SubParsersAction[Parser]) -> None:
    """feed add | edit | list | show | run | pause | resume | remove: watched folders (docs/FEEDS.md)."""
    feed = sub.add_parser("feed", help="watched folders: each file dropped in is imported, then moved aside")
    actions = feed.add_subparsers(dest="feed_action", metavar="ACTION", parser_class=Parser, required=True)
    module = "desktop_app.cli.feeds"

    p = actions.add_parser("add", help="watch a folder: import each file dropped into it")
    p.add_argument("name", metavar="NAME", help="the feed's name, e.g. bank")
    _feed_settings(p, edit=False)
    p.add_argument("--json", action="store_true", help="print the feed as JSON")
    _viewer(p, who="who owns the feed and its imports (default: the OS login name)")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_feed_add"))

    p = actions.add_parser("edit", help="change a feed's settings (those given; its name stays)")
    p.add_argument("name", metavar="NAME", help="the feed's name")
    _feed_settings(p, edit=True)
    p.add_argument("--json", action="store_true", help="print the feed as JSON")
    _viewer(p, who="who asks (default: the OS login name)")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_feed_edit"))

    p = actions.add_parser("list", help="the feeds, each with its state, last scan, today's files and next run")
    p.add_argument("--json", action="store_true", help="print them as JSON")
    _viewer(p, who="whose feeds (default: the OS login name; an administrator sees every feed)")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_feed_list"))

    p = actions.add_parser("show", help="one feed and its latest files")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--json", action="store_true", help="print it as JSON")
    _viewer(p, who="who asks (default: the OS login name)")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_feed_show"))

    p = actions.add_parser("run", help="look at the folder now (with --wait, import what it finds to the end)")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--wait", action="store_true", help="run what the look queued to the end and print the outcome")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    _viewer(p, who="who asks (default: the OS login name)")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_feed_run"))

    p = actions.add_parser("mail", help="who is mailed when a file's import fails or has rows with errors")
    p.add_argument("name", metavar="NAME")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--to", metavar="ADDRESS,...", help="these addresses, comma-separated (in place of the ones set)")
    who.add_argument("--none", action="store_true", help="nobody: the feed sends no mail")
    p.add_argument("--json", action="store_true", help="print the feed as JSON")
    _viewer(p, who="who asks (default: the OS login name)")
    _common(p)
    p.set_defaults(func=_lazy(module, "cmd_feed_mail"))

    others = (("pause", "stop looking at the folder until resumed"),
              ("resume", "look at the folder again, now and on its schedule"),
              ("remove", "stop and forget the feed (its imports stay; files in the folder stay)"))  # fmt: skip
    for action, about in others:
        p = actions.add_parser(action, help=about)
        p.add_argument("name", metavar="NAME")
        p.add_argument("--json", action="store_true", help="print the feed as JSON")
        _viewer(p, who="who asks (default: the OS login name)")
        _common(p)
        p.set_defaults(func=_lazy(module, f"cmd_feed_{action}"))


def _feed_settings(p: argparse.ArgumentParser, *, edit: bool) -> None:
    """A feed's settings: `feed add`'s, with their defaults; `feed edit`'s, each left as it is unless given."""
    from desktop_app.domain.feeds import DEFAULT_EVERY, DEFAULT_PATTERN, DEFAULT_SETTLE

    def default(value: object) -> object:
        return None if edit else value

    p.add_argument("--folder", required=not edit, metavar="DIR", help="the folder to watch (local or on a share)")
    p.add_argument("--type", dest="import_type", required=not edit, metavar="T", help="import type, e.g. customers")
    profile = p.add_mutually_exclusive_group()
    profile.add_argument("--profile", metavar="P", help="the mapping profile each import uses (by name)")
    if edit:
        profile.add_argument("--no-profile", action="store_true", help="the imports use no mapping profile")
    p.add_argument("--mode", choices=MODES, default=default("insert"), help="the imports' mode (default insert)")
    p.add_argument("--pattern", default=default(DEFAULT_PATTERN), metavar="GLOB",
                   help=f"which files to take, ';'-separated (default {DEFAULT_PATTERN})")  # fmt: skip
    p.add_argument("--settle", type=_seconds, default=default(DEFAULT_SETTLE), metavar="SECONDS",
                   help="a file is taken once its size and time stayed the same this long "
                   f"(default {DEFAULT_SETTLE})")  # fmt: skip
    when = p.add_mutually_exclusive_group()
    when.add_argument("--every", type=_positive, metavar="SECONDS",
                      help=f"look at the folder every N seconds (default {DEFAULT_EVERY})")  # fmt: skip
    when.add_argument("--at", type=_times_of_day, metavar="HH:MM,...",
                      help="look at the folder at these times of the desk's day, e.g. 07:30,13:00")  # fmt: skip
    flag: Any = argparse.BooleanOptionalAction if edit else "store_true"
    p.add_argument("--in-order", action=flag, default=default(False),
                   help="import the files oldest first, one at a time")  # fmt: skip
    p.add_argument("--leave", action=flag, default=default(False),
                   help="leave the files where they are (their fingerprints keep them from being imported "
                   "again)")  # fmt: skip
    if not edit:  # `feed mail NAME` changes them
        p.add_argument("--mail", metavar="ADDRESS,...",
                       help="mail these addresses when a file's import fails or has rows with errors (through the "
                       "mail server of `batchdesk settings mail`)")  # fmt: skip


def _task_command(sub: argparse._SubParsersAction[Parser], name: str, about: str,
                  what: str) -> None:  # fmt: skip
    """A command that queues a task about another task (TASK_NO): undo, resume, apply."""
    p = sub.add_parser(name, help=about)
    p.set_defaults(func=_lazy("desktop_app.cli.commands", f"cmd_{name}"))
    p.add_argument("task_no", metavar="TASK_NO")
    p.add_argument("--wait", action="store_true", help=f"wait until {what} ends")
    p.add_argument("--json", action="store_true", help="print the task as JSON")
    p.add_argument("--user", help="who asks (default: the OS login name)")
    _common(p)


def _viewer(p: argparse.ArgumentParser, who: str = "whose tasks (default: the OS login name)") -> None:
    p.add_argument("--user", help=who)
