//! Take-and-break codes past octal: hexadecimal digits (moves that leave three heaps), `!`
//! (heaps pairwise unequal, Grundy's game `4!.0`), against the reference, a plain certifier
//! written from the generalised window, the published values, and the CLI.

use indicatif::ProgressBar;
use nimseq::memory::Budget;
use nimseq::octal::row::{self, ScanBackend};
use nimseq::octal::scan;
use nimseq::octal::seq::{Reach, describe};
use nimseq::octal::solver::Solver;
use nimseq::octal::{OctalCode, reference};
use rand::{Rng, SeedableRng, rngs::StdRng};
use rayon::prelude::*;

use crate::common::{fresh_seed, refused, run_ok};
use crate::octal::plain_least_period;

/// A random code: d0 of 0, 4, 8 or C, then `digits` hexadecimal digits (the last non-zero),
/// each with a `!` now and then.
fn random_code(rng: &mut StdRng, digits: usize) -> OctalCode {
    let bang = |rng: &mut StdRng| if rng.random_bool(0.3) { "!" } else { "" };
    let d0 = [0u32, 4, 8, 12][rng.random_range(0..4)];
    let mut text = format!("{d0:X}{}.", bang(rng));
    for i in 0..digits {
        let d = rng.random_range(u32::from(i + 1 == digits)..16);
        text.push_str(&format!("{d:X}{}", bang(rng)));
    }
    text.parse()
        .unwrap_or_else(|e| panic!("{text} is a code: {e}"))
}

/// The fast path's values.
fn fast_values(code: &OctalCode, len: usize) -> Vec<u32> {
    let mut solver = Solver::new(code);
    solver.extend(len).unwrap();
    solver.values().to_vec()
}

/// Random codes of one to four hexadecimal digits, with and without `!` (fresh seed): the fast
/// path (the rare/common split for two heaps, the pair bitsets for three) equals the plain
/// rule to n = 2^11.
fn hexadecimal_codes_equal_the_reference() {
    const LEN: usize = 1 << 11;
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let codes: Vec<OctalCode> = (0..16).map(|k| random_code(&mut rng, 1 + k % 4)).collect();
    let failures: Vec<String> = codes
        .par_iter()
        .filter(|code| fast_values(code, LEN) != reference::values(code, LEN))
        .map(|code| code.to_string())
        .collect();
    assert!(failures.is_empty(), "{failures:?} differ (seed {seed})");
}

/// The least period and pre-period that `G(0..len)` proves by the periodicity theorem for
/// moves that leave up to `k` heaps (docs/octal.md, "Periods of hexadecimal codes"), written
/// apart from `src/period.rs`: `G(n + p) = G(n)` for `n` in `[n0, k n0' + (k - 1) p + t)`, or
/// `[n0, k n0' + (k^2 - 1) p + t)` when some digit has `!`, with `n0' = max(n0, 1)`; the whole
/// window and its shift inside the prefix. Only `n0` one past the last mismatch can hold.
fn plain_certificate(code: &OctalCode, g: &[u32]) -> Option<(usize, usize)> {
    let t = code.t();
    let k = code
        .digits()
        .iter()
        .map(|&d| (0..4).rev().find(|b| d >> b & 1 != 0).unwrap_or(0))
        .max()
        .unwrap();
    let shifts = if code.any_unequal() { k * k - 1 } else { k - 1 };
    plain_least_period(g, |n0, p| k * n0.max(1) + shifts * p + t)
}

/// What `octal seq` certifies for codes that split a heap in three, or in two unequal heaps,
/// equals what the plain certifier proves from the reference's values (fresh seed): the same
/// least period and pre-period, certified exactly when it is.
fn certificates_equal_the_plain_certifier() {
    const LEN: usize = 1 << 11;
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut codes: Vec<OctalCode> = ["0.F", "0.85!", "0.A6!", "0.F5!", "0.77!", "0.05!", "0.8"]
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    while codes.len() < 24 {
        let digits = rng.random_range(1..=3);
        let code = random_code(&mut rng, digits);
        if code.max_heaps() == 3 || code.any_unequal() && code.max_heaps() == 2 {
            codes.push(code);
        }
    }
    type Found = Option<(usize, usize)>;
    let results: Vec<(String, Found, Found)> = codes
        .par_iter()
        .map(|code| {
            let want = plain_certificate(code, &reference::values(code, LEN));
            let reach = Reach {
                len: 0,
                max_len: LEN,
                look_for_period: true,
                ..Reach::default()
            };
            let report = describe(code, &reach, Budget::new(1 << 30), &ProgressBar::hidden());
            let got = report.unwrap().certificate.map(|c| (c.period, c.preperiod));
            (code.to_string(), got, want)
        })
        .collect();
    let failures: Vec<String> = results
        .iter()
        .filter(|(_, got, want)| got != want)
        .map(|(code, got, want)| format!("{code}: nimseq {got:?}, plain {want:?}"))
        .collect();
    assert!(failures.is_empty(), "seed {seed}:\n{}", failures.join("\n"));
    // Not a vacuous agreement: the first six settle (0.77! after a pre-period of 540).
    let settled = results.iter().filter(|(_, got, _)| got.is_some()).count();
    assert!(settled >= 6, "{settled} settled (seed {seed})");
}

