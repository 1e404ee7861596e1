//! Each backend on the same scans, as rulesets per second: every triple with `c <= 48`, every
//! 4-move set with largest move up to 24 and every 5-move set up to 18; the CPU path with each
//! lane kernel this CPU runs (AVX-512, AVX2, portable).
//!
//! GPU device creation and shader compilation happen outside the timer. `cargo test --benches`
//! runs each once at this toy size; `cargo bench` measures. For the full comparison against the
//! peer, see `nimseq bench sub` and BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use nimseq::gpu::GpuContext;
use nimseq::memory::Budget;
use nimseq::subtraction::gpu::SubtractionGpu;
use nimseq::subtraction::lanes::{Kernel, solve_sets_with};
use nimseq::subtraction::scan::Backend;

use nimseq::subtraction::{MoveSet, SetFilter};

fn scan(c: &mut Criterion) {
    let ctx = GpuContext::new();
    if let Err(e) = &ctx {
        eprintln!("no GPU benchmark: {e}");
    }
    for (k, d) in [(3, 48), (4, 24), (5, 18)] {
        let sets: Vec<MoveSet> = SetFilter::sets_up_to(k, d).sets().collect();
        let mut group = c.benchmark_group(format!("subtraction scan K={k} D<={d}"));
        group.throughput(Throughput::Elements(sets.len() as u64));
        group.sample_size(10);
        for kernel in Kernel::available() {
            group.bench_function(format!("cpu {kernel:?}"), |b| {
                b.iter(|| solve_sets_with(kernel, &sets, |_| 1 << 24, Budget::UNLIMITED))
            });
        }
        let mut backends = vec![("reference", Backend::Reference)];
        if let Ok(ctx) = &ctx {
            let gpu = SubtractionGpu::new(ctx, k).expect("shader compiles");
            backends.push(("gpu", Backend::Gpu(gpu)));
        }
        for (name, backend) in &backends {
            group.bench_function(*name, |b| {
                b.iter(|| backend.solve(&sets, Budget::UNLIMITED).expect("solves"))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, scan);
criterion_main!(benches);
