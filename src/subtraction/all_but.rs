//! All-but sets (every positive integer is a move but those of a finite `X`): their values by
//! counts, and the finite test that proves their arithmetic periods (docs/subtraction.md,
//! section 7, Theorem 7.1): from `G(0..L)` and a candidate `G(n + p) = G(n) + s` for `n >= q`,
//! either a proof that it holds for every `n >= q`, or nothing (the period stays observed).
//!
//! The options of `n` are every position below it but `n - x` for `x` in `X`, so a value is an
//! option iff it occurs more often below `n` than at the excluded positions. Past `q + max X`
//! both counts shift with the period, up to a fixed difference per value (`δ` below); the test
//! checks that this difference can change no option from `L` on.

use crate::period::{Arithmetic, least_arithmetic, observed_arithmetic};

/// Bytes a value the proof may take beside the values: three counts (`i64`) for each value of
/// `G(0..q + p)` and a flag for each value below the saltus, at most one of each per value.
pub const PROOF_BYTES: u64 = 3 * 8 + 1;

/// `G(0..len)` of the all-but set of `xs` by counts: the options of `n` are every value
/// below it but those at `n - x`, so `G(n)` is the least value seen nowhere (`unseen`) or
/// seen only at excluded positions.
pub fn values(xs: &[usize], len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(len);
    let mut count: Vec<u32> = Vec::new();
    let mut unseen = 0u32;
    let mut excluded: Vec<u32> = Vec::with_capacity(xs.len());
    for n in 0..len {
        excluded.clear();
        excluded.extend(xs.iter().take_while(|&&x| x <= n).map(|&x| g[n - x]));
        excluded.sort_unstable();
        // Each run of equal excluded values: a candidate if the exclusions are all its sightings.
        let mut best = unseen;
        for run in excluded.chunk_by(|a, b| a == b) {
            let v = run[0];
            if v < best && count[v as usize] as usize == run.len() {
                best = v;
            }
        }
        g.push(best);
        let v = best as usize;
        if v >= count.len() {
            count.resize(v + 1, 0);
        }
        count[v] += 1;
        while count.get(unseen as usize).is_some_and(|&c| c > 0) {
            unseen += 1;
        }
    }
    g
}

/// The least arithmetic period of the all-but set of `excluded` with its pre-period, if
/// `values` (`G(0..L)`) prove `seen` by Theorem 7.1; `None` if they do not.
pub fn prove(excluded: &[usize], values: &[u32], seen: Arithmetic) -> Option<Arithmetic> {
    theorem_holds(excluded, values, seen)
        .then(|| least_arithmetic(values, seen))
        .flatten()
}

/// The arithmetic period `values` show (observed), and that period in its least form if they
/// prove it: `(proved, observed)`, `observed` only where nothing is proved.
pub fn period(excluded: &[usize], values: &[u32]) -> (Option<Arithmetic>, Option<Arithmetic>) {
    let seen = observed_arithmetic(values);
    match seen.and_then(|a| prove(excluded, values, a)) {
        Some(proved) => (Some(proved), None),
        None => (None, seen),
    }
}

/// The misère values' arithmetic period, given `exchanged` (the misère values: the normal ones
/// with 0 and 1 exchanged, docs/misere.md, Theorem 6) and the normal period `proved`. The
/// exchange keeps `G(n + p) = G(n) + s` wherever `s = 0` or `G(n) >= 2`, and past `q + 2p`
/// every value is at least `2s`: only the positions before that are looked at.
pub fn misere(exchanged: &[u32], proved: Arithmetic) -> Option<Arithmetic> {
    let Arithmetic {
        period: p,
        preperiod: q,
        saltus: s,
    } = proved;
    let looked_to = if s == 0 { q } else { q + 2 * p };
    if looked_to + p > exchanged.len() {
        return None;
    }
    let holds = |n: usize| u64::from(exchanged[n + p]) == u64::from(exchanged[n]) + u64::from(s);
    let from = (q..looked_to)
        .rev()
        .find(|&n| !holds(n))
        .map_or(q, |n| n + 1);
    least_arithmetic(
        exchanged,
        Arithmetic {
            preperiod: from,
            ..proved
        },
    )
}

