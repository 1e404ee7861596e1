"""Ctrl-C: a running scan stops within a second, leaves no thread computing, and a scan to a
file keeps its finished chunks for resume=True."""

import signal
import subprocess
import sys
import time

import pytest

import nimseq

SCAN = """
import sys, threading, time
import nimseq
out = sys.argv[1] or None
print("ready", flush=True)
try:
    nimseq.sub.scan(c_max=400, backend="cpu", out=out, chunk_size=65536)
except KeyboardInterrupt:
    # CPU time over half a second of sleep: a worker still computing would take about that.
    start = time.process_time()
    time.sleep(0.5)
    print(f"interrupted threads={threading.active_count()} busy={time.process_time() - start:.3f}",
          flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def interrupt(out, wait_for) -> str:
    """Runs the scan in a child, sends SIGINT once `wait_for()` holds, and returns its report
    after checking that it ended within 2 s."""
    child = subprocess.Popen(
        [sys.executable, "-c", SCAN, str(out or "")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert child.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 60
    while not wait_for():
        assert time.monotonic() < deadline, "the scan never got going"
        time.sleep(0.05)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    report, _ = child.communicate(timeout=30)
    # The child sleeps 0.5 s after the interrupt before it reports.
    ended = time.monotonic() - sent - 0.5
    assert child.returncode == 3, report
    assert ended < 2.0, f"the scan went on {ended:.2f} s after Ctrl-C"
    return report


def test_ctrl_c_stops_a_scan_into_columns():
    start = time.monotonic()
    report = interrupt(None, lambda: time.monotonic() - start > 1.5)
    fields = dict(f.split("=") for f in report.split()[1:])
    assert fields["threads"] == "1"
    assert float(fields["busy"]) < 0.2, report


def test_ctrl_c_keeps_a_files_chunks_for_resume(cli, tmp_path):
    out = tmp_path / "rows.csv"
    checkpoint = tmp_path / "rows.csv.checkpoint"
    report = interrupt(out, checkpoint.exists)
    assert "busy=" in report and checkpoint.exists()
    # Unfinished: not overwritten without resume=True, then finished by it.
    with pytest.raises(ValueError, match="resume"):
        nimseq.sub.scan(c_max=400, backend="cpu", out=out, chunk_size=65536)
    nimseq.sub.scan(c_max=400, backend="cpu", out=out, chunk_size=65536, resume=True)
    assert not checkpoint.exists()
    whole = tmp_path / "whole.csv"
    cli("sub", "scan", "--c-max", 400, "--backend", "cpu", "--out", whole, "--chunk-size", 65536)
    assert out.read_bytes() == whole.read_bytes()


def test_other_threads_run_while_nimseq_computes():
    import threading

    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = time.monotonic()
    nimseq.sub.scan(c_max=150, backend="cpu")
    nimseq.octal.values("0.007", 1 << 15)
    elapsed = time.monotonic() - start
    done.set()
    counter.join()
    # With the GIL held throughout, the counter would not move; released, it ticks about
    # every millisecond (on a loaded machine less often).
    assert ticks > 100 * elapsed, (ticks, elapsed)
