"""The feed commands as a contract: add, list, show, run --wait, pause, resume, remove; JSON fields, exit
codes, and a bad argument in one plain line (exit 2)."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import pytest

from desktop_app.feeds import scan
from tests.support.cli_process import in_a_process, in_process
from tests.support.customers import row, write_csv

ROOT = Path(__file__).resolve().parents[2]
VIEW_FIELDS = {
    "name", "folder", "pattern", "import_type", "profile", "mode", "settle_seconds", "every_seconds", "at",
    "in_order", "leave", "mail_to", "owner", "host", "paused", "state", "reason", "last_scan_at", "last_look_at",
    "next_run_at", "scanning", "scan_task", "today", "waiting", "problems",
}  # fmt: skip


def cli(*args: str | Path, process: bool = False) -> tuple[int, object, str]:
    """`batchdesk ARGS`: in this process, or with `process` in a Python process of its own (cli_process.py)."""
    run = in_a_process if process else in_process
    code, out, err = run(list(map(str, args)), {"LANG": "C.UTF-8"})
    assert "Traceback" not in err, err
    try:
        data: object = json.loads(out) if out.strip().startswith(("{", "[")) else out
    except json.JSONDecodeError:
        data = out
    return code, data, err


@pytest.fixture(autouse=True)
def follow_up_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scan's follow-up (the imports it queued have ended: their files to move) 0.2 s after it, not 2 s:
    `feed run --wait` runs the same scans in this process, each a real wait (a process keeps the 2 s)."""
    monkeypatch.setattr(scan, "FOLLOW_UP", 0.2)


@pytest.fixture
def data(tmp_path: Path) -> list[str]:
    return ["--data-dir", str(tmp_path / "data")]


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def test_a_daily_feed_in_three_commands_and_its_outcome(inbox: Path, data: list[str]) -> None:
    write_csv(inbox / "a.csv", [row(i) for i in range(1, 6)])
    write_csv(inbox / "copy-of-a.csv", [row(i) for i in range(1, 6)])
    write_csv(inbox / "bad.csv", [row(i, 手机号="x") for i in range(6, 9)])
    # the add and the second run in processes of their own, as a clerk runs them; the rest in this one
    code, view, err = cli("feed", "add", "bank", "--folder", inbox, "--type", "customers", "--settle", "0",
                          "--user", "alice", "--json", *data, process=True)  # fmt: skip
    assert code == 0, err
    assert isinstance(view, dict) and set(view) == VIEW_FIELDS
    assert (view["name"], view["state"], view["owner"], view["settle_seconds"], view["every_seconds"]) == (
        "bank", "new", "alice", 0, 60)  # fmt: skip
    assert view["folder"] == str(inbox.resolve()) and view["scan_task"] and view["pattern"] == "*.csv;*.xlsx;*.xls"
    code, listed, _ = cli("feed", "list", "--json", *data)
    assert code == 0 and isinstance(listed, list) and [v["name"] for v in listed] == ["bank"]

    code, outcome, err = cli("feed", "run", "bank", "--wait", "--json", *data)
    assert code == 1, err  # a file failed
    assert isinstance(outcome, dict)
    assert (outcome["imported"], outcome["failed"], outcome["duplicates"], outcome["waiting"]) == (1, 1, 1, 0)
    files = {f["name"]: f for f in outcome["files"]}
    assert sorted(files) == ["a.csv", "bad.csv", "copy-of-a.csv"]
    day = dt.date.today().isoformat()
    assert files["a.csv"]["moved_to"] == str(inbox.resolve() / "imported" / day / "a.csv")
    assert files["copy-of-a.csv"]["duplicate_of"] == files["a.csv"]["task_no"]
    assert files["bad.csv"]["outcome"] == "failed" and (inbox / "failed" / day / "bad-errors.csv").is_file()
    assert outcome["feed"]["today"] == {"imported": 1, "failed": 1, "duplicates": 1}
    # the imports are the owner's ordinary tasks
    code, task, _ = cli("status", files["a.csv"]["task_no"], "--json", "--user", "alice", *data)
    assert code == 0 and isinstance(task, dict) and task["status"] == "succeeded" and task["creator"] == "alice"

    code, shown, _ = cli("feed", "show", "bank", "--json", *data)
    assert code == 0 and isinstance(shown, dict) and shown["state"] == "watching"
    assert sorted(f["name"] for f in shown["files"]) == ["a.csv", "bad.csv", "copy-of-a.csv"]
    code, text, _ = cli("feed", "list", *data)
    assert code == 0 and isinstance(text, str) and text.startswith("bank  Watching  ")
    assert "today: 1 imported, 1 failed, 1 duplicates" in text

    code, paused, _ = cli("feed", "pause", "bank", "--json", *data)
    assert code == 0 and isinstance(paused, dict) and (paused["state"], paused["paused"]) == ("paused", True)
    code, _, err = cli("feed", "run", "bank", *data)
    assert code == 2 and err.strip().splitlines() == [
        "batchdesk: The feed bank is paused; resume it first (batchdesk feed resume bank)"]  # fmt: skip
    code, resumed, _ = cli("feed", "resume", "bank", "--json", *data)
    assert code == 0 and isinstance(resumed, dict) and resumed["paused"] is False
    write_csv(inbox / "b.csv", [row(i) for i in range(10, 12)])
    # `feed run --wait` reports the files changed from 1 s before it started (cli/feeds.py `since`): the
    # commands above, in this process, take less than that, and the first run's files would count again
    time.sleep(1.1)
    code, outcome, err = cli("feed", "run", "bank", "--wait", *data, process=True)
    assert code == 0, err
    assert isinstance(outcome, str) and outcome.startswith("feed bank: 1 imported, 0 failed, 0 duplicates, 0 waiting")
    code, text, _ = cli("feed", "remove", "bank", *data)
    assert code == 0 and "removed" in str(text)
    code, _, err = cli("feed", "show", "bank", *data)
    assert code == 2 and err.strip() == "batchdesk: There is no feed named bank"


