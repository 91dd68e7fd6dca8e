"""Rows a clerk's tryouts put in the task list, for the window's tests and its screenshot scripts alike."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from desktop_app.domain.status import TaskStatus
from desktop_app.domain.task import TaskRecord


def the_second_tryouts_list(model: Any) -> TaskRecord:
    """The rows of a clerk's second tryout that make the list widest, upserted into the list's model: an import
    of 200,000 rows undone by an undo whose type names it, and a check applied by its import. Built on a
    succeeded task the list holds; returns the big import."""
    done = next(r for r in model.records() if r.status is TaskStatus.SUCCEEDED)
    now = dt.datetime.now()
    big = replace(done, id=8_001, task_no="T261207-44E10H", total_count=200_000, success_count=199_963,
                  fail_count=37, undone_by="T261207-EZ6GWN", updated_at=now)  # fmt: skip
    model.upsert(big)
    model.upsert(replace(done, id=8_002, task_no="T261207-EZ6GWN", task_type="undo", params={"undoes": big.task_no},
                         total_count=199_963, success_count=199_963, fail_count=0, updated_at=now))  # fmt: skip
    model.upsert(replace(done, id=8_003, task_no="T261207-CXC4XS", applied_by="T261207-2M3G4R", updated_at=now))
    return big
