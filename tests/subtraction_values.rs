//! Nim sequences: published values and fresh random rulesets through every backend.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;

use nimseq::memory::Budget;
use nimseq::subtraction::gpu::{GpuStats, GpuTuning, LOOP_BUDGET, SubtractionGpu, long_cap};
use nimseq::subtraction::lanes;
use nimseq::subtraction::scan::Calibration;
use nimseq::subtraction::set_solver::TripleSolver;
use nimseq::subtraction::{MoveSet, Ruleset, SetFilter, Solution, Triple, fast, reference, seq};

use crate::common::{fresh_seed, gpu};

#[derive(Deserialize)]
struct Published {
    ruleset: Vec<PublishedRow>,
}

#[derive(Deserialize)]
struct PublishedRow {
    set: String,
    period: usize,
    preperiod: usize,
    word: Option<String>,
    /// The paper's zone where the published table gives it: a+b, c+a, c+b, additive, uncovered.
    zone: Option<String>,
}

fn published() -> Vec<(Ruleset, PublishedRow)> {
    let text = include_str!("data/subtraction.toml");
    let data: Published = toml::from_str(text).expect("tests/data/subtraction.toml parses");
    data.ruleset
        .into_iter()
        .map(|row| (row.set.parse().expect("valid set"), row))
        .collect()
}

const MAX_LEN: usize = 1 << 24;

#[derive(Clone, Copy, Debug)]
enum Backend {
    Reference,
    Cpu,
    Gpu,
}

/// Solves every set with one backend; the GPU takes triples only (None for the others).
fn solve_all(backend: Backend, sets: &[Ruleset]) -> Vec<Option<Solution>> {
    match backend {
        Backend::Reference => sets
            .iter()
            .map(|s| Some(reference::solve(s, MAX_LEN).unwrap()))
            .collect(),
        Backend::Cpu => {
            // Triples take the scan's path, other sets the general one.
            let (mut triples, mut others) = (TripleSolver::default(), fast::FastSolver::default());
            sets.iter()
                .map(|s| {
                    Some(match *s.moves() {
                        [a, b, c] => triples.solve(Triple { a, b, c }, MAX_LEN).unwrap(),
                        _ => others.solve(s, MAX_LEN).unwrap(),
                    })
                })
                .collect()
        }
        Backend::Gpu => {
            let Some(ctx) = gpu() else {
                return vec![None; sets.len()];
            };
            let gpu = SubtractionGpu::new(ctx, 3).unwrap();
            let triples: Vec<MoveSet> = sets.iter().filter_map(triple_of).map(Into::into).collect();
            let mut solved = gpu.solve(&triples, Budget::UNLIMITED).unwrap().into_iter();
            sets.iter()
                .map(|s| triple_of(s).map(|_| solved.next().unwrap().unwrap()))
                .collect()
        }
    }
}

fn triple_of(set: &Ruleset) -> Option<Triple> {
    match *set.moves() {
        [a, b, c] => Some(Triple { a, b, c }),
        _ => None,
    }
}

/// One body for every backend (published values, tests/data/subtraction.toml).
fn published_values(backend: Backend) {
    if matches!(backend, Backend::Gpu) && gpu().is_none() {
        return;
    }
    let rows = published();
    let sets: Vec<Ruleset> = rows.iter().map(|(s, _)| s.clone()).collect();
    let mut checked = 0;
    for ((set, row), got) in rows.iter().zip(solve_all(backend, &sets)) {
        let Some(got) = got else { continue };
        assert_eq!(
            (got.period, got.preperiod),
            (row.period, row.preperiod),
            "{backend:?} on {set}: (p, q) differs from the published value"
        );
        // The outcome period divides the nim period, and its pre-period is no longer.
        assert_eq!(got.period % got.outcome_period, 0, "{set}");
        assert!(got.outcome_preperiod <= got.preperiod, "{set}");
        checked += 1;
    }
    assert!(checked >= 40, "{backend:?} checked only {checked} rows");
}

fn published_values_reference() {
    published_values(Backend::Reference);
}

fn published_values_cpu() {
    published_values(Backend::Cpu);
}

fn published_values_gpu() {
    published_values(Backend::Gpu);
}

