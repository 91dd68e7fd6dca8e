"""Running exports in tests without Qt: submit through the handler, run with the executor's runner."""

from __future__ import annotations

from typing import Any

from desktop_app.app import Core
from desktop_app.domain.task import TaskRecord
from tests.support.running import run_now


def run_export(core: Core, name: str = "customers", *, user: str = "tester", **options: Any) -> TaskRecord:
    handler = core.registry.get("export")
    filters = options.pop("filters", {})
    result = handler.submit(core.store, name=name, filters=filters, user=user, **options)  # type: ignore[attr-defined]
    return run_now(core, result.task.id)
