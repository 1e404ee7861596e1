//! Tables larger than one storage binding: a table's `u32` words spread over as many bindings
//! ("segments") as the adapter allows, with the WGSL that addresses them generated to match.
//!
//! Why generated bindings, one per segment, rather than `binding_array`: binding arrays of
//! storage buffers need a native-only feature that lavapipe (CI) and GL lack, so they would
//! need a fallback anyway, and two paths where one serves. A generated binary tree of
//! comparisons picks the segment on each access (see `tree` below for what that costs).
//!
//! A word's segment is `(w >> granule) / granules`, a constant division the shader compiler
//! turns into a multiply: segments hold a multiple of `2^granule` words, as many as one binding
//! allows, and `w >> granule` fits 32 bits. Indices are `u32`, or `u64` where the table or its
//! ranks pass 32 bits (on adapters with `SHADER_INT64`).
//!
//! Bindings: 0 the family's uniform parameters, 1 its small inputs (a read-only storage buffer
//! where a storage binding is left, else a uniform one: lavapipe has 32 storage bindings, all of
//! which a forced split may take), then the segments. The table is followed by spare words a
//! kernel uses for flags (read back after each level), so no other storage binding is needed.

use std::fmt;
use std::sync::Mutex;

use super::{GpuContext, GpuError};
use crate::memory::human_bytes;

/// Where a family's shader marks the block [`TablePlan::wgsl`] replaces.
pub const BLOCK: &str = "table";

/// How a table's words lie in bindings, and how its shader addresses them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablePlan {
    /// Words held: the table and its spare words.
    pub words: u64,
    /// Words per segment (the last may hold fewer).
    pub segment_words: u64,
    pub segments: u32,
    /// 64-bit indices.
    pub wide: bool,
    /// `log2` of the unit segments are counted in (0 with 32-bit indices).
    granule_log2: u32,
    /// The inputs' binding: `None` for storage, else a uniform of this many `u32`s.
    uniform_inputs: Option<u32>,
}

/// What a family asks of a plan.
#[derive(Clone, Copy, Debug)]
pub struct TableRequest {
    /// Table words, spare words included.
    pub words: u64,
    /// Whether ranks or indices need 64 bits even where the words would not.
    pub wide: bool,
    /// The fewest `u32`s the inputs binding must hold at once (a uniform one, where no storage
    /// binding is left, holds up to its limit).
    pub input_words: u64,
    /// Bytes per binding: the adapter's limit, or lower to force a split.
    pub binding_bytes: u64,
}

/// A table's segments, in one line for logs: `table in 37 bindings of 16.0 KiB`.
impl fmt::Display for TablePlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table in {} binding{} of {}{}",
            self.segments,
            if self.segments == 1 { "" } else { "s" },
            human_bytes(4 * self.segment_words.min(self.words)),
            if self.wide { ", 64-bit indices" } else { "" }
        )
    }
}

/// Why a table does not fit an adapter, before anything is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// More segments than storage bindings.
    Bindings { bindings: u32, segment_bytes: u64 },
    /// 64-bit indices on an adapter without `SHADER_INT64`.
    NoInt64,
    /// Inputs too large for the uniform binding left.
    Inputs { bytes: u64 },
}

impl Misfit {
    /// The refusal of a table of `needed` bytes described by `what`, with `fits` naming the
    /// largest size that would fit (as `; n <= 28 fits`, or empty).
    pub fn refusal(self, what: String, needed: u64, fits: String) -> GpuError {
        let (allowed, limit) = match self {
            Misfit::Bindings {
                bindings,
                segment_bytes,
            } => (
                segment_bytes * u64::from(bindings),
                format!(
                    "{bindings} storage bindings of {}",
                    human_bytes(segment_bytes)
                ),
            ),
            Misfit::NoInt64 => (
                4 * u64::from(u32::MAX),
                "32-bit indices: the adapter lacks SHADER_INT64".to_string(),
            ),
            Misfit::Inputs { bytes } => (
                needed,
                format!(
                    "its inputs pass the {} uniform binding left beside the segments",
                    human_bytes(bytes)
                ),
            ),
        };
        GpuError::TableTooLarge {
            what,
            needed,
            allowed,
            limit,
            fits,
        }
    }
}