/// Theorem 7.1's hypotheses over `values`, with `N1 = L - p`: (i) the period holds from `q` to
/// `N1`, and `N1 >= q + max X`; (ii) every value below `s` occurs in `G(0..q + p)`; (iii) every
/// value `v >= s` whose count differs by `δ(v) != 0` between the shifted ranges either occurs
/// (as `u = v - s`) so often below `N1` that no exclusion can hide it, or, when `s > 0`, is
/// below every value from `N1 - max X` on and has the same presence with and without `δ`.
fn theorem_holds(excluded: &[usize], values: &[u32], seen: Arithmetic) -> bool {
    let Arithmetic {
        period: p,
        preperiod: q,
        saltus: s,
    } = seen;
    let m = excluded.last().copied().unwrap_or(0);
    let Some(n1) = values.len().checked_sub(p) else {
        return false;
    };
    if p == 0 || n1 < q + m {
        return false;
    }
    let s64 = u64::from(s);
    // (i)
    if !(q..n1).all(|n| u64::from(values[n + p]) == u64::from(values[n]) + s64) {
        return false;
    }
    // (ii)
    let head = &values[..q + p];
    let mut present = vec![false; s as usize];
    for &v in head {
        if let Some(slot) = present.get_mut(v as usize) {
            *slot = true;
        }
    }
    if !present.iter().all(|&b| b) {
        return false;
    }
    // (iii): δ(v) = #{m < q + p : G(m) = v} - #{m < q : G(m) = v - s}, for v >= s, kept by
    // u = v - s (the only u with δ != 0 are those of G(0..q + p) less s and of G(0..q)).
    let top = head.iter().copied().max().unwrap_or(0) as usize + 1;
    let mut delta = vec![0i64; top];
    for &v in head {
        if let Some(u) = v.checked_sub(s) {
            delta[u as usize] += 1;
        }
    }
    for &u in &values[..q] {
        delta[u as usize] -= 1;
    }
    // c_{N1 - m}(u) and c_{N1}(u) for the u that need them.
    let mut early = vec![0i64; top];
    let mut late = vec![0i64; top];
    for (n, &v) in values[..n1].iter().enumerate() {
        if let Some(c) = late.get_mut(v as usize) {
            *c += 1;
            if n < n1 - m {
                early[v as usize] += 1;
            }
        }
    }
    let hidden = excluded.len() as i64;
    let floor = s64.saturating_mul(((n1 - m - q) / p) as u64);
    (0..top).all(|u| {
        let d = delta[u];
        d == 0
            || late[u] > hidden + (-d).max(0)
            || (s > 0 && (u as u64) < floor && (early[u] + d > 0) == (early[u] > 0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn g(excluded: &[usize], len: usize) -> Vec<u32> {
        values(excluded, len)
    }

    /// 1 to `k_max` distinct moves from `1..=x_max`, ascending.
    fn random_set(rng: &mut impl Rng, k_max: usize, x_max: usize) -> Vec<usize> {
        let k = rng.random_range(1..=k_max);
        let mut xs: Vec<usize> = rand::seq::index::sample(rng, x_max, k)
            .iter()
            .map(|i| i + 1)
            .collect();
        xs.sort_unstable();
        xs
    }

    /// {2, 3, 7} (CGSuite's test game) and the longest pre-period of the survey in
    /// results/subtraction ({2, 19, 27, 29}: p = 469, q = 29,672), proved; a candidate the
    /// values break, or values too short for the test, are not.
    #[test]
    fn proves_known_sets() {
        let v = g(&[2, 3, 7], 64);
        let seen = observed_arithmetic(&v).unwrap();
        let want = Arithmetic {
            period: 4,
            preperiod: 0,
            saltus: 2,
        };
        assert_eq!(prove(&[2, 3, 7], &v, seen), Some(want));
        assert_eq!(prove(&[2, 3, 7], &v[..10], want), None);
        let wrong = Arithmetic { saltus: 3, ..want };
        assert_eq!(prove(&[2, 3, 7], &v, wrong), None);
        let long = g(&[2, 19, 27, 29], 64_000);
        let seen = observed_arithmetic(&long).unwrap();
        assert_eq!((seen.period, seen.preperiod), (469, 29_672));
        assert_eq!(prove(&[2, 19, 27, 29], &long, seen), Some(seen));
    }

    /// Fresh random sets: whatever the test proves from a short prefix holds over a prefix
    /// four times as long, and is the least period there; most sets are proved.
    #[test]
    fn what_is_proved_holds_further() {
        let seed = crate::test_seed();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut proved = 0;
        for _ in 0..60 {
            let xs = random_set(&mut rng, 4, 16);
            let short = g(&xs, 1500);
            let long = g(&xs, 6000);
            let Some(seen) = observed_arithmetic(&short) else {
                continue;
            };
            let Some(a) = prove(&xs, &short, seen) else {
                continue;
            };
            proved += 1;
            let (p, q, s) = (a.period, a.preperiod, u64::from(a.saltus));
            assert!(
                (q..long.len() - p).all(|n| u64::from(long[n + p]) == u64::from(long[n]) + s),
                "{xs:?}: {a:?} (seed {seed})"
            );
            assert_eq!(observed_arithmetic(&long), Some(a), "{xs:?} (seed {seed})");
        }
        assert!(proved >= 40, "{proved} of 60 proved (seed {seed})");
    }

    /// Theorem 7.1 read off docs/subtraction.md one clause at a time, every count taken by a
    /// search over the positions: the plain checker the fast test is held to.
    fn plain_theorem(xs: &[usize], g: &[u32], (p, q, s): (usize, usize, u32)) -> bool {
        let m = *xs.last().unwrap();
        let l = g.len();
        if l < p || l - p < q + m {
            return false;
        }
        let n1 = l - p;
        let count = |below: usize, v: i64| (0..below).filter(|&i| i64::from(g[i]) == v).count();
        let s = i64::from(s);
        let delta = |v: i64| count(q + p, v) as i64 - count(q, v - s) as i64;
        let clause_1 = (q..n1).all(|n| i64::from(g[n + p]) == i64::from(g[n]) + s);
        let clause_2 = (0..s).all(|v| count(q + p, v) > 0);
        let top = g.iter().copied().max().unwrap();
        let clause_3 = (s..=i64::from(top) + s).all(|v| {
            let (d, u) = (delta(v), v - s);
            let a = count(n1, u) as i64 > xs.len() as i64 + (-d).max(0);
            let early = count(n1 - m, u) as i64;
            let b = s > 0 && u < s * ((n1 - m - q) / p) as i64 && ((early + d > 0) == (early > 0));
            d == 0 || a || b
        });
        clause_1 && clause_2 && clause_3
    }

    /// The fast test and the plain checker agree on random sets and prefixes (fresh seed), on
    /// the period the values show and on a wrong saltus beside it.
    #[test]
    fn the_test_equals_the_plain_checker() {
        let seed = crate::test_seed();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut held = 0;
        for _ in 0..40 {
            let xs = random_set(&mut rng, 3, 10);
            let v = g(&xs, rng.random_range(40..400));
            let Some(seen) = observed_arithmetic(&v) else {
                continue;
            };
            for saltus in [seen.saltus, seen.saltus + 1] {
                let a = Arithmetic { saltus, ..seen };
                let fast = theorem_holds(&xs, &v, a);
                let plain = plain_theorem(&xs, &v, (a.period, a.preperiod, saltus));
                assert_eq!(
                    fast,
                    plain,
                    "{xs:?}, {} values, {a:?} (seed {seed})",
                    v.len()
                );
                held += usize::from(fast);
            }
        }
        assert!(held >= 10, "{held} held (seed {seed})");
    }

    /// The misère period of {2, 3, 7}: 1 0 1 0 2 3 2 3 ... (CGSuite's misère values) repeats
    /// with saltus 2 only from n = 4, where 0 and 1 stop.
    #[test]
    fn misere_period_from_the_normal_one() {
        let v = g(&[2, 3, 7], 64);
        let normal = prove(&[2, 3, 7], &v, observed_arithmetic(&v).unwrap()).unwrap();
        let exchanged: Vec<u32> = v
            .iter()
            .map(|&g| crate::misere::nim_heap_minus(g))
            .collect();
        assert_eq!(
            misere(&exchanged, normal),
            Some(Arithmetic {
                period: 4,
                preperiod: 4,
                saltus: 2
            })
        );
    }
}
