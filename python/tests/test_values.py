"""Values and certificates: the package against the command line on the same inputs (fixed and
fresh random ones), and against published values."""

import json

import numpy as np
import pytest

import nimseq

# Kayles (0.77): the opening of its published sequence, period 12 from n = 71 (Guy and
# Smith 1956; Berlekamp, Conway and Guy, Winning Ways).
KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7]


def test_sub_values_equal_the_cli(cli, rng):
    sets = [[1, 4, 7], [3, 8, 15], [2, 5, 9, 11]]
    for _ in range(40):
        k = rng.randint(1, 6)
        sets.append(sorted(rng.sample(range(1, 60), k)))
    for moves in sets:
        n = rng.randint(1, 400)
        got = nimseq.sub.values(moves, n)
        assert got.dtype == np.uint8
        text = ",".join(map(str, moves))
        want = json.loads(cli("sub", "seq", text, "--len", n, "--format", "json"))["values"]
        assert got.tolist() == want, moves
        # The command line's own notation is taken too.
        assert nimseq.sub.values(text, n).tolist() == want


def test_misere_values_equal_the_cli(cli, rng):
    """play="misere": the misère values of random finite sets and of Kayles equal the command
    line's; CGSuite's values for {2,3,7} and all-but {2,3,7}; an unknown play is refused."""
    assert nimseq.sub.values([2, 3, 7], 10, play="misere").tolist() == [1, 1, 0, 0, 2, 1, 1, 0, 0, 2]
    for _ in range(10):
        moves = sorted(rng.sample(range(1, 40), rng.randint(1, 5)))
        n = rng.randint(1, 300)
        text = ",".join(map(str, moves))
        want = json.loads(
            cli("sub", "seq", text, "--len", n, "--play", "misere", "--format", "json")
        )["misere_values"]
        assert nimseq.sub.values(moves, n, play="misere").tolist() == want, moves
    want = json.loads(cli("octal", "seq", "0.77", "--len", 30, "--play", "misere", "--format", "json"))
    assert nimseq.octal.values("0.77", 30, play="misere").tolist() == want["misere_values"]
    with pytest.raises(ValueError, match="play must be"):
        nimseq.sub.values([1, 2], 5, play="sideways")
    # An infinite set: CGSuite's misère values of all-but {2,3,7}.
    assert nimseq.sub.values(all_but=[2, 3, 7], n=8, play="misere").tolist() == [1, 0, 1, 0, 2, 3, 2, 3]


def test_misere_positions_equal_the_cli(cli):
    """value(..., play="misere"): the misère position of a subtraction game and of octal codes
    (from the quotient, and past the sums a heap's value left out) equals ``value --play misere
    --format json``."""
    cases = [
        (nimseq.sub.value, [2, 3, 7], [4, 5, 9], ("sub", "value", "2,3,7", "4,5,9")),
        (nimseq.octal.value, "0.77", [3, 5, 8], ("octal", "value", "0.77", "3,5,8")),
        (nimseq.octal.value, "0.07", [20, 25, 30, 14], ("octal", "value", "0.07", "20,25,30,14")),
        (nimseq.octal.value, "0.77", [60, 61, 5], ("octal", "value", "0.77", "60,61,5")),
    ]
    for call, game, heaps, args in cases:
        want = json.loads(cli(*args, "--play", "misere", "--format", "json"))
        got = call(game, heaps, play="misere")
        assert isinstance(got, nimseq.octal.MiserePosition)
        assert got.misere_values == tuple(want["misere_values"]), args
        assert (got.method, got.outcome) == (want["method"], want["outcome"]), args
        assert [(m.index, m.size, list(m.to)) for m in got.winning_moves] == [
            (m["index"], m["from"], m["to"]) for m in want["winning_moves"]
        ], args
    assert nimseq.sub.value([2, 3, 7], [4, 5, 9], play="misere").outcome == "P"
    assert nimseq.octal.value("0.77", [60, 61, 5], play="misere").misere_values[:2] == (None, None)
    with pytest.raises(ValueError, match="play must be"):
        nimseq.octal.value("0.77", [3], play="sideways")


