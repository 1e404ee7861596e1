//! wgpu plumbing shared by every family: adapter choice, limits, buffers, dispatch, readback.
//!
//! One [`GpuContext`] per run; each family builds its pipeline once and reuses it for every
//! batch. Everything that can fail returns a [`GpuError`] a user can act on; nothing here panics on
//! a missing or limited adapter.

pub mod segments;

use std::borrow::Cow;

use wgpu::util::DeviceExt;

use crate::memory::{human_bytes, parse_bytes};

/// Turns off Mesa's device-select Vulkan layer unless the user set it: it only orders
/// adapters for a display, and on a machine without one (a root shell, a container, CI) it
/// prints `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` whenever an
/// adapter is probed, which reads as nimseq's own error. wgpu chooses among all adapters
/// itself. The command line and the test binary call it first; Python sets the same variable
/// when the package is imported.
///
/// # Safety
/// It sets an environment variable: call it before any other thread exists.
pub unsafe fn quiet_display_layers() {
    const SWITCH: &str = "NODEVICE_SELECT";
    if std::env::var_os(SWITCH).is_none() {
        // SAFETY: the caller guarantees no other thread reads the environment meanwhile.
        unsafe { std::env::set_var(SWITCH, "1") };
    }
}

/// Set to `1` to make a missing adapter an error in tests instead of a skip (CI sets it).
pub const REQUIRE_GPU_ENV: &str = "NIMSEQ_REQUIRE_GPU";

/// Lowers the bytes per storage binding (e.g. `16K`), so that small tables spread over many
/// segments ([`segments`]) and the split is tested without a large card.
pub const MAX_BINDING_ENV: &str = "NIMSEQ_GPU_MAX_BINDING";
/// A test hook: the loop iterations each invocation of the subtraction, k-cross and spider
/// kernels runs first (`shaders/loop_check.wgsl`), so that on an adapter that cuts long loops
/// (llvmpipe, after 65,535) the kernels' own loops are cut and the tests see the checks catch
/// it.
pub const LOOP_SPIN_ENV: &str = "NIMSEQ_GPU_LOOP_SPIN";

/// Chooses the adapter whose name contains this text (any case), as wgpu's own tools do.
pub const ADAPTER_NAME_ENV: &str = "WGPU_ADAPTER_NAME";

/// The first adapter (of the backends `WGPU_BACKEND` allows) whose name contains `wanted`, any
/// case; none is an error that lists the adapters found, not a silent choice of another.
async fn named_adapter(instance: &wgpu::Instance, wanted: &str) -> Result<wgpu::Adapter, GpuError> {
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
    let adapters = instance.enumerate_adapters(backends).await;
    let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
    let pick = names
        .iter()
        .position(|name| name.to_lowercase().contains(&wanted.to_lowercase()));
    match pick {
        Some(i) => Ok(adapters.into_iter().nth(i).expect("an adapter per name")),
        None => Err(GpuError::Setting {
            name: ADAPTER_NAME_ENV,
            message: format!(
                "no adapter named like '{wanted}'; found: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        }),
    }
}

/// What can go wrong on the GPU path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter: no driver, or none that wgpu can use.
    #[error(
        "no GPU adapter found ({0}); install a Vulkan driver (e.g. mesa-vulkan-drivers) or use --backend cpu"
    )]
    NoAdapter(String),
    #[error("the GPU adapter refused a device: {0}")]
    Device(#[from] wgpu::RequestDeviceError),
    /// A setting from the environment that does not parse.
    #[error("{name}: {message}")]
    Setting { name: &'static str, message: String },
    /// A table over what the adapter can bind, refused before allocating.
    #[error(
        "{what} needs {} on the GPU, but this adapter holds at most {} ({limit}){fits}; use --backend cpu",
        human_bytes(*needed),
        human_bytes(*allowed)
    )]
    TableTooLarge {
        what: String,
        needed: u64,
        allowed: u64,
        /// What bounds it, in words.
        limit: String,
        /// The largest size that fits, as `; n <= 28 fits` (empty if none).
        fits: String,
    },
    /// An allocation the device refused (out of memory or over a limit).
    #[error("the GPU could not allocate {what} ({}): {message}", human_bytes(*bytes))]
    Allocation {
        what: String,
        bytes: u64,
        message: String,
    },
    /// A shader or pipeline the adapter rejected; a bug in nimseq or an adapter too limited.
    #[error("the GPU rejected {what}: {message}")]
    Validation { what: String, message: String },
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
    /// A result a kernel cannot hold (the CPU path has no such bound).
    #[error("{0}; use --backend cpu")]
    OutOfRange(String),
    /// A kernel found one of its loops ended before its condition said (llvmpipe ends an
    /// invocation's loops after 65,535 iterations in all): its results were discarded.
    #[error(
        "{adapter} cut a loop of the {kernel} kernel short (a software adapter may stop a shader's loops after 65,535 iterations in all); its results were discarded; use --backend cpu"
    )]
    LoopCut {
        adapter: String,
        kernel: &'static str,
    },
    /// One work item needs more than the GPU path can hold: storage beyond the adapter's
    /// bindings, or indices beyond 32 bits.
    #[error(
        "{what} needs {needed} {unit}, but the GPU path allows at most {limit}; use --backend cpu"
    )]
    TooLarge {
        what: String,
        needed: u64,
        limit: u64,
        unit: &'static str,
    },
}

