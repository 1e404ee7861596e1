//! wgpu plumbing shared by every family: adapter choice, limits, buffers, dispatch, readback.
//!
//! One [`GpuContext`] per run; each family builds its pipeline once and reuses it for every
//! batch. Everything that can fail returns a [`GpuError`] a user can act on; nothing here panics on
//! a missing or limited adapter.

use std::borrow::Cow;

use wgpu::util::DeviceExt;

/// Set to `1` to make a missing adapter an error in tests instead of a skip (CI sets it).
pub const REQUIRE_GPU_ENV: &str = "NIMSEQ_REQUIRE_GPU";

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
    /// A shader or pipeline the adapter rejected; a bug in nimseq or an adapter too limited.
    #[error("the GPU rejected {what}: {message}")]
    Validation { what: String, message: String },
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
    /// A result a kernel cannot hold (the CPU path has no such bound).
    #[error("{0}; use --backend cpu")]
    OutOfRange(String),
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

/// A device and queue with the adapter's real limits.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub limits: wgpu::Limits,
}

impl GpuContext {
    /// Opens the best adapter (`WGPU_BACKEND` and `WGPU_ADAPTER_NAME` choose one), asking for all
    /// of its limits (the defaults would cap bindings at 128 MiB even on large GPUs) and for
    /// 64-bit integers where it has them.
    pub fn new() -> Result<Self, GpuError> {
        pollster::block_on(async {
            let instance = wgpu::Instance::new(
                wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
            );
            let adapter = instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    ..Default::default()
                })
                .await
                .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
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
            })
        })
    }

    /// One line naming the adapter, its backend and driver, for logs and benchmarks.
    pub fn describe(&self) -> String {
        let i = &self.info;
        format!(
            "{} ({:?}, {:?}, driver {} {})",
            i.name, i.backend, i.device_type, i.driver, i.driver_info
        )
    }

    /// The most bytes one storage binding may hold on this adapter.
    pub fn max_binding_bytes(&self) -> u64 {
        self.limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size)
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
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
        match pollster::block_on(scope.pop()) {
            None => Ok(pipeline),
            Some(e) => Err(GpuError::Validation {
                what: format!("the {label} shader ({entry})"),
                // wgpu's report spans many lines; keep the error to one.
                message: e
                    .to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
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
        let staging = self.buffer(
            "readback",
            size,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
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
