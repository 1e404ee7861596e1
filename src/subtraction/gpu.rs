//! GPU backend for sets of 2 to 7 moves: host side of `shaders/subtraction.wgsl`, a bit-sliced
//! engine. The notes below speak of triples `{a, b, c}`, the case it was built and measured for;
//! every step is the same for `K` moves, with `K` moves and `K (K - 1) / 2` pair sums.
//!
//! # One shader for every move count
//! The host writes the shader for the scan's `K` ([`shader_source`]): a moves block with `K`,
//! the `P = ceil(log2(K + 1))` planes of a row (`vecP<Word>`: two for `K <= 3`, three up to
//! `K = 7`) and the mex of `K` options written out ([`moves_block`]), and the lines the shader
//! marks as "each move" and "each pair" written out once for each, with constant indices:
//! straight-line code, which llvmpipe does not count against its loop limit and which keeps the
//! per-move state in registers. One source, any `K`; no copy per `K`.
//!
//! # What one invocation does
//! One invocation owns one set and computes a word of positions a step: a triple's values are
//! at most 3, so a word is two planes (bit `j` of `G`), and the mex of a word is a few logic
//! operations on what the options offer (the arithmetic of [`super::row_math`]). Words are 64
//! bits where the adapter has 64-bit integers (`SHADER_INT64`, requested by
//! [`crate::gpu::GpuContext`]) and 32 bits elsewhere: the shader is written once over a `Word`
//! type, and the host swaps its word block ([`shader_source`]). Moves of a word or more read
//! finished words through a funnel shift; shorter moves read the word itself, so it is computed
//! in passes from a guess (the values the largest pair sum earlier, right once the values
//! repeat) until a pass changes nothing, at most `ceil(WORD_BITS / a)`. Each new word is
//! compared with the words each pair sum `P` earlier, for the values and the outcomes, and one
//! past the last difference is kept with `countLeadingZeros` and a `max`, no branch on where it
//! is. `P` is proved once the `c` values from there exist (the window certificate of
//! [`crate::period`]); the least period is then the least divisor of `P` that repeats the top
//! window ([`crate::period::least_matching_divisor`]), and the outcome period the least divisor
//! of that. Four numbers a set come back. A set whose period divides no pair sum (about a tenth
//! of the 4-move sets) is handed to the CPU at the envelope `c^2/2 + c + 64`, where the CPU's
//! search over every period starts.
//!
//! # Where the history lives
//! Each triple keeps a ring of the last `R` words (`R` a power of two covering `b + 2c` values
//! back, for the proofs' windows) in a storage buffer, a `vec2<Word>` (both planes) a row, rows
//! interleaved within blocks of 64 slots: row `r` of slot `i` at `((i / 64) R + r) 64 + i % 64`.
//! The slots of a pass run in lock-step (those with one `c` are at the same word index in the
//! same step), and neighbouring slots hold neighbouring triples of the scan (the same `c` and
//! `a`, nearby `b`), so a warp's loads of a row fall in one or two 128-byte lines: coalesced,
//! and a warp's whole ring (32 KiB at `c = 1000` with 32-bit words) stays in L1/L2. The
//! alternatives, weighed
//! without a GPU to time them on (llvmpipe cannot rank them: its "workgroup memory" is the same
//! RAM, and it ran the blocked and the fully interleaved layouts equally fast): workgroup
//! memory caps `c` (48 KiB a workgroup and 1 KiB a triple at `c = 1000` is 48 triples, a sixth
//! of an SM's threads) and gains little where loads are already coalesced; private arrays
//! indexed at run time spill to local memory on NVIDIA. The storage ring limits `c` only by
//! the binding size. A lent GPU should time the workgroup ring for small `c` against this one.
//!
//! # Cost per step
//! Each window (a move of a word or more, a pair sum) slides one word a step, so it loads one
//! row (a `vec2`) a step and keeps the other in a register: at most 6 loads and 1 store per
//! step, all in the last `R` rows. Operations, counted in the 32-bit shader: a far move about
//! 18 (row address 4, funnel 8, offers 6), the guess and the two other pair-sum windows 12 each,
//! the mex 5, the comparisons 45 (both XOR forms, six `countLeadingZeros`, selects and `max`),
//! the proof test and loop 11: about 160 for `a >= 32`; a pass over the near moves costs 20 to
//! 45 more, and a step takes 1.6 passes on average over `c <= 200`. With 64-bit words the logic
//! is twice as wide (two 32-bit operations each on most GPUs, one on a 64-bit CPU), the address
//! arithmetic, loop, proof test and loads per position half, and moves up to 63 join the passes
//! (2.4 a step over `c <= 200`); on llvmpipe the 64-bit form was 15-22% faster. The shader
//! this replaced computed one position a step, with about seven storage accesses (one a
//! read-modify-write of a ring word shared by 16 positions) and 60 operations: per 32
//! positions, 224 accesses and about 1,900 operations, against 7 and about 200 here.
//!
//! # No batch waits for its slowest triple
//! A warp runs as long as its longest lane, and pre-periods vary by orders of magnitude, so a
//! batch runs in passes with doubling caps: the first stops each triple at `2c + 64` values,
//! each later one at twice the cap before. `step` counts the slots still running; once fewer
//! than [`GpuTuning::compact_below`] of a pass's slots are (a quarter finished), `compact`
//! copies them, state and the ring rows still to be read, densely to a second buffer set, so
//! the next pass runs on full warps that resume where they stopped (fewer finish in the early
//! passes of long triples: there a copy would buy little). On the triples with `c <= 120` this
//! keeps 75% of the lanes of
//! warps of 32 busy, where one pass to `16c + 64` and then the rest kept 39% (the lane model of
//! [`GpuStats`], from the lengths each triple ran; `nimseq bench sub` prints it). Passes repeat
//! until no slot is left or so few are ([`GpuTuning::cpu_handoff`]) that the CPU path, which
//! runs a lone long pre-period several times faster than one GPU lane, finishes them. The CPU
//! takes what the GPU cannot certify too: additive triples (`c = a + b`, whose period divides no
//! pair sum), solved on the CPU from the start, beside the GPU's batches, and any that reach
//! `4c^2 + 4096` values without a pair-sum proof (none for `c <= 250`, where Ward's conjecture
//! was checked: docs/subtraction.md, section 6), for which the CPU searches every period. A scan
//! keeps two
//! chunks in flight, each with its own buffers: one chunk's passes run while the other waits
//! for its survivor count or for its CPU part.

