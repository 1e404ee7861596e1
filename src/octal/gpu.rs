//! The GPU path of `octal scan` (`shaders/octal.wgsl`): one workgroup per code, all the codes of
//! a call in lock-step (in parts where they do not fit the bindings or the memory budget). The
//! host runs the same rounds as the CPU path, at the lengths a period is looked for: before each
//! it chooses every code's split from its values so far and lists its rare sizes; after it, it
//! reads the new values back and certifies what it can. Settled codes sit out later rounds. A
//! code whose values reach the kernel's bound is computed on the CPU instead. Rows are those of
//! [`super::row::solve`], value for value.

use bytemuck::{Pod, Zeroable};
use indicatif::ProgressBar;
use rayon::prelude::*;

use super::code::OctalCode;
use super::fast::{FIRST_CHOICE, FIRST_SPLIT, Split, best_split, rare_sizes};
use super::row::{self, OctalRow, ScanBackend};
use super::seq::{Certificate, OctalError, certify_prefix, look_lengths};
use crate::gpu::{GpuContext, GpuError};
use crate::memory::Budget;

const SHADER: &str = include_str!("../../shaders/octal.wgsl");

/// The kernel's bound: values below it (the shader's `VALUES`).
pub const VALUES: u32 = 2048;

/// The kernel's bounds; tests lower them to reach its edges on small codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelLimits {
    /// Values at or past this go to the CPU (at most [`VALUES`]).
    pub values: u32,
    /// Heap sizes one dispatch computes at most (a long dispatch trips drivers' watchdogs).
    pub sizes_per_dispatch: u32,
}

impl Default for KernelLimits {
    fn default() -> Self {
        KernelLimits {
            values: VALUES,
            sizes_per_dispatch: 256,
        }
    }
}

/// The longest code the kernel reads (its digits packed 3 bits each in one word).
const MAX_T: usize = 9;

/// Host bytes a code holds per value while the GPU computes it: its values so far, and those
/// of the last round as they are read back.
pub const HOST_BYTES_PER_VALUE: u64 = 8;

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
    /// Its values reached the kernel's bound, or its code is not octal: the CPU computes it.
    on_cpu: bool,
}

/// The octal kernel on one adapter.
pub struct OctalGpu<'c> {
    ctx: &'c GpuContext,
    pipeline: wgpu::ComputePipeline,
    limits: KernelLimits,
}

impl<'c> OctalGpu<'c> {
    pub fn new(ctx: &'c GpuContext) -> Result<Self, GpuError> {
        Self::with_limits(ctx, KernelLimits::default())
    }

