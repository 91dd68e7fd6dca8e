"""The import a feed asks for one of its files: its type, mode and mapping profile by name."""

from __future__ import annotations

from pathlib import Path

from desktop_app.domain.feeds import Feed, FeedSpec
from desktop_app.domain.modes import ImportMode
from desktop_app.submission import Submitter

FEED = Feed(id=1, spec=FeedSpec(name="bank", folder="/in", import_type="customers", mode="upsert", profile="bank-v2"),
            owner="alice", host=None)  # fmt: skip


def _submitter() -> Submitter:
    return Submitter(None, None, None, None)  # type: ignore[arg-type]  # feed_import asks none of them


def test_a_feeds_import_has_its_type_mode_and_profile() -> None:
    request = _submitter().feed_import(FEED, Path("/in/a.csv"))
    assert (request.file, request.import_type, request.mode) == (Path("/in/a.csv"), "customers", ImportMode.UPSERT)
    assert request.profile == "bank-v2" and request.profile_version is None  # its latest when queued
    bare = Feed(id=2, spec=FeedSpec(name="b", folder="/in", import_type="customers"), owner="alice", host=None)
    assert _submitter().feed_import(bare, Path("/in/b.csv")).profile is None