impl TablePlan {
    /// The plan for `request` on `ctx`, or why it does not fit.
    pub fn new(ctx: &GpuContext, request: TableRequest) -> Result<Self, Misfit> {
        let bindings = ctx.storage_bindings();
        let int64 = ctx.device.features().contains(wgpu::Features::SHADER_INT64);
        let binding_words = (request.binding_bytes / 4).max(1);
        let wide = needs_wide(request.words, request.wide);
        // With 64-bit indices, the unit makes `w >> granule_log2` fit 32 bits.
        let granule_log2 = granule_log2(request.words);
        let segment_words = binding_words >> granule_log2 << granule_log2;
        let too_many = Misfit::Bindings {
            bindings,
            segment_bytes: 4 * segment_words,
        };
        if segment_words == 0 {
            return Err(too_many);
        }
        if wide && !int64 {
            return Err(Misfit::NoInt64);
        }
        let segments = request.words.div_ceil(segment_words);
        if segments > u64::from(bindings) {
            return Err(too_many);
        }
        let uniform_inputs = if segments < u64::from(bindings) {
            None
        } else {
            // The whole uniform binding: families that stream inputs fill it in chunks.
            let most = ctx.limits.max_uniform_buffer_binding_size.min(1 << 30) / 16 * 4;
            if request.input_words > most {
                return Err(Misfit::Inputs { bytes: 4 * most });
            }
            Some(most as u32)
        };
        Ok(Self::fixed(
            request.words,
            segment_words,
            wide,
            uniform_inputs,
        ))
    }

    /// The plan of `words` in segments of `segment_words` (a multiple of the granule 64-bit
    /// indices need), with inputs in a uniform of that many `u32`s or in storage, unchecked
    /// against any adapter (tests validate the shaders it generates without one).
    pub fn fixed(words: u64, segment_words: u64, wide: bool, uniform_inputs: Option<u32>) -> Self {
        let granule_log2 = granule_log2(words);
        assert!(
            segment_words > 0 && segment_words.is_multiple_of(1 << granule_log2),
            "segments of {segment_words} words for {words}"
        );
        TablePlan {
            words,
            segment_words,
            segments: words.div_ceil(segment_words) as u32,
            wide: needs_wide(words, wide),
            granule_log2,
            uniform_inputs,
        }
    }

    /// Words of segment `i`.
    fn segment_len(&self, i: u32) -> u64 {
        (self.words - u64::from(i) * self.segment_words).min(self.segment_words)
    }

