#!/usr/bin/env python3
"""Writes results/octal/solved.md and results/octal/unsolved.md from nimseq runs, each held
against the published tables beside it.

    python3 scripts/octal-tables.py [--nimseq PATH] [--out DIR] [--work DIR] [--n N]

solved.md: every solved game of the published tables (below), with nimseq's certified period
and pre-period, largest value and where it first occurs, and the rare/common split nimseq ends
with, the source's figures beside them; where the table writes a game's sequence from another
first size (its index shift), the shift is found from the values and said.

unsolved.md: every code d0.d1d2d3 (d0 = 0 or 4, up to three digits after the point) that
nimseq does not settle within G(0..N) (N = 2^20), from `nimseq octal scan`, each matched to
the published list of unsolved games through the values (the list names one game of each
class of equal sequences), and every listed game that nimseq settles or does not meet, said.

The scans' rows stay in --work (default /tmp/octal-tables), resumable: a second run reuses
them.
"""

import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from machine import machine

# kept() runs on a pool's threads (unsolved): its count of reused reports takes this lock.
REUSED_LOCK = threading.Lock()

# The published tables: tczajka/octal-games on GitHub (SolvedGames.md and UnsolvedGames.md at
# commit 30baeb79, TrivialGames.md at 6f2e71f0), which credit the periods to the people
# named; its figures are rare mask, rare count and last rare size of Flammenkamp's sparse
# space. A game there is written from the first size with a move when small sizes have none
# (GameLookup.md: "a game in which taking a 1-element heap is not allowed is considered
# equivalent to the game with all heap sizes reduced by 1").
SOURCE = "tczajka/octal-games (GitHub), SolvedGames.md and UnsolvedGames.md at 30baeb79, TrivialGames.md at 6f2e71f0"

# code: (pre-period, period, largest index, largest, rare mask, rare count, last rare, by)
SOLVED = {
    ".45": (498, 20, 37, 8, "f", 11, 198, ""),
    ".156": (3479, 349, 1032, 23, "1b", 15, 357, "Jack Kenyon, 1967"),
    ".356": (7315, 142, 86, 19, "1b", 7, 43, "Richard Austin, 1976"),
    ".644": (3256, 442, 333, 64, "7e", 31, 511, "Richard Austin, 1976"),
    ".165": (5181, 1550, 620, 25, "", None, None, "Richard Austin, 1976"),
    ".16": (105351, 149459, 229790, 23, "1e", 53, 13935, "Anil Gangolli, Thane Plambeck, 1989"),
    ".56": (326640, 144, 22778, 64, "5b", 46, 1795, "Anil Gangolli, Thane Plambeck, 1989"),
    ".127": (46578, 4, 24734, 56, "1+pos", 693, 27106, "Anil Gangolli, Thane Plambeck, 1989"),
    ".376": (2268248, 4, 341612, 176, "fe", 510, 1140540, "Anil Gangolli, Thane Plambeck, 1989"),
    ".354": (10061916, 1180, 1152, 113, "3f", 132, 3227, "Achim Flammenkamp, 2002"),
}

