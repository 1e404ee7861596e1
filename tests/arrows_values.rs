//! The fast solvers against the raw rules on every small tree, and the spider table on the GPU
//! against the CPU table (entry for entry) and the normal form.

use nimseq::arrows::Tree;
use nimseq::arrows::census::{FreeTrees, level_edges};
use nimseq::arrows::forest::{Forest, NormalForm};
use nimseq::arrows::reference::Reference;
use nimseq::arrows::spider::{SpiderTable, each_spider};
use nimseq::arrows::spider_gpu::SpiderGpu;
use nimseq::memory::Budget;

use crate::common::{gpu, gpu_binding};

/// Every tree with n <= 12 vertices (987 trees): the normal form equals the raw rules, and so
/// does the spider table on each spider among them.
fn every_small_tree_agrees_with_the_raw_rules() {
    let mut nf = NormalForm::default();
    let mut table = SpiderTable::new(3, 8);
    let mut four = SpiderTable::new(4, 5);
    let (mut trees, mut spiders) = (0, 0);
    for n in 1..=12 {
        for layout in FreeTrees::new(n) {
            let tree = Tree::new(n, level_edges(&layout), "generated").unwrap();
            let raw = u32::from(
                Reference::new(&tree, Budget::new(1 << 30))
                    .unwrap()
                    .value(0)
                    .unwrap(),
            );
            assert_eq!(nf.value(&Forest::of_tree(&tree)), raw, "{:?}", tree.edges);
            trees += 1;
            if let Some(legs) = tree.spider_legs() {
                let x = Tree::leg_lengths(&legs);
                let mut sorted = x.clone();
                sorted.sort_unstable();
                let g = match x.len() {
                    3 => table.spider(&sorted),
                    4 => four.spider(&sorted),
                    _ => continue,
                };
                assert_eq!(u32::from(g), raw, "S{x:?}");
                spiders += 1;
            }
        }
    }
    assert_eq!(trees, 987);
    // 3-leg spiders with x + y + z <= 8 (16) and 4-leg ones with legs summing to <= 7 (7).
    assert_eq!(spiders, 16 + 7);
}

/// Every 3-leg spider with legs <= 10 and every 4-leg spider with legs <= 4: the GPU's table
/// equals the CPU's in every entry, and each spider's value equals the normal form's.
fn gpu_spider_tables_equal_cpu_tables_and_the_normal_form() {
    let Some(ctx) = gpu() else { return };
    let kernel = SpiderGpu::new(ctx).unwrap();
    let mut nf = NormalForm::default();
    for (legs, h_max) in [(3, 10), (4, 4)] {
        let mut cpu = SpiderTable::new(legs, h_max);
        cpu.fill(|_| ());
        let mut on_gpu = SpiderTable::new(legs, h_max);
        let mut tuples = 0;
        kernel.fill(&mut on_gpu, |n| tuples += n).unwrap();
        assert_eq!(
            tuples,
            SpiderTable::tuples(legs, h_max),
            "every tuple dispatched once"
        );
        assert_eq!(on_gpu.entries(), cpu.entries(), "{legs} legs <= {h_max}");
        each_spider(legs, h_max, |x| {
            let want = nf.value(&Forest::of_tree(&Tree::spider(x).unwrap()));
            assert_eq!(u32::from(on_gpu.spider(x)), want, "S{x:?}");
            Ok::<_, ()>(())
        })
        .unwrap();
    }
}

/// 3-leg spiders with legs <= 40 and 4-leg ones with legs <= 12, each table split into the 32
/// bindings lavapipe has (the 4-leg one also with 64-bit indices, and started at 4 bits an
/// entry so that it widens to 16): every entry equals the CPU's, and so does every spider's
/// value read back segment by segment.
fn split_gpu_spider_tables_equal_cpu_tables() {
    let Some(ctx) = gpu_binding(32) else { return };
    for (legs, h_max) in [(3, 40), (4, 12)] {
        let mut cpu = SpiderTable::new(legs, h_max);
        cpu.fill(|_| ());
        let mut kernel = SpiderGpu::new(ctx).unwrap();
        // Entries are 8 bits (16 when widened): 32 segments of a quarter of the entries / 32.
        let entries = cpu.entries().len() as u64;
        let words = |bits: u64| entries.div_ceil(32 / bits) + 1;
        kernel.binding_bytes = 4 * words(8).div_ceil(32);
        let mut variants = vec![(false, 8)];
        if legs == 4 {
            variants.push((true, 4));
        }
        for (wide, first_bits) in variants {
            kernel.wide = wide;
            kernel.first_bits = first_bits;
            if first_bits == 4 {
                kernel.binding_bytes = 4 * words(16).div_ceil(32);
            }
            let what = format!("{legs} legs <= {h_max}, wide {wide}, from {first_bits} bits");
            let mut on_gpu = SpiderTable::new(legs, h_max);
            kernel.fill(&mut on_gpu, |_| ()).unwrap();
            assert_eq!(on_gpu.entries(), cpu.entries(), "{what}");
            let read = kernel.spiders(legs, h_max, |_| ()).unwrap();
            let plan = read.device.unwrap();
            assert_eq!((plan.segments, plan.wide), (32, wide), "{what}: {plan}");
            assert_eq!(read.values, cpu.spider_values(), "{what}");
        }
    }
}

trials!(
    every_small_tree_agrees_with_the_raw_rules,
    gpu_spider_tables_equal_cpu_tables_and_the_normal_form,
    split_gpu_spider_tables_equal_cpu_tables,
);
