// Octal games (docs/octal.md), many codes in lock-step: one workgroup per code, computing its
// next values in order, up to G(n_to - 1), with the rare/common split of src/octal/fast.rs. For each n
// the workgroup's invocations share the work: the splits with a rare part (strided over the
// code's rare list) mark the offered values in a workgroup bitset; the least value of n's
// common class not offered and the rare-class values below it still wanted come from one word
// per invocation; then the common-common splits are scanned 256 at a time, clearing the wanted
// bits they offer, until none is left or the splits run out. Any mask is exact; the host
// chooses it (and lists the rare sizes) before each dispatch, from the values so far.
//
// Values stay below VALUES (2048): every xor of two then is too, and so is every mex the
// bitsets can tell. A code whose value would reach VALUES (or the host's lower limit) stops and
// is flagged; the host computes it on the CPU instead.
//
// llvmpipe ends every loop of an invocation, silently, once all its loops together have run
// 65,535 iterations (Mesa's LP_MAX_TGSI_LOOP_ITERATIONS): a size past that point would be
// wrong. So invocation 0, which runs the most iterations, checks after each loop that its
// condition is false, as it is for a loop that ran to its end; from the first that is not, it
// records no more sizes, and the host goes on from there in the next dispatch. Hardware has no
// such limit: the checks never fire there.

const WG: u32 = 256u;
const VALUES: u32 = 2048u;
const WORDS: u32 = 64u;

struct Params {
    // Each code goes on from the size it reached, for at most `steps` sizes, not past `n_to`.
    steps: u32,
    n_to: u32,
    // Words per code in `values` and `rare`.
    stride: u32,
    // A value at or past this stops its code (VALUES, or less when tests ask).
    limit: u32,
}