# code: (pre-period, period, the values written as pre-period then (period))
TRIVIAL = {
    "4": (0, 2, "(01)"),
    ".1": (2, 1, "01(0)"),
    ".4": (52, 34, "0112031103322405223301130211045274011203110332244552(3301130211045374811203110332244559)"),
    ".02": (0, 4, "(0110)"),
    ".11": (3, 1, "011(0)"),
    ".12": (1, 4, "0(1001)"),
    ".15": (1, 10, "0(1101122122)"),
    ".17": (33, 34, "011021301132234153223110312011442(6411021301132234457223110312011443)"),
    ".22": (0, 3, "(012)"),
    ".26": (0, 4, "(0123)"),
    ".31": (3, 2, "012(01)"),
    ".32": (1, 3, "0(102)"),
    ".34": (7, 8, "0101201(03121203)"),
    ".35": (1, 6, "0(120102)"),
    ".44": (141, 24, "011223311443322114422664411227711443322114466774411228855447722118866774411223311447722118822774411228811447722114422774411228811447722118866(774411228811447722118822)"),
    ".51": (1, 1, "0(1)"),
    ".52": (4, 4, "0102(2103)"),
    ".53": (11, 9, "01122102240(122112241)"),
    ".54": (3, 7, "010(1222411)"),
    ".57": (1, 4, "0(1122)"),
    ".71": (3, 2, "012(10)"),
    ".72": (1, 4, "0(1023)"),
    ".75": (1, 2, "0(12)"),
    ".77": (71, 12, "01231432142641271432146741285472186741231472182741281472142741281472186(741281472182)"),
    "4.3": (2, 2, "01(20)"),
    ".002": (0, 6, "(011100)"),
    ".017": (14, 60, "01112023114045(132021114026164041112026154046132021118026164041112026114046)"),
    ".022": (0, 5, "(01120)"),
    ".044": (211, 36, "0111222333111444333222111444222666444111222777111444333222111444666777444111222888555444777222111888666777444111222333111444777222111888222777444111222888111444777222111444222777444111222888111444777222111888666(777444111222888111444777222111888222)"),
    ".045": (187, 32, "0111222331114443322211144222664441112227711144433222111448627744411122288851444772221118886277444111222381114447722211188222774441112228811144477222111442227744411122288111444772221118886(27744411122288111444772221118822)"),
    ".051": (47, 48, "01110221340111322234015432223101043222010104325(401010232340101323234010432323101043232010104323)"),
    ".055": (258, 148, "011122231114443222111422264441112227111444322211148227444111222781144472221114422774411122277111447222111448227441112227781144722211144422774111222777111442221114448227411122274781144722111444812744112227478111442211144481224411122744411184721114447112844112(2744411184421114447212844111274441118447111444721114442127441112244781144472111444811744411127478114447211144481124441112744411174721114447112844111)"),
    ".101": (4, 1, "0101(0)"),
    ".102": (1, 6, "0(100011)"),
    ".111": (4, 1, "0111(0)"),
    ".112": (1, 6, "0(110001)"),
    ".115": (1, 14, "0(11101112221222)"),
    ".116": (139, 96, "011002120211044152411204120411544252021544858282524A1A0A52425114051202114A514201120A120A1189818201120A12061104415241120415041152425A0A15428(58285524A1A0A52425114051202114A514201120A120A818981C201120A12061104415241120415041152425A0A1542C)"),
    ".121": (4, 4, "0102(1001)"),
    ".122": (1, 5, "0(10021)"),
    ".123": (5, 5, "01022(10021)"),
    ".124": (122, 62, "01001102130213011302332234250425322332031103120312011405547264750411021302130113023322746544557263320311031203120114055473(64758411021302130113023322746544557963320311031203120114055475)"),
    ".131": (4, 4, "0112(0011)"),
    ".132": (1, 5, "0(11002)"),
    ".134": (60, 62, "011001120312031103122332243514352233221301130213021104154462(74651401120312031103122332647544756273221301130213021104154463)"),
    ".141": (14, 11, "01011012212410(11212212412)"),
    ".144": (4, 10, "0100(1222244111)"),
    ".145": (3, 9, "010(112222411)"),
    ".147": (3, 8, "010(12224411)"),
    ".152": (2, 48, "01(102220104323101322401042231013234010222010432340)"),
    ".153": (16, 14, "0111222110222440(11222111222441)"),
    ".154": (4, 11, "0110(11222224111)"),
    ".157": (1, 6, "0(111222)"),
    ".171": (12, 11, "011221102140(11221122142)"),
    ".173": (21, 40, "011223104320112235143(2211023741322104627401223104620112275147)"),
    ".176": (24, 8, "011022344116223441166332(41166334)"),
    ".226": (20, 5, "01234012345123451230(51234)"),
    ".312": (5, 2, "01202(01)"),
    ".316": (4, 12, "0120(212301030123)"),
    ".331": (4, 3, "0123(012)"),
    ".332": (1, 4, "0(1203)"),
    ".351": (1, 8, "0(12120102)"),
    ".353": (4, 2, "0121(20)"),
    ".373": (2, 28, "01(2340123415231472104321402640)"),
    ".375": (37, 18, "0123124321342748148124814381482148148(124814781482148174)"),
    ".512": (3, 6, "011(122210)"),
    ".524": (1, 52, "0(1022104416701226144618701876147610781674107210781678)"),
    ".532": (7, 5, "0112240(12241)"),
    ".536": (1, 5, "0(11224)"),
    ".772": (8, 4, "01234162(4163)"),
    "4.12": (6, 7, "011220(4211221)"),
    "4.72": (1, 3, "0(124)"),
    "4.005": (30, 79, "012123145132121527526126268458(3615156158158656541821856567281216515813212162682812128158132121826826121261461)"),
    "4.024": (1, 60, "0(12314314214264164134132142842812314314614624124134132182B82B)"),
    "4.102": (8, 10, "01112220(4421112221)"),
    "4.122": (6, 7, "011220(4311224)"),
    "4.304": (25, 21, "0120212461528156261625186(8182615261582816251B2)"),
    "4.323": (4, 4, "0124(3021)"),
    "4.444": (142, 24, "0123456732897654328945CD982345FE328976543289DCFE982345GHAB89EF5432GHDCFE982345673289EF5432GH45FE982345GH3289EF54328945FE982345GH3289EF5432GHDC(FE982345GH3289EF5432GH45)"),
    "4.722": (4, 4, "0124(6125)"),
    "4.726": (5, 16, "01246(12741824187B1248)"),
    "4.766": (19, 20, "01246128A1D2G14DE18(4D12481DG8142D148D1G)"),
}

