//! The spider table on the GPU (`shaders/arrows.wgsl`): one dispatch per wavefront of equal
//! total attached length, one invocation per sorted leg tuple; the host lists each wavefront's
//! tuples and reads the whole table back at the end.

use super::spider::{MAX_LEGS, SpiderTable};
use crate::gpu::{GpuContext, GpuError};

const SHADER: &str = include_str!("../../shaders/arrows.wgsl");
const WORKGROUP: u32 = 64;
/// Words per tuple in the shader: two 16-bit codes per word.
const TUPLE_WORDS: usize = MAX_LEGS / 2;
/// Largest option value the shader's mex set holds.
const MAX_VALUE: u64 = 2047;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    legs: u32,
    count: u32,
    codes: u32,
    n_block: u32,
    io_block: u32,
    _pad: [u32; 3],
}

/// How a multiset table gets its values.
pub enum SpiderFill<'a> {
    /// On demand, by recursion from each spider asked for (one core): the plain path.
    Recursion,
    /// Bottom-up by wavefronts on all cores.
    Cpu,
    /// Bottom-up by wavefronts, one dispatch each.
    Gpu(&'a SpiderGpu<'a>),
}

impl SpiderFill<'_> {
    /// A table for every `legs`-leg spider with legs up to `h_max`, filled this way;
    /// `progress` gets leg tuples done (none for the recursion, which fills as it is read).
    pub fn table(
        &self,
        legs: usize,
        h_max: usize,
        progress: impl FnMut(u64),
    ) -> Result<SpiderTable, GpuError> {
        let mut table = SpiderTable::new(legs, h_max);
        match self {
            SpiderFill::Recursion => {}
            SpiderFill::Cpu => table.fill(progress),
            SpiderFill::Gpu(kernel) => kernel.fill(&mut table, progress)?,
        }
        Ok(table)
    }
}

/// The spider pipeline on one device.
pub struct SpiderGpu<'a> {
    ctx: &'a GpuContext,
    pipeline: wgpu::ComputePipeline,
}

impl<'a> SpiderGpu<'a> {
    pub fn new(ctx: &'a GpuContext) -> Result<Self, GpuError> {
        Ok(SpiderGpu {
            ctx,
            pipeline: ctx.compute_pipeline("arrows", SHADER)?,
        })
    }

    /// Fills a multiset table wavefront by wavefront; `progress` gets the leg tuples of each.
    pub fn fill(
        &self,
        table: &mut SpiderTable,
        mut progress: impl FnMut(u64),
    ) -> Result<(), GpuError> {
        let ctx = self.ctx;
        let entries = table.len();
        // One binding, 32-bit indices.
        let limit = ctx.max_binding_bytes().min(4 * u64::from(u32::MAX));
        if 4 * entries > limit {
            return Err(GpuError::TooLarge {
                what: "the spider table (one binding, 32-bit indices)".into(),
                needed: 4 * entries,
                limit,
                unit: "bytes",
            });
        }
        let rows = table.rows();
        let terms: Vec<u32> = rows.terms.iter().flatten().map(|&t| t as u32).collect();
        let storage = wgpu::BufferUsages::STORAGE;
        let copy = wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
        let terms = ctx.buffer_init("arrows terms", bytemuck::cast_slice(&terms), storage);
        // wgpu zeroes new buffers: no state stored yet.
        let values = ctx.buffer("arrows values", 4 * entries, storage | copy);
        let overflow =
            ctx.buffer_init("arrows overflow", bytemuck::bytes_of(&0u32), storage | copy);
        let params = ctx.buffer(
            "arrows params",
            std::mem::size_of::<Params>() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let mut tuples: Option<(wgpu::Buffer, wgpu::BindGroup, usize)> = None;
        let valid = table.valid_codes();
        let mut front = Vec::new();
        for total in 0..=table.legs * table.h_max() {
            front.clear();
            for first in 0..valid {
                table.for_each_in_front(total, first, |c| {
                    let mut words = [0u32; TUPLE_WORDS];
                    for (t, &code) in c.iter().enumerate() {
                        words[t / 2] |= u32::from(code) << (16 * (t % 2));
                    }
                    front.extend_from_slice(&words);
                });
            }
            let count = front.len() / TUPLE_WORDS;
            if count == 0 {
                continue;
            }
            // The tuple buffer grows to the largest wavefront; the bind group follows it.
            if tuples.as_ref().is_none_or(|t| t.2 < front.len()) {
                let size = front.len().next_power_of_two();
                let buffer = ctx.buffer("arrows tuples", 4 * size as u64, storage | copy);
                let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("arrows"),
                    layout: &self.pipeline.get_bind_group_layout(0),
                    entries: &[&params, &terms, &buffer, &values, &overflow]
                        .iter()
                        .enumerate()
                        .map(|(i, b)| wgpu::BindGroupEntry {
                            binding: i as u32,
                            resource: b.as_entire_binding(),
                        })
                        .collect::<Vec<_>>(),
                });
                tuples = Some((buffer, bind_group, size));
            }
            let (buffer, bind_group, _) = tuples.as_ref().expect("made above");
            let p = Params {
                legs: table.legs as u32,
                count: count as u32,
                codes: rows.width as u32,
                n_block: rows.n_block as u32,
                io_block: rows.io_block as u32,
                _pad: [0; 3],
            };
            ctx.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
            ctx.queue
                .write_buffer(buffer, 0, bytemuck::cast_slice(&front));
            ctx.dispatch(
                &self.pipeline,
                bind_group,
                ctx.dispatch_size(count as u32, WORKGROUP),
            );
            ctx.wait()?;
            progress(count as u64);
        }
        let flag = ctx.read_buffer(&overflow)?;
        if flag[..4] != [0; 4] {
            return Err(GpuError::OutOfRange(format!(
                "an option value of a spider state passed {MAX_VALUE}, the most the GPU's mex set holds"
            )));
        }
        let bytes = ctx.read_buffer(&values)?;
        table.store_all(bytemuck::cast_slice(&bytes));
        Ok(())
    }
}
