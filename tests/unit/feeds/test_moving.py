"""Moving a feed's file: never over another file, finished after a crash at any point, across volumes
by a checked copy, and left where it was when it cannot be moved."""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.domain.feeds import Outcome
from desktop_app.feeds import moving
from desktop_app.feeds.moving import Moved, MoveFailed, destination, move, place_note

DAY = "2026-05-01"


def _file(path: Path, data: bytes = b"code,name\n1,a\n") -> tuple[Path, str, int]:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path, hashlib.sha256(data).hexdigest(), len(data)


def test_the_destination_is_a_dated_folder_of_the_outcome_and_a_taken_name_gets_a_number(tmp_path: Path) -> None:
    target, note = destination(tmp_path, Outcome.IMPORTED, DAY, "bank.csv", None)
    assert target == tmp_path / "imported" / DAY / "bank.csv" and note is None
    _file(target)
    target, note = destination(tmp_path, Outcome.IMPORTED, DAY, "bank.csv", "errors.csv")
    assert (target.name, note and note.name) == ("bank (2).csv", "bank (2)-errors.csv")
    # a note's name taken is a taken name too
    _file(tmp_path / "failed" / DAY / "bank-why.txt")
    target, note = destination(tmp_path, Outcome.FAILED, DAY, "bank.csv", "why.txt")
    assert (target.name, note and note.name) == ("bank (2).csv", "bank (2)-why.txt")
    target, note = destination(tmp_path, Outcome.DUPLICATE, DAY, "noext", "duplicate.txt")
    assert target == tmp_path / "duplicates" / DAY / "noext" and note == target.parent / "noext-duplicate.txt"


def test_a_move_on_one_volume_leaves_the_file_in_one_place(tmp_path: Path) -> None:
    source, sha, size = _file(tmp_path / "bank.csv")
    target = tmp_path / "imported" / DAY / "bank.csv"
    assert move(source, target, sha256=sha, size=size) is Moved.MOVED
    assert not source.exists() and target.read_bytes() == b"code,name\n1,a\n"
    assert move(source, target, sha256=sha, size=size) is Moved.MOVED  # done again: nothing to do


def test_a_move_never_replaces_another_file(tmp_path: Path) -> None:
    source, sha, size = _file(tmp_path / "bank.csv")
    other, _, _ = _file(tmp_path / "imported" / DAY / "bank.csv", b"someone else's\n")
    assert move(source, other, sha256=sha, size=size) is Moved.TAKEN
    assert source.exists() and other.read_bytes() == b"someone else's\n"


def test_a_file_gone_from_the_folder_is_gone(tmp_path: Path) -> None:
    target = tmp_path / "imported" / DAY / "bank.csv"
    assert move(tmp_path / "bank.csv", target, sha256="0" * 64, size=3) is Moved.GONE
    _file(target, b"other bytes\n")
    assert move(tmp_path / "bank.csv", target, sha256="0" * 64, size=3) is Moved.GONE


def test_a_crash_between_the_link_and_the_unlink_is_finished(tmp_path: Path) -> None:
    source, sha, size = _file(tmp_path / "bank.csv")
    target = tmp_path / "imported" / DAY / "bank.csv"
    target.parent.mkdir(parents=True)
    os.link(source, target)  # where a kill -9 after the link leaves it: two names, one file
    assert move(source, target, sha256=sha, size=size) is Moved.MOVED
    assert not source.exists() and target.exists()


def test_a_crash_after_a_copy_was_put_in_place_is_finished(tmp_path: Path) -> None:
    source, sha, size = _file(tmp_path / "bank.csv")
    target, _, _ = _file(tmp_path / "imported" / DAY / "bank.csv")  # the same bytes, another file (a copy)
    assert move(source, target, sha256=sha, size=size) is Moved.MOVED
    assert not source.exists() and target.exists()


