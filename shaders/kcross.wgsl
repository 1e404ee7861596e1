// Inverse k-cross component values, one level of live cells per dispatch (spec kcross.md).
//
// The host (src/kcross/gpu.rs) lays out the table exactly as src/kcross/layout.rs does: blocks
// (E, S) of run vectors in colex rank order, `bits` (4 or 8) per state in u32 words, each block
// on fresh words, all words zero at the start. One invocation walks the states of one word.
// The table spreads over as many storage bindings as it needs: the host replaces the table
// block below (src/gpu/segments.rs) with one binding per segment, and with 64-bit indices
// (`Idx`) where the table or a block passes 32 bits. The option ranking follows
// src/kcross/pieces.rs (recomputed per vector here rather than kept up to date).
//
// A vector that leads its reversal in colex order gets the mex of its options, OR-ed into its
// own place and its reversal's (reversal keeps the value); the others are left to their
// reversal's invocation. Words start at zero, so OR-ing nibbles in any order is exact.

struct Params {
    k: u32,
    n: u32,
    e: u32,
    bits: u32,
    // This dispatch covers `count` words of level e from word (first_lo, first_hi).
    first_lo: u32,
    first_hi: u32,
    count: u32,
    // Entry offsets of the contrib and starts sections of the inputs; counts start at 0.
    contrib_at: u32,
    starts_at: u32,
    // The spare word past the table: the least S of a block of this level where a value did
    // not fit `bits` (0xffffffff: none; the host resets it).
    flag_lo: u32,
    flag_hi: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// The inputs: counts f(i, c, s), then contrib(j, x, p), both at (i * (k - 1) + c) * (n + 1) + s,
// then the first word of each block (E, S) at E * (n + 1) + S, with a final sentinel.
// table: begin
alias Idx = u32;
fn idx(lo: u32, hi: u32) -> Idx {
    return lo;
}
fn input_idx(i: u32) -> Idx {
    return input(i);
}
@group(0) @binding(1) var<storage, read> inputs: array<u32>;
fn input(i: u32) -> u32 {
    return inputs[i];
}
@group(0) @binding(2) var<storage, read_write> seg0: array<atomic<u32>>;
fn segment_of(w: Idx) -> u32 {
    return u32(w >> 0u) / 1073741824u;
}
fn load_word(w: Idx) -> u32 {
    return atomicLoad(&seg0[w]);
}
fn or_word(w: Idx, bits: u32) {
    atomicOr(&seg0[w], bits);
}
fn min_word(w: Idx, x: u32) {
    atomicMin(&seg0[w], x);
}
// table: end

const MAX_LEN: u32 = 64u;

var<private> v: array<u32, 64>;
var<private> p: array<u32, 65>;
var<private> r: array<Idx, 65>;
var<private> q: array<u32, 65>;
var<private> rr: array<Idx, 65>;
var<private> t: array<Idx, 66>;

fn at(i: u32, c: u32, s: u32) -> u32 {
    return (i * (params.k - 1u) + c) * (params.n + 1u) + s;
}

fn count(i: u32, c: u32, s: u32) -> Idx {
    return input_idx(at(i, c, s));
}

fn contrib(j: u32, x: u32, s: u32) -> Idx {
    return input_idx(params.contrib_at + at(j, x, s));
}

fn block_start(e: u32, s: u32) -> Idx {
    return input_idx(params.starts_at + e * (params.n + 1u) + s);
}

fn block_len(e: u32, s: u32) -> Idx {
    return count(e + 1u, params.k - 2u, s);
}

fn per_word() -> u32 {
    return 32u / params.bits;
}

// Shifts, not divisions: 64-bit division is slow where Idx is u64.
fn words_per(rank: Idx) -> Idx {
    return rank >> (5u - countTrailingZeros(params.bits));
}

fn shift_of(rank: Idx) -> u32 {
    return params.bits * (u32(rank) & (per_word() - 1u));
}

fn value_mask() -> u32 {
    return (1u << params.bits) - 1u;
}

fn value_at(e: u32, s: u32, rank: Idx) -> u32 {
    let word = load_word(block_start(e, s) + words_per(rank));
    return (word >> shift_of(rank)) & value_mask();
}

// v[0..len) := the sequence of rank `rank` with sum `sum` (colex).
fn fill(len: u32, sum: u32, rank_in: Idx) {
    let top = params.k - 2u;
    var s = sum;
    var rank = rank_in;
    var j = len;
    loop {
        if j == 0u {
            break;
        }
        j = j - 1u;
        var x = 0u;
        loop {
            let here = count(j, top - x, s - x);
            if rank < here {
                break;
            }
            rank = rank - here;
            x = x + 1u;
        }
        v[j] = x;
        s = s - x;
    }
}

// The next vector of the block in colex order (see Layout::advance).
fn advance(e: u32) {
    let top = params.k - 2u;
    var before = 0u;
    for (var i = 0u; i <= e; i = i + 1u) {
        let x = v[i] + 1u;
        var cap = top;
        if i < e {
            cap = top - v[i + 1u];
        }
        if i > 0u && before >= 1u && x <= cap && count(i, top - x, before - 1u) > Idx(0u) {
            v[i] = x;
            fill(i, before - 1u, Idx(0u));
            return;
        }
        before = before + v[i];
    }
}

fn load_sums(e: u32) {
    p[0] = 0u;
    r[0] = Idx(0u);
    q[0] = 0u;
    rr[0] = Idx(0u);
    for (var j = 0u; j <= e; j = j + 1u) {
        let pj = p[j] + v[j];
        p[j + 1u] = pj;
        r[j + 1u] = r[j] + contrib(j, v[j], pj);
        let x = v[e - j];
        let qj = q[j] + x;
        q[j + 1u] = qj;
        rr[j + 1u] = rr[j] + contrib(j, x, qj);
    }
    t[e + 1u] = Idx(0u);
    for (var j = e; j >= 1u; j = j - 1u) {
        t[j] = t[j + 1u] + contrib(j - 1u, v[j], p[j + 1u] + 1u);
    }
}

// The XOR of the pieces left by filling live cell i (1-based).
fn option_value(e: u32, i: u32) -> u32 {
    let k = params.k;
    let m = v[i - 1u] + 1u + v[i];
    let left_dies = i >= 2u && v[i - 2u] + m + 1u >= k;
    let right_dies = i < e && m + v[i + 1u] + 1u >= k;
    let pl = p[i - 1u];
    let rl = r[i - 1u];
    let qr = q[e - i];
    let rrr = rr[e - i];
    if !left_dies && !right_dies {
        if e < 2u {
            return 0u;
        }
        let s = pl + m;
        return value_at(e - 1u, p[e + 1u] + 1u, rl + contrib(i - 1u, m, s) + t[i + 1u]);
    }
    var g = 0u;
    if left_dies {
        if i >= 3u {
            g = g ^ value_at(i - 2u, pl, rl);
        }
    } else if i >= 2u {
        let s = pl + m;
        g = g ^ value_at(i - 1u, s, rl + contrib(i - 1u, m, s));
    }
    if right_dies {
        if e >= i + 2u {
            g = g ^ value_at(e - i - 1u, qr, rrr);
        }
    } else if e > i {
        let s = qr + m;
        g = g ^ value_at(e - i, s, rrr + contrib(e - i, m, s));
    }
    return g;
}

// Whether v[0..=e] comes no later than its reversal in colex order.
fn leads_its_reversal(e: u32) -> bool {
    for (var j = 0u; j <= e / 2u; j = j + 1u) {
        if v[e - j] != v[j] {
            return v[e - j] < v[j];
        }
    }
    return true;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let local = gid.y * groups.x * 64u + gid.x;
    if local >= params.count {
        return;
    }
    let word = idx(params.first_lo, params.first_hi) + Idx(local);
    let e = params.e;
    // The block of this word: the last S whose block starts at or before it.
    var s = 0u;
    for (var c = 1u; c <= params.n - e; c = c + 1u) {
        if block_start(e, c) <= word {
            s = c;
        }
    }
    let start = block_start(e, s);
    let len = block_len(e, s);
    let first = (word - start) * Idx(per_word());
    fill(e + 1u, s, first);
    var own = 0u;
    for (var slot = 0u; slot < per_word(); slot = slot + 1u) {
        let rank = first + Idx(slot);
        if rank >= len {
            break;
        }
        if leads_its_reversal(e) {
            load_sums(e);
            // Option values are below 2^bits <= 256.
            var seen: array<u32, 8>;
            for (var i = 1u; i <= e; i = i + 1u) {
                let g = option_value(e, i);
                seen[g / 32u] = seen[g / 32u] | (1u << (g % 32u));
            }
            var g = 0u;
            for (var w = 0u; w < 8u; w = w + 1u) {
                if seen[w] != 0xffffffffu {
                    g = w * 32u + countTrailingZeros(~seen[w]);
                    break;
                }
            }
            if g > value_mask() {
                min_word(idx(params.flag_lo, params.flag_hi), s);
            }
            g = g & value_mask();
            own = own | (g << (params.bits * slot));
            let mirror = rr[e + 1u];
            if mirror != rank && g != 0u {
                or_word(start + words_per(mirror), g << shift_of(mirror));
            }
        }
        if rank + Idx(1u) < len {
            advance(e);
        }
    }
    if own != 0u {
        or_word(word, own);
    }
}