/// The published zone column, and Theorem 32 / Conjecture 50 on every published triple.
fn published_zones_and_predictions() {
    use nimseq::subtraction::theory::predict::{Prediction, predict};
    let mut zones = 0;
    for (set, row) in published() {
        let &[a, b, c] = set.moves() else { continue };
        let prediction = predict(a as usize, b as usize, c as usize);
        let zone = match prediction {
            Prediction::Covered { zone, period } => {
                assert_eq!(
                    (row.period, row.preperiod),
                    (period, 0),
                    "Theorem 32 on {set}"
                );
                zone.to_string()
            }
            Prediction::Additive { period } => {
                assert_eq!(
                    (row.period, row.preperiod),
                    (period, 0),
                    "Theorem 34 on {set}"
                );
                "additive".to_string()
            }
            Prediction::Uncovered => {
                assert!(row.preperiod > 0, "Conjecture 50 on {set}");
                "uncovered".to_string()
            }
            Prediction::OutsideTheory => "outside".to_string(),
        };
        if let Some(want) = &row.zone {
            assert_eq!(&zone, want, "zone of {set}");
            zones += 1;
        }
    }
    assert_eq!(zones, 28);
}

fn published_period_words() {
    for (set, row) in published() {
        let Some(word) = row.word else { continue };
        let report = seq::describe(&set, 0, MAX_LEN, Budget::UNLIMITED).unwrap();
        let solved = report.solution.expect("certified");
        let got: String = solved.period_word.iter().map(u32::to_string).collect();
        assert_eq!(got, word, "one period of {set}");
        let plain = reference::nim_values(&set, row.preperiod + row.period);
        let want: String = plain[row.preperiod..].iter().map(u32::to_string).collect();
        assert_eq!(want, word, "reference word of {set}");
    }
}

/// Fresh random triples (seed printed on failure; NIMSEQ_SEED=... replays it).
fn random_triples_agree_across_backends() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let sets: Vec<Ruleset> = (0..250)
        .map(|i| {
            let c_max = if i < 200 { 60 } else { 160 };
            let c = rng.random_range(3..=c_max);
            let a = rng.random_range(1..c - 1);
            let b = rng.random_range(a + 1..c);
            Ruleset::triple(a, b, c)
        })
        .collect();
    let reference = solve_all(Backend::Reference, &sets);
    for backend in [Backend::Cpu, Backend::Gpu] {
        for ((set, want), got) in sets.iter().zip(&reference).zip(solve_all(backend, &sets)) {
            if let Some(got) = got {
                assert_eq!(
                    got.key(),
                    want.unwrap().key(),
                    "{backend:?} vs reference on {set} (seed {seed}): (p, q, p0, q0)"
                );
            }
        }
    }
}

/// Sets of 1 to 64 moves, fast CPU path against the reference.
fn random_sets_of_any_size_agree() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut solver = fast::FastSolver::default();
    for i in 0..120 {
        let k = match i {
            0..100 => rng.random_range(1..=8),
            _ => rng.random_range(9..=64),
        };
        let max = rng.random_range(k as u32..=k as u32 + 70);
        let mut moves: Vec<u32> = (1..=max).collect();
        // A random k-subset of 1..=max.
        for j in 0..k {
            let pick = rng.random_range(j..moves.len());
            moves.swap(j, pick);
        }
        let set = Ruleset::new(&moves[..k]).unwrap();
        let want = reference::solve(&set, MAX_LEN).unwrap();
        let got = solver.solve(&set, MAX_LEN).unwrap();
        assert_eq!(got.key(), want.key(), "{set} (seed {seed})");
    }
}

fn too_short_a_limit_is_an_error_not_a_guess() {
    let set: Ruleset = "143,148,292".parse().unwrap();
    let err = fast::FastSolver::default().solve(&set, 10_000).unwrap_err();
    assert!(
        err.to_string()
            .contains("no period of {143,148,292} certified")
    );
    assert!(reference::solve(&set, 10_000).is_err());
}

/// The GPU for sets of `k` moves with no hand-back to the CPU (every non-additive set is its to
/// certify), in both word widths: 64 bits where the adapter has them (checked), and 32.
fn gpus_alone(tuning: GpuTuning, k: usize) -> Vec<SubtractionGpu<'static>> {
    let Some(ctx) = gpu() else { return Vec::new() };
    [true, false]
        .into_iter()
        .map(|int64| {
            let tuning = GpuTuning {
                cpu_handoff: 0,
                int64,
                ..tuning.clone()
            };
            SubtractionGpu::with_tuning(ctx, tuning, k).unwrap()
        })
        .collect()
}

/// The word width a backend made with `int64` must use on this adapter.
fn word_bits(int64: bool) -> u64 {
    let has = gpu().is_some_and(|ctx| ctx.device.features().contains(wgpu::Features::SHADER_INT64));
    if int64 && has { 64 } else { 32 }
}

