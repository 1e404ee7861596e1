//! `sub value` and `octal value`: positions of several heaps against a brute force of the
//! sum's game tree, written from the rules alone (no Sprague-Grundy values): a position is a P-
//! position when every move leads to an N-position.

use std::collections::{BTreeSet, HashMap};

use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::common::{fresh_seed, nimseq};

/// A position: the heap sizes, sorted (the order of heaps does not matter to the game).
type Heaps = Vec<usize>;

/// The heaps a move from a heap of `n` may leave, by the rules of the game.
type Rule = dyn Fn(usize) -> Vec<Heaps>;

/// A code's rule: taking `i` tokens (digit `i`) may leave no heap (bit 1), one (bit 2), two
/// (bit 4) or three non-empty heaps (bit 8), pairwise unequal where `unequal[i]`; digit 0
/// only splits.
fn octal_rule(digits: Vec<u8>, unequal: Vec<bool>) -> Box<Rule> {
    Box::new(move |n| {
        let mut moves = Vec::new();
        for (i, &d) in digits.iter().enumerate() {
            if i > n {
                break;
            }
            let rest = n - i;
            if i > 0 && d & 1 != 0 && rest == 0 {
                moves.push(vec![]);
            }
            if i > 0 && d & 2 != 0 && rest > 0 {
                moves.push(vec![rest]);
            }
            let distinct = |heaps: &[usize]| {
                !unequal[i] || heaps.iter().collect::<BTreeSet<_>>().len() == heaps.len()
            };
            if d & 4 != 0 {
                for a in 1..rest {
                    let heaps = vec![a, rest - a];
                    if distinct(&heaps) {
                        moves.push(heaps);
                    }
                }
            }
            if d & 8 != 0 {
                for a in 1..rest {
                    for b in 1..rest - a {
                        let heaps = vec![a, b, rest - a - b];
                        if distinct(&heaps) {
                            moves.push(heaps);
                        }
                    }
                }
            }
        }
        moves
    })
}

/// A subtraction set's rule: take `s` tokens for any `s` in the set.
fn subtraction_rule(set: Vec<usize>) -> Box<Rule> {
    Box::new(move |n| {
        set.iter()
            .filter(|&&s| s <= n)
            .map(|&s| if s == n { vec![] } else { vec![n - s] })
            .collect()
    })
}

/// Every move of a position: which heap size moves, and to what (sorted).
fn moves(rule: &Rule, heaps: &Heaps) -> Vec<(usize, Heaps, Heaps)> {
    let sizes: BTreeSet<usize> = heaps.iter().copied().collect();
    let mut found = Vec::new();
    for from in sizes {
        let at = heaps.iter().position(|&h| h == from).unwrap();
        for mut to in rule(from) {
            to.sort_unstable();
            let mut after = heaps.clone();
            after.remove(at);
            after.extend(&to);
            after.sort_unstable();
            found.push((from, to, after));
        }
    }
    found
}

/// Whether the player to move loses, by search of the whole game tree.
fn is_p(rule: &Rule, heaps: &Heaps, memo: &mut HashMap<Heaps, bool>) -> bool {
    if let Some(&p) = memo.get(heaps) {
        return p;
    }
    let p = moves(rule, heaps)
        .into_iter()
        .all(|(_, _, after)| !is_p(rule, &after, memo));
    memo.insert(heaps.clone(), p);
    p
}

/// `nimseq FAMILY value GAME HEAPS --format json` against the brute force of `rule`.
fn check(family: &str, game: &str, rule: &Rule, heaps: &[usize], memo: &mut HashMap<Heaps, bool>) {
    let list: Vec<String> = heaps.iter().map(usize::to_string).collect();
    let out = nimseq()
        .args([family, "value", game, &list.join(","), "--format", "json"])
        .output()
        .expect("nimseq runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut sorted = heaps.to_vec();
    sorted.sort_unstable();
    let p = is_p(rule, &sorted, memo);
    let what = format!("{family} {game} {heaps:?}: {json}");
    assert_eq!(json["outcome"], if p { "P" } else { "N" }, "{what}");
    assert_eq!(json["nim_sum"] == 0, p, "{what}");
    let want: BTreeSet<(usize, Heaps)> = moves(rule, &sorted)
        .into_iter()
        .filter(|(_, _, after)| is_p(rule, after, memo))
        .map(|(from, to, _)| (from, to))
        .collect();
    let got: BTreeSet<(usize, Heaps)> = json["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let index = m["index"].as_u64().unwrap() as usize;
            let from = m["from"].as_u64().unwrap() as usize;
            assert_eq!(heaps[index], from, "{what}");
            let mut to: Heaps = m["to"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_u64().unwrap() as usize)
                .collect();
            to.sort_unstable();
            (from, to)
        })
        .collect();
    assert_eq!(got, want, "{what}");
}