# Unsolved, with the figures the table gives: code: (n, largest index, largest, rare mask,
# rare count, last rare); the others are listed by name only.
UNSOLVED_FIGURES = {
    "4!.0": (1 << 21, 763622, 231, "fe", 1274, 82860),
    ".6": (1 << 21, 1274955, 319, "1ee", 1584, 20627),
    ".04": (1 << 17, 109363, 1024, "7b8", 18860, 131003),
    ".06": (1 << 17, 127083, 1045, "5a0", 52923, 131070),
}
UNSOLVED = (
    ".6 .04 .06 .14 .36 .64 .74 .76 .004 .005 .006 .014 .015 .016 .024 .026 .034 .054 .064 "
    ".104 .106 .114 .125 .126 .135 .136 .142 .143 .146 .161 .162 .163 .164 .166 .167 .172 "
    ".174 .204 .205 .206 .207 .224 .244 .245 .264 .314 .324 .334 .336 .342 .344 .346 .362 "
    ".364 .366 .371 .374 .404 .414 .416 .444 .454 .564 .604 .606 .744 .764 .774 .776 4.004 "
    "4.007 4.026 4.044 4.045 4.064 4.324 4.327 4.344 4.364 4.367 4.404 4.406"
).split()

# Sizes whose values are compared to find a code's class, and the shifts tried.
CLASS_LEN = 4096
SHIFTS = range(0, 8)


def nimseq(args, *argv):
    """The stdout of one nimseq command, which must succeed."""
    done = subprocess.run([args.nimseq, *argv], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"nimseq {' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def seq(args, code, max_len, shown):
    """`octal seq CODE` as JSON: the period looked for at each doubling up to max_len, kept
    in --work for the next run. The tables' `4` (a heap split in two, nothing taken) is
    nimseq's `4.0`."""
    code = code if "." in code else code + ".0"
    return json.loads(kept(args, os.path.join("seq", f"{code}-{max_len}-{shown}.json"),
                           "octal", "seq", code, "--max-len", str(max_len), "--len", str(shown),
                           "--format", "json"))


def kept(args, name, *argv):
    """The stdout of a nimseq command, kept in --work as `name` for the next run (which
    counts it among the reports reused)."""
    path = os.path.join(args.work, name)
    if os.path.exists(path):
        with REUSED_LOCK:
            args.reused_reports += 1
        with open(path) as f:
            return f.read()
    text = nimseq(args, *argv)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".part", "w") as f:
        f.write(text)
    os.replace(path + ".part", path)
    return text


def stats(args, code, n):
    """`octal stats CODE --n-max n` as JSON."""
    return json.loads(nimseq(args, "octal", "stats", code, "--n-max", str(n), "--format", "json"))


def reference_check(args, code, n):
    """Whether the plain reference (every option listed, written apart from the fast path)
    gives the same G(0..n) as the fast path: `nimseq bench octal --reference` compares them."""
    text = kept(args, os.path.join("reference", f"{code}-{n}.txt"), "bench", "octal",
                "--codes", code, "--n-max", str(n), "--reference", "--no-gpu")
    rows = [l.split() for l in text.splitlines() if l.startswith(("reference", "cpu"))]
    same = len(rows) == 2 and all(row[-1] == "same" for row in rows)
    checksum = text.split(":")[-1].strip()
    verdict = "the same values" if same else "**other values**"
    return (f"`nimseq bench octal --codes {code} --n-max {n} --reference` gives {verdict} from "
            f"the plain reference (checksum {checksum})")


