//! Regular expressions for the kernel filter (`selection`) and kernel grouping (`dataset`):
//! whether a pattern matches anywhere in a name.
//!
//! Why not the regex-lite crate, which this replaces: its parser, compiler and matcher were
//! 20 KB of the web app's gzipped first visit; this module is a few kB. It reads the same
//! syntax (`parse.rs` follows regex-lite's parser, and `engine/tests/pattern.rs` compares the
//! two on thousands of patterns): literals, `.`, classes `[a-z]` `[^…]` `[[:alpha:]]`,
//! `\d \w \s` (ASCII, as in regex-lite), groups (capturing, named, non-capturing), `|`,
//! `* + ? {n} {n,} {n,m}` (lazy forms too), anchors `^ $ \A \z`, word boundaries `\b \B \<
//! \>` `\b{start}`…, escapes `\n \t \x41 \u{…}`, flags `(?imsxRU)`. Case-insensitivity is
//! ASCII only, as in regex-lite. Only `is_match` is needed, so there are no captures.
//!
//! Matching simulates the compiled program as an NFA (Thompson/Pike): time is proportional
//! to pattern size × name length whatever the pattern, so a hostile pattern from a link
//! cannot stall the page, and the program size is capped.

mod compile;
mod parse;

/// Most instructions a compiled pattern may have (`(a{1000}){1000}` is refused, as by
/// regex-lite's size limit).
pub const MAX_PROGRAM: usize = 1 << 16;

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    program: Vec<Inst>,
}

/// Why a pattern was refused (regex-lite's wording).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternError(pub &'static str);

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// A zero-width assertion about the characters either side of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Look {
    Start,
    End,
    StartLf,
    EndLf,
    StartCrlf,
    EndCrlf,
    Word,
    NotWord,
    WordStart,
    WordEnd,
    WordStartHalf,
    WordEndHalf,
}

impl Look {
    fn holds(self, prev: Option<char>, next: Option<char>) -> bool {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let (wp, wn) = (word(prev), word(next));
        match self {
            Look::Start => prev.is_none(),
            Look::End => next.is_none(),
            Look::StartLf => matches!(prev, None | Some('\n')),
            Look::EndLf => matches!(next, None | Some('\n')),
            Look::StartCrlf => matches!(prev, None | Some('\n')) || (prev == Some('\r') && next != Some('\n')),
            Look::EndCrlf => matches!(next, None | Some('\r')) || (next == Some('\n') && prev != Some('\r')),
            Look::Word => wp != wn,
            Look::NotWord => wp == wn,
            Look::WordStart => !wp && wn,
            Look::WordEnd => wp && !wn,
            Look::WordStartHalf => !wp,
            Look::WordEndHalf => !wn,
        }
    }
}

/// One instruction of the program; jumps are indices into it.
#[derive(Clone, Debug)]
enum Inst {
    /// Consume one character in any of these ranges.
    Class(Box<[(char, char)]>),
    Look(Look),
    /// Continue at both.
    Split(usize, usize),
    Jump(usize),
    Match,
}

impl Pattern {
    /// Compiles `pattern`; `case_insensitive` as if it started with `(?i)`.
    pub fn new(pattern: &str, case_insensitive: bool) -> Result<Pattern, PatternError> {
        let node = parse::parse(pattern, case_insensitive).map_err(PatternError)?;
        compile::compile(&node).map(|program| Pattern { program }).map_err(PatternError)
    }

    /// Whether the pattern matches anywhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        let n = self.program.len();
        // `seen[pc] == step`: pc is already in this step's thread list.
        let mut seen = vec![usize::MAX; n];
        let mut threads: Vec<usize> = Vec::new();
        let mut next_threads: Vec<usize> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        let mut chars = text.chars();
        let (mut prev, mut next) = (None, chars.next());
        for step in 0.. {
            // Threads that consumed the previous character, plus a new one starting here.
            next_threads.push(0);
            threads.clear();
            for &pc in &next_threads {
                stack.push(pc);
                while let Some(pc) = stack.pop() {
                    if pc >= n || seen[pc] == step {
                        continue;
                    }
                    seen[pc] = step;
                    match &self.program[pc] {
                        Inst::Match => return true,
                        Inst::Class(_) => threads.push(pc),
                        Inst::Look(look) => {
                            if look.holds(prev, next) {
                                stack.push(pc + 1);
                            }
                        }
                        Inst::Split(a, b) => {
                            stack.push(*b);
                            stack.push(*a);
                        }
                        Inst::Jump(a) => stack.push(*a),
                    }
                }
            }
            next_threads.clear();
            let Some(c) = next else { return false };
            for &pc in &threads {
                if let Inst::Class(ranges) = &self.program[pc] {
                    if ranges.iter().any(|&(a, b)| a <= c && c <= b) {
                        next_threads.push(pc + 1);
                    }
                }
            }
            (prev, next) = (Some(c), chars.next());
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Pattern::new(pattern, false).unwrap().is_match(text)
    }

    #[test]
    fn literals_classes_and_repetition() {
        assert!(m("gemm", "volta_sgemm_128x64"));
        assert!(!m("gemm", "volta_sgem"));
        assert!(m("^volta_.*_nn$", "volta_sgemm_128x64_nn"));
        assert!(!m("^sgemm", "volta_sgemm"));
        assert!(m("a{2,3}b", "xaab") && !m("xa{2,3}b", "xab") && !m("^a{2,3}$", "aaaa"));
        assert!(m("[[:digit:]]x[^a-c]", "9xd") && !m("[[:digit:]]x[^a-c]", "9xb"));
        assert!(m(r"\d+\.\d", "v1.5") && m(r"\bconv\b", "a conv b") && !m(r"\bconv\b", "deconv"));
        assert!(m("(?i)EIGEN", "Eigen::TensorMap") && m("(?i:e)IGEN", "eIGEN") && !m("(?i:e)IGEN", "eigen"));
        assert!(m("volta|eigen", "Eigen and volta") && m("(a|b)*c", "ababc") && m("", "anything"));
        assert!(m("(?x) a b # comment", "ab") && m(r"\x41\u{42}", "AB") && m("(?s)a.b", "a\nb") && !m("a.b", "a\nb"));
        assert!(m("(?m)^b$", "a\nb\nc") && !m("^b$", "a\nb\nc"));
        assert!(Pattern::new("VOLTA", true).unwrap().is_match("volta_x"));
    }

    #[test]
    fn empty_loops_terminate() {
        assert!(m("(a*)*b", "aaab") && !m("(a*)*b", "aaaa") && m("(|a)+$", "aa") && m("()*", ""));
    }

    #[test]
    fn refusals_say_why() {
        let e = |p: &str| Pattern::new(p, false).unwrap_err().0;
        assert_eq!(e("("), "found open group without closing ')'");
        assert_eq!(e("a)"), "found closing ')' without matching '('");
        assert_eq!(e("*a"), "repetition operator must be applied to a sub-expression");
        assert_eq!(e("[z-a]"), "invalid range in character class");
        assert_eq!(e(r"\1"), "backreferences are not supported");
        assert_eq!(e("(?=a)"), "look-around is not supported");
        assert_eq!(e("(a{1000}){1000}"), "the pattern is too large");
        assert_eq!(e(&"(".repeat(60)), "pattern has too much nesting");
        assert_eq!(e(&format!("a{}", "*".repeat(10_000))), "pattern has too much nesting");
    }
}