use bytemuck::{Pod, Zeroable};

use super::lanes;
use super::moveset::{MoveSet, pair_count, pairs};
use super::row_math::planes_for;
use super::solution::{NotCertified, Solution, envelope};
use crate::gpu::{GpuContext, GpuError};
use crate::memory::Budget;

/// The kernel, after the loop checks it shares with the other kernels.
const SHADER: &str = concat!(
    include_str!("../../shaders/loop_check.wgsl"),
    include_str!("../../shaders/subtraction.wgsl")
);
/// The shader's word block (between its `word: begin` and `word: end` lines) for 64-bit words,
/// replacing the `u32` one on adapters with `SHADER_INT64`. WGSL's `countLeadingZeros` takes
/// 32-bit lanes (SPIR-V's FindUMsb too), so the count is built from the halves.
const WORD64: &str = "alias Word = u64;
const WORD_BITS: u32 = 64u;
// Leading zeros, from the halves.
fn clz(d: Word) -> u32 {
    let hi = u32(d >> 32u);
    let lo = u32(d & Word(0xffffffff));
    return select(countLeadingZeros(hi), 32u + countLeadingZeros(lo), hi == 0u);
}
";
/// Must equal `WORKGROUP_SIZE` in the shader.
const WORKGROUP_SIZE: u32 = 64;
/// Must equal `STATUS_CERTIFIED` in the shader.
const STATUS_CERTIFIED: u32 = 0;
/// Must equal `STATUS_NOT_CERTIFIED` in the shader.
const STATUS_NOT_CERTIFIED: u32 = 1;
/// Default of [`GpuTuning::compact_below`].
const COMPACT_BELOW: f64 = 0.75;
/// Buffer sets kept for reuse: one for each chunk a scan has in flight.
const POOLED_BUFFERS: usize = 2;
/// Each pass's cap is this power of two times the one before (a shift of the first cap).
const CAP_GROWTH_SHIFT: u32 = 1;

/// Must be kept in sync with `Params` in shaders/subtraction.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    count: u32,
    first_pass: u32,
    ring_mask: u32,
    cap_shift: u32,
    cap_mul: u32,
    cap_add: u32,
    loop_budget: u32,
    _pad: u32,
}

/// Bytes of `State` in shaders/subtraction.wgsl for `k` moves (four `u32`s, the moves, and two
/// per pair sum): the GPU makes and keeps the states; the host only sizes their buffers.
fn state_bytes(k: usize) -> u64 {
    4 * (4 + k + 2 * pair_count(k)) as u64
}

/// What the host knows of a slot for the pass schedule; the GPU's input is the moves and
/// `last_words` (`inputs` in shaders/subtraction.wgsl: the first pass makes the state).
#[derive(Clone, Copy, Debug)]
struct SlotInput {
    /// The largest move.
    c: u32,
    /// The GPU gives up here, in words.
    last_words: u32,
}

/// Must be kept in sync with `Result` in shaders/subtraction.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct GpuResult {
    period: u32,
    preperiod: u32,
    outcome_period: u32,
    outcome_preperiod: u32,
    len: u32,
    status: u32,
    passes: u32,
    _pad: u32,
}

