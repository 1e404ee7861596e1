//! Octal games: every code of two digits to n = 4096 on each backend (a scan's work),
//! Treblecross (0.007) on the fast path with each of its kernels, and 0.3F (splits in three,
//! values that grow) on the pair bitsets with each kernel, as codes or values per second.
//!
//! GPU device creation and shader compilation happen outside the timer. `cargo test --benches`
//! runs each once at this toy size; `cargo bench` measures. For ogsolve in the same run, longer
//! codes and larger n, see `nimseq bench octal` and BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use indicatif::ProgressBar;

use nimseq::gpu::GpuContext;
use nimseq::memory::Budget;
use nimseq::octal::OctalCode;
use nimseq::octal::fast::Engine;
use nimseq::octal::gpu::OctalGpu;
use nimseq::octal::lanes::Kernel;
use nimseq::octal::pairs::PairEngine;
use nimseq::octal::row::{self, OctalRow, ScanBackend};
use nimseq::octal::scan;

fn cpu_rows(codes: &[OctalCode], n: usize, backend: ScanBackend) -> Vec<OctalRow> {
    codes
        .iter()
        .map(|c| row::solve(c, n, backend, Budget::UNLIMITED).expect("fits"))
        .collect()
}

fn two_digit_scan(c: &mut Criterion) {
    let codes: Vec<OctalCode> = scan::codes(2, 8, 0).collect();
    let n = 4096;
    let mut group = c.benchmark_group("octal scan 2 digits n=4096");
    group.throughput(Throughput::Elements(codes.len() as u64));
    group.sample_size(10);
    group.bench_function("reference", |b| {
        b.iter(|| cpu_rows(&codes, n, ScanBackend::Reference))
    });
    group.bench_function("cpu (one thread)", |b| {
        b.iter(|| cpu_rows(&codes, n, ScanBackend::Cpu))
    });
    match GpuContext::new() {
        Ok(ctx) => {
            let gpu = OctalGpu::new(&ctx).expect("shader compiles");
            group.bench_function("gpu", |b| {
                b.iter(|| {
                    gpu.solve(&codes, n, Budget::UNLIMITED, &ProgressBar::hidden())
                        .expect("fits")
                })
            });
        }
        Err(e) => eprintln!("no GPU benchmark: {e}"),
    }
    group.finish();
}

/// `code` to `n` on each kernel this CPU runs (on an AVX-512 machine the AVX2 one too, to
/// compare them), `run(kernel)` computing it.
fn each_kernel(c: &mut Criterion, code: &str, n: usize, run: impl Fn(Kernel) -> u32) {
    let mut group = c.benchmark_group(format!("{code} to 2^{}", n.trailing_zeros()));
    group.throughput(Throughput::Elements(n as u64));
    group.sample_size(10);
    for kernel in Kernel::available() {
        group.bench_function(format!("{kernel:?} kernel"), |b| b.iter(|| run(kernel)));
    }
    group.finish();
}

fn treblecross(c: &mut Criterion) {
    let code: OctalCode = "0.007".parse().unwrap();
    let n = 1 << 15;
    each_kernel(c, "0.007", n, |kernel| {
        let mut engine = Engine::with_kernel(&code, kernel);
        engine.extend(n).expect("fits");
        engine.max()
    });
}

fn three_heaps(c: &mut Criterion) {
    let code: OctalCode = "0.3F".parse().unwrap();
    let n = 1 << 12;
    each_kernel(c, "0.3F", n, |kernel| {
        let mut engine = PairEngine::with_kernel(&code, kernel);
        engine.extend(n).expect("fits");
        engine.max()
    });
}

criterion_group!(benches, two_digit_scan, treblecross, three_heaps);
criterion_main!(benches);
