"""`nimseq.sub.scan` into a polars DataFrame against the command line's `sub scan --out`, in
one run, alternating, on the same backend: the medians, their ratio, and the memory the
columns take against the process's peak.

    python python/bench/scan_vs_cli.py [--c-max 200] [--runs 7] [--nimseq target/release/nimseq]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import polars as pl

import nimseq


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--c-max", type=int, default=200)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--backend", default="cpu")
    p.add_argument("--nimseq", default="target/release/nimseq")
    args = p.parse_args()
    cli_times, py_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.csv")
        rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # noqa: E731
        # The first call starts the thread pool and, under auto, probes the GPU adapter, which
        # loads its driver into the process once (Mesa's llvmpipe: about 80 MB): measured
        # apart from the scans.
        start = rss()
        nimseq.sub.scan(c_max=10, backend=args.backend)
        before = rss()
        for _ in range(args.runs):
            if os.path.exists(out):
                os.remove(out)
            start = time.perf_counter()
            subprocess.run(
                [args.nimseq, "sub", "scan", "--c-max", str(args.c_max), "--backend",
                 args.backend, "--out", out],
                check=True, stderr=subprocess.DEVNULL,
            )
            cli_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            df = pl.DataFrame(nimseq.sub.scan(c_max=args.c_max, backend=args.backend))
            py_times.append(time.perf_counter() - start)
            columns = df.estimated_size()
            del df
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    cli, py = statistics.median(cli_times), statistics.median(py_times)
    print(f"c <= {args.c_max}, backend {args.backend}, {args.runs} runs each, alternating")
    print(f"cli sub scan --out:          median {cli:.3f} s (min {min(cli_times):.3f})")
    print(f"nimseq.sub.scan -> polars:   median {py:.3f} s (min {min(py_times):.3f})")
    print(f"ratio python / cli:          {py / cli:.2f}")
    print(f"columns {columns / 1e6:.1f} MB; peak RSS grew {(peak - before) / 1e6:.1f} MB"
          f" over the process before the first scan ({(peak - before) / columns:.2f}x the columns);"
          f" the first call (a c <= 10 scan: the thread pool, and under auto the GPU adapter's"
          f" driver) before that: {(before - start) / 1e6:.1f} MB")


if __name__ == "__main__":
    sys.exit(main())
