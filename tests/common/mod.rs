//! Shared by the test modules: one GPU device per test binary, fresh random seeds, the binary.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use libtest_mimic::{Completion, Trial};
use nimseq::gpu::{GpuContext, REQUIRE_GPU_ENV};

/// The test binary's GPU, opened once, or `None` when there is no adapter: then the trial
/// that asked shows as ignored (see [`trial`]), unless `NIMSEQ_REQUIRE_GPU=1`, where a missing
/// adapter fails it: a skip tests nothing.
pub fn gpu() -> Option<&'static GpuContext> {
    static CONTEXT: OnceLock<Result<GpuContext, String>> = OnceLock::new();
    let found = CONTEXT.get_or_init(|| {
        GpuContext::new()
            .inspect(|ctx| eprintln!("GPU tests run on {}", ctx.describe()))
            .map_err(|e| e.to_string())
    });
    match found {
        Ok(ctx) => Some(ctx),
        Err(e) => {
            assert!(
                std::env::var(REQUIRE_GPU_ENV).as_deref() != Ok("1"),
                "{REQUIRE_GPU_ENV}=1 but no GPU adapter: {e}"
            );
            NOT_RUN.with(|why| *why.borrow_mut() = Some(format!("no GPU adapter: {e}")));
            None
        }
    }
}

/// The test binary's GPU ([`gpu`]) if one shader may bind `bindings` storage buffers on it:
/// the tests that split a table over 32 bindings need them, where GL adapters give 16.
/// Otherwise the trial shows as ignored, with the adapter's count, unless `NIMSEQ_REQUIRE_GPU=1`.
pub fn gpu_binding(bindings: u32) -> Option<&'static GpuContext> {
    let ctx = gpu()?;
    let has = ctx.storage_bindings();
    if has < bindings {
        let why = format!(
            "{} binds {has} storage buffers a shader, the test {bindings}",
            ctx.describe()
        );
        not_run(&why, REQUIRE_GPU_ENV);
        return None;
    }
    Some(ctx)
}

thread_local! {
    /// Why the trial on this thread left part of its checks undone, if it did.
    static NOT_RUN: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Marks the running trial as ignored for `why` (a tool it needs is missing) unless `require`
/// names a variable set to 1, where that is a failure instead.
pub fn not_run(why: &str, require: &str) {
    assert!(
        std::env::var(require).as_deref() != Ok("1"),
        "{require}=1 but {why}"
    );
    NOT_RUN.with(|slot| *slot.borrow_mut() = Some(why.to_string()));
}

/// A trial of `test`: passed, failed (a panic), or ignored with the reason when it could not
/// run all of its checks ([`gpu`], [`not_run`]).
pub fn trial(name: &str, test: fn()) -> Trial {
    let name = name.trim_start_matches("tests::");
    Trial::ignorable_test(name, move || {
        NOT_RUN.with(|why| why.borrow_mut().take());
        test();
        Ok(match NOT_RUN.with(|why| why.borrow_mut().take()) {
            Some(why) => Completion::ignored_with(why),
            None => Completion::Completed,
        })
    })
}

/// A fresh seed for each run; tests print it with any failure so the case can be replayed.
pub fn fresh_seed() -> u64 {
    std::env::var("NIMSEQ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .expect("clock after 1970")
                .as_nanos() as u64
        })
}

/// The `nimseq` binary built for these tests.
pub fn nimseq() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_nimseq"))
}