/// [`GpuTuning::loop_budget`]'s default: half the limit, the rest left to the other loops.
pub const LOOP_BUDGET: u32 = 1 << 15;

/// Length limit of a set, GPU and CPU alike. Triples: far above the envelope
/// `q + p + c <= c^2/2 + 5` seen for every `c <= 300`. Sets of more moves have no such
/// envelope: {3,28,39,42} has period 12,015, about 7 c^2, and periods grow faster than c^2
/// (Althoefer and Bueltermann), so they get 2^28 values (96 MiB of planes), and a set that
/// needs more stops its scan with an error that names it.
pub fn long_cap(set: &MoveSet) -> usize {
    let c = set.largest() as usize;
    match set.k() {
        3 => 4 * c * c + 4096,
        _ => (4 * c * c + 4096).max(1 << 28),
    }
}

/// The knobs of the pass schedule; the defaults suit a large GPU, and tests shrink them so that
/// every branch (compaction, later passes, several batches, 2-D dispatch) runs on small work.
#[derive(Clone, Debug)]
pub struct GpuTuning {
    /// Slots a batch holds at most (fewer where the adapter's bindings are smaller).
    pub batch: usize,
    /// The first pass's cap in values, `mul * c + add`; each later pass's is twice the one
    /// before.
    pub first_cap: (u32, u32),
    /// When a pass leaves this many slots or fewer, the CPU solves them instead.
    pub cpu_handoff: u32,
    /// The survivors of a pass are compacted when they are fewer than this share of the slots
    /// it ran (1.0: whenever any finished; 0.0: never).
    pub compact_below: f64,
    /// Workgroups a dispatch dimension takes at most, below the adapter's limit (tests).
    pub max_groups_per_dim: Option<u32>,
    /// 64 positions a step where the adapter has 64-bit integers (`SHADER_INT64`), else 32:
    /// half the steps, loads and bookkeeping per position for about the same logic.
    pub int64: bool,
    /// Iterations of its word loop a slot runs in one pass at most, then going on in the next:
    /// far below the 65,535 after which llvmpipe cuts an invocation's loops (tests raise it
    /// past that to see the cut caught).
    pub loop_budget: u32,
    /// Work out the lane model of [`GpuStats`] (about 60 ns a slot and pass on the host, on
    /// the GPU thread: for `nimseq bench`, not for scans).
    pub lane_model: bool,
}

impl Default for GpuTuning {
    fn default() -> Self {
        GpuTuning {
            batch: 1 << 20,
            first_cap: (2, 64),
            cpu_handoff: 512,
            compact_below: COMPACT_BELOW,
            max_groups_per_dim: None,
            int64: true,
            loop_budget: LOOP_BUDGET,
            lane_model: false,
        }
    }
}

impl GpuTuning {
    /// Where pass `pass` stops a triple, in words of `word` positions: `pass_end` in the shader.
    fn pass_end(&self, word: u64, s: &SlotInput, pass: u32) -> u32 {
        let (mul, add) = self.first_cap;
        let first = (u64::from(mul) * u64::from(s.c) + u64::from(add)).div_ceil(word);
        let shift = (CAP_GROWTH_SHIFT * pass).min(31);
        (first << shift).min(u64::from(s.last_words)) as u32
    }

    /// Steps used and lane-steps spent over the passes, where slot `i` runs `ran[i]` words in
    /// all and `compacted[k]` says whether pass `k` ran on the survivors compacted (else on the
    /// slots before, finished ones idling in their warps); warps are [`WARP`] slots in order.
    fn lane_steps(
        &self,
        word: u64,
        states: &[SlotInput],
        ran: &[u32],
        compacted: &[bool],
    ) -> (u64, u64) {
        let (mut used, mut spent) = (0, 0);
        let mut layout: Vec<usize> = (0..states.len()).collect();
        for (pass, &compacted) in compacted.iter().enumerate() {
            let pass = pass as u32;
            let from = |i: usize| match pass {
                0 => 0,
                _ => self.pass_end(word, &states[i], pass - 1),
            };
            if compacted {
                layout.retain(|&i| ran[i] > from(i));
            }
            let steps = layout.iter().map(|&i| {
                let (from, to) = (from(i), ran[i].min(self.pass_end(word, &states[i], pass)));
                u64::from(to.saturating_sub(from))
            });
            let steps: Vec<u64> = steps.collect();
            for warp in steps.chunks(WARP) {
                used += warp.iter().sum::<u64>();
                spent += WARP as u64 * warp.iter().max().expect("a warp has a lane");
            }
        }
        (used, spent)
    }
}