/// wgpu's reports span many lines; errors here keep to one.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A device and queue with the adapter's real limits.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub limits: wgpu::Limits,
    /// [`MAX_BINDING_ENV`], where set.
    binding_override: Option<u64>,
    /// [`LOOP_SPIN_ENV`], where set.
    loop_spin: Option<u32>,
}

/// `source` with the lines from `// NAME: begin` to `// NAME: end` replaced by `block`.
///
/// # Panics
/// If `source` does not mark the block (a shader bug, caught by every test).
pub fn replace_block(source: &str, name: &str, block: &str) -> String {
    let begin = source
        .find(&format!("// {name}: begin\n"))
        .unwrap_or_else(|| panic!("the shader marks its {name} block"));
    let end = source
        .find(&format!("// {name}: end"))
        .unwrap_or_else(|| panic!("the shader marks its {name} block"));
    format!("{}{block}{}", &source[..begin], &source[end..])
}

/// `source` with each block from `// NAME: begin` to `// NAME: end` (every one there is)
/// written out `count` times, `_I_` in its `i`-th copy replaced by the literal `{i}u`: code a
/// shader repeats for each of a count the host knows, straight-line and with constant indices.
///
/// # Panics
/// If a block is not closed (a shader bug, caught by every test).
pub fn repeat_blocks(source: &str, name: &str, count: usize) -> String {
    let (begin, end) = (format!("// {name}: begin\n"), format!("// {name}: end\n"));
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(at) = rest.find(&begin) {
        // The block's own indentation goes too: the markers are whole lines.
        let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
        out.push_str(&rest[..line_start]);
        let body_start = at + begin.len();
        let body_len = rest[body_start..]
            .find(&end)
            .unwrap_or_else(|| panic!("the shader closes its {name} block"));
        let body = &rest[body_start..body_start + body_len];
        // Up to the end marker's own indentation.
        let body = &body[..body.rfind('\n').map_or(0, |i| i + 1)];
        for i in 0..count {
            out.push_str(&body.replace("_I_", &format!("{i}u")));
        }
        rest = &rest[body_start + body_len + end.len()..];
    }
    out.push_str(rest);
    out
}

