//! An Nsight Compute log with no result table: only `==PROF==`, `==ERROR==` and
//! `==WARNING==` lines (and possibly the application's own output). This is what
//! `ncu --csv --log-file …` leaves when the profiled application failed or no kernel matched
//! the filters. It is recognised so the user is told why, instead of "not a profile".

use super::hints;
use super::table::find_line;
use super::{Imported, Importer};
use crate::error::ImportError;

pub struct NsightComputeLog;

impl Importer for NsightComputeLog {
    fn format(&self) -> &'static str {
        "ncu-log"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, |l| l.starts_with("==PROF==") || l.starts_with("==ERROR==")).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        if let Some((line, _, error)) = find_line(text, |l| l.starts_with("==ERROR==")) {
            return Err(ImportError::new(
                file,
                Some(line),
                format!("the profiled application failed, so Nsight Compute wrote no results; the log says: {}", error.trim()),
            )
            .with_hint("run the application without ncu to fix the failure, then profile it again"));
        }
        Err(ImportError::new(file, None, "this Nsight Compute log has no result table: no kernel was profiled")
            .with_hint(hints::ncu_profiled_nothing()))
    }
}
