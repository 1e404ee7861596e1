//! The GPU path of `octal scan` (`shaders/octal.wgsl`): one workgroup per code, all of a chunk's
//! codes in lock-step. The host runs the same rounds as the CPU path, at the lengths a period
//! is looked for: before each it chooses every code's split from its values so far and lists
//! its rare sizes; after it, it reads the new values back and certifies what it can. Settled
//! codes sit out later rounds. A code whose values reach the kernel's bound is computed on the
//! CPU instead. Rows are those of [`super::scan::solve`], value for value.

use bytemuck::{Pod, Zeroable};

use super::code::OctalCode;
use super::fast::{FIRST_CHOICE, FIRST_SPLIT, Split, best_split, rare_sizes};
use super::scan::{self, OctalRow, ScanBackend};
use super::seq::{Certificate, OctalError, certify_prefix, look_lengths};
use crate::gpu::{GpuContext, GpuError};

const SHADER: &str = include_str!("../../shaders/octal.wgsl");

/// The kernel's bound: values below it (the shader's `VALUES`).
pub const VALUES: u32 = 2048;

/// Heap sizes one dispatch computes at most.
const SIZES_PER_DISPATCH: usize = 256;

/// The longest code the kernel reads (its digits packed 3 bits each in one word).
const MAX_T: usize = 9;

/// Mirrors `Params` in the shader.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    steps: u32,
    n_to: u32,
    stride: u32,
    limit: u32,
}

/// Mirrors `Code` in the shader.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CodeInfo {
    digits: u32,
    t: u32,
    mask: u32,
    position: u32,
    rare_count: u32,
    flags: u32,
    reached: u32,
    pad: u32,
}

/// A code's state between rounds.
struct Track {
    g: Vec<u32>,
    found: Option<(Certificate, usize)>,
    /// Its values reached the kernel's bound: the CPU computes it.
    on_cpu: bool,
}

/// The octal kernel on one adapter.
pub struct OctalGpu<'c> {
    ctx: &'c GpuContext,
    pipeline: wgpu::ComputePipeline,
    /// Values at or past this go to the CPU.
    limit: u32,
}

impl<'c> OctalGpu<'c> {
    pub fn new(ctx: &'c GpuContext) -> Result<Self, GpuError> {
        Self::with_limit(ctx, VALUES)
    }

    /// The kernel with codes sent to the CPU once a value reaches `limit` (at most
    /// [`VALUES`]): tests reach the hand-over on small codes.
    pub fn with_limit(ctx: &'c GpuContext, limit: u32) -> Result<Self, GpuError> {
        Ok(OctalGpu {
            ctx,
            pipeline: ctx.compute_pipeline("octal", SHADER)?,
            limit: limit.min(VALUES),
        })
    }

    /// The rows of `codes` to `n_max`, as [`scan::solve`] gives them.
    pub fn solve(&self, codes: &[OctalCode], n_max: usize) -> Result<Vec<OctalRow>, OctalError> {
        let groups = self.ctx.limits.max_compute_workgroups_per_dimension as usize;
        let mut rows = Vec::with_capacity(codes.len());
        for part in codes.chunks(groups.max(1)) {
            rows.extend(self.solve_part(part, n_max)?);
        }
        Ok(rows)
    }

