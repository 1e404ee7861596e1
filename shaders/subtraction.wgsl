// Subtraction games of K moves (K = 2..7), bit-sliced: one invocation owns one set and computes
// a word of positions a step (32, or 64 where the adapter has 64-bit integers), as P planes
// (bit j of G; P = 2 for K <= 3, 3 up to K = 7), with period proofs on each new word.
//
// The word: u32 here; the host swaps this block for its u64 twin (src/subtraction/gpu.rs,
// WORD64) on adapters with SHADER_INT64. Everything below is written for either.
// word: begin
alias Word = u32;
const WORD_BITS: u32 = 32u;
// Leading zeros.
fn clz(d: Word) -> u32 {
    return countLeadingZeros(d);
}
// word: end
const ZERO: Word = Word(0);
const ONES: Word = ~Word(0);

// The move count, the planes and the mex of K options: the host writes this block for each K
// (src/subtraction/gpu.rs, moves_block); here it is the block for three moves, so that the file
// validates as it is.
// moves: begin
const K: u32 = 3u;
const PAIRS: u32 = 3u;
// Pair sum i is moves[PAIR_LO[i]] + moves[PAIR_HI[i]], in the CPU's order: the last is the
// sum of the two largest moves.
const PAIR_LO = array<u32, 3>(0u, 0u, 1u);
const PAIR_HI = array<u32, 3>(1u, 2u, 2u);
// A word of positions, all planes, and a shift count for each plane.
alias Row = vec2<Word>;
alias Lanes = vec2<u32>;
// Where a row's value is not 0.
fn nonzero(r: Row) -> Word {
    return r.x | r.y;
}
// For each value v < K, where some option has it (values of K or more offer nothing the mex of
// K options uses; positions below 0 hold all ones).
struct Offers {
    v0: Word,
    v1: Word,
    v2: Word,
}
fn nothing() -> Offers {
    return Offers(ZERO, ZERO, ZERO);
}
fn add(o: Offers, r: Row) -> Offers {
    let n = ~r;
    return Offers(o.v0 | (n.x & n.y), o.v1 | (r.x & n.y), o.v2 | (n.x & r.y));
}
// The least value not offered, in binary: `below` holds where every value below v is offered.
fn mex(o: Offers) -> Row {
    var m = Row(ZERO);
    var below = o.v0;
    m.x |= below & ~o.v1;
    below &= o.v1;
    m.y |= below & ~o.v2;
    below &= o.v2;
    m.x |= below;
    m.y |= below;
    return m;
}
// moves: end

// Lines between "// each move: begin" and "// each move: end" are written out once for each
// move by the host, `_I_` the move's index (a u32 literal); "each pair" the same for the pair
// sums. Straight-line code, not loops: llvmpipe counts every loop iteration against its limit
// (loop_check.wgsl), and constant indices keep the arrays below in registers.
//
// Host side and design notes (memory layout, passes, compaction, per-step costs):
// src/subtraction/gpu.rs. CPU twins: src/subtraction/set_solver.rs and row_math.rs (the same
// word arithmetic) and src/subtraction/reference.rs (plain); all give the same rows.
//
// Entry points:
// - `step`: advances every live slot until its set is proved or reaches this pass's cap;
//   a proved set writes its four numbers to `results[index]` and leaves its slot dead.
//   It counts the slots still running.
// - `compact`: copies the live slots (state and the ring rows still to be read) to the other
//   buffer set, densely, in slot order within each workgroup, so the next pass runs on full
//   warps. The host runs it when enough slots have finished to pay for the copy.

// Must be kept in sync with `Params` in src/subtraction/gpu.rs.
struct Params {
    count: u32,       // slots in this pass
    first_pass: u32,  // 1: the slots start from `inputs`, not `states`
    ring_mask: u32,   // rows per slot - 1 (a power of two minus one)
    cap_shift: u32,   // this pass stops a set at its first cap << cap_shift (or its last)
    cap_mul: u32,     // the first cap, in positions: cap_mul * c + cap_add (c the largest move)
    cap_add: u32,
    loop_budget: u32, // a slot stops this pass after this many loop iterations (see `cut`)
    _pad: u32,
}

