// Subtraction games {a, b, c}, bit-sliced: one invocation owns one triple and computes a word
// of positions a step (32, or 64 where the adapter has 64-bit integers), as two planes (bit j
// of G), with period proofs on each new word.
//
// The word: u32 here; the host swaps this block for its u64 twin (src/subtraction/gpu.rs,
// WORD64) on adapters with SHADER_INT64. Everything below is written for either.
// word: begin
alias Word = u32;
const WORD_BITS: u32 = 32u;
// Leading zeros of each lane.
fn clz3(d: vec3<Word>) -> vec3<u32> {
    return countLeadingZeros(d);
}
// word: end
const ZERO: Word = Word(0);
const ONES: Word = ~Word(0);
//
// Host side and design notes (memory layout, passes, compaction, per-step costs):
// src/subtraction/gpu.rs. CPU twins: src/subtraction/triple_solver.rs and row_math.rs (the same
// word arithmetic) and src/subtraction/reference.rs (plain); all give the same rows.
//
// Entry points:
// - `step`: advances every live slot until its triple is proved or reaches this pass's cap;
//   a proved triple writes its four numbers to `results[index]` and leaves its slot dead.
//   It counts the slots still running.
// - `compact`: copies the live slots (state and the ring rows still to be read) to the other
//   buffer set, densely, in slot order within each workgroup, so the next pass runs on full
//   warps. The host runs it when enough slots have finished to pay for the copy.

// Must be kept in sync with `Params` in src/subtraction/gpu.rs.
struct Params {
    count: u32,       // slots in this pass
    first_pass: u32,  // 1: the slots start from `inputs`, not `states`
    ring_mask: u32,   // rows per slot - 1 (a power of two minus one)
    cap_shift: u32,   // this pass stops a triple at its first cap << cap_shift (or its last)
    cap_mul: u32,     // the first cap, in positions: cap_mul * c + cap_add
    cap_add: u32,
    loop_budget: u32, // a slot stops this pass after this many loop iterations (see `cut`)
    _pad: u32,
}

// One triple's progress. Must be kept in sync with `GpuState` in src/subtraction/gpu.rs.
struct State {
    a: u32,
    b: u32,
    c: u32,
    index: u32,       // where its result goes
    words: u32,       // words computed; DEAD once it needs no more passes
    last_words: u32,  // the GPU gives up here (the triple goes to the CPU)
    passes: u32,      // mex passes so far (efficiency statistic)
    _pad: u32,
    // For each pair sum P (a + b, a + c, b + c): one past the last y >= P with G(y) != G(y - P),
    // and the same for "G = 0" (outcomes); P if none yet.
    clean: vec4<u32>,
    clean_out: vec4<u32>,
}

// Must be kept in sync with `GpuResult` in src/subtraction/gpu.rs.
struct Result {
    period: u32,
    preperiod: u32,
    outcome_period: u32,
    outcome_preperiod: u32,
    len: u32,         // values computed when the period was certified
    status: u32,      // STATUS_*; the host pre-fills u32 max, so an unwritten result shows
    passes: u32,
    _pad: u32,
}

const STATUS_CERTIFIED: u32 = 0u;
const STATUS_NOT_CERTIFIED: u32 = 1u;
const DEAD: u32 = 0xffffffffu;
const WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> states: array<State>;
@group(0) @binding(2) var<storage, read_write> ring: array<vec2<Word>>;
@group(0) @binding(3) var<storage, read_write> results: array<Result>;
@group(0) @binding(4) var<storage, read_write> next_states: array<State>;
@group(0) @binding(5) var<storage, read_write> next_ring: array<vec2<Word>>;
// [0]: slots still running after this pass; [1]: non-zero once a loop was cut (see `cut`).
@group(0) @binding(6) var<storage, read_write> live_count: array<atomic<u32>, 2>;
@group(0) @binding(7) var<storage, read_write> cursor: atomic<u32>;
// Each slot's triple and last cap (a, b, c, last_words) for the first pass: 16 bytes a triple
// cross the bus, not a whole state.
@group(0) @binding(8) var<storage, read> inputs: array<vec4<u32>>;

