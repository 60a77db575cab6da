//! Pattern text → syntax tree ([`Node`]), following regex-lite's parser rule for rule (its
//! syntax, flags, escapes and errors), so that every filter that worked before still works.
//!
//! Differences, all in corners no kernel filter reaches: error messages are regex-lite's,
//! shortened; the nesting limit counts levels slightly differently; `(?i)` folds both halves
//! of a class range spanning `Z`–`a` (regex-lite folds one).

use super::Look;

/// A parsed pattern. Literal characters are one-character classes.
pub(super) enum Node {
    /// One character from any of these inclusive ranges.
    Class(Vec<(char, char)>),
    Look(Look),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    /// `min` to `max` (`None`: unbounded) repetitions.
    Repeat(Box<Node>, u32, Option<u32>),
}

/// Deepest nesting of groups and repetitions (regex-lite's default), which also bounds the
/// recursion of compiling and dropping the tree.
const NEST_LIMIT: u32 = 50;

/// Parses `pattern`; `case_insensitive` starts with the `i` flag on.
pub(super) fn parse(pattern: &str, case_insensitive: bool) -> Result<Node, &'static str> {
    let mut p = Parser { chars: pattern.chars().collect(), pos: 0, flags: Flags { i: case_insensitive, ..Flags::default() }, names: Vec::new() };
    p.inner(0).map(|(node, _)| node)
}

#[derive(Clone, Copy, Default)]
struct Flags {
    /// `i`: ASCII case-insensitive.
    i: bool,
    /// `m`: `^`/`$` at line ends.
    m: bool,
    /// `s`: `.` matches `\n`.
    s: bool,
    /// `x`: whitespace and `#` comments ignored.
    x: bool,
    /// `R`: `\r\n` is a line end.
    r: bool,
}

/// A node and its nesting depth.
type Sized = (Node, u32);

/// What an escape stands for.
enum Atom {
    Char(char),
    Set(Vec<(char, char)>),
    Look(Look),
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    flags: Flags,
    names: Vec<String>,
}

fn nested(node: Node, depth: u32) -> Result<Sized, &'static str> {
    if depth > NEST_LIMIT {
        return Err("pattern has too much nesting");
    }
    Ok((node, depth))
}

/// One node for a sequence (or alternatives): the item itself when there is one.
fn join(mut items: Vec<Sized>, alt: bool) -> Result<Sized, &'static str> {
    if items.len() == 1 {
        return Ok(items.remove(0));
    }
    let depth = items.iter().map(|(_, d)| d + 1).max().unwrap_or(0);
    let nodes = items.into_iter().map(|(n, _)| n).collect();
    nested(if alt { Node::Alt(nodes) } else { Node::Concat(nodes) }, depth)
}

