//! The reference: the rule of docs/octal.md, rules one heap size at a time, every option
//! listed, O(n^2) for a code that splits. Plain, and shares nothing with the fast path but the
//! code type.

use super::code::OctalCode;

/// `G(0), ..., G(len - 1)` of one heap.
pub fn values(code: &OctalCode, len: usize) -> Vec<u32> {
    let digits = code.digits();
    let mut g: Vec<u32> = Vec::with_capacity(len);
    // seen[v] == n + 1: v is an option of heap n (no clearing between sizes). Values below
    // 2^k xor to values below 2^k, so twice the largest value plus one bounds every option.
    let mut seen: Vec<usize> = vec![0; 2];
    for n in 0..len {
        let stamp = n + 1;
        for (i, &d) in digits.iter().enumerate() {
            if i > n {
                break;
            }
            let left = n - i;
            if d & 1 != 0 && i >= 1 && left == 0 {
                seen[0] = stamp;
            }
            if d & 2 != 0 && i >= 1 && left >= 1 {
                seen[g[left] as usize] = stamp;
            }
            if d & 4 != 0 && left >= 2 {
                for a in 1..=left / 2 {
                    seen[(g[a] ^ g[left - a]) as usize] = stamp;
                }
            }
        }
        let mex = (0..)
            .find(|&v| seen.get(v) != Some(&stamp))
            .expect("a mex exists");
        g.push(mex as u32);
        seen.resize(seen.len().max(2 * mex + 2), 0);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kayles (0.77) and Dawson's Kayles (0.07), as Winning Ways tabulates them.
    #[test]
    fn kayles_and_dawsons_kayles() {
        let kayles: OctalCode = "0.77".parse().unwrap();
        assert_eq!(values(&kayles, 13), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
        let dawson: OctalCode = "0.07".parse().unwrap();
        assert_eq!(values(&dawson, 13), [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]);
    }
}
