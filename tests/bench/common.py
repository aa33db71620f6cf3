"""Shared by the benchmark scripts: what machine the figures were taken on."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine() -> dict:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }
