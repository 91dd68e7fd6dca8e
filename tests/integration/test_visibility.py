"""Each clerk sees their own tasks (seed 000 §5.4), on every back-end: the store's filters, the
administrators of a shared database, and the command line's contract (`tasks`, `status`, `cancel`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.status import TaskStatus
from tests.integration.test_cli import cli
from tests.support.customers import row, write_csv


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url, overrides={"daily_cleanup": False})
    yield core
    core.store.engine.dispose()


def embedded(core: Core) -> bool:
    return core.store.dialect.embedded


def test_the_store_reads_and_cancels_only_the_creators_tasks(core: Core) -> None:
    store = core.store
    hers = store.submit(task_type="import", params={"file": "/a.csv"}, creator="alice").task
    his = store.submit(task_type="import", params={"file": "/b.csv"}, creator="bob").task
    assert [t.task_no for t in store.list(creator="alice")] == [hers.task_no]
    assert {t.task_no for t in store.list()} == {hers.task_no, his.task_no}  # None: everyone's
    assert store.find(his.task_no, creator="alice") is None
    assert store.find(his.task_no, creator="bob") == store.get(his.task_no)
    assert [t.task_no for t in store.changed_since(store.now(-60), creator="bob")] == [his.task_no]
    assert store.cancel(his.task_no, creator="alice") is None  # as for an unknown task ...
    assert store.get(his.task_no).status is TaskStatus.PENDING  # type: ignore[union-attr]  # ... and left alone
    cancelled = store.cancel(his.task_no, creator="bob")
    assert cancelled is not None and cancelled.status is TaskStatus.CANCELLED


def test_the_first_administrator_then_only_administrators_name_others(core: Core) -> None:
    from desktop_app.domain.viewer import Viewer
    from desktop_app.store import admins

    engine = core.store.engine
    assert admins.viewer(engine, "alice") == Viewer("alice", is_admin=embedded(core))
    admins.add(engine, "boss", by="boss")  # none yet: anyone may name the first
    assert admins.viewer(engine, "boss").is_admin
    if not embedded(core):
        with pytest.raises(PermanentError) as refused:
            admins.add(engine, "alice", by="alice")  # a clerk cannot make herself one
        assert refused.value.code is ErrorCode.NOT_ADMIN
        assert not admins.viewer(engine, "alice").is_admin
        with pytest.raises(PermanentError):
            admins.remove(engine, "boss", by="alice")
    with pytest.raises(PermanentError) as last:
        admins.remove(engine, "boss", by="boss")
    assert last.value.code is ErrorCode.LAST_ADMIN
    admins.add(engine, "carol", by="boss")
    assert admins.remove(engine, "boss", by="carol")
    assert [a.name for a in admins.names(engine)] == ["carol"]


def test_two_desks_naming_the_first_administrator_at_once_make_one(core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_app.store import admins

    engine = core.store.engine
    admins.add(engine, "boss", by="boss")
    if embedded(core):
        return  # on one desk there is no race to win, and the desk's user is its administrator anyway
    real, looked = admins.names, []

    def stale(engine: object) -> list[Any]:
        looked.append(engine)  # the first look happens before the other desk's row is committed
        return [] if len(looked) == 1 else real(engine)  # type: ignore[arg-type]

    monkeypatch.setattr(admins, "names", stale)
    with pytest.raises(PermanentError) as lost:  # it looked when there was none, and lost the unique index
        admins.add(engine, "mallory", by="mallory")
    assert lost.value.code is ErrorCode.NOT_ADMIN
    assert [a.name for a in real(engine)] == ["boss"]


def test_a_viewer_lists_their_own_and_an_administrator_anyones() -> None:
    from desktop_app.domain.viewer import Viewer

    clerk, boss = Viewer("alice"), Viewer("boss", is_admin=True)
    assert clerk.listing() == "alice" and clerk.listing(creator="alice") == "alice"
    for ask in ({"everyone": True}, {"creator": "bob"}):
        with pytest.raises(PermanentError) as refused:
            clerk.listing(**ask)  # type: ignore[arg-type]
        assert refused.value.code is ErrorCode.NOT_ADMIN
    assert boss.listing() == "boss" and boss.listing(everyone=True) is None and boss.listing(creator="bob") == "bob"


# --- the command line: `tasks`, `status`, `cancel` take --user; another clerk's task is no task --------


def test_the_command_line_shows_each_clerk_their_own(db_url: str, tmp_path: Path) -> None:
    path = write_csv(tmp_path / "c.csv", [row(1)])
    where = ("--db", db_url)
    _, hers, _ = cli("submit", str(path), "--type", "customers", "--json", "--user", "alice", *where)
    _, his, _ = cli("submit", str(path), "--type", "customers", "--json", "--user", "bob", *where)
    assert isinstance(hers, dict) and isinstance(his, dict) and hers["task_no"] != his["task_no"]
    code, listed, _ = cli("tasks", "--json", "--user", "alice", *where)
    assert code == 0 and [t["task_no"] for t in listed] == [hers["task_no"]]  # type: ignore[union-attr]
    code, own, _ = cli("status", hers["task_no"], "--json", "--user", "alice", *where)
    assert code == 0 and own["task_no"] == hers["task_no"]  # type: ignore[index]
    shared = not db_url.startswith("sqlite")
    if shared:
        for command in ("status", "cancel"):
            code, out, err = cli(command, his["task_no"], "--json", "--user", "alice", *where, check_json=False)
            assert (code, out) == (2, "") and err.strip() == f"batchdesk: No task {his['task_no']}", err
        for ask in (("--all",), ("--creator", "bob")):
            code, _, err = cli("tasks", "--json", "--user", "alice", *ask, *where, check_json=False)
            assert code == 2 and len(err.strip().splitlines()) == 1 and "administrator" in err, err
        code, still, _ = cli("status", his["task_no"], "--json", "--user", "bob", *where)
        assert still["status"] == "pending"  # type: ignore[index]  # alice's cancel did nothing
        # the first administrator is named explicitly; from then on, a clerk cannot name herself
        code, _, err = cli("admin", "add", "boss", "--user", "boss", *where, check_json=False)
        assert code == 0, err
        code, _, err = cli("admin", "add", "alice", "--user", "alice", *where, check_json=False)
        assert code == 2 and "administrator" in err, err
        admin = ("--user", "boss")
    else:
        admin = ("--user", "alice")  # on the embedded database the desk's user is its administrator
    code, everyone, _ = cli("tasks", "--json", "--all", *admin, *where)
    assert code == 0 and {t["task_no"] for t in everyone} == {hers["task_no"], his["task_no"]}  # type: ignore[union-attr]
    code, bobs, _ = cli("tasks", "--json", "--creator", "bob", *admin, *where)
    assert [t["task_no"] for t in bobs] == [his["task_no"]]  # type: ignore[union-attr]
    code, cancelled, err = cli("cancel", his["task_no"], "--json", *admin, *where)
    assert code == 0 and cancelled["status"] == "cancelled", err  # type: ignore[index]
