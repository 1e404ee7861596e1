//! Manabe's theory side by side with brute force (spec sections 1.8 and 2.3).

use nimseq::subtraction::fast::FastSolver;
use nimseq::subtraction::theory::predict::{Prediction, Zone, predict};
use nimseq::subtraction::{Triple, TripleFilter};

/// Spec section 2.3 counts for `c <= 200`: primitive, non-additive, `a >= 2`.
#[test]
fn covered_counts_for_c_up_to_200() {
    let filter = TripleFilter {
        a_min: 2,
        primitive: true,
        ..TripleFilter::up_to(200)
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
#[test]
fn predictions_agree_with_brute_force() {
    let mut solver = FastSolver::default();
    let mut checked = 0;
    for t in TripleFilter::up_to(70).triples() {
        let Triple { a, b, c } = t;
        let s = solver.solve_triple(t, 1 << 24).unwrap();
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

/// Every check of spec section 4 over all triples with c <= 100: nothing fails.
#[test]
fn survey_finds_no_failure_up_to_100() {
    use nimseq::subtraction::fast::solve_triples;
    use nimseq::subtraction::scan::Tally;
    use nimseq::subtraction::survey::Survey;

    let triples: Vec<Triple> = TripleFilter::up_to(100).triples().collect();
    let mut survey = Survey::default();
    for (t, s) in triples.iter().zip(solve_triples(&triples, |_| 1 << 24)) {
        survey.add(*t, &s.unwrap());
    }
    for (name, check, _) in survey.checks() {
        assert!(check.applied > 0, "{name} applied to nothing");
        assert_eq!(check.failed(), 0, "{name}: {:?}", check.failures);
    }
    assert_eq!(survey.summary.rulesets, 161_700);
}