// One set's progress: 4 (4 + K + 2 PAIRS) bytes (`state_bytes` in src/subtraction/gpu.rs).
struct State {
    index: u32,       // where its result goes
    words: u32,       // words computed; DEAD once it needs no more passes
    last_words: u32,  // the GPU gives up here (the set goes to the CPU)
    passes: u32,      // mex passes so far (efficiency statistic)
    moves: array<u32, K>,
    // For each pair sum P: one past the last y >= P with G(y) != G(y - P), and the same for
    // "G = 0" (outcomes); P if none yet.
    clean: array<u32, PAIRS>,
    clean_out: array<u32, PAIRS>,
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
@group(0) @binding(2) var<storage, read_write> ring: array<Row>;
@group(0) @binding(3) var<storage, read_write> results: array<Result>;
@group(0) @binding(4) var<storage, read_write> next_states: array<State>;
@group(0) @binding(5) var<storage, read_write> next_ring: array<Row>;
// [0]: slots still running after this pass; [1]: non-zero once a loop was cut (see `cut`).
@group(0) @binding(6) var<storage, read_write> live_count: array<atomic<u32>, 2>;
@group(0) @binding(7) var<storage, read_write> cursor: atomic<u32>;
// Each slot's moves and last cap (K moves, then last_words) for the first pass: K + 1 words a
// set cross the bus, not a whole state.
@group(0) @binding(8) var<storage, read> inputs: array<u32>;

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
// the ring's rows hold all ones there until written, so moves and comparisons below position 0
// read a value of at least K, which no mex uses).
fn row(base: u32, w: u32) -> Row {
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

// Bits [bit, bit + WORD_BITS) of the double word hi:lo, every plane (two shifts on the high
// side, so that bit = 0 needs no branch: WGSL takes shift counts modulo the width).
fn funnel(lo: Row, hi: Row, bit: u32) -> Row {
    return (lo >> Lanes(bit)) | ((hi << Lanes(1u)) << Lanes(WORD_BITS - 1u - bit));
}

// Values [WORD_BITS w - shift, WORD_BITS (w + 1) - shift).
fn window(base: u32, w: u32, at: Back) -> Row {
    return funnel(row(base, w - at.rows), row(base, w - at.rows + 1u), at.bit);
}

// A window that slides one word a step: the high row it read last becomes its low row, so a
// step loads one row, not two.
struct Slide {
    rows: u32,
    bit: u32,
    lo: Row,
}

// The window `shift` back, about to read word w.
fn slide_at(base: u32, shift: u32, w: u32) -> Slide {
    let at = back_of(shift);
    return Slide(at.rows, at.bit, row(base, w - at.rows));
}

fn high_row(base: u32, at: Slide, w: u32) -> Row {
    return row(base, w - at.rows + 1u);
}

// What a move s < WORD_BITS reads for the word `cur` while it fills: `cur` moved up s
// positions, the lowest s from the top of the word before.
fn near(cur: Row, prev: Row, s: u32) -> Row {
    return (cur << Lanes(s)) | (prev >> Lanes(WORD_BITS - s));
}

fn values_differ(u: Row, v: Row) -> Word {
    let x = u ^ v;
    return nonzero(x);
}

// Where two words differ in being 0 or not.
fn outcomes_differ(u: Row, v: Row) -> Word {
    return nonzero(u) ^ nonzero(v);
}

// One past the last position of the word at x where `d` has a bit, 0 if none.
fn end_of(x: u32, d: Word) -> u32 {
    return select(0u, x + WORD_BITS - clz(d), d != ZERO);
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

// The largest move.
fn largest(s: State) -> u32 {
    return s.moves[K - 1u];
}

// The cap of this pass for a set, in words.
fn pass_end(s: State) -> u32 {
    let first = (params.cap_mul * largest(s) + params.cap_add + WORD_BITS - 1u) / WORD_BITS;
    if first > (s.last_words >> params.cap_shift) {
        return s.last_words;
    }
    return min(first << params.cap_shift, s.last_words);
}

// The pair sums of a set.
fn pair_sums(s: State) -> array<u32, PAIRS> {
    var sums: array<u32, PAIRS>;
    // each pair: begin
    sums[_I_] = s.moves[PAIR_LO[_I_]] + s.moves[PAIR_HI[_I_]];
    // each pair: end
    return sums;
}

// Advances one slot through this pass; whether it is still running after it.
fn run_slot(slot: u32) -> bool {
    let base = ring_base(slot);
    var s: State;
    if params.first_pass != 0u {
        let at = slot * (K + 1u);
        s.index = slot;
        s.words = 0u;
        s.last_words = inputs[at + K];
        s.passes = 0u;
        // each move: begin
        s.moves[_I_] = inputs[at + _I_];
        // each move: end
        s.clean = pair_sums(s);
        s.clean_out = s.clean;
        // Unwritten until the set is solved (or given up): the host reads every slot.
        var unwritten: Result;
        unwritten.status = ~0u;
        results[slot] = unwritten;
        // Every row holds all ones until written: the positions below 0.
        var r = 0u;
        for (; r <= params.ring_mask; r++) {
            ring[base + r * WORKGROUP_SIZE] = Row(ONES);
        }
        ended(r > params.ring_mask);
    } else {
        s = states[slot];
        if s.words == DEAD {
            return false;
        }
    }
    let c = largest(s);
    let sums = pair_sums(s);
    // Passes a word needs from an arbitrary start: each makes the smallest move more
    // positions final.
    let passes = select(1u, (WORD_BITS + s.moves[0] - 1u) / s.moves[0], s.moves[0] < WORD_BITS);
    let end = pass_end(s);
    var w = s.words;
    var clean = s.clean;
    var clean_out = s.clean_out;
    var passes_done = s.passes;
    var prev = row(base, w - 1u);
    // One window a move and a pair sum, each loading one row a step.
    var move_at: array<Slide, K>;
    // each move: begin
    move_at[_I_] = slide_at(base, s.moves[_I_], w);
    // each move: end
    var sum_at: array<Slide, PAIRS>;
    // each pair: begin
    sum_at[_I_] = slide_at(base, sums[_I_], w);
    // each pair: end
    var proved = PAIRS;
    var spent = 0u;
    loop {
        if w >= end || spent >= params.loop_budget {
            break;
        }
        // What the moves of WORD_BITS or more offer: finished words (for a move of exactly
        // WORD_BITS the high row is the word being made, which the funnel shifts out).
        var fixed = nothing();
        var move_hi: array<Row, K>;
        // each move: begin
        if s.moves[_I_] >= WORD_BITS {
            move_hi[_I_] = high_row(base, move_at[_I_], w);
            fixed = add(fixed, funnel(move_at[_I_].lo, move_hi[_I_], move_at[_I_].bit));
        }
        // each move: end
        var sum_hi: array<Row, PAIRS>;
        // each pair: begin
        sum_hi[_I_] = high_row(base, sum_at[_I_], w);
        // each pair: end
        // The moves below WORD_BITS read the word itself: passes from a guess (the values the
        // largest pair sum earlier, right once the values repeat), each exact on as many more
        // positions as the smallest move, until a pass changes nothing (only the true word is
        // left unchanged) or a pass from any start would be exact. (When that sum is at most
        // WORD_BITS the guess reads a stale row: a guess all the same.)
        var cur = funnel(sum_at[PAIRS - 1u].lo, sum_hi[PAIRS - 1u], sum_at[PAIRS - 1u].bit);
        if s.moves[0] < WORD_BITS {
            var i = 0u;
            var same = false;
            for (; i < passes; i++) {
                var o = fixed;
                // each move: begin
                if s.moves[_I_] < WORD_BITS {
                    o = add(o, near(cur, prev, s.moves[_I_]));
                }
                // each move: end
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
        // each move: begin
        move_at[_I_].lo = select(move_hi[_I_], cur, move_at[_I_].rows == 1u);
        // each move: end
        // Each pair sum: one past the last difference, without a branch on where it is.
        let x = w * WORD_BITS;
        var least = DEAD;
        // each pair: begin
        {
            let hi = select(sum_hi[_I_], cur, sum_at[_I_].rows == 1u);
            let was = funnel(sum_at[_I_].lo, hi, sum_at[_I_].bit);
            sum_at[_I_].lo = hi;
            clean[_I_] = max(clean[_I_], end_of(x, values_differ(cur, was)));
            clean_out[_I_] = max(clean_out[_I_], end_of(x, outcomes_differ(cur, was)));
            least = min(least, clean[_I_]);
        }
        // each pair: end
        w += 1u;
        spent += 1u;
        // Proved once the c values from one past the last difference exist: the first pair
        // sum that holds since `least`.
        if least + c <= w * WORD_BITS {
            // each pair: begin
            proved = select(proved, min(proved, _I_), clean[_I_] == least);
            // each pair: end
            break;
        }
    }
    ended(w >= end || spent >= params.loop_budget || proved < PAIRS);
    if cut {
        // Nothing this pass made can be trusted: the host discards the batch.
        atomicOr(&live_count[1], 1u);
        return false;
    }
    if proved < PAIRS {
        let len = w * WORD_BITS;
        let p = sums[proved];
        var r: Result;
        r.period = least_period(base, len, c, p, false);
        r.preperiod = clean[proved] - p;
        r.outcome_period = least_period(base, len, c, r.period, true);
        // The outcome pre-period does not depend on which outcome period measures it.
        r.outcome_preperiod = clean_out[proved] - p;
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
    s.clean = clean;
    s.clean_out = clean_out;
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
        // The rows a read can reach from here on (those below position 0 hold all ones, and
        // come too): the largest pair sum and c more values back (see top_matches), no more
        // than the ring.
        let reach = (pair_sums(s)[PAIRS - 1u] + largest(s) + WORD_BITS - 1u) / WORD_BITS + 4u;
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
