//! One integration test binary (one GPU device shared by all tests, one link step).

mod arrows_cli;
mod arrows_values;
mod common;
mod kcross_cli;
mod kcross_values;
mod shaders;
mod subtraction_cli;
mod subtraction_theory;
mod subtraction_values;
