//! The Game of Arrows: the spider table on each backend, as leg tuples per second, and the
//! census of small trees through the normal form.
//!
//! GPU device creation and shader compilation happen outside the timer. `cargo test --benches`
//! runs each once at this toy size; `cargo bench` measures. For legs <= 120, the census to
//! n = 20 and the furthest runs, see `nimseq bench arrows` and BENCHMARKS.md.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use nimseq::arrows::census::{Valuer, census};
use nimseq::arrows::forest::NormalForm;
use nimseq::arrows::spider::{SpiderTable, summarise};
use nimseq::arrows::spider_gpu::{SpiderFill, SpiderGpu};
use nimseq::gpu::GpuContext;
use nimseq::memory::Budget;

/// Every spider's value read from a table filled by `fill`.
fn spiders(fill: &SpiderFill<'_>, h_max: usize) -> u64 {
    let spiders = fill.spiders(3, h_max, None, |_| ()).expect("fits");
    summarise(3, h_max, &spiders.values, |_, _| Ok(()))
        .expect("no output")
        .spiders
}

fn spider_table(c: &mut Criterion) {
    let h_max = 30;
    let mut group = c.benchmark_group("spider table legs<=30");
    group.throughput(Throughput::Elements(SpiderTable::tuples(3, h_max)));
    group.sample_size(10);
    group.bench_function("reference (recursion)", |b| {
        b.iter(|| spiders(&SpiderFill::Recursion, h_max))
    });
    group.bench_function("cpu", |b| b.iter(|| spiders(&SpiderFill::Cpu, h_max)));
    match GpuContext::new() {
        Ok(ctx) => {
            let gpu = SpiderGpu::new(&ctx).expect("shader compiles");
            group.bench_function("gpu", |b| b.iter(|| spiders(&SpiderFill::Gpu(&gpu), h_max)));
        }
        Err(e) => eprintln!("no GPU benchmark: {e}"),
    }
    group.finish();
}

fn census_small(c: &mut Criterion) {
    let mut group = c.benchmark_group("census n<=14");
    group.sample_size(10);
    group.bench_function("normal form, fresh memo", |b| {
        b.iter(|| {
            let mut memo = NormalForm::default();
            (1..=14)
                .map(|n| {
                    census(
                        n,
                        &mut Valuer::NormalForm(&mut memo),
                        false,
                        Budget::UNLIMITED,
                        |_| (),
                    )
                    .expect("fits")
                    .trees
                })
                .sum::<u64>()
        })
    });
    group.finish();
}

criterion_group!(benches, spider_table, census_small);
criterion_main!(benches);
