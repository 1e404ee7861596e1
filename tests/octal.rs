//! Octal games: the fast path against the reference, against the subtraction engine, against
//! published values, and the CLI as a user runs it.

use indicatif::ProgressBar;
use nimseq::memory::Budget;
use nimseq::octal::canonical::canonical;
use nimseq::octal::fast::{Engine, EngineError};
use nimseq::octal::gpu::{HOST_BYTES_PER_VALUE, KernelLimits, OctalGpu};
use nimseq::octal::lanes::{BATCH, Kernel, Offers};
use nimseq::octal::row::{self, OctalRow, ScanBackend};
use nimseq::octal::scan::{self, Backend, Device, ScanOptions};
use nimseq::octal::seq::{OctalError, Reach, certify_prefix, checksum, describe};
use nimseq::octal::{OctalCode, reference};
use nimseq::output::scan::ScanOutput;
use nimseq::subtraction::{Ruleset, fast::FastSolver};
use rand::{Rng, SeedableRng, rngs::StdRng};
use rayon::prelude::*;

use crate::common::{fresh_seed, gpu, killed_after_chunks, nimseq, not_run, refused};

/// `octal seq` up to `max_len` values, showing none, with no time limit.
fn look(max_len: usize) -> Reach<'static> {
    Reach {
        len: 0,
        max_len,
        look_for_period: true,
        ..Reach::default()
    }
}

fn fast_values(code: &OctalCode, len: usize, kernel: Kernel) -> Vec<u32> {
    let mut engine = Engine::with_kernel(code, kernel);
    engine.extend(len).unwrap();
    engine.values().to_vec()
}

/// The kernels this CPU runs: the plain one, and the AVX2 and AVX-512 ones where it has them
/// (without AVX-512 the trial says it was not run in full).
fn kernels() -> Vec<Kernel> {
    let kernels = Kernel::available();
    if !kernels.contains(&Kernel::Avx512) {
        let why = match kernels.contains(&Kernel::Avx2) {
            true => "this CPU has no AVX-512: the plain and AVX2 kernels only",
            false => "this CPU has no AVX-512 or AVX2: the plain kernel only",
        };
        not_run(why, REQUIRE_AVX512);
    }
    kernels
}

/// Set where a machine must test the AVX-512 kernel.
const REQUIRE_AVX512: &str = "NIMSEQ_REQUIRE_AVX512";

/// `auto` on a GPU: a small scan goes to the CPU at once; a larger one after timing both on
/// a sample of its codes, whose rows must agree (which wins depends on the adapter, so only
/// the reason is checked).
fn auto_calibrates_octal_scans_worth_it() {
    let Some(ctx) = gpu() else { return };
    let opts = |digits, n_max| ScanOptions {
        digits,
        base: 8,
        d0: 0,
        n_max,
        output: ScanOutput::whole(16),
        verify_sample: None,
        budget: Budget::UNLIMITED,
    };
    let (backend, why) = Backend::faster(&opts(2, 4096), OctalGpu::new(ctx).unwrap()).unwrap();
    assert!(
        matches!(backend.device, Device::Cpu(ScanBackend::Cpu)),
        "{why}"
    );
    assert!(why.contains("small scan"), "{why}");
    // 448 codes to 9,500: worth a calibration, on every code to 1,187.
    let (_, why) = Backend::faster(&opts(3, 9500), OctalGpu::new(ctx).unwrap()).unwrap();
    assert!(why.contains("448 codes to n = 1187: gpu "), "{why}");
}

/// Every code of one and two digits (d0 = 0 or 4) to n = 2000, and random codes of three and
/// four digits (fresh seed each run): the rare/common split equals the plain rule.
fn fast_path_equals_the_reference() {
    let mut codes: Vec<OctalCode> = Vec::new();
    for d0 in [0, 4] {
        for d1 in 0..8 {
            for d2 in 0..8 {
                let text = format!("{d0}.{d1}{d2}");
                codes.extend(text.parse::<OctalCode>());
            }
        }
    }
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..24 {
        let digits = rng.random_range(3..=4);
        let mut text = String::from("0.");
        for i in 0..digits {
            let low = if i + 1 == digits { 1 } else { 0 };
            text.push(char::from(b'0' + rng.random_range(low..8u8)));
        }
        codes.push(text.parse().unwrap());
    }
    // Longer runs of games whose values grow, so that the masks and the bitsets' spans change
    // on the way, and (0.007 past 2,048 rare sizes, from about n = 6,500) the batches' bitsets
    // are made alongside the batch before.
    let long: Vec<(OctalCode, usize)> = [
        ("0.007", 16_000),
        ("4.007", 8000),
        ("0.6", 8000),
        ("0.37", 8000),
    ]
    .iter()
    .map(|&(c, n)| (c.parse().unwrap(), n))
    .collect();
    for kernel in kernels() {
        for (code, len) in codes
            .iter()
            .map(|c| (c, 2000))
            .chain(long.iter().map(|(c, n)| (c, *n)))
        {
            assert_eq!(
                fast_values(code, len, kernel),
                reference::values(code, len),
                "{code} with {kernel:?} (seed {seed})"
            );
        }
    }
}