impl GpuContext {
    /// Opens the best adapter (`WGPU_BACKEND` and `WGPU_ADAPTER_NAME` choose one), asking for all
    /// of its limits (the defaults would cap bindings at 128 MiB even on large GPUs) and for
    /// 64-bit integers where it has them.
    pub fn new() -> Result<Self, GpuError> {
        let binding_override = match std::env::var(MAX_BINDING_ENV) {
            Ok(text) => Some(parse_bytes(&text).map_err(|message| GpuError::Setting {
                name: MAX_BINDING_ENV,
                message,
            })?),
            Err(_) => None,
        };
        let loop_spin = match std::env::var(LOOP_SPIN_ENV) {
            Ok(text) => Some(text.trim().parse().map_err(|e| GpuError::Setting {
                name: LOOP_SPIN_ENV,
                message: format!("'{text}' is not a count of iterations: {e}"),
            })?),
            Err(_) => None,
        };
        pollster::block_on(async {
            let instance = wgpu::Instance::new(
                wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
            );
            let adapter = match std::env::var(ADAPTER_NAME_ENV) {
                Ok(wanted) => named_adapter(&instance, &wanted).await?,
                Err(_) => instance
                    .request_adapter(&wgpu::RequestAdapterOptions {
                        power_preference: wgpu::PowerPreference::HighPerformance,
                        ..Default::default()
                    })
                    .await
                    .map_err(|e| GpuError::NoAdapter(e.to_string()))?,
            };
            let limits = adapter.limits();
            let (device, queue) = adapter
                .request_device(&wgpu::DeviceDescriptor {
                    label: Some("nimseq"),
                    // 64-bit integers where the adapter has them: shaders that can use them
                    // check the device's features and keep a 32-bit form.
                    required_features: adapter.features() & wgpu::Features::SHADER_INT64,
                    required_limits: limits.clone(),
                    ..Default::default()
                })
                .await?;
            Ok(GpuContext {
                device,
                queue,
                info: adapter.get_info(),
                limits,
                binding_override,
                loop_spin,
            })
        })
    }

    /// The error for a kernel that found a loop of its own cut short on this adapter.
    pub fn loop_cut(&self, kernel: &'static str) -> GpuError {
        GpuError::LoopCut {
            adapter: self.info.name.clone(),
            kernel,
        }
    }

    /// One line naming the adapter, its backend and driver, for logs and benchmarks.
    pub fn describe(&self) -> String {
        let i = &self.info;
        format!(
            "{} ({:?}, {:?}, driver {} {})",
            i.name, i.backend, i.device_type, i.driver, i.driver_info
        )
    }

