"""Mapping profiles on every database: the profile commands, imports with a profile (the documented example file
itself), the task's JSON, a newer save that leaves a queued, retried, resumed or undone task alone, a profile
that no longer fits its type refused before queueing (and failing a task queued before the change), and the
command line's one-line refusals (exit 2)."""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.modes import ImportMode
from desktop_app.domain.profiles import Profile, ProfileOptions
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Progress
from desktop_app.imports.options import ImportOptions
from desktop_app.imports.profiles import parse_profile
from desktop_app.store.profiles import ProfileStore
from desktop_app.tasks.runner import run_task
from tests.support.cli_process import bd, refused_in_one_line
from tests.support.customers import codes_by_row, row, write_csv
from tests.support.imports import rows_of, write_type
from tests.support.running import run_now

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "east-customers.toml"
GUIDE = ROOT / "docs" / "PROFILES.md"


# --- helpers ------------------------------------------------------------------------------------------


def east_file(path: Path, rows: list[list[str]]) -> Path:
    """A branch's file as the example profile expects it: semicolons, its own headers for the code and a remark."""
    header = ["Customer No", "姓名", "手机号", "等级", "Remark"]
    path.write_text("\r\n".join(";".join(r) for r in [header, *rows]) + "\r\n", encoding="utf-8")
    return path


EAST_ROWS = [
    ["C000001", "张三", "13800000001", "钻石", "老客户"],
    ["C000002", "李四", "13800000002", "银卡", ""],
    ["C000003", "王五", "bad-phone", "钻石", "x"],
    ["C000004", "赵六", "13800000004", "普通", ""],
]


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    yield core
    core.close()


def customers(core: Core) -> dict[str, tuple[Any, ...]]:
    found = rows_of(core, "customers", ["code", "name", "level", "department", "note"], ["code"])
    return {r[0]: r[1:] for r in found}


def profile(**values: dict[str, str]) -> Profile:
    return Profile("customers", values=MappingProxyType({k: MappingProxyType(v) for k, v in values.items()}))


# --- the documented example ---------------------------------------------------------------------------