// Loops and llvmpipe's limit: loop_check.wgsl. A slot stops each pass after
// `params.loop_budget` iterations of its word loop and goes on in the next, which keeps every
// invocation far below the limit (the other loops are short: the ring's rows at the first pass,
// a few thousand steps of proof); a loop cut all the same sets `live_count[1]`, and the host
// discards the batch.

fn flat_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.y * groups.x * WORKGROUP_SIZE + gid.x;
}

// Where row 0 of slot i lies: rows interleaved within blocks of WORKGROUP_SIZE slots (a warp's
// loads of one row are contiguous), each block's rings contiguous; row r is r * WORKGROUP_SIZE
// further. (The slot goes in as an argument: a private global costs llvmpipe a memory access
// per use.)
fn ring_base(i: u32) -> u32 {
    return (i / WORKGROUP_SIZE) * (params.ring_mask + 1u) * WORKGROUP_SIZE + i % WORKGROUP_SIZE;
}

// Word w of the values of the slot whose ring starts at `base` (w may be "negative", wrapped:
// the ring's rows hold 3 there until written, so moves and comparisons below position 0 read
// 3, which no mex uses).
fn row(base: u32, w: u32) -> vec2<Word> {
    return ring[base + (w & params.ring_mask) * WORKGROUP_SIZE];
}

// A shift back of `back` positions, as rows and a bit offset: the window starts `rows` rows
// back at bit `bit` (rows = ceil(back / WORD_BITS), bit = WORD_BITS rows - back).
struct Back {
    rows: u32,
    bit: u32,
}

fn back_of(shift: u32) -> Back {
    let rows = (shift + WORD_BITS - 1u) / WORD_BITS;
    return Back(rows, rows * WORD_BITS - shift);
}

// Bits [bit, bit + WORD_BITS) of the double word hi:lo, both planes (two shifts on the high
// side, so that bit = 0 needs no branch: WGSL takes shift counts modulo the width).
fn funnel(lo: vec2<Word>, hi: vec2<Word>, bit: u32) -> vec2<Word> {
    return (lo >> vec2(bit)) | ((hi << vec2(1u)) << vec2(WORD_BITS - 1u - bit));
}

// Values [WORD_BITS w - shift, WORD_BITS (w + 1) - shift).
fn window(base: u32, w: u32, at: Back) -> vec2<Word> {
    return funnel(row(base, w - at.rows), row(base, w - at.rows + 1u), at.bit);
}

// A window that slides one word a step: the high row it read last becomes its low row, so a
// step loads one row, not two.
struct Slide {
    rows: u32,
    bit: u32,
    lo: vec2<Word>,
}

// The window `shift` back, about to read word w.
fn slide_at(base: u32, shift: u32, w: u32) -> Slide {
    let at = back_of(shift);
    return Slide(at.rows, at.bit, row(base, w - at.rows));
}

fn high_row(base: u32, at: Slide, w: u32) -> vec2<Word> {
    return row(base, w - at.rows + 1u);
}

// The window for word w, given its high row, and the slide to word w + 1.
fn advance(at: ptr<function, Slide>, hi: vec2<Word>) -> vec2<Word> {
    let v = funnel((*at).lo, hi, (*at).bit);
    (*at).lo = hi;
    return v;
}

// What the options of a word of positions offer, gathered move by move: where no option is 0, where
// some option is 1, and 2 (value 3 offers nothing the mex of three options uses).
struct Offers {
    no_zero: Word,
    one: Word,
    two: Word,
}

fn add(o: Offers, v: vec2<Word>) -> Offers {
    return Offers(o.no_zero & (v.x | v.y), o.one | (v.x & ~v.y), o.two | (v.y & ~v.x));
}

fn mex(o: Offers) -> vec2<Word> {
    return vec2(~(o.no_zero | (o.one & ~o.two)), o.one & ~o.no_zero);
}

// What a move s < WORD_BITS reads for the word `cur` while it fills: `cur` moved up s
// positions, the lowest s from the top of the word before.
fn near(cur: vec2<Word>, prev: vec2<Word>, s: u32) -> vec2<Word> {
    return (cur << vec2(s)) | (prev >> vec2(WORD_BITS - s));
}