/// Runs `nimseq ARGS`, which must succeed, and returns its stdout.
pub fn run_ok(args: &[&str]) -> String {
    let o = nimseq().args(args).output().expect("nimseq runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A finished run of the binary (stdout dropped), with its wall time and peak resident memory.
pub struct Measured {
    pub code: Option<i32>,
    pub stderr: String,
    pub seconds: f64,
    /// The child's peak resident set (`ru_maxrss` from `wait4`), KiB.
    pub peak_kib: u64,
}

/// Set in the environment of this test binary when it runs as the spawner of a measured
/// command ([`measured`], [`spawn_measured_if_asked`]).
const SPAWNER_ENV: &str = "NIMSEQ_TEST_SPAWNER";

/// Runs `command` (of [`nimseq`]), measured. The child is started by a fresh run of this test
/// binary, which reaps it with `wait4` and reports its exit code and `ru_maxrss`: a child
/// started from this process itself reports this process's own peak instead, as the kernel
/// counts the memory a spawned child starts from (the GPU tests take this process past 1 GiB,
/// and every refused command then read as 1 GiB at peak).
pub fn measured(command: std::process::Command) -> Measured {
    let mut spawner = std::process::Command::new(std::env::current_exe().expect("the test binary"));
    spawner
        .env(SPAWNER_ENV, "1")
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => spawner.env(key, value),
            None => spawner.env_remove(key),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        spawner.current_dir(dir);
    }
    let start = std::time::Instant::now();
    let out = spawner
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the spawner runs");
    let seconds = start.elapsed().as_secs_f64();
    let report = String::from_utf8_lossy(&out.stdout);
    let (code, peak) = report
        .trim()
        .split_once(' ')
        .unwrap_or_else(|| panic!("the spawner's report: {report:?}"));
    Measured {
        code: code.parse().ok(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        seconds,
        peak_kib: peak.parse().expect("a peak in KiB"),
    }
}

/// The spawner's side of [`measured`]: run as one, this binary runs the command of its
/// arguments (stdout dropped, stderr its own), reaps it with `wait4`, prints its exit code
/// (`-` if a signal ended it) and peak resident set in KiB, and exits.
pub fn spawn_measured_if_asked() {
    use std::os::unix::process::ExitStatusExt;
    if std::env::var_os(SPAWNER_ENV).is_none() {
        return;
    }
    let mut args = std::env::args_os().skip(1);
    let child = std::process::Command::new(args.next().expect("a program"))
        .args(args)
        .env_remove(SPAWNER_ENV)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the measured command starts");
    let mut status = 0;
    // SAFETY: rusage is plain data, filled in by wait4; the pid is our unreaped child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: as above; `status` and `usage` outlive the call.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 reaps the child");
    let code = std::process::ExitStatus::from_raw(status)
        .code()
        .map_or("-".to_string(), |c| c.to_string());
    println!("{code} {}", usage.ru_maxrss);
    std::process::exit(0);
}

/// What clap's whole messages hold (one or both), and nimseq's own one-line errors do not.
const CLAP_MARKS: [&str; 2] = ["Usage: nimseq", "For more information, try '--help'."];

/// Runs `nimseq ARGS`, which must be refused as bad input: exit code 2, no panic, in under
/// 5 s and 1 GiB, with a message containing `naming`. An argument error is clap's whole
/// message (with the usage, valid values, suggestions), returned whole; anything nimseq finds itself is
/// one `error` line (other lines, such as the backend's, may come before it), returned.
pub fn refused(args: &[&str], naming: &str) -> String {
    let mut command = nimseq();
    command.args(args);
    refused_by(command, naming)
}

/// [`refused`] for a prepared command (an environment, say).
pub fn refused_by(command: std::process::Command, naming: &str) -> String {
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let m = measured(command);
    let err = &m.stderr;
    assert_eq!(m.code, Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(m.seconds < 5.0, "{args:?}: {:.1} s", m.seconds);
    assert!(m.peak_kib < 1 << 20, "{args:?}: {} KiB at peak", m.peak_kib);
    assert!(err.contains(naming), "{args:?}: '{naming}' not in {err}");
    if CLAP_MARKS.iter().any(|mark| err.contains(mark)) {
        // An argument error, or the help of a command given without its arguments.
        assert!(
            err.starts_with("error: ") || err.contains("Commands:"),
            "{args:?}: {err}"
        );
        return err.clone();
    }
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {err}");
    assert!(
        err.lines()
            .all(|l| l.starts_with("error") || l.starts_with("backend:")),
        "{args:?}: {err}"
    );
    errors[0].to_string()
}

/// A scan slow enough (the reference backend, small chunks: seconds on 2 cores) to be killed
/// in the middle by [`killed_after_chunks`].
pub const SLOW_SCAN: [&str; 8] = [
    "sub",
    "scan",
    "--c-max",
    "70",
    "--chunk-size",
    "2000",
    "--backend",
    "reference",
];

/// Runs `nimseq ARGS --out OUT`, kills it (SIGKILL) once its checkpoint says `chunks` chunks
/// are in, and checks that it had not finished: OUT then holds a cut-short run to resume.
pub fn killed_after_chunks(args: &[&str], out: &std::path::Path, chunks: u64) {
    let checkpoint = std::path::PathBuf::from(format!("{}.checkpoint", out.display()));
    // Two threads, whatever the machine: a call then holds few chunks, and the kill lands
    // mid-run (on many cores one call could hold the whole scan).
    let mut child = nimseq()
        .env("RAYON_NUM_THREADS", "2")
        .args(args)
        .arg("--out")
        .arg(out)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        let done = std::fs::read_to_string(&checkpoint)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["next_chunk"].as_u64())
            .unwrap_or(0);
        if done >= chunks || start.elapsed().as_secs() > 60 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{args:?} finished before the kill");
    assert!(checkpoint.exists(), "{args:?}: the checkpoint went");
}

/// Runs `nimseq ARGS --checkpoint FILE`, kills it (SIGKILL) once FILE holds `kills[0]` bytes,
/// resumes it (`--resume`) and kills it again at `kills[1]`, and so on, then resumes it to the
/// end; returns that run's stdout, after checking that each killed run had not finished and
/// that the checkpoint is gone at the end.
pub fn killed_then_resumed(args: &[&str], kills: &[u64]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("table.ckpt");
    let run = |resume: bool| {
        let mut command = nimseq();
        command.args(args).arg("--checkpoint").arg(&checkpoint);
        if resume {
            command.arg("--resume");
        }
        command
    };
    for (i, &bytes) in kills.iter().enumerate() {
        let mut child = run(i > 0)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while std::fs::metadata(&checkpoint).map_or(0, |m| m.len()) < bytes {
            assert!(
                start.elapsed().as_secs() < 60,
                "{args:?}: the checkpoint never reached {bytes} bytes"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert!(!status.success(), "{args:?} finished before kill {i}");
    }
    let o = run(true).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!checkpoint.exists(), "the checkpoint stays after the run");
    o.stdout
}

/// Iterations the loop-spin hook spends first in each invocation: all but a few of llvmpipe's
/// 65,535, so that the kernel's own loops are cut there.
const FORCED_SPIN: &str = "65530";

/// Runs `nimseq ARGS --backend gpu` with the loop-spin hook (`NIMSEQ_GPU_LOOP_SPIN`), which
/// forces every invocation of `kernel` past 65,535 loop iterations. On llvmpipe, which cuts
/// loops there, the run must fail naming the adapter and the kernel, with no row on stdout but
/// `header` (if any); on an adapter that does not cut loops it must give the CPU's output.
/// Ignored without a GPU (a failure under `NIMSEQ_REQUIRE_GPU=1`).
pub fn forced_cut(args: &[&str], kernel: &str, header: Option<&str>) {
    let Some(ctx) = gpu() else { return };
    let run = |backend: &str, spin: Option<&str>| {
        let mut command = nimseq();
        command.args(args).args(["--backend", backend]);
        if let Some(spin) = spin {
            command.env(nimseq::gpu::LOOP_SPIN_ENV, spin);
        }
        command.output().expect("nimseq runs")
    };
    let o = run("gpu", Some(FORCED_SPIN));
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    if !ctx.info.name.contains("llvmpipe") {
        assert!(o.status.success(), "{args:?}: {err}");
        assert_eq!(
            o.stdout,
            run("cpu", None).stdout,
            "{args:?} on {}",
            ctx.info.name
        );
        return;
    }
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    let named = format!("{} cut a loop of the {kernel} kernel short", ctx.info.name);
    assert!(err.contains(&named), "{args:?}: {err}");
    let rows: Vec<&str> = out.lines().filter(|l| Some(*l) != header).collect();
    assert!(rows.is_empty(), "{args:?} wrote rows: {rows:?}");
}