/// The shader's source for sets of `k` moves, with 32-bit words or with 64-bit ones (its word
/// block replaced by the 64-bit block in this module; valid where the adapter has
/// `SHADER_INT64`): the moves block written for `k` ([`moves_block`]), and the lines of each
/// move and each pair sum written out.
pub fn shader_source(int64: bool, k: usize) -> String {
    let mut source = crate::gpu::replace_block(SHADER, "moves", &moves_block(k));
    if int64 {
        source = crate::gpu::replace_block(&source, "word", WORD64);
    }
    let source = crate::gpu::repeat_blocks(&source, "each move", k);
    crate::gpu::repeat_blocks(&source, "each pair", pair_count(k))
}

/// The shader's constants and value arithmetic for `k` moves: `P = ceil(log2(k + 1))` planes a
/// row (`vecP`), the pair sums in the CPU's order, and the mex of `k` options written out, as
/// [`super::row_math::Portable`] computes it: for each value `v < k` the positions where some
/// option is `v` (the AND of each plane or its complement, as `v`'s bits say), then the least
/// value not offered.
pub fn moves_block(k: usize) -> String {
    let planes = &["x", "y", "z"][..planes_for(k)];
    let p = planes.len();
    let pairs: Vec<(usize, usize)> = pairs(k).collect();
    let list = |f: &dyn Fn(usize) -> String, n: usize, sep: &str| {
        (0..n).map(f).collect::<Vec<_>>().join(sep)
    };
    let minterm = |v: usize| {
        let bits = planes.iter().enumerate();
        let ands: Vec<String> = bits
            .map(|(j, c)| match v >> j & 1 {
                1 => format!("r.{c}"),
                _ => format!("n.{c}"),
            })
            .collect();
        format!("o.v{v} | ({})", ands.join(" & "))
    };
    let mut mex = String::from("    var m = Row(ZERO);\n    var below = o.v0;\n");
    let set_bits = |mex: &mut String, v: usize, what: &str| {
        for (j, c) in planes.iter().enumerate() {
            if v >> j & 1 == 1 {
                mex.push_str(&format!("    m.{c} |= {what};\n"));
            }
        }
    };
    for v in 1..k {
        mex.push_str(&format!("    let is_{v} = below & ~o.v{v};\n"));
        set_bits(&mut mex, v, &format!("is_{v}"));
        mex.push_str(&format!("    below &= o.v{v};\n"));
    }
    set_bits(&mut mex, k, "below");
    format!(
        "const K: u32 = {k}u;
const PAIRS: u32 = {n}u;
const PAIR_LO = array<u32, {n}>({lo});
const PAIR_HI = array<u32, {n}>({hi});
alias Row = vec{p}<Word>;
alias Lanes = vec{p}<u32>;
fn nonzero(r: Row) -> Word {{
    return {nonzero};
}}
struct Offers {{
{fields}
}}
fn nothing() -> Offers {{
    return Offers({zeros});
}}
fn add(o: Offers, r: Row) -> Offers {{
    let n = ~r;
    return Offers({terms});
}}
fn mex(o: Offers) -> Row {{
{mex}    return m;
}}
",
        n = pairs.len(),
        lo = list(&|i| format!("{}u", pairs[i].0), pairs.len(), ", "),
        hi = list(&|i| format!("{}u", pairs[i].1), pairs.len(), ", "),
        nonzero = list(&|j| format!("r.{}", planes[j]), p, " | "),
        fields = list(&|v| format!("    v{v}: Word,"), k, "\n"),
        zeros = list(&|_| "ZERO".to_string(), k, ", "),
        terms = list(&|v| minterm(v), k, ", "),
    )
}

/// Totals over everything a [`SubtractionGpu`] solved, for `nimseq bench`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuStats {
    /// Values the GPU computed for the triples it certified.
    pub values: u64,
    /// Mex passes over a word those took (one a step where `a` is a word or more).
    pub passes: u64,
    /// Triples the GPU certified, and those the CPU solved (additive, handed back, uncertified).
    pub on_gpu: u64,
    pub on_cpu: u64,
    /// GPU passes run (dispatches of `step`).
    pub gpu_passes: u64,
    /// Positions a step (a word): 32 or 64.
    pub word_bits: u64,
    /// Steps the GPU's triples needed, and the lane-steps warps of [`WARP`] lanes would spend
    /// on them in lock-step (a warp runs as long as its longest lane), survivors of a pass in
    /// their order: the share of lanes doing work, whatever the card.
    pub lane_steps_used: u64,
    pub lane_steps_spent: u64,
}

/// Lanes a warp runs in lock-step on NVIDIA hardware (AMD's are 32 or 64).
pub const WARP: usize = 32;

impl GpuStats {
    /// The share of lanes the lane model found busy, where it ran.
    pub fn lanes_busy(&self) -> Option<f64> {
        (self.lane_steps_spent > 0)
            .then(|| self.lane_steps_used as f64 / self.lane_steps_spent as f64)
    }
}

