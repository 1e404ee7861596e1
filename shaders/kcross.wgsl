// Inverse k-cross component values, one level of live cells per dispatch (spec kcross.md).
//
// The host (src/kcross/gpu.rs) lays out the table exactly as src/kcross/layout.rs does: blocks
// (E, S) of run vectors in colex rank order, `bits` (4 or 8) per state in u32 words, each block
// on fresh words, all words zero at the start. One invocation walks the states of one word.
// The table is split over five storage bindings of `seg_words` words each, so it may exceed
// one binding. The option ranking follows src/kcross/pieces.rs (recomputed per vector here
// rather than kept up to date).
//
// A vector that leads its reversal in colex order gets the mex of its options, OR-ed into its
// own place and its reversal's (reversal keeps the value); the others are left to their
// reversal's invocation. Words start at zero, so OR-ing nibbles in any order is exact.

struct Params {
    k: u32,
    n: u32,
    e: u32,
    bits: u32,
    // This dispatch covers words [batch_lo, batch_hi) of level e.
    batch_lo: u32,
    batch_hi: u32,
    seg_words: u32,
    // Offsets (in u32) of the contrib and starts sections of `tables`; counts start at 0.
    contrib_at: u32,
    starts_at: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// counts f(i, c, s), then contrib(j, x, p), both at (i * (k - 1) + c) * (n + 1) + s, then the
// first word of each block (E, S) at E * (n + 1) + S, with a final sentinel.
@group(0) @binding(1) var<storage, read> tables: array<u32>;
// The lowest word index where a value did not fit `bits` (0xffffffff: none).
@group(0) @binding(2) var<storage, read_write> overflow: atomic<u32>;
@group(0) @binding(3) var<storage, read_write> seg0: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> seg1: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> seg2: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> seg3: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> seg4: array<atomic<u32>>;

const MAX_LEN: u32 = 64u;

var<private> v: array<u32, 64>;
var<private> p: array<u32, 65>;
var<private> r: array<u32, 65>;
var<private> q: array<u32, 65>;
var<private> rr: array<u32, 65>;
var<private> t: array<u32, 66>;

fn load_word(w: u32) -> u32 {
    let o = w % params.seg_words;
    switch (w / params.seg_words) {
        case 0u: { return atomicLoad(&seg0[o]); }
        case 1u: { return atomicLoad(&seg1[o]); }
        case 2u: { return atomicLoad(&seg2[o]); }
        case 3u: { return atomicLoad(&seg3[o]); }
        default: { return atomicLoad(&seg4[o]); }
    }
}

fn or_word(w: u32, bits: u32) {
    if bits == 0u {
        return;
    }
    let o = w % params.seg_words;
    switch (w / params.seg_words) {
        case 0u: { atomicOr(&seg0[o], bits); }
        case 1u: { atomicOr(&seg1[o], bits); }
        case 2u: { atomicOr(&seg2[o], bits); }
        case 3u: { atomicOr(&seg3[o], bits); }
        default: { atomicOr(&seg4[o], bits); }
    }
}

fn idx(i: u32, c: u32, s: u32) -> u32 {
    return (i * (params.k - 1u) + c) * (params.n + 1u) + s;
}

fn count(i: u32, c: u32, s: u32) -> u32 {
    return tables[idx(i, c, s)];
}

fn contrib(j: u32, x: u32, s: u32) -> u32 {
    return tables[params.contrib_at + idx(j, x, s)];
}

fn block_start(e: u32, s: u32) -> u32 {
    return tables[params.starts_at + e * (params.n + 1u) + s];
}

fn block_len(e: u32, s: u32) -> u32 {
    return count(e + 1u, params.k - 2u, s);
}

fn per_word() -> u32 {
    return 32u / params.bits;
}

fn value_mask() -> u32 {
    return (1u << params.bits) - 1u;
}

fn value_at(e: u32, s: u32, rank: u32) -> u32 {
    let word = load_word(block_start(e, s) + rank / per_word());
    return (word >> (params.bits * (rank % per_word()))) & value_mask();
}

// v[0..len) := the sequence of rank `rank` with sum `sum` and last run <= cap (colex).
fn fill(len: u32, sum: u32, cap: u32, rank_in: u32) {
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
        if i > 0u && before >= 1u && x <= cap && count(i, top - x, before - 1u) > 0u {
            v[i] = x;
            fill(i, before - 1u, top - x, 0u);
            return;
        }
        before = before + v[i];
    }
}

fn load_sums(e: u32) {
    p[0] = 0u;
    r[0] = 0u;
    q[0] = 0u;
    rr[0] = 0u;
    for (var j = 0u; j <= e; j = j + 1u) {
        let pj = p[j] + v[j];
        p[j + 1u] = pj;
        r[j + 1u] = r[j] + contrib(j, v[j], pj);
        let x = v[e - j];
        let qj = q[j] + x;
        q[j + 1u] = qj;
        rr[j + 1u] = rr[j] + contrib(j, x, qj);
    }
    t[e + 1u] = 0u;
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
    let word = params.batch_lo + gid.y * groups.x * 64u + gid.x;
    if word >= params.batch_hi {
        return;
    }
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
    let first = (word - start) * per_word();
    fill(e + 1u, s, params.k - 2u, first);
    var own = 0u;
    for (var slot = 0u; slot < per_word(); slot = slot + 1u) {
        let rank = first + slot;
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
                atomicMin(&overflow, word);
            }
            g = g & value_mask();
            own = own | (g << (params.bits * slot));
            let mirror = rr[e + 1u];
            if mirror != rank {
                or_word(start + mirror / per_word(), g << (params.bits * (mirror % per_word())));
            }
        }
        if rank + 1u < len {
            advance(e);
        }
    }
    or_word(word, own);
}
