//! One code under misère play (`nimseq octal seq CODE --play misere`): each heap's misère value
//! and genus, by the genera of every sum the heaps reach ([`SumGenera`]): exact and exhaustive,
//! so for the first heaps only (docs/misere.md, "Take-and-break codes"). Past them, the
//! misère quotient of the heaps still gives each heap's outcome ([`describe_past_sums`]).

use std::fmt;

use serde::Serialize;

use super::code::OctalCode;
use super::seq::{look_lengths, window};
use crate::memory::{Budget, OverBudget};
use crate::misere::sums::{POSITION_BYTES, SumGenera, code_moves, few_sums_below, positions_below};
use crate::misere::{Genus, GenusTooLong, MisereHeaps};
use crate::octal::quotient::{QuotientUsed, pretension_within};
use crate::period::certify_windowed;

/// Everything `nimseq octal seq CODE --play misere` shows.
#[derive(Clone, Debug, Serialize)]
pub struct OctalMisereReport {
    pub code: String,
    #[serde(flatten)]
    pub heaps: MisereHeaps,
    /// Whether every move leaves at most one heap (then a genus period is looked for).
    #[serde(skip)]
    pub one_heap: bool,
    /// The genus period and its window, when one was proved (`null` otherwise, and always for a
    /// code that splits heaps, whose genus period is not looked for).
    pub certificate: Option<GenusCertificate>,
    /// Sums of heaps whose genus was computed on the way.
    pub positions: usize,
    /// Where the genera stop short of the heaps asked for: the quotient that gave every heap's
    /// outcome ([`describe_past_sums`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotient: Option<QuotientUsed>,
}

/// Why a code's misère report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum OctalMisereError {
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error("{code}, heap {heap}: {source}")]
    GenusTooLong {
        code: String,
        heap: usize,
        source: GenusTooLong,
    },
}

/// Bytes the genera of the heaps below `len` may take: every sum of heaps with a total below
/// `len` may be reached where a move leaves two heaps or more, the heaps alone otherwise.
pub fn memory(code: &OctalCode, len: usize) -> u64 {
    let positions = if code.max_heaps() > 1 {
        positions_below(len.saturating_sub(1))
    } else {
        len as u64
    };
    positions.saturating_mul(POSITION_BYTES)
}

/// The misère values and genera of the heaps `0..len` of `code`, refused first if the sums they
/// reach may not fit `budget`. For a code whose moves leave at most one heap, also the genus
/// period, looked for as `octal seq` looks for the normal one, within `max_len` heaps.
pub fn describe(
    code: &OctalCode,
    len: usize,
    max_len: usize,
    budget: Budget,
) -> Result<OctalMisereReport, OctalMisereError> {
    let one_heap = code.max_heaps() <= 1;
    let reach = if one_heap { len.max(max_len) } else { len };
    budget.check(memory(code, reach), || {
        format!(
            "the misère genera of {} for --len {len} (every sum of heaps below {reach})",
            code.ascii()
        )
    })?;
    let mut sums = SumGenera::new(code_moves(code));
    let mut genera = Vec::with_capacity(len);
    let mut extend = |genera: &mut Vec<Genus>, to: usize| {
        for n in genera.len()..to {
            let genus =
                sums.genus(&[n as u32])
                    .map_err(|source| OctalMisereError::GenusTooLong {
                        code: code.ascii(),
                        heap: n,
                        source,
                    })?;
            genera.push(genus);
        }
        Ok::<_, OctalMisereError>(())
    };
    let mut certificate = None;
    if one_heap {
        let window = window(code);
        for at in look_lengths(code, max_len) {
            extend(&mut genera, at)?;
            if let Some(proof) = certify_windowed(&genera[..], window) {
                let minus: Vec<u32> = genera.iter().map(Genus::minus).collect();
                let values = certify_windowed(&minus[..], window)
                    .expect("the genus window proves the misère values' period");
                certificate = Some(GenusCertificate {
                    period: proof.period,
                    preperiod: proof.preperiod,
                    misere_period: values.period,
                    misere_preperiod: values.preperiod,
                    from: proof.preperiod,
                    to: window.end(proof.preperiod, proof.period),
                    checked_len: at,
                    window: window.name(),
                });
                break;
            }
        }
    }
    extend(&mut genera, len)?;
    Ok(OctalMisereReport {
        code: code.to_string(),
        heaps: MisereHeaps::new(&genera[..len]),
        one_heap,
        certificate,
        positions: sums.len(),
        quotient: None,
    })
}

