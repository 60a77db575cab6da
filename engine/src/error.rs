//! The one error type users see when a file cannot be read. It always names the file, and the
//! line when one is to blame, so the app's `role="alert"` and the CLI's stderr can say where.

use std::fmt;

/// A file that could not be turned into profiles or a machine.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ImportError {
    /// The file's name as the user gave it.
    pub file: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<usize>,
    /// What was wrong and what was expected, in one sentence.
    pub message: String,
    /// How to collect what is missing (e.g. an `ncu --metrics …` command line), when known.
    pub hint: Option<String>,
    /// For files that lack counters: what they have and the metrics to collect, so the
    /// message itself stays one short sentence (`notice::Notice` shows these as detail).
    /// Boxed: most errors have none, and results carrying an error stay small.
    pub gap: Option<Box<CounterGap>>,
}

/// What files that lack counters have ("time", "DRAM bytes") and the metrics that would fill
/// the gap.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CounterGap {
    pub found: Vec<String>,
    pub missing: Vec<String>,
}

impl ImportError {
    pub fn new(file: &str, line: Option<usize>, message: impl Into<String>) -> Self {
        ImportError { file: file.to_string(), line, message: message.into(), hint: None, gap: None }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}, line {}: {}", self.file, line, self.message)?,
            None => write!(f, "{}: {}", self.file, self.message)?,
        }
        if let Some(gap) = self.gap.as_ref().filter(|g| !g.missing.is_empty()) {
            write!(f, "; missing metrics: {}", gap.missing.join(", "))?;
        }
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ImportError {}
