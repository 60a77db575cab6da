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
}

impl ImportError {
    pub fn new(file: &str, line: Option<usize>, message: impl Into<String>) -> Self {
        ImportError { file: file.to_string(), line, message: message.into(), hint: None }
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
        if let Some(hint) = &self.hint {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ImportError {}
