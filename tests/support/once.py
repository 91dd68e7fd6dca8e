"""Files a test only reads, made once a test process (each xdist worker) and shared by every test asking."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Path]) -> Path:
    """`make(path)`'s file, made the first time `name` is asked for in this process: the database
    parameters of a test read one generated file (hundreds of thousands of rows took seconds each)."""
    folder = factory.getbasetemp() / "made-once"
    folder.mkdir(exist_ok=True)
    path = folder / name
    if not path.exists():
        part = folder / f".part-{name}"  # its suffix kept: a writer may go by it
        made = make(part)
        assert made == part, made
        os.replace(part, path)  # whole or absent: a test that failed while making it left no half a file
    return path