    /// The adapter it runs on.
    pub fn context(&self) -> &'c GpuContext {
        self.ctx
    }

    /// The kernel within `limits` (values at most [`VALUES`]).
    pub fn with_limits(ctx: &'c GpuContext, limits: KernelLimits) -> Result<Self, GpuError> {
        Ok(OctalGpu {
            ctx,
            pipeline: ctx.compute_pipeline("octal", SHADER)?,
            limits: KernelLimits {
                values: limits.values.min(VALUES),
                sizes_per_dispatch: limits.sizes_per_dispatch.max(1),
            },
        })
    }

    /// The rows of `codes` to `n_max`, as [`row::solve`] gives them, in parts that fit the
    /// adapter and, for the host's copies of their values, `budget`; each round says in the
    /// message of `progress` how far it got.
    pub fn solve(
        &self,
        codes: &[OctalCode],
        n_max: usize,
        budget: Budget,
        progress: &ProgressBar,
    ) -> Result<Vec<OctalRow>, OctalError> {
        if let Some(long) = codes.iter().find(|c| c.t() > MAX_T) {
            return Err(GpuError::TooLarge {
                what: format!("{long}"),
                needed: long.t() as u64,
                limit: MAX_T as u64,
                unit: "digits after the point",
            }
            .into());
        }
        let at_once = self.codes_at_once(n_max, budget)?;
        // The codes a part hands to the CPU path, one a thread, beside the host's copies.
        let held = HOST_BYTES_PER_VALUE * n_max as u64 * at_once.min(codes.len()) as u64;
        let on_cpu = budget.less(held);
        let mut rows = Vec::with_capacity(codes.len());
        let parts = codes.len().div_ceil(at_once);
        for (k, part) in codes.chunks(at_once).enumerate() {
            let say = |at: usize, active: usize| {
                let part = match parts {
                    1 => String::new(),
                    _ => format!("part {} of {parts}: ", k + 1),
                };
                progress.set_message(format!("{part}{active} codes on the GPU to n = {at}"));
            };
            rows.extend(self.solve_part(part, n_max, on_cpu, say)?);
        }
        Ok(rows)
    }

    /// Codes one pass holds: one workgroup each, their values within one binding (indexed
    /// with 32 bits), and the host's copies within `budget`.
    fn codes_at_once(&self, n_max: usize, budget: Budget) -> Result<usize, OctalError> {
        let ctx = self.ctx;
        let values = n_max.max(1) as u64;
        let binding = (ctx.max_binding_bytes() / 4).min(u64::from(u32::MAX));
        if values > binding {
            return Err(GpuError::TooLarge {
                what: format!("one code to n = {n_max}"),
                needed: values,
                limit: binding,
                unit: "values in one binding",
            }
            .into());
        }
        budget.check(HOST_BYTES_PER_VALUE * values, || {
            format!("one code to n = {n_max} on the GPU")
        })?;
        let host = budget.bytes() / (HOST_BYTES_PER_VALUE * values);
        let groups = u64::from(ctx.limits.max_compute_workgroups_per_dimension);
        Ok([binding / values, host, groups]
            .into_iter()
            .min()
            .expect("three bounds")
            .max(1) as usize)
    }

    /// One part's rows; `say(at, active)` as a round of `active` codes to `at` begins.
    fn solve_part(
        &self,
        codes: &[OctalCode],
        n_max: usize,
        on_cpu: Budget,
        say: impl Fn(usize, usize),
    ) -> Result<Vec<OctalRow>, OctalError> {
        let ctx = self.ctx;
        let words = codes.len() as u64 * n_max as u64;
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
        // The kernel reads octal digits: a hexadecimal code or one with `!` is the CPU's.
        let mut tracks: Vec<Track> = codes
            .iter()
            .map(|code| Track {
                g: Vec::new(),
                found: None,
                on_cpu: !code.is_octal(),
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
            say(at, active.len());
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
            let limits = self.limits;
            let p = Params {
                steps: limits.sizes_per_dispatch,
                n_to: at as u32,
                stride: n_max as u32,
                limit: limits.values,
            };
            ctx.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
            // Short dispatches, each going on from where its codes got (one may stop early: see
            // the shader on llvmpipe), until all are in.
            let mut reached = done;
            let per_dispatch = limits.sizes_per_dispatch as usize;
            let after = loop {
                for _ in 0..(at - reached).div_ceil(per_dispatch) {
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
                    let why = match ctx.info.device_type {
                        wgpu::DeviceType::Cpu => format!(
                            " ({} may end a shader's loops past 65,535 iterations in all, \
                             which one size here needs; use --backend cpu)",
                            ctx.info.name
                        ),
                        _ => String::new(),
                    };
                    return Err(GpuError::Readback(format!(
                        "the GPU made no progress on the octal codes past n = {behind}{why}"
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
        // The rows (and the codes handed over) on every core.
        codes
            .par_iter()
            .zip(tracks)
            .map(|(code, track)| match track.on_cpu {
                true => {
                    let threads = rayon::current_num_threads();
                    row::solve_shared(code, n_max, ScanBackend::Cpu, on_cpu, threads)
                }
                false => Ok(row::row(code, &track.g, track.found, n_max)),
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
