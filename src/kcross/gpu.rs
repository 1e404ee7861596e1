//! The component table on the GPU (`shaders/kcross.wgsl`): each level is a dispatch over its
//! words, reading lower levels from the same storage. The table spreads over as many bindings
//! as it needs (`gpu::segments`), with 64-bit indices where it or a block passes 32 bits, and
//! stays on the device: commands that print only `G([n])` read back only those words.

use super::board::Board;
use super::components::components;
use super::layout::{Layout, WIDE};
use super::table::{TableError, ValueTable, check_budget};
use crate::gpu::segments::{DeviceTable, Misfit, Pipelines, TablePlan, TableRequest};
use crate::gpu::{GpuContext, GpuError};
use crate::memory::Budget;

/// The kernel, after the loop checks it shares with the other kernels.
const SHADER: &str = concat!(
    include_str!("../../shaders/loop_check.wgsl"),
    include_str!("../../shaders/kcross.wgsl")
);
const WORKGROUP: u32 = 64;
/// Words per dispatch: keeps each submission short.
const BATCH_WORDS: u64 = 1 << 20;
/// The flag word's mark for a loop the kernel found cut short (`LOOP_CUT` in the shader): above
/// every S an overflow leaves, which then wins (an error either way).
const LOOP_CUT: u32 = 0xffff_fffe;
/// The flag word's "no value overflowed".
const NO_OVERFLOW: u32 = u32::MAX;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    k: u32,
    n: u32,
    e: u32,
    bits: u32,
    first_lo: u32,
    first_hi: u32,
    count: u32,
    contrib_at: u32,
    starts_at: u32,
    flag_lo: u32,
    flag_hi: u32,
    _pad: u32,
}

/// The k-cross kernel on one device.
pub struct KcrossGpu<'a> {
    ctx: &'a GpuContext,
    /// Bytes per binding: the adapter's limit (or `NIMSEQ_GPU_MAX_BINDING`); tests lower it to
    /// split small tables.
    pub binding_bytes: u64,
    /// 64-bit indices even where 32 bits would do (tests).
    pub wide: bool,
    pipelines: Pipelines,
}

/// A table computed on the device, with its (possibly widened) layout.
struct OnDevice {
    layout: Layout,
    table: DeviceTable,
}

impl<'a> KcrossGpu<'a> {
    pub fn new(ctx: &'a GpuContext) -> Result<Self, GpuError> {
        Ok(KcrossGpu {
            ctx,
            binding_bytes: ctx.max_binding_bytes(),
            wide: false,
            pipelines: Pipelines::new("kcross", SHADER),
        })
    }

    /// How `layout`'s table (and its flag word) lies in bindings, or why it does not fit.
    fn try_plan(&self, layout: &Layout) -> Result<TablePlan, Misfit> {
        let words = layout.words() + 1;
        // Ranks, counts and block starts are `Idx` in the shader.
        let wide = self.wide
            || words > u64::from(u32::MAX)
            || layout.largest_block() >= u64::from(u32::MAX);
        let entries = layout.gpu_inputs_len() as u64;
        TablePlan::new(
            self.ctx,
            TableRequest {
                words,
                wide,
                input_words: entries * if wide { 2 } else { 1 },
                binding_bytes: self.binding_bytes,
            },
        )
    }

    /// The plan for `layout`, refused before allocating with the largest `n` that fits.
    pub fn plan(&self, layout: &Layout) -> Result<TablePlan, GpuError> {
        self.try_plan(layout).map_err(|misfit| {
            let fits = (1..layout.n)
                .rev()
                .find(|&n| {
                    self.try_plan(&Layout::with_bits(layout.k, n, layout.bits))
                        .is_ok()
                })
                .map_or(String::new(), |n| format!("; n <= {n} fits"));
            misfit.refusal(
                format!(
                    "the k-cross table for k = {}, n <= {} at {} bits",
                    layout.k, layout.n, layout.bits
                ),
                4 * (layout.words() + 1),
                fits,
            )
        })
    }

    /// Computes the whole table and reads it back; `progress` counts states level by level.
    pub fn build(
        &self,
        layout: Layout,
        budget: Budget,
        progress: &indicatif::ProgressBar,
    ) -> Result<(ValueTable, TablePlan), TableError> {
        let done = self.on_device(layout, budget, progress)?;
        let mut words = done.table.read_all(self.ctx)?;
        words.truncate(done.layout.words() as usize);
        Ok((ValueTable::from_words(done.layout, words), done.table.plan))
    }

