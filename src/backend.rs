//! The one place a backend choice (`--backend`, or `backend=` in Python) becomes a backend:
//! the command line and the Python binding both choose here.

use crate::gpu::{GpuContext, GpuError};

/// Which implementation computes a result; all give the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    /// A hardware GPU where it pays, else the fast CPU path (stderr says which, and why).
    Auto,
    /// The plain solver written from the rules alone: the cross-check, slow.
    Reference,
    /// The fast CPU path, on all cores.
    Cpu,
    /// The WGSL compute shader, through wgpu.
    Gpu,
}

/// What a [`BackendChoice`] chose.
pub enum Chosen {
    Reference,
    Cpu,
    /// An adapter (boxed: it is large beside the others), and whether `auto` took it (a scan
    /// then times it against the CPU path).
    Gpu {
        ctx: Box<GpuContext>,
        auto: bool,
    },
}

/// `gpu` insists on an adapter; `auto` takes a hardware one, else the fast CPU path. Says on
/// the log (stderr at the command line) which backend runs, except for a GPU, which the caller
/// names ([`Chosen::announce`]):
/// a scan says more about it.
pub fn choose(choice: BackendChoice) -> Result<Chosen, GpuError> {
    Ok(match choice {
        BackendChoice::Reference => {
            log::info!("backend: reference");
            Chosen::Reference
        }
        BackendChoice::Cpu => {
            log::info!("backend: cpu");
            Chosen::Cpu
        }
        BackendChoice::Gpu => Chosen::Gpu {
            ctx: Box::new(GpuContext::new()?),
            auto: false,
        },
        BackendChoice::Auto => match GpuContext::new() {
            Ok(ctx) if ctx.info.device_type != wgpu::DeviceType::Cpu => Chosen::Gpu {
                ctx: Box::new(ctx),
                auto: true,
            },
            Ok(found) => {
                log::info!(
                    "backend: cpu ({} is a software adapter, slower than the CPU path)",
                    found.info.name
                );
                Chosen::Cpu
            }
            // A setting the user made (an adapter by name, a binding size) is theirs to fix.
            Err(e @ GpuError::Setting { .. }) => return Err(e),
            Err(e) => {
                log::info!("backend: cpu ({e})");
                Chosen::Cpu
            }
        },
    })
}

impl Chosen {
    /// Says on stderr that the GPU runs, if it does.
    pub fn announce(self) -> Self {
        if let Chosen::Gpu { ctx, .. } = &self {
            log::info!("backend: gpu, {}", ctx.describe());
        }
        self
    }

    pub fn gpu(&self) -> Option<&GpuContext> {
        match self {
            Chosen::Gpu { ctx, .. } => Some(ctx),
            _ => None,
        }
    }
}

/// Says on stderr which backend `auto`'s calibration on `ctx` chose, and why.
pub fn announce_calibrated(ctx: &GpuContext, on_gpu: bool, why: &str) {
    if on_gpu {
        log::info!("backend: gpu, {} ({why})", ctx.describe());
    } else {
        log::info!("backend: cpu ({why})");
    }
}
