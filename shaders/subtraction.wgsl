// Subtraction games {a, b, c}: one invocation per triple, the mex recurrence in lock-step with
// period detection, so only four numbers per triple come back.
//
// Host side: src/subtraction/gpu.rs. CPU backends: src/subtraction/fast.rs (bit planes) and
// src/subtraction/reference.rs (plain); all three must give the same rows.
//
// Each invocation keeps the last R = ring_mask + 1 values (R >= 3c, a power of two, 2 bits per
// value) and, for each candidate period P in {a+b, a+c, b+c}, the last index y with
// G(y) != G(y - P) (and the same for the P-position indicator). P is proved once the top c
// values match the ones P earlier (spec section 3.1, window certificate). The least period is
// then the least divisor of P that matches the same window, and the pre-period is read off the
// last mismatch (see src/period.rs for why both are exact). A triple whose period divides no
// pair sum is not certified here: its status says so, and the host solves it on the CPU.

// Must be kept in sync with `Params` in src/subtraction/gpu.rs.
struct Params {
    count: u32,       // triples in this batch
    stride: u32,      // ring words are interleaved: word j of triple i at j * stride + i
    ring_mask: u32,   // R - 1, R = values kept per triple (power of two)
    _pad: u32,
}

// Must be kept in sync with `GpuTriple` in src/subtraction/gpu.rs.
struct Triple {
    a: u32,
    b: u32,
    c: u32,
    cap: u32,         // give up after this many values
}

// Must be kept in sync with `GpuResult` in src/subtraction/gpu.rs.
struct Result {
    period: u32,
    preperiod: u32,
    outcome_period: u32,
    outcome_preperiod: u32,
    len: u32,         // values computed when the period was certified
    status: u32,      // STATUS_*; the host pre-fills u32 max, so an unwritten result shows
}

const STATUS_CERTIFIED: u32 = 0u;
const STATUS_NOT_CERTIFIED: u32 = 1u;
const WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triples: array<Triple>;
@group(0) @binding(2) var<storage, read_write> ring: array<u32>;
@group(0) @binding(3) var<storage, read_write> results: array<Result>;

var<private> me: u32;

fn slot(x: u32) -> u32 {
    return ((x & params.ring_mask) >> 4u) * params.stride + me;
}

fn load_value(x: u32) -> u32 {
    return (ring[slot(x)] >> ((x & 15u) * 2u)) & 3u;
}

fn store_value(x: u32, v: u32) {
    let i = slot(x);
    let shift = (x & 15u) * 2u;
    ring[i] = (ring[i] & ~(3u << shift)) | (v << shift);
}

// Whether values [len - c, len) equal those d earlier; when `outcome`, compare only "is zero".
fn window_matches(len: u32, c: u32, d: u32, outcome: bool) -> bool {
    for (var y = len - c; y < len; y++) {
        let u = load_value(y);
        let v = load_value(y - d);
        if (outcome && ((u == 0u) != (v == 0u))) || (!outcome && u != v) {
            return false;
        }
    }
    return true;
}

// Least divisor of `p` whose shift matches the top window (p itself always does).
fn least_divisor(len: u32, c: u32, p: u32, outcome: bool) -> u32 {
    for (var d = 1u; d < p; d++) {
        if p % d == 0u && window_matches(len, c, d, outcome) {
            return d;
        }
    }
    return p;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
    me = gid.y * groups.x * WORKGROUP_SIZE + gid.x;
    if me >= params.count {
        return;
    }
    let t = triples[me];
    let cand = array<u32, 3>(t.a + t.b, t.a + t.c, t.b + t.c);
    // 1 + the last y with a mismatch at distance cand[j]; 0 if none yet.
    var last_nim = array<u32, 3>(0u, 0u, 0u);
    var last_out = array<u32, 3>(0u, 0u, 0u);
    var found = 3u;
    var len = 0u;
    for (var x = 0u; x < t.cap; x++) {
        // Options as a bitmask of values; moves off the board offer nothing.
        var offered = 0u;
        if x >= t.a { offered |= 1u << load_value(x - t.a); }
        if x >= t.b { offered |= 1u << load_value(x - t.b); }
        if x >= t.c { offered |= 1u << load_value(x - t.c); }
        let g = countTrailingZeros(~offered);
        store_value(x, g);
        len = x + 1u;
        for (var j = 0u; j < 3u; j++) {
            let p = cand[j];
            if x >= p {
                let h = load_value(x - p);
                if h != g { last_nim[j] = len; }
                if (h == 0u) != (g == 0u) { last_out[j] = len; }
                // Proved: no mismatch among the top c values.
                if found == 3u && len >= p + t.c && last_nim[j] + t.c <= len {
                    found = j;
                }
            }
        }
        if found < 3u {
            break;
        }
    }
    var r: Result;
    r.len = len;
    if found == 3u {
        r.status = STATUS_NOT_CERTIFIED;
        r.period = 0u;
        r.preperiod = 0u;
        r.outcome_period = 0u;
        r.outcome_preperiod = 0u;
    } else {
        let p = cand[found];
        r.status = STATUS_CERTIFIED;
        r.period = least_divisor(len, t.c, p, false);
        // The pre-period does not depend on which eventual period measured it.
        r.preperiod = select(0u, last_nim[found] - p, last_nim[found] > 0u);
        r.outcome_period = least_divisor(len, t.c, r.period, true);
        r.outcome_preperiod = select(0u, last_out[found] - p, last_out[found] > 0u);
    }
    results[me] = r;
}