@pytest.fixture
def other_volume() -> Iterator[Path]:
    """A folder on another file system than the test's (tmpfs), where a link or a rename cannot go."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        pytest.skip("no /dev/shm")
    with tempfile.TemporaryDirectory(dir=shm) as folder:
        yield Path(folder)


def test_across_volumes_the_file_is_copied_checked_and_then_deleted(tmp_path: Path, other_volume: Path) -> None:
    if os.stat(tmp_path).st_dev == os.stat(other_volume).st_dev:
        pytest.skip("/dev/shm is on the test folder's volume here")
    source, sha, size = _file(tmp_path / "bank.csv", os.urandom(3 << 20))
    mtime = source.stat().st_mtime_ns
    (tmp_path / "imported").symlink_to(other_volume)  # the feed's imported/ on another volume
    target = tmp_path / "imported" / DAY / "bank.csv"
    assert move(source, target, sha256=sha, size=size) is Moved.MOVED
    assert not source.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == sha
    assert target.stat().st_mtime_ns == mtime  # its time kept
    assert [p.name for p in target.parent.iterdir()] == ["bank.csv"]  # no hidden copy left


def _cross_device(*args: object) -> None:
    raise OSError(errno.EXDEV, "Invalid cross-device link")


def test_a_copy_that_differs_is_refused_and_the_file_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, _sha, size = _file(tmp_path / "bank.csv")
    monkeypatch.setattr(moving, "_link", _cross_device)
    target = tmp_path / "imported" / DAY / "bank.csv"
    with pytest.raises(MoveFailed):
        move(source, target, sha256="f" * 64, size=size)  # the bytes are not the ones imported
    assert source.exists() and not target.exists() and list(target.parent.iterdir()) == []


def test_a_copy_whose_name_was_taken_meanwhile_is_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, sha, size = _file(tmp_path / "bank.csv")
    target = tmp_path / "imported" / DAY / "bank.csv"
    calls = []

    def link(src: object, dst: object) -> None:
        calls.append(dst)
        if len(calls) == 1:
            raise OSError(errno.EXDEV, "Invalid cross-device link")  # the move: another volume
        _file(target, b"arrived meanwhile\n")  # placing the copy: someone took the name
        raise FileExistsError(errno.EEXIST, "File exists")

    monkeypatch.setattr(moving, "_link", link)
    assert move(source, target, sha256=sha, size=size) is Moved.TAKEN
    assert source.exists() and target.read_bytes() == b"arrived meanwhile\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["bank.csv"]


def test_without_hard_links_a_move_is_a_rename_after_a_look(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*args: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(moving, "_link", no_links)
    source, sha, size = _file(tmp_path / "bank.csv")
    target = tmp_path / "imported" / DAY / "bank.csv"
    assert move(source, target, sha256=sha, size=size) is Moved.MOVED
    assert not source.exists() and target.exists()
    again, sha2, size2 = _file(tmp_path / "bank.csv", b"other\n")
    assert move(again, target, sha256=sha2, size=size2) is Moved.TAKEN and again.exists()


@pytest.mark.parametrize(
    "error, reason",
    [
        (PermissionError(errno.EACCES, "Permission denied"), "denied"),
        (OSError(errno.EBUSY, "Device or resource busy"), "locked"),
    ],
)
def test_a_file_that_cannot_be_deleted_stays_where_it_was_and_the_copy_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: OSError, reason: str
) -> None:
    source, sha, size = _file(tmp_path / "bank.csv")
    real_unlink = os.unlink

    def unlink(path: object) -> None:
        if Path(str(path)) == source:
            raise error
        real_unlink(path)  # type: ignore[arg-type]

    monkeypatch.setattr(moving, "_unlink", unlink)
    target = tmp_path / "imported" / DAY / "bank.csv"
    with pytest.raises(MoveFailed) as failed:
        move(source, target, sha256=sha, size=size)
    assert failed.value.reason == reason
    assert source.exists() and not target.exists()  # in exactly one place: where it was


def test_a_note_is_written_whole_and_one_already_there_is_kept(tmp_path: Path) -> None:
    note = tmp_path / "failed" / DAY / "bank-why.txt"
    assert place_note(note, text="任务 T1 没能导入 bank.csv\n")
    assert note.read_text(encoding="utf-8-sig") == "任务 T1 没能导入 bank.csv\n"
    assert place_note(note, text="another text\n")  # a second try keeps the first one's note
    assert note.read_text(encoding="utf-8-sig") == "任务 T1 没能导入 bank.csv\n"
    errors, _, _ = _file(tmp_path / "results" / "T1-errors.csv", "行号,错误代码\n2,x\n".encode("utf-8-sig"))
    copy = tmp_path / "failed" / DAY / "bank (2)-errors.csv"
    assert place_note(copy, copy_of=errors) and copy.read_bytes() == errors.read_bytes()
    assert sorted(p.name for p in note.parent.iterdir()) == ["bank (2)-errors.csv", "bank-why.txt"]