/// Every kernel clears the bits the plain one does: random values, random bitsets (up to 2^13 bits,
/// past what registers hold, and now and then 2^17; the offers' words, bytes, lanes' words and
/// bitsets at spans up to 2^9, 2^11, 2^13 and 2^17), random rare lists,
/// batches at every offset (fresh seed), the rare splits those of their definition; and every
/// kernel's shifted clear (three-heap splits) the bits its definition does, widths 1 to 128.
fn kernels_clear_the_same_bits() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let kernels = kernels();
    for _ in 0..300 {
        // Now and then past the span the offers hold in bytes.
        let bits = if rng.random_bool(0.05) {
            17
        } else {
            rng.random_range(6..14)
        };
        let n = rng.random_range(BATCH + 2..1200);
        let g: Vec<u32> = (0..n).map(|_| rng.random_range(0..1u32 << bits)).collect();
        let words = (1usize << bits) / 64;
        let open: Vec<u64> = (0..BATCH * words).map(|_| rng.random()).collect();
        let base = rng.random_range(0..=n - BATCH);
        let pos: Vec<u32> = (BATCH as u32..n as u32)
            .filter(|_| rng.random_bool(0.3))
            .collect();
        let val: Vec<u32> = pos
            .iter()
            .map(|_| rng.random_range(0..1u32 << bits))
            .collect();
        // Half the time few values are wanted (at most eight, as a scan usually has): the
        // AVX2 scan then compares lanes with them instead of reading the bitset.
        let mut sparse = vec![0u64; words];
        for _ in 0..rng.random_range(1..=8) {
            let v = rng.random_range(0..64 * words);
            sparse[v / 64] |= 1 << (v % 64);
        }
        let want = if rng.random_bool(0.5) {
            &sparse[..]
        } else {
            &open[..words]
        };
        let wanted = want.iter().map(|w| w.count_ones()).sum();
        let left = rng.random_range(2..=n);
        // Half the time the scan stops short of the equal halves (a digit with `!`).
        let last = if rng.random_bool(0.5) {
            left / 2
        } else {
            (left - 1) / 2
        };
        // Half the time the values' 16-bit copy is given too (the AVX2 scan reads it).
        let narrow: Option<Vec<u16>> = g.iter().map(|&v| u16::try_from(v).ok()).collect();
        let narrow = narrow.filter(|_| rng.random_bool(0.5));
        let narrow = narrow.as_deref();
        // The scan may start past its first splits (those offered with a batch).
        let first = if rng.random_bool(0.5) {
            1
        } else {
            rng.random_range(1..=left / 2 + 1)
        };
        // The rare splits by their definition: each clears its xor in its lane.
        let mut defined = open.clone();
        for (&s, &v) in pos.iter().zip(&val) {
            for l in 0..BATCH {
                if (s as usize) < base + l {
                    let x = (v ^ g[base + l - s as usize]) as usize;
                    defined[l * words + x / 64] &= !(1 << (x % 64));
                }
            }
        }
        let offered = |kernel: Kernel| {
            let mut offers = Offers::default();
            offers.reset(64 * words);
            kernel.offer_rare(&mut offers, &g, &pos, &val, base);
            let mut got = open.clone();
            offers.clear_offered(&mut got);
            got
        };
        let plain = offered(Kernel::Plain);
        assert_eq!(plain, defined, "Plain offer_rare (seed {seed})");
        let mut plain_want = want.to_vec();
        let plain_left =
            Kernel::Plain.offer_common(&mut plain_want, &g, None, left, first..=last, wanted);
        // The shifted clear of the pair bitsets (codes that split in three), every kernel
        // against the definition: each set bit `v` clears `v xor x`, at every width.
        let width = 1usize << rng.random_range(0..8);
        let src: Vec<u64> = (0..width).map(|_| rng.random()).collect();
        let x = rng.random_range(0..64 * width as u32);
        let mut shifted = open[..width.min(open.len())].to_vec();
        shifted.resize(width, !0);
        let mut want_shifted = shifted.clone();
        for v in (0..64 * width).filter(|&v| src[v / 64] >> (v % 64) & 1 != 0) {
            let y = v ^ x as usize;
            want_shifted[y / 64] &= !(1 << (y % 64));
        }
        for &kernel in &kernels {
            let mut got = shifted.clone();
            kernel.shifted_clear(&mut got, &src, x);
            assert_eq!(
                got, want_shifted,
                "{kernel:?} shifted_clear by {x} (seed {seed})"
            );
        }
        for &fast in &kernels[1..] {
            assert_eq!(plain, offered(fast), "{fast:?} offer_rare (seed {seed})");
            let mut other_want = want.to_vec();
            let other_left =
                fast.offer_common(&mut other_want, &g, narrow, left, first..=last, wanted);
            assert_eq!(
                (plain_left, &plain_want),
                (other_left, &other_want),
                "{fast:?} offer_common (seed {seed})"
            );
        }
    }
}

/// A code of 0s and 3s is the subtraction game of its 3s: the same values, and the same
/// certified period and pre-period as `sub seq`'s engine (random sets, fresh seed).
fn subtraction_codes_equal_the_subtraction_engine() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..40 {
        let k = rng.random_range(1..=4);
        let mut moves: Vec<u32> = (0..k).map(|_| rng.random_range(1..=30)).collect();
        moves.sort_unstable();
        moves.dedup();
        let code = OctalCode::subtraction(&moves);
        let set: Ruleset = moves
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
            .parse()
            .unwrap();
        let g = fast_values(&code, 4096, Kernel::detect());
        let want = nimseq::subtraction::reference::nim_values(&set, 4096);
        assert_eq!(g, want, "{code} = {set} (seed {seed})");
        let solved = FastSolver::default().solve(&set, 1 << 20).unwrap();
        let c = certify_prefix(&code, &g).expect("certified within 4096 values");
        assert_eq!(
            (c.period, c.preperiod),
            (solved.period, solved.preperiod),
            "{code} = {set} (seed {seed})"
        );
    }
}