/// GPU rows against the fast CPU path's, key by key; what the GPU did for them.
fn assert_same_rows(gpu: &SubtractionGpu<'_>, sets: &[MoveSet], what: &str) -> GpuStats {
    let want = lanes::solve_sets(sets, long_cap, Budget::UNLIMITED).unwrap();
    gpu.take_stats();
    let got = gpu.solve(sets, Budget::UNLIMITED).unwrap();
    for ((t, want), got) in sets.iter().zip(&want).zip(got) {
        assert_eq!(
            got.unwrap().key(),
            want.key(),
            "GPU vs CPU on {t} ({what}): (p, q, p0, q0)"
        );
    }
    gpu.take_stats()
}

/// Whether a set is an additive triple (`c = a + b`), which the CPU solves.
fn additive(s: &MoveSet) -> bool {
    s.triple().is_some_and(|t| t.c == t.a + t.b)
}

/// [`assert_same_rows`] for both word widths, and every non-additive triple certified on the
/// GPU itself (a slot the GPU skipped would otherwise be rescued by the CPU unseen); for other
/// move counts, every set whose period divides a pair sum (the GPU's candidates) and has
/// shown it by the GPU's cap.
fn assert_gpus_match_cpu(tuning: GpuTuning, sets: &[MoveSet], what: &str) -> Vec<GpuStats> {
    let additive = sets.iter().filter(|s| additive(s)).count() as u64;
    let k = sets[0].k();
    let on_gpu = match k {
        3 => sets.len() as u64 - additive,
        _ => {
            let solved = lanes::solve_sets(sets, long_cap, Budget::UNLIMITED).unwrap();
            // The least pair sum the period divides proves it once q + P + c values exist
            // (and a word more).
            let provable = |(s, sol): (&MoveSet, &Solution)| {
                let (m, c) = (s.moves(), s.largest() as usize);
                let sums = (0..k).flat_map(|i| (i + 1..k).map(move |j| (m[i] + m[j]) as usize));
                sums.filter(|sum| sum % sol.period == 0)
                    .min()
                    .is_some_and(|sum| sol.preperiod + sum + c + 64 <= c * c / 2 + c + 64)
            };
            sets.iter()
                .zip(&solved)
                .filter(|&pair| provable(pair))
                .count() as u64
        }
    };
    gpus_alone(tuning, k)
        .iter()
        .zip([true, false])
        .map(|(gpu, int64)| {
            let what = format!("{what}, {} bits", word_bits(int64));
            let stats = assert_same_rows(gpu, sets, &what);
            assert_eq!(stats.word_bits, word_bits(int64), "{what}");
            assert!(
                stats.on_gpu >= on_gpu,
                "{what}: {stats:?}, {on_gpu} provable on the GPU"
            );
            assert_eq!(stats.on_gpu + stats.on_cpu, sets.len() as u64, "{what}");
            stats
        })
        .collect()
}

fn gpu_rows_equal_cpu_rows_for_every_triple_up_to_c_120() {
    let triples: Vec<MoveSet> = SetFilter::up_to(120).sets().collect();
    for stats in assert_gpus_match_cpu(GpuTuning::default(), &triples, "c <= 120") {
        assert!(stats.gpu_passes >= 4, "{stats:?}");
    }
}

/// Random triples up to c = 1000 in random order (fresh seed, printed on failure), with the
/// longest pre-periods known and additive triples among them.
fn gpu_rows_equal_cpu_rows_on_random_triples_up_to_c_1000() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut triples: Vec<Triple> = (0..2000)
        .map(|i| {
            let c = rng.random_range(3..=1000);
            let a = rng.random_range(1..c - 1);
            // One in ten additive.
            let b = if i % 10 == 0 && 2 * a < c {
                c - a
            } else {
                rng.random_range(a + 1..c)
            };
            Triple { a, b, c }
        })
        .collect();
    for (a, b, c) in [(57, 142, 198), (143, 148, 292), (285, 713, 999)] {
        let at = rng.random_range(0..triples.len());
        triples.insert(at, Triple { a, b, c });
    }
    assert!(triples.iter().filter(|t| t.c == t.a + t.b).count() >= 50);
    let sets: Vec<MoveSet> = triples.into_iter().map(Into::into).collect();
    assert_gpus_match_cpu(GpuTuning::default(), &sets, &format!("seed {seed}"));
}

