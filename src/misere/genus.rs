//! The genus of a game under misère play, from the genera of its options (docs/misere.md,
//! "The genus").
//!
//! The genus `g^(γ0 γ1 γ2 ...)` holds `g = G+(G)`, the normal-play value, and
//! `γk = G-(G + *2 + ... + *2)` with `k` copies of `*2`. Three facts make it computable heap by
//! heap (each proved in docs/misere.md):
//! * `γ0 = mex{γ0 of the options}`, or 1 when there are none;
//! * `γk = mex({γk of the options} ∪ {γ(k-1), γ(k-1) xor 1})` for `k >= 1`: the moves in a
//!   `*2` leave `G + (k-1)*2 + *1` and `G + (k-1)*2`, and `G-(X + *1) = G-(X) xor 1`;
//! * from the index where every option's digits alternate, two equal digits two apart make
//!   the rest alternate too, so a finite superscript holds the whole sequence.

use std::fmt;

/// Most superscript digits kept before the alternation (CGSuite's notation); longer genera are
/// refused, never truncated. Subtraction games and small octal games need 2 to 5.
pub const MAX_SUP: usize = 24;

/// A genus: the normal-play value, the misère digits up to where they alternate, and whether the
/// game is misère-equivalent to the nim heap `*g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    g: u32,
    /// `γ0 .. γ(len-1)`; every later digit repeats the last two in turn.
    sup: [u16; MAX_SUP],
    len: u8,
    nim_heap: bool,
}

/// A genus whose digits do not settle within [`MAX_SUP`], or a digit past `u16`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a genus needs more than {MAX_SUP} superscript digits (or a digit over 65535): beyond what nimseq computes"
)]
pub struct GenusTooLong;

/// `G-(*g)`, the misère value of the nim heap `*g`: `g` itself, but 0 and 1 exchanged (and of
/// any heap of a subtraction game of normal value `g`, docs/misere.md, Theorem 6).
pub fn nim_heap_minus(g: u32) -> u32 {
    if g <= 1 { 1 - g } else { g }
}

/// The least value not in the set of `bits` (values below 64) and `more`.
fn mex(bits: u64, more: &[u32]) -> u32 {
    let mut v = bits.trailing_ones();
    while more.contains(&v) {
        v += 1;
        while v < 64 && bits >> v & 1 == 1 {
            v += 1;
        }
    }
    v
}

/// Collects values for a mex: small ones as bits, the rare large ones in a list.
#[derive(Default)]
struct Seen {
    bits: u64,
    more: Vec<u32>,
}

impl Seen {
    fn insert(&mut self, v: u32) {
        if v < 64 {
            self.bits |= 1 << v;
        } else {
            self.more.push(v);
        }
    }

    fn mex(&self) -> u32 {
        mex(self.bits, &self.more)
    }
}

impl Genus {
    /// The genus of the game with no move (`*0`): `0^120`.
    pub fn zero() -> Self {
        Self::nim_heap(0).expect("*0 has a genus")
    }

    /// The genus of the nim heap `*g`: `0^120`, `1^031`, else `g^(g, g xor 2)`.
    pub fn nim_heap(g: u32) -> Result<Self, GenusTooLong> {
        if g <= 1 {
            let mut sup = [0; MAX_SUP];
            sup[..3].copy_from_slice(&[1 - g as u16, 2 + g as u16, g as u16]);
            return Ok(Genus {
                g,
                sup,
                len: 3,
                nim_heap: true,
            });
        }
        let d = u16::try_from(g).map_err(|_| GenusTooLong)?;
        let mut sup = [0; MAX_SUP];
        sup[..2].copy_from_slice(&[d, d ^ 2]);
        Ok(Genus {
            g,
            sup,
            len: 2,
            nim_heap: true,
        })
    }

    /// The genus of a game whose options have the genera `options` (any order, repeats
    /// allowed); none is the game `*0`.
    pub fn from_options(options: &[Genus]) -> Result<Self, GenusTooLong> {
        if options.is_empty() {
            return Ok(Self::zero());
        }
        let mut plus = Seen::default();
        // From `settled` on, every option's digits alternate.
        let mut settled = 0;
        for o in options {
            plus.insert(o.g);
            settled = settled.max(usize::from(o.len) - 2);
        }
        let g = plus.mex();
        let mut digits = [0u32; MAX_SUP + 2];
        let mut k = 0;
        loop {
            if k == digits.len() {
                return Err(GenusTooLong);
            }
            let mut seen = Seen::default();
            if k > 0 {
                seen.insert(digits[k - 1]);
                seen.insert(digits[k - 1] ^ 1);
            }
            for o in options {
                seen.insert(u32::from(o.digit(k)));
            }
            digits[k] = seen.mex();
            // Two equal digits two apart, both past where the options settled: the digits
            // alternate from k - 2 on (each is the same function of the one before).
            if k >= settled + 2 && digits[k] == digits[k - 2] {
                break;
            }
            k += 1;
        }
        // Digits 0..k-1 and the alternation; trim to the shortest form (two at least).
        let mut len = k;
        while len > 2 && digits[len - 1] == digits[len - 3] {
            len -= 1;
        }
        let mut sup = [0u16; MAX_SUP];
        for (s, &d) in sup.iter_mut().zip(&digits[..len]) {
            *s = u16::try_from(d).map_err(|_| GenusTooLong)?;
        }
        if len > MAX_SUP {
            return Err(GenusTooLong);
        }
        let gamma0 = digits[0];
        // Options all nim heaps: the game is the nim heap *g exactly when G- is what *g has
        // (docs/misere.md, "Nim heaps").
        let nim_heap = options.iter().all(|o| o.nim_heap) && gamma0 == nim_heap_minus(g);
        Ok(Genus {
            g,
            sup,
            len: len as u8,
            nim_heap,
        })
    }

