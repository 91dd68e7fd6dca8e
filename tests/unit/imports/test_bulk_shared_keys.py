"""Two batches in flight share a key or not (imports/bulk/ahead.py waits on those that do): key ranges
apart decide at once, ranges that overlap are looked at key by key."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from desktop_app.imports.bulk.batching import BulkBatch


def batch(keys: Sequence[str | None] | None) -> BulkBatch:
    return BulkBatch(None, [], 0, 0, 0, keys=None if keys is None else pa.array(keys, pa.string()))


@pytest.mark.parametrize(
    ("first", "second", "shared"),
    [
        (["C000001", "C000002"], ["C000003", "C000004"], False),  # apart
        (["C000003", "C000004"], ["C000001", "C000002"], False),  # apart, the other way
        (["C000001", "C000009"], ["C000005"], False),  # inside the range, not the same key
        (["C000001", "C000009"], ["C000009", "C000010"], True),  # the range's edge is a key of both
        (["A", "é"], ["z"], False),  # "z" sorts below "é" (code points, UTF-8 bytes), between the two
        (["z", "é"], ["é"], True),
        (["\U0001f600"], ["\uffff", "\U0001f600"], True),  # beyond the BMP: bytes and code points agree
        ([None, "K1"], ["K1"], True),  # a null key is never a key
        ([None], ["K1"], False),
        (None, ["K1"], False),
        ([], ["K1"], False),
    ],
)
def test_shared_keys(first: list[str | None] | None, second: list[str | None], shared: bool) -> None:
    assert batch(first).shares_keys(batch(second)) is shared
    assert batch(second).shares_keys(batch(first)) is shared


def test_ranges_apart_build_no_set_of_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("is_in called for batches whose key ranges are apart")

    monkeypatch.setattr(pc, "is_in", refused)
    first, second = batch([f"C{n:06}" for n in range(1, 13_334)]), batch([f"C{n:06}" for n in range(13_334, 26_667)])
    assert not first.shares_keys(second)


def test_the_range_agrees_with_the_keys_themselves_on_random_texts() -> None:
    rng = random.Random(7)
    alphabet = "aZ09é中\U0001f600 -"
    for _ in range(300):
        a = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(1, 5))]
        b = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(1, 5))]
        assert batch(a).shares_keys(batch(b)) is bool(set(a) & set(b)), (a, b)