impl std::fmt::Display for GpuStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let steps = (self.values / self.word_bits.max(1)).max(1);
        write!(
            f,
            "{} values a step, {:.2} mex passes a step ({:.1} values a pass), {} GPU passes",
            self.word_bits,
            self.passes as f64 / steps as f64,
            self.values as f64 / self.passes.max(1) as f64,
            self.gpu_passes,
        )?;
        if let Some(busy) = self.lanes_busy() {
            write!(f, ", {:.0}% of lanes busy in warps of {WARP}", 100.0 * busy)?;
        }
        write!(
            f,
            "; {} sets certified on the GPU, {} solved on the CPU (additive, handed back, or past the GPU's cap)",
            self.on_gpu, self.on_cpu
        )
    }
}

/// The compiled pipelines, reused for every batch.
pub struct SubtractionGpu<'a> {
    ctx: &'a GpuContext,
    /// The move count the pipelines were made for.
    moves: usize,
    step: wgpu::ComputePipeline,
    compact: wgpu::ComputePipeline,
    tuning: GpuTuning,
    /// Positions a word: 64 where the adapter has 64-bit integers and the tuning allows.
    word: u64,
    stats: std::sync::Mutex<GpuStats>,
    /// Buffers free for a batch: one a thread that solves at once (a scan has two chunks in
    /// flight, so that one's passes run while the other waits for a count or its CPU part).
    buffers: std::sync::Mutex<Vec<Buffers>>,
}

/// One set of slot buffers: states and rings.
struct SlotSet {
    states: wgpu::Buffer,
    ring: wgpu::Buffer,
}

/// A batch's buffers, kept for the next batch that fits them: fresh buffers of this size cost
/// more in page faults and zeroing than a short pass costs in compute.
struct Buffers {
    /// Slots and ring rows a slot that the buffers hold.
    slots: u32,
    rows: u64,
    results: wgpu::Buffer,
    params: wgpu::Buffer,
    /// What `step` counts (slots still running), and where `compact` writes the next one.
    live: wgpu::Buffer,
    cursor: wgpu::Buffer,
    /// Each slot's moves and `last_words`, which the first pass makes states of.
    inputs: wgpu::Buffer,
    /// `groups[i]`: `step` on slot set `i`, and `compact` from set `i` into the other (the bind
    /// groups hold the two sets' buffers).
    groups: [(wgpu::BindGroup, wgpu::BindGroup); 2],
}

impl Buffers {
    fn new(gpu: &SubtractionGpu<'_>, slots: u32, rows: u64) -> Self {
        use wgpu::BufferUsages as U;
        let ctx = gpu.ctx;
        let (ring_bytes, state_bytes) = gpu.slot_bytes(rows);
        let set = || SlotSet {
            states: ctx.buffer("states", state_bytes * u64::from(slots), U::STORAGE),
            ring: ctx.buffer(
                "ring",
                ring_bytes * u64::from(slots.next_multiple_of(WORKGROUP_SIZE)),
                U::STORAGE,
            ),
        };
        let sets = [set(), set()];
        let results = ctx.buffer(
            "results",
            std::mem::size_of::<GpuResult>() as u64 * u64::from(slots),
            U::STORAGE | U::COPY_DST | U::COPY_SRC,
        );
        let params = ctx.buffer(
            "params",
            std::mem::size_of::<Params>() as u64,
            U::UNIFORM | U::COPY_DST,
        );
        // The live count and the cut flag (zero as made).
        let live = ctx.buffer("live count", 8, U::STORAGE | U::COPY_DST | U::COPY_SRC);
        let inputs = ctx.buffer(
            "inputs",
            4 * (gpu.moves as u64 + 1) * u64::from(slots),
            U::STORAGE | U::COPY_DST,
        );
        let cursor = ctx.buffer("compaction cursor", 4, U::STORAGE | U::COPY_DST);
        let bind = |from: &SlotSet, to: &SlotSet| {
            let step = ctx.bind_group(
                &gpu.step,
                &[
                    (0, &params),
                    (1, &from.states),
                    (2, &from.ring),
                    (3, &results),
                    (6, &live),
                    (8, &inputs),
                ],
            );
            let compact = ctx.bind_group(
                &gpu.compact,
                &[
                    (0, &params),
                    (1, &from.states),
                    (2, &from.ring),
                    (4, &to.states),
                    (5, &to.ring),
                    (6, &live),
                    (7, &cursor),
                ],
            );
            (step, compact)
        };
        let groups = [bind(&sets[0], &sets[1]), bind(&sets[1], &sets[0])];
        Buffers {
            slots,
            rows,
            results,
            params,
            live,
            cursor,
            inputs,
            groups,
        }
    }
}

