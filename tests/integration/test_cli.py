"""The command line as a contract: commands, flags, JSON fields, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli_process import in_a_process, in_process
from tests.support.customers import row, write_csv

ROOT = Path(__file__).resolve().parents[2]
TASK_FIELDS = {
    "task_no", "type", "status", "stage", "progress", "total_count", "success_count", "fail_count",
    "pending_completion_count", "error_csv", "result_path", "error_code", "error_msg", "duplicate_of",
    "attempt", "created_at", "started_at", "ended_at",
}  # fmt: skip


def cli(*args: str, check_json: bool = True, process: bool = False, timeout: float = 120) -> tuple[int, object, str]:
    """`batchdesk ARGS`: in this process, or with `process` in a Python process of its own (cli_process.py);
    the process path is run by a few tests here (a refusal, BATCHDESK_HOME, --self-test, the script)."""
    run = in_a_process if process else in_process
    code, out, err = run(args, {"LANG": "C.UTF-8"}, timeout)
    assert "Traceback" not in err, err
    data = json.loads(out) if check_json and out.strip() else out
    return code, data, err


@pytest.fixture
def data_dir(tmp_path: Path) -> str:
    return str(tmp_path / "data")


def test_import_wait_json_contract(tmp_path: Path, data_dir: str) -> None:
    path = write_csv(tmp_path / "c.csv", [row(1), row(2, 手机号="x"), row(3), row(4)])
    code, task, err = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", data_dir)
    assert code == 0, err
    assert isinstance(task, dict) and set(task) >= TASK_FIELDS
    assert task["status"] == "partially_succeeded" and task["type"] == "import"
    assert (task["total_count"], task["success_count"], task["fail_count"]) == (4, 3, 1)
    assert Path(task["error_csv"]).exists() and task["duplicate_of"] is None and task["attempt"] == 1
    # the same bytes again: refused, pointing at the first task
    code, again, _ = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", data_dir)
    assert code == 1 and again["duplicate_of"] == task["task_no"] and again["error_code"] == "already_imported"
    code, forced, err = cli("import", str(path), "--type", "customers", "--wait", "--json", "--force",
                            "--data-dir", data_dir)  # fmt: skip
    assert isinstance(forced, dict), f"exit {code}, stderr: {err}"
    assert code == 1 and forced["status"] == "failed" and forced["fail_count"] == 4  # all already_exists
    code, status, _ = cli("status", task["task_no"], "--json", "--data-dir", data_dir)
    assert code == 0 and status["task_no"] == task["task_no"] and set(status) >= TASK_FIELDS
    code, listed, _ = cli("tasks", "--json", "--data-dir", data_dir)
    assert code == 0 and [t["task_no"] for t in listed] == [forced["task_no"], task["task_no"]]


def test_a_validation_and_the_task_list_read_wholly_in_the_command_line_s_language(tmp_path: Path,
                                                                                   data_dir: str) -> None:
    """Seen: `tasks` printed "partially_succeeded … Done (some rows failed)" for a validate-only run, and
    English status words inside Chinese lines. The JSON keeps its codes."""
    path = write_csv(tmp_path / "c.csv", [row(1), row(2, 手机号="x"), row(3), row(4)])
    code, task, err = cli("import", str(path), "--type", "customers", "--dry-run", "--wait", "--json",
                          "--data-dir", data_dir)  # fmt: skip
    assert code == 0 and isinstance(task, dict), err
    assert task["status"] == "partially_succeeded" and task["dry_run"] is True  # the contract, unchanged
    lines = {}
    for lang, locale in (("en", "C.UTF-8"), ("zh", "zh_CN.UTF-8")):
        for command in (("tasks",), ("status", task["task_no"])):
            code, out, err = in_process([*command, "--data-dir", data_dir], {"LANG": locale, "LC_ALL": locale})
            assert code == 0 and "Traceback" not in err, err
            lines[lang, command[0]] = out.strip()
    for command in ("tasks", "status"):
        en, zh = lines["en", command], lines["zh", command]
        assert "  Checked  " in en and "  Checked: 3 rows would import, 1 would fail  " in en, en
        assert "  已校验  " in zh and "  已校验：3 行可导入，1 行会失败  " in zh, zh
        assert "artially" not in en and "部分成功" not in zh
        # no English word but the task number and the files' paths
        assert re.findall(r"[A-Za-z]{2,}", re.sub(r"/\S+", "", zh.replace(task["task_no"], ""))) == [], zh
    code, listed, _ = cli("tasks", "--json", "--data-dir", data_dir)
    assert listed[0]["status"] == "partially_succeeded" and listed[0]["stage"] == "Done (some rows failed)"


def test_submit_queues_and_worker_runs(tmp_path: Path, data_dir: str) -> None:
    path = write_csv(tmp_path / "c.csv", [row(1)])
    code, task, _ = cli("submit", str(path), "--type", "customers", "--json", "--data-dir", data_dir)
    assert code == 0 and task["status"] == "pending"
    code, same, _ = cli("submit", str(path), "--type", "customers", "--json", "--data-dir", data_dir)
    assert same["task_no"] == task["task_no"] and same["duplicate_of"] == task["task_no"]
    code, cancelled, _ = cli("cancel", task["task_no"], "--json", "--data-dir", data_dir)
    assert code == 0 and cancelled["status"] == "cancelled"


def test_file_level_failure_json(tmp_path: Path, data_dir: str) -> None:
    path = tmp_path / "x.csv"
    path.write_text("客户编号,姓名\nC000001,张三\n", encoding="utf-8")
    code, task, _ = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", data_dir)
    assert code == 1 and task["status"] == "failed" and task["error_code"] == "missing_required_column"
    assert task["success_count"] == 0 and task["error_msg"]


def test_limits_flags(tmp_path: Path, data_dir: str) -> None:
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 4)])
    _, task, _ = cli("import", str(path), "--type", "customers", "--wait", "--json", "--max-rows", "2",
                     "--data-dir", data_dir)  # fmt: skip
    assert task["error_code"] == "too_many_rows"


def test_a_file_over_the_row_limit_says_the_flag_and_zero_percent(tmp_path: Path, data_dir: str) -> None:
    """Seen in a second tryout: "…split the file and import the parts" at 2 %, without a word of --max-rows."""
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 4)])
    code, out, _ = cli("import", str(path), "--type", "customers", "--wait", "--max-rows", "2", "--data-dir",
                       data_dir, check_json=False)  # fmt: skip
    assert code == 1 and isinstance(out, str)
    assert "  Failed  0%  " in out and "--max-rows N" in out, out
    # the JSON keeps its code and its message (the window's words too)
    _, task, _ = cli("import", str(path), "--type", "customers", "--wait", "--json", "--max-rows", "2",
                     "--data-dir", data_dir)  # fmt: skip
    assert task["error_code"] == "too_many_rows" and "--max-rows" not in task["error_msg"]


@pytest.mark.parametrize(
    "args",
    [
        ("import",),
        ("import", "f.csv"),
        ("import", "f.csv", "--type"),
        ("import", "f.csv", "--type", "customers", "--max-rows", "zero"),
        ("import", "f.csv", "--type", "customers", "--max-file-mb", "-1"),
        ("import", "f.csv", "--type", "customers", "--bogus"),
        ("frobnicate",),
        ("status",),
        ("tasks", "--status", "sleeping"),
    ],
)
def test_bad_arguments_one_line_exit_2(args: tuple[str, ...], data_dir: str) -> None:
    # an unknown command as the process ends with it; the others in this process
    code, _, err = cli(*args, "--data-dir", data_dir, check_json=False, process=args == ("frobnicate",))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("batchdesk: ")


def test_missing_file_and_unknown_type_and_task(tmp_path: Path, data_dir: str) -> None:
    for args in (
        ("import", str(tmp_path / "none.csv"), "--type", "customers", "--wait", "--json"),
        ("import", str(write_csv(tmp_path / "c.csv", [row(1)])), "--type", "suppliers", "--wait", "--json"),
        ("status", "T000000-XXXXXX", "--json"),
        ("cancel", "T000000-XXXXXX"),
    ):
        code, _, err = cli(*args, "--data-dir", data_dir, check_json=False)
        assert code == 2 and len(err.strip().splitlines()) == 1, (args, err)


def test_unreachable_database_is_one_line(data_dir: str) -> None:
    code, _, err = cli("tasks", "--json", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", check_json=False)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "127.0.0.1" in err


def test_console_script_installed() -> None:
    script = Path(sys.executable).with_name("batchdesk")
    assert script.exists(), "pip install -e . should install the batchdesk script"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "BatchDesk" in result.stdout


def test_batchdesk_home_redirects_everything(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = write_csv(tmp_path / "c.csv", [row(1), row(2, 手机号="x")])
    result = subprocess.run(
        [sys.executable, "-m", "desktop_app", "import", str(path), "--type", "customers", "--wait", "--json"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "BATCHDESK_HOME": str(home)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    task = json.loads(result.stdout)
    assert (home / "batchdesk.sqlite3").exists() and (home / "logs" / "batchdesk.log").exists()
    assert Path(task["error_csv"]).is_relative_to(home)
    assert task["task_no"] in (home / "logs" / "batchdesk.log").read_text(encoding="utf-8")


def test_self_test_runs_the_window_and_the_pipeline() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--self-test"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("self-test ok") and "Traceback" not in result.stderr


def test_unusable_data_dir_is_one_plain_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for args in (("tasks", "--json", "--data-dir", str(blocker / "sub")),
                 ("tasks", "--json", "--db", f"sqlite:///{blocker}/sub/x.sqlite3")):  # fmt: skip
        code, _, err = cli(*args, check_json=False)
        assert code == 2 and len(err.strip().splitlines()) == 1 and str(blocker) in err, err


def test_the_task_listing_hides_system_tasks_unless_asked(tmp_path: Path, data_dir: str) -> None:
    """Seen in a second tryout: a feed's look at its folder ("feed_scan", 自动导入检查文件夹) listed every minute
    by `batchdesk tasks`, burying the clerk's imports; the window hides system tasks unless asked."""
    path = write_csv(tmp_path / "c.csv", [row(i) for i in range(1, 4)])
    code, imported, _ = cli("import", str(path), "--type", "customers", "--wait", "--json", "--data-dir", data_dir)
    assert code == 0 and isinstance(imported, dict)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    code, _, err = cli("feed", "add", "bank", "--folder", str(inbox), "--type", "customers", "--json",
                       "--data-dir", data_dir)  # fmt: skip
    assert code == 0, err
    code, out, _ = cli("tasks", "--data-dir", data_dir, check_json=False)
    lines = str(out).splitlines()
    assert code == 0 and lines[0].startswith(f"{imported['task_no']}  import  Succeeded"), out
    assert "feed_scan" not in str(out) and lines[-1] == "1 system task hidden: --system shows them", out
    code, out, _ = cli("tasks", "--system", "--data-dir", data_dir, check_json=False)
    assert code == 0 and "  feed_scan  Pending  " in str(out) and "hidden" not in str(out), out
    # the JSON lists every task, as it always has
    code, listed, _ = cli("tasks", "--json", "--data-dir", data_dir)
    assert code == 0 and isinstance(listed, list) and sorted(t["type"] for t in listed) == ["feed_scan", "import"]