def test_the_guide_shows_the_example_file_as_it_is() -> None:
    """docs/PROFILES.md shows docs/examples/east-customers.toml byte for byte (the tests import with the file)."""
    blocks = re.findall(r"```toml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert EXAMPLE.read_text(encoding="utf-8") in blocks


def test_the_profile_commands_and_an_import_with_the_example(db_url: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    # the first command in a process of its own, as a clerk runs it; the rest in this one (cli_process.py)
    code, saved, err = bd(home, db_url, "profile", "save", "east", "--type", "customers", "--file", str(EXAMPLE),
                          "--json", "--user", "alice", process=True)  # fmt: skip
    assert code == 0, err
    assert (saved["name"], saved["version"], saved["type"], saved["saved_by"]) == ("east", 1, "customers", "alice")
    assert saved["constants"] == {"department": "华东销售部"} and saved["values"] == {"level": {"钻石": "金卡"}}
    code, listed, _ = bd(home, db_url, "profile", "list", "--json")
    assert code == 0 and [(p["name"], p["type"], p["version"]) for p in listed] == [("east", "customers", 1)]
    # export, then save it again: the same content, as version 2
    out = tmp_path / "out.toml"
    code, _, err = bd(home, db_url, "profile", "export", "east", "--output", str(out), as_json=False)
    assert code == 0 and out.exists(), err
    example = parse_profile(EXAMPLE.read_text("utf-8"), path="e")
    assert parse_profile(out.read_text(encoding="utf-8"), path="o") == example
    refused_in_one_line(home, db_url, "profile", "export", "east", "--output", str(out), says=str(out))
    code, again, _ = bd(home, db_url, "profile", "save", "east", "--type", "customers", "--file", str(out), "--json")
    assert code == 0 and again["version"] == 2
    code, shown, _ = bd(home, db_url, "profile", "show", "east", "--version", "1", "--json")
    assert {k: shown[k] for k in ("columns", "constants", "values", "options")} == {
        k: again[k] for k in ("columns", "constants", "values", "options")}  # fmt: skip
    code, text, _ = bd(home, db_url, "profile", "show", "east", as_json=False)
    assert code == 0 and "version 2" in text and parse_profile(text, path="s").constants == {"department": "华东销售部"}

    # the import: header mapping, the constant, the value mapping and the delimiter all from the profile
    path = east_file(tmp_path / "east.csv", EAST_ROWS)
    code, task, err = bd(home, db_url, "import", str(path), "--type", "customers", "--profile", "east", "--wait",
                         "--json")  # fmt: skip
    assert code == 0, err
    assert (task["profile"], task["profile_version"]) == ("east", 2)
    assert (task["status"], task["success_count"], task["fail_count"]) == ("partially_succeeded", 3, 1)
    assert task["missing_references"] == [{"column": "department", "value": "华东销售部", "rows": 3,
                                           "table": "departments", "can_add": True}]  # fmt: skip
    with open(task["error_csv"], encoding="utf-8-sig") as handle:
        errors = handle.read()
    assert "C000003;" not in errors and "bad-phone" in errors and "钻石" in errors  # the file's own cells
    core = build_core(data_dir=home, db_url=db_url)
    try:
        assert customers(core) == {"C000001": ("张三", "gold", "华东销售部", None),
                                   "C000002": ("李四", "silver", "华东销售部", None),
                                   "C000004": ("赵六", "standard", "华东销售部", None)}  # fmt: skip
    finally:
        core.close()
    # submit queues with the profile too
    later = east_file(tmp_path / "later.csv", [["C000005", "钱七", "13800000005", "钻石", ""]])
    code, queued, err = bd(home, db_url, "submit", str(later), "--type", "customers", "--profile", "east@1", "--json")
    assert code == 0 and (queued["status"], queued["profile"], queued["profile_version"]) == ("pending", "east", 1)
    assert bd(home, db_url, "cancel", queued["task_no"], "--json")[0] == 0
    for listing in (("status", task["task_no"], "--json"), ("tasks", "--json", "--status", "partially_succeeded")):
        code, shown, _ = bd(home, db_url, *listing)
        first = shown if isinstance(shown, dict) else shown[0]
        assert (first["profile"], first["profile_version"]) == ("east", 2)

    # removed: hidden from every command, saved again it goes on from 3
    code, removed, _ = bd(home, db_url, "profile", "remove", "east", "--json")
    assert code == 0 and removed == {"name": "east", "removed": True, "latest_version": 2}
    code, listed, _ = bd(home, db_url, "profile", "list", "--json")
    assert listed == []
    refused_in_one_line(home, db_url, "profile", "show", "east", says="removed")
    refused_in_one_line(home, db_url, "profile", "remove", "east", says="east")
    other = east_file(tmp_path / "east2.csv", [["C000009", "赵六", "13800000009", "钻石", ""]])
    refused_in_one_line(home, db_url, "import", str(other), "--type", "customers", "--profile", "east@1", "--json",
                        says="removed")  # fmt: skip
    code, third, _ = bd(home, db_url, "profile", "save", "East", "--type", "customers", "--file", str(EXAMPLE),
                        "--json")  # fmt: skip
    assert code == 0 and (third["name"], third["version"]) == ("East", 3)  # names compare folded


def test_the_command_lines_refusals_are_one_line_exit_2(db_url: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = write_csv(tmp_path / "c.csv", [row(1)])
    bad = tmp_path / "bad.toml"
    bad.write_text('type = "customers"\n[mapping]\n"a" = "code"\n', encoding="utf-8")
    # one refusal as the process ends with it; the rest in this process
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers", "--file", str(bad), says="mapping",
                        process=True)  # fmt: skip
    bad.write_text('type = "customers"\n[columns]\n"a" = "customer_code"\n', encoding="utf-8")
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers", "--file", str(bad),
                        says="customer_code")  # fmt: skip
    bad.write_text('type = "customers"\n[options]\ndelimiter = "colon"\n', encoding="utf-8")
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers", "--file", str(bad),
                        says="options.delimiter")  # fmt: skip
    bad.write_text('type = "customers"\n[options]\nquote = "\'"\n', encoding="utf-8")
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers", "--file", str(bad),
                        says="options.quote")  # fmt: skip
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "products", "--file", str(EXAMPLE),
                        says="customers")  # fmt: skip
    missing = str(tmp_path / "no.toml")
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers", "--file", missing, says=missing)
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers")  # neither --file nor --from-task
    refused_in_one_line(home, db_url, "profile", "save", "p", "--type", "customers", "--from-task", "T000000-NONE00")
    refused_in_one_line(home, db_url, "profile", "show", "nosuch", says="nosuch")
    refused_in_one_line(home, db_url, "import", str(path), "--type", "customers", "--profile", "nosuch", "--json",
                        says="nosuch")  # fmt: skip
    code, _, _ = bd(home, db_url, "profile", "save", "east", "--type", "customers", "--file", str(EXAMPLE), "--json")
    assert code == 0
    refused_in_one_line(home, db_url, "import", str(path), "--type", "customers", "--profile", "east@7", "--json",
                        says="7")  # fmt: skip
    refused_in_one_line(home, db_url, "import", str(path), "--type", "customers", "--profile", "east@x", "--json")
    refused_in_one_line(home, db_url, "import", str(path), "--type", "products", "--profile", "east", "--json",
                        says="products")  # fmt: skip
    refused_in_one_line(home, db_url, "profile", "show", "east", "--version", "0")
    # nothing was queued by any of them
    code, listed, _ = bd(home, db_url, "tasks", "--json")
    assert code == 0 and listed == []