impl Parser {
    fn cur(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn done(&self) -> bool {
        self.pos >= self.chars.len()
    }

    /// Moves past the current character; whether any is left.
    fn bump(&mut self) -> bool {
        self.pos += 1;
        !self.done()
    }

    /// In `x` mode, moves past whitespace and comments.
    fn bump_space(&mut self) {
        while self.flags.x {
            match self.cur() {
                Some(c) if c.is_whitespace() => self.pos += 1,
                Some('#') => {
                    while self.bump() && self.cur() != Some('\n') {}
                    self.pos += 1;
                }
                _ => break,
            }
        }
    }

    fn bump_and_bump_space(&mut self) -> bool {
        self.pos += 1;
        self.bump_space();
        !self.done()
    }

    /// The character after the current one (skipping whitespace and comments in `x` mode).
    fn peek_space(&self) -> Option<char> {
        let mut in_comment = false;
        for &c in self.chars.iter().skip(self.pos + 1) {
            match c {
                _ if !self.flags.x => return Some(c),
                c if c.is_whitespace() => {}
                '#' if !in_comment => in_comment = true,
                '\n' if in_comment => in_comment = false,
                _ if in_comment => {}
                c => return Some(c),
            }
        }
        None
    }

    /// Moves past `s` if the text continues with it.
    fn bump_if(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        let matches = self.chars.get(self.pos..self.pos + n).is_some_and(|w| w.iter().copied().eq(s.chars()));
        if matches {
            self.pos += n;
        }
        matches
    }

    /// Alternatives up to the end of the pattern or of the current group.
    fn inner(&mut self, depth: u32) -> Result<Sized, &'static str> {
        if depth > NEST_LIMIT {
            return Err("pattern has too much nesting");
        }
        let mut alternates = Vec::new();
        let mut concat: Vec<Sized> = Vec::new();
        loop {
            self.bump_space();
            let Some(c) = self.cur() else { break };
            match c {
                '(' => {
                    let outer = self.flags;
                    if let Some(group) = self.group(depth)? {
                        concat.push(group);
                        self.flags = outer;
                    }
                    if self.cur() != Some(')') {
                        return Err("found open group without closing ')'");
                    }
                    self.pos += 1;
                }
                ')' if depth == 0 => return Err("found closing ')' without matching '('"),
                ')' => break,
                '|' => {
                    alternates.push(join(std::mem::take(&mut concat), false)?);
                    self.pos += 1;
                }
                '[' => concat.push((self.class()?, 0)),
                '?' | '*' | '+' => {
                    let sub = concat.pop().ok_or("repetition operator must be applied to a sub-expression")?;
                    let (min, max) = match c {
                        '?' => (0, Some(1)),
                        '*' => (0, None),
                        _ => (1, None),
                    };
                    if self.bump() && self.cur() == Some('?') {
                        self.pos += 1;
                    }
                    concat.push(nested(Node::Repeat(Box::new(sub.0), min, max), sub.1 + 1)?);
                }
                '{' => {
                    let sub = concat.pop().ok_or("counted repetition operator must be applied to a sub-expression")?;
                    let (min, max) = self.counted()?;
                    concat.push(nested(Node::Repeat(Box::new(sub.0), min, max), sub.1 + 1)?);
                }
                _ => {
                    self.pos += 1;
                    let node = match c {
                        '\\' => match self.escape()? {
                            Atom::Char(c) => self.literal(c),
                            Atom::Set(ranges) => Node::Class(ranges),
                            Atom::Look(l) => Node::Look(l),
                        },
                        '.' if self.flags.s => Node::Class(vec![('\0', char::MAX)]),
                        '.' => Node::Class(negate(if self.flags.r { vec![('\n', '\n'), ('\r', '\r')] } else { vec![('\n', '\n')] })),
                        '^' => Node::Look(match (self.flags.m, self.flags.r) {
                            (false, _) => Look::Start,
                            (true, false) => Look::StartLf,
                            (true, true) => Look::StartCrlf,
                        }),
                        '$' => Node::Look(match (self.flags.m, self.flags.r) {
                            (false, _) => Look::End,
                            (true, false) => Look::EndLf,
                            (true, true) => Look::EndCrlf,
                        }),
                        c => self.literal(c),
                    };
                    concat.push((node, 0));
                }
            }
        }
        alternates.push(join(concat, false)?);
        join(alternates, true)
    }

    /// A literal character (both ASCII cases under `i`).
    fn literal(&self, c: char) -> Node {
        let mut ranges = vec![(c, c)];
        if self.flags.i {
            fold(&mut ranges);
        }
        Node::Class(ranges)
    }