fn values_differ(u: vec2<Word>, v: vec2<Word>) -> Word {
    return (u.x ^ v.x) | (u.y ^ v.y);
}

// Where two words differ in being 0 or not.
fn outcomes_differ(u: vec2<Word>, v: vec2<Word>) -> Word {
    return (u.x | u.y) ^ (v.x | v.y);
}

// Whether the top `window_len` values below `len` (a multiple of WORD_BITS) repeat `d` earlier:
// values, or only outcomes. The rows reach back (window_len + d) / WORD_BITS + 2.
fn top_matches(base: u32, len: u32, window_len: u32, d: u32, outcome: bool) -> bool {
    let at = back_of(d);
    let first = len - window_len;
    var w = len / WORD_BITS;
    loop {
        if w == 0u || (w * WORD_BITS) <= first {
            break;
        }
        w -= 1u;
        let u = row(base, w);
        let v = window(base, w, at);
        var diff = select(values_differ(u, v), outcomes_differ(u, v), outcome);
        if w * WORD_BITS < first {
            diff &= ONES << (first - w * WORD_BITS);
        }
        if diff != ZERO {
            return false;
        }
    }
    ended(w == 0u || (w * WORD_BITS) <= first);
    return true;
}

// The least divisor of the proved period p that repeats the top window: the least period
// (src/period.rs, least_matching_divisor). Primes by trial division: once per triple, a few
// dozen steps for the p of a scan, far below its word steps.
fn least_period(base: u32, len: u32, c: u32, p: u32, outcome: bool) -> u32 {
    var d = p;
    var rest = p;
    var r = 2u;
    loop {
        if rest <= 1u {
            break;
        }
        if r * r > rest {
            r = rest; // what is left is prime
        }
        var holds = true;
        loop {
            if rest % r != 0u {
                break;
            }
            rest /= r;
            if holds && top_matches(base, len, c, d / r, outcome) {
                d /= r;
            } else {
                holds = false;
            }
        }
        ended(rest % r != 0u);
        r += 1u;
    }
    ended(rest <= 1u);
    return d;
}

// The cap of this pass for a triple, in words.
fn pass_end(s: State) -> u32 {
    let first = (params.cap_mul * s.c + params.cap_add + WORD_BITS - 1u) / WORD_BITS;
    if first > (s.last_words >> params.cap_shift) {
        return s.last_words;
    }
    return min(first << params.cap_shift, s.last_words);
}