    /// The shader's table block: the index type `Idx` with `idx(lo, hi)` building one from
    /// halves, the inputs binding read through `input(i)` (`input_idx(i)`: the `i`-th `Idx`,
    /// two words each when wide, low first; see [`Self::input_entries`]), and the segments read
    /// and written
    /// through `load_word`, `or_word` and `min_word` (atomic: words are shared by invocations).
    pub fn wgsl(&self) -> String {
        let mut s = String::new();
        if self.wide {
            s += "alias Idx = u64;\nfn idx(lo: u32, hi: u32) -> Idx {\n    return (u64(hi) << 32u) | u64(lo);\n}\n";
            s += "fn input_idx(i: u32) -> Idx {\n    return idx(input(2u * i), input(2u * i + 1u));\n}\n";
        } else {
            s += "alias Idx = u32;\nfn idx(lo: u32, hi: u32) -> Idx {\n    return lo;\n}\n";
            s += "fn input_idx(i: u32) -> Idx {\n    return input(i);\n}\n";
        }
        match self.uniform_inputs {
            None => {
                s += "@group(0) @binding(1) var<storage, read> inputs: array<u32>;\n";
                s += "fn input(i: u32) -> u32 {\n    return inputs[i];\n}\n";
            }
            Some(words) => {
                s += &format!(
                    "@group(0) @binding(1) var<uniform> inputs: array<vec4<u32>, {}>;\n",
                    words / 4
                );
                s += "fn input(i: u32) -> u32 {\n    return inputs[i / 4u][i % 4u];\n}\n";
            }
        }
        for i in 0..self.segments {
            s += &format!(
                "@group(0) @binding({}) var<storage, read_write> seg{i}: array<atomic<u32>>;\n",
                i + 2
            );
        }
        s += &format!(
            "fn segment_of(w: Idx) -> u32 {{\n    return u32(w >> {}u) / {}u;\n}}\n",
            self.granule_log2,
            self.segment_words >> self.granule_log2
        );
        let segments = self.segments;
        let segment_words = self.segment_words;
        let access = |name: &str, args: &str, ret: &str, op: &str| {
            let mut f = format!("fn {name}(w: Idx{args}){ret} {{\n    let s = segment_of(w);\n");
            f += &format!("    let o = u32(w - Idx(s) * Idx({segment_words}u));\n");
            f += &tree(0, segments, 1, op);
            f + "}\n"
        };
        s += &access("load_word", "", " -> u32", "return atomicLoad(&SEG[o]);");
        s += &access("or_word", ", bits: u32", "", "atomicOr(&SEG[o], bits);");
        s += &access("min_word", ", x: u32", "", "atomicMin(&SEG[o], x);");
        s
    }

    /// `source` with its table block replaced by [`Self::wgsl`].
    pub fn shader(&self, source: &str) -> String {
        super::replace_block(source, BLOCK, &self.wgsl())
    }

    /// `values` as the inputs' `Idx` entries: each clamped to 32 bits, or split in halves.
    pub fn input_entries(&self, values: impl IntoIterator<Item = u64>) -> Vec<u32> {
        let mut out = Vec::new();
        for v in values {
            if self.wide {
                out.extend([v as u32, (v >> 32) as u32]);
            } else {
                out.push(v.min(u64::from(u32::MAX)) as u32);
            }
        }
        out
    }

    /// Bytes the inputs binding must have (a uniform's whole declared array).
    pub fn inputs_bytes(&self, needed_words: u64) -> u64 {
        4 * self.uniform_inputs.map_or(needed_words.max(1), u64::from)
    }

    /// The most `u32`s the inputs binding holds: `None` for a storage binding (any number).
    pub fn input_capacity(&self) -> Option<u64> {
        self.uniform_inputs.map(u64::from)
    }

    /// Whether the inputs binding is a uniform one (of [`Self::input_capacity`] words).
    pub fn uniform_inputs(&self) -> bool {
        self.uniform_inputs.is_some()
    }
}

/// Whether a table of `words` has 64-bit indices: where asked, or where its words pass 32 bits.
fn needs_wide(words: u64, asked: bool) -> bool {
    asked || words > u64::from(u32::MAX)
}

/// The unit segments are counted in for a table of `words`: `w >> granule_log2` fits 32 bits.
fn granule_log2(words: u64) -> u32 {
    (64 - words.leading_zeros()).saturating_sub(32)
}

/// The statement `op` on segment `s` (`SEG` in `op`), for `s` in `lo..hi`: a binary tree of
/// comparisons, so an access costs `log2(segments)` branches (a `switch` may be a chain of
/// compares, and on SIMD CPUs such as llvmpipe each case a masked pass).
fn tree(lo: u32, hi: u32, depth: usize, op: &str) -> String {
    let pad = "    ".repeat(depth);
    if hi - lo == 1 {
        return format!("{pad}{}\n", op.replace("SEG", &format!("seg{lo}")));
    }
    let mid = lo + (hi - lo) / 2;
    format!(
        "{pad}if s < {mid}u {{\n{}{pad}}} else {{\n{}{pad}}}\n",
        tree(lo, mid, depth + 1, op),
        tree(mid, hi, depth + 1, op)
    )
}

