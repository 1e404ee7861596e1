//! The `nimseq` command: parses flags, runs the command ([`cli`]), maps errors to exit codes.

mod cli;

use std::io;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue};
use clap::{CommandFactory, FromArgMatches};

use cli::args::Cli;
use nimseq::refusal::is_bad_input;

fn main() -> ExitCode {
    // SAFETY: the first thing main does, before any thread exists.
    unsafe { nimseq::gpu::quiet_display_layers() };
    // What the library says about a run (the backend chosen, ...) goes to stderr as it is.
    log::set_logger(&StderrLog).expect("the only logger");
    log::set_max_level(log::LevelFilter::Info);
    let cli = match parse() {
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

/// The flags, with two changes to clap's defaults for argument errors:
/// * a negative number is read as a flag's value (`--c-max -5`), so the error names the flag
///   and its range instead of "unexpected argument '-5'";
/// * the usage line is the subcommand's whole usage (`[OPTIONS] <SET>`), not one built from
///   the flags given and suggested, which makes an optional flag look required.
fn parse() -> Result<Cli, clap::Error> {
    let mut cmd = negative_numbers_as_values(Cli::command());
    match cmd.try_get_matches_from_mut(std::env::args_os()) {
        Ok(matches) => Cli::from_arg_matches(&matches),
        Err(mut e) => {
            // A value of thousands of characters (a pasted list) is shown by its ends: the
            // error line says what is wrong, not the whole argument again.
            if let Some(ContextValue::String(value)) = e.get(ContextKind::InvalidValue)
                && value.chars().count() > SHOWN_VALUE
            {
                let head: String = value.chars().take(SHOWN_VALUE / 2).collect();
                let tail: Vec<char> = value.chars().rev().take(SHOWN_VALUE / 4).collect();
                let tail: String = tail.into_iter().rev().collect();
                let shown = format!("{head}...{tail} ({} characters)", value.chars().count());
                e.insert(ContextKind::InvalidValue, ContextValue::String(shown));
            }
            if let Some(ContextValue::StyledStr(usage)) = e.get(ContextKind::Usage) {
                // "Usage: nimseq sub seq --len <LEN> <SET>": the words up to the first flag or
                // argument name the subcommand.
                let words: Vec<String> = usage
                    .to_string()
                    .split_whitespace()
                    .skip(2)
                    .take_while(|w| !w.starts_with(['-', '<', '[']))
                    .map(str::to_string)
                    .collect();
                let mut sub = &mut cmd;
                for w in &words {
                    if sub.find_subcommand(w).is_none() {
                        break;
                    }
                    sub = sub.find_subcommand_mut(w).expect("found just above");
                }
                e.insert(
                    ContextKind::Usage,
                    ContextValue::StyledStr(sub.render_usage()),
                );
            }
            Err(e)
        }
    }
}

/// Longest argument shown whole in an error line.
const SHOWN_VALUE: usize = 120;

/// `cmd` and its subcommands with every flag that takes a value taking a negative number too.
fn negative_numbers_as_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        if arg.get_action().takes_values() {
            arg.allow_negative_numbers(true)
        } else {
            arg
        }
    })
    .mut_subcommands(negative_numbers_as_values)
}

/// The library's log, each message a line on stderr as it is written: what a person reads
/// about the run.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Info
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            eprintln!("{}", record.args());
        }
    }

    fn flush(&self) {}
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
