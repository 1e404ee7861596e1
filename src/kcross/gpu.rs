//! The component table on the GPU (`shaders/kcross.wgsl`): each level is a dispatch over its
//! words, reading lower levels from the same storage; the table is split over five bindings,
//! so it may be larger than one binding allows.

use super::layout::{Layout, WIDE};
use super::table::{TableError, ValueTable, check_budget};
use crate::gpu::{GpuContext, GpuError};

const SHADER: &str = include_str!("../../shaders/kcross.wgsl");
const WORKGROUP: u32 = 64;
/// Table bindings in the shader.
const SEGMENTS: u64 = 5;
/// Words per dispatch: keeps each submission short.
const BATCH_WORDS: u64 = 1 << 20;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    k: u32,
    n: u32,
    e: u32,
    bits: u32,
    batch_lo: u32,
    batch_hi: u32,
    seg_words: u32,
    contrib_at: u32,
    starts_at: u32,
    _pad: [u32; 3],
}

/// The k-cross pipeline on one device.
pub struct KcrossGpu<'a> {
    ctx: &'a GpuContext,
    pipeline: wgpu::ComputePipeline,
    /// Words per binding; tests lower it to split small tables.
    pub segment_words: u64,
}

impl<'a> KcrossGpu<'a> {
    pub fn new(ctx: &'a GpuContext) -> Result<Self, GpuError> {
        Ok(KcrossGpu {
            ctx,
            pipeline: ctx.compute_pipeline("kcross", SHADER)?,
            segment_words: ctx.max_binding_bytes() / 4,
        })
    }

    /// Refuses a layout this device cannot hold, before allocating.
    fn check(&self, layout: &Layout) -> Result<u64, GpuError> {
        let too_large = |what: &str, needed: u64, limit: u64, unit| GpuError::TooLarge {
            what: what.to_string(),
            needed,
            limit,
            unit,
        };
        let seg = self.segment_words.min(u64::from(u32::MAX));
        if layout.words() > seg * SEGMENTS || layout.words() >= u64::from(u32::MAX) {
            return Err(too_large(
                "the k-cross table (5 bindings)",
                layout.bytes(),
                4 * (seg * SEGMENTS).min(u64::from(u32::MAX)),
                "bytes",
            ));
        }
        // Ranks are 32-bit in the shader.
        let block = layout.largest_block();
        if block >= u64::from(u32::MAX) {
            return Err(too_large(
                "one k-cross block (32-bit ranks)",
                block,
                u64::from(u32::MAX) - 1,
                "states",
            ));
        }
        Ok(seg)
    }

    /// Computes the whole table, again at 8 bits if a value needs it and `budget` allows;
    /// `progress` counts states level by level.
    pub fn build(
        &self,
        layout: Layout,
        budget: u64,
        progress: &indicatif::ProgressBar,
    ) -> Result<ValueTable, TableError> {
        match self.build_with(layout.clone(), progress) {
            Err(TableError::ValueTooLarge { .. }) if layout.bits < WIDE => {
                let wide = layout.widened();
                check_budget(&wide, budget)?;
                progress.set_position(0);
                self.build_with(wide, progress)
            }
            other => other,
        }
    }

    fn build_with(
        &self,
        layout: Layout,
        progress: &indicatif::ProgressBar,
    ) -> Result<ValueTable, TableError> {
        let seg = self.check(&layout)?;
        let ctx = self.ctx;
        let (tables, contrib_at, starts_at) = layout.gpu_tables();
        let storage = wgpu::BufferUsages::STORAGE;
        let tables = ctx.buffer_init("kcross tables", bytemuck::cast_slice(&tables), storage);
        let overflow = ctx.buffer_init(
            "kcross overflow",
            bytemuck::bytes_of(&u32::MAX),
            storage | wgpu::BufferUsages::COPY_SRC,
        );
        let params = ctx.buffer(
            "kcross params",
            std::mem::size_of::<Params>() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let segments: Vec<wgpu::Buffer> = (0..SEGMENTS)
            .map(|i| {
                let words = layout.words().saturating_sub(i * seg).min(seg).max(1);
                ctx.buffer(
                    "kcross segment",
                    words * 4,
                    storage | wgpu::BufferUsages::COPY_SRC,
                )
            })
            .collect();
        let mut entries = vec![
            params.as_entire_binding(),
            tables.as_entire_binding(),
            overflow.as_entire_binding(),
        ];
        entries.extend(segments.iter().map(|b| b.as_entire_binding()));
        let entries: Vec<wgpu::BindGroupEntry> = entries
            .into_iter()
            .enumerate()
            .map(|(i, resource)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource,
            })
            .collect();
        let bind_group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("kcross"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        for e in 1..=layout.n {
            progress.set_message(format!("k = {}, level {e}/{}", layout.k, layout.n));
            let level = layout.level_words(e);
            let mut lo = level.start;
            while lo < level.end {
                let hi = (lo + BATCH_WORDS).min(level.end);
                let p = Params {
                    k: layout.k as u32,
                    n: layout.n as u32,
                    e: e as u32,
                    bits: layout.bits,
                    batch_lo: lo as u32,
                    batch_hi: hi as u32,
                    seg_words: seg as u32,
                    contrib_at,
                    starts_at,
                    _pad: [0; 3],
                };
                ctx.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
                let groups = ctx.dispatch_size((hi - lo) as u32, WORKGROUP);
                ctx.dispatch(&self.pipeline, &bind_group, groups);
                lo = hi;
            }
            ctx.wait()?;
            let states: u64 = (0..=layout.n - e).map(|s| layout.block_len(e, s)).sum();
            progress.inc(states);
        }
        let first_overflow = ctx.read_buffer(&overflow)?;
        let first_overflow = u32::from_le_bytes(first_overflow[..4].try_into().expect("4 bytes"));
        if first_overflow != u32::MAX {
            let (e, s, _) = layout
                .locate(u64::from(first_overflow) * layout.per_word())
                .expect("an overflow inside the table");
            return Err(TableError::ValueTooLarge {
                k: layout.k,
                what: format!("a component with {e} live cells and {s} X's"),
                max: layout.max_value(),
            });
        }
        let mut words = Vec::with_capacity(layout.words() as usize);
        for buffer in &segments {
            let bytes = ctx.read_buffer(buffer)?;
            let left = layout.words() as usize - words.len();
            let here: &[u32] = bytemuck::cast_slice(&bytes);
            words.extend_from_slice(&here[..here.len().min(left)]);
        }
        debug_assert_eq!(words.len(), layout.words() as usize);
        Ok(ValueTable::from_words(layout, words))
    }
}