/// The least period and pre-period that `G(0..len)` proves, by the periodicity theorems alone
/// (written apart from `src/period.rs`): the least `p` for which some `n0` has `G(n + p) =
/// G(n)` on a window that proves it, the whole window inside the prefix. The window is
/// `[n0, 2 n0 + p + t)` for a code with a splitting move (Guy and Smith), `[n0, n0 + t)` for
/// one without, and one longer at `n0 = 0`, where the first step of either proof meets a heap
/// size of at most `t`, which follows its own rule (0.1 and 0.4 have false windows without it).
/// A window that holds proves `p` from `n0`, so its `n0` is one past the last mismatch in the
/// whole prefix: that is the only `n0` to try.
fn plain_certificate(digits: &[u8], g: &[u32]) -> Option<(usize, usize)> {
    let t = digits.len() - 1;
    let splits = digits.iter().any(|d| d & 4 != 0);
    plain_least_period(g, |n0, p| {
        (if splits { 2 * n0 + p + t } else { n0 + t }) + usize::from(n0 == 0)
    })
}

/// The least `p`, with its `n0`, such that `G(n + p) = G(n)` on the window `[n0, end(n0, p))`,
/// the window and its shift inside `g`: `n0` one past the last mismatch at shift `p`.
pub fn plain_least_period(
    g: &[u32],
    end: impl Fn(usize, usize) -> usize,
) -> Option<(usize, usize)> {
    let len = g.len();
    (1..len).find_map(|p| {
        let n0 = (0..len - p)
            .rev()
            .find(|&x| g[x] != g[x + p])
            .map_or(0, |x| x + 1);
        (end(n0, p) + p <= len).then_some((p, n0))
    })
}

