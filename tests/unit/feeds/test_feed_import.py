"""The import a feed asks for one of its files: its type and mode, and its mapping profile by name once
imports take one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from desktop_app import submission
from desktop_app.domain.feeds import Feed, FeedSpec
from desktop_app.domain.modes import ImportMode
from desktop_app.imports.options import ImportOptions
from desktop_app.submission import Submitter

FEED = Feed(id=1, spec=FeedSpec(name="bank", folder="/in", import_type="customers", mode="upsert", profile="bank-v2"),
            owner="alice", host=None)  # fmt: skip


def _submitter() -> Submitter:
    return Submitter(None, None, None, None)  # type: ignore[arg-type]  # feed_import asks none of them


def test_a_feeds_import_has_its_type_and_mode_and_keeps_the_profile_until_imports_take_one() -> None:
    request = _submitter().feed_import(FEED, Path("/in/a.csv"))
    assert (request.file, request.import_type, request.mode) == (Path("/in/a.csv"), "customers", ImportMode.UPSERT)
    assert not hasattr(request, "profile")  # this version's ImportOptions has no profile: the feed keeps it


def test_the_profile_is_passed_on_once_imports_take_one(monkeypatch: pytest.MonkeyPatch) -> None:
    @dataclass(frozen=True)
    class WithProfile(ImportOptions):
        profile: str | None = None

    monkeypatch.setattr(submission, "ImportOptions", WithProfile)
    request = _submitter().feed_import(FEED, Path("/in/a.csv"))
    assert isinstance(request, WithProfile) and request.profile == "bank-v2"
