"""Running exports in tests without Qt: submit through the one submission path, run with the executor's runner."""

from __future__ import annotations

from typing import Any

from desktop_app.app import Core
from desktop_app.domain.task import TaskRecord
from tests.support.running import run_now


def run_export(core: Core, name: str = "customers", *, user: str = "tester", **options: Any) -> TaskRecord:
    filters = options.pop("filters", {})
    result = core.submitter().submit_export(name, filters=filters, user=user, **options)
    return run_now(core, result.task.id)