/// A family's shader, compiled once per distinct table block (a command builds several
/// tables, and benchmarks build one again each round).
pub struct Pipelines {
    label: &'static str,
    source: &'static str,
    built: Mutex<Vec<(String, wgpu::ComputePipeline)>>,
}

impl Pipelines {
    pub fn new(label: &'static str, source: &'static str) -> Self {
        Pipelines {
            label,
            source,
            built: Mutex::new(Vec::new()),
        }
    }

    /// The pipeline for `plan`'s form of the shader.
    pub fn get(
        &self,
        ctx: &GpuContext,
        plan: &TablePlan,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        let source = plan.shader(self.source);
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, pipeline)) = built.iter().find(|(s, _)| *s == source) {
            return Ok(pipeline.clone());
        }
        let pipeline = ctx.compute_pipeline(self.label, &source)?;
        built.push((source, pipeline.clone()));
        Ok(pipeline)
    }
}

/// A table's segments on the device, zeroed.
pub struct DeviceTable {
    pub plan: TablePlan,
    segments: Vec<wgpu::Buffer>,
}

impl DeviceTable {
    /// Allocates the segments of `plan`, reporting an allocation the device refuses (out of
    /// memory, or over a limit) as an error naming `what`, not a panic.
    pub fn new(ctx: &GpuContext, plan: TablePlan, what: &str) -> Result<Self, GpuError> {
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        let segments = ctx.checked(what, 4 * plan.words, || {
            (0..plan.segments)
                .map(|i| ctx.buffer("table segment", 4 * plan.segment_len(i), usage))
                .collect::<Vec<_>>()
        })?;
        Ok(DeviceTable { plan, segments })
    }

    /// The segments as bind group entries, from binding 2.
    pub fn entries(&self) -> impl Iterator<Item = (u32, &wgpu::Buffer)> {
        self.segments.iter().zip(2..).map(|(b, i)| (i, b))
    }

    /// Writes `words` from word `at` (within one segment).
    pub fn write(&self, ctx: &GpuContext, at: u64, words: &[u32]) {
        let (s, o) = self.locate(at);
        ctx.queue
            .write_buffer(&self.segments[s], 4 * o, bytemuck::cast_slice(words));
    }

    /// Segment and offset of word `w`.
    fn locate(&self, w: u64) -> (usize, u64) {
        let s = w / self.plan.segment_words;
        (s as usize, w - s * self.plan.segment_words)
    }

    /// The words at `at`, in that order, after all queued work (one submission).
    pub fn gather(&self, ctx: &GpuContext, at: &[u64]) -> Result<Vec<u32>, GpuError> {
        let places: Vec<(&wgpu::Buffer, u64)> = at
            .iter()
            .map(|&w| {
                let (s, o) = self.locate(w);
                (&self.segments[s], 4 * o)
            })
            .collect();
        let bytes = ctx.read_pieces(&places, 4)?;
        Ok(bytemuck::cast_slice(&bytes).to_vec())
    }

    /// Segment `i`'s words, after all queued work.
    pub fn read_segment(&self, ctx: &GpuContext, i: u32) -> Result<Vec<u32>, GpuError> {
        let bytes = ctx.read_buffer(&self.segments[i as usize])?;
        Ok(bytemuck::cast_slice(&bytes).to_vec())
    }

    /// Every word, segment by segment.
    pub fn read_all(&self, ctx: &GpuContext) -> Result<Vec<u32>, GpuError> {
        let mut words = Vec::with_capacity(self.plan.words as usize);
        for i in 0..self.plan.segments {
            words.extend(self.read_segment(ctx, i)?);
        }
        Ok(words)
    }
}
