"""Feeds end to end on each database: files dropped into a folder are imported once each (ordinary import
tasks of the feed's owner), then moved to imported/, failed/ or duplicates/ with their notes; the same
bytes again are duplicates, a changed file is a new import, a folder that goes away pauses the feed."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core
from desktop_app.domain.feeds import FeedState, FileState, Outcome
from desktop_app.domain.rendering import render
from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import Lane
from desktop_app.feeds import folder as folder_module
from desktop_app.feeds import moving
from desktop_app.store.feeds import FeedStore
from desktop_app.submission import feed_scan_key
from desktop_app.tasks.runner import run_task
from tests.support.customers import HEADER, row, run_import, write_csv
from tests.support.feeds import (
    OWNER,
    add_feed,
    drive,
    feed_imports,
    listed,
    run_here,
    scan_now,
    sha,
    today,
    viewer,
    where,
)
from tests.support.running import run_now


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


def _customers(core: Core) -> int:
    with core.store.reading() as conn:
        return int(conn.exec_driver_sql("SELECT COUNT(*) FROM customers").scalar_one())


def test_a_feed_imports_each_file_once_and_moves_it_where_its_outcome_says(core: Core, inbox: Path) -> None:
    write_csv(inbox / "may.csv", [row(i) for i in range(1, 11)])
    write_csv(inbox / "june.csv", [row(i, 手机号="x") if i == 15 else row(i) for i in range(11, 21)])
    write_csv(inbox / "broken.csv", [row(i, 手机号="x") for i in range(21, 31)])
    (inbox / "empty.csv").write_bytes(b"")
    write_csv(inbox / "may-again.csv", [row(i) for i in range(1, 11)])  # may.csv's bytes under another name
    for name in ("~$may.csv", ".hidden.csv", "x.csv.tmp", "notes.txt"):
        (inbox / name).write_text("not a table")
    add_feed(core, inbox)

    drive(core)

    day = today()
    assert where(inbox) == {
        "": [".hidden.csv", "notes.txt", "x.csv.tmp", "~$may.csv"],
        "imported": [f"{day}/june-errors.csv", f"{day}/june.csv", f"{day}/may.csv"],
        "failed": [f"{day}/broken-errors.csv", f"{day}/broken.csv", f"{day}/empty-why.txt", f"{day}/empty.csv"],
        "duplicates": [f"{day}/may-again-duplicate.txt", f"{day}/may-again.csv"],
    }
    # ordinary import tasks of the feed's owner, one per file that was not a duplicate
    imports = {Path(str(t.params["file"])).name: t for t in feed_imports(core)}
    assert sorted(imports) == ["broken.csv", "empty.csv", "june.csv", "may.csv"]
    assert {t.creator for t in imports.values()} == {OWNER}
    may, june = imports["may.csv"], imports["june.csv"]
    assert (may.status, may.success_count) == (TaskStatus.SUCCEEDED, 10)
    assert (june.status, june.success_count, june.fail_count) == (TaskStatus.PARTIALLY_SUCCEEDED, 9, 1)
    assert imports["broken.csv"].status is TaskStatus.FAILED and imports["empty.csv"].error_code == "empty_file"
    # the notes: the error CSV itself, why in the desk's language, which task imported the same bytes
    imported = inbox / "imported" / day
    assert june.error_csv and (imported / "june-errors.csv").read_bytes() == Path(june.error_csv).read_bytes()
    why = (inbox / "failed" / day / "empty-why.txt").read_text(encoding="utf-8-sig")
    assert imports["empty.csv"].task_no in why and "没能导入 empty.csv" in why and "文件是空的" in why
    note = (inbox / "duplicates" / day / "may-again-duplicate.txt").read_text(encoding="utf-8-sig")
    assert may.task_no in note and "may-again.csv" in note
    assert _customers(core) == 19
    # the list's view of it
    (view,) = core.feeds().views(viewer())
    assert (view.today.imported, view.today.failed, view.today.duplicates, view.waiting) == (2, 2, 1, 0)
    assert view.state is FeedState.WATCHING and view.reason is None and view.problems == ()
    rows = FeedStore(core.store.engine).recent(view.feed.id)
    dup = next(r for r in rows if r.name == "may-again.csv")
    assert (dup.outcome, dup.duplicate_of, dup.task_no) == (Outcome.DUPLICATE, may.task_no, None)
    # and an import of a feed is undone as any other
    undo = core.submitter().submit_undo(may.task_no, user=OWNER)
    assert run_now(core, undo.task.id).status is TaskStatus.SUCCEEDED
    assert _customers(core) == 9


def test_a_changed_file_under_the_same_name_is_a_new_import_and_the_same_bytes_again_a_duplicate(
    core: Core, inbox: Path
) -> None:
    first = write_csv(inbox / "may.csv", [row(i) for i in range(1, 6)]).read_bytes()
    add_feed(core, inbox)
    drive(core)
    write_csv(inbox / "may.csv", [row(i) for i in range(6, 11)])  # May's file again, corrected
    drive(core)
    (inbox / "may.csv").write_bytes(first)  # the first version dropped once more
    drive(core)

    day = today()
    assert where(inbox)["imported"] == [f"{day}/may (2).csv", f"{day}/may.csv"]
    assert where(inbox)["duplicates"] == [f"{day}/may-duplicate.txt", f"{day}/may.csv"]
    assert (inbox / "imported" / day / "may.csv").read_bytes() == first
    assert (inbox / "duplicates" / day / "may.csv").read_bytes() == first
    imports = feed_imports(core)
    assert [t.success_count for t in imports] == [5, 5] and _customers(core) == 10
    note = (inbox / "duplicates" / day / "may-duplicate.txt").read_text(encoding="utf-8-sig")
    assert imports[0].task_no in note


def test_the_same_bytes_imported_by_hand_before_are_a_duplicate_of_that_task(core: Core, inbox: Path) -> None:
    elsewhere = write_csv(inbox.parent / "by-hand.csv", [row(i) for i in range(1, 4)])
    by_hand = run_import(core, elsewhere, user=OWNER)
    (inbox / "bank.csv").write_bytes(elsewhere.read_bytes())
    add_feed(core, inbox)
    drive(core)
    assert where(inbox)["duplicates"] == [f"{today()}/bank-duplicate.txt", f"{today()}/bank.csv"]
    assert [t.task_no for t in feed_imports(core)] == [by_hand.task_no]  # no second import
    assert by_hand.task_no in (inbox / "duplicates" / today() / "bank-duplicate.txt").read_text(encoding="utf-8-sig")


def test_leave_keeps_the_files_and_reads_an_unchanged_file_never_again(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    real = folder_module.file_sha256
    monkeypatch.setattr(folder_module, "file_sha256", lambda path: reads.append(path.name) or real(path))
    write_csv(inbox / "a.csv", [row(i) for i in range(1, 4)])
    write_csv(inbox / "b.csv", [row(i) for i in range(4, 7)])
    feed = add_feed(core, inbox, leave=True)
    drive(core)
    assert sorted(reads) == ["a.csv", "b.csv"] and len(feed_imports(core)) == 2
    FeedStore(core.store.engine).request_run(feed.id)  # a look again, and again
    drive(core)
    drive(core)
    assert sorted(reads) == ["a.csv", "b.csv"] and len(feed_imports(core)) == 2  # not read, not imported
    assert where(inbox) == {"": ["a.csv", "b.csv"], "imported": [], "failed": [], "duplicates": []}
    # a changed file under its name is a new import; a copy of a file left there is a duplicate, left too
    write_csv(inbox / "b.csv", [row(i) for i in range(7, 10)])
    (inbox / "c.csv").write_bytes((inbox / "a.csv").read_bytes())
    FeedStore(core.store.engine).request_run(feed.id)
    drive(core)
    assert sorted(reads) == ["a.csv", "b.csv", "b.csv", "c.csv"]
    assert len(feed_imports(core)) == 3 and _customers(core) == 9
    assert where(inbox)[""] == ["a.csv", "b.csv", "c.csv"]
    (view,) = core.feeds().views(viewer())
    assert (view.today.imported, view.today.duplicates) == (3, 1)


def test_a_folder_that_goes_away_pauses_the_feed_in_plain_words_and_it_resumes_by_itself(
    core: Core, inbox: Path
) -> None:
    feed = add_feed(core, inbox)
    away = inbox.with_name("inbox-offline")
    inbox.rename(away)
    scan = scan_now(core)
    assert scan is not None and scan.status is TaskStatus.SUCCEEDED
    stored = FeedStore(core.store.engine).get_by_id(feed.id)
    assert stored is not None and stored.state is FeedState.OFFLINE
    assert render(stored.reason, None, "en") == f"The folder {inbox} is not reachable; looking again in 60 s"
    assert render(stored.reason, None, "zh") == f"文件夹 {inbox} 无法访问；60 秒后再看一次"
    following = core.store.active(feed_scan_key(feed.id))
    assert following is not None and following.next_run_at is not None
    assert 50 < (following.next_run_at - FeedStore(core.store.engine).db_now()).total_seconds() <= 61
    # a file queued before the folder went away, its import run while it is away: not failed for that
    away.rename(inbox)
    write_csv(inbox / "a.csv", [row(i) for i in range(1, 4)])
    scan_now(core)  # looks, takes a.csv, queues its import
    (queued,) = FeedStore(core.store.engine).in_state(feed.id, FileState.QUEUED)
    inbox.rename(away)
    assert run_now(core, core.store.get(queued.task_no or "").id).error_code == "file_not_found"  # type: ignore[union-attr]
    scan_now(core)
    assert FeedStore(core.store.engine).get_by_id(feed.id).state is FeedState.OFFLINE  # type: ignore[union-attr]
    away.rename(inbox)
    drive(core)
    assert where(inbox)["imported"] == [f"{today()}/a.csv"] and where(inbox)["failed"] == []
    first, second = feed_imports(core)
    assert (first.status, second.status) == (TaskStatus.FAILED, TaskStatus.SUCCEEDED)
    back = FeedStore(core.store.engine).get_by_id(feed.id)
    assert back is not None and back.state is FeedState.WATCHING and back.reason is None


def test_a_file_is_taken_only_once_it_kept_its_size_and_time_for_the_settle_time(core: Core, inbox: Path) -> None:
    feed = add_feed(core, inbox, settle=4)  # long enough for the scans below on a machine under load
    path = inbox / "growing.csv"
    head = ",".join(HEADER) + "\n"
    path.write_text(head + ",".join(row(1)) + "\n", encoding="utf-8")
    scan_now(core)
    feeds = FeedStore(core.store.engine)
    (seen,) = feeds.in_state(feed.id, FileState.SETTLING)
    with path.open("a", encoding="utf-8") as handle:  # still being written
        handle.write(",".join(row(2)) + "\n")
    feeds.request_run(feed.id)
    scan_now(core)
    (again,) = feeds.in_state(feed.id, FileState.SETTLING)
    assert again.size > seen.size and again.first_seen_at >= seen.first_seen_at  # seen anew
    feeds.request_run(feed.id)
    scan_now(core)  # unchanged, but not for the settle time yet
    assert feeds.in_state(feed.id, FileState.SETTLING) and not feed_imports(core)
    (still,) = feeds.in_state(feed.id, FileState.SETTLING)
    assert still.first_seen_at == again.first_seen_at  # the first sight of this size and time is kept
    pending = core.store.active(feed_scan_key(feed.id))
    assert pending is not None and pending.next_run_at is not None  # the next scan comes when it settles
    threading.Event().wait(4.2)
    drive(core)
    (task,) = feed_imports(core)
    moved = inbox / "imported" / today() / "growing.csv"
    assert task.success_count == 2 and task.params["file_size"] == moved.stat().st_size


def test_in_order_imports_the_oldest_file_first_one_at_a_time(core: Core, inbox: Path) -> None:
    now = dt.datetime.now().timestamp()
    for age, name in ((300, "3.csv"), (200, "2.csv"), (100, "1.csv")):  # 3.csv is the oldest
        path = write_csv(inbox / name, [row(age + i) for i in range(3)])
        os.utime(path, (now - age, now - age))
    feed = add_feed(core, inbox, in_order=True)
    scan_now(core)
    feeds = FeedStore(core.store.engine)
    assert [r.name for r in feeds.in_state(feed.id, FileState.QUEUED)] == ["3.csv"]
    assert len(feeds.in_state(feed.id, FileState.READY)) == 2
    drive(core)
    imports = feed_imports(core)
    assert [Path(str(t.params["file"])).name for t in imports] == ["3.csv", "2.csv", "1.csv"]
    for earlier, later in itertools.pairwise(imports):
        assert earlier.ended_at is not None and later.created_at is not None and later.created_at >= earlier.ended_at
    assert where(inbox)["imported"] == [f"{today()}/1.csv", f"{today()}/2.csv", f"{today()}/3.csv"]


def test_a_scan_queues_the_next_one_and_idle_scans_leave_no_rows(core: Core, inbox: Path) -> None:
    feed = add_feed(core, inbox, every=120)
    key = feed_scan_key(feed.id)
    first = core.store.active(key)
    assert first is not None and first.status is TaskStatus.PENDING and first.creator == OWNER
    assert first.lane is Lane.SHORT
    ended = scan_now(core)
    assert ended is not None and ended.status is TaskStatus.SUCCEEDED and ended.id == first.id
    second = core.store.active(key)
    assert second is not None and second.id != first.id and second.next_run_at is not None
    assert 110 < (second.next_run_at - FeedStore(core.store.engine).db_now()).total_seconds() <= 121
    scan_now(core)
    third = core.store.active(key)
    assert third is not None and third.id not in (first.id, second.id)
    scans = core.store.list(task_type="feed_scan", limit=100)
    # the first scan did nothing and is forgotten; the one that just ran stays until the next one runs
    assert [s.id for s in scans] == [third.id, second.id]


def test_pausing_cancels_the_pending_scan_and_a_removed_feed_scans_no_more(core: Core, inbox: Path) -> None:
    feed = add_feed(core, inbox)
    key = feed_scan_key(feed.id)
    pending = core.store.active(key)
    assert pending is not None
    view = core.feeds().pause("bank", viewer())
    assert view.state is FeedState.PAUSED and core.store.active(key) is None
    assert core.store.get(pending.task_no).status is TaskStatus.CANCELLED  # type: ignore[union-attr]
    write_csv(inbox / "a.csv", [row(1)])
    core.feeds().resume("BANK", viewer())  # names are found whatever their case
    drive(core)
    assert len(feed_imports(core)) == 1
    # a scan queued before the pause runs after it: it ends and queues no other
    feeds = FeedStore(core.store.engine)
    feeds.set_paused(feed.id, True)
    scan = core.store.active(key)
    assert scan is not None
    assert run_here(core, scan.id).summary.get("paused") is True and core.store.active(key) is None
    feeds.set_paused(feed.id, False)
    core.feeds().run("bank", viewer())
    assert core.store.active(key) is not None
    core.feeds().remove("bank", viewer())
    assert core.store.active(key) is None and feeds.get("bank") is None
    late = core.store.submit(task_type="feed_scan", params={"feed": feed.id, "name": "bank"}, creator=OWNER,
                             lane=Lane.SHORT)  # fmt: skip
    assert run_here(core, late.task.id).summary.get("removed") is True and core.store.active(key) is None


def test_two_scans_at_once_take_each_file_once(core: Core, inbox: Path) -> None:
    # 12 files, not 30: the two scans still meet over the same files (each claims file by file, in turns of
    # the GIL), and each file is an import to run afterwards
    for i in range(12):
        write_csv(inbox / f"f{i:02d}.csv", [row(i * 10 + j) for j in range(1, 4)])
    feed = add_feed(core, inbox)
    # two scans of one feed running together (a recovered scan beside its successor, two desks)
    extra = [core.store.submit(task_type="feed_scan", params={"feed": feed.id, "name": "bank"}, creator=OWNER,
                               lane=Lane.SHORT).task for _ in range(2)]  # fmt: skip
    claimed = core.store.claim("test:2:2:bb", 2, only_ids=[t.id for t in extra])
    threads = [threading.Thread(target=run_task, args=(task,), kwargs={
        "registry": core.registry, "store": core.store, "paths": core.paths, "settings": core.settings,
        "stop_event": threading.Event(), "lang": "en"}) for task in claimed]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    drive(core)
    imports = feed_imports(core)
    assert len(imports) == 12 and len({t.params["file_sha256"] for t in imports}) == 12
    assert len(where(inbox)["imported"]) == 12 and where(inbox)[""] == [] and where(inbox)["duplicates"] == []
    assert _customers(core) == 36


def test_a_file_that_cannot_be_moved_stays_its_task_stands_and_the_feed_says_so(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_csv(inbox / "held.csv", [row(1)])
    real_unlink = os.unlink

    def unlink(path: object) -> None:
        if Path(str(path)).parent == inbox:
            raise PermissionError(13, "Permission denied")
        real_unlink(path)  # type: ignore[arg-type]

    monkeypatch.setattr(moving, "_unlink", unlink)
    feed = add_feed(core, inbox)
    drive(core)
    assert where(inbox) == {"": ["held.csv"], "imported": [], "failed": [], "duplicates": []}
    (task,) = feed_imports(core)
    assert task.status is TaskStatus.SUCCEEDED
    core.lang = "en"
    (view,) = core.feeds().views(viewer())
    assert view.reason == ("1 file could not be moved (no permission to move held.csv); it stays where it is, "
                           "its task stands; trying again at the next look")  # fmt: skip
    assert view.waiting == 1 and view.problems
    monkeypatch.setattr(moving, "_unlink", real_unlink)
    FeedStore(core.store.engine).request_run(feed.id)
    scan_now(core)
    assert where(inbox)["imported"] == [f"{today()}/held.csv"] and where(inbox)[""] == []
    (view,) = core.feeds().views(viewer())
    assert view.reason is None and view.today.imported == 1 and len(feed_imports(core)) == 1


def test_a_feed_belongs_to_its_owner_and_another_clerk_does_not_see_it(core: Core, inbox: Path) -> None:
    add_feed(core, inbox)
    if core.store.dialect.embedded:
        assert [v.feed.name for v in core.feeds().views(viewer("bob"))] == []  # bob's own feeds: none
        return
    from desktop_app.domain.errors import PermanentError

    assert core.feeds().views(viewer("bob")) == []
    with pytest.raises(PermanentError) as info:
        core.feeds().pause("bank", viewer("bob"))
    assert info.value.code == "feed_not_found"
    assert [v.feed.name for v in core.feeds().views(viewer(OWNER))] == ["bank"]


def test_the_fingerprint_is_reused_by_the_import_and_the_file_is_read_once_to_be_hashed(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.tasks import submit as submit_module

    hashed: list[str] = []
    real = submit_module.content_sha256
    monkeypatch.setattr(submit_module, "content_sha256", lambda path: hashed.append(path.name) or real(path))
    path = write_csv(inbox / "a.csv", [row(1)])
    digest = sha(path)
    add_feed(core, inbox)
    drive(core)
    (task,) = feed_imports(core)
    assert hashed == [] and task.params["file_sha256"] == digest
    assert listed(inbox / "imported" / today()) == ["a.csv"]


def test_an_import_type_that_cannot_be_used_blocks_the_feed_and_its_files_wait(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.domain.errors import ErrorCode, PermanentError
    from desktop_app.submission import Submitter

    real = Submitter.submit_import

    def broken(self: Submitter, *args: object, **kwargs: object) -> object:
        raise PermanentError(ErrorCode.IMPORT_TYPE_INVALID, import_type="customers", problem="no column phone")

    write_csv(inbox / "a.csv", [row(1)])
    feed = add_feed(core, inbox)
    monkeypatch.setattr(Submitter, "submit_import", broken)
    scan_now(core)
    stored = FeedStore(core.store.engine).get_by_id(feed.id)
    assert stored is not None and stored.state is FeedState.BLOCKED
    assert render(stored.reason, None, "en") == ('Its files cannot be queued for import: The import type "customers" '
                                                 "has a problem and cannot be used: no column phone; they wait in the "
                                                 "folder")  # fmt: skip
    assert [r.name for r in FeedStore(core.store.engine).in_state(feed.id, FileState.READY)] == ["a.csv"]
    assert where(inbox)[""] == ["a.csv"] and not feed_imports(core)
    monkeypatch.setattr(Submitter, "submit_import", real)  # the type mended
    drive(core)
    assert where(inbox)["imported"] == [f"{today()}/a.csv"]
    assert FeedStore(core.store.engine).get_by_id(feed.id).state is FeedState.WATCHING  # type: ignore[union-attr]


def test_a_file_that_cannot_be_read_yet_waits_and_is_taken_once_it_can_be(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.feeds import scan as scan_module

    real = scan_module.fingerprint
    held = {"a.csv"}

    def fingerprint(path: Path, size: int, mtime_ns: int) -> str | None:
        if path.name in held:
            raise folder_module.NotReadable("held by another program")
        return real(path, size, mtime_ns)

    monkeypatch.setattr(scan_module, "fingerprint", fingerprint)
    write_csv(inbox / "a.csv", [row(1)])
    write_csv(inbox / "b.csv", [row(2)])
    feed = add_feed(core, inbox)
    drive(core)
    assert where(inbox)["imported"] == [f"{today()}/b.csv"] and where(inbox)[""] == ["a.csv"]
    core.lang = "en"
    (view,) = core.feeds().views(viewer())
    assert view.reason == "a.csv cannot be read yet (another program may hold it); it is taken once it can be"
    held.clear()
    FeedStore(core.store.engine).request_run(feed.id)
    drive(core)
    assert where(inbox)["imported"] == [f"{today()}/a.csv", f"{today()}/b.csv"]
    (view,) = core.feeds().views(viewer())
    assert view.reason is None


def test_a_scan_that_goes_wrong_fails_visibly_and_the_feed_goes_on(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop_app.feeds.scan import Scan

    real = Scan.look

    def bug(self: Scan, now: dt.datetime) -> None:
        raise RuntimeError("a bug in the look")

    feed = add_feed(core, inbox)
    monkeypatch.setattr(Scan, "look", bug)
    failed = scan_now(core)
    assert failed is not None and failed.status is TaskStatus.FAILED and failed.error_code == "internal_error"
    stored = FeedStore(core.store.engine).get_by_id(feed.id)
    assert stored is not None and "RuntimeError: a bug in the look" in (render(stored.reason, None, "en") or "")
    following = core.store.active(feed_scan_key(feed.id))
    assert following is not None and following.id != failed.id  # the feed goes on
    monkeypatch.setattr(Scan, "look", real)
    write_csv(inbox / "a.csv", [row(1)])
    drive(core)
    assert where(inbox)["imported"] == [f"{today()}/a.csv"]


def test_a_feed_whose_scans_were_cut_gets_one_again_when_a_worker_starts(core: Core, inbox: Path) -> None:
    from desktop_app.app import build_executor

    feed = add_feed(core, inbox)
    paused = add_feed(core, inbox, name="paused")
    core.feeds().pause("paused", viewer())
    key = feed_scan_key(feed.id)
    pending = core.store.active(key)
    assert pending is not None
    core.store.cancel(pending.task_no)  # cancelled by hand: the chain is cut
    assert core.store.active(key) is None
    executor = build_executor(core)
    executor._first_round()  # what a starting window or worker does before it claims
    again = core.store.active(key)
    assert again is not None and again.status is TaskStatus.PENDING and again.creator == OWNER
    assert core.store.active(feed_scan_key(paused.id)) is None  # a paused feed stays paused
    executor.deleteLater()


EAST_HEADER = "Customer No;姓名;手机号;等级;Remark\n"
EXAMPLE_PROFILE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "east-customers.toml"


def test_a_feed_with_a_profile_imports_as_the_profile_says_and_names_its_version(core: Core, inbox: Path) -> None:
    """The east branch's daily file (its own headers, a semicolon, 钻石 for 金卡, no department column) read
    through the feed's profile; a later file after the profile's next version is read with that version."""
    from desktop_app.imports.profiles import read_profile_file

    profile = read_profile_file(str(EXAMPLE_PROFILE))
    core.submitter().save_profile("East", profile, user=OWNER, source=str(EXAMPLE_PROFILE))
    (inbox / "east-0501.csv").write_text(EAST_HEADER + "C000001;张三;13800000001;钻石;老客户\n"
                                         "C000002;李四;13800000002;银卡;\n", encoding="utf-8")  # fmt: skip
    add_feed(core, inbox, profile="East")
    drive(core)
    # v2 maps 钻石 to 银卡 instead: the next day's file is read with it
    from dataclasses import replace
    from types import MappingProxyType

    v2 = replace(profile, values=MappingProxyType({"level": MappingProxyType({"钻石": "银卡"})}))
    core.submitter().save_profile("East", v2, user=OWNER, source="test")
    (inbox / "east-0502.csv").write_text(EAST_HEADER + "C000003;王五;13800000003;钻石;\n", encoding="utf-8")
    drive(core)

    day = today()
    assert where(inbox)["imported"] == [f"{day}/east-0501.csv", f"{day}/east-0502.csv"]
    tasks = {Path(str(t.params["file"])).name: t for t in feed_imports(core)}
    assert {n: (t.status, t.params["profile"], t.params["profile_version"]) for n, t in tasks.items()} == {
        "east-0501.csv": (TaskStatus.SUCCEEDED, "East", 1),
        "east-0502.csv": (TaskStatus.SUCCEEDED, "East", 2),
    }
    with core.store.reading() as conn:
        stored = conn.exec_driver_sql("SELECT code, level, department FROM customers ORDER BY code").all()
    assert [tuple(r) for r in stored] == [("C000001", "gold", "华东销售部"), ("C000002", "silver", "华东销售部"),
                                          ("C000003", "silver", "华东销售部")]  # fmt: skip


@pytest.mark.parametrize("mode", ["delete", "sync"])
def test_a_feed_never_deletes_rows_not_even_through_its_profile(core: Core, inbox: Path, mode: str) -> None:
    """A profile whose mode is delete (or sync, which deletes the rows its file lacks) is refused for a feed;
    one saved with it after the feed was added blocks the feed in words (its files wait), and no row is deleted."""
    from dataclasses import replace

    from desktop_app.domain.errors import ErrorCode, PermanentError
    from desktop_app.domain.modes import ImportMode
    from desktop_app.imports.profiles import read_profile_file

    profile = read_profile_file(str(EXAMPLE_PROFILE))
    deleting = replace(profile, options=replace(profile.options, mode=ImportMode(mode)))
    submitter = core.submitter()
    submitter.save_profile("Deleting", deleting, user=OWNER, source="test")
    with pytest.raises(PermanentError) as refused:
        add_feed(core, inbox, profile="Deleting")
    assert refused.value.code is ErrorCode.FEED_NEVER_DELETES
    assert "a feed never deletes rows" in refused.value.text("en")

    run_import(core, write_csv(inbox.parent / "first.csv", [row(1)]))
    submitter.save_profile("East", profile, user=OWNER, source="test")
    feed = add_feed(core, inbox, profile="East")
    submitter.save_profile("East", deleting, user=OWNER, source="test")  # v2 deletes: too late for the check
    (inbox / "keys.csv").write_text(EAST_HEADER + "C000001;张三;13800000001;金卡;\n", encoding="utf-8")
    scan_now(core)
    stored = FeedStore(core.store.engine).get_by_id(feed.id)
    assert stored is not None and stored.state is FeedState.BLOCKED
    assert "a feed never deletes rows" in render(stored.reason, None, "en")
    assert [r.name for r in FeedStore(core.store.engine).in_state(feed.id, FileState.READY)] == ["keys.csv"]
    assert feed_imports(core) == [] and _customers(core) == 1


def test_a_paused_feed_counts_the_files_waiting_in_its_folder_without_reading_them(
    core: Core, inbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen by a clerk: a paused feed read "Waiting 0" with a file in its folder. It counts the files its pattern
    takes that it has not imported (a new one, a new version of one it left there), from one listing of the
    folder: none is read, fingerprinted or queued; a folder on another desk is not listed."""
    write_csv(inbox / "a.csv", [row(1)])
    feed = add_feed(core, inbox, leave=True)
    drive(core)
    assert len(feed_imports(core)) == 1
    core.feeds().pause("bank", viewer())
    reads: list[str] = []
    monkeypatch.setattr(folder_module, "file_sha256", lambda path: reads.append(path.name) or "")
    write_csv(inbox / "b.csv", [row(2)])
    (inbox / "notes.txt").write_text("not the feed's", encoding="utf-8")
    (inbox / "~$b.csv").write_text("a lock file", encoding="utf-8")
    (view,) = core.feeds().views(viewer())
    assert view.state is FeedState.PAUSED and view.waiting == 1  # b.csv; a.csv was imported and left there
    write_csv(inbox / "a.csv", [row(3)])  # a new version of the one it left
    os.utime(inbox / "a.csv", ns=(1, 1))
    assert core.feeds().view("bank", viewer()).waiting == 2
    assert reads == [] and len(feed_imports(core)) == 1 and core.store.active(feed_scan_key(feed.id)) is None
    with core.store.engine.begin() as conn:  # the feed's folder is another desk's: not listed here
        conn.exec_driver_sql("UPDATE feeds SET host = 'another-desk'")
    assert core.feeds().view("bank", viewer()).waiting == 0
