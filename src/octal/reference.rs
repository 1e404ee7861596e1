//! The reference: the rule of docs/octal.md, one heap size at a time, every option listed
//! from the code's moves ([`OctalCode::options`]), O(n^2) for a code that splits a heap in
//! two and O(n^3) in three. Plain, and shares nothing with the fast paths but the code type.

use super::code::OctalCode;

/// `G(0), ..., G(len - 1)` of one heap.
pub fn values(code: &OctalCode, len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(len);
    // seen[v] == n + 1: v is an option of heap n (no clearing between sizes). Values below
    // 2^k xor to values below 2^k, so twice the largest value plus one bounds every option.
    let mut seen: Vec<usize> = vec![0; 2];
    for n in 0..len {
        let stamp = n + 1;
        // Slices, not the vectors: their bounds stay in registers across the stores.
        let (values, marks) = (&g[..], &mut seen[..]);
        code.options(n, &mut |heaps| {
            let v = heaps.iter().fold(0, |x, &h| x ^ values[h]);
            marks[v as usize] = stamp;
        });
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