/// Tiny caps, batches and dispatch rows, so that compaction, many passes, many batches and the
/// 2-D dispatch all run on small work; then passes that never compact, and the hand-back of
/// survivors to the CPU.
fn gpu_passes_compaction_batches_and_2d_dispatch() {
    let Some(ctx) = gpu() else { return };
    let tiny = GpuTuning {
        batch: 1000,
        first_cap: (0, 32),
        cpu_handoff: 0,
        compact_below: 1.0,
        max_groups_per_dim: Some(2),
        int64: true,
        loop_budget: LOOP_BUDGET,
        lane_model: true,
    };
    // 1000 slots are 16 workgroups: 2 x 8 of them.
    assert_eq!(ctx.dispatch_size_at_most(1000, 64, Some(2)), (2, 8));
    let triples: Vec<MoveSet> = SetFilter::up_to(60).sets().collect();
    for compact_below in [1.0, 0.0] {
        let tuning = GpuTuning {
            compact_below,
            ..tiny.clone()
        };
        let what = format!("tiny batches and caps, compact below {compact_below}");
        for stats in assert_gpus_match_cpu(tuning, &triples, &what) {
            let batches = stats.on_gpu.div_ceil(1000);
            assert!(batches >= 30, "{stats:?}");
            // Caps of 1, 2, 4, ... words: the longest triples of a batch (G up to a few
            // hundred values) take four passes or more.
            assert!(stats.gpu_passes >= 4 * batches, "{stats:?}");
            // The lane model counted every step the GPU took, and no more lane-steps than
            // warps of 32 can spend.
            assert!(
                stats.lane_steps_used >= stats.values / stats.word_bits,
                "{stats:?}"
            );
            assert!(stats.lane_steps_used <= stats.lane_steps_spent, "{stats:?}");
        }
    }
    let handing = SubtractionGpu::with_tuning(
        ctx,
        GpuTuning {
            cpu_handoff: 100,
            ..tiny
        },
        3,
    )
    .unwrap();
    let stats = assert_same_rows(&handing, &triples, "hand-back");
    let additive = triples.iter().filter(|s| additive(s)).count() as u64;
    assert!(
        stats.on_cpu > additive,
        "nothing was handed back: {stats:?}"
    );
    assert_eq!(stats.on_gpu + stats.on_cpu, triples.len() as u64);
}

/// A slot stops each pass at the loop budget (which keeps llvmpipe's 65,535-iteration cut
/// away) and goes on in the next: with a budget of a few iterations, every triple takes many
/// passes and the rows are still the CPU's.
fn gpu_passes_stop_at_the_loop_budget_and_go_on() {
    let triples: Vec<MoveSet> = SetFilter::up_to(40).sets().collect();
    // A first cap past every triple's proof: one pass each, but for the budget.
    for (budget, passes) in [(u32::MAX, 1), (5, 3), (1, 8)] {
        let tuning = GpuTuning {
            first_cap: (1000, 0),
            loop_budget: budget,
            ..GpuTuning::default()
        };
        for stats in assert_gpus_match_cpu(tuning, &triples, &format!("loop budget {budget}")) {
            assert!(stats.gpu_passes >= passes, "{stats:?}");
            assert!(budget < u32::MAX || stats.gpu_passes == 1, "{stats:?}");
        }
    }
}

/// `auto`'s calibration times both paths on the scan's largest c and checks they agree.
fn calibration_times_both_paths_on_the_largest_c() {
    let Some(ctx) = gpu() else { return };
    let gpu = SubtractionGpu::new(ctx, 3).unwrap();
    let filter = SetFilter::up_to(90);
    let calibration = Calibration::run(&filter, &gpu, Budget::UNLIMITED)
        .unwrap()
        .unwrap();
    assert_eq!(calibration.c, 90);
    // Every triple with c = 90: pairs a < b below 90, 89 * 88 / 2.
    assert_eq!(calibration.sets, 3916);
    assert!(calibration.cpu.as_nanos() > 0 && calibration.gpu.as_nanos() > 0);
}

/// `auto` on a GPU: a small scan goes to the CPU at once, a larger one after timing both on its
/// largest c (which one wins depends on the adapter, so only the reason is checked).
fn auto_calibrates_only_scans_worth_it() {
    use nimseq::subtraction::scan::Backend;
    let Some(ctx) = gpu() else { return };
    let (backend, why) = Backend::faster(
        &SetFilter::up_to(60),
        SubtractionGpu::new(ctx, 3).unwrap(),
        Budget::UNLIMITED,
    )
    .unwrap();
    assert!(matches!(backend, Backend::Cpu), "{why}");
    assert!(why.contains("small scan"), "{why}");
    // Every triple with c <= 300 is 4,455,100 rulesets; those with c = 300 are 299 * 298 / 2.
    let (_, why) = Backend::faster(
        &SetFilter::up_to(300),
        SubtractionGpu::new(ctx, 3).unwrap(),
        Budget::UNLIMITED,
    )
    .unwrap();
    assert!(why.contains("44551 sets with largest move 300"), "{why}");
}