/// What `octal seq` certifies equals what the plain certifier proves from the reference's
/// values to 2^14, on every code of one to three digits (d0 = 0 and 4) and 600 random codes of
/// four (fresh seed): the same least period and pre-period, and certified exactly when it is.
fn certificates_equal_the_plain_certifier() {
    const LEN: usize = 1 << 14;
    let mut codes: Vec<String> = Vec::new();
    for d0 in [0, 4] {
        for digits in 1..=3u32 {
            for n in 0..8usize.pow(digits) {
                let text: String = (0..digits)
                    .rev()
                    .map(|i| char::from(b'0' + (n / 8usize.pow(i) % 8) as u8))
                    .collect();
                if !text.ends_with('0') {
                    codes.push(format!("{d0}.{text}"));
                }
            }
        }
    }
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..600 {
        let d0 = if rng.random_bool(0.5) { 4 } else { 0 };
        let text: String = (0..4)
            .map(|i| char::from(b'0' + rng.random_range(u8::from(i == 3)..8)))
            .collect();
        codes.push(format!("{d0}.{text}"));
    }
    let failures: Vec<String> = codes
        .par_iter()
        .filter_map(|text| {
            let code: OctalCode = text.parse().unwrap();
            let g = reference::values(&code, LEN);
            let want = plain_certificate(code.digits(), &g);
            let report = describe(
                &code,
                &look(LEN),
                Budget::new(1 << 30),
                &ProgressBar::hidden(),
            )
            .unwrap();
            let got = report.certificate.map(|c| (c.period, c.preperiod));
            (got != want).then(|| format!("{text}: nimseq {got:?}, plain {want:?}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} codes differ (seed {seed}):\n{}",
        failures.len(),
        codes.len(),
        failures.join("\n")
    );
}

/// Dawson's chess (0.137) is Dawson's Kayles (0.07) one heap size on.
fn dawsons_chess_is_dawsons_kayles_shifted() {
    let chess = fast_values(&"0.137".parse().unwrap(), 3000, Kernel::detect());
    let kayles = fast_values(&"0.07".parse().unwrap(), 3001, Kernel::detect());
    assert_eq!(chess[..], kayles[1..]);
}

/// The published solved games (docs/octal.md) up to 0.56 certify with the published (pre-period,
/// period), and
/// G(0..25) of Treblecross (0.007) is the one quoted from CGSuite.
fn published_values() {
    for (text, q, p) in [
        ("0.07", 53, 34),
        ("0.77", 71, 12),
        ("0.16", 105_351, 149_459),
        ("0.56", 326_640, 144),
    ] {
        let code: OctalCode = text.parse().unwrap();
        let r = describe(
            &code,
            &look(1 << 21),
            Budget::new(1 << 30),
            &ProgressBar::hidden(),
        )
        .unwrap();
        let c = r.certificate.unwrap_or_else(|| panic!("{text} certified"));
        assert_eq!((c.preperiod, c.period), (q, p), "{text}");
        // The window lies inside what was computed.
        assert!(
            2 * c.preperiod + 2 * c.period + code.t() <= r.computed,
            "{text}"
        );
    }
    let treblecross = fast_values(&"0.007".parse().unwrap(), 26, Kernel::detect());
    assert_eq!(
        treblecross,
        [
            0, 0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 1, 1, 0, 4, 3, 3, 3, 2, 2, 2, 4, 4, 0, 5
        ]
    );
}

/// Treblecross by its raw rules: X's go on a 1 x n strip, and whoever completes three in a row
/// wins. A search over every board (memoised by the mask of X's) gives each empty strip's
/// outcome; it must be 0.007's (the first player wins iff G != 0) at one fixed shift of the
/// heap size, found here rather than assumed.
fn treblecross_by_its_raw_rules_is_0_007() {
    /// Whether the player to move wins on `n` cells holding `x` (no three in a row yet).
    fn wins(n: usize, x: u32, memo: &mut std::collections::HashMap<u32, bool>) -> bool {
        if let Some(&known) = memo.get(&x) {
            return known;
        }
        let three = |m: u32| (0..n.saturating_sub(2)).any(|i| (m >> i) & 0b111 == 0b111);
        let empty: Vec<usize> = (0..n).filter(|&i| x >> i & 1 == 0).collect();
        let won = empty.iter().any(|&i| three(x | 1 << i))
            || empty.iter().any(|&i| !wins(n, x | 1 << i, memo));
        memo.insert(x, won);
        won
    }
    let outcomes: Vec<bool> = (3..=16)
        .map(|n| wins(n, 0, &mut std::collections::HashMap::new()))
        .collect();
    let g = fast_values(&"0.007".parse().unwrap(), 40, Kernel::detect());
    let shifts: Vec<usize> = (0..6)
        .filter(|&k| (3..=16).all(|n| outcomes[n - 3] == (g[n + k] != 0)))
        .collect();
    // Exactly one shift fits every strip of 3 to 16 cells: a strip of n cells is a heap of n + 2.
    assert_eq!(shifts, [2], "outcomes {outcomes:?}");
}

/// `--max-time` holds for the longest code: the clock is looked at as often in work whatever
/// the code's length (once 4,096 values between looks, and a code of 4,096 digits ran 3.4 s
/// for `--max-time 1`).
fn max_time_holds_for_the_longest_code() {
    let code = format!("0.{}", "7".repeat(4096));
    let mut command = nimseq();
    command.args(["octal", "seq", &code, "--max-time", "1", "--len", "5"]);
    let run = crate::common::measured(command);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("stopped after 1 s"), "{}", run.stderr);
    assert!(run.seconds < 2.0, "{:.1} s for --max-time 1", run.seconds);
}

/// Memory: the estimate (6 bytes a value, 24 a rare size) is within 1.5x of the peak
/// resident memory ([`crate::common::measured`]), here 2^22 values of 0.1777 (16 rare sizes):
/// 24 MiB estimated, about 31 MiB at peak with the program's own 6; a rare list that outgrows
/// the budget stops the run with exit code 2, naming it (0.1: every size rare); and 2^30 values
/// of 0.1777, where Flammenkamp's record period is certified, fit 7G (the old estimate said 18
/// GiB).
fn memory_is_estimated_from_the_run() {
    let mut command = nimseq();
    command.args(["octal", "stats", "0.1777", "--n-max", "4194304"]);
    let run = crate::common::measured(command);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let estimate = nimseq::octal::seq::memory(1 << 22, 16, 0) as f64;
    let peak = run.peak_kib as f64 * 1024.0;
    assert!(
        (estimate / 1.5..=estimate * 1.5).contains(&peak),
        "estimate {estimate} bytes, peak {peak}"
    );
    let said = refused(
        &[
            "octal",
            "stats",
            "0.1",
            "--n-max",
            "1000000",
            "--mem-budget",
            "10M",
        ],
        "over the memory budget of 10.0 MiB",
    );
    assert!(
        said.contains("1000000 values of ·1 with the 188415 rare sizes below 188416"),
        "{said}"
    );
    let mut command = nimseq();
    command.args([
        "octal",
        "seq",
        "0.1777",
        "--max-len",
        "1073741824",
        "--mem-budget",
        "7G",
        "--max-time",
        "1",
    ]);
    let run = crate::common::measured(command);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("stopped after 1 s"), "{}", run.stderr);
}

/// A killed `octal stats` or `seq` goes on from its checkpoint: killed three times (SIGKILL)
/// at random sizes (fresh seed), the resumed run prints the uninterrupted run's bytes
/// (ogsolve's checksum at each power of two, frequencies, split; seq's values and split); a
/// checkpoint of another code, or cut inside its header, is refused in one line.
fn octal_runs_resume_after_kills() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let runs: [(&[&str], u64); 2] = [
        (&["octal", "stats", "0.007", "--n-max", "262144"], 262_144),
        (
            &[
                "octal",
                "seq",
                "0.1777",
                "--max-len",
                "4194304",
                "--len",
                "100",
            ],
            4_194_304,
        ),
    ];
    for (args, values) in runs {
        let whole = nimseq().args(args).output().unwrap();
        assert!(whole.status.success());
        // Three sizes in the first 80% of the values, 4 bytes each.
        let mut kills: Vec<u64> = (0..3)
            .map(|_| rng.random_range(1..values * 16 / 5))
            .collect();
        kills.sort_unstable();
        let resumed = crate::common::killed_then_resumed(args, &kills);
        assert_eq!(
            String::from_utf8_lossy(&resumed),
            String::from_utf8_lossy(&whole.stdout),
            "{args:?} killed at {kills:?} bytes (NIMSEQ_SEED={seed})"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.ckpt");
    let path = file.to_str().unwrap();
    let stats = |code| {
        [
            "octal",
            "stats",
            code,
            "--n-max",
            "4096",
            "--checkpoint",
            path,
        ]
    };
    let o = nimseq().args(stats("0.007")).output().unwrap();
    assert!(o.status.success());
    std::fs::write(&file, b"NIMSEQTC").unwrap();
    refused(
        &[&stats("0.007")[..], &["--resume"]].concat(),
        "not a nimseq table checkpoint",
    );
    std::fs::remove_file(&file).unwrap();
    let mut killed = nimseq()
        .args([
            "octal",
            "stats",
            "0.007",
            "--n-max",
            "100000000",
            "--checkpoint",
            path,
        ])
        .spawn()
        .unwrap();
    while std::fs::metadata(&file).map_or(0, |m| m.len()) < 4096 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    killed.kill().unwrap();
    killed.wait().unwrap();
    refused(
        &[&stats("0.77")[..], &["--resume"]].concat(),
        "is the checkpoint of another table",
    );
}

/// `octal seq` in JSON, settled and not; bad codes refused in one line with exit code 2.
fn octal_cli() {
    let o = nimseq()
        .args(["octal", "seq", "0.77", "--len", "13", "--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["certified"], true);
    assert_eq!(json["certificate"]["period"], 12);
    assert_eq!(json["certificate"]["preperiod"], 71);
    assert_eq!(
        json["values"],
        serde_json::json!([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4])
    );
    let o = nimseq()
        .args([
            "octal",
            "seq",
            "0.007",
            "--max-len",
            "4096",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["certified"], false);
    assert_eq!(json["computed"], 4096);
    assert_eq!(json["timed_out"], false);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("certified within 4096 values: stopped at --max-len 4096; raise --max-len"),
        "{stderr}"
    );
    // Codes ogsolve settles with period 8 from 0 (a chance match at the top once hid them).
    for code in ["0.7003", "0.7063"] {
        let o = nimseq()
            .args(["octal", "seq", code, "--format", "json"])
            .output()
            .unwrap();
        assert!(o.status.success());
        let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(json["certified"], true, "{code}");
        assert_eq!(json["certificate"]["period"], 8, "{code}");
        assert_eq!(json["certificate"]["preperiod"], 0, "{code}");
    }
    // A code whose values grow with n (O(n^2) work) stops at --max-time and says so.
    let started = std::time::Instant::now();
    let o = nimseq()
        .args([
            "octal",
            "seq",
            "0.7277",
            "--max-time",
            "1",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (json["certified"].clone(), json["timed_out"].clone()),
        (false.into(), true.into())
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("stopped after 1 s; raise --max-time"),
        "{stderr}"
    );
    // ogsolve's checksum of Treblecross to 4095 (ogsolve 0.0.7: `ogsolve 0.007 -n 4095`).
    let o = nimseq()
        .args(["octal", "stats", "0.007", "--n-max", "4096"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("checksum     0xa9445e72"), "{text}");
    // And at each power of two (`ogsolve 0.007 -n 4096` prints 80C5EC8).
    let o = nimseq()
        .args(["octal", "stats", "0.007", "--n-max", "4097"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("checksum of G(0..=4096): 0x080c5ec8"),
        "{text}"
    );
    for (code, naming) in [
        ("0.8G", "'G' is not a digit"),
        ("1.07", "the digit before the point is 0, 4, 8 or C"),
        ("0.", "no digit after the point"),
        ("07", "expected d0.d1d2"),
        ("0.0", "no digit allows a move"),
    ] {
        refused(&["octal", "seq", code], naming);
    }
    refused(
        &[
            "octal",
            "stats",
            "0.007",
            "--n-max",
            "1000000000",
            "--mem-budget",
            "1G",
        ],
        "over the memory budget",
    );
    refused(
        &["octal", "scan", "--n-max", "16777216", "--mem-budget", "1M"],
        "over the memory budget",
    );
    refused(&["octal", "scan", "--shard", "4/3"], "invalid shard '4/3'");
    refused(&["octal", "scan", "--digits", "7"], "--digits");
    refused(
        &["octal", "scan", "--verify-sample", "1.5"],
        "1.5 is not a fraction between 0 and 1",
    );
}

/// The scan's rows: the fast path's equal the reference's on random codes of three and four
/// digits (fresh seed), on every code of two digits through the CLI, and the published games
/// (docs/octal.md)
/// show their published periods.
/// Kayles (OEIS A002186, offset 0) in Winning Ways' rows of 12: from n = 72 on, the last row
/// repeats (period 12, pre-period 71).
const KAYLES_ROWS: [[u32; 12]; 7] = [
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6],
    [4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7],
    [4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7],
    [4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7],
    [4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7],
    [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7],
    [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7],
];

/// `octal seq 0.77 --len 100 --format bfile` is a b-file of A002186's first 100 terms (lines
/// `n a(n)` from 0), and `--format csv` the same values as rows `n,g`.
fn kayles_as_a_bfile_and_csv() {
    let kayles: Vec<u32> = (0..100)
        .map(|n| KAYLES_ROWS[(n / 12).min(6)][n % 12])
        .collect();
    let bfile = nimseq()
        .args(["octal", "seq", "0.77", "--len", "100", "--format", "bfile"])
        .output()
        .unwrap();
    assert!(bfile.status.success());
    let want: String = kayles
        .iter()
        .enumerate()
        .map(|(n, g)| format!("{n} {g}\n"))
        .collect();
    assert_eq!(String::from_utf8(bfile.stdout).unwrap(), want);
    let csv = nimseq()
        .args(["octal", "seq", "0.77", "--len", "3", "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(csv.stdout).unwrap(),
        "n,g\n0,0\n1,1\n2,2\n"
    );
}

fn scan_rows_agree_across_backends() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..12 {
        let digits = rng.random_range(3..=4);
        let all: Vec<OctalCode> = scan::codes(digits, 8, 0).collect();
        let code = &all[rng.random_range(0..all.len())];
        let n = rng.random_range(1000..3000);
        assert_eq!(
            row::solve(code, n, ScanBackend::Cpu, Budget::UNLIMITED).unwrap(),
            row::solve(code, n, ScanBackend::Reference, Budget::UNLIMITED).unwrap(),
            "{code} to {n} (seed {seed})"
        );
    }
    assert_eq!(scan::codes(3, 8, 0).count(), 448);
    assert_eq!(scan::codes(4, 8, 0).count(), 3584);
    let args = ["octal", "scan", "--digits", "2", "--n-max", "4096"];
    let rows = |backend: &str| {
        let o = nimseq()
            .args(args)
            .args(["--backend", backend])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let summary = String::from_utf8_lossy(&o.stderr).to_string();
        (String::from_utf8(o.stdout).unwrap(), summary)
    };
    let (cpu, summary) = rows("cpu");
    assert_eq!(cpu, rows("reference").0);
    assert_eq!(cpu.lines().count(), 1 + 56);
    assert!(cpu.contains("\n\u{b7}07,34,53,1024,1024,9,"), "{cpu}");
    assert!(cpu.contains("\n\u{b7}77,12,71,1024,1024,8,"), "{cpu}");
    // 0.16 needs 510 K values: unsettled here, its fields empty, all 4096 values searched.
    assert!(cpu.contains("\n\u{b7}16,,,,4096,16,"), "{cpu}");
    assert!(
        summary.contains("56 codes: 40 settled, 16 unsettled; longest period 34 (\u{b7}07)"),
        "{summary}"
    );
    // The checksum is ogsolve's over G(0..n-max), past a certificate by the period: that of
    // the values themselves.
    let kayles = fast_values(&"0.77".parse().unwrap(), 4096, Kernel::detect());
    let line = cpu.lines().find(|l| l.starts_with("\u{b7}77,")).unwrap();
    assert!(
        line.ends_with(&format!(",{},,,", checksum(&kayles))),
        "{line}"
    );
}

/// A code and its canonical code are the same game: equal values (the reference's) and, as
/// the scan copies them, equal rows but for the code. Random codes (fresh seed) of 1 to 6
/// hexadecimal digits, any first digit, a `!` now and then, and mostly odd digits (the moves
/// the rule may drop); how many differ from their canonical code is checked to be some.
fn same_games_have_the_same_values() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut changed = 0;
    for _ in 0..300 {
        let mut text = String::from(["0", "4", "8", "C"][rng.random_range(0..4)]);
        text.push('.');
        let digits = rng.random_range(1..=6);
        for i in 0..digits {
            let low = if i + 1 == digits { 1 } else { 0 };
            let d: u32 = rng.random_range(low..16) | u32::from(rng.random_bool(0.7));
            text.push(char::from_digit(d, 16).unwrap());
            if d >= 4 && rng.random_bool(0.1) {
                text.push('!');
            }
        }
        let code: OctalCode = text.parse().unwrap();
        let same = canonical(&code);
        changed += usize::from(same != code);
        let n = if code.max_heaps() > 2 { 120 } else { 400 };
        assert_eq!(
            reference::values(&same, n),
            reference::values(&code, n),
            "{code} and {same} (seed {seed})"
        );
        let rows = [&code, &same].map(|c| row::solve(c, n, ScanBackend::Cpu, Budget::UNLIMITED));
        let [mut got, want] = rows.map(Result::unwrap);
        got.code = want.code.clone();
        assert_eq!(got, want, "{code} and {same} (seed {seed})");
    }
    assert!(changed > 30, "{changed} of 300 codes changed (seed {seed})");
}

/// The GPU path's rows equal the CPU path's: every code of one and two digits (and 4.d1, which
/// splits without taking, and three codes past octal, handed to the CPU) to n = 2000, random codes of three and four digits (fresh seed), a
/// call in parts when the budget holds few codes, the hand-over to the CPU of codes whose
/// values pass the kernel's bound (lowered here), and `octal scan` with every row re-checked.
fn gpu_rows_equal_cpu_rows() {
    let Some(ctx) = gpu() else { return };
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut codes: Vec<OctalCode> = scan::codes(1, 8, 0).chain(scan::codes(2, 8, 0)).collect();
    codes.extend((0..8).map(|d| format!("4.{d}").parse::<OctalCode>().unwrap()));
    // Codes past octal, which the GPU hands to the CPU path.
    codes.extend(["0.3F", "4!.0", "0.8"].map(|c| c.parse::<OctalCode>().unwrap()));
    for _ in 0..12 {
        let all: Vec<OctalCode> = scan::codes(rng.random_range(3..=4), 8, 0).collect();
        codes.push(all[rng.random_range(0..all.len())].clone());
    }
    let cpu = |codes: &[OctalCode], n: usize| -> Vec<OctalRow> {
        codes
            .iter()
            .map(|c| row::solve(c, n, ScanBackend::Cpu, Budget::UNLIMITED).unwrap())
            .collect()
    };
    let gpu = OctalGpu::new(ctx).unwrap();
    let all = Budget::UNLIMITED;
    let quiet = ProgressBar::hidden();
    assert_eq!(
        gpu.solve(&codes, 2000, all, &quiet).unwrap(),
        cpu(&codes, 2000),
        "seed {seed}"
    );
    // A budget that holds the values of three codes at once: the call goes in parts.
    let three = Budget::new(3 * HOST_BYTES_PER_VALUE * 2000);
    let some = &codes[..10];
    assert_eq!(
        gpu.solve(some, 2000, three, &quiet).unwrap(),
        cpu(some, 2000)
    );
    // Past four rounds of look lengths, where a driver once cut a long dispatch short.
    let long: Vec<OctalCode> = ["0.16", "0.007"]
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(
        gpu.solve(&long, 8192, all, &quiet).unwrap(),
        cpu(&long, 8192)
    );
    let low = OctalGpu::with_limits(
        ctx,
        KernelLimits {
            values: 8,
            ..KernelLimits::default()
        },
    )
    .unwrap();
    let two: Vec<OctalCode> = scan::codes(2, 8, 0).collect();
    let rows = low.solve(&two, 1500, all, &quiet).unwrap();
    assert!(
        rows.iter().any(|r| r.max_value >= 8),
        "some code is handed over"
    );
    assert_eq!(rows, cpu(&two, 1500));
    // Long dispatches: llvmpipe ends every loop of an invocation past 65,535 iterations in
    // all, and the kernel then records no more sizes in that dispatch (without that check these
    // rows were wrong: 0.244 and 0.164 to 8192 in dispatches of 2^16 sizes, and every code
    // whose values pass 1,024 in the 3-digit scan to 2^16).
    let busy: Vec<OctalCode> = ["0.244", "0.164"]
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    let long = OctalGpu::with_limits(
        ctx,
        KernelLimits {
            sizes_per_dispatch: 1 << 16,
            ..KernelLimits::default()
        },
    )
    .unwrap();
    assert_eq!(
        long.solve(&busy, 8192, all, &quiet).unwrap(),
        cpu(&busy, 8192)
    );
    // Through the scan driver, every row re-checked on the CPU path: the CPU's rows.
    let scan = |backend: &str| {
        let o = nimseq()
            .args(["octal", "scan", "--digits", "2", "--n-max", "2000"])
            .args(["--backend", backend, "--verify-sample", "1"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    assert_eq!(scan("gpu"), scan("cpu"));
}

/// Shards concatenate to the whole scan, and a scan killed mid-way resumes to the same bytes.
fn scan_shards_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "octal",
        "scan",
        "--digits",
        "2",
        "--n-max",
        "16384",
        "--chunk-size",
        "2",
        "--backend",
        "reference",
    ];
    let into = |extra: &[&str], out: &std::path::Path| {
        nimseq()
            .args(args)
            .args(extra)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    let whole = dir.path().join("whole.csv");
    assert!(into(&[], &whole).status.success());
    let mut joined = Vec::new();
    for i in 1..=3 {
        let part = dir.path().join(format!("part{i}.csv"));
        assert!(
            into(&["--shard", &format!("{i}/3")], &part)
                .status
                .success()
        );
        joined.extend(std::fs::read(&part).unwrap());
    }
    assert_eq!(joined, std::fs::read(&whole).unwrap());

    let cut = dir.path().join("cut.csv");
    let checkpoint = dir.path().join("cut.csv.checkpoint");
    killed_after_chunks(&args, &cut, 3);
    assert!(
        std::fs::read(&cut).unwrap().len() < std::fs::read(&whole).unwrap().len(),
        "the run finished before the kill"
    );
    let o = into(&[], &cut);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("add --resume"));
    let o = into(&["--resume"], &cut);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
    assert!(!checkpoint.exists());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("56 codes: 40 settled, 16 unsettled"),
        "the resumed totals cover every row"
    );
}

/// `octal stats` as a bounded run on a budget of `bytes`, to `n` values.
fn bounded(n: usize) -> Reach<'static> {
    Reach {
        max_len: n,
        bounded: true,
        ..Reach::default()
    }
}

/// A bounded run holds a head and a tail of the values and is exact: on fixed codes and random
/// ones of two and three digits (d0 = 0 or 4, fresh seed), to 2^17 with ends of 21,845
/// values, it either reports what the run holding every value reports (checksums, every
/// value's frequency, the largest value and where it is first) or stops naming a value it no
/// longer holds, never a guess (or is refused, its rare list past the budget). 0.16 (rare
/// sizes to 13,935) and Kayles run through; 0.007 (rare sizes past 100,000) stops; a run
/// shorter than the least ends runs as a full one.
fn bounded_runs_equal_whole_runs_or_stop() {
    let n = 1 << 17;
    let budget = Budget::new(512 << 10);
    let quiet = ProgressBar::hidden();
    let stats = Reach {
        max_len: n,
        ..Reach::default()
    };
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut codes: Vec<String> = ["0.16", "0.77", "0.6", "0.007"].map(String::from).to_vec();
    for _ in 0..8 {
        let digits = rng.random_range(2..=3);
        let mut text = format!("{}.", [0, 4][rng.random_range(0..2)]);
        for i in 0..digits {
            let low = if i + 1 == digits { 1 } else { 0 };
            text.push(char::from(b'0' + rng.random_range(low..8u8)));
        }
        codes.push(text);
    }
    let mut outcomes = Vec::new();
    for text in &codes {
        let code: OctalCode = text.parse().unwrap();
        let whole = describe(&code, &stats, Budget::UNLIMITED, &quiet).unwrap();
        match describe(&code, &bounded(n), budget, &quiet) {
            Ok(b) => {
                let held = b.held.expect("a bounded run says what it held");
                assert!(held.head + held.tail < n, "{code}: {held:?}");
                let figures = |r: &nimseq::octal::seq::OctalReport| {
                    (
                        r.computed,
                        r.checksum.clone(),
                        r.checksums.clone(),
                        r.frequencies.clone(),
                        r.max_value,
                        r.max_at,
                    )
                };
                assert_eq!(figures(&b), figures(&whole), "{code} (seed {seed})");
                outcomes.push((text.as_str(), "equal"));
            }
            Err(OctalError::Engine(EngineError::Outside(e))) => {
                assert!(
                    e.needed >= e.head && e.needed + e.tail < e.n,
                    "{code}: {e:?} (seed {seed})"
                );
                outcomes.push((text.as_str(), "stopped"));
            }
            // A rare list past the half of the budget the ends leave: refused as any run.
            Err(OctalError::OverBudget(_)) => outcomes.push((text.as_str(), "over budget")),
            Err(e) => panic!("{code}: {e} (seed {seed})"),
        }
    }
    for (code, outcome) in [("0.16", "equal"), ("0.77", "equal")] {
        assert!(outcomes.contains(&(code, outcome)), "{outcomes:?}");
    }
    assert!(!outcomes.contains(&("0.007", "equal")), "{outcomes:?}");

    // The command line: the same output but the line that says what was held; a stop exits
    // 2 naming the value; codes that split a heap in three, and too small a budget, refused.
    let args = ["octal", "stats", "0.16", "--n-max", "262144"];
    let whole = crate::common::run_ok(&args);
    let held = crate::common::run_ok(&[&args[..], &["--bounded", "--mem-budget", "1M"]].concat());
    let (held_lines, other): (Vec<&str>, Vec<&str>) =
        held.lines().partition(|l| l.starts_with("held "));
    assert_eq!(other, whole.lines().collect::<Vec<_>>());
    assert_eq!(
        held_lines,
        ["held         G(0..43690) and the last 43690 values at once (--bounded)"]
    );
    // A run shorter than the least ends holds every value, as a run without --bounded.
    let short = ["octal", "stats", "0.6", "--n-max", "100"];
    let held = crate::common::run_ok(&[&short[..], &["--bounded"]].concat());
    assert_eq!(
        held.lines()
            .filter(|l| !l.starts_with("held "))
            .collect::<Vec<_>>(),
        crate::common::run_ok(&short).lines().collect::<Vec<_>>()
    );
    refused(
        &[
            "octal",
            "stats",
            "0.007",
            "--n-max",
            "524288",
            "--bounded",
            "--mem-budget",
            "1M",
        ],
        "which this bounded run no longer holds",
    );
    refused(
        &["octal", "stats", "0.3F", "--bounded"],
        "--bounded runs codes whose moves leave at most two heaps, not \u{b7}3F",
    );
    refused(
        &["octal", "stats", "0.6", "--bounded", "--mem-budget", "64K"],
        "held as a head and a tail of",
    );
}

/// A bounded run's checkpoint (its whole state, rewritten now and then) takes a run killed
/// three times (SIGKILL, each at a random moment after a state newer than the run's start
/// is in place) to the output of a run never killed; a checkpoint of other ends, or of a run
/// that holds every value, is refused in one line.
fn bounded_runs_resume_after_kills() {
    use std::os::unix::fs::MetadataExt;
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let args = [
        "octal",
        "stats",
        "0.6",
        "--n-max",
        "8388608",
        "--bounded",
        "--mem-budget",
        "16M",
    ];
    let whole = crate::common::run_ok(&args);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bounded.ckpt");
    let run = |more: &[&str]| {
        let mut command = nimseq();
        command.args(args).arg("--checkpoint").arg(&file).args(more);
        command
    };
    let state = || std::fs::metadata(&file).map_or(0, |m| m.ino());
    for i in 0..3 {
        let before = state();
        let mut child = run(if i == 0 { &[] } else { &["--resume"] })
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        // A new state is a new file renamed into place: another inode.
        while state() == before || state() == 0 {
            assert!(
                start.elapsed().as_secs() < 60,
                "no state saved (seed {seed})"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::thread::sleep(std::time::Duration::from_millis(rng.random_range(0..300)));
        child.kill().unwrap();
        assert!(!child.wait().unwrap().success(), "finished before kill {i}");
    }
    let other_ends = ["--checkpoint", file.to_str().unwrap(), "--resume"];
    refused(
        &[&args[..7], &["32M"], &other_ends].concat(),
        "--bounded holding G(0..699050) and the last 699050 values (sized by --mem-budget and \
         --n-max) there, holding G(0..1398101)",
    );
    refused(&[&args[..5], &other_ends].concat(), "there, unset here");
    let o = run(&["--resume"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        whole,
        "killed three times (seed {seed})"
    );
    assert!(!file.exists(), "the checkpoint stays after the run");
}

trials!(
    bounded_runs_equal_whole_runs_or_stop,
    bounded_runs_resume_after_kills,
    octal_runs_resume_after_kills,
    memory_is_estimated_from_the_run,
    gpu_rows_equal_cpu_rows,
    auto_calibrates_octal_scans_worth_it,
    scan_rows_agree_across_backends,
    same_games_have_the_same_values,
    scan_shards_and_resume,
    fast_path_equals_the_reference,
    kernels_clear_the_same_bits,
    subtraction_codes_equal_the_subtraction_engine,
    certificates_equal_the_plain_certifier,
    dawsons_chess_is_dawsons_kayles_shifted,
    max_time_holds_for_the_longest_code,
    kayles_as_a_bfile_and_csv,
    published_values,
    treblecross_by_its_raw_rules_is_0_007,
    octal_cli,
);