/// [`describe`], or, where the sums below `len` of a code that splits heaps may not fit
/// `budget`: the genera of the first heaps (those whose sums number at most
/// [`SINGLE_HEAP_POSITIONS`](crate::misere::sums::SINGLE_HEAP_POSITIONS)) and the outcome of
/// every heap below `len` from the misère quotient of the heaps up to `len - 1`
/// (docs/misere.md, Theorem 7). Refused as [`describe`] refuses where the quotient is not
/// found either, saying why.
pub fn describe_past_sums(
    code: &OctalCode,
    len: usize,
    max_len: usize,
    budget: Budget,
) -> Result<OctalMisereReport, OctalMisereError> {
    if len == 0 || code.max_heaps() <= 1 || budget.fits(memory(code, len)) {
        return describe(code, len, max_len, budget);
    }
    let heap_max = len - 1;
    let why_not = match pretension_within(code, heap_max, budget) {
        Ok(q) => {
            let shown = (1..=len)
                .take_while(|&n| few_sums_below(n - 1, budget))
                .last()
                .unwrap_or(0);
            let mut report = describe(code, shown, shown, budget)?;
            let p_positions = (0..len).filter(|&n| q.is_p(&[n as u32])).collect();
            report.heaps.outcomes_to(p_positions, len);
            report.quotient = Some(QuotientUsed::of(&q, heap_max));
            return Ok(report);
        }
        Err(why) => why,
    };
    budget.check(memory(code, len), || {
        format!(
            "the misère genera of {} for --len {len} (every sum of heaps below {len}; no quotient for the outcomes past them: {why_not})",
            code.ascii()
        )
    })?;
    describe(code, len, max_len, budget)
}

/// The genus period of a code whose moves leave at most one heap, proved by the window of
/// docs/octal.md ("Periods with a certificate": a heap's genus, as its value, is one function
/// of the `t` genera before it); the misère values' own least period from the same window.
#[derive(Clone, Debug, Serialize)]
pub struct GenusCertificate {
    pub period: usize,
    pub preperiod: usize,
    pub misere_period: usize,
    pub misere_preperiod: usize,
    /// `genus(n + period) = genus(n)` checked for `n` in `[from, to)`.
    pub from: usize,
    pub to: usize,
    pub checked_len: usize,
    /// `last-t`.
    pub window: &'static str,
}

