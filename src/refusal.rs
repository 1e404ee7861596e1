//! Which errors are the user's to fix: the command line exits 2 on them, the Python binding
//! raises `ValueError`. One list, so that both agree.

use crate::InputError;
use crate::arrows::reference::ReferenceError;
use crate::arrows::spider_gpu::FillError;
use crate::gpu::GpuError;
use crate::kcross::table::TableError;
use crate::memory::OverBudget;
use crate::octal::fast::EngineError;
use crate::octal::misere::OctalMisereError;
use crate::octal::quotient::QuotientReportError;
use crate::octal::scan::ScanError as OctalScanError;
use crate::octal::seq::OctalError;
use crate::output::checkpoint::CheckpointError;
use crate::output::resumable::ResumeError;
use crate::subtraction::misere::MisereError;
use crate::subtraction::scan::ScanError;

/// Whether an error is the user's to fix: what nimseq refuses before or instead of working
/// (exit code 2 at the command line, `ValueError` in Python).
pub fn is_bad_input(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<InputError>()
            || c.is::<OverBudget>()
            || c.downcast_ref::<ResumeError>().is_some_and(ResumeError::is_refusal)
            || c.downcast_ref::<CheckpointError>().is_some_and(CheckpointError::is_refusal)
            || c
                .downcast_ref::<ReferenceError>()
                .is_some_and(|e| *e != ReferenceError::Interrupted)
            || matches!(
                c.downcast_ref::<OctalError>(),
                Some(
                    OctalError::OverBudget(_)
                        | OctalError::Bounded(_)
                        | OctalError::Engine(EngineError::Outside(_))
                )
            )
            || matches!(
                c.downcast_ref::<MisereError>(),
                Some(MisereError::OverBudget(_))
            )
            || matches!(
                c.downcast_ref::<OctalMisereError>(),
                Some(OctalMisereError::OverBudget(_))
            )
            || c
                .downcast_ref::<QuotientReportError>()
                .is_some_and(QuotientReportError::is_refusal)
            || matches!(c.downcast_ref::<OctalError>(), Some(OctalError::Checkpoint(e)) if e.is_refusal())
            || matches!(
                c.downcast_ref::<TableError>(),
                Some(
                    TableError::OverBudget(_)
                        | TableError::RingsOverBudget { .. }
                        | TableError::TooLong { .. }
                )
            )
            || matches!(c.downcast_ref::<TableError>(), Some(TableError::Checkpoint(e)) if e.is_refusal())
            || matches!(
                c.downcast_ref::<ScanError>(),
                Some(ScanError::OverBudget(_))
            )
            || matches!(c.downcast_ref::<FillError>(), Some(FillError::Checkpoint(e)) if e.is_refusal())
            || matches!(
                c.downcast_ref::<OctalScanError>(),
                Some(
                    OctalScanError::OverBudget(_)
                        | OctalScanError::Octal(OctalError::OverBudget(_))
                )
            )
            || matches!(c.downcast_ref::<ScanError>(), Some(ScanError::Output(e)) if e.is_refusal())
            || matches!(c.downcast_ref::<OctalScanError>(), Some(OctalScanError::Resume(e)) if e.is_refusal())
            || matches!(c.downcast_ref::<OctalScanError>(), Some(OctalScanError::Octal(OctalError::Gpu(e))) if refused(e))
            || c.downcast_ref::<GpuError>().is_some_and(refused)
            || matches!(c.downcast_ref::<TableError>(), Some(TableError::Gpu(e)) if refused(e))
            || matches!(c.downcast_ref::<FillError>(), Some(FillError::Gpu(e)) if refused(e))
    })
}

/// A GPU error that refuses what was asked (a size, a setting) rather than failing at it.
fn refused(e: &GpuError) -> bool {
    matches!(
        e,
        GpuError::TableTooLarge { .. } | GpuError::TooLarge { .. } | GpuError::Setting { .. }
    )
}