def test_a_profile_from_a_task_and_the_flags_over_its_options(core: Core, tmp_path: Path) -> None:
    """save --from-task takes the task's header mapping and reading options; a flag given wins over them."""
    path = tmp_path / "semi.csv"
    path.write_text("编号;姓名;手机号\nC000001;张三;13800000001\n", encoding="utf-8")
    request = ImportOptions(file=path, import_type="customers", delimiter=";", header_overrides={"编号": "code"})
    first = run_now(core, core.submitter().submit_import(request, user="clerk").task.id)
    assert first.status is TaskStatus.SUCCEEDED, first.error_msg
    home = core.paths.data_dir
    code, saved, err = bd(home, core.db_url, "profile", "save", "semi", "--type", "customers", "--from-task",
                          first.task_no.lower(), "--user", "clerk", "--json")  # fmt: skip
    assert code == 0, err
    assert saved["columns"] == {"编号": "code"} and saved["options"] == {"delimiter": "semicolon"}
    # the same shape, comma-separated: the profile's semicolon fails it, --delimiter comma wins
    comma = tmp_path / "comma.csv"
    comma.write_text("编号,姓名,手机号\nC000002,李四,13800000002\n", encoding="utf-8")
    code, task, _ = bd(home, core.db_url, "import", str(comma), "--type", "customers", "--profile", "semi",
                       "--wait", "--json")  # fmt: skip
    assert code == 1 and task["error_code"] == "missing_required_column"
    code, task, err = bd(home, core.db_url, "import", str(comma), "--type", "customers", "--profile", "semi@1",
                         "--delimiter", "comma", "--wait", "--json", "--force")  # fmt: skip
    assert code == 0 and task["success_count"] == 1 and task["profile_version"] == 1, err


# --- versions: what a task names is what it gets ----------------------------------------------------------