    /// `G+`, the normal-play nim value.
    pub fn plus(&self) -> u32 {
        self.g
    }

    /// `G-`, the misère nim value: `γ0`.
    pub fn minus(&self) -> u32 {
        u32::from(self.sup[0])
    }

    /// `γk = G-(G + k copies of *2)`, for any `k`.
    pub fn digit(&self, k: usize) -> u16 {
        let len = usize::from(self.len);
        if k < len {
            self.sup[k]
        } else {
            self.sup[len - 2 + ((len ^ k) & 1)]
        }
    }

    /// The superscript up to the alternation, as CGSuite prints a wild genus.
    pub fn superscript(&self) -> &[u16] {
        &self.sup[..usize::from(self.len)]
    }

    /// Whether the game is misère-equivalent to the nim heap `*g` (printed as plain `g`).
    pub fn is_nim_heap(&self) -> bool {
        self.nim_heap
    }
}

/// CGSuite's notation: `g` for a nim heap, else `g^` and the superscript, in parentheses with
/// commas once a digit has two figures (`6^(1,9,10,8)`).
impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.g)?;
        if self.nim_heap {
            return Ok(());
        }
        let sup = self.superscript();
        if sup.iter().all(|&d| d < 10) {
            f.write_str("^")?;
            sup.iter().try_for_each(|d| write!(f, "{d}"))
        } else {
            let list: Vec<String> = sup.iter().map(u16::to_string).collect();
            write!(f, "^({})", list.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nim heaps *0, *1, *2, ... built from their options.
    fn heaps(n: usize) -> Vec<Genus> {
        let mut h: Vec<Genus> = Vec::new();
        for _ in 0..n {
            let next = Genus::from_options(&h).unwrap();
            h.push(next);
        }
        h
    }

    #[test]
    fn nim_heaps_have_their_published_genera() {
        // Winning Ways, chapter 13: 0^120, 1^031, then n^(n, n xor 2).
        let h = heaps(12);
        assert_eq!(h[0].superscript(), &[1, 2, 0]);
        assert_eq!(h[1].superscript(), &[0, 3, 1]);
        for (n, heap) in h.iter().enumerate() {
            assert_eq!(Genus::nim_heap(n as u32), Ok(*heap), "*{n}");
        }
        assert_eq!(Genus::nim_heap(1 << 16), Err(GenusTooLong));
        for (n, heap) in h.iter().enumerate().skip(2) {
            let n16 = n as u16;
            assert_eq!(heap.superscript(), &[n16, n16 ^ 2], "*{n}");
            assert!(heap.is_nim_heap());
            assert_eq!(heap.to_string(), n.to_string());
        }
        assert_eq!((h[0].minus(), h[1].minus(), h[5].minus()), (1, 0, 5));
    }

    #[test]
    fn games_that_are_not_nim_heaps() {
        let h = heaps(4);
        // {*2} is 2#, of genus 0^0 in Conway's notation; nimseq prints the digits to the
        // alternation, 0^02.
        let two_sharp = Genus::from_options(&[h[2]]).unwrap();
        assert!(!two_sharp.is_nim_heap());
        assert_eq!(two_sharp.to_string(), "0^02");
        // {*1} and {*0, *2} are *0 and *1 (their extra options reverse).
        assert_eq!(Genus::from_options(&[h[1]]).unwrap(), h[0]);
        assert_eq!(Genus::from_options(&[h[0], h[2]]).unwrap(), h[1]);
        // Digits of two figures are listed in parentheses: {*0, ..., *9, 2#} has
        // g = G- = 10 but is no nim heap, and γ1 = 8.
        let mut options = heaps(10);
        options.push(two_sharp);
        let wide = Genus::from_options(&options).unwrap();
        assert_eq!(wide.to_string(), "10^(10,8)");
        assert_eq!(mex(0b1011, &[]), 2);
        assert_eq!(mex(u64::MAX, &[64, 65]), 66);
    }
}
