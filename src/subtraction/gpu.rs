//! GPU backend for triples: host side of `shaders/subtraction.wgsl`.
//!
//! One invocation per triple, in batches sized to the adapter's binding limit. A first pass
//! stops each triple after `16c + 64` values; the few that need more run again in a second pass
//! with a long cap, so that rare long pre-periods do not hold a whole batch. Triples the GPU does
//! not certify (additive ones, whose period divides no pair sum, and any that break Ward's
//! conjecture) are solved by the fast CPU backend, which searches every period.

use bytemuck::{Pod, Zeroable};

use super::solution::{NotCertified, Solution};
use super::triple::Triple;
use super::triple_solver;
use crate::gpu::{GpuContext, GpuError};

const SHADER: &str = include_str!("../../shaders/subtraction.wgsl");
/// Must equal `WORKGROUP_SIZE` in the shader.
const WORKGROUP_SIZE: u32 = 64;
const STATUS_CERTIFIED: u32 = 0;
/// Must equal `STATUS_NOT_CERTIFIED` in the shader.
const STATUS_NOT_CERTIFIED: u32 = 1;
/// Values per ring word (2 bits each).
const VALUES_PER_WORD: u64 = 16;

/// Must be kept in sync with `Params` in shaders/subtraction.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    /// Triples in the batch.
    count: u32,
    /// Ring words are interleaved: word `j` of triple `i` at `j * stride + i` (in `u32`s).
    stride: u32,
    /// Values kept per triple, minus one (a power of two minus one).
    ring_mask: u32,
    _pad: u32,
}

/// Must be kept in sync with `Triple` in shaders/subtraction.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct GpuTriple {
    a: u32,
    b: u32,
    c: u32,
    /// Values to compute before giving up.
    cap: u32,
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
}

/// First-pass cap: enough for about 92% of triples (spec section 3.2).
fn short_cap(c: u32) -> u32 {
    16 * c + 64
}

/// Length limit for any triple, GPU second pass and CPU alike: far above the envelope
/// `q + p + c <= c^2/2 + 5` seen for every `c <= 300`.
pub fn long_cap(c: u32) -> usize {
    4 * (c as usize).pow(2) + 4096
}

/// The compiled pipeline, reused for every batch.
pub struct SubtractionGpu<'a> {
    ctx: &'a GpuContext,
    pipeline: wgpu::ComputePipeline,
}

impl<'a> SubtractionGpu<'a> {
    pub fn new(ctx: &'a GpuContext) -> Result<Self, GpuError> {
        Ok(SubtractionGpu {
            ctx,
            pipeline: ctx.compute_pipeline("subtraction", SHADER)?,
        })
    }

