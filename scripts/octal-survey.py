#!/usr/bin/env python3
"""Surveys every octal code d0.d1...dD (d0 = 0 and 4, dD != 0) to G(0..N) and writes its rows
and a summary to results/octal/.

    python3 scripts/octal-survey.py [--digits 4] [--n 1048576] [--nimseq PATH] [--work DIR]

Each half is `nimseq octal scan --digits D --d0 Z --n-max N --backend cpu --out FILE`: rows
are written as chunks finish, so a killed run (or the end of a working day) loses at most the
chunks in flight, and the next run of this script resumes the scan where it stopped. Every
run's wall time is kept in DIR/times.tsv, a line a minute while it runs (so a run killed with
its machine counts to its last minute), and the summary's time is the sum over all runs.
Once both halves are done, the rows go to results/octal/ and the summary to
results/octal/survey-digits-D-nN.md: how many codes settle (a period certified by the
Guy-Smith window at a doubling of n from 1024), where, the longest periods and pre-periods,
the codes left open with their largest values, and each file's sha256.
"""

import argparse
import csv
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time

from machine import machine


def scan(args, d0):
    """Runs (or resumes) one half; returns its rows' path once the scan is done, else None."""
    name = f"d0-{d0}-digits-{args.digits}-n{args.n}.csv"
    path = os.path.join(args.work, name)
    if os.path.exists(path + ".done"):
        return path
    more = ["--resume"] if os.path.exists(path) else []
    started = time.time()
    stamp = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(started))

    def record(status):
        with open(os.path.join(args.work, "times.tsv"), "a") as f:
            f.write(f"{name}\t{stamp}\t{time.time() - started:.1f}\t{status}\t"
                    f"{machine()}\n")

    run = subprocess.Popen([args.nimseq, "octal", "scan", "--digits", str(args.digits),
                            "--d0", str(d0), "--n-max", str(args.n), "--backend", "cpu",
                            "--out", path, *more], stderr=subprocess.PIPE, text=True)
    # stderr is read on a thread of its own, so that a full pipe cannot stall the scan.
    errors = []
    reader = threading.Thread(target=lambda: errors.append(run.stderr.read()))
    reader.start()
    while True:
        try:
            rc = run.wait(timeout=60)
            break
        except subprocess.TimeoutExpired:
            record("running")
    reader.join()
    record(rc)
    if rc != 0:
        sys.exit(f"the scan of {name} stopped ({rc}): {errors[0].strip()}; "
                 "run this script again to resume it")
    return path


def summary(args, paths):
    """The survey's page: counts, where codes settle, the extremes and the open codes."""
    rows = {}
    for d0, path in paths.items():
        with open(path, newline="") as f:
            rows[d0] = list(csv.DictReader(f))
    every = [r for d0 in rows for r in rows[d0]]
    settled = [r for r in every if r["period"]]
    open_rows = [r for r in every if not r["period"]]
    # A run's last line holds its time; the machines the runs had, in order of first use.
    seconds, machines = {}, []
    with open(os.path.join(args.work, "times.tsv")) as f:
        for line in f:
            name, started, wall, _, on = line.rstrip("\n").split("\t")
            if name.endswith(f"-digits-{args.digits}-n{args.n}.csv"):
                seconds[(name, started)] = float(wall)
                machines += [on] if on not in machines else []
    wall, runs = sum(seconds.values()), len(seconds)
    out = [
        f"# Every octal code of {args.digits} digits to G(0..{args.n})",
        "",
        f"Made by `python3 scripts/octal-survey.py --digits {args.digits} --n {args.n}` "
        f"({args.machine}): `nimseq octal scan --digits {args.digits} --d0 Z --n-max {args.n} "
        f"--backend cpu --out FILE` for Z = 0 and 4, {wall / 3600:.2f} hours of wall time in "
        f"{runs} runs (a run resumes the scan where the one before stopped; the rows are the "
        "same as one run's), on " + "; ".join(machines) + ". A code that is the same game as "
        "a smaller one (docs/octal.md, \"Codes that are the same game\") takes its row.",
        "",
        "| file | codes | settled | not settled | sha256 |",
        "|---|--:|--:|--:|---|",
    ]
    for d0, path in paths.items():
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        s = sum(1 for r in rows[d0] if r["period"])
        out.append(f"| `{os.path.basename(path)}` | {len(rows[d0])} | {s} | "
                   f"{len(rows[d0]) - s} | `{digest}` |")
    out += [
        "",
        f"**{len(settled)} of {len(every)} codes settle** within G(0..{args.n}): a period "
        "certified by the Guy-Smith window, looked for at each doubling of n from 1024. "
        "The columns are those of `octal scan` (docs/output.md); `checksum` is ogsolve's "
        "checksum of the values computed.",
        "",
        f"The {len(open_rows)} codes not settled have "
        f"{len({r['checksum'] for r in open_rows})} distinct checksums (codes with one checksum "
        "have the same values, barring a 32-bit collision: their codes differ only in moves "
        "that change no value).",
        "",
        "Where the codes settle (the n at which the window first fits):",
        "",
        "| certified at n | codes |",
        "|--:|--:|",
    ]
    at = {}
    for r in settled:
        at[int(r["certified_at"])] = at.get(int(r["certified_at"]), 0) + 1
    out += [f"| {n} | {count} |" for n, count in sorted(at.items())]

    def table(title, chosen, columns):
        lines = ["", title, "", "| code | " + " | ".join(c for c, _ in columns) + " |",
                 "|---|" + "--:|" * len(columns)]
        for r in chosen:
            lines.append(f"| {r['code']} | " + " | ".join(r[k] for _, k in columns) + " |")
        return lines

    settled_columns = [("period", "period"), ("pre-period", "preperiod"),
                       ("largest value", "max_value"), ("rare", "rare_count")]
    out += table("The ten longest periods:",
                 sorted(settled, key=lambda r: -int(r["period"]))[:10], settled_columns)
    out += table("The ten longest pre-periods:",
                 sorted(settled, key=lambda r: -int(r["preperiod"]))[:10], settled_columns)
    out += table(f"The ten codes not settled with the largest values at n = {args.n}:",
                 sorted(open_rows, key=lambda r: -int(r["max_value"]))[:10],
                 [("largest value", "max_value"), ("rare", "rare_count"),
                  ("checksum", "checksum")])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nimseq", default="target/release/nimseq")
    parser.add_argument("--digits", type=int, default=4)
    parser.add_argument("--n", type=int, default=1 << 20, help="values a code is scanned to")
    parser.add_argument("--work", default="/tmp/octal-survey",
                        help="where the scans run and resume (rows, checkpoints, times.tsv)")
    parser.add_argument("--out", default="results/octal")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    args.machine = f"{time.strftime('%Y-%m-%d', time.gmtime())}, {machine()}"
    paths = {d0: scan(args, d0) for d0 in (0, 4)}
    for path in paths.values():
        shutil.copyfile(path, os.path.join(args.out, os.path.basename(path)))
    page = os.path.join(args.out, f"survey-digits-{args.digits}-n{args.n}.md")
    with open(page, "w") as f:
        f.write("\n".join(summary(args, paths)) + "\n")
    print(f"wrote {page}")


if __name__ == "__main__":
    main()
