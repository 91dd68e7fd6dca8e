"""The bundled sample files: queued by --demo, imported by --self-test."""

from __future__ import annotations

from pathlib import Path

from desktop_app.config import Settings, resources_dir
from desktop_app.imports.options import ImportOptions

SAMPLES = ("customers_clean.csv", "customers_errors.csv", "customers_gbk.csv", "customers.xlsx")
IMPORT_TYPE = "customers"


def sample_path(name: str) -> Path:
    return resources_dir() / "samples" / name


def sample_request(path: Path, settings: Settings, *, dry_run: bool = False) -> ImportOptions:
    """A sample's import as the window would queue it (the settings' limits)."""
    return ImportOptions(file=path, import_type=IMPORT_TYPE, dry_run=dry_run, max_rows=settings.max_rows,
                         max_file_mb=settings.max_file_mb)  # fmt: skip


def sample_jobs(settings: Settings, names: tuple[str, ...] = SAMPLES) -> list[ImportOptions]:
    return [sample_request(sample_path(name), settings) for name in names if sample_path(name).exists()]