def digit_values(text):
    """A table's sequence, digits 0-9 then A-Z for 10 on, brackets dropped."""
    return [int(c, 36) for c in text if c not in "()"]


def mask_of(report):
    """nimseq's split in the tables' notation: the mask in hexadecimal, '+pos' for the
    position split."""
    split = report["split"]
    text = f"{split['mask']:x}"
    return text + "+pos" if split["kind"] == "Position" else text


def plain(code):
    """A code as nimseq prints it (`·044`, `4·044`) with a plain point."""
    return code.replace("·", ".")


def name(code):
    """The code as the tables write it: no 0 before the point."""
    return code[1:] if code.startswith("0.") else code


def shift_of(values, published):
    """The k with G(n + k) = the table's n-th value for every n it gives, if any."""
    for k in SHIFTS:
        if values[k:k + len(published)] == published:
            return k
    return None


def solved(args):
    rows = []
    started = time.time()
    for code, (pre, period, *_rest) in SOLVED.items():
        r = seq(args, code, args.solved_max, CLASS_LEN)
        rows.append(("solved", code, r, None))
    for code, (pre, period, text) in TRIVIAL.items():
        published = digit_values(text)
        r = seq(args, code, args.solved_max, len(published) + max(SHIFTS))
        rows.append(("trivial", code, r, shift_of(r["values"], published)))
    wall = time.time() - started

    out = [
        "# Solved octal games: nimseq against the published tables",
        "",
        f"Made by `python3 scripts/octal-tables.py` ({args.when}, {args.machine}): "
        f"`nimseq octal seq CODE --max-len {args.solved_max} --format json` for each game, "
        f"{wall:.0f} s in all ({args.reused_reports} reports of an earlier run reused). "
        f"Source: {SOURCE}.",
        "",
        "nimseq's columns: the certified pre-period and period (`octal seq`, proved by the",
        "Guy-Smith window), the largest value and the first size where it occurs, and the",
        "rare/common split nimseq ends with (mask in hexadecimal, `+pos` for the position",
        "split; rare sizes and the last). The table's columns follow. **shift** k: the table",
        "writes the game from size k (its value n is nimseq's G(n + k)), found by comparing",
        "the values where the table gives them, and from the pre-period and largest index",
        "otherwise; a pre-period and a largest index then read k less in the table.",
        "",
        "## The long ones (SolvedGames.md)",
        "",
        "| game | pre-period | period | largest (first at) | mask | rare | last rare | table: pre-period, period, largest (at) | table: mask, rare, last | agrees |",
        "|---|--:|--:|---|---|--:|--:|---|---|---|",
    ]
    disagreements = []
    for kind, code, r, _ in rows:
        if kind != "solved":
            continue
        pre, period, at, largest, mask, rare, last, by = SOLVED[code]
        c = r["certificate"]
        if c is None:
            verdict = f"**not certified within G(0..{r['computed']})**"
            disagreements.append(code)
            mine = ("-", "-")
        else:
            mine = (c["preperiod"], c["period"])
            k = c["preperiod"] - pre
            same_values = (c["period"], r["max_value"]) == (period, largest)
            if k == 0 and r["max_at"] == at and same_values:
                verdict = "equal"
            elif k in SHIFTS and r["max_at"] - at == k and same_values:
                verdict = f"equal, shift {k}"
            else:
                verdict = "**differs**"
                disagreements.append(code)
        split = r["split"]
        theirs_split = f"{mask or '-'}, {rare if rare is not None else '-'}, {last if last is not None else '-'}"
        mine_split = (mask_of(r), split["rare_count"], split["last_rare"])
        if mask and (mine_split[0], mine_split[1]) != (mask, rare):
            verdict += "; the split differs (see below)"
        out.append(
            f"| {name(code)} | {mine[0]} | {mine[1]} | {r['max_value']} ({r['max_at']}) | "
            f"{mine_split[0]} | {mine_split[1]} | {mine_split[2]} | "
            f"{pre}, {period}, {largest} ({at}) | {theirs_split} | {verdict} |"
        )
    out += [
        "",
        "## The short ones (TrivialGames.md, values given in full)",
        "",
        "| game | pre-period | period | largest (first at) | mask | rare | table: pre-period, period | shift | values | agrees |",
        "|---|--:|--:|---|---|--:|---|--:|---|---|",
    ]
    for kind, code, r, k in rows:
        if kind != "trivial":
            continue
        pre, period, text = TRIVIAL[code]
        c = r["certificate"]
        mine = (c["preperiod"], c["period"]) if c else ("-", "-")
        if k is None:
            values, verdict = "differ", "**differs**"
            disagreements.append(code)
        else:
            values = f"G({k}..{k + len(digit_values(text))}) equal"
            shifted_pre = max(c["preperiod"] - k, 0) if c else None
            # The table's pre-period may be the shifted one, or longer (it shows whole periods).
            if c and c["period"] == period and shifted_pre == pre:
                verdict = "equal" if k == 0 else f"equal, shift {k}"
            elif c and c["period"] == period:
                verdict = f"period equal; pre-period {shifted_pre} after the shift, table {pre}"
                disagreements.append(code)
            else:
                verdict = "**differs**"
                disagreements.append(code)
        out.append(
            f"| {name(code)} | {mine[0]} | {mine[1]} | {r['max_value']} ({r['max_at']}) | "
            f"{mask_of(r)} | {r['split']['rare_count']} | {pre}, {period} | "
            f"{'-' if k is None else k} | {values} | {verdict} |"
        )
    out += ["", "## Differences", ""]
    out += [f"* {name(c)}: see its row." for c in disagreements] or ["None."]
    return out, rows


