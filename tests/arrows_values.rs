//! The spider table on the GPU against the CPU table (entry for entry) and the normal form.

use nimseq::arrows::Tree;
use nimseq::arrows::forest::{Forest, NormalForm};
use nimseq::arrows::spider::SpiderTable;
use nimseq::arrows::spider_gpu::SpiderGpu;

use crate::common::gpu;

/// Every 3-leg spider with legs <= 10 and every 4-leg spider with legs <= 4: the GPU's table
/// equals the CPU's in every entry, and each spider's value equals the normal form's.
#[test]
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
        assert_eq!(tuples, cpu.tuples(), "every tuple dispatched once");
        assert_eq!(on_gpu.entries(), cpu.entries(), "{legs} legs <= {h_max}");
        let mut x = vec![1; legs];
        loop {
            let want = nf.value(&Forest::of_tree(&Tree::spider(&x).unwrap()));
            assert_eq!(u32::from(on_gpu.spider(&x)), want, "S{x:?}");
            let Some(i) = (0..legs).rev().find(|&i| x[i] < h_max) else {
                break;
            };
            x[i] += 1;
            let v = x[i];
            x[i + 1..].fill(v);
        }
    }
}