struct Code {
    // Digit i in bits 3i..3i+2, i = 0..=t (t <= 9).
    digits: u32,
    t: u32,
    mask: u32,
    // 1: the position split (rare where the parity is that of n + t), 0: the value split.
    position: u32,
    // Rare sizes listed (the host's, then the kernel's as it goes), and the flags: bit 0 set
    // when a value reached VALUES.
    rare_count: u32,
    flags: u32,
    // The sizes whose values are in: the kernel records each as it goes, so that the host
    // sees how far a dispatch got, even one a driver cut short.
    reached: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> codes: array<Code>;
@group(0) @binding(2) var<storage, read_write> values: array<u32>;
@group(0) @binding(3) var<storage, read_write> rare: array<u32>;

var<workgroup> offered: array<atomic<u32>, WORDS>;
var<workgroup> want: array<atomic<u32>, WORDS>;
// Bit v of even[v / 32]: popcount(v & mask) is even.
var<workgroup> even: array<u32, WORDS>;
var<workgroup> least_common: atomic<u32>;
// Two of each, by the parity of n: size n resets those of n + 1 early on, so that no barrier
// is spent on it at the end of a size.
var<workgroup> least_wanted: array<atomic<u32>, 2>;
var<workgroup> wanted: array<atomic<u32>, 2>;
// The code's record, read from storage by one invocation: loaded from here, it is uniform, as
// the barriers in the loops over it need.
var<workgroup> code_digits: u32;
var<workgroup> code_t: u32;
var<workgroup> code_reached: u32;
var<workgroup> code_rare: u32;
var<workgroup> code_stopped: u32;
var<workgroup> code_mask: u32;
var<workgroup> code_position: u32;

fn digit(digits: u32, i: u32) -> u32 {
    return (digits >> (3u * i)) & 7u;
}

fn parity(v: u32, mask: u32) -> u32 {
    return countOneBits(v & mask) & 1u;
}

// The class word w of the values whose parity is `p`.
fn class_word(w: u32, p: u32) -> u32 {
    return select(~even[w], even[w], p == 0u);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let ci = wg.x;
    let c = codes[ci];
    let base = ci * params.stride;
    if lid < WORDS {
        var bits = 0u;
        for (var b = 0u; b < 32u; b++) {
            if parity(lid * 32u + b, c.mask) == 0u {
                bits |= 1u << b;
            }
        }
        even[lid] = bits;
        atomicStore(&offered[lid], 0u);
    }
    if lid == 0u {
        code_digits = c.digits;
        code_t = c.t;
        code_reached = c.reached;
        code_rare = c.rare_count;
        code_stopped = c.flags & 1u;
        code_mask = c.mask;
        code_position = c.position;
        atomicStore(&least_common, VALUES);
        atomicStore(&least_wanted[0], VALUES);
        atomicStore(&least_wanted[1], VALUES);
        atomicStore(&wanted[0], 0u);
        atomicStore(&wanted[1], 0u);
    }
    let digits = workgroupUniformLoad(&code_digits);
    let t = workgroupUniformLoad(&code_t);
    let mask = workgroupUniformLoad(&code_mask);
    let position = workgroupUniformLoad(&code_position);
    let start = workgroupUniformLoad(&code_reached);
    if workgroupUniformLoad(&code_stopped) != 0u {
        return;
    }
    // Every invocation keeps the count of rare sizes: G(n) is uniform, so they agree.
    var listed = workgroupUniformLoad(&code_rare);
    // A loop of this invocation was cut short (see above): nothing more is recorded.
    var cut = false;
    let end = min(params.n_to, start + params.steps);
    // Barriers a size: 1 after the listed splits, 2 + 2 for the least common value and the
    // count wanted, 2 a step of the common scan, 2 for the least wanted value, 1 for G(n) in
    // storage (a workgroupUniformLoad is a barrier, a load, a barrier).
    for (var n = start; n < end; n++) {
        let now = n & 1u;
        if lid == 0u {
            atomicStore(&least_wanted[now ^ 1u], VALUES);
            atomicStore(&wanted[now ^ 1u], 0u);
        }
        // Moves that leave no heap or one heap.
        if lid >= 1u && lid <= t && lid <= n {
            let d = digit(digits, lid);
            if (d & 1u) != 0u && lid == n {
                atomicOr(&offered[0], 1u);
            }
            if (d & 2u) != 0u && lid < n {
                let v = values[base + n - lid];
                atomicOr(&offered[v >> 5u], 1u << (v & 31u));
            }
        }
        // Splits with a rare part: every option of n's common class is among them.
        var i = 0u;
        for (; i <= t; i++) {
            if (digit(digits, i) & 4u) == 0u || n < i + 2u {
                continue;
            }
            let left = n - i;
            var k = lid;
            for (; k < listed; k += WG) {
                let s = rare[base + k];
                if s >= 1u && s < left {
                    let x = values[base + s] ^ values[base + left - s];
                    let bit = 1u << (x & 31u);
                    if (atomicLoad(&offered[x >> 5u]) & bit) == 0u {
                        atomicOr(&offered[x >> 5u], bit);
                    }
                }
            }
            cut = cut || k < listed;
        }
        cut = cut || i <= t;
        workgroupBarrier();
        let rare_parity = select(0u, (n + t) & 1u, position != 0u);
        if lid < WORDS {
            let free = ~atomicLoad(&offered[lid]) & ~class_word(lid, rare_parity);
            if free != 0u {
                atomicMin(&least_common, lid * 32u + firstTrailingBit(free));
            }
        }
        let first_common = workgroupUniformLoad(&least_common);
        // The rare-class values below `first_common` not offered: each must come from a split of
        // two common parts, or the least of them is G(n).
        if lid < WORDS {
            var below = 0xffffffffu;
            if first_common <= lid * 32u {
                below = 0u;
            } else if first_common < lid * 32u + 32u {
                below = (1u << (first_common - lid * 32u)) - 1u;
            }
            let w = ~atomicLoad(&offered[lid]) & class_word(lid, rare_parity) & below;
            atomicStore(&want[lid], w);
            atomicAdd(&wanted[now], countOneBits(w));
        }
        var count = workgroupUniformLoad(&wanted[now]);
        // The bitset of offered values and the least common value are read no more for this
        // size (the load above ends in a barrier): cleared for the next, which reaches them
        // after the barriers below.
        if lid < WORDS {
            atomicStore(&offered[lid], 0u);
        }
        if lid == 0u {
            atomicStore(&least_common, VALUES);
        }
        i = 0u;
        for (; i <= t; i++) {
            if (digit(digits, i) & 4u) == 0u || n < i + 2u {
                continue;
            }
            let left = n - i;
            var first = 1u;
            for (; first <= left / 2u && count != 0u; first += WG) {
                let a = first + lid;
                if a <= left / 2u {
                    let x = values[base + a] ^ values[base + left - a];
                    let bit = 1u << (x & 31u);
                    if (atomicLoad(&want[x >> 5u]) & bit) != 0u {
                        let old = atomicAnd(&want[x >> 5u], ~bit);
                        if (old & bit) != 0u {
                            atomicSub(&wanted[now], 1u);
                        }
                    }
                }
                count = workgroupUniformLoad(&wanted[now]);
            }
            cut = cut || (first <= left / 2u && count != 0u);
        }
        cut = cut || i <= t;
        if lid < WORDS {
            let w = atomicLoad(&want[lid]);
            if w != 0u {
                atomicMin(&least_wanted[now], lid * 32u + firstTrailingBit(w));
            }
        }
        let g = min(first_common, workgroupUniformLoad(&least_wanted[now]));
        if g >= params.limit {
            if lid == 0u && !cut {
                codes[ci].flags |= 1u;
            }
            break;
        }
        let rare_size = parity(g, mask) == rare_parity;
        if lid == 0u && !cut {
            values[base + n] = g;
            if rare_size {
                rare[base + listed] = n;
            }
            codes[ci].rare_count = listed + u32(rare_size);
            codes[ci].reached = n + 1u;
        }
        listed += u32(rare_size);
        // G(n) and the rare list in storage for every invocation.
        storageBarrier();
    }
}