    /// After `(`: a group, or `None` for a flag directive such as `(?i)`, which changes the
    /// flags of the enclosing group. Leaves the parser on the closing `)`.
    fn group(&mut self, depth: u32) -> Result<Option<Sized>, &'static str> {
        self.bump_and_bump_space();
        if self.bump_if("?=") || self.bump_if("?!") || self.bump_if("?<=") || self.bump_if("?<!") {
            return Err("look-around is not supported");
        }
        let capture = if self.bump_if("?P<") || self.bump_if("?<") {
            self.capture_name()?;
            true
        } else if self.bump_if("?") {
            if self.done() {
                return Err("expected closing ')', but got end of pattern");
            }
            let start = self.pos;
            self.flags()?;
            if self.cur() == Some(')') {
                return if self.pos == start { Err("empty flag directive '(?)' is not allowed") } else { Ok(None) };
            }
            self.pos += 1;
            false
        } else {
            true
        };
        let (node, d) = self.inner(depth + 1)?;
        nested(node, d + u32::from(capture)).map(Some)
    }

    fn capture_name(&mut self) -> Result<(), &'static str> {
        let start = self.pos;
        while let Some(c) = self.cur().filter(|&c| c != '>') {
            let ok = c == '_' || if self.pos == start { c.is_alphabetic() } else { c == '.' || c == '[' || c == ']' || c.is_alphanumeric() };
            if !ok {
                return Err("invalid group name");
            }
            self.pos += 1;
        }
        if self.done() {
            return Err("expected end of capture group name, but got end of pattern");
        }
        let name: String = self.chars[start..self.pos].iter().collect();
        self.pos += 1;
        if name.is_empty() {
            return Err("empty capture group names are not allowed");
        }
        if self.names.contains(&name) {
            return Err("duplicate capture group name");
        }
        self.names.push(name);
        Ok(())
    }

    /// Inline flags up to `:` or `)`, applied to `self.flags`.
    fn flags(&mut self) -> Result<(), &'static str> {
        let mut on = true;
        let mut last_was_negation = false;
        let mut seen = String::new();
        while let Some(c) = self.cur().filter(|&c| c != ':' && c != ')') {
            if c == '-' {
                if !on {
                    return Err("inline flag negation cannot be repeated");
                }
                on = false;
                last_was_negation = true;
            } else {
                last_was_negation = false;
                match c {
                    'i' => self.flags.i = on,
                    'm' => self.flags.m = on,
                    's' => self.flags.s = on,
                    'x' => self.flags.x = on,
                    'R' => self.flags.r = on,
                    // Greed does not change whether a pattern matches; `u` is accepted as a no-op.
                    'U' | 'u' => {}
                    _ => return Err("unrecognized inline flag"),
                }
                if seen.contains(c) {
                    return Err("duplicate inline flag is not allowed");
                }
                seen.push(c);
            }
            if !self.bump() {
                return Err("expected ':' or ')' to end inline flags, but got end of pattern");
            }
        }
        if last_was_negation {
            return Err("inline flags cannot end with negation directive");
        }
        Ok(())
    }

    /// `{min}`, `{min,}` or `{min,max}`, with an optional lazy `?`.
    fn counted(&mut self) -> Result<(u32, Option<u32>), &'static str> {
        if !self.bump_and_bump_space() {
            return Err("found unclosed counted repetition operator");
        }
        let min = self.decimal()?;
        let mut max = Some(min);
        if self.cur() == Some(',') {
            if !self.bump_and_bump_space() {
                return Err("found counted repetition operator with a comma that is unclosed");
            }
            max = if self.cur() == Some('}') { None } else { Some(self.decimal()?) };
        }
        match self.cur() {
            None => return Err("found incomplete and unclosed counted repetition operator"),
            Some('}') => {}
            Some(_) => return Err("expected closing brace for counted repetition, but got something else"),
        }
        if self.bump_and_bump_space() && self.cur() == Some('?') {
            self.pos += 1;
        }
        if max.is_some_and(|max| min > max) {
            return Err("found counted repetition with a min bigger than its max");
        }
        Ok((min, max))
    }

    /// Digits, with whitespace around them allowed.
    fn decimal(&mut self) -> Result<u32, &'static str> {
        while self.cur().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
        let mut digits = String::new();
        while let Some(c) = self.cur().filter(char::is_ascii_digit) {
            digits.push(c);
            self.bump_and_bump_space();
        }
        while self.cur().is_some_and(char::is_whitespace) {
            self.bump_and_bump_space();
        }
        if digits.is_empty() {
            return Err("expected decimal number, but found no digits");
        }
        digits.parse().map_err(|_| "got invalid decimal number")
    }

    /// After `\`.
    fn escape(&mut self) -> Result<Atom, &'static str> {
        let c = self.cur().ok_or("saw start of escape sequence, but saw end of pattern before it finished")?;
        match c {
            '0'..='9' => return Err("backreferences are not supported"),
            'p' | 'P' => return Err("Unicode character classes are not supported"),
            'x' | 'u' | 'U' => return self.hex(c),
            'd' | 's' | 'w' | 'D' | 'S' | 'W' => {
                self.pos += 1;
                let ranges = posix(match c.to_ascii_lowercase() {
                    'd' => "digit",
                    's' => "space",
                    _ => "word",
                })
                .unwrap_or_default();
                return Ok(Atom::Set(if c.is_ascii_uppercase() { negate(ranges) } else { ranges }));
            }
            _ => {}
        }
        self.pos += 1;
        // Meta characters, and any ASCII punctuation except `<` and `>`, stand for themselves.
        if c.is_ascii() && !c.is_ascii_alphanumeric() && c != '<' && c != '>' {
            return Ok(Atom::Char(c));
        }
        Ok(match c {
            'a' => Atom::Char('\x07'),
            'f' => Atom::Char('\x0C'),
            't' => Atom::Char('\t'),
            'n' => Atom::Char('\n'),
            'r' => Atom::Char('\r'),
            'v' => Atom::Char('\x0B'),
            'A' => Atom::Look(Look::Start),
            'z' => Atom::Look(Look::End),
            'b' if self.cur() == Some('{') => Atom::Look(self.special_word_boundary()?),
            'b' => Atom::Look(Look::Word),
            'B' => Atom::Look(Look::NotWord),
            '<' => Atom::Look(Look::WordStart),
            '>' => Atom::Look(Look::WordEnd),
            _ => return Err("unrecognized escape sequence"),
        })
    }

    /// After `\b`, at `{`: `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}`, or a
    /// plain `\b` followed by a counted repetition (`\b{2}`).
    fn special_word_boundary(&mut self) -> Result<Look, &'static str> {
        let start = self.pos;
        if !self.bump_and_bump_space() {
            return Err("found start of special word boundary or repetition without an end");
        }
        let is_name = |c: char| c.is_ascii_alphabetic() || c == '-';
        if !self.cur().is_some_and(is_name) {
            self.pos = start;
            return Ok(Look::Word);
        }
        let mut name = String::new();
        while let Some(c) = self.cur().filter(|&c| is_name(c)) {
            name.push(c);
            self.bump_and_bump_space();
        }
        if self.cur() != Some('}') {
            return Err("special word boundary assertion is unclosed or has an invalid character");
        }
        self.pos += 1;
        match name.as_str() {
            "start" => Ok(Look::WordStart),
            "end" => Ok(Look::WordEnd),
            "start-half" => Ok(Look::WordStartHalf),
            "end-half" => Ok(Look::WordEndHalf),
            _ => Err("special word boundary assertion is unrecognized"),
        }
    }

    /// At `x`, `u` or `U`: `\xNN`, `\uNNNN`, `\UNNNNNNNN` or any of them with `{hex}`.
    fn hex(&mut self, kind: char) -> Result<Atom, &'static str> {
        let len = match kind {
            'x' => 2,
            'u' => 4,
            _ => 8,
        };
        if !self.bump_and_bump_space() {
            return Err("expected hexadecimal number, but saw end of pattern first");
        }
        let mut digits = String::new();
        if self.cur() == Some('{') {
            while self.bump_and_bump_space() && self.cur() != Some('}') {
                match self.cur().filter(char::is_ascii_hexdigit) {
                    Some(c) => digits.push(c),
                    None => return Err("expected hexadecimal number in braces, but got non-hex digit"),
                }
            }
            if self.done() {
                return Err("expected hexadecimal number, but saw end of pattern before closing brace");
            }
            if digits.is_empty() {
                return Err("expected hexadecimal number in braces, but got no digits");
            }
        } else {
            for i in 0..len {
                if i > 0 && !self.bump_and_bump_space() {
                    return Err("expected fixed length hexadecimal number, but saw end of pattern first");
                }
                match self.cur().filter(char::is_ascii_hexdigit) {
                    Some(c) => digits.push(c),
                    None => return Err("expected fixed length hexadecimal number, but got non-hex digit"),
                }
            }
        }
        self.bump_and_bump_space();
        u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32).map(Atom::Char).ok_or("got invalid hexadecimal number")
    }

    /// At `[`: a bracketed class.
    fn class(&mut self) -> Result<Node, &'static str> {
        let mut set = Vec::new();
        if !self.bump_and_bump_space() {
            return Err("found unclosed character class");
        }
        let negated = self.cur() == Some('^');
        if negated && !self.bump_and_bump_space() {
            return Err("negated character class has no closing bracket");
        }
        while self.cur() == Some('-') {
            set.push(('-', '-'));
            if !self.bump_and_bump_space() {
                return Err("non-empty character class has no closing bracket after dash");
            }
        }
        if set.is_empty() && self.cur() == Some(']') {
            set.push((']', ']'));
            if !self.bump_and_bump_space() {
                return Err("character class begins with literal ']' but has no closing bracket");
            }
        }
        loop {
            self.bump_space();
            let c = self.cur().ok_or("found unclosed character class")?;
            let doubled = self.chars.get(self.pos + 1) == Some(&c);
            match c {
                '[' => set.extend(self.posix_in_class().ok_or("nested character classes are not supported")?),
                ']' => {
                    self.pos += 1;
                    if self.flags.i {
                        fold(&mut set);
                    }
                    return Ok(Node::Class(if negated { negate(set) } else { set }));
                }
                '&' | '-' | '~' if doubled => return Err("character class set operations are not supported"),
                _ => self.class_range(&mut set)?,
            }
        }
    }

    /// An item or a range `a-z` of a bracketed class.
    fn class_range(&mut self, set: &mut Vec<(char, char)>) -> Result<(), &'static str> {
        let first = self.class_item()?;
        self.bump_space();
        if self.done() {
            return Err("non-empty character class has no closing bracket");
        }
        if self.cur() != Some('-') || matches!(self.peek_space(), Some(']' | '-')) {
            match first {
                Atom::Char(c) => set.push((c, c)),
                Atom::Set(ranges) => set.extend(ranges),
                Atom::Look(_) => return Err("invalid escape sequence in character class"),
            }
            return Ok(());
        }
        if !self.bump_and_bump_space() {
            return Err("non-empty character class has no closing bracket after dash");
        }
        let last = self.class_item()?;
        let (Atom::Char(a), Atom::Char(b)) = (first, last) else {
            return Err("character class ranges must start and end with a single character");
        };
        if a > b {
            return Err("invalid range in character class");
        }
        set.push((a, b));
        Ok(())
    }

    fn class_item(&mut self) -> Result<Atom, &'static str> {
        let c = self.cur().ok_or("found unclosed character class")?;
        self.pos += 1;
        if c == '\\' {
            self.escape()
        } else {
            Ok(Atom::Char(c))
        }
    }

    /// At `[` inside a class: `[:name:]` or `[:^name:]`; `None` (and the parser back at `[`)
    /// when it is not one.
    fn posix_in_class(&mut self) -> Option<Vec<(char, char)>> {
        let start = self.pos;
        let text: String = self.chars[self.pos..].iter().take(12).collect();
        let found = text.strip_prefix("[:").and_then(|rest| {
            let (negated, rest) = rest.strip_prefix('^').map_or((false, rest), |r| (true, r));
            let (name, _) = rest.split_once(":]")?;
            let ranges = posix(name)?;
            self.pos = start + 2 + usize::from(negated) + name.chars().count() + 2;
            Some(if negated { negate(ranges) } else { ranges })
        });
        if found.is_none() {
            self.pos = start;
        }
        found
    }
}

