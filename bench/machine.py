"""The machine a benchmark ran on, printed with its figures: the same code runs at half speed on another CPU."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo; elsewhere what platform knows), or 'unknown'."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_facts() -> dict[str, object]:
    """What the JSON line of a benchmark carries about the machine."""
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "python": sys.version.split()[0]}


def machine_line() -> str:
    """One line for a benchmark's printout: CPU model, cores, Python, the load as it starts."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"machine: {cpu_model()}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {load:.2f}"
