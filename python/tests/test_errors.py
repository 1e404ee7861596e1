"""Bad input raises ValueError with the command line's own words; nothing crashes."""

import re
import subprocess
import sys

import pytest

import nimseq

# (call, the command line for the same input): the Python message must appear in what the
# command line says on stderr, and the command line must refuse it with exit code 2.
CASES = [
    (lambda: nimseq.sub.values([0, 4], 10), ["sub", "seq", "0,4"]),
    (lambda: nimseq.sub.values([3, 3], 10), ["sub", "seq", "3,3"]),
    (lambda: nimseq.sub.values([], 10), ["sub", "seq", ""]),
    (lambda: nimseq.sub.period("3,x"), ["sub", "seq", "3,x"]),
    (lambda: nimseq.sub.scan(c_max=2), ["sub", "scan", "--c-max=2"]),
    (lambda: nimseq.sub.scan(c_max=-5), ["sub", "scan", "--c-max=-5"]),
    (lambda: nimseq.sub.scan(moves=-1), ["sub", "scan", "--moves=-1"]),
    (lambda: nimseq.sub.scan(a_min=-1, c_max=20), ["sub", "scan", "--a-min=-1", "--c-max=20"]),
    (lambda: nimseq.octal.scan(n_max=-1), ["octal", "scan", "--n-max=-1"]),
    (lambda: nimseq.sub.value([1, 3, 4], [7, -1]), ["sub", "value", "1,3,4", "7,-1"]),
    (lambda: nimseq.octal.value("0.77", []), ["octal", "value", "0.77", ""]),
    (lambda: nimseq.sub.scan(c_min=50, c_max=40), ["sub", "scan", "--c-min", "50", "--c-max", "40"]),
    (lambda: nimseq.sub.scan(a_min=30, c_max=20), ["sub", "scan", "--a-min", "30", "--c-max", "20"]),
    (lambda: nimseq.sub.scan(shard="3/2"), ["sub", "scan", "--shard", "3/2"]),
    (lambda: nimseq.sub.scan(verify_sample=2.0), ["sub", "scan", "--verify-sample", "2"]),
    # To a file (the columns' own check comes first otherwise): the solvers' check, as on the
    # command line, before the file is opened.
    (lambda: nimseq.sub.scan(c_max=3000, mem_budget="1M", out="/nonexistent/rows.csv"),
     ["sub", "scan", "--c-max", "3000", "--mem-budget", "1M"]),
    (lambda: nimseq.sub.values([1, 2], 10, mem_budget="lots"),
     ["sub", "seq", "1,2", "--mem-budget", "lots"]),
    (lambda: nimseq.octal.values("0.G", 10), ["octal", "seq", "0.G"]),
    (lambda: nimseq.octal.period("1.07"), ["octal", "seq", "1.07"]),
    # The values handed back count too: the command line's equivalent shows them.
    (lambda: nimseq.octal.values("0.007", 1 << 20, mem_budget="1K"),
     ["octal", "seq", "0.007", "--len", str(1 << 20), "--max-len", str(1 << 20),
      "--mem-budget", "1K"]),
    (lambda: nimseq.octal.scan(digits=7), ["octal", "scan", "--digits", "7"]),
    (lambda: nimseq.octal.scan(n_max=0), ["octal", "scan", "--n-max", "0"]),
    (lambda: nimseq.octal.scan(base=10), ["octal", "scan", "--base", "10"]),
    (lambda: nimseq.kcross.values(k=1), ["kcross", "seq", "--k", "1"]),
    (lambda: nimseq.kcross.value("[3X4", k=3), ["kcross", "value", "[3X4", "--k", "3"]),
    (lambda: nimseq.kcross.value("[XXX]", k=3), ["kcross", "value", "[XXX]", "--k", "3"]),
    (lambda: nimseq.kcross.values(k=3, n_max=41, backend="reference"),
     ["kcross", "seq", "--k", "3", "--n-max", "41", "--backend", "reference"]),
    (lambda: nimseq.arrows.value("0-0"), ["arrows", "value", "0-0"]),
    (lambda: nimseq.arrows.value("spider:"), ["arrows", "value", "spider:"]),
]


@pytest.mark.parametrize("call,argv", CASES, ids=[" ".join(a) for _, a in CASES])
def test_bad_input_raises_the_cli_message(cli, call, argv):
    with pytest.raises(ValueError) as raised:
        call()
    done = cli(*argv, check=False)
    assert done.returncode == 2, done.stderr
    message = str(raised.value)
    # A range the command line's parser checks reads "invalid value 'V' for '--flag <FLAG>':
    # why", in Python "... for 'flag': why": the reason is the same. Python names each flag
    # as its keyword argument: "--c-max 2 is below --moves 3" is "c_max 2 is below moves 3".
    reason = message.split("': ")[-1] if message.startswith("invalid value") else message
    assert "--" not in message, message
    assert reason and reason in python_names(done.stderr), (message, done.stderr)


