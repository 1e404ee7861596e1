//! Manabe's theory side by side with brute force (Manabe's paper and 2.3).

use nimseq::memory::Budget;
use nimseq::subtraction::set_solver::TripleSolver;
use nimseq::subtraction::theory::predict::{Prediction, Zone, predict};
use nimseq::subtraction::{MoveSet, SetFilter, Triple};

/// docs/subtraction.md, section 6 counts for `c <= 200`: primitive, non-additive, `a >= 2`.
fn covered_counts_for_c_up_to_200() {
    let filter = SetFilter {
        a_min: 2,
        primitive: true,
        ..SetFilter::up_to(200)
    };
    let (mut total, mut inert, mut ca, mut cb) = (0, 0, 0, 0);
    for t in filter.triples().filter(|t| t.c != t.a + t.b) {
        total += 1;
        match predict(t.a as usize, t.b as usize, t.c as usize) {
            Prediction::Covered {
                zone: Zone::APlusB, ..
            } => inert += 1,
            Prediction::Covered {
                zone: Zone::CPlusA, ..
            } => ca += 1,
            Prediction::Covered {
                zone: Zone::CPlusB, ..
            } => cb += 1,
            Prediction::Uncovered => {}
            other => panic!("{t:?}: {other:?}"),
        }
    }
    assert_eq!(total, 1_072_983);
    assert_eq!((inert, ca, cb), (35_240, 410_803, 177_587));
}

/// Theorem 32 (and Conjecture 50 in this range): covered means purely periodic with exactly the
/// predicted least period; uncovered means pre-periodic. Every triple with `c <= 70`.
fn predictions_agree_with_brute_force() {
    let mut solver = TripleSolver::default();
    let mut checked = 0;
    for t in SetFilter::up_to(70).triples() {
        let Triple { a, b, c } = t;
        let s = solver.solve(t, 1 << 24).unwrap();
        match predict(a as usize, b as usize, c as usize) {
            Prediction::Covered { period, .. } | Prediction::Additive { period } => {
                assert_eq!((s.period, s.preperiod), (period, 0), "{t:?}");
                checked += 1;
            }
            Prediction::Uncovered => assert!(s.preperiod > 0, "Conjecture 50 fails at {t:?}"),
            Prediction::OutsideTheory => {}
        }
    }
    assert!(checked > 20_000, "{checked}");
}

/// Every check of docs/subtraction.md, section 5 over all triples with c <= 100: nothing fails.
fn survey_finds_no_failure_up_to_100() {
    use nimseq::output::scan::Tally;
    use nimseq::subtraction::lanes::solve_sets;
    use nimseq::subtraction::survey::Survey;

    let triples: Vec<MoveSet> = SetFilter::up_to(100).sets().collect();
    let mut survey = Survey::default();
    for (t, s) in triples
        .iter()
        .zip(solve_sets(&triples, |_| 1 << 24, Budget::UNLIMITED).unwrap())
    {
        survey.add(t, &s);
    }
    for (name, check, _) in survey.checks() {
        assert!(check.applied > 0, "{name} applied to nothing");
        assert_eq!(check.failed(), 0, "{name}: {:?}", check.failures);
    }
    assert_eq!(survey.summary.rulesets, 161_700);
}

/// Theorem 34: `p = p_add` and `q = 0` for every coprime additive `{a, b, a+b}`, `2 <= a < b <= 80`
/// (1,886 rulesets, docs/subtraction.md, section 6 row 15).
fn additive_periods_for_all_coprime_bases_up_to_80() {
    use nimseq::subtraction::theory::{additive_period, gcd};
    let mut solver = TripleSolver::default();
    let mut n = 0;
    for b in 3..=80u32 {
        for a in 2..b {
            if gcd(a as usize, b as usize) != 1 {
                continue;
            }
            let s = solver.solve(Triple { a, b, c: a + b }, 1 << 24).unwrap();
            let want = additive_period(a as usize, b as usize);
            assert_eq!((s.period, s.preperiod), (want, 0), "{{{a},{b},{}}}", a + b);
            n += 1;
        }
    }
    assert_eq!(n, 1886);
}

/// The remarks' cautionary rulesets: outside the theory, and their true periods (Manabe's paper).
fn cautionary_rulesets() {
    let mut solver = TripleSolver::default();
    let mut period = |a, b, c| solver.solve(Triple { a, b, c }, 1 << 24).unwrap().period;
    assert_eq!(predict(1, 3, 5), Prediction::OutsideTheory);
    assert_eq!(period(1, 3, 5), 2); // the criterion would say 4 (Remark 33)
    assert_eq!(predict(2, 4, 6), Prediction::OutsideTheory);
    assert_eq!(period(2, 4, 6), 8); // the odd-eta formula evaluated directly says 16 (Remark 35)
    for c in (18..=62u32).step_by(4) {
        assert_eq!(predict(2, 14, c as usize), Prediction::OutsideTheory);
        assert_eq!(period(2, 14, c), 4, "{{2,14,{c}}}"); // the criterion would say 16 (Remark 51)
    }
}

trials!(
    covered_counts_for_c_up_to_200,
    predictions_agree_with_brute_force,
    survey_finds_no_failure_up_to_100,
    additive_periods_for_all_coprime_bases_up_to_80,
    cautionary_rulesets,
);