    fn solve_part(&self, codes: &[OctalCode], n_max: usize) -> Result<Vec<OctalRow>, OctalError> {
        let ctx = self.ctx;
        if let Some(long) = codes.iter().find(|c| c.t() > MAX_T) {
            return Err(GpuError::TooLarge {
                what: format!("{long}"),
                needed: long.t() as u64,
                limit: MAX_T as u64,
                unit: "digits after the point",
            }
            .into());
        }
        let words = (codes.len() as u64).saturating_mul(n_max as u64);
        // The kernel indexes values with 32 bits.
        let limit = (ctx.max_binding_bytes() / 4).min(u64::from(u32::MAX));
        if words > limit {
            return Err(GpuError::TooLarge {
                what: format!("{} codes to n = {n_max}", codes.len()),
                needed: words,
                limit,
                unit: "values in one binding (lower --chunk-size)",
            }
            .into());
        }
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let buffers = ctx.checked("the octal values", 8 * words, || {
            (
                ctx.buffer(
                    "octal values",
                    4 * words,
                    storage | wgpu::BufferUsages::COPY_SRC,
                ),
                ctx.buffer("octal rare sizes", 4 * words, storage),
                ctx.buffer(
                    "octal codes",
                    (codes.len() * size_of::<CodeInfo>()) as u64,
                    storage | wgpu::BufferUsages::COPY_SRC,
                ),
                ctx.buffer(
                    "octal params",
                    size_of::<Params>() as u64,
                    wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                ),
            )
        })?;
        let (values, rare, infos, params) = buffers;
        let bind = ctx.bind_group(
            &self.pipeline,
            &[(0, &params), (1, &infos), (2, &values), (3, &rare)],
        );
        let mut tracks: Vec<Track> = codes
            .iter()
            .map(|_| Track {
                g: Vec::new(),
                found: None,
                on_cpu: false,
            })
            .collect();
        // Every code has t <= MAX_T, so all look at the same lengths.
        let mut done = 0;
        for at in look_lengths(&codes[0], n_max) {
            let active: Vec<usize> = (0..codes.len())
                .filter(|&k| tracks[k].found.is_none() && !tracks[k].on_cpu)
                .collect();
            if active.is_empty() {
                break;
            }
            // Settled codes are flagged: their workgroups return at once.
            let mut info = vec![
                CodeInfo {
                    flags: 1,
                    ..CodeInfo::zeroed()
                };
                codes.len()
            ];
            for &k in &active {
                let (listed, code_info) = split_for(&codes[k], &tracks[k].g);
                ctx.queue.write_buffer(
                    &rare,
                    (4 * k * n_max) as u64,
                    bytemuck::cast_slice(&listed),
                );
                info[k] = code_info;
            }
            ctx.queue
                .write_buffer(&infos, 0, bytemuck::cast_slice(&info));
            let p = Params {
                steps: SIZES_PER_DISPATCH as u32,
                n_to: at as u32,
                stride: n_max as u32,
                limit: self.limit,
            };
            ctx.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
            // Short dispatches (a long one trips drivers' watchdogs, and one was seen cut short
            // without an error), each going on from where its codes got, until all are in.
            let mut reached = done;
            let after = loop {
                for _ in 0..(at - reached).div_ceil(SIZES_PER_DISPATCH) {
                    ctx.dispatch(&self.pipeline, &bind, (codes.len() as u32, 1));
                }
                let after: Vec<CodeInfo> = bytemuck::pod_collect_to_vec(&ctx.read_buffer(&infos)?);
                let behind = active
                    .iter()
                    .filter(|&&k| after[k].flags & 1 == 0)
                    .map(|&k| after[k].reached as usize)
                    .min()
                    .unwrap_or(at);
                if behind >= at {
                    break after;
                }
                if behind == reached {
                    return Err(GpuError::Readback(format!(
                        "the GPU made no progress on the octal codes past n = {behind}"
                    ))
                    .into());
                }
                reached = behind;
            };
            let pieces: Vec<(&wgpu::Buffer, u64)> = active
                .iter()
                .map(|&k| (&values, (4 * (k * n_max + done)) as u64))
                .collect();
            let new = ctx.read_pieces(&pieces, (4 * (at - done)) as u64)?;
            let new: &[u32] = bytemuck::cast_slice(&new);
            for (j, &k) in active.iter().enumerate() {
                let track = &mut tracks[k];
                if after[k].flags & 1 != 0 {
                    track.on_cpu = true;
                    continue;
                }
                track
                    .g
                    .extend_from_slice(&new[j * (at - done)..(j + 1) * (at - done)]);
                if let Some(c) = certify_prefix(&codes[k], &track.g) {
                    track.found = Some((c, at));
                }
            }
            done = at;
        }
        codes
            .iter()
            .zip(tracks)
            .map(|(code, track)| match track.on_cpu {
                true => scan::solve(code, n_max, ScanBackend::Cpu),
                false => Ok(scan::row(code, &track.g, track.found, n_max)),
            })
            .collect()
    }
}

/// The split a round of `code` uses after values `g` (any split is exact; this is the one
/// with the fewest rare sizes, the first round's is the engine's first), its rare sizes, and
/// the kernel's record of the code.
fn split_for(code: &OctalCode, g: &[u32]) -> (Vec<u32>, CodeInfo) {
    let (split, mask) = if g.len() < FIRST_CHOICE {
        FIRST_SPLIT
    } else {
        let (split, mask, _) = best_split(g, code.t(), code.splits_only_last());
        (split, mask)
    };
    let t = code.t();
    let listed: Vec<u32> = rare_sizes(g, split, mask, t).map(|s| s as u32).collect();
    let digits = code
        .digits()
        .iter()
        .enumerate()
        .fold(0u32, |word, (i, &d)| word | u32::from(d) << (3 * i));
    let info = CodeInfo {
        digits,
        t: t as u32,
        mask,
        position: u32::from(split == Split::Position),
        rare_count: listed.len() as u32,
        flags: 0,
        reached: g.len() as u32,
        pad: 0,
    };
    (listed, info)
}
