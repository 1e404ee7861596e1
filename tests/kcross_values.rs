//! The k-cross table on the GPU against the CPU table (word for word), and both against the raw
//! rules on random strips.

use nimseq::kcross::Board;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::layout::Layout;
use nimseq::kcross::reference;
use nimseq::kcross::table::ValueTable;
use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::common::{fresh_seed, gpu};

fn cpu_table(k: usize, n: usize) -> ValueTable {
    ValueTable::build_cpu(
        Layout::new(k, n),
        u64::MAX,
        &indicatif::ProgressBar::hidden(),
    )
    .unwrap()
}

/// k = 2..8 on boards of 12 cells, the table split over all five bindings, then k = 3 up to
/// 30 cells in one binding: every word equal to the CPU's.
#[test]
fn gpu_tables_equal_cpu_tables() {
    let Some(ctx) = gpu() else { return };
    let mut kernel = KcrossGpu::new(ctx).unwrap();
    let hidden = indicatif::ProgressBar::hidden();
    for k in 2..=8 {
        let layout = Layout::new(k, 12);
        kernel.segment_words = layout.words().div_ceil(5);
        let table = kernel.build(layout, u64::MAX, &hidden).unwrap();
        assert_eq!(table.words(), cpu_table(k, 12).words(), "k = {k}");
    }
    kernel = KcrossGpu::new(ctx).unwrap();
    let table = kernel.build(Layout::new(3, 30), u64::MAX, &hidden).unwrap();
    assert_eq!(table.words(), cpu_table(3, 30).words(), "k = 3, n = 30");
    // Started at 2 bits, both widen to 8 (values reach 4 here) and agree.
    let narrow = Layout::with_bits(3, 18, 2);
    let gpu = kernel.build(narrow.clone(), u64::MAX, &hidden).unwrap();
    let cpu = ValueTable::build_cpu(narrow, u64::MAX, &hidden).unwrap();
    assert_eq!((gpu.layout.bits, cpu.layout.bits), (8, 8));
    assert_eq!(gpu.words(), cpu.words(), "widened k = 3, n = 18");
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
#[test]
fn cpu_table_agrees_with_the_raw_rules() {
    agrees_on_random_strips(|k| cpu_table(k, 20), 13..=20, 0.25, 8);
}

/// The GPU's table on random strips of up to 14 cells.
#[test]
fn gpu_table_agrees_with_the_raw_rules() {
    let Some(ctx) = gpu() else { return };
    let kernel = KcrossGpu::new(ctx).unwrap();
    let hidden = indicatif::ProgressBar::hidden();
    let table = |k| kernel.build(Layout::new(k, 14), u64::MAX, &hidden).unwrap();
    agrees_on_random_strips(table, 1..=14, 0.3, 20);
}