impl<'a> SubtractionGpu<'a> {
    /// The pipelines for sets of `moves` moves.
    pub fn new(ctx: &'a GpuContext, moves: usize) -> Result<Self, GpuError> {
        Self::with_tuning(ctx, GpuTuning::default(), moves)
    }

    pub fn with_tuning(
        ctx: &'a GpuContext,
        tuning: GpuTuning,
        moves: usize,
    ) -> Result<Self, GpuError> {
        let int64 = tuning.int64 && ctx.device.features().contains(wgpu::Features::SHADER_INT64);
        let source = shader_source(int64, moves);
        Ok(SubtractionGpu {
            ctx,
            moves,
            step: ctx.compute_pipeline_at("subtraction", &source, "step")?,
            compact: ctx.compute_pipeline_at("subtraction", &source, "compact")?,
            tuning,
            word: if int64 { 64 } else { 32 },
            stats: Default::default(),
            buffers: Default::default(),
        })
    }

    /// The GPU it runs on.
    pub fn context(&self) -> &'a GpuContext {
        self.ctx
    }

    /// What this backend has done since the last call (or since it was made).
    pub fn take_stats(&self) -> GpuStats {
        std::mem::take(&mut *self.stats.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Solves every triple exactly, in input order. Additive triples go to the CPU at once, and
    /// each batch's leftovers as soon as its passes end, while the GPU runs the next batch.
    /// The CPU's share of the work stays within `budget`.
    ///
    /// # Panics
    /// If a set does not have the move count the pipelines were made for.
    pub fn solve(
        &self,
        sets: &[MoveSet],
        budget: Budget,
    ) -> Result<Vec<Result<Solution, NotCertified>>, GpuError> {
        assert!(
            sets.iter().all(|s| s.k() == self.moves),
            "sets of {} moves",
            self.moves
        );
        let mut out: Vec<Option<Result<Solution, NotCertified>>> = vec![None; sets.len()];
        let (additive, on_gpu): (Vec<usize>, Vec<usize>) =
            (0..sets.len()).partition(|&i| sets[i].triple().is_some_and(|t| t.c == t.a + t.b));
        let on_cpu = |indices: Vec<usize>| {
            let rest: Vec<MoveSet> = indices.iter().map(|&i| sets[i]).collect();
            (indices, lanes::solve_sets(&rest, long_cap, budget))
        };
        let mut cpu_count = additive.len() as u64;
        // One ring size and batch size for all the sets: a chunk of a scan has one or a few
        // neighbouring largest moves.
        let rows = self.ring_rows(on_gpu.iter().map(|&i| &sets[i]));
        let batch = self.batch_size(&on_gpu, sets, rows)?;
        std::thread::scope(|scope| -> Result<(), GpuError> {
            let mut cpu_jobs = vec![scope.spawn(move || on_cpu(additive))];
            for batch in on_gpu.chunks(batch) {
                let left = self.run_batch(sets, batch, rows, &mut out)?;
                cpu_count += left.len() as u64;
                if !left.is_empty() {
                    cpu_jobs.push(scope.spawn(move || on_cpu(left)));
                }
            }
            for job in cpu_jobs {
                let (indices, solved) = job.join().expect("the CPU solver does not panic");
                match solved {
                    Ok(solved) => {
                        for (i, s) in indices.into_iter().zip(solved) {
                            out[i] = Some(Ok(s));
                        }
                    }
                    // The CPU stops at its first failure: each of these sets reports it.
                    Err(e) => {
                        for i in indices {
                            out[i] = Some(Err(e.clone()));
                        }
                    }
                }
            }
            Ok(())
        })?;
        self.stats.lock().unwrap_or_else(|p| p.into_inner()).on_cpu += cpu_count;
        Ok(out
            .into_iter()
            .map(|r| r.expect("every set was solved by the GPU or the CPU"))
            .collect())
    }

    /// Values the GPU computes for a set of largest move `c` before it hands the set to the
    /// CPU. Triples: [`long_cap`], past every period the pair sums prove (Ward's conjecture,
    /// checked for `c <= 250`). Sets of other move counts have periods that divide no pair sum
    /// (about a tenth of the 4-move sets up to 30), which only the CPU's search over every
    /// period finds: the GPU stops at the envelope `c^2/2 + c + 64` (where that search starts)
    /// rather than spend `4c^2` values on them.
    fn gpu_cap(&self, set: &MoveSet) -> usize {
        match self.moves {
            3 => long_cap(set),
            _ => envelope(set.largest() as usize),
        }
    }

    /// Rows each slot's ring needs for these sets: the largest pair sum and the largest move
    /// `c` back (a proof compares the top `c` values with those up to a pair sum earlier), plus
    /// the words in flight.
    fn ring_rows<'s>(&self, sets: impl Iterator<Item = &'s MoveSet>) -> u64 {
        let reach = sets
            .map(|s| {
                let m = s.moves();
                u64::from(m[m.len() - 2]) + 2 * u64::from(s.largest())
            })
            .max()
            .unwrap_or(0);
        (reach.div_ceil(self.word) + 4).next_power_of_two()
    }

    /// Bytes one slot takes on the GPU: its ring (`P` planes a row, a `vecP<Word>`, which
    /// takes four words in storage when `P = 3`) and its state.
    fn slot_bytes(&self, rows: u64) -> (u64, u64) {
        let stride = planes_for(self.moves).next_power_of_two() as u64;
        (rows * stride * self.word / 8, state_bytes(self.moves))
    }

    /// Slots a batch of `on_gpu` (indices into `triples`) takes with rings of `rows` rows: as
    /// many as the tuning and the adapter's bindings allow.
    fn batch_size(&self, on_gpu: &[usize], sets: &[MoveSet], rows: u64) -> Result<usize, GpuError> {
        let limit = self.ctx.max_binding_bytes();
        let (ring, state) = self.slot_bytes(rows);
        if ring.max(state) > limit {
            let c_max = on_gpu.iter().map(|&i| sets[i].largest()).max();
            return Err(GpuError::TooLarge {
                what: format!(
                    "the value ring of a set with largest move {} (one binding)",
                    c_max.unwrap_or(0)
                ),
                needed: ring,
                limit,
                unit: "bytes",
            });
        }
        let fit = (limit / ring.max(state)) as usize;
        Ok(fit.min(self.tuning.batch).max(1))
    }

    /// Runs the passes over one batch (`batch` indexes `triples`) with rings of `rows` rows,
    /// writing what the GPU certified to `out`; returns the indices the CPU must solve.
    fn run_batch(
        &self,
        sets: &[MoveSet],
        batch: &[usize],
        rows: u64,
        out: &mut [Option<Result<Solution, NotCertified>>],
    ) -> Result<Vec<usize>, GpuError> {
        let ctx = self.ctx;
        let count = batch.len() as u32;
        let states: Vec<SlotInput> = batch
            .iter()
            .map(|&i| {
                let c = sets[i].largest();
                SlotInput {
                    c,
                    // Positions stay within u32: at most 2^31 values.
                    last_words: (self.gpu_cap(&sets[i]) as u64)
                        .min(1 << 31)
                        .div_ceil(self.word) as u32,
                }
            })
            .collect();
        let inputs: Vec<u32> = batch
            .iter()
            .zip(&states)
            .flat_map(|(&i, s)| sets[i].moves().iter().copied().chain([s.last_words]))
            .collect();
        let free = {
            let mut pool = self.buffers.lock().unwrap_or_else(|p| p.into_inner());
            let fits = pool.iter().position(|b| b.slots >= count && b.rows >= rows);
            fits.map(|i| pool.swap_remove(i))
        };
        let bufs = free.unwrap_or_else(|| Buffers::new(self, count, rows));
        // The first pass makes each slot's state, its ring, and a result marked unwritten.
        ctx.queue
            .write_buffer(&bufs.inputs, 0, bytemuck::cast_slice(&inputs));
        // The live slots are the first `slots` of set `set`; `compacted[k]`: whether pass k
        // ran on a freshly compacted set.
        let (mut set, mut slots) = (0, count);
        let mut alive;
        let mut compacted = vec![false];
        let mut pass = 0u32;
        // Every slot is proved, or given up at its last cap, unless the CPU takes the rest.
        loop {
            let p = Params {
                count: slots,
                first_pass: u32::from(pass == 0),
                ring_mask: (rows - 1) as u32,
                cap_shift: (CAP_GROWTH_SHIFT * pass).min(31),
                cap_mul: self.tuning.first_cap.0,
                cap_add: self.tuning.first_cap.1,
                loop_budget: self.tuning.loop_budget,
                _pad: 0,
            };
            ctx.queue
                .write_buffer(&bufs.params, 0, bytemuck::bytes_of(&p));
            // The live count only: the cut flag beside it stays set once a pass sets it.
            ctx.queue.write_buffer(&bufs.live, 0, &[0; 4]);
            let (step, compact) = &bufs.groups[set];
            let size =
                ctx.dispatch_size_at_most(slots, WORKGROUP_SIZE, self.tuning.max_groups_per_dim);
            ctx.dispatch(&self.step, step, size);
            let bytes = ctx.read_buffer(&bufs.live)?;
            alive = u32::from_le_bytes(bytes[..4].try_into().expect("four bytes"));
            if bytes[4..8] != [0; 4] {
                return Err(ctx.loop_cut("subtraction"));
            }
            pass += 1;
            if alive == 0 || alive <= self.tuning.cpu_handoff {
                break;
            }
            // Compact once enough slots have finished that full warps save more than the copy.
            let compact_now = f64::from(alive) < self.tuning.compact_below * f64::from(slots);
            if compact_now {
                ctx.queue.write_buffer(&bufs.cursor, 0, &[0; 4]);
                ctx.dispatch(&self.compact, compact, size);
                (set, slots) = (1 - set, alive);
            }
            compacted.push(compact_now);
        }
        let bytes = ctx.read_buffer_prefix(
            &bufs.results,
            (batch.len() * std::mem::size_of::<GpuResult>()) as u64,
        )?;
        let mut pool = self.buffers.lock().unwrap_or_else(|p| p.into_inner());
        pool.push(bufs);
        if pool.len() > POOLED_BUFFERS {
            // The smallest goes: a batch that needs more takes the larger ones.
            pool.sort_by_key(|b| u64::from(b.slots) * b.rows);
            pool.remove(0);
        }
        drop(pool);
        let results: &[GpuResult] = bytemuck::cast_slice(&bytes);
        let mut left = Vec::new();
        let mut stats = GpuStats {
            gpu_passes: u64::from(pass),
            ..GpuStats::default()
        };
        if self.tuning.lane_model {
            // Words each slot ran: to its proof or its last cap, or through every pass if
            // handed back.
            let ran: Vec<u32> = states
                .iter()
                .zip(results)
                .map(|(s, r)| match r.status {
                    u32::MAX => self.tuning.pass_end(self.word, s, pass - 1),
                    _ => r.len / self.word as u32,
                })
                .collect();
            (stats.lane_steps_used, stats.lane_steps_spent) =
                self.tuning.lane_steps(self.word, &states, &ran, &compacted);
        }
        for (&i, r) in batch.iter().zip(results) {
            match r.status {
                STATUS_CERTIFIED => {
                    stats.values += u64::from(r.len);
                    stats.passes += u64::from(r.passes);
                    stats.on_gpu += 1;
                    out[i] = Some(Ok(Solution {
                        period: r.period as usize,
                        preperiod: r.preperiod as usize,
                        outcome_period: r.outcome_period as usize,
                        outcome_preperiod: r.outcome_preperiod as usize,
                        checked_len: r.len as usize,
                    }));
                }
                // Not certified, or handed back while still running (never written).
                STATUS_NOT_CERTIFIED => left.push(i),
                u32::MAX if alive > 0 => left.push(i),
                other => {
                    return Err(GpuError::Readback(format!(
                        "the GPU left status {other:#x} for {}",
                        sets[i]
                    )));
                }
            }
        }
        let mut total = self.stats.lock().unwrap_or_else(|p| p.into_inner());
        total.values += stats.values;
        total.passes += stats.passes;
        total.on_gpu += stats.on_gpu;
        total.gpu_passes += stats.gpu_passes;
        total.word_bits = self.word;
        total.lane_steps_used += stats.lane_steps_used;
        total.lane_steps_spent += stats.lane_steps_spent;
        Ok(left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(c: u32, last_words: u32) -> SlotInput {
        SlotInput { c, last_words }
    }

    #[test]
    fn pass_caps_double_up_to_the_last() {
        let tuning = GpuTuning::default();
        let s = state(100, 20);
        // 2 * 100 + 64 values: 9 words, then 18, then the last cap.
        let ends: Vec<u32> = (0..4).map(|p| tuning.pass_end(32, &s, p)).collect();
        assert_eq!(ends, [9, 18, 20, 20]);
        assert_eq!(tuning.pass_end(32, &state(100, u32::MAX), 40), u32::MAX);
    }

    #[test]
    fn lane_model_counts_each_warp_at_its_longest_lane() {
        let tuning = GpuTuning {
            first_cap: (0, 64),
            ..GpuTuning::default()
        };
        // 33 slots: one warp of 32 and one of 1 in the first pass (2 words each at most).
        let states = vec![state(10, 100); 33];
        let mut ran = vec![1; 33];
        ran[0] = 5; // two words in pass 0, two more in pass 1 (cap 4), one in pass 2
        let (used, spent) = tuning.lane_steps(32, &states, &ran, &[false, true, true]);
        assert_eq!(used, 5 + 32);
        // Pass 0: 32 * 2 + 32 * 1; pass 1: 32 * 2; pass 2: 32 * 1.
        assert_eq!(spent, 32 * 2 + 32 + 32 * 2 + 32);
        // Two survivors in two warps: compacted they share one, in place each keeps its own.
        ran[32] = 5;
        let compacted = tuning.lane_steps(32, &states, &ran, &[false, true, true]);
        let in_place = tuning.lane_steps(32, &states, &ran, &[false, false, false]);
        assert_eq!(compacted, (10 + 31, 32 * 2 * 2 + 32 * 2 + 32));
        assert_eq!(in_place, (10 + 31, 32 * 2 * 2 + 2 * (32 * 2 + 32)));
    }
}
