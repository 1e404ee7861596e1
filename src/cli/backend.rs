//! `--checkpoint` beside `--backend`: the choice itself is the library's ([`nimseq::backend`]).

use anyhow::Result;

use super::flags::CheckpointArgs;
use nimseq::InputError;
use nimseq::backend::{BackendChoice, Chosen, choose};

/// [`choose`] for a command that may write a checkpoint, which the CPU path does: with one,
/// `auto` takes the CPU path and `gpu` is refused.
pub fn choose_for_checkpoint(choice: BackendChoice, checkpoint: &CheckpointArgs) -> Result<Chosen> {
    if checkpoint.checkpoint.is_none() {
        return Ok(choose(choice)?);
    }
    match choice {
        BackendChoice::Gpu => Err(InputError(
            "--checkpoint is written by the CPU path; use --backend cpu or auto with it".into(),
        )
        .into()),
        BackendChoice::Auto => {
            eprintln!("backend: cpu (--checkpoint is written by the CPU path)");
            Ok(Chosen::Cpu)
        }
        _ => Ok(choose(choice)?),
    }
}