def test_a_newer_save_does_not_change_a_queued_or_retried_task(core: Core, tmp_path: Path) -> None:
    store = ProfileStore(core.store.engine)
    store.save("levels", profile(level={"钻石": "金卡"}), by="admin")
    path = write_csv(tmp_path / "c.csv", [row(1, 等级="钻石"), row(2, 等级="钻石")])
    request = core.submitter().with_profile(ImportOptions(file=path, import_type="customers"), "levels")
    queued = core.submitter().submit_import(request, user="clerk").task
    assert (queued.params["profile"], queued.params["profile_version"]) == ("levels", 1)
    store.save("levels", profile(level={"钻石": "银卡"}), by="admin")  # version 2, while the task waits
    ended = run_now(core, queued.id)
    assert ended.status is TaskStatus.SUCCEEDED and {r[1] for r in customers(core).values()} == {"gold"}
    # its retry (the window's Retry: the same request again) names version 1 too
    with core.store.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM customers")
    retry = core.submitter().submit_import(core.submitter().resubmission(ended), user="clerk", force=True).task
    assert retry.params["profile_version"] == 1
    again = run_now(core, retry.id)
    assert again.to_json()["profile_version"] == 1 and {r[1] for r in customers(core).values()} == {"gold"}
    # the undo takes back what the task wrote, whatever became of its profile
    store.remove("levels", by="admin")
    undo = run_now(core, core.submitter().submit_undo(again.task_no, user="clerk").task.id)
    assert undo.status is TaskStatus.SUCCEEDED and customers(core) == {}
    # the removed name's versions still read for the tasks that name them; the name is refused to new imports
    assert store.get("levels", 1, removed_ok=True).profile == profile(level={"钻石": "金卡"})
    with pytest.raises(PermanentError) as caught:
        core.submitter().with_profile(ImportOptions(file=path, import_type="customers"), "levels")
    assert caught.value.code is ErrorCode.PROFILE_NOT_FOUND


def test_a_resumed_import_uses_the_stopped_ones_version(core: Core, tmp_path: Path) -> None:
    store = ProfileStore(core.store.engine)
    store.save("levels", profile(level={"钻石": "金卡"}), by="admin")
    rows = [row(i, 等级="钻石") for i in range(1, 301)]
    path = write_csv(tmp_path / "c.csv", rows)
    request = core.submitter().with_profile(ImportOptions(file=path, import_type="customers", batch_size=50), "levels")
    task = core.submitter().submit_import(request, user="clerk").task

    def cancel_after_100(progress: Progress) -> None:
        if progress.success_count >= 100:
            core.store.cancel(task.task_no)

    (claimed,) = core.store.claim("test:1:1:aa", 1, only_ids=[task.id])
    settings = dataclasses.replace(core.settings, bulk_loads=False)
    run_task(claimed, registry=core.registry, store=core.store, paths=core.paths, settings=settings,
             stop_event=threading.Event(), listener=cancel_after_100, lang="en")  # fmt: skip
    stopped = core.store.get_by_id(task.id)
    assert stopped is not None and stopped.status is TaskStatus.CANCELLED and 0 < len(customers(core)) < 300
    store.save("levels", profile(level={"钻石": "银卡"}), by="admin")  # version 2 after the stop
    resumed = core.submitter().submit_resume(stopped.task_no, user="clerk").task
    assert (resumed.params["profile"], resumed.params["profile_version"]) == ("levels", 1)
    ended = run_now(core, resumed.id)
    assert ended.status is TaskStatus.SUCCEEDED and ended.total_count == 300
    assert {r[1] for r in customers(core).values()} == {"gold"} and len(customers(core)) == 300


