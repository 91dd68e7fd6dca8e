"""A file's hash begun ahead is taken only while the file is as it was when the hash began."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from desktop_app.tasks.file_hash import content_sha256, file_sha256, hash_ahead


def test_the_hash_begun_ahead_is_the_files(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"x" * 3_000_000)
    hash_ahead(path)
    assert content_sha256(path) == file_sha256(path) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_file_saved_again_after_the_hash_began_is_hashed_again(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"old" * 1000)
    hash_ahead(path)
    stat = path.stat()
    path.write_bytes(b"new" * 1000)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert content_sha256(path) == hashlib.sha256(b"new" * 1000).hexdigest()


def test_a_hash_ahead_is_taken_once(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_bytes(b"one")
    hash_ahead(path)
    assert content_sha256(path) == hashlib.sha256(b"one").hexdigest()
    stat = path.stat()
    path.write_bytes(b"two")  # the same size and time: only a fresh read tells
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert content_sha256(path) == hashlib.sha256(b"two").hexdigest()


def test_a_missing_file_begins_nothing(tmp_path: Path) -> None:
    hash_ahead(tmp_path / "gone.csv")  # the submission says what is wrong with it, not this
