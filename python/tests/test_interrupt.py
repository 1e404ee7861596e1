"""Ctrl-C: a running call (a scan, a tree's value by each of its solvers) stops within a
second, leaves no thread computing, and a scan to a file keeps its finished chunks for
resume=True."""

import signal
import subprocess
import sys
import time

import pytest

import nimseq

CHILD = """
import sys, threading, time
import nimseq
print("ready", flush=True)
try:
    exec(sys.argv[1])
except KeyboardInterrupt:
    # CPU time over half a second of sleep: a worker still computing would take about that.
    start = time.process_time()
    time.sleep(0.5)
    print(f"interrupted threads={threading.active_count()} busy={time.process_time() - start:.3f}",
          flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


# A scan of some seconds on 2 cores (about 5 s since the lanes across sets; 1 s at 400).
SCAN_C_MAX = 600


def scan(out=None) -> str:
    """A scan of some seconds, as a statement for `interrupt`."""
    return f"nimseq.sub.scan(c_max={SCAN_C_MAX}, backend='cpu', out={out!r}, chunk_size=65536)"


def double_spider(leg: int) -> str:
    """Two centres joined by a path, each with two more legs about `leg` long: no spider, so
    the normal form values it (about 14 s for leg 13)."""
    edges, last = [], 0

    def path(start, length):
        nonlocal last
        for _ in range(length):
            last += 1
            edges.append(f"{start}-{last}")
            start = last
        return start

    path(0, leg)
    path(0, leg + 1)
    other = path(0, leg + 2)
    path(other, leg + 3)
    path(other, leg)
    return ",".join(edges)


def interrupt(call, wait_for) -> str:
    """Runs the statement `call` in a child, sends SIGINT once `wait_for()` holds, and returns
    its report after checking that it ended within 2 s."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, call],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert child.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 60
    while not wait_for():
        assert time.monotonic() < deadline, "the call never got going"
        time.sleep(0.05)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    report, _ = child.communicate(timeout=30)
    # The child sleeps 0.5 s after the interrupt before it reports.
    ended = time.monotonic() - sent - 0.5
    assert child.returncode == 3, report
    assert ended < 2.0, f"the call went on {ended:.2f} s after Ctrl-C"
    return report


def assert_stops(call):
    """Ctrl-C 1.5 s into `call` (a run of many seconds) ends it with no thread left busy."""
    start = time.monotonic()
    report = interrupt(call, lambda: time.monotonic() - start > 1.5)
    fields = dict(f.split("=") for f in report.split()[1:])
    assert fields["threads"] == "1"
    assert float(fields["busy"]) < 0.2, report


def test_ctrl_c_stops_a_scan_into_columns():
    assert_stops(scan())


@pytest.mark.parametrize(
    "call",
    [
        # Spider states: about 30 s on 2 cores.
        "nimseq.arrows.value('spider:10,100,1000')",
        f"nimseq.arrows.value({double_spider(13)!r})",
        # The raw rules: about 20 s.
        "nimseq.arrows.value('spider:5,5,8', backend='reference')",
    ],
    ids=["spider-states", "normal-form", "raw-rules"],
)
def test_ctrl_c_stops_a_trees_value(call):
    assert_stops(call)


def test_ctrl_c_keeps_a_files_chunks_for_resume(cli, tmp_path):
    out = tmp_path / "rows.csv"
    checkpoint = tmp_path / "rows.csv.checkpoint"
    report = interrupt(scan(str(out)), checkpoint.exists)
    assert "busy=" in report and checkpoint.exists()
    # Unfinished: not overwritten without resume=True, then finished by it.
    with pytest.raises(ValueError, match="resume"):
        nimseq.sub.scan(c_max=SCAN_C_MAX, backend="cpu", out=out, chunk_size=65536)
    nimseq.sub.scan(c_max=SCAN_C_MAX, backend="cpu", out=out, chunk_size=65536, resume=True)
    assert not checkpoint.exists()
    whole = tmp_path / "whole.csv"
    cli("sub", "scan", "--c-max", SCAN_C_MAX, "--backend", "cpu", "--out", whole,
        "--chunk-size", 65536)
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
