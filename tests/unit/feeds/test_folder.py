"""A feed's folder as a scan sees it, and a file's fingerprint: read once, only while it stays the same."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from desktop_app.domain.feeds import DEFAULT_PATTERN
from desktop_app.feeds import folder as folder_module
from desktop_app.feeds.folder import (
    FolderUnreachable,
    MatchNow,
    NotReadable,
    fingerprint,
    look,
    matching_now,
    reachable,
)
from desktop_app.feeds.rules import patterns

PATS = patterns(DEFAULT_PATTERN)


def test_a_look_lists_the_files_the_pattern_takes_with_their_size_and_time(tmp_path: Path) -> None:
    (tmp_path / "bank.csv").write_bytes(b"a,b\n1,2\n")
    (tmp_path / "May.XLSX").write_bytes(b"x" * 10)
    for ignored in ("~$May.xlsx", "bank.csv.tmp", "big.csv.part", "get.xlsx.crdownload", ".hidden.csv", "notes.txt"):
        (tmp_path / ignored).write_bytes(b"x")
    (tmp_path / "imported").mkdir()  # the feed's own folders, and any other, are never taken
    (tmp_path / "imported" / "old.csv").write_bytes(b"x")
    (tmp_path / "folder.csv").mkdir()
    (tmp_path / "link.csv").symlink_to(tmp_path / "bank.csv")  # a link is not a file of the folder
    seen = look(tmp_path, PATS)
    assert sorted(seen) == ["May.XLSX", "bank.csv"]
    info = (tmp_path / "bank.csv").stat()
    assert (seen["bank.csv"].size, seen["bank.csv"].mtime_ns) == (info.st_size, info.st_mtime_ns)


def test_a_missing_folder_or_a_file_in_its_place_is_unreachable(tmp_path: Path) -> None:
    with pytest.raises(FolderUnreachable):
        look(tmp_path / "missing", PATS)
    (tmp_path / "file").write_text("x")
    with pytest.raises(FolderUnreachable):
        look(tmp_path / "file", PATS)
    assert reachable(tmp_path / "missing") is not None and reachable(tmp_path) is None


def test_the_fingerprint_is_the_sha256_of_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "bank.csv"
    path.write_bytes(b"code,name\n1,a\n" * 1000)
    info = path.stat()
    assert fingerprint(path, info.st_size, info.st_mtime_ns) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_file_that_is_not_the_version_seen_has_no_fingerprint_yet(tmp_path: Path) -> None:
    path = tmp_path / "bank.csv"
    path.write_bytes(b"a\n")
    info = path.stat()
    assert fingerprint(path, info.st_size + 1, info.st_mtime_ns) is None  # it grew since the look
    assert fingerprint(path, info.st_size, info.st_mtime_ns - 1) is None  # saved again since


def test_a_file_saved_again_while_it_is_read_has_no_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bank.csv"
    path.write_bytes(b"a\n")
    info = path.stat()

    def read_then_change(target: Path) -> str:
        digest = hashlib.sha256(target.read_bytes()).hexdigest()
        target.write_bytes(b"a\nb\n")  # another program saves it meanwhile
        return digest

    monkeypatch.setattr(folder_module, "file_sha256", read_then_change)
    assert fingerprint(path, info.st_size, info.st_mtime_ns) is None


def test_a_file_that_cannot_be_opened_is_not_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(NotReadable):
        fingerprint(tmp_path / "gone.csv", 1, 1)
    path = tmp_path / "held.csv"
    path.write_bytes(b"a\n")
    info = path.stat()
    real_open = Path.open

    def held(self: Path, *args: object, **kwargs: object) -> object:
        if self == path:
            raise PermissionError(13, "The process cannot access the file because it is being used by another process")
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", held)
    with pytest.raises(NotReadable):
        fingerprint(path, info.st_size, info.st_mtime_ns)


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_an_unreadable_folder_is_unreachable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(path: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(folder_module.os, "scandir", denied)
    with pytest.raises(FolderUnreachable, match="Permission denied"):
        look(tmp_path, PATS)
    assert reachable(tmp_path) == "Permission denied"


def test_matching_now_counts_what_a_scan_would_take_by_its_own_rules(tmp_path: Path) -> None:
    for name in ("b.CSV", "a.xlsx", "notes.txt", "~$a.xlsx", ".hidden.csv", "x.csv.part", "c.csv.tmp"):
        (tmp_path / name).write_text("x")
    (tmp_path / "imported").mkdir()
    (tmp_path / "imported" / "old.csv").write_text("x")
    assert matching_now(str(tmp_path), DEFAULT_PATTERN) == MatchNow(names=("a.xlsx", "b.CSV"))
    assert matching_now(str(tmp_path), "*.csv").names == ("b.CSV",)
    assert matching_now(str(tmp_path), "*.json") == MatchNow()


def test_matching_now_says_why_it_cannot_count(tmp_path: Path) -> None:
    assert matching_now(str(tmp_path / "missing"), "*.csv").problem == "unreachable"
    assert matching_now(str(tmp_path), " ; ").problem == "pattern"
    assert matching_now("  ", "*.csv").problem == "empty"
    # a share is not listed here: one that is away would hold the caller for its time-out
    assert matching_now("\\\\fs01\\bank", "*.csv").problem == "network"
