#!/usr/bin/env bash
# The Python package's tests, as a user runs them: `pip install ./python` (the README's command)
# in a fresh virtual environment, the README's example there, then pytest. With --wheel, the
# tests run a second time against a wheel built by `maturin build --release` and installed in
# another fresh environment whose PATH has no Rust toolchain (a user who only installs the
# wheel).
#
#     scripts/python-tests.sh [--wheel] [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
wheel=false
if [ "${1:-}" = --wheel ]; then
    wheel=true
    shift
fi
python="${PYTHON:-python3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The CLI the tests compare against.
cargo build --release --bin nimseq

"$python" -m venv "$work/source"
start=$(date +%s)
"$work/source/bin/pip" install -q ./python
echo "pip install ./python: $(($(date +%s) - start)) s"
# The README's example as a new user runs it: nothing installed but the package.
"$work/source/bin/python" python/tests/page_examples.py README.md
"$work/source/bin/pip" install -q pytest pandas polars pyarrow
# From the checkout's root: python/ must not shadow the installed package.
"$work/source/bin/python" -m pytest -q python/tests "$@"

if $wheel; then
    "$work/source/bin/pip" install -q maturin
    "$work/source/bin/maturin" build --release --quiet -m python/Cargo.toml -o "$work/dist"
    "$python" -m venv "$work/wheel"
    "$work/wheel/bin/pip" install -q "$work"/dist/nimseq-*.whl pytest pandas polars pyarrow
    # No cargo, rustc or compiler on PATH: the wheel alone.
    env PATH="$work/wheel/bin:/usr/bin:/bin" sh -c '! command -v cargo && ! command -v rustc' >/dev/null
    env PATH="$work/wheel/bin:/usr/bin:/bin" NIMSEQ_BIN="$PWD/target/release/nimseq" \
        "$work/wheel/bin/python" -m pytest -q python/tests "$@"
fi
