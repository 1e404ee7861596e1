//! Shared by the test modules: one GPU device per test binary, fresh random seeds, the binary.

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use nimseq::gpu::{GpuContext, REQUIRE_GPU_ENV};

/// The test binary's GPU, opened once. `None` (with a visible note) when there is no adapter,
/// unless `NIMSEQ_REQUIRE_GPU=1`, where a missing adapter fails the test: a skip tests nothing.
pub fn gpu() -> Option<&'static GpuContext> {
    static CONTEXT: OnceLock<Option<GpuContext>> = OnceLock::new();
    CONTEXT
        .get_or_init(|| match GpuContext::new() {
            Ok(ctx) => {
                eprintln!("GPU tests run on {}", ctx.describe());
                Some(ctx)
            }
            Err(e) => {
                assert!(
                    std::env::var(REQUIRE_GPU_ENV).as_deref() != Ok("1"),
                    "{REQUIRE_GPU_ENV}=1 but no GPU adapter: {e}"
                );
                eprintln!("SKIPPED GPU checks: {e} (set {REQUIRE_GPU_ENV}=1 to fail instead)");
                None
            }
        })
        .as_ref()
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

/// The one error line of a run refused as bad input: exit code 2, exactly one `error` line on
/// stderr (other lines, such as the backend's, may come before it), no panic.
pub fn refusal(o: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    errors[0].to_string()
}