def test_a_feed_at_set_times_with_every_option(inbox: Path, data: list[str]) -> None:
    # the profile a feed names exists for its type (one that does not is refused: see below)
    example = ROOT / "docs" / "examples" / "east-customers.toml"
    assert cli("profile", "save", "bank-v2", "--type", "customers", "--file", example, *data)[0] == 0
    code, view, err = cli("feed", "add", "Bank Statements", "--folder", inbox, "--type", "customers",
                          "--at", "13:00,07:30", "--in-order", "--leave", "--pattern", "bank-*.csv", "--settle", "30",
                          "--profile", "bank-v2", "--mode", "upsert", "--json", *data)  # fmt: skip
    assert code == 0, err
    assert isinstance(view, dict)
    assert (view["at"], view["every_seconds"]) == (["07:30", "13:00"], None)
    assert (view["in_order"], view["leave"], view["pattern"]) == (True, True, "bank-*.csv")
    assert (view["settle_seconds"], view["profile"], view["mode"]) == (30, "bank-v2", "upsert")
    code, run, _ = cli("feed", "run", "bank statements", *data)  # names whatever their case
    assert code == 0 and isinstance(run, str) and "queued" in run


@pytest.mark.parametrize(
    "args, words",
    [
        (["feed"], "the following arguments are required: ACTION"),
        (["feed", "add", "x", "--folder", "{inbox}"], "the following arguments are required: --type"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--every", "0"], "must be greater than 0"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--at", "25:00"], "not a time of day"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--every", "10", "--at", "07:00"],
         "not allowed with argument"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--settle", "-1"], "must be 0 or more"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--mode", "merge"], "invalid choice"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "nosuch"], "nosuch"),
        (["feed", "add", "x", "--folder", "{inbox}/missing", "--type", "customers"], "does not exist"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--pattern", " ; "], "names no files"),
        (["feed", "add", "x", "--folder", "{inbox}", "--type", "customers", "--profile", "NOPE"],
         'No mapping profile "NOPE"'),
        (["feed", "show", "nosuch"], "There is no feed named nosuch"),
        (["feed", "pause", "nosuch"], "There is no feed named nosuch"),
    ],
)  # fmt: skip
def test_a_bad_argument_is_one_plain_line_and_exit_2(
    inbox: Path, data: list[str], args: list[str], words: str
) -> None:
    where = data if len(args) > 1 else []  # `feed` alone: its action is what is missing
    code, _, err = cli(*(a.replace("{inbox}", str(inbox)) for a in args), *where)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("batchdesk: ") and words in lines[0], err


def test_a_name_in_use_is_refused_whatever_its_case(inbox: Path, data: list[str]) -> None:
    assert cli("feed", "add", "bank", "--folder", inbox, "--type", "customers", *data)[0] == 0
    code, _, err = cli("feed", "add", "BANK", "--folder", inbox, "--type", "customers", *data)
    assert code == 2 and err.strip() == "batchdesk: A feed named BANK exists already"


def test_feed_edit_changes_the_settings_given_and_keeps_the_others(inbox: Path, data: list[str]) -> None:
    assert cli("feed", "add", "bank", "--folder", inbox, "--type", "customers", "--leave", "--every", "120",
               "--mode", "upsert", *data)[0] == 0  # fmt: skip
    code, view, err = cli("feed", "edit", "BANK", "--settle", "5", "--at", "07:30", "--no-leave", "--pattern", "*.csv",
                          "--json", *data)  # fmt: skip
    assert code == 0, err
    assert isinstance(view, dict) and view["name"] == "bank"
    assert (view["settle_seconds"], view["at"], view["every_seconds"], view["leave"]) == (5, ["07:30"], None, False)
    assert (view["pattern"], view["mode"], view["folder"]) == ("*.csv", "upsert", str(inbox.resolve()))
    code, _, err = cli("feed", "edit", "bank", "--profile", "NOPE", *data)
    assert code == 2 and err.strip() == 'batchdesk: No mapping profile "NOPE"'
    code, _, err = cli("feed", "edit", "nosuch", "--settle", "1", *data)
    assert code == 2 and err.strip() == "batchdesk: There is no feed named nosuch"


