//! The `nimseq` command: parses flags, runs the command ([`cli`]), maps errors to exit codes.

mod cli;

use std::io;
use std::process::ExitCode;

use clap::Parser;

use cli::args::Cli;
use nimseq::InputError;
use nimseq::arrows::reference::ReferenceError;
use nimseq::arrows::spider_gpu::FillError;
use nimseq::gpu::GpuError;
use nimseq::kcross::table::TableError;
use nimseq::memory::OverBudget;
use nimseq::octal::scan::ScanError as OctalScanError;
use nimseq::octal::seq::OctalError;
use nimseq::output::checkpoint::CheckpointError;
use nimseq::output::resumable::ResumeError;
use nimseq::subtraction::scan::ScanError;
use nimseq::subtraction::seq::SeqError;

fn main() -> ExitCode {
    quiet_display_layers();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap's whole message: usage, valid values, "did you mean". --help and
            // --version go to stdout with success; a bad argument is exit code 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if is_broken_pipe(&e) {
                // `nimseq ... | head` is a normal way to stop.
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(if is_bad_input(&e) { 2 } else { 1 })
        }
    }
}

/// Turns off Mesa's device-select Vulkan layer unless the user set it: it only orders
/// adapters for a display, and on a machine without one (a root shell, a container, CI) it
/// prints `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` at every start,
/// which reads as nimseq's own error. wgpu chooses among all adapters itself.
fn quiet_display_layers() {
    const SWITCH: &str = "NODEVICE_SELECT";
    if std::env::var_os(SWITCH).is_none() {
        // SAFETY: the first thing main does, before any thread exists that could read the
        // environment.
        unsafe { std::env::set_var(SWITCH, "1") };
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Whether an error is the user's to fix: what nimseq refuses before or instead of working.
fn is_bad_input(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<InputError>()
            || c.is::<OverBudget>()
            || c.is::<ResumeError>()
            || c.is::<CheckpointError>()
            || c.is::<ReferenceError>()
            || matches!(c.downcast_ref::<SeqError>(), Some(SeqError::OverBudget(_)))
            || matches!(
                c.downcast_ref::<OctalError>(),
                Some(OctalError::OverBudget(_))
            )
            || matches!(
                c.downcast_ref::<TableError>(),
                Some(
                    TableError::OverBudget(_)
                        | TableError::RingsOverBudget { .. }
                        | TableError::TooLong { .. }
                        | TableError::Checkpoint(_)
                )
            )
            || matches!(
                c.downcast_ref::<ScanError>(),
                Some(ScanError::Output(_) | ScanError::OverBudget(_))
            )
            || matches!(
                c.downcast_ref::<FillError>(),
                Some(FillError::Checkpoint(_))
            )
            || matches!(
                c.downcast_ref::<OctalScanError>(),
                Some(
                    OctalScanError::OverBudget(_)
                        | OctalScanError::Resume(_)
                        | OctalScanError::Octal(OctalError::OverBudget(_))
                )
            )
            || matches!(c.downcast_ref::<OctalScanError>(), Some(OctalScanError::Octal(OctalError::Gpu(e))) if refused(e))
            || c.downcast_ref::<GpuError>().is_some_and(refused)
            || matches!(c.downcast_ref::<TableError>(), Some(TableError::Gpu(e)) if refused(e))
            || matches!(c.downcast_ref::<FillError>(), Some(FillError::Gpu(e)) if refused(e))
    })
}

/// A GPU error that refuses what was asked (a size, a setting) rather than failing at it.
fn refused(e: &GpuError) -> bool {
    matches!(
        e,
        GpuError::TableTooLarge { .. } | GpuError::TooLarge { .. } | GpuError::Setting { .. }
    )
}
