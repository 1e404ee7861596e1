//! Each backend on the same triple scan, as rulesets per second.
//!
//! GPU device creation and shader compilation happen outside the timer. `cargo test --benches`
//! runs each once at this toy size; `cargo bench` measures. For the full comparison against the
//! peer, see `nimseq bench sub` and BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use nimseq::gpu::GpuContext;
use nimseq::memory::Budget;
use nimseq::subtraction::gpu::SubtractionGpu;
use nimseq::subtraction::scan::Backend;
use nimseq::subtraction::{Triple, TripleFilter};

fn scan(c: &mut Criterion) {
    let triples: Vec<Triple> = TripleFilter::up_to(48).triples().collect();
    let mut group = c.benchmark_group("subtraction scan c<=48");
    group.throughput(Throughput::Elements(triples.len() as u64));
    group.sample_size(10);
    let ctx = GpuContext::new();
    let gpu = ctx
        .as_ref()
        .ok()
        .map(|ctx| SubtractionGpu::new(ctx).expect("shader compiles"));
    let mut backends = vec![("reference", Backend::Reference), ("cpu", Backend::Cpu)];
    match gpu {
        Some(gpu) => backends.push(("gpu", Backend::Gpu(gpu))),
        None => eprintln!(
            "no GPU benchmark: {}",
            ctx.as_ref()
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        ),
    }
    for (name, backend) in &backends {
        group.bench_function(*name, |b| {
            b.iter(|| backend.solve(&triples, Budget::UNLIMITED).expect("solves"))
        });
    }
    group.finish();
}

criterion_group!(benches, scan);
criterion_main!(benches);
