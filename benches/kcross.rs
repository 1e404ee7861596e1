//! The k-cross component table on each backend, as states per second, and the raw rules on the
//! boards the table answers.
//!
//! GPU device creation and shader compilation happen outside the timer. `cargo test --benches`
//! runs each once at this toy size; `cargo bench` measures. For the Table 5.2 range and the
//! furthest runs, see `nimseq bench kcross` and BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use nimseq::gpu::GpuContext;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::layout::Layout;
use nimseq::kcross::reference::Reference;
use nimseq::kcross::table::ValueTable;
use nimseq::memory::Budget;

fn table(c: &mut Criterion) {
    let (k, n) = (4, 18);
    let layout = Layout::new(k, n);
    let mut group = c.benchmark_group("kcross table k=4 n<=18");
    group.throughput(Throughput::Elements(layout.states()));
    group.sample_size(10);
    let hidden = indicatif::ProgressBar::hidden();
    group.bench_function("reference G([n]) n<=18", |b| {
        b.iter(|| {
            (0..=n)
                .map(|n| Reference::new(k, n, false).value(0))
                .collect::<Vec<u8>>()
        })
    });
    group.bench_function("cpu", |b| {
        b.iter(|| ValueTable::build_cpu(layout.clone(), Budget::UNLIMITED, &hidden).expect("fits"))
    });
    match GpuContext::new() {
        Ok(ctx) => {
            let gpu = KcrossGpu::new(&ctx).expect("shader compiles");
            group.bench_function("gpu", |b| {
                b.iter(|| {
                    gpu.build(layout.clone(), Budget::UNLIMITED, &hidden)
                        .expect("fits")
                })
            });
        }
        Err(e) => eprintln!("no GPU benchmark: {e}"),
    }
    group.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