    /// The most bytes one storage binding may hold on this adapter ([`MAX_BINDING_ENV`] may
    /// lower it).
    pub fn max_binding_bytes(&self) -> u64 {
        self.limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size)
            .min(self.binding_override.unwrap_or(u64::MAX))
    }

    /// Storage bindings one compute shader may have (each a binding of its bind group 0, with
    /// two more for parameters and inputs).
    pub fn storage_bindings(&self) -> u32 {
        self.limits
            .max_storage_buffers_per_shader_stage
            .min(self.limits.max_bindings_per_bind_group.saturating_sub(2))
    }

    /// Runs `allocate` inside error scopes, so that a refused allocation of `bytes` for `what`
    /// is an error rather than a panic of the device's default handler.
    pub fn checked<T>(
        &self,
        what: &str,
        bytes: u64,
        allocate: impl FnOnce() -> T,
    ) -> Result<T, GpuError> {
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let made = allocate();
        let refused = [validation, memory]
            .into_iter()
            .filter_map(|scope| pollster::block_on(scope.pop()))
            .next();
        match refused {
            None => Ok(made),
            Some(e) => Err(GpuError::Allocation {
                what: what.to_string(),
                bytes,
                message: one_line(&e.to_string()),
            }),
        }
    }

    /// Compiles a WGSL compute shader with entry point `main`, turning validation failures into
    /// errors instead of panics.
    pub fn compute_pipeline(
        &self,
        label: &str,
        source: &str,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        self.compute_pipeline_at(label, source, "main")
    }

    /// [`Self::compute_pipeline`] for the entry point `entry`, its bind group layout derived
    /// from the bindings that entry point uses.
    pub fn compute_pipeline_at(
        &self,
        label: &str,
        source: &str,
        entry: &str,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(source)),
            });
        // The test hook, for the kernels that have it.
        let spin = self
            .loop_spin
            .filter(|_| source.contains("override loop_spin"))
            .map(|n| ("loop_spin", f64::from(n)));
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: spin.as_slice(),
                    ..Default::default()
                },
                cache: None,
            });
        match pollster::block_on(scope.pop()) {
            None => Ok(pipeline),
            Some(e) => Err(GpuError::Validation {
                what: format!("the {label} shader ({entry})"),
                message: one_line(&e.to_string()),
            }),
        }
    }

    /// A storage buffer holding `contents`.
    pub fn buffer_init(
        &self,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
    }

    /// An uninitialised buffer of `size` bytes.
    pub fn buffer(&self, label: &str, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }

    /// Workgroup counts `(x, y)` covering `invocations` within the per-dimension limit; shaders
    /// rebuild the index as `gid.y * num_workgroups.x * size + gid.x`.
    pub fn dispatch_size(&self, invocations: u32, workgroup_size: u32) -> (u32, u32) {
        self.dispatch_size_at_most(invocations, workgroup_size, None)
    }

    /// [`Self::dispatch_size`] with at most `max` workgroups a dimension where that is below
    /// the adapter's limit (so tests reach the 2-D split on small work).
    pub fn dispatch_size_at_most(
        &self,
        invocations: u32,
        workgroup_size: u32,
        max: Option<u32>,
    ) -> (u32, u32) {
        let groups = invocations.div_ceil(workgroup_size).max(1);
        let limit = self.limits.max_compute_workgroups_per_dimension;
        let max = max.map_or(limit, |m| m.min(limit)).max(1);
        let y = groups.div_ceil(max);
        (groups.div_ceil(y), y)
    }

    /// A bind group for `pipeline`'s group 0, buffer `buffer` at each `(binding, buffer)`.
    pub fn bind_group(
        &self,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .map(|&(binding, buffer)| wgpu::BindGroupEntry {
                binding,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }

    /// Queues one compute pass over `bind_group`.
    pub fn dispatch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        bind_group: &wgpu::BindGroup,
        groups: (u32, u32),
    ) {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(groups.0, groups.1, 1);
        }
        self.queue.submit([encoder.finish()]);
    }

    /// Blocks until the queued work is done.
    pub fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Readback(e.to_string()))
    }

    /// Copies `buffer` (with `COPY_SRC` usage) back to the host, after all queued work.
    pub fn read_buffer(&self, buffer: &wgpu::Buffer) -> Result<Vec<u8>, GpuError> {
        self.read_buffer_prefix(buffer, buffer.size())
    }

    /// The first `size` bytes of `buffer` (a multiple of 4), after all queued work.
    pub fn read_buffer_prefix(
        &self,
        buffer: &wgpu::Buffer,
        size: u64,
    ) -> Result<Vec<u8>, GpuError> {
        self.read_pieces(&[(buffer, 0)], size)
    }

    /// `size` bytes (a multiple of 4) at each `(buffer, offset)`, one after the other, after
    /// all queued work: one copy each into one staging buffer, one submission.
    pub fn read_pieces(
        &self,
        pieces: &[(&wgpu::Buffer, u64)],
        size: u64,
    ) -> Result<Vec<u8>, GpuError> {
        let total = size * pieces.len() as u64;
        if total == 0 {
            return Ok(Vec::new());
        }
        let staging = self.checked("a readback buffer", total, || {
            self.buffer(
                "readback",
                total,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )
        })?;
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        for (i, &(buffer, offset)) in pieces.iter().enumerate() {
            encoder.copy_buffer_to_buffer(buffer, offset, &staging, i as u64 * size, size);
        }
        let submitted = self.queue.submit([encoder.finish()]);
        let slice = staging.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            // The receiver lives until recv below returns.
            let _ = tx.send(r);
        });
        // This submission only: another thread's work queued since need not be waited for.
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submitted),
                timeout: None,
            })
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let bytes = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .to_vec();
        staging.unmap();
        Ok(bytes)
    }

    /// Runs one compute pass over `bind_group` and copies `output` back to the host.
    pub fn run_and_read(
        &self,
        pipeline: &wgpu::ComputePipeline,
        bind_group: &wgpu::BindGroup,
        groups: (u32, u32),
        output: &wgpu::Buffer,
    ) -> Result<Vec<u8>, GpuError> {
        self.dispatch(pipeline, bind_group, groups);
        self.read_buffer(output)
    }
}