def test_quotient_equals_the_cli(cli):
    """octal.quotient: the report equals ``octal quotient --format json``; 0.75 is R8; a quotient
    over max_order is refused."""
    for code, heap_max in [("0.75", 20), ("0.77", 40)]:
        want = json.loads(cli("octal", "quotient", code, "--heap-max", heap_max, "--format", "json"))
        assert nimseq.octal.quotient(code, heap_max) == want
    q = nimseq.octal.quotient("0.75", 20)
    assert (q["order"], q["p_portion"], q["tame"], q["checked"]) == (8, 2, False, None)
    q = nimseq.octal.quotient("0.77", 30, check_total=12)
    assert q["checked"] == {"total": 12, "sums": 272}
    with pytest.raises(ValueError, match="raise max_order"):
        nimseq.octal.quotient("0.07", 30, max_order=100)


def test_infinite_sets_equal_the_cli(cli, rng):
    """Named infinite sets and random all-but sets: the values equal the CLI's CSV rows, and
    subtract-a-square's P-positions begin as OEIS A030193."""
    excluded = sorted(rng.sample(range(1, 30), rng.randint(1, 4)))
    for moves, kwargs, argv in [
        ("squares", {}, ["squares"]),
        ("primes", {}, ["primes"]),
        ("powers:3", {}, ["powers:3"]),
        (None, {"all_but": excluded}, ["--all-but", ",".join(map(str, excluded))]),
    ]:
        got = nimseq.sub.values(moves, 500, **kwargs)
        rows = cli("sub", "seq", *argv, "--len", 500, "--max-len", 1000, "--format", "csv")
        want = [int(line.split(",")[1]) for line in rows.splitlines()[1:]]
        assert got.tolist() == want, (moves, kwargs)
    zeros = np.flatnonzero(nimseq.sub.values("squares", 60) == 0).tolist()
    assert zeros == [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57]
    with pytest.raises(ValueError, match="one of them"):
        nimseq.sub.values([1, 2], 5, all_but=[3])


def test_arithmetic_periods_equal_the_cli(cli, rng):
    """All-but sets' arithmetic periods proved, as the CLI's JSON has them (a random set too);
    one the values are too short to prove, observed; subtract-a-square, observed at most."""
    a = nimseq.sub.arithmetic(all_but=[2, 3, 7])
    assert (a.certified, a.period, a.preperiod, a.saltus, a.observed) == (True, 4, 0, 2, None)
    m = nimseq.sub.arithmetic(all_but=[2, 3, 7], play="misere")
    assert (m.certified, m.period, m.preperiod, m.saltus) == (True, 4, 4, 2)
    short = nimseq.sub.arithmetic(all_but="1,24,27,28", max_len=16384)
    assert (short.certified, short.period, short.observed) == (False, None, (460, 7742, 154))
    assert not nimseq.sub.arithmetic("squares", max_len=1024).certified
    excluded = sorted(rng.sample(range(1, 20), rng.randint(1, 3)))
    a = nimseq.sub.arithmetic(all_but=excluded, max_len=8192)
    want = json.loads(
        cli("sub", "seq", "--all-but", ",".join(map(str, excluded)), "--len", 0, "--max-len", 8192, "--format", "json")
    )
    proved = want["certificate"]
    assert a.certified == want["certified"], excluded
    assert (a.period, a.preperiod, a.saltus) == (
        (proved["period"], proved["preperiod"], proved["saltus"]) if proved else (None, None, None)
    ), excluded
    with pytest.raises(ValueError, match="one of them"):
        nimseq.sub.arithmetic()


def test_sub_period_equals_the_cli(cli, rng):
    sets = [[1, 4, 7], [3, 8, 15], [143, 148, 292]]
    sets += [sorted(rng.sample(range(1, 80), 3)) for _ in range(30)]
    for moves in sets:
        c = nimseq.sub.period(moves)
        want = json.loads(cli("sub", "seq", ",".join(map(str, moves)), "--format", "json"))
        assert c.certified
        assert c.set == tuple(moves)
        got = (c.period, c.preperiod, c.outcome_period, c.outcome_preperiod)
        assert got == tuple(
            want["certificate"][k]
            for k in ("period", "preperiod", "outcome_period", "outcome_preperiod")
        ), moves
        assert c.window == (want["certificate"]["from"], want["certificate"]["to"])
        assert c.checked_len == want["certificate"]["checked_len"]