/// The ASCII POSIX classes (and `word`).
fn posix(name: &str) -> Option<Vec<(char, char)>> {
    let ranges: &[(u8, u8)] = match name {
        "alnum" => &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z')],
        "alpha" => &[(b'A', b'Z'), (b'a', b'z')],
        "ascii" => &[(0, 0x7F)],
        "blank" => &[(b'\t', b'\t'), (b' ', b' ')],
        "cntrl" => &[(0, 0x1F), (0x7F, 0x7F)],
        "digit" => &[(b'0', b'9')],
        "graph" => &[(b'!', b'~')],
        "lower" => &[(b'a', b'z')],
        "print" => &[(b' ', b'~')],
        "punct" => &[(b'!', b'/'), (b':', b'@'), (b'[', b'`'), (b'{', b'~')],
        "space" => &[(b'\t', b'\r'), (b' ', b' ')],
        "upper" => &[(b'A', b'Z')],
        "word" => &[(b'0', b'9'), (b'A', b'Z'), (b'_', b'_'), (b'a', b'z')],
        "xdigit" => &[(b'0', b'9'), (b'A', b'F'), (b'a', b'f')],
        _ => return None,
    };
    Some(ranges.iter().map(|&(a, b)| (char::from(a), char::from(b))).collect())
}