// Advances one slot through this pass; whether it is still running after it.
fn run_slot(slot: u32) -> bool {
    let base = ring_base(slot);
    var s: State;
    if params.first_pass != 0u {
        let t = inputs[slot];
        let sums = vec4(t.x + t.y, t.x + t.z, t.y + t.z, 0u);
        s = State(t.x, t.y, t.z, slot, 0u, t.w, 0u, 0u, sums, sums);
        // Unwritten until the triple is solved (or given up): the host reads every slot.
        var unwritten: Result;
        unwritten.status = ~0u;
        results[slot] = unwritten;
        // Every row holds 3 until written: the positions below 0.
        var r = 0u;
        for (; r <= params.ring_mask; r++) {
            ring[base + r * WORKGROUP_SIZE] = vec2(ONES);
        }
        ended(r > params.ring_mask);
    } else {
        s = states[slot];
        if s.words == DEAD {
            return false;
        }
    }
    let sums = vec3(s.a + s.b, s.a + s.c, s.b + s.c);
    // Passes a word needs from an arbitrary start: each makes a more positions final.
    let passes = select(1u, (WORD_BITS + s.a - 1u) / s.a, s.a < WORD_BITS);
    let end = pass_end(s);
    var w = s.words;
    var clean = s.clean.xyz;
    var clean_out = s.clean_out.xyz;
    var passes_done = s.passes;
    var prev = row(base, w - 1u);
    // One window a move and a pair sum, each loading one row a step.
    var move_a = slide_at(base, s.a, w);
    var move_b = slide_at(base, s.b, w);
    var move_c = slide_at(base, s.c, w);
    var sum0 = slide_at(base, sums.x, w);
    var sum1 = slide_at(base, sums.y, w);
    var sum2 = slide_at(base, sums.z, w);
    var proved = 3u;
    var spent = 0u;
    loop {
        if w >= end || spent >= params.loop_budget {
            break;
        }
        // What the moves of WORD_BITS or more offer: finished words (for a move of exactly
        // WORD_BITS the high row is the word being made, which the funnel shifts out).
        var fixed = Offers(ONES, ZERO, ZERO);
        var hi_a = vec2(ZERO);
        var hi_b = vec2(ZERO);
        var hi_c = vec2(ZERO);
        if s.a >= WORD_BITS {
            hi_a = high_row(base, move_a, w);
            fixed = add(fixed, funnel(move_a.lo, hi_a, move_a.bit));
        }
        if s.b >= WORD_BITS {
            hi_b = high_row(base, move_b, w);
            fixed = add(fixed, funnel(move_b.lo, hi_b, move_b.bit));
        }
        if s.c >= WORD_BITS {
            hi_c = high_row(base, move_c, w);
            fixed = add(fixed, funnel(move_c.lo, hi_c, move_c.bit));
        }
        // The moves below WORD_BITS read the word itself: passes from a guess (the values b + c
        // earlier, right once the values repeat), each exact on a more positions, until a pass
        // changes nothing (only the true word is left unchanged) or a pass from any start
        // would be exact. (When b + c <= WORD_BITS the guess reads a stale row: a guess all
        // the same.)
        let hi_2 = high_row(base, sum2, w);
        var cur = funnel(sum2.lo, hi_2, sum2.bit);
        if s.a < WORD_BITS {
            var i = 0u;
            var same = false;
            for (; i < passes; i++) {
                var o = add(fixed, near(cur, prev, s.a));
                if s.b < WORD_BITS { o = add(o, near(cur, prev, s.b)); }
                if s.c < WORD_BITS { o = add(o, near(cur, prev, s.c)); }
                let next = mex(o);
                passes_done += 1u;
                if all(next == cur) {
                    same = true;
                    break;
                }
                cur = next;
            }
            ended(same || i >= passes);
            spent += i;
        } else {
            cur = mex(fixed);
            passes_done += 1u;
        }
        ring[base + (w & params.ring_mask) * WORKGROUP_SIZE] = cur;
        prev = cur;
        // The windows slide one word; those one row back take the word just made.
        move_a.lo = select(hi_a, cur, move_a.rows == 1u);
        move_b.lo = select(hi_b, cur, move_b.rows == 1u);
        move_c.lo = select(hi_c, cur, move_c.rows == 1u);
        let was0 = advance(&sum0, select(high_row(base, sum0, w), cur, sum0.rows == 1u));
        let was1 = advance(&sum1, select(high_row(base, sum1, w), cur, sum1.rows == 1u));
        let was2 = advance(&sum2, select(hi_2, cur, sum2.rows == 1u));
        // Each pair sum: one past the last difference, without a branch on where it is.
        let x = w * WORD_BITS;
        let d = vec3(values_differ(cur, was0), values_differ(cur, was1), values_differ(cur, was2));
        let e = vec3(outcomes_differ(cur, was0), outcomes_differ(cur, was1),
                     outcomes_differ(cur, was2));
        clean = max(clean, select(vec3(0u), vec3(x + WORD_BITS) - clz3(d), d != vec3(ZERO)));
        clean_out = max(clean_out,
                        select(vec3(0u), vec3(x + WORD_BITS) - clz3(e), e != vec3(ZERO)));
        w += 1u;
        spent += 1u;
        // Proved once the c values from one past the last difference exist.
        let least = min(clean.x, min(clean.y, clean.z));
        if least + s.c <= w * WORD_BITS {
            proved = select(select(2u, 1u, clean.y == least), 0u, clean.x == least);
            break;
        }
    }
    ended(w >= end || spent >= params.loop_budget || proved < 3u);
    if cut {
        // Nothing this pass made can be trusted: the host discards the batch.
        atomicOr(&live_count[1], 1u);
        return false;
    }
    if proved < 3u {
        let len = w * WORD_BITS;
        let p = select(select(sums.z, sums.y, proved == 1u), sums.x, proved == 0u);
        let q = select(select(clean.z, clean.y, proved == 1u), clean.x, proved == 0u);
        let q_out = select(select(clean_out.z, clean_out.y, proved == 1u), clean_out.x,
                           proved == 0u);
        var r: Result;
        r.period = least_period(base, len, s.c, p, false);
        r.preperiod = q - p;
        r.outcome_period = least_period(base, len, s.c, r.period, true);
        // The outcome pre-period does not depend on which outcome period measures it.
        r.outcome_preperiod = q_out - p;
        r.len = len;
        r.status = STATUS_CERTIFIED;
        r.passes = passes_done;
        results[s.index] = r;
        s.words = DEAD;
    } else if w >= s.last_words {
        // No pair sum proved within the GPU's limit: the CPU searches every period.
        var r: Result;
        r.len = w * WORD_BITS;
        r.status = STATUS_NOT_CERTIFIED;
        r.passes = passes_done;
        results[s.index] = r;
        s.words = DEAD;
    } else {
        s.words = w;
    }
    s.clean = vec4(clean, 0u);
    s.clean_out = vec4(clean_out, 0u);
    s.passes = passes_done;
    states[slot] = s;
    return s.words != DEAD;
}

