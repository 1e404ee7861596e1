//! The spider table on the GPU (`shaders/arrows.wgsl`): one dispatch per wavefront of equal
//! total attached length (or a few, where the inputs hold fewer tuples), one invocation per
//! sorted leg tuple. Entries are 8 bits (16 once a value passes 254) over as many bindings as
//! the table needs (`gpu::segments`); the spiders' values are read back segment by segment,
//! not the whole table.

use super::forest::Status;
use super::spider::{MAX_LEGS, Rows, SpiderTable, each_spider, for_each_in_front, valid_codes};
use crate::gpu::segments::{DeviceTable, Misfit, Pipelines, TablePlan, TableRequest};
use crate::gpu::{GpuContext, GpuError};
use crate::output::checkpoint::{Checkpoint, CheckpointError, Saving};

/// The kernel, after the loop checks it shares with the other kernels.
const SHADER: &str = concat!(
    include_str!("../../shaders/loop_check.wgsl"),
    include_str!("../../shaders/arrows.wgsl")
);
const WORKGROUP: u32 = 64;
/// Words per tuple in the shader: two 16-bit codes per word.
const TUPLE_WORDS: usize = MAX_LEGS / 2;
/// Largest option value the shader's mex set holds.
const MAX_VALUE: u64 = 2047;
/// Tuples per dispatch where the inputs are a storage buffer.
const STORAGE_TUPLES: u64 = 1 << 18;
/// Entry widths: the narrow one first (values below 255).
const NARROW: u32 = 8;
const WIDE: u32 = 16;
/// Flag bits the shader raises.
const ENTRY_OVERFLOW: u32 = 1;
const MEX_OVERFLOW: u32 = 2;
/// The flag bit the kernel raises where one of its loops was cut short.
const LOOP_CUT: u32 = 4;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    legs: u32,
    count: u32,
    codes: u32,
    bits: u32,
    n_block_lo: u32,
    n_block_hi: u32,
    io_block_lo: u32,
    io_block_hi: u32,
    tuples_at: u32,
    flag_lo: u32,
    flag_hi: u32,
    _pad: u32,
}

/// How a multiset table gets its values.
pub enum SpiderFill<'a> {
    /// On demand, by recursion from each spider asked for (one core): the plain path.
    Recursion,
    /// Bottom-up by wavefronts on all cores.
    Cpu,
    /// Bottom-up by wavefronts, on the GPU.
    Gpu(&'a SpiderGpu<'a>),
}

/// Every spider's value, and where the GPU held its table.
pub struct SpiderValues {
    /// `g(S(x))` for `1 <= x_1 <= ... <= x_k <= h_max`, in lexicographic order.
    pub values: Vec<u16>,
    pub device: Option<TablePlan>,
}

/// What can stop a spider table.
#[derive(Debug, thiserror::Error)]
pub enum FillError {
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

impl SpiderFill<'_> {
    /// The value of every `legs`-leg spider with legs up to `h_max`, from a table filled this
    /// way; `progress` gets leg tuples done (none for the recursion, which fills as it is
    /// read). The CPU fill saves its wavefronts to `saving`, if given (the file stays for
    /// the caller to remove once the rows are out).
    pub fn spiders(
        &self,
        legs: usize,
        h_max: usize,
        saving: Option<Saving>,
        mut progress: impl FnMut(u64),
    ) -> Result<SpiderValues, FillError> {
        let from_table = |mut table: SpiderTable| SpiderValues {
            values: table.spider_values(),
            device: None,
        };
        match self {
            SpiderFill::Recursion => Ok(from_table(SpiderTable::new(legs, h_max))),
            SpiderFill::Cpu => {
                let mut table = SpiderTable::new(legs, h_max);
                match saving {
                    None => table.fill(progress),
                    Some(saving) => fill_saved(&mut table, saving, &mut progress)?,
                }
                Ok(from_table(table))
            }
            SpiderFill::Gpu(kernel) => Ok(kernel.spiders(legs, h_max, progress)?),
        }
    }
}