/// A few random heaps, with total size at most `total`.
fn random_heaps(rng: &mut StdRng, total: usize) -> Vec<usize> {
    let count = rng.random_range(1..=4);
    (0..count)
        .map(|_| rng.random_range(0..=total / count))
        .collect()
}

fn octal_positions_equal_the_brute_force() {
    let seed = fresh_seed();
    eprintln!("seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    /// The code as typed, its digits, which have a `!`, and the heaps.
    type Case = (String, Vec<u8>, Vec<bool>, Vec<usize>);
    let mut cases: Vec<Case> = vec![
        ("0.77".into(), vec![0, 7, 7], vec![false; 3], vec![3, 5, 8]),
        ("0.77".into(), vec![0, 7, 7], vec![false; 3], vec![4, 4]),
        ("0.07".into(), vec![0, 0, 7], vec![false; 3], vec![2, 6, 7]),
        ("4.07".into(), vec![4, 0, 7], vec![false; 3], vec![5, 9]),
        ("4!.0".into(), vec![4], vec![true], vec![5, 7, 9]),
        ("0.3F".into(), vec![0, 3, 15], vec![false; 3], vec![5, 6]),
    ];
    for k in 0..16 {
        // Half octal, half hexadecimal with a `!` now and then (three heaps where bit 8 is set).
        let base = if k % 2 == 0 { 8 } else { 16 };
        let mut digits: Vec<u8> = (0..rng.random_range(0..=2))
            .map(|_| rng.random_range(0..base))
            .collect();
        digits.push(rng.random_range(1..base));
        let d0 = [0u8, 4, 8, 12][rng.random_range(0..base as usize / 4)];
        let digits = [vec![d0], digits].concat();
        let unequal: Vec<bool> = digits
            .iter()
            .map(|_| base == 16 && rng.random_bool(0.4))
            .collect();
        let written: Vec<String> = digits
            .iter()
            .zip(&unequal)
            .map(|(&d, &u)| format!("{d:X}{}", if u { "!" } else { "" }))
            .collect();
        let code = format!("{}.{}", written[0], written[1..].concat());
        let heaps = random_heaps(&mut rng, if base == 8 { 18 } else { 14 });
        cases.push((code, digits, unequal, heaps));
    }
    for (code, digits, unequal, heaps) in cases {
        let rule = octal_rule(digits, unequal);
        check("octal", &code, &*rule, &heaps, &mut HashMap::new());
    }
}

fn subtraction_positions_equal_the_brute_force() {
    let seed = fresh_seed();
    eprintln!("seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cases = vec![
        (vec![1, 3, 4], vec![7, 9]),
        (vec![3, 8, 15], vec![10, 20, 5]),
    ];
    for _ in 0..16 {
        let mut set: Vec<usize> = (0..rng.random_range(1..=4))
            .map(|_| rng.random_range(1..=12))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        set.sort_unstable();
        cases.push((set, random_heaps(&mut rng, 40)));
    }
    for (set, heaps) in cases {
        let text: Vec<String> = set.iter().map(usize::to_string).collect();
        let rule = subtraction_rule(set);
        check("sub", &text.join(","), &*rule, &heaps, &mut HashMap::new());
    }
}

/// Malformed heaps are refused in one line, exit code 2.
fn bad_heaps_are_refused() {
    for (args, says) in [
        (&["octal", "value", "0.77", "3,x"][..], "found 'x'"),
        (&["sub", "value", "1,3,4", ""][..], "found ''"),
        (
            &["octal", "value", "0.07", "99999999999999"][..],
            "over the memory budget",
        ),
    ] {
        let out = nimseq().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

trials!(
    octal_positions_equal_the_brute_force,
    subtraction_positions_equal_the_brute_force,
    bad_heaps_are_refused,
);