def test_a_feed_mails_the_addresses_it_is_given_checked_and_can_mail_nobody(inbox: Path, data: list[str]) -> None:
    code, _, err = cli("feed", "add", "bank", "--folder", inbox, "--type", "customers",
                       "--mail", "clerk@bank.example, boss(at)bank", *data)  # fmt: skip
    assert code == 2 and err.strip() == (
        'batchdesk: "boss(at)bank" is not a valid mail address (it should look like name@example.com)')
    code, view, err = cli("feed", "add", "bank", "--folder", inbox, "--type", "customers",
                          "--mail", "clerk@bank.example,boss@bank.example", "--json", *data)  # fmt: skip
    assert code == 0, err
    assert isinstance(view, dict) and view["mail_to"] == ["clerk@bank.example", "boss@bank.example"]
    code, shown, _ = cli("feed", "show", "bank", *data)
    assert code == 0 and "failed imports are mailed to clerk@bank.example, boss@bank.example" in str(shown)
    code, view, _ = cli("feed", "mail", "bank", "--none", "--json", *data)
    assert code == 0 and isinstance(view, dict) and view["mail_to"] == []
    code, view, _ = cli("feed", "show", "bank", "--json", *data)
    assert code == 0 and isinstance(view, dict) and view["mail_to"] == []


def test_a_chinese_desk_lists_its_feeds_wholly_in_chinese(inbox: Path, data: list[str]) -> None:
    """Seen in a tryout: `LC_ALL=zh_CN.UTF-8 batchdesk feed list` printed "尚未查看 … at 07:30 today: 0 imported,
    0 failed, 0 duplicates waiting 0 next: now"; its JSON is as in English."""
    from tests.support.cli_process import in_process

    zh = {"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8"}
    code, out, err = in_process(["feed", "list", *data], zh)
    assert code == 0 and out.startswith("没有自动导入（添加一个："), err
    code, _, err = in_process(["feed", "add", "bank", "--folder", str(inbox), "--type", "customers", "--at", "07:30",
                               *data], zh)  # fmt: skip
    assert code == 0, err
    code, out, _ = in_process(["feed", "list", *data], zh)
    line = out.splitlines()[0]
    assert code == 0 and "每天 07:30 查看  今天：导入 0 个，失败 0 个，重复 0 个  等待 0 个" in line, line
    rest = line.replace("bank", "").replace(str(inbox.resolve()), "").replace("customers", "")
    assert not [w for w in rest.split() if w.isascii() and w.isalpha()], line
    code, listed, _ = cli("feed", "list", "--json", *data)
    assert code == 0 and isinstance(listed, list) and set(listed[0]) == VIEW_FIELDS


def test_a_chinese_feed_show_says_its_files_in_chinese_and_the_next_look_in_one_form(
    inbox: Path, data: list[str]
) -> None:
    """Seen in a second tryout: `LC_ALL=zh_CN.UTF-8 batchdesk feed show NAME` printed "failed  customers_gbk.csv";
    `feed add` said "next: now", `feed list` "next 2026-12-08 07:30:00" (another colon, the seconds)."""
    import re

    from tests.support.cli_process import in_process

    write_csv(inbox / "a.csv", [row(i) for i in range(1, 4)])
    write_csv(inbox / "bad.csv", [row(i, 手机号="x") for i in range(6, 9)])
    zh = {"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8"}
    code, out, err = in_process(["feed", "add", "bank", "--folder", str(inbox), "--type", "customers", "--settle",
                                 "0", "--mail", "a@bank.example, b@bank.example", *data], zh)  # fmt: skip
    assert code == 0 and "下次查看：现在" in out, (out, err)
    code, _, err = cli("feed", "run", "bank", "--wait", *data)
    assert code == 1, err
    code, out, _ = in_process(["feed", "show", "bank", *data], zh)
    lines = out.splitlines()
    assert code == 0 and "  已导入  a.csv  " in out and "  失败  bad.csv  " in out, out
    assert re.search(r"下次查看：\d{4}-\d\d-\d\d \d\d:\d\d(  |$)", lines[0]), lines[0]
    assert "导入失败时发邮件给 a@bank.example、b@bank.example" in out, out
    code, out, _ = cli("feed", "list", *data)
    assert re.search(r"next: \d{4}-\d\d-\d\d \d\d:\d\d(  |$)", str(out).splitlines()[0]), out