/// Fills `table` on the CPU, each finished wavefront saved to `saving` and, when resuming,
/// the saved ones taken back first.
fn fill_saved(
    table: &mut SpiderTable,
    saving: Saving,
    progress: &mut impl FnMut(u64),
) -> Result<(), CheckpointError> {
    let identity = serde_json::json!({
        "table": "spiders",
        "legs": table.legs,
        "leg_max": table.h_max(),
    });
    let (mut file, saved) = Checkpoint::open(saving.path, &identity, 16, saving.resume)?;
    let mut start = 0;
    for (step, payload) in saved.map_or(Vec::new(), |s| s.steps) {
        let values: Vec<u16> = payload
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        let tuples = (step == start as u64 && payload.len() % 2 == 0)
            .then(|| table.restore_wavefront(start, &values))
            .flatten()
            .ok_or_else(|| CheckpointError::Foreign {
                path: saving.path.to_path_buf(),
                why: format!("a record for wavefront {step} that does not fit wavefront {start}"),
            })?;
        progress(tuples);
        start += 1;
    }
    table.fill_from(start, progress, |total, table| {
        let bytes: Vec<u8> = table
            .wavefront_values(total)
            .iter()
            .flat_map(|g| g.to_le_bytes())
            .collect();
        file.append(total as u64, &bytes)
    })
}

/// The spider kernel on one device.
pub struct SpiderGpu<'a> {
    ctx: &'a GpuContext,
    /// Bytes per binding: the adapter's limit (or `NIMSEQ_GPU_MAX_BINDING`); tests lower it.
    pub binding_bytes: u64,
    /// 64-bit indices even where 32 bits would do (tests).
    pub wide: bool,
    pipelines: Pipelines,
    /// Bits an entry starts at: 8, or 4 in tests (to reach the widening to 16).
    pub first_bits: u32,
}

/// A filled table on the device.
struct OnDevice {
    table: DeviceTable,
    packing: Packing,
}

/// How entries of `bits` pack into `u32` words, as the shader's `entry` reads them: `32 / bits`
/// a word, the first in the low bits.
#[derive(Clone, Copy)]
struct Packing {
    bits: u32,
}

impl Packing {
    fn per_word_log2(self) -> u32 {
        (32 / self.bits).trailing_zeros()
    }

    /// Words for `entries`, with the flag word after them.
    fn words(self, entries: u64) -> u64 {
        entries.div_ceil(1 << self.per_word_log2()) + 1
    }

    /// The word holding entry `i`.
    fn word(self, i: u64) -> u64 {
        i >> self.per_word_log2()
    }

    /// Entry `i` (the value plus one, 0 where no state is stored) from its word.
    fn get(self, word: u32, i: u64) -> u32 {
        let slot = i as u32 & ((1 << self.per_word_log2()) - 1);
        (word >> (self.bits * slot)) & ((1 << self.bits) - 1)
    }
}

impl<'a> SpiderGpu<'a> {
    pub fn new(ctx: &'a GpuContext) -> Result<Self, GpuError> {
        Ok(SpiderGpu {
            ctx,
            binding_bytes: ctx.max_binding_bytes(),
            wide: false,
            pipelines: Pipelines::new("arrows", SHADER),
            first_bits: NARROW,
        })
    }

    fn try_plan(&self, legs: usize, h_max: usize, bits: u32) -> Result<TablePlan, Misfit> {
        let rows = Rows::new(legs, h_max);
        TablePlan::new(
            self.ctx,
            TableRequest {
                words: Packing { bits }.words(rows.entries()),
                wide: self.wide,
                // The terms and one tuple at least.
                input_words: rows.terms.iter().map(|t| t.len() as u64).sum::<u64>()
                    + TUPLE_WORDS as u64,
                binding_bytes: self.binding_bytes,
            },
        )
    }

    /// The plan for the table, refused before allocating with the largest leg bound that fits.
    fn plan(&self, legs: usize, h_max: usize, bits: u32) -> Result<TablePlan, GpuError> {
        self.try_plan(legs, h_max, bits).map_err(|misfit| {
            let fits = (1..h_max)
                .rev()
                .find(|&h| self.try_plan(legs, h, bits).is_ok())
                .map_or(String::new(), |h| format!("; legs <= {h} fit"));
            let entries = Rows::new(legs, h_max).entries();
            misfit.refusal(
                format!("the table of {legs}-leg spiders with legs <= {h_max} at {bits} bits"),
                4 * Packing { bits }.words(entries),
                fits,
            )
        })
    }