impl fmt::Display for OctalMisereReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game         {}", self.code)?;
        write!(f, "{}", self.heaps)?;
        if let Some(q) = &self.quotient {
            writeln!(
                f,
                "outcomes     from {q}: the sums of larger heaps are too many to search"
            )?;
        }
        if !self.one_heap {
            return write!(
                f,
                "sums         {} positions searched (every sum the heaps reach; no period is looked for)",
                self.positions
            );
        }
        let Some(c) = &self.certificate else {
            return write!(
                f,
                "period       none certified within genus(0..{})",
                self.positions
            );
        };
        writeln!(
            f,
            "period       {}, pre-period {} (genus); misère values: period {}, pre-period {}",
            c.period, c.preperiod, c.misere_period, c.misere_preperiod
        )?;
        write!(
            f,
            "certificate  genus(n+{}) = genus(n) for n in [{}, {}), checked within genus(0..{}) (window {})",
            c.period, c.from, c.to, c.checked_len, c.window
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits `γ0 .. γ(k-1)` a genus string of CGSuite's stands for. A plain `g` is a nim
    /// heap; one superscript digit is a tame genus (`g = d`, or both at most 1) or a restive
    /// one, whose later digits CGSuite derives from `g` (tame) or `d` (restive, `d < 4`); a
    /// longer superscript repeats its last two digits (CGSuite's Genus.supDigit).
    fn cgsuite_digits(genus: &str, k: usize) -> Vec<u32> {
        let (g, sup) = match genus.split_once('^') {
            None => (genus.parse::<u32>().unwrap(), vec![]),
            Some((g, s)) => {
                let s = s.trim_start_matches('(').trim_end_matches(')');
                let digits: Vec<u32> = if s.contains(',') {
                    s.split(',').map(|d| d.parse().unwrap()).collect()
                } else {
                    s.chars().map(|c| c.to_digit(10).unwrap()).collect()
                };
                (g.parse().unwrap(), digits)
            }
        };
        (0..k)
            .map(|i| {
                let alternate = ((i & 1) << 1) as u32;
                match sup.len() {
                    0 if i == 0 && g < 2 => 1 - g,
                    0 => g ^ alternate,
                    _ if i < sup.len() => sup[i],
                    1 if sup[0] == g || (sup[0] | g) < 2 => g ^ alternate,
                    1 => (if sup[0] < 4 { sup[0] } else { g }) ^ alternate,
                    n => sup[n - 2 + ((n ^ i) & 1)],
                }
            })
            .collect()
    }

    /// The quaternary game 0.312 against Plambeck's page on it (plambeck.org, "misère octal
    /// games", quaternary games, 0.312, solved 4 February 2003): heaps 1 to 6 have normal values
    /// 1 2 0 2 0 1 and genera 1^03131, 2^20, 0^02, 2^1420, 0^02, 1^13 (each superscript written
    /// out until it repeats), and the genus sequence is periodic of length two from heap 5.
    #[test]
    fn quaternary_312_has_plambecks_genera() {
        let code: OctalCode = "0.312".parse().unwrap();
        let r = describe(&code, 14, 1 << 12, Budget::new(1 << 30)).unwrap();
        let published = [
            (1, "03131"),
            (2, "20"),
            (0, "02"),
            (2, "1420"),
            (0, "02"),
            (1, "13"),
        ];
        for (heap, (g, sup)) in (1..).zip(published) {
            let genus = &r.heaps.genus[heap];
            let want: Vec<u32> = sup.chars().map(|d| d.to_digit(10).unwrap()).collect();
            assert_eq!(
                genus.split('^').next(),
                Some(g.to_string().as_str()),
                "{heap}"
            );
            assert_eq!(
                cgsuite_digits(genus, want.len()),
                want,
                "heap {heap}: {genus}"
            );
        }
        let c = r.certificate.expect("a certified genus period");
        assert_eq!((c.period, c.preperiod), (2, 5));
    }

    /// Kayles to heap 300: far past the sums, the outcomes come from the quotient (order 40,
    /// P-portion 9), and where the genera are computed too their P-positions are the same.
    /// The single-heap P-positions are 1, 4, 9, 12 and 20 (Sibert and Conway).
    #[test]
    fn outcomes_past_the_sums_come_from_the_quotient() {
        let kayles: OctalCode = "0.77".parse().unwrap();
        let r = describe_past_sums(&kayles, 300, 300, Budget::new(4 << 30)).unwrap();
        let q = r.quotient.as_ref().unwrap();
        assert_eq!((q.heap_max, q.order, q.p_portion), (299, 40, 9));
        let shown = r.heaps.misere_values.len();
        assert!((40..300).contains(&shown), "{shown}");
        let from_genera: Vec<usize> = (0..shown)
            .filter(|&n| r.heaps.misere_values[n] == 0)
            .collect();
        let below: Vec<usize> = r
            .heaps
            .p_positions
            .iter()
            .copied()
            .filter(|&n| n < shown)
            .collect();
        assert_eq!(below, from_genera);
        assert_eq!(r.heaps.p_positions, [1, 4, 9, 12, 20]);
        // Within the budget the sums answer alone, as before.
        let r = describe_past_sums(&kayles, 20, 20, Budget::new(4 << 30)).unwrap();
        assert!(r.quotient.is_none() && r.heaps.misere_values.len() == 20);
    }

    /// Random codes of 1 to 4 digits 0-3 (moves that leave at most one heap), fresh seed: every
    /// genus digit of the first heaps equals the game tree's, and the certified genus period
    /// holds on twice as many heaps past the prefix that proved it.
    #[test]
    fn one_heap_codes_equal_the_brute_force_and_keep_their_period() {
        use crate::misere::brute::MisereBrute;
        use rand::{Rng, SeedableRng, rngs::StdRng};
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut certified = 0;
        for _ in 0..30 {
            let digits: String = (0..rng.random_range(1..=4))
                .map(|_| char::from(b'0' + rng.random_range(0..4u8)))
                .collect();
            let Ok(code) = format!("0.{digits}").parse::<OctalCode>() else {
                continue; // no move at all
            };
            let r = describe(&code, 40, 1 << 12, Budget::new(1 << 30)).unwrap();
            let mut brute = MisereBrute::new(code_moves(&code));
            let mut sums = SumGenera::new(code_moves(&code));
            for n in 0..40u32 {
                let genus = sums.genus(&[n]).unwrap();
                assert_eq!(genus.to_string(), r.heaps.genus[n as usize]);
                for k in 0..genus.superscript().len() + 2 {
                    let want = brute.value(&[n], k as u32, 0);
                    assert_eq!(
                        u32::from(genus.digit(k)),
                        want,
                        "{code} heap {n} (seed {seed})"
                    );
                }
            }
            let Some(c) = r.certificate else { continue };
            certified += 1;
            let far = 3 * c.checked_len;
            let genera: Vec<Genus> = (0..far as u32).map(|n| sums.genus(&[n]).unwrap()).collect();
            for n in c.preperiod..far - c.period {
                assert_eq!(
                    genera[n],
                    genera[n + c.period],
                    "{code} heap {n} (seed {seed})"
                );
            }
            let minus: Vec<u32> = genera.iter().map(Genus::minus).collect();
            for n in c.misere_preperiod..far - c.misere_period {
                assert_eq!(
                    minus[n],
                    minus[n + c.misere_period],
                    "{code} heap {n} (seed {seed})"
                );
            }
            if c.preperiod > 0 {
                let q = c.preperiod - 1;
                assert_ne!(
                    genera[q],
                    genera[q + c.period],
                    "{code}: pre-period not least"
                );
            }
        }
        assert!(certified > 10, "{certified} (seed {seed})");
    }

    /// CGSuite's test suite (GameHeapTest.scala), heaps 0..20: misère values and genera of
    /// Kayles, Dawson's Kayles, Grundy's game and 0.3F. The genera are compared digit by digit
    /// (CGSuite shortens tame and restive genera to one digit, as nimseq does not), and as
    /// strings wherever CGSuite prints a nim heap or a full superscript.
    #[test]
    fn cgsuite_heap_games() {
        let cases = [
            (
                "0.77",
                "1,0,2,3,0,1,3,2,1,0,2,4,0,1,2,5,1,6,3,2,0",
                "0,1,2,3,1,4^146,3,2^2,1^1,4^046,2^2,6^46,4^046,1^1,2^2,7^57,1^13,4^64,3^31,2^20,1^031",
            ),
            (
                "0.07",
                "1,1,0,0,2,1,3,0,0,1,1,3,0,2,1,1,0,0,2,1,3",
                "0,0,1,1,2,0,3,1,1,0,3^1431,3,2^0520,2,4^146,0,5^057,2^0520,2,3^1431,3",
            ),
            (
                "4!.0",
                "1,1,1,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2",
                "0,0,0,1,0,2,1,0,2,1,0,2,1,3^1431,2,1,3^1431,2,4^0564,3^1431,0^20",
            ),
            (
                "0.3F",
                "1,0,2,1,0,2,1,0,4,1,0,4,1,0,6,1,0,6,1,0,6",
                "0,1,2,0,1,2,3^1431,4^0564,5^46,3^1431,4^0564,5^4875,6^(1,9,10,8),7^075,8^6875,6^(1,9,10,8),7^075,8^(6,10,8),9^(1,9,12,11,9),10^(0,11,13,9,11),11^(6,10,8)",
            ),
        ];
        for (code, misere, genus) in cases {
            let parsed: OctalCode = code.parse().unwrap();
            let r = describe(&parsed, 21, 1 << 12, Budget::new(1 << 30)).unwrap();
            let list: Vec<String> = r.heaps.misere_values.iter().map(u32::to_string).collect();
            assert_eq!(list.join(","), misere, "{code}");
            // CGSuite's list, split at the commas outside parentheses.
            let mut theirs: Vec<String> = vec![String::new()];
            let mut depth = 0;
            for ch in genus.chars() {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        theirs.push(String::new());
                        continue;
                    }
                    _ => {}
                }
                theirs.last_mut().unwrap().push(ch);
            }
            for (n, (ours, theirs)) in r.heaps.genus.iter().zip(&theirs).enumerate() {
                assert_eq!(
                    cgsuite_digits(ours, 12),
                    cgsuite_digits(theirs, 12),
                    "{code}, heap {n}: {ours} against CGSuite's {theirs}"
                );
                // nimseq calls a heap a nim heap only when every option is one, so a heap it
                // prints plain is plain in CGSuite too; CGSuite also finds nim heaps through
                // reversible options (Kayles 6 = *3) and prints tame genera with one digit.
                let plain = |s: &str| !s.contains('^');
                let long = theirs.split_once('^').is_some_and(|(_, s)| s.len() > 1);
                if plain(ours) || long {
                    assert_eq!(ours, theirs, "{code}, heap {n}");
                } else {
                    eprintln!("{code} heap {n}: {ours} / {theirs}");
                }
            }
        }
    }
}
