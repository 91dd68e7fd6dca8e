"""A whole row as JSON and back: every value the drivers hand back comes back equal, and of its type."""

from __future__ import annotations

import datetime as dt
import json
import math
import uuid
from decimal import Decimal

from desktop_app.store.row_images import image, restored

ROW = {
    "none": None, "yes": True, "no": False, "int": 12345678901234, "text": "客户 {\"d\": 1}", "float": 1.1,
    "decimal": Decimal("12.50"), "date": dt.date(2024, 2, 29), "stamp": dt.datetime(2024, 3, 1, 8, 15, 5, 120),
    "zoned": dt.datetime(2024, 3, 1, 8, 15, tzinfo=dt.timezone(dt.timedelta(hours=8))), "time": dt.time(23, 59, 1),
    "span": dt.timedelta(days=-1, seconds=5, microseconds=7), "bytes": b"\x00\xff", "uuid": uuid.uuid4(),
    "array": [1, None, Decimal("2.5")],
}  # fmt: skip


def test_every_value_comes_back_equal_and_of_its_type_through_json() -> None:
    back = restored(json.loads(json.dumps(image(ROW))))
    assert back == ROW
    assert all(type(back[k]) is type(v) for k, v in ROW.items())
    assert str(back["decimal"]) == "12.50"  # the scale kept, not just the value


def test_what_json_cannot_say_itself() -> None:
    nan = restored(json.loads(json.dumps(image({"x": math.inf, "y": math.nan}))))
    assert nan["x"] == math.inf and math.isnan(nan["y"])  # type: ignore[arg-type]
    # a memoryview (PostgreSQL's bytea) comes back as bytes; a JSON column's document as its text
    assert restored(image({"b": memoryview(b"ab")})) == {"b": b"ab"}
    assert json.loads(restored(image({"j": {"a": [1, "二"]}}))["j"]) == {"a": [1, "二"]}  # type: ignore[arg-type]