    /// Solves every triple exactly, in input order.
    pub fn solve(
        &self,
        triples: &[Triple],
    ) -> Result<Vec<Result<Solution, NotCertified>>, GpuError> {
        let mut out: Vec<Option<Result<Solution, NotCertified>>> = vec![None; triples.len()];
        // Additive triples have a period dividing no pair sum: straight to the CPU.
        let (additive, on_gpu): (Vec<usize>, Vec<usize>) =
            (0..triples.len()).partition(|&i| triples[i].c == triples[i].a + triples[i].b);
        let mut pending = on_gpu;
        for cap in [
            |c| short_cap(c),
            |c| long_cap(c).min(u32::MAX as usize) as u32,
        ] {
            if pending.is_empty() {
                break;
            }
            let batch: Vec<Triple> = pending.iter().map(|&i| triples[i]).collect();
            let results = self.run(&batch, cap)?;
            let mut still = Vec::new();
            for (&i, r) in pending.iter().zip(results) {
                match r {
                    Some(s) => out[i] = Some(Ok(s)),
                    None => still.push(i),
                }
            }
            pending = still;
        }
        pending.extend(additive);
        let rest: Vec<Triple> = pending.iter().map(|&i| triples[i]).collect();
        match triple_solver::solve_triples(&rest, |t| long_cap(t.c)) {
            Ok(solved) => {
                for (&i, s) in pending.iter().zip(solved) {
                    out[i] = Some(Ok(s));
                }
            }
            // The CPU stops at its first failure: each of these triples reports it.
            Err(e) => {
                for &i in &pending {
                    out[i] = Some(Err(e.clone()));
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|r| r.expect("every triple was solved by one pass"))
            .collect())
    }

    /// One pass over `triples`, in batches that fit the adapter; `None` where not certified.
    fn run(
        &self,
        triples: &[Triple],
        cap: impl Fn(u32) -> u32,
    ) -> Result<Vec<Option<Solution>>, GpuError> {
        let mut out = Vec::with_capacity(triples.len());
        let mut start = 0;
        while start < triples.len() {
            let c_max = triples[start..]
                .iter()
                .map(|t| t.c)
                .max()
                .expect("non-empty");
            // The ring must span c + (b + c) values: 3c is enough.
            let ring_values = (3 * u64::from(c_max)).next_power_of_two();
            let ring_bytes = ring_values / VALUES_PER_WORD * 4;
            let limit = self.ctx.max_binding_bytes();
            if ring_bytes > limit {
                return Err(GpuError::TooLarge {
                    what: format!("the value ring of a triple with c = {c_max} (one binding)"),
                    needed: ring_bytes,
                    limit,
                    unit: "bytes",
                });
            }
            let fit = (limit / ring_bytes).min(1 << 20) as usize;
            let end = (start + fit).min(triples.len());
            out.extend(self.run_batch(&triples[start..end], ring_values, &cap)?);
            start = end;
        }
        Ok(out)
    }

    fn run_batch(
        &self,
        triples: &[Triple],
        ring_values: u64,
        cap: &impl Fn(u32) -> u32,
    ) -> Result<Vec<Option<Solution>>, GpuError> {
        let ctx = self.ctx;
        let count = triples.len() as u32;
        let params = Params {
            count,
            stride: count,
            ring_mask: (ring_values - 1) as u32,
            _pad: 0,
        };
        let input: Vec<GpuTriple> = triples
            .iter()
            .map(|t| GpuTriple {
                a: t.a,
                b: t.b,
                c: t.c,
                cap: cap(t.c),
            })
            .collect();
        // Pre-filled with u32::MAX so that an unwritten result cannot pass as a period.
        let sentinel = vec![0xFFu8; triples.len() * std::mem::size_of::<GpuResult>()];
        use wgpu::BufferUsages as U;
        let params_buf = ctx.buffer_init("params", bytemuck::bytes_of(&params), U::UNIFORM);
        let input_buf = ctx.buffer_init("triples", bytemuck::cast_slice(&input), U::STORAGE);
        let ring_buf = ctx.buffer(
            "ring",
            ring_values / VALUES_PER_WORD * 4 * u64::from(count),
            U::STORAGE,
        );
        let result_buf = ctx.buffer_init("results", &sentinel, U::STORAGE | U::COPY_SRC);
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("subtraction"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: input_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: ring_buf.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: result_buf.as_entire_binding(),
                },
            ],
        });
        let groups = ctx.dispatch_size(count, WORKGROUP_SIZE);
        let bytes = ctx.run_and_read(&self.pipeline, &bind_group, groups, &result_buf)?;
        let results: &[GpuResult] = bytemuck::cast_slice(&bytes);
        triples
            .iter()
            .zip(results)
            .map(|(t, r)| match r.status {
                STATUS_CERTIFIED => Ok(Some(Solution {
                    period: r.period as usize,
                    preperiod: r.preperiod as usize,
                    outcome_period: r.outcome_period as usize,
                    outcome_preperiod: r.outcome_preperiod as usize,
                    checked_len: r.len as usize,
                })),
                STATUS_NOT_CERTIFIED => Ok(None),
                other => Err(GpuError::Readback(format!(
                    "the GPU left status {other:#x} for {{{},{},{}}}",
                    t.a, t.b, t.c
                ))),
            })
            .collect()
    }
}