    /// `G([m])` for `m = 0..=layout.n`, reading back only the words those need; the table's
    /// layout and plan are returned for logs.
    pub fn strips(
        &self,
        layout: Layout,
        budget: Budget,
        progress: &indicatif::ProgressBar,
    ) -> Result<(Vec<u8>, Layout, TablePlan), TableError> {
        let done = self.on_device(layout, budget, progress)?;
        let layout = &done.layout;
        let pieces: Vec<Vec<(usize, u32)>> = (0..=layout.n)
            .map(|m| {
                components(&Board::strip(m), layout.k)
                    .iter()
                    .map(|v| layout.slot_of(v))
                    .collect()
            })
            .collect();
        let at: Vec<u64> = pieces.iter().flatten().map(|&(w, _)| w as u64).collect();
        let words = done.table.gather(self.ctx, &at)?;
        let mut words = words.into_iter();
        let values = pieces
            .iter()
            .map(|strip| {
                strip.iter().fold(0, |g, &(_, shift)| {
                    let word = words.next().expect("one word per piece");
                    g ^ layout.extract(word, shift) as u8
                })
            })
            .collect();
        Ok((values, done.layout, done.table.plan))
    }

    /// The table on the device, again at 8 bits if a value needs it and `budget` allows.
    fn on_device(
        &self,
        layout: Layout,
        budget: Budget,
        progress: &indicatif::ProgressBar,
    ) -> Result<OnDevice, TableError> {
        match self.compute(layout.clone(), progress) {
            Err(TableError::ValueTooLarge { .. }) if layout.bits < WIDE => {
                let wide = layout.widened();
                check_budget(&wide, budget)?;
                progress.set_position(0);
                self.compute(wide, progress)
            }
            other => other,
        }
    }

    fn compute(
        &self,
        layout: Layout,
        progress: &indicatif::ProgressBar,
    ) -> Result<OnDevice, TableError> {
        let plan = self.plan(&layout)?;
        let ctx = self.ctx;
        let pipeline = self.pipelines.get(ctx, &plan)?;
        let (inputs, contrib_at, starts_at) = layout.gpu_inputs();
        let mut inputs = plan.input_entries(inputs);
        let usage = if plan.uniform_inputs() {
            wgpu::BufferUsages::UNIFORM
        } else {
            wgpu::BufferUsages::STORAGE
        };
        inputs.resize((plan.inputs_bytes(inputs.len() as u64) / 4) as usize, 0);
        let inputs = ctx.buffer_init("kcross inputs", bytemuck::cast_slice(&inputs), usage);
        let params = ctx.buffer(
            "kcross params",
            std::mem::size_of::<Params>() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let table = DeviceTable::new(ctx, plan, "the k-cross table")?;
        let flag = layout.words();
        let mut buffers = vec![(0, &params), (1, &inputs)];
        buffers.extend(table.entries());
        let bind_group = ctx.checked("the k-cross bind group", 0, || {
            ctx.bind_group(&pipeline, &buffers)
        })?;
        for e in 1..=layout.n {
            progress.set_message(format!("k = {}, level {e}/{}", layout.k, layout.n));
            table.write(ctx, flag, &[NO_OVERFLOW]);
            let level = layout.level_words(e);
            let mut lo = level.start;
            while lo < level.end {
                let hi = (lo + BATCH_WORDS).min(level.end);
                let p = Params {
                    k: layout.k as u32,
                    n: layout.n as u32,
                    e: e as u32,
                    bits: layout.bits,
                    first_lo: lo as u32,
                    first_hi: (lo >> 32) as u32,
                    count: (hi - lo) as u32,
                    contrib_at,
                    starts_at,
                    flag_lo: flag as u32,
                    flag_hi: (flag >> 32) as u32,
                    _pad: 0,
                };
                ctx.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
                let groups = ctx.dispatch_size((hi - lo) as u32, WORKGROUP);
                ctx.dispatch(&pipeline, &bind_group, groups);
                lo = hi;
            }
            // Waits for the level; a value over the width ends the build here.
            let s = table.gather(ctx, &[flag])?[0];
            if s == LOOP_CUT {
                return Err(TableError::Gpu(ctx.loop_cut("kcross")));
            }
            if s != NO_OVERFLOW {
                return Err(TableError::ValueTooLarge {
                    k: layout.k,
                    what: format!("a component with {e} live cells and {s} X's"),
                    max: layout.max_value(),
                });
            }
            let states: u64 = (0..=layout.n - e).map(|s| layout.block_len(e, s)).sum();
            progress.inc(states);
        }
        Ok(OnDevice { layout, table })
    }
}