def python_names(text):
    """The command line's words with each flag named as Python's keyword argument."""
    return re.sub(r"--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_"), text)


def test_values_out_of_range_name_the_argument():
    for call, name in [
        (lambda: nimseq.sub.scan(c_max=-5), "c_max"),
        (lambda: nimseq.sub.scan(c_max=10**30), "c_max"),
        (lambda: nimseq.sub.scan(c_max=2), "c_max"),
        (lambda: nimseq.sub.scan(moves=9), "moves"),
        (lambda: nimseq.sub.scan(b_max=-3), "b_max"),
        (lambda: nimseq.octal.scan(digits=0), "digits"),
    ]:
        with pytest.raises(ValueError, match=name):
            call()


def test_bad_choices_name_the_valid_ones():
    with pytest.raises(ValueError, match="invalid backend 'tpu': expected one of 'auto', 'reference', 'cpu', 'gpu'"):
        nimseq.sub.scan(backend="tpu")
    # The Game of Arrows has no GPU path, as on the command line.
    with pytest.raises(ValueError, match="expected one of 'auto', 'reference', 'cpu'$"):
        nimseq.arrows.value("path:3", backend="gpu")
    with pytest.raises(ValueError, match="format='jsonl' needs out="):
        nimseq.sub.scan(c_max=10, format="jsonl")
    with pytest.raises(ValueError, match="resume=True needs out="):
        nimseq.sub.scan(c_max=10, resume=True)


def test_wrong_types_raise_type_errors():
    with pytest.raises(TypeError, match="0.7 and 0.70"):
        nimseq.octal.values(0.77, 10)
    with pytest.raises(TypeError):
        nimseq.sub.values([1.5, 3], 10)
    with pytest.raises(OverflowError):
        nimseq.sub.values([1, 2], -1)
    # Bytes iterate as their codes: b"1,4" must not be the moves {44, 49, 52}.
    with pytest.raises(TypeError, match="not bytes"):
        nimseq.sub.values(b"1,4", 12)
    with pytest.raises(TypeError, match="not bytes"):
        nimseq.octal.value("0.77", b"3,5")


GPU_FREE = """
import logging
logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
import nimseq
t = nimseq.sub.scan(c_max=30)
print(t.rows, nimseq.sub.values([1, 2], 5).tolist())
try:
    nimseq.sub.scan(c_max=30, backend="gpu")
except RuntimeError as e:
    print("gpu refused:", e)
"""


def test_the_package_works_without_a_gpu_adapter():
    # No Vulkan driver and no GL: wgpu finds no adapter at all.
    env = {"WGPU_BACKEND": "vulkan", "VK_DRIVER_FILES": "/nonexistent.json",
           "VK_ICD_FILENAMES": "/nonexistent.json", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", GPU_FREE], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "4060 [0, 1, 2, 0, 1]"
    assert lines[1].startswith("gpu refused:") and "adapter" in lines[1]
    # The backend chosen is logged, as the command line says it on stderr.
    assert "nimseq.backend: backend: cpu" in done.stderr


QUIET = """
import nimseq
nimseq.sub.scan(c_max=30)
nimseq.sub.scan(c_max=30, out="rows.csv")
nimseq.kcross.values(k=3, n_max=10)
nimseq.octal.values("0.77", 100)
"""


def test_nothing_on_stderr_unless_logging_is_configured(tmp_path):
    done = subprocess.run([sys.executable, "-c", QUIET], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_columns_over_the_budget_raise_before_anything_is_allocated():
    # Columns sized for every row once aborted the interpreter (SIGABRT) on a failed allocation.
    import time
    for kwargs in [dict(c_max=3500), dict(c_max=100000), dict(moves=2, c_max=100000),
                   dict(c_max=400, mem_budget="100M")]:
        start = time.monotonic()
        with pytest.raises(ValueError, match="the columns of .* over the memory budget .* mem_budget"):
            nimseq.sub.scan(**kwargs)
        assert time.monotonic() - start < 1, kwargs
    # The interpreter lives on, and a scan that fits runs.
    assert nimseq.sub.scan(c_max=30).rows == 4060


def test_a_time_limit_past_any_duration_is_no_limit():
    # 1e300 s does not fit a Duration: no limit, not a RuntimeError from a caught panic.
    c = nimseq.octal.period("0.77", max_time=1e300)
    assert (c.period, c.preperiod) == (12, 71)
