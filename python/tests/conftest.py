"""Shared fixtures: the command-line binary the package is checked against, and helpers to run
it. The binary is target/release/nimseq of this checkout (built here if missing), or
$NIMSEQ_BIN."""

import os
import random
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    binary = Path(os.environ.get("NIMSEQ_BIN", ROOT / "target" / "release" / "nimseq"))
    if not binary.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--bin", "nimseq"], cwd=ROOT, check=True
        )

    def run(*args, check=True):
        """The command's stdout; with check=False, the whole CompletedProcess."""
        done = subprocess.run(
            [str(binary), *map(str, args)], capture_output=True, text=True
        )
        if not check:
            return done
        assert done.returncode == 0, f"nimseq {' '.join(map(str, args))}: {done.stderr}"
        return done.stdout

    return run


@pytest.fixture
def rng(request):
    """A generator with a fresh seed, printed when the test fails."""
    seed = random.randrange(1 << 63)
    request.node.user_properties.append(("seed", seed))
    print(f"seed {seed}")
    return random.Random(seed)
