//! One integration test binary (one GPU device shared by all tests, one link step), run by
//! libtest-mimic: a GPU test without an adapter shows as ignored, with the reason, in the
//! default `cargo test` output (and fails under `NIMSEQ_REQUIRE_GPU=1`).

/// The trials of a test module: each function, named by its module and name.
macro_rules! trials {
    ($($test:ident),* $(,)?) => {
        pub fn trials() -> Vec<libtest_mimic::Trial> {
            vec![$(crate::common::trial(
                concat!(module_path!(), "::", stringify!($test)),
                $test,
            )),*]
        }
    };
}

mod arrows_cli;
mod arrows_values;
mod common;
mod docs;
mod imports;
mod kcross_cli;
mod kcross_values;
mod merge_cli;
mod misere_quotient;
mod octal;
mod parsers;
mod positions;
mod shaders;
mod slurm;
mod subtraction_cli;
mod subtraction_theory;
mod subtraction_values;
mod take_break;

fn main() {
    // SAFETY: the first thing main does, before any thread exists.
    unsafe { nimseq::gpu::quiet_display_layers() };
    common::spawn_measured_if_asked();
    let args = libtest_mimic::Arguments::from_args();
    let trials = [
        arrows_cli::trials(),
        arrows_values::trials(),
        docs::trials(),
        imports::trials(),
        kcross_cli::trials(),
        kcross_values::trials(),
        merge_cli::trials(),
        misere_quotient::trials(),
        octal::trials(),
        parsers::trials(),
        positions::trials(),
        shaders::trials(),
        slurm::trials(),
        subtraction_cli::trials(),
        subtraction_theory::trials(),
        subtraction_values::trials(),
        take_break::trials(),
    ]
    .into_iter()
    .flatten()
    .collect();
    libtest_mimic::run(&args, trials).exit();
}