def test_a_period_not_found_is_none_as_the_cli_says():
    c = nimseq.sub.period([143, 148, 292], max_len=1000)
    assert not c.certified
    assert (c.period, c.preperiod, c.window) == (None, None, None)
    assert c.checked_len == 1024
    assert nimseq.sub.period([143, 148, 292]).period == 5


def test_octal_values_and_periods_equal_the_cli(cli, rng):
    codes = ["0.77", "0.007", "0.137", "4.07", "0.7003"]
    codes += ["0." + "".join(rng.choice("01234567") for _ in range(2)) + rng.choice("1234567")
              for _ in range(8)]
    # Hexadecimal digits (three heaps) and "!" (unequal heaps): Grundy's game, 0.3F, 0.77!.
    codes += ["4!.0", "0.3F", "0.77!", "0.F5!"]
    for code in codes:
        # Bounded by length alone, never by time, so that both stop at the same place.
        flags = ["--len", 300, "--max-len", 1 << 14, "--max-time", 0, "--format", "json"]
        want = json.loads(cli("octal", "seq", code, *flags))
        got = nimseq.octal.values(code, 300)
        assert got.tolist() == want["values"], code
        c = nimseq.octal.period(code, max_len=1 << 14, max_time=0)
        assert c.certified == want["certified"], code
        assert c.computed == want["computed"]
        assert c.checksum == want["checksum"]
        if c.certified:
            cert = want["certificate"]
            assert (c.period, c.preperiod, c.window, c.window_kind) == (
                cert["period"], cert["preperiod"], (cert["from"], cert["to"]), cert["window"]
            ), code
        seen = want["observed"]
        assert c.observed == (seen and (seen["period"], seen["preperiod"], seen["saltus"])), code
    # 0.3F's values grow: G(n + 6) = G(n) + 3 from n = 0, observed, not proved.
    assert nimseq.octal.period("0.3F", max_len=4096, max_time=0).observed == (6, 0, 3)


def test_kayles_is_the_published_sequence():
    assert nimseq.octal.values("0.77", len(KAYLES)).tolist() == KAYLES
    c = nimseq.octal.period("0.77")
    assert (c.period, c.preperiod) == (12, 71)


def test_values_come_in_the_smallest_type():
    assert nimseq.octal.values("0.77", 100).dtype == np.uint8
    # 0.7277's values grow about n/6: past 255 by n = 2000.
    wide = nimseq.octal.values("0.7277", 2000)
    assert wide.dtype == np.uint16 and wide.max() > 255


def test_kcross_and_arrows_equal_the_cli(cli):
    for k, n in ((2, 40), (3, 40), (5, 25)):
        want = json.loads(cli("kcross", "seq", "--k", k, "--n-max", n, "--format", "json"))
        got = nimseq.kcross.values(k=k, n_max=n)
        assert got.dtype == np.uint8
        assert got.tolist() == [row[2] for row in want["rows"]]
        for backend in ("cpu", "reference"):
            assert nimseq.kcross.values(k, 20, backend=backend).tolist() == got[:21].tolist()
    for board in ("[3X4]", "[X2XX5]", "(21)", "[7]"):
        want = json.loads(cli("kcross", "value", board, "--k", 3, "--format", "json"))
        assert nimseq.kcross.value(board, k=3) == want["value"], board
    for tree in ("spider:9,14,17", "path:9", "0-1,1-2,1-3", "parents:0,1,1"):
        want = json.loads(cli("arrows", "value", tree, "--format", "json"))
        assert nimseq.arrows.value(tree) == want["g"], tree
    assert nimseq.arrows.value("spider:2,3,4", backend="reference") == nimseq.arrows.value(
        "spider:2,3,4"
    )


def test_version_is_the_crates(cli):
    assert cli("--version").split() == ["nimseq", nimseq.__version__]
