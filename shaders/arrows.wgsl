// Spider states of the Game of Arrows (spec arrows.md, Proposition 6.1), one wavefront of equal
// total attached length per dispatch or a few (the host splits a wavefront its inputs cannot
// hold at once): one invocation per sorted leg tuple, computing each of
// its stored states (centre n, i, o) as the mex over its options. Options lower the total
// attached length, so they read only earlier wavefronts.
//
// A leg is coded 3h + phi (phi: 0 no arc, 1 in, 2 out; 0 = detached). As in
// src/arrows/spider.rs (Rows), a state is stored once per distinct attached leg x, at
// row(status, other codes) + x, rows numbered by the multiset rank sum_t terms[t][code_t] of the
// other codes (for a centre with an arc, of those after the detached leg's leading 0): a leg's
// options are one row, read in order. Entries are 8 bits (16 once a value passes 254) in u32
// words, over as many bindings as the table needs (the host replaces the table block below,
// src/gpu/segments.rs, and makes Idx u64 where the table passes 32 bits).

struct Params {
    legs: u32,
    // Tuples in this dispatch.
    count: u32,
    // Codes per leg, 3 h_max + 3: entries per row.
    codes: u32,
    // Bits per entry (8 or 16; 32 / bits entries a word).
    bits: u32,
    // Entries of the centre-n block; the i and o blocks of io_block entries follow.
    n_block_lo: u32,
    n_block_hi: u32,
    io_block_lo: u32,
    io_block_hi: u32,
    // Where this dispatch's tuples start in the inputs.
    tuples_at: u32,
    // The spare word past the table: bit 0 set when an entry does not fit `bits`, bit 1 when
    // an option value does not fit the mex set (the host then widens or refuses the table).
    flag_lo: u32,
    flag_hi: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// The inputs: terms[t * codes + c] = C(c + t, t + 1) for t < legs - 1, then from tuples_at
// three words per tuple, two 16-bit codes per word (low half first). The table holds each
// stored state's value plus one, 0 where none is stored (segments start zeroed).
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

fn per_word_log2() -> u32 {
    return 5u - countTrailingZeros(params.bits);
}

fn entry_shift(i: Idx) -> u32 {
    return params.bits * (u32(i) & ((1u << per_word_log2()) - 1u));
}

// The stored value of entry i, minus one.
fn entry(i: Idx) -> u32 {
    let mask = (1u << params.bits) - 1u;
    return ((load_word(i >> per_word_log2()) >> entry_shift(i)) & mask) - 1u;
}

fn raise_flag(bit: u32) {
    or_word(idx(params.flag_lo, params.flag_hi), bit);
}

const MAX_LEGS: u32 = 6u;
const STAR: u32 = 0u;
const IN: u32 = 1u;
const OUT: u32 = 2u;
// Statuses: IN and OUT arcs give i (1) and o (2), numerically the directions.
const N: u32 = 0u;
const F: u32 = 3u;
// What degenerate() returns for a state that needs its options.
const UNKNOWN: u32 = 0xffffffffu;
// Option values below 2048 (a leg of h edges gives nim heaps below h).
const MEX_WORDS: u32 = 64u;

// rho(k; delta, phi): a run whose near end is blocked in direction delta, far end phi.
fn rho(k: u32, delta: u32, phi: u32) -> u32 {
    if phi == STAR {
        return k;
    }
    if phi == delta {
        return k % 2u;
    }
    if k == 0u {
        return 0u;
    }
    return (k + 1u) % 2u;
}

// rho*(k; phi): a run whose near end is free.
fn rho_free(k: u32, phi: u32) -> u32 {
    if phi == STAR {
        return k % 2u;
    }
    return k;
}

// The centre's status after gaining an arc in direction delta.
fn times(s: u32, delta: u32) -> u32 {
    if s == N || s == delta {
        return delta;
    }
    return F;
}

// The closed forms (N1)-(N3), or UNKNOWN when the state needs its options.
fn degenerate(s: u32, codes: array<u32, 6>) -> u32 {
    var attached = 0u;
    var free = 0u;
    var first = 0u;
    for (var t = 0u; t < params.legs; t++) {
        let c = codes[t];
        if c != 0u {
            free ^= rho_free(c / 3u, c % 3u);
            if attached == 0u {
                first = c;
            }
            attached += 1u;
        }
    }
    if s == F {
        return free;
    }
    if attached == 0u {
        return 0u;
    }
    if attached == 1u && s != N {
        var toward = IN;
        if s == IN {
            toward = OUT;
        }
        return rho(first / 3u, toward, first % 3u);
    }
    return UNKNOWN;
}

// The first entry of the row of `others` (legs - 1 sorted codes) under status s; for i and o,
// others[0] is the detached leg's 0 and the rank starts after it.
fn row(s: u32, others: array<u32, 6>) -> Idx {
    var first = 0u;
    var start = Idx(0u);
    if s != N {
        first = 1u;
        start = idx(params.n_block_lo, params.n_block_hi)
            + Idx(s - 1u) * idx(params.io_block_lo, params.io_block_hi);
    }
    var rank = Idx(0u);
    for (var t = first; t + 1u < params.legs; t++) {
        rank += Idx(input((t - first) * params.codes + others[t]));
    }
    return start + rank * Idx(params.codes);
}

// Where a state (sorted codes) is looked up: the row of all but the largest code.
fn index(s: u32, codes: array<u32, 6>) -> Idx {
    return row(s, codes) + Idx(codes[params.legs - 1u]);
}

// The sorted codes without the leg at `slot`, behind a 0 (that leg detached).
fn detached(codes: array<u32, 6>, slot: u32) -> array<u32, 6> {
    var out: array<u32, 6>;
    var o = 1u;
    for (var t = 0u; t < params.legs; t++) {
        if t != slot {
            out[o] = codes[t];
            o += 1u;
        }
    }
    return out;
}

// The other codes of a detached tuple (drops the leading 0).
fn others_of(d: array<u32, 6>) -> array<u32, 6> {
    var out: array<u32, 6>;
    for (var t = 0u; t + 1u < MAX_LEGS; t++) {
        out[t] = d[t + 1u];
    }
    return out;
}

var<private> seen: array<u32, MEX_WORDS>;

fn insert(g: u32) {
    if g >= MEX_WORDS * 32u {
        raise_flag(2u);
        return;
    }
    seen[g / 32u] |= 1u << (g % 32u);
}

fn mex() -> u32 {
    for (var w = 0u; w < MEX_WORDS; w++) {
        if seen[w] != 0xffffffffu {
            return w * 32u + countTrailingZeros(~seen[w]);
        }
    }
    raise_flag(2u);
    return 0u;
}

// The mex over the options of a stored state (Proposition 6.1).
fn state_value(s: u32, codes: array<u32, 6>) -> u32 {
    for (var w = 0u; w < MEX_WORDS; w++) {
        seen[w] = 0u;
    }
    for (var slot = 0u; slot < params.legs; slot++) {
        let c = codes[slot];
        if c == 0u || (slot > 0u && codes[slot - 1u] == c) {
            continue;
        }
        let h = c / 3u;
        let phi = c % 3u;
        let d = detached(codes, slot);
        let others = others_of(d);
        // j = 1: the leg detaches and the centre gains an arc.
        for (var delta = IN; delta <= OUT; delta++) {
            if h == 1u && phi != STAR && delta != phi {
                continue;
            }
            let s2 = times(s, delta);
            var g = degenerate(s2, d);
            if g == UNKNOWN {
                g = entry(index(s2, d));
            }
            insert(rho(h - 1u, delta, phi) ^ g);
        }
        // j >= 2: the leg's code becomes 3(j - 1) + delta, an entry of the same row.
        let base = row(s, others);
        for (var j = 2u; j <= h; j++) {
            for (var delta = IN; delta <= OUT; delta++) {
                if j == h && phi != STAR && delta != phi {
                    continue;
                }
                insert(rho(h - j, delta, phi) ^ entry(base + Idx(3u * (j - 1u) + delta)));
            }
        }
    }
    return mex();
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 64u + gid.x;
    if i >= params.count {
        return;
    }
    var codes: array<u32, 6>;
    for (var t = 0u; t < MAX_LEGS; t++) {
        codes[t] = (input(params.tuples_at + i * 3u + t / 2u) >> (16u * (t % 2u))) & 0xffffu;
    }
    for (var s = N; s < F; s++) {
        // A centre with an arc has a detached leg, sorted first.
        if (s == N || codes[0] == 0u) && degenerate(s, codes) == UNKNOWN {
            let g = state_value(s, codes) + 1u;
            if g >= 1u << params.bits {
                raise_flag(1u);
            }
            // Stored in the row of each distinct attached leg (entries start at 0, and each is
            // one state's: OR-ing is storing).
            for (var slot = 0u; slot < params.legs; slot++) {
                if codes[slot] != 0u && (slot == 0u || codes[slot - 1u] != codes[slot]) {
                    let at = row(s, others_of(detached(codes, slot))) + Idx(codes[slot]);
                    or_word(at >> per_word_log2(), (g & ((1u << params.bits) - 1u)) << entry_shift(at));
                }
            }
        }
    }
}