def scan_rows(args):
    """Every code of up to three digits, d0 0 and 4, to args.n: the scans' rows."""
    rows = []
    os.makedirs(args.work, exist_ok=True)
    started = time.time()
    args.reused = False
    for d0 in (0, 4):
        for digits in (1, 2, 3):
            path = os.path.join(args.work, f"d0-{d0}-digits-{digits}-n{args.n}.csv")
            more = ["--resume"] if os.path.exists(path) else []
            args.reused = args.reused or bool(more)
            nimseq(args, "octal", "scan", "--digits", str(digits), "--d0", str(d0),
                   "--n-max", str(args.n), "--backend", "cpu", "--out", path, *more)
            with open(path, newline="") as f:
                rows += list(csv.DictReader(f))
            with open(path, "rb") as f:
                args.scans.append((path, hashlib.sha256(f.read()).hexdigest()))
    return rows, time.time() - started


def unsolved(args, solved_rows):
    rows, scan_wall = scan_rows(args)
    args.reused_reports = 0
    open_codes = [r["code"] for r in rows if not r["period"]]
    started = time.time()
    # Each unsettled code's figures and first values, and the listed games'.
    # One process a core: `octal seq` of a game with many rare values keeps one core busy.
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        report = dict(zip(open_codes, pool.map(
            lambda c: seq(args, plain(c), args.n, CLASS_LEN), open_codes)))
        listed = dict(zip(UNSOLVED, pool.map(lambda c: seq(args, c, args.n, CLASS_LEN),
                                             UNSOLVED)))
    long_solved = {code: r for kind, code, r, _ in solved_rows if kind == "solved"}

    def class_of(values, games):
        """The game whose values these are, and k with G(n + k) its n-th value (k < 0: the
        game's values from -k on)."""
        for c, r in games.items():
            theirs = r["values"]
            for k in SHIFTS:
                if values[k:] == theirs[: CLASS_LEN - k]:
                    return c, k
                if k and theirs[k:] == values[: CLASS_LEN - k]:
                    return c, -k
        return None

    out = [
        "# Unsolved octal games: every code of up to three digits that nimseq does not settle",
        "",
        f"Made by `python3 scripts/octal-tables.py` ({args.when}, {args.machine}): "
        f"`nimseq octal scan --digits D --d0 Z --n-max {args.n} --backend cpu` for D = 1, 2, 3 "
        f"and Z = 0, 4 ({len(rows)} codes; "
        f"{'rows of an earlier run of these commands' if args.reused else f'{scan_wall:.0f} s'}), then `nimseq octal seq CODE "
        f"--max-len {args.n} --len {CLASS_LEN} --format json` for each code not settled "
        f"({time.time() - started:.0f} s with the listed games, "
        f"{args.reused_reports} reports of an earlier run reused). Held against the list of "
        f"unsolved games of {SOURCE}.",
        "",
        "The scans' rows (sha256):",
        "",
    ]
    out += [f"* `{os.path.basename(p)}`: `{h}`" for p, h in args.scans]
    out += [
        "",
        f"**{len(open_codes)} of {len(rows)} codes are not settled within G(0..{args.n})**. "
        "The list names one game of each class of codes with one sequence (GameLookup.md), so",
        f"each code is matched to a listed game by its values: G(n + k) equal to the listed",
        f"game's n-th value for n < {CLASS_LEN} - |k| (k: the index shift; k < 0 where the",
        "listed game is written from a later size). The scans take every code to",
        f"G(0..{args.n}); the columns are `octal seq`'s, whose default limit of 20 seconds a",
        "code stops some earlier: n is where it stopped, and the figures beside it are at n.",
        "",
        "| code | n | largest (first at) | mask | rare | last rare | listed as |",
        "|---|--:|---|---|--:|--:|---|",
    ]
    matched = set()
    strays = []
    for c in open_codes:
        r = report[c]
        found = class_of(r["values"], listed)
        solved_class = None if found else class_of(r["values"], long_solved)
        if found:
            matched.add(found[0])
            how = found[0] if found[1] == 0 else f"{found[0]}, shift {found[1]}"
        elif solved_class:
            how = f"solved: {name(solved_class[0])}" + (
                f", shift {solved_class[1]}" if solved_class[1] else "")
            strays.append(c)
        else:
            how = "**no listed game**"
            strays.append(c)
        split = r["split"]
        out.append(
            f"| {name(plain(c))} | {r['computed']} | {r['max_value']} ({r['max_at']}) | "
            f"{mask_of(r)} | {split['rare_count']} | {split['last_rare']} | {how} |"
        )
    out += ["", "## Where the two lists differ", ""]
    notes = []
    for c in strays:
        found = class_of(report[c]["values"], long_solved)
        known = long_solved[found[0]] if found else None
        if known and known["certificate"]:
            k = known["certificate"]
            notes.append(
                f"* {name(plain(c))}: in the class of {name(found[0])}"
                f"{f' (shift {found[1]})' if found[1] else ''}, solved in the published "
                f"tables; nimseq certifies {name(found[0])}'s period {k['period']}, "
                f"pre-period {k['preperiod']} within G(0..{known['computed']}) (solved.md), "
                f"past {args.n}."
            )
        else:
            notes.append(f"* {name(plain(c))}: not settled by nimseq and in no class of the list.")
    for c, r in listed.items():
        if c in matched:
            continue
        if r["certificate"]:
            k = r["certificate"]
            notes.append(
                f"* **{c}: listed, but nimseq certifies period {k['period']}, pre-period "
                f"{k['preperiod']}** within G(0..{r['computed']}) (the Guy-Smith window "
                f"[{k['from']}, {k['to']})); {reference_check(args, c, r['computed'])}."
            )
        else:
            notes.append(f"* {c}: listed, not settled, and no code of the scans is in its class.")
    out += notes or ["None: every code nimseq leaves open is in the class of a listed game, "
                     "and every listed game is left open."]
    out += [
        "",
        "## The figures the list gives",
        "",
        "`nimseq octal stats CODE --n-max n --format json` at the list's n:",
        "",
        "| game | n | nimseq: largest (first at), mask, rare, last rare | list |",
        "|---|--:|---|---|",
    ]
    for c, (n, at, largest, mask, rare, last) in UNSOLVED_FIGURES.items():
        r = stats(args, c, n)
        out.append(
            f"| {name(c)} | {n} | {r['max_value']} ({r['max_at']}), {mask_of(r)}, "
            f"{r['split']['rare_count']}, {r['split']['last_rare']} | "
            f"{largest} ({at}), {mask}, {rare}, {last} |"
        )
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nimseq", default="target/release/nimseq")
    parser.add_argument("--out", default="results/octal")
    parser.add_argument("--work", default="/tmp/octal-tables")
    parser.add_argument("--n", type=int, default=1 << 20, help="values a code is scanned to")
    parser.add_argument("--solved-max", type=int, default=1 << 26,
                        help="values a solved game may be computed to for its certificate")
    args = parser.parse_args()
    args.scans = []
    args.reused_reports = 0
    args.when = time.strftime("%Y-%m-%d", time.gmtime())
    args.machine = machine()
    lines, solved_rows = solved(args)
    with open(os.path.join(args.out, "solved.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    lines = unsolved(args, solved_rows)
    with open(os.path.join(args.out, "unsolved.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
