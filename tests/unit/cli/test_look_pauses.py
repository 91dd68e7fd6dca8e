"""The command line's looks at a waited-for task: soon at first, then further apart, never past the cap."""

from __future__ import annotations

from itertools import islice, pairwise

import pytest

from desktop_app.cli import commands


def test_the_looks_start_at_look_every_and_double_to_the_cap() -> None:
    pauses = list(islice(commands.look_pauses(), 8))
    assert pauses[0] == commands.LOOK_EVERY
    assert all(b >= a for a, b in pairwise(pauses))
    assert max(pauses) == commands.LOOK_AT_MOST
    assert pauses[1] == min(2 * pauses[0], commands.LOOK_AT_MOST)


def test_a_first_look_longer_than_the_cap_stays_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commands, "LOOK_EVERY", 60.0)
    assert list(islice(commands.look_pauses(), 3)) == [60.0, 60.0, 60.0]


def test_a_minute_of_waiting_reads_the_task_far_fewer_times_than_every_first_pause() -> None:
    looks, waited = 0, 0.0
    for pause in commands.look_pauses():
        if waited >= 60:
            break
        looks, waited = looks + 1, waited + pause
    assert looks <= 60 / commands.LOOK_AT_MOST + 5 < 60 / commands.LOOK_EVERY
