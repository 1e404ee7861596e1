//! The commands, one module per family, over the library: each builds checked values from its
//! flags, asks the library, and prints. The backend is chosen in one place ([`backend`]).

pub mod args;
mod arrows;
mod arrows_args;
mod backend;
mod bench;
mod bench_args;
mod flags;
mod kcross;
mod kcross_args;
mod merge;
mod octal;
mod octal_args;
mod print;
mod sub;
mod sub_args;

use anyhow::Result;

use args::{Cli, Command};

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Sub(command) => sub::run(command),
        Command::Kcross(command) => kcross::run(command),
        Command::Arrows(command) => arrows::run(command),
        Command::Octal(command) => octal::run(command),
        Command::Bench(command) => bench::run(command),
        Command::Merge(args) => merge::run(args),
    }
}

/// Keeps freed memory in the process for reuse, for subtraction scans: they free and take
/// again buffers of several MiB per chunk, and glibc would hand each back to the kernel (above
/// its default thresholds), then fault in every page of the next one (4 KiB a fault: 5% of a
/// `c <= 200` scan on the 2-core VM). Not for the other commands: their large zeroed tables
/// come free as fresh pages, and memory kept back raises their peak (a k-cross Table 5.2 run
/// with it for every command: 102 MB at most resident instead of 71 MB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: mallopt only sets allocator parameters; it is called before any other thread
    // exists, and on failure (a 0 return) the defaults stay, which is harmless.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
