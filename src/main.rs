//! The `nimseq` command: parses flags, runs the command ([`cli`]), maps errors to exit codes.

mod cli;

use std::io;
use std::process::ExitCode;

use clap::Parser;

use cli::args::Cli;
use nimseq::refusal::is_bad_input;

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