/// Grundy's game (`4!.0`: split a heap into two unequal heaps): the first 105 values of OEIS
/// A002188, and the first sparse ("rare") values of Flammenkamp's table (Sprague-Grundy Values
/// of Grundy's Game, wwwhomes.uni-bielefeld.de/achim/grundy.html: the sizes whose value has an
/// even number of ones past its lowest bit), which must be the rare sizes of the split the
/// engine chooses, mask `...11110`.
fn grundys_game_published_values() {
    const A002188: [u32; 105] = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
        2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3,
        7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
    ];
    const SPARSE: [(usize, u32); 48] = [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 1),
        (4, 0),
        (6, 1),
        (7, 0),
        (9, 1),
        (10, 0),
        (12, 1),
        (15, 1),
        (20, 0),
        (23, 0),
        (26, 0),
        (28, 1),
        (31, 1),
        (34, 1),
        (37, 1),
        (40, 1),
        (43, 1),
        (46, 1),
        (49, 1),
        (50, 0),
        (52, 1),
        (53, 0),
        (55, 1),
        (58, 1),
        (61, 1),
        (87, 7),
        (90, 7),
        (93, 7),
        (146, 6),
        (149, 6),
        (152, 6),
        (158, 11),
        (161, 11),
        (164, 11),
        (167, 11),
        (176, 7),
        (179, 7),
        (181, 12),
        (182, 7),
        (185, 7),
        (188, 7),
        (190, 12),
        (193, 12),
        (196, 10),
        (231, 10),
    ];
    let grundy: OctalCode = "4!.0".parse().unwrap();
    let g = fast_values(&grundy, 1 << 16);
    assert_eq!(g[..105], A002188);
    assert_eq!(reference::values(&grundy, 105), A002188);
    let sparse: Vec<(usize, u32)> = (0..=231)
        .filter(|&n| (g[n] & !1).count_ones().is_multiple_of(2))
        .map(|n| (n, g[n]))
        .collect();
    assert_eq!(sparse, SPARSE);
    let out = run_ok(&[
        "octal", "stats", "4!.0", "--n-max", "65536", "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rare = json["split"]["rare_sizes"].as_array().unwrap();
    let listed: Vec<usize> = rare.iter().map(|s| s.as_u64().unwrap() as usize).collect();
    assert_eq!(listed[..48], SPARSE.map(|(n, _)| n));
    assert_eq!(json["split"]["mask"].as_u64().unwrap() & 0xff, 0xfe);
}

/// The CLI on the codes the issue names: Grundy's game and 0.3F as JSON with the reference's
/// values, and bad codes refused with one line each.
fn take_break_cli() {
    for (code, len) in [("4!.0", 21), ("0.3F", 21), ("·3F", 21), (".77", 13)] {
        let len_text = len.to_string();
        let out = run_ok(&[
            "octal",
            "seq",
            code,
            "--len",
            &len_text,
            "--max-len",
            "4096",
            "--format",
            "json",
        ]);
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let values: Vec<u32> = json["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        let parsed: OctalCode = code.parse().unwrap();
        assert_eq!(values, reference::values(&parsed, len), "{code}");
    }
    for (bad, naming) in [
        ("0.G", "'G' is not a digit"),
        ("4!!.0", "'!' must follow a digit, once"),
        ("0.0", "no digit allows a move"),
        ("0.3?", "'?' is not supported"),
        ("1.0", "the digit before the point is 0, 4, 8 or C"),
        ("44.0", "one digit before the point at most"),
    ] {
        refused(&["octal", "seq", bad], naming);
    }
    // 0.3F's values grow, and with them its pair bitsets: over a small budget early, in words.
    let big = [
        "octal",
        "seq",
        "0.3F",
        "--max-len",
        "1048576",
        "--max-time",
        "0",
    ];
    refused(
        &[&big[..], &["--mem-budget", "64M"]].concat(),
        "with pair bitsets as wide as G(0..1024)'s may need",
    );
}

/// `octal scan --base 16`: every hexadecimal code in order (240 of two digits, 3,840 of
/// three), rows equal to the reference's (one digit, and random two-digit codes with a fresh
/// seed) and, for codes of octal digits, to the octal scan's; growing pair bitsets held to the
/// budget; any other base refused.
fn hexadecimal_scan() {
    let two: Vec<String> = scan::codes(2, 16, 0).map(|c| c.to_string()).collect();
    assert_eq!(two.len(), 240);
    assert_eq!(
        (two[0].as_str(), two[14].as_str()),
        ("\u{b7}01", "\u{b7}0F")
    );
    assert_eq!(
        (two[15].as_str(), two[239].as_str()),
        ("\u{b7}11", "\u{b7}FF")
    );
    assert_eq!(scan::codes(3, 16, 0).count(), 3840);
    assert_eq!(
        scan::codes(1, 8, 0).count() + scan::codes(2, 8, 0).count(),
        7 + 56
    );

    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let all: Vec<OctalCode> = scan::codes(2, 16, 0).collect();
    for _ in 0..6 {
        let code = &all[rng.random_range(0..all.len())];
        let n = rng.random_range(600..1200);
        let solve = |backend| row::solve(code, n, backend, Budget::UNLIMITED).unwrap();
        assert_eq!(
            solve(ScanBackend::Cpu),
            solve(ScanBackend::Reference),
            "{code} to {n} (seed {seed})"
        );
    }

    let rows = |base: &str, backend: &str| {
        run_ok(&[
            "octal",
            "scan",
            "--digits",
            "1",
            "--n-max",
            "1500",
            "--base",
            base,
            "--backend",
            backend,
        ])
    };
    let hex = rows("16", "cpu");
    assert_eq!(hex, rows("16", "reference"));
    assert_eq!(hex.lines().count(), 1 + 15);
    let octal = rows("8", "cpu");
    let hex_lines: Vec<&str> = hex.lines().collect();
    assert_eq!(
        octal.lines().collect::<Vec<_>>(),
        hex_lines[..8],
        "0.1 to 0.7"
    );
    assert!(hex_lines[15].starts_with("\u{b7}F,"), "{hex}");

    let scan = ["octal", "scan", "--digits", "1", "--base", "16"];
    refused(
        &[&scan[..], &["--n-max", "65536", "--mem-budget", "16M"]].concat(),
        "with pair bitsets as wide as",
    );
    refused(
        &["octal", "scan", "--base", "10"],
        "the base is 8 or 16, not '10'",
    );
}

/// `octal scan --d0 4`: the codes `4.d1...` in order, rows equal to the reference's, and the
/// published periods of two of them (TrivialGames of tczajka/octal-games: 4.72 is 0(124), and
/// 4.12 is 011220(4211221)); any other digit before the point refused.
fn scan_with_a_digit_before_the_point() {
    let two: Vec<String> = scan::codes(2, 8, 4).map(|c| c.to_string()).collect();
    assert_eq!(two.len(), 56);
    assert_eq!(
        (two[0].as_str(), two[55].as_str()),
        ("4\u{b7}01", "4\u{b7}77")
    );
    let rows = |backend: &str| {
        run_ok(&[
            "octal",
            "scan",
            "--digits",
            "2",
            "--d0",
            "4",
            "--n-max",
            "1500",
            "--backend",
            backend,
        ])
    };
    let cpu = rows("cpu");
    assert_eq!(cpu, rows("reference"));
    let row = |code: &str| {
        cpu.lines()
            .find(|l| l.starts_with(&format!("{code},")))
            .unwrap_or_else(|| panic!("no row of {code} in {cpu}"))
            .split(',')
            .take(3)
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(row("4\u{b7}72"), "4\u{b7}72,3,1");
    assert_eq!(row("4\u{b7}12"), "4\u{b7}12,7,6");
    refused(
        &["octal", "scan", "--d0", "2"],
        "the digit before the point is 0 or 4, not '2'",
    );
}

trials!(
    hexadecimal_codes_equal_the_reference,
    certificates_equal_the_plain_certifier,
    grundys_game_published_values,
    take_break_cli,
    hexadecimal_scan,
    scan_with_a_digit_before_the_point,
);
