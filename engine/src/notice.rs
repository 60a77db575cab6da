//! Messages as the page shows them: a short sentence first, the detail after.
//!
//! The engine's messages are written to follow a file name ("x.csv: the file is empty"), so
//! they start in lower case; shown on their own they start with a capital ([`capitalise`]).
//! A warning about missing counters is a wall of metric names and a command line; a
//! [`Notice`] keeps the sentence short and carries the rest (what was found, what is
//! missing, the command that collects it) for a "Details" disclosure.

use crate::error::ImportError;

/// `s` with its first letter upper-case ("the profile ran…" → "The profile ran…"); text that
/// starts with anything but an ASCII lower-case letter (a digit, a quote, a kernel's name in
/// another script) is left alone. ASCII only: the sentences are the engine's own English, and
/// Unicode's case tables were 12.4 KB of each wasm (6 KB gzipped of a shared link's first chart,
/// docs/PERFORMANCE.md).
pub fn capitalise(s: &str) -> String {
    match s.chars().next() {
        Some(c) if c.is_ascii_lowercase() => format!("{}{}", c.to_ascii_uppercase(), &s[1..]),
        _ => s.to_string(),
    }
}

/// One warning: a sentence, and the detail behind it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notice {
    /// One short sentence, capitalised.
    pub sentence: String,
    /// The files it is about, when it is about files.
    pub files: Option<String>,
    /// What the files do have ("time", "DRAM bytes"), when that was checked.
    pub found: Vec<String>,
    /// The counters to collect (metric names).
    pub missing: Vec<String>,
    /// The profiler command lines that collect them, or other advice.
    pub commands: Vec<String>,
}

impl Notice {
    /// A warning that is only a sentence (the machine choice's warnings).
    pub fn plain(text: &str) -> Notice {
        Notice { sentence: capitalise(text), ..Notice::default() }
    }

    /// Whether there is more to show than the sentence.
    pub fn has_detail(&self) -> bool {
        self.files.is_some() || !self.found.is_empty() || !self.missing.is_empty() || !self.commands.is_empty()
    }
}

impl From<&ImportError> for Notice {
    fn from(e: &ImportError) -> Notice {
        let sentence = match e.line {
            Some(line) => format!("{} (line {line} of {})", capitalise(&e.message), e.file),
            None => capitalise(&e.message),
        };
        Notice {
            sentence,
            files: (!e.file.is_empty()).then(|| e.file.clone()),
            found: e.gap.as_ref().map(|g| g.found.clone()).unwrap_or_default(),
            missing: e.gap.as_ref().map(|g| g.missing.clone()).unwrap_or_default(),
            // A hint may join several commands with " and " (nvprof's metrics and summary).
            commands: e.hint.iter().flat_map(|h| h.split(" and ").map(str::to_string)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitals() {
        assert_eq!(capitalise("the profile ran on an sm_80 GPU"), "The profile ran on an sm_80 GPU");
        // ASCII only (the function's doc says why): another script's first letter stays.
        assert_eq!(capitalise("énorme"), "énorme");
        assert_eq!(capitalise("x"), "X");
        assert_eq!(capitalise("27 kernels"), "27 kernels");
        assert_eq!(capitalise(""), "");
    }

    #[test]
    fn an_import_warning_keeps_its_parts() {
        let mut e = ImportError::new("a.csv, b.csv", None, "these files have DRAM bytes but no time or FLOP counters").with_hint("ncu --csv --metrics x ./app > profile.csv");
        e.gap = Some(Box::new(crate::error::CounterGap { found: vec!["DRAM bytes".into()], missing: vec!["x".into()] }));
        let n = Notice::from(&e);
        assert_eq!(n.sentence, "These files have DRAM bytes but no time or FLOP counters");
        assert_eq!(n.files.as_deref(), Some("a.csv, b.csv"));
        assert_eq!(n.commands, ["ncu --csv --metrics x ./app > profile.csv"]);
        assert!(n.has_detail());
        assert!(!Notice::plain("a machine").has_detail());
    }
}
