"""The machine a script's figures come from, as its pages say it: cores and CPU model."""

import os


def machine():
    """`N cores, MODEL` from /proc/cpuinfo (`unknown CPU` where there is none)."""
    model = "unknown CPU"
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")),
                         model)
    return f"{os.cpu_count()} cores, {model}"