/// Every set of 4 moves up to 24 and of 5 up to 18, and of 2, 6 and 7 moves up to smaller
/// largest moves: the fast CPU path's rows equal the reference backend's, and the GPU's on
/// both word widths (certified on the GPU itself).
fn other_move_counts_agree_across_backends() {
    use nimseq::subtraction::scan::Backend;
    for (k, d) in [(2, 60), (4, 24), (5, 18), (6, 16), (7, 15)] {
        let sets: Vec<MoveSet> = SetFilter::sets_up_to(k, d).sets().collect();
        let want = Backend::Reference.solve(&sets, Budget::UNLIMITED).unwrap();
        let got = Backend::Cpu.solve(&sets, Budget::UNLIMITED).unwrap();
        for ((s, want), got) in sets.iter().zip(&want).zip(&got) {
            assert_eq!(got.key(), want.key(), "cpu vs reference on {s}");
        }
        assert_gpus_match_cpu(GpuTuning::default(), &sets, &format!("{k} moves up to {d}"));
    }
}

/// 300 random sets of each move count (fresh seed, printed on failure; largest moves up to
/// 150, so that moves cross the 64-position words): the scan's CPU and GPU paths against
/// `sub seq`'s certificate, an engine of its own (one-hot planes, any set).
fn random_sets_of_each_move_count_equal_seq() {
    use nimseq::subtraction::scan::Backend;
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for k in 2..=7 {
        let sets: Vec<MoveSet> = (0..300)
            .map(|_| {
                let d = rng.random_range(k as u32..=150);
                let mut moves = vec![d];
                while moves.len() < k {
                    let m = rng.random_range(1..d);
                    if !moves.contains(&m) {
                        moves.push(m);
                    }
                }
                moves.sort_unstable();
                MoveSet::new(&moves)
            })
            .collect();
        // A set whose period `sub seq` does not certify within MAX_LEN (a rare long period:
        // CI drew one) has no answer to compare with; the others are compared, most of them.
        let (sets, want): (Vec<MoveSet>, Vec<[usize; 4]>) = sets
            .into_iter()
            .filter_map(|s| {
                let report = seq::describe(&s.ruleset(), 0, MAX_LEN, Budget::UNLIMITED).unwrap();
                let c = report.solution?;
                Some((
                    s,
                    [c.period, c.preperiod, c.outcome_period, c.outcome_preperiod],
                ))
            })
            .unzip();
        assert!(
            sets.len() >= 280,
            "{} of 300 certified (seed {seed})",
            sets.len()
        );
        let cpu = Backend::Cpu.solve(&sets, Budget::UNLIMITED).unwrap();
        let gpu = gpu().map(|ctx| {
            let gpu = SubtractionGpu::new(ctx, k).unwrap();
            let solved = gpu.solve(&sets, Budget::UNLIMITED).unwrap();
            solved.into_iter().map(|s| s.unwrap()).collect::<Vec<_>>()
        });
        for (i, (s, want)) in sets.iter().zip(&want).enumerate() {
            assert_eq!(&cpu[i].key(), want, "cpu on {s} (seed {seed})");
            if let Some(gpu) = &gpu {
                assert_eq!(&gpu[i].key(), want, "gpu on {s} (seed {seed})");
            }
        }
    }
}

trials!(
    published_values_reference,
    published_values_cpu,
    published_values_gpu,
    published_zones_and_predictions,
    published_period_words,
    random_triples_agree_across_backends,
    random_sets_of_any_size_agree,
    too_short_a_limit_is_an_error_not_a_guess,
    gpu_rows_equal_cpu_rows_for_every_triple_up_to_c_120,
    gpu_rows_equal_cpu_rows_on_random_triples_up_to_c_1000,
    gpu_passes_compaction_batches_and_2d_dispatch,
    gpu_passes_stop_at_the_loop_budget_and_go_on,
    calibration_times_both_paths_on_the_largest_c,
    auto_calibrates_only_scans_worth_it,
    other_move_counts_agree_across_backends,
    random_sets_of_each_move_count_equal_seq,
);