def test_save_from_many_desks_at_once_numbers_each_version_once(core: Core) -> None:
    store = ProfileStore(core.store.engine)
    saved: list[int] = []

    def saver(n: int) -> None:
        for i in range(3):
            saved.append(store.save("shared", profile(level={f"v{n}-{i}": "gold"}), by=f"desk{n}").version)

    threads = [threading.Thread(target=saver, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(saved) == list(range(1, 13)) and store.versions("shared") == list(range(1, 13))


# --- a profile that no longer fits its type ----------------------------------------------------------------

CLIENTS = (ROOT / "desktop_app").parent.joinpath("resources", "import_types", "customers.toml").read_text("utf-8")
REGION = """
[[columns]]
key = "region"
label_zh = "区域"
label_en = "Region"
aliases = ["区域", "region"]
kind = "enum"
enum = { "华东" = "east", "华北" = "north", "east" = "east", "north" = "north" }
"""


def clients_type(core: Core, *, region: bool, north: bool = True) -> None:
    text = CLIENTS.replace('name = "customers"', 'name = "clients"').replace('table = "customers"', 'table = "clients"')
    if region:
        text += REGION if north else REGION.replace('"华北" = "north", ', "").replace(', "north" = "north"', "")
    write_type(core, text, "clients.toml")


def test_a_profile_that_no_longer_fits_is_refused_before_queueing(core: Core, tmp_path: Path) -> None:
    clients_type(core, region=True)
    store = ProfileStore(core.store.engine)
    store.save("north", Profile("clients", constants=MappingProxyType({"region": "north"})), by="admin")
    store.save("north-values", Profile("clients", values=MappingProxyType({"level": MappingProxyType({"x": "y"})})),
               by="admin")  # fmt: skip
    path = write_csv(tmp_path / "c.csv", [row(1)])
    submitter = core.submitter()
    request = submitter.with_profile(ImportOptions(file=path, import_type="clients"), "north")
    # the enum no longer takes "north": refused, naming the column, nothing queued
    clients_type(core, region=True, north=False)
    with pytest.raises(PermanentError) as caught:
        submitter.submit_import(request, user="clerk")
    error = caught.value
    assert error.code is ErrorCode.PROFILE_UNFIT and error.params["column"] == "region"
    assert "region" in error.text("en") and "north" in error.text("zh")
    # the column is gone from the type
    clients_type(core, region=False)
    with pytest.raises(PermanentError) as caught:
        submitter.submit_import(request, user="clerk")
    assert caught.value.params["reason"] == "no_column" and "region" in caught.value.text("en")
    assert core.store.count() == 0
    # a profile that fits is one another type's command refuses in one line too (exit 2)
    err = refused_in_one_line(core.paths.data_dir, core.db_url, "import", str(path), "--type", "clients",
                              "--profile", "north", "--json", says="region")  # fmt: skip
    assert "no longer fits" in err


def test_a_task_whose_profile_stops_fitting_fails_once_with_a_file_level_code(core: Core, tmp_path: Path) -> None:
    clients_type(core, region=True)
    ProfileStore(core.store.engine).save("north", Profile("clients", constants=MappingProxyType({"region": "north"})),
                                         by="admin")  # fmt: skip
    path = write_csv(tmp_path / "c.csv", [row(1), row(2)])
    request = core.submitter().with_profile(ImportOptions(file=path, import_type="clients"), "north")
    queued = core.submitter().submit_import(request, user="clerk").task
    clients_type(core, region=False)  # the type changes while the task waits
    ended = run_now(core, queued.id)
    assert ended.status is TaskStatus.FAILED and ended.error_code == ErrorCode.PROFILE_UNFIT.value
    assert ended.retries == 0 and ended.next_run_at is None and ended.success_count == 0
    assert "region" in (ended.error_in("en") or "") and "region" in (ended.error_in("zh") or "")
    # not resumable: running it again reads the same version
    with pytest.raises(PermanentError) as caught:
        core.submitter().submit_resume(ended.task_no, user="clerk")
    assert caught.value.code is ErrorCode.NOT_RESUMABLE


def test_constants_and_options_of_an_update_profile(core: Core, tmp_path: Path) -> None:
    """An update profile: its mode from the options, a constant written to every row it updates."""
    first = write_csv(tmp_path / "a.csv", [row(1), row(2)])
    assert run_now(core, core.submitter().submit_import(ImportOptions(file=first, import_type="customers"),
                                                        user="clerk").task.id).success_count == 2  # fmt: skip
    ProfileStore(core.store.engine).save("regrade", Profile("customers", constants=MappingProxyType({"level": "金卡"}),
                                                            options=ProfileOptions(mode=ImportMode.UPDATE)),
                                         by="admin")  # fmt: skip
    update = tmp_path / "u.csv"
    update.write_text("客户编号,备注\nC000001,续约\nC000003,新\n", encoding="utf-8")
    request = core.submitter().with_profile(ImportOptions(file=update, import_type="customers"), "regrade")
    assert request.mode is ImportMode.UPDATE
    ended = run_now(core, core.submitter().submit_import(request, user="clerk").task.id)
    assert (ended.success_count, ended.fail_count) == (1, 1)
    assert codes_by_row(ended) == {3: ["not_found"]}
    assert customers(core)["C000001"] == ("客户1", "gold", "市场部", "续约")  # was silver
