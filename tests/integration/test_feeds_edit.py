"""Editing a feed on each database (the window's Edit…): its settings change, checked as adding checks
them, its name stays; a profile a feed names must exist for its type; a feed's imports name the feed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.errors import ErrorCode, PermanentError
from desktop_app.domain.feeds import FEED_PARAM, FeedSpec, FeedState, FileState, Schedule
from desktop_app.domain.profiles import Profile
from desktop_app.domain.status import TaskStatus
from desktop_app.imports.options import ImportOptions
from desktop_app.store.feeds import FeedStore
from desktop_app.submission import feed_scan_key
from tests.support.customers import row, write_csv
from tests.support.feeds import OWNER, add_feed, drive, feed_imports, scan_now, viewer


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    yield core
    core.close()


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def _save_profile(core: Core, name: str, import_type: str = "customers") -> None:
    column = {"customers": "name", "price_list": "sku"}[import_type]
    profile = Profile(import_type=import_type, columns=MappingProxyType({"Name": column}))
    core.submitter().save_profile(name, profile, user=OWNER, source="test")


def test_an_edit_changes_every_setting_but_the_name_and_looks_again_with_them(
    core: Core, inbox: Path, tmp_path: Path
) -> None:
    feed = add_feed(core, inbox)
    other = tmp_path / "other"
    other.mkdir()
    _save_profile(core, "East")
    before = core.store.active(feed_scan_key(feed.id))
    assert before is not None
    spec = FeedSpec(name="ignored", folder=str(other), import_type="customers", pattern="*.csv", profile="east",
                    mode="upsert", settle=5, schedule=Schedule(at=(dt.time(7, 30),)), in_order=True,
                    leave=True)  # fmt: skip
    view = core.feeds().edit("BANK", spec, viewer())
    got = view.feed.spec
    assert (got.name, got.folder, got.pattern, got.profile, got.mode, got.settle) == (
        "bank",
        str(other.resolve()),
        "*.csv",
        "East",
        "upsert",
        5,
    )  # the profile's own spelling
    assert (got.schedule.at, got.schedule.every, got.in_order, got.leave) == ((dt.time(7, 30),), None, True, True)
    assert view.state is FeedState.NEW and view.feed.owner == OWNER
    # the pending scan of the old settings gave way to one now
    assert core.store.get(before.task_no).status is TaskStatus.CANCELLED  # type: ignore[union-attr]
    fresh = core.store.active(feed_scan_key(feed.id))
    assert fresh is not None and fresh.task_no != before.task_no
    # and the next look takes the new folder's files
    core.feeds().edit("bank", FeedSpec(name="bank", folder=str(other), import_type="customers", settle=0), viewer())
    write_csv(inbox / "old.csv", [row(1)])
    write_csv(other / "new.csv", [row(2)])
    drive(core)
    assert [Path(str(t.params["file"])).name for t in feed_imports(core)] == ["new.csv"]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"pattern": " ; "}, ErrorCode.FEED_PATTERN_EMPTY),
        ({"folder": "{inbox}/missing"}, ErrorCode.FEED_FOLDER_MISSING),
        ({"import_type": "nosuch"}, ErrorCode.UNKNOWN_IMPORT_TYPE),
        ({"mode": "sideways"}, ErrorCode.FEED_MODE_INVALID),
        ({"mode": "delete"}, ErrorCode.FEED_MODE_INVALID),
        ({"mode": "sync"}, ErrorCode.FEED_MODE_INVALID),
        ({"profile": "NOPE"}, ErrorCode.PROFILE_NOT_FOUND),
        ({"profile": "prices"}, ErrorCode.PROFILE_TYPE_MISMATCH),
    ],
)  # fmt: skip
def test_an_edit_is_checked_as_an_add_and_a_refused_one_changes_nothing(
    core: Core, inbox: Path, changes: dict[str, str], code: ErrorCode
) -> None:
    _save_profile(core, "prices", "price_list")
    add_feed(core, inbox)
    values = {k: v.replace("{inbox}", str(inbox)) for k, v in changes.items()}
    spec = FeedSpec(**{"name": "bank", "folder": str(inbox), "import_type": "customers", **values})
    with pytest.raises(PermanentError) as edit:
        core.feeds().edit("bank", spec, viewer())
    assert edit.value.code is code
    with pytest.raises(PermanentError) as add:
        core.feeds().add(FeedSpec(**{**spec.__dict__, "name": "other"}), user=OWNER)
    assert add.value.code is code
    assert core.feeds().view("bank", viewer()).feed.spec == FeedStore(core.store.engine).get("bank").spec  # type: ignore[union-attr]
    assert [v.feed.name for v in core.feeds().views(viewer())] == ["bank"]


def test_another_clerks_feed_cannot_be_edited(core: Core, inbox: Path) -> None:
    add_feed(core, inbox)
    spec = FeedSpec(name="bank", folder=str(inbox), import_type="customers")
    with pytest.raises(PermanentError) as refused:
        core.feeds().edit("bank", spec, viewer("bob"))
    assert refused.value.code is ErrorCode.FEED_NOT_FOUND


def test_the_folder_stays_while_imports_of_its_files_are_on_their_way(core: Core, inbox: Path, tmp_path: Path) -> None:
    add_feed(core, inbox)
    write_csv(inbox / "a.csv", [row(1)])
    core.feeds().run("bank", viewer())
    scan_now(core)
    feed = FeedStore(core.store.engine).get("bank")
    assert feed is not None and FeedStore(core.store.engine).count_in(feed.id, FileState.QUEUED) == 1
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(PermanentError) as refused:
        core.feeds().edit("bank", FeedSpec(name="bank", folder=str(other), import_type="customers"), viewer())
    assert refused.value.code is ErrorCode.FEED_FILES_UNDER_WAY
    assert "1 file whose import has not ended" in refused.value.text("en")
    # the rest may change meanwhile
    view = core.feeds().edit("bank", FeedSpec(name="bank", folder=str(inbox), import_type="customers",
                                              settle=3), viewer())  # fmt: skip
    assert view.feed.spec.settle == 3


def test_a_paused_feed_edited_stays_paused_and_queues_no_scan(core: Core, inbox: Path) -> None:
    feed = add_feed(core, inbox)
    core.feeds().pause("bank", viewer())
    view = core.feeds().edit("bank", FeedSpec(name="bank", folder=str(inbox), import_type="customers",
                                              pattern="*.xlsx"), viewer())  # fmt: skip
    assert view.state is FeedState.PAUSED and view.feed.spec.pattern == "*.xlsx"
    assert core.store.active(feed_scan_key(feed.id)) is None


def test_a_feeds_imports_name_the_feed_and_it_is_not_part_of_their_identity(core: Core, inbox: Path) -> None:
    write_csv(inbox / "a.csv", [row(1)])
    add_feed(core, inbox)
    drive(core)
    (task,) = feed_imports(core)
    assert task.params[FEED_PARAM] == "bank" and task.status is TaskStatus.SUCCEEDED
    # the same bytes queued by hand, or by another feed, are the same import
    write_csv(inbox / "b.csv", [row(2)])
    submitter = core.submitter()
    request = ImportOptions(file=inbox / "b.csv", import_type="customers")
    first = submitter.submit_import(request, user=OWNER, feed="other")
    again = submitter.submit_import(request, user=OWNER)
    assert first.task.params[FEED_PARAM] == "other" and again.duplicate_of == first.task.task_no


def test_the_folder_stays_while_the_feeds_scan_is_running(core: Core, inbox: Path, tmp_path: Path) -> None:
    # a running scan looks at the old folder and may queue its files after the edit's count of them
    feed = add_feed(core, inbox)
    scan = core.store.active(feed_scan_key(feed.id))
    assert scan is not None
    core.store.bring_forward(scan.id)
    (running,) = core.store.claim("test:1:1:aa", 1, only_ids=[scan.id])
    assert core.store.get_by_id(running.id).status is TaskStatus.RUNNING  # type: ignore[union-attr]
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(PermanentError) as refused:
        core.feeds().edit("bank", FeedSpec(name="bank", folder=str(other), import_type="customers"), viewer())
    assert refused.value.code is ErrorCode.FEED_SCANNING
    assert "looking at its folder" in refused.value.text("en") and "正在查看" in refused.value.text("zh")
    assert FeedStore(core.store.engine).get("bank").spec.folder == str(inbox.resolve())  # type: ignore[union-attr]
    # the rest may change meanwhile
    view = core.feeds().edit("bank", FeedSpec(name="bank", folder=str(inbox), import_type="customers",
                                              settle=3), viewer())  # fmt: skip
    assert view.feed.spec.settle == 3


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"name": "x" * 101}, ErrorCode.FEED_NAME_INVALID),
        ({"name": "a\nb"}, ErrorCode.FEED_NAME_INVALID),
        ({"pattern": " ; "}, ErrorCode.FEED_PATTERN_EMPTY),
        ({"mode": "sideways"}, ErrorCode.FEED_MODE_INVALID),
        ({"settle": -1}, ErrorCode.FEED_SETTLE_INVALID),
    ],
)  # fmt: skip
def test_a_spec_refused_says_why_in_each_language_the_chinese_without_english(
    core: Core, inbox: Path, changes: dict[str, object], code: ErrorCode
) -> None:
    from tests.unit.domain.test_messages import english_in_chinese

    spec = FeedSpec(**{"name": "bank", "folder": str(inbox), "import_type": "customers", **changes})  # type: ignore[arg-type]
    with pytest.raises(PermanentError) as refused:
        core.feeds().add(spec, user=OWNER)
    assert refused.value.code is code
    zh, en = refused.value.text("zh"), refused.value.text("en")
    assert zh and not english_in_chinese(zh), zh
    assert en and zh != en
    if code is ErrorCode.FEED_MODE_INVALID:  # its words name the modes a feed may have, every one of them
        from desktop_app.domain.modes import ImportMode

        assert all(m.value in en for m in ImportMode if not m.removes_rows), en