    /// Fills `table` (a multiset table) on the device and reads every entry back (tests
    /// compare it with the CPU's); `progress` gets the leg tuples of each wavefront.
    pub fn fill(&self, table: &mut SpiderTable, progress: impl FnMut(u64)) -> Result<(), GpuError> {
        let done = self.on_device(table.legs, table.h_max(), progress)?;
        let words = done.table.read_all(self.ctx)?;
        let packing = done.packing;
        let entries = (0..(words.len() as u64) << packing.per_word_log2())
            .map(|i| packing.get(words[packing.word(i) as usize], i));
        table.store_all(entries);
        Ok(())
    }

    /// Every spider's value (as [`SpiderFill::spiders`]), read back segment by segment.
    pub fn spiders(
        &self,
        legs: usize,
        h_max: usize,
        progress: impl FnMut(u64),
    ) -> Result<SpiderValues, GpuError> {
        let done = self.on_device(legs, h_max, progress)?;
        let rows = Rows::new(legs, h_max);
        // The spiders sharing their first legs - 1 legs lie in one row, at 3 x_k: each such
        // prefix with its first spider's place in the output and its last leg.
        let mut prefixes = Vec::new();
        let mut count = 0;
        each_spider(legs - 1, h_max, |x| {
            let codes: Vec<u16> = x.iter().map(|&x| 3 * x as u16).collect();
            let last = *x.last().expect("legs >= 3");
            prefixes.push((count, rows.row(Status::N, &codes) as u64, last));
            count += h_max - last + 1;
            Ok::<_, ()>(())
        })
        .expect("prefixes go to a vector");
        let (packing, plan) = (done.packing, &done.table.plan);
        let mut values = vec![0u16; count];
        let mut found = 0;
        for segment in 0..plan.segments {
            let words = done.table.read_segment(self.ctx, segment)?;
            let first = u64::from(segment) * plan.segment_words;
            let end = first + words.len() as u64;
            for &(at, row, last) in &prefixes {
                let word = |x: usize| packing.word(row + 3 * x as u64);
                if word(h_max) < first || word(last) >= end {
                    continue;
                }
                for x in last..=h_max {
                    let entry = row + 3 * x as u64;
                    if (first..end).contains(&packing.word(entry)) {
                        let w = words[(packing.word(entry) - first) as usize];
                        let stored = packing.get(w, entry);
                        // Stored values are one more than the value; 0 would be no state.
                        values[at + x - last] = stored.checked_sub(1).ok_or_else(|| {
                            GpuError::Readback(format!("spider entry {entry} was never stored"))
                        })? as u16;
                        found += 1;
                    }
                }
            }
        }
        assert_eq!(found, count, "every spider read once");
        Ok(SpiderValues {
            values,
            device: Some(done.table.plan),
        })
    }

    /// The table on the device, again at 16 bits if an entry needs it (`progress` then counts
    /// the tuples again).
    fn on_device(
        &self,
        legs: usize,
        h_max: usize,
        mut progress: impl FnMut(u64),
    ) -> Result<OnDevice, GpuError> {
        if let Some(done) = self.compute(legs, h_max, self.first_bits, &mut progress)? {
            return Ok(done);
        }
        self.compute(legs, h_max, WIDE, &mut progress)?
            .ok_or_else(|| GpuError::OutOfRange("a spider entry passed 16 bits".into()))
    }