var<workgroup> running: atomic<u32>;

// One pass over the slots, counting those still running into `live_count` (one global atomic a
// workgroup), from which the host decides whether to compact before the next pass.
@compute @workgroup_size(WORKGROUP_SIZE)
fn step(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) lid: u32,
        @builtin(num_workgroups) groups: vec3<u32>) {
    let slot = flat_index(gid, groups);
    var live = false;
    if slot < params.count {
        spin();
        live = run_slot(slot);
    }
    if live {
        atomicAdd(&running, 1u);
    }
    workgroupBarrier();
    if lid == 0u {
        let n = atomicLoad(&running);
        if n > 0u {
            atomicAdd(&live_count[0], n);
        }
    }
}

var<workgroup> prefix: array<u32, WORKGROUP_SIZE>;
var<workgroup> block_start: u32;

@compute @workgroup_size(WORKGROUP_SIZE)
fn compact(@builtin(global_invocation_id) gid: vec3<u32>,
           @builtin(local_invocation_index) lid: u32,
           @builtin(num_workgroups) groups: vec3<u32>) {
    let slot = flat_index(gid, groups);
    var live = false;
    if slot < params.count {
        live = states[slot].words != DEAD;
    }
    // Inclusive prefix sum of the live flags over the workgroup.
    prefix[lid] = u32(live);
    workgroupBarrier();
    var off = 1u;
    for (; off < WORKGROUP_SIZE; off <<= 1u) {
        var v = 0u;
        if lid >= off {
            v = prefix[lid - off];
        }
        workgroupBarrier();
        prefix[lid] += v;
        workgroupBarrier();
    }
    ended(off >= WORKGROUP_SIZE);
    if lid == WORKGROUP_SIZE - 1u {
        block_start = atomicAdd(&cursor, prefix[lid]);
    }
    workgroupBarrier();
    if live {
        let to = block_start + prefix[lid] - 1u;
        let s = states[slot];
        next_states[to] = s;
        // The rows a read can reach from here on (those below position 0 hold 3, and come too):
        // b + 2c values back (see top_matches), no more than the ring.
        let reach = (s.b + 2u * s.c + WORD_BITS - 1u) / WORD_BITS + 4u;
        let rows = min(reach, params.ring_mask + 1u);
        let src = ring_base(slot);
        let into = ring_base(to);
        var j = 1u;
        for (; j <= rows; j++) {
            let r = ((s.words - j) & params.ring_mask) * WORKGROUP_SIZE;
            next_ring[into + r] = ring[src + r];
        }
        ended(j > rows);
    }
    if cut {
        atomicOr(&live_count[1], 1u);
    }
}
