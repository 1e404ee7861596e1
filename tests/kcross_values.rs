//! The k-cross table on the GPU against the CPU table (word for word), and both against the raw
//! rules on random strips.

use nimseq::kcross::Board;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::layout::Layout;
use nimseq::kcross::reference;
use nimseq::kcross::table::ValueTable;
use nimseq::memory::Budget;
use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::common::{fresh_seed, gpu, gpu_binding};

fn cpu_table(k: usize, n: usize) -> ValueTable {
    ValueTable::build_cpu(
        Layout::new(k, n),
        Budget::UNLIMITED,
        &indicatif::ProgressBar::hidden(),
    )
    .unwrap()
}

/// Per-binding bytes that split a table of `words` into exactly 32 segments, the most lavapipe
/// binds (tables here have at least 32 words, and over 992 or exactly 32).
fn thirty_two_segments(words: u64) -> u64 {
    4 * words.div_ceil(32)
}

/// k = 2..8, each table split into 32 bindings (k = 5 also with 64-bit indices), then k = 3
/// up to 30 cells unsplit: every word equal to the CPU's.
fn gpu_tables_equal_cpu_tables() {
    let Some(ctx) = gpu_binding(32) else { return };
    let hidden = indicatif::ProgressBar::hidden();
    let sizes = [
        (2, 30),
        (3, 20),
        (4, 16),
        (5, 14),
        (6, 14),
        (7, 14),
        (8, 14),
    ];
    for (k, n) in sizes {
        let layout = Layout::new(k, n);
        let mut kernel = KcrossGpu::new(ctx).unwrap();
        kernel.binding_bytes = thirty_two_segments(layout.words() + 1);
        let want = cpu_table(k, n);
        let (table, plan) = kernel
            .build(layout.clone(), Budget::UNLIMITED, &hidden)
            .unwrap();
        assert_eq!(plan.segments, 32, "k = {k}: {plan}");
        assert_eq!(table.words(), want.words(), "k = {k}, n = {n}, {plan}");
        if k == 5 {
            kernel.wide = true;
            let (table, plan) = kernel.build(layout, Budget::UNLIMITED, &hidden).unwrap();
            assert!(plan.wide && plan.segments == 32, "{plan}");
            assert_eq!(table.words(), want.words(), "k = 5, n = {n}, {plan}");
        }
    }
    let kernel = KcrossGpu::new(ctx).unwrap();
    let (table, plan) = kernel
        .build(Layout::new(3, 30), Budget::UNLIMITED, &hidden)
        .unwrap();
    assert_eq!(plan.segments, 1);
    assert_eq!(table.words(), cpu_table(3, 30).words(), "k = 3, n = 30");
}

/// Started at 2 bits, a split table and the CPU's both widen to 8 (values reach 4 here) and
/// agree; the strips read back alone equal the whole table's.
fn split_gpu_tables_widen_and_read_back_strips() {
    let Some(ctx) = gpu_binding(32) else { return };
    let hidden = indicatif::ProgressBar::hidden();
    let narrow = Layout::with_bits(3, 18, 2);
    let mut kernel = KcrossGpu::new(ctx).unwrap();
    kernel.binding_bytes = thirty_two_segments(narrow.widened().words() + 1);
    let (gpu, _) = kernel
        .build(narrow.clone(), Budget::UNLIMITED, &hidden)
        .unwrap();
    let cpu = ValueTable::build_cpu(narrow.clone(), Budget::UNLIMITED, &hidden).unwrap();
    assert_eq!((gpu.layout.bits, cpu.layout.bits), (8, 8));
    assert_eq!(gpu.words(), cpu.words(), "widened k = 3, n = 18");
    let (strips, layout, _) = kernel.strips(narrow, Budget::UNLIMITED, &hidden).unwrap();
    assert_eq!(layout.bits, 8);
    let want: Vec<u8> = (0..=18)
        .map(|n| cpu.strip_value(&Board::strip(n)))
        .collect();
    assert_eq!(strips, want);
}

/// A table over what the (lowered) bindings hold is refused before allocating, naming the
/// largest n that fits, which does fit.
fn tables_over_the_bindings_are_refused() {
    let Some(ctx) = gpu_binding(32) else { return };
    let mut kernel = KcrossGpu::new(ctx).unwrap();
    kernel.binding_bytes = 1024;
    let err = kernel.plan(&Layout::new(8, 20)).unwrap_err().to_string();
    assert!(
        err.contains("the k-cross table for k = 8, n <= 20 at 4 bits needs")
            && err.contains("storage bindings of 1.0 KiB")
            && err.contains("n <= 15 fits"),
        "{err}"
    );
    assert!(kernel.plan(&Layout::new(8, 15)).is_ok());
    assert!(kernel.plan(&Layout::new(8, 16)).is_err());
}

/// For k = 2..8: `boards` random strips of `cells` cells, each cell an X with probability
/// `density` (those holding a run of k skipped), valued from `table(k)` and by the raw rules
/// (fresh seed each run, printed on failure).
fn agrees_on_random_strips(
    table: impl Fn(usize) -> ValueTable,
    cells: std::ops::RangeInclusive<usize>,
    density: f64,
    boards: usize,
) {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for k in 2..=8 {
        let table = table(k);
        for _ in 0..boards {
            let n = rng.random_range(cells.clone());
            let board = Board {
                cells: (0..n).map(|_| rng.random_bool(density)).collect(),
                circular: false,
            };
            if board.check(k).is_err() {
                continue;
            }
            let want = reference::solve(&board, k).0;
            assert_eq!(
                table.strip_value(&board),
                want,
                "{board} k = {k} (seed {seed})"
            );
        }
    }
}

/// The CPU table on random strips longer than the unit test's exhaustive 12 cells.
fn cpu_table_agrees_with_the_raw_rules() {
    agrees_on_random_strips(|k| cpu_table(k, 20), 13..=20, 0.25, 8);
}

/// The GPU's table on random strips of up to 14 cells.
fn gpu_table_agrees_with_the_raw_rules() {
    let Some(ctx) = gpu() else { return };
    let kernel = KcrossGpu::new(ctx).unwrap();
    let hidden = indicatif::ProgressBar::hidden();
    let table = |k| {
        kernel
            .build(Layout::new(k, 14), Budget::UNLIMITED, &hidden)
            .unwrap()
            .0
    };
    agrees_on_random_strips(table, 1..=14, 0.3, 20);
}

trials!(
    gpu_tables_equal_cpu_tables,
    split_gpu_tables_widen_and_read_back_strips,
    tables_over_the_bindings_are_refused,
    cpu_table_agrees_with_the_raw_rules,
    gpu_table_agrees_with_the_raw_rules,
);
