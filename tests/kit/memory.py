"""The test process's own memory as Linux counts it (``/proc/self/status``), for tests that bound it."""

from pathlib import Path


def resident_mib(field: str = "VmRSS") -> int:
    """This process's memory in MiB: resident now (``VmRSS``), at its peak since ``reset_peak``
    (``VmHWM``), or the part of what is resident that maps files (``RssFile``)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith(field + ":")).split()[1]) >> 10


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")  # Linux: VmHWM starts again from what is resident now