/// Adds the other ASCII case of every letter in the ranges.
fn fold(set: &mut Vec<(char, char)>) {
    for i in 0..set.len() {
        let (a, b) = set[i];
        for (lo, hi, shift) in [('a', 'z', -32i32), ('A', 'Z', 32)] {
            let (start, end) = (a.max(lo), b.min(hi));
            if start <= end {
                let moved = |c: char| char::from_u32((c as i32 + shift) as u32).unwrap_or(c);
                set.push((moved(start), moved(end)));
            }
        }
    }
}

/// Every character not in the ranges.
fn negate(mut set: Vec<(char, char)>) -> Vec<(char, char)> {
    crate::sort::sort_by(&mut set, |x, y| x.0.cmp(&y.0));
    let mut out = Vec::new();
    // The first character not yet covered; `None` once everything up to char::MAX is.
    let mut next = Some('\0');
    for (a, b) in set {
        let Some(n) = next else { break };
        if a > n {
            out.push((n, before(a)));
        }
        if b >= n {
            next = after(b);
        }
    }
    if let Some(n) = next {
        out.push((n, char::MAX));
    }
    out
}

/// The characters either side of `c`, stepping over the surrogate gap.
fn after(c: char) -> Option<char> {
    if c == '\u{D7FF}' {
        return Some('\u{E000}');
    }
    char::from_u32(c as u32 + 1)
}

fn before(c: char) -> char {
    if c == '\u{E000}' {
        return '\u{D7FF}';
    }
    char::from_u32(c as u32 - 1).unwrap_or(c)
}