def test_the_hidden_system_tasks_are_those_within_the_listing(tmp_path: Path, data_dir: str) -> None:
    """`tasks --limit N` lists the N newest of the clerk's tasks: the system tasks it says it hid are those
    among them (newer than the oldest listed), not every feed check since the first day."""
    from desktop_app.app import build_core
    from desktop_app.tasks.submit import current_user

    core = build_core(data_dir=Path(data_dir))
    try:
        def add(task_type: str) -> None:
            core.store.submit(task_type=task_type, params={"n": len(made)}, creator=current_user())
            made.append(task_type)

        made: list[str] = []
        for task_type in ["feed_scan"] * 3 + ["import", "feed_scan", "import", "feed_scan", "feed_scan"]:
            add(task_type)
    finally:
        core.store.engine.dispose()
    said = {}
    for limit in ("1", "2", "100"):
        code, out, _ = cli("tasks", "--limit", limit, "--data-dir", data_dir, check_json=False)
        lines = str(out).splitlines()
        assert code == 0 and all(" import " in line for line in lines[:-1]), out
        said[limit] = lines[-1]
    # the newest import is the 6th task: two feed checks after it; the older import the 4th: three after it
    assert said == {"1": "2 system tasks hidden: --system shows them",
                    "2": "3 system tasks hidden: --system shows them",
                    "100": "6 system tasks hidden: --system shows them"}  # fmt: skip
