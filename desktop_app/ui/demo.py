"""The bundled sample files: queued by --demo, imported by --self-test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop_app.config import Settings, resources_dir

SAMPLES = ("customers_clean.csv", "customers_errors.csv", "customers_gbk.csv", "customers.xlsx")
IMPORT_TYPE = "customers"


def sample_path(name: str) -> Path:
    return resources_dir() / "samples" / name


def import_params(settings: Settings, *, dry_run: bool = False) -> dict[str, Any]:
    return {
        "import_type": IMPORT_TYPE,
        "dry_run": dry_run,
        "encoding": None,
        "max_rows": settings.max_rows,
        "max_file_mb": settings.max_file_mb,
        "repairs": None,
        "header_overrides": {},
    }


def sample_jobs(settings: Settings, names: tuple[str, ...] = SAMPLES) -> list[tuple[Path, dict[str, Any]]]:
    return [(sample_path(name), import_params(settings)) for name in names if sample_path(name).exists()]