    /// Fills the table at `bits` an entry: `None` if an entry does not fit.
    fn compute(
        &self,
        legs: usize,
        h_max: usize,
        bits: u32,
        progress: &mut impl FnMut(u64),
    ) -> Result<Option<OnDevice>, GpuError> {
        let ctx = self.ctx;
        let plan = self.plan(legs, h_max, bits)?;
        let pipeline = self.pipelines.get(ctx, &plan)?;
        let rows = Rows::new(legs, h_max);
        let terms: Vec<u32> = rows
            .terms
            .iter()
            .flatten()
            .map(|&t| {
                u32::try_from(t)
                    .map_err(|_| GpuError::OutOfRange("a multiset rank term passed 32 bits".into()))
            })
            .collect::<Result<_, _>>()?;
        let tuples_at = terms.len() as u64;
        let chunk = plan.input_capacity().map_or(STORAGE_TUPLES, |words| {
            (words - tuples_at) / TUPLE_WORDS as u64
        });
        let input_words = tuples_at + chunk * TUPLE_WORDS as u64;
        let usage = wgpu::BufferUsages::COPY_DST
            | if plan.uniform_inputs() {
                wgpu::BufferUsages::UNIFORM
            } else {
                wgpu::BufferUsages::STORAGE
            };
        let inputs = ctx.checked("the spider inputs", 4 * input_words, || {
            ctx.buffer("arrows inputs", plan.inputs_bytes(input_words), usage)
        })?;
        ctx.queue
            .write_buffer(&inputs, 0, bytemuck::cast_slice(&terms));
        let params = ctx.buffer(
            "arrows params",
            std::mem::size_of::<Params>() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        let flag = plan.words - 1;
        let table = DeviceTable::new(ctx, plan, "the spider table")?;
        let mut buffers = vec![(0, &params), (1, &inputs)];
        buffers.extend(table.entries());
        let bind_group = ctx.checked("the spider bind group", 0, || {
            ctx.bind_group(&pipeline, &buffers)
        })?;
        let split = |x: u64| (x as u32, (x >> 32) as u32);
        let (n_block_lo, n_block_hi) = split(rows.n_block as u64);
        let (io_block_lo, io_block_hi) = split(rows.io_block as u64);
        let (flag_lo, flag_hi) = split(flag);
        let mut front = Vec::new();
        for total in 0..=legs * h_max {
            front.clear();
            for first in 0..valid_codes(h_max) {
                for_each_in_front(legs, h_max, total, first, |c| {
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
            for piece in front.chunks(chunk as usize * TUPLE_WORDS) {
                let tuples = (piece.len() / TUPLE_WORDS) as u32;
                let p = Params {
                    legs: legs as u32,
                    count: tuples,
                    codes: rows.width as u32,
                    bits,
                    n_block_lo,
                    n_block_hi,
                    io_block_lo,
                    io_block_hi,
                    tuples_at: tuples_at as u32,
                    flag_lo,
                    flag_hi,
                    _pad: 0,
                };
                ctx.queue.write_buffer(&params, 0, bytemuck::bytes_of(&p));
                ctx.queue
                    .write_buffer(&inputs, 4 * tuples_at, bytemuck::cast_slice(piece));
                ctx.dispatch(&pipeline, &bind_group, ctx.dispatch_size(tuples, WORKGROUP));
            }
            // Waits for the wavefront; a flag ends the build here.
            let raised = table.gather(ctx, &[flag])?[0];
            if raised & LOOP_CUT != 0 {
                return Err(ctx.loop_cut("arrows"));
            }
            if raised & MEX_OVERFLOW != 0 {
                return Err(GpuError::OutOfRange(format!(
                    "an option value of a spider state passed {MAX_VALUE}, the most the GPU's mex set holds"
                )));
            }
            if raised & ENTRY_OVERFLOW != 0 {
                return Ok(None);
            }
            progress(count as u64);
        }
        Ok(Some(OnDevice {
            table,
            packing: Packing { bits },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fill saved to a checkpoint and cut short anywhere (a kill) resumes to the same values
    /// as a fill without one; a checkpoint of other legs is refused.
    #[test]
    fn checkpointed_fills_resume_to_the_same_values() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spiders.ckpt");
        let want = SpiderFill::Cpu.spiders(3, 25, None, |_| ()).unwrap().values;
        let fresh = Saving {
            path: &path,
            resume: false,
        };
        let whole = SpiderFill::Cpu.spiders(3, 25, Some(fresh), |_| ()).unwrap();
        assert_eq!(whole.values, want);
        let full = std::fs::read(&path).unwrap();
        for keep in [0.0, 0.25, 0.5, 0.9, 1.0] {
            let cut = ((full.len() as f64) * keep) as usize;
            std::fs::write(&path, &full[..cut.max(70)]).unwrap();
            let resumed = Saving {
                path: &path,
                resume: true,
            };
            let mut tuples = 0;
            let got = SpiderFill::Cpu
                .spiders(3, 25, Some(resumed), |done| tuples += done)
                .unwrap();
            assert_eq!(got.values, want, "kept {keep}");
            assert_eq!(tuples, SpiderTable::tuples(3, 25), "kept {keep}");
        }
        let other = Saving {
            path: &path,
            resume: true,
        };
        let err = SpiderFill::Cpu
            .spiders(3, 24, Some(other), |_| ())
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("--leg-max 25 there, 24 here"),
            "{err}"
        );
    }
}
