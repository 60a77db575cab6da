//! Which kernel of one run is which kernel of the next (issue 44): pairing by name, in steps
//! from the strictest to the loosest, each step only among the kernels still unpaired.
//!
//! 1. **The user's pairs** (`--pair OLD=NEW`, [`UserPairs`]) first: they override every
//!    automatic pairing of the kernels they name. `--unpair NAME` keeps a kernel out of the
//!    automatic steps (it is listed as added or removed).
//! 2. **`name`**: the same full name, exactly as the profiler wrote it (after `dataset`'s
//!    cleaning). A name repeated in a run (hand-made data) pairs in order of appearance.
//! 3. **`demangled`**: the same function with the same parameter list whose template
//!    arguments changed: the name with every `<…>` removed (and `void `, anonymous-namespace
//!    noise and runs of spaces), parameter list kept ([`demangled_key`]). `f<float, 128>(float*,
//!    int)` pairs with `f<float, 256>(float*, int)`, only when that key names exactly one
//!    unpaired kernel in each run: two instances of `f` on either side are ambiguous and are
//!    left to the next steps or to the user.
//! 4. **`short`**: the display name ([`display_name`]: template arguments `<…>`, no parameter
//!    list), then the function's bare name (no namespaces, no template arguments,
//!    [`bare_key`]), each when unique among the unpaired kernels of both runs. This pairs
//!    across changed parameter types and across profilers' spellings of one kernel
//!    (`at::native::<unnamed>::k<…>(…)` in a report, `unnamed>::k<…>(…)` in the console).
//!
//! What is left is `removed` (only in before) or `added` (only in after), never dropped.
//! Pairing works on names alone, so the app can pair the runs it holds without a dataset.

use crate::domain::names::{demangle, display_name};
use crate::domain::short_names::distinct_display_names;
use serde::Serialize;
use std::collections::HashMap;

/// Which step paired two kernels (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchedBy {
    /// The same full name.
    Name,
    /// The same function and parameter list, template arguments aside.
    Demangled,
    /// The same display name or bare function name, unique in both runs.
    Short,
    /// A pair the user gave.
    User,
}

impl MatchedBy {
    /// `name`, `demangled`, `short`, `user`: the JSON's words, for tables.
    pub fn label(self) -> &'static str {
        match self {
            MatchedBy::Name => "name",
            MatchedBy::Demangled => "demangled",
            MatchedBy::Short => "short",
            MatchedBy::User => "user",
        }
    }
}

/// One kernel of before (`before`, its index) paired with one of after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub before: usize,
    pub after: usize,
    pub matched_by: MatchedBy,
}

/// Every kernel of both runs, each exactly once: in a pair, or removed (before only), or added
/// (after only). Indices into the runs' kernel lists; `pairs` in before's order, `removed` and
/// `added` in their run's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    pub pairs: Vec<Pair>,
    pub removed: Vec<usize>,
    pub added: Vec<usize>,
}

impl Pairing {
    /// This pairing among the kernels `keep_before` and `keep_after` only (ascending indices,
    /// as a filter leaves them), re-indexed to their positions there: what a filtered chart
    /// draws. A pair with one kernel filtered out is dropped, not listed as added or removed.
    pub fn restrict(&self, keep_before: &[usize], keep_after: &[usize]) -> Pairing {
        let at = |keep: &[usize], i: usize| keep.binary_search(&i).ok();
        Pairing {
            pairs: self.pairs.iter().filter_map(|p| Some(Pair { before: at(keep_before, p.before)?, after: at(keep_after, p.after)?, matched_by: p.matched_by })).collect(),
            removed: self.removed.iter().filter_map(|&i| at(keep_before, i)).collect(),
            added: self.added.iter().filter_map(|&i| at(keep_after, i)).collect(),
        }
    }
}

/// What the user said about pairing: explicit pairs (`OLD=NEW`) and kernels to leave unpaired.
/// Each name is found in its run by [`resolve`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserPairs {
    /// `(name in before, name in after)`.
    pub pairs: Vec<(String, String)>,
    /// Names (in either run, or both) to keep out of the automatic steps.
    pub unpair: Vec<String>,
}

impl UserPairs {
    /// Parses `--pair OLD=NEW` texts. A kernel name may itself hold `=` (`operator=`), so each
    /// `=` is tried as the separator, left to right, and the first split whose both sides
    /// name a kernel is used by [`pair`]; here only the text's shape is checked.
    pub fn parse_pair(text: &str) -> Result<(String, String), String> {
        match text.split_once('=') {
            Some((old, new)) if !old.trim().is_empty() && !new.trim().is_empty() => Ok((old.to_string(), new.to_string())),
            _ => Err(format!("a pair is OLD=NEW (a kernel of the before run = one of the after run), not {text:?}")),
        }
    }
}

/// Which run a name was looked up in, for errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Before,
    After,
}

impl Which {
    pub fn label(self) -> &'static str {
        match self {
            Which::Before => "before",
            Which::After => "after",
        }
    }
}

/// Why a user's pair or unpair could not be applied: the name found no kernel, or several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairError {
    /// No kernel of that run has this name, short name or name prefix.
    NotFound { which: Which, name: String },
    /// Several kernels match; up to five of their distinct short names (each a valid query).
    Ambiguous { which: Which, name: String, candidates: Vec<String> },
    /// A kernel named by two `--pair`s.
    Twice { which: Which, name: String },
    /// `--unpair` named a kernel of neither run.
    UnpairNotFound { name: String },
}

impl std::fmt::Display for PairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairError::NotFound { which, name } => write!(f, "no kernel of the {} run is named {name:?} (in full, by its short name, or by the start of its name)", which.label()),
            PairError::Ambiguous { which, name, candidates } => {
                write!(f, "{name:?} names several kernels of the {} run: {}; give more of the name", which.label(), candidates.join(" | "))
            }
            PairError::Twice { which, name } => write!(f, "the {} run's kernel {name:?} is in two --pair options", which.label()),
            PairError::UnpairNotFound { name } => write!(f, "--unpair {name:?}: no kernel of either run has that name, short name or name prefix"),
        }
    }
}

impl std::error::Error for PairError {}

/// The kernel of `names` that `query` names: its full name exactly; else its distinct short
/// name ([`distinct_display_names`], as the app's table shows it); else the one kernel whose
/// display name ([`display_name`]) or bare name ([`bare_key`]) equals it; else the one whose
/// full name, then display name, starts with it. Earlier rules win, so a full name that is a
/// prefix of another still names its own kernel.
pub fn resolve<S: AsRef<str>>(names: &[S], query: &str, which: Which) -> Result<usize, PairError> {
    let q = query.trim();
    if let Some(i) = names.iter().position(|n| n.as_ref() == q) {
        return Ok(i);
    }
    let rules: [&dyn Fn(&str) -> bool; 4] = [
        &|n| display_name(n) == q,
        &|n| bare_key(n) == q,
        &|n| n.starts_with(q),
        &|n| display_name(n).starts_with(q),
    ];
    // The short names the app's table and `analyze`'s text show, told apart where they collide
    // (`EigenMetaKernel<… TensorBroadcastingOp …>`): a name copied from there names its kernel.
    let distinct = distinct_display_names(names);
    if let Some(i) = distinct.iter().position(|d| d == q) {
        return Ok(i);
    }
    for rule in rules {
        let found: Vec<usize> = (0..names.len()).filter(|&i| rule(names[i].as_ref())).collect();
        match found.as_slice() {
            [] => continue,
            [one] => return Ok(*one),
            many => {
                // Their distinct short names: each names its kernel when given back.
                let candidates = many.iter().take(5).map(|&i| distinct[i].clone()).collect();
                return Err(PairError::Ambiguous { which, name: q.to_string(), candidates });
            }
        }
    }
    Err(PairError::NotFound { which, name: q.to_string() })
}

/// Pairs the kernels of two runs by their names (module doc), the user's pairs first.
pub fn pair<S: AsRef<str>, T: AsRef<str>>(before: &[S], after: &[T], user: &UserPairs) -> Result<Pairing, PairError> {
    let mut b_free = vec![true; before.len()];
    let mut a_free = vec![true; after.len()];
    let mut pairs = Vec::new();
    for (old, new) in &user.pairs {
        let (b, a) = resolve_pair(before, after, old, new)?;
        if !b_free[b] {
            return Err(PairError::Twice { which: Which::Before, name: before[b].as_ref().to_string() });
        }
        if !a_free[a] {
            return Err(PairError::Twice { which: Which::After, name: after[a].as_ref().to_string() });
        }
        b_free[b] = false;
        a_free[a] = false;
        pairs.push(Pair { before: b, after: a, matched_by: MatchedBy::User });
    }
    // Unpaired by the user: out of the automatic steps, yet listed as added/removed below.
    let mut b_held = vec![false; before.len()];
    let mut a_held = vec![false; after.len()];
    for name in &user.unpair {
        let b = resolve(before, name, Which::Before).ok();
        let a = resolve(after, name, Which::After).ok();
        if b.is_none() && a.is_none() {
            return Err(PairError::UnpairNotFound { name: name.clone() });
        }
        b.into_iter().filter(|&i| b_free[i]).for_each(|i| b_held[i] = true);
        a.into_iter().filter(|&i| a_free[i]).for_each(|i| a_held[i] = true);
    }
    Ok(automatic(before, after, pairs, &b_free, &a_free, &b_held, &a_held))
}

/// The user's pairing by kernel index, as the app and a v2 link hold it (names may repeat or
/// be shortened in a link; indices may not). Indices are into the before and after runs'
/// kernel lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManualPairs {
    /// (before, after) pairs the user made.
    pub pairs: Vec<(usize, usize)>,
    /// Kernels of before kept out of automatic pairing.
    pub unpaired_before: Vec<usize>,
    /// Kernels of after kept out of automatic pairing.
    pub unpaired_after: Vec<usize>,
}

impl ManualPairs {
    /// Pairs `before` with `after`, replacing whatever the user said about either kernel.
    pub fn pair(&mut self, before: usize, after: usize) {
        self.pairs.retain(|&(b, a)| b != before && a != after);
        self.unpaired_before.retain(|&b| b != before);
        self.unpaired_after.retain(|&a| a != after);
        self.pairs.push((before, after));
    }

    /// Unpairs the kernel `after` of the after run from whatever `pairing` pairs it with: a
    /// user's pair is forgotten, an automatic one held apart (both kernels then listed as
    /// added and removed, and kept out of automatic pairing).
    pub fn unpair(&mut self, pairing: &Pairing, after: usize) {
        let Some(p) = pairing.pairs.iter().find(|p| p.after == after) else { return };
        let manual = self.pairs.len();
        self.pairs.retain(|&(_, a)| a != after);
        if self.pairs.len() == manual {
            self.unpaired_before.push(p.before);
            self.unpaired_after.push(after);
        }
    }
}

/// Pairs two runs with the user's pairing by index ([`ManualPairs`]) first, then the
/// automatic steps of [`pair`]. Indices past a run, or a kernel in two pairs, are skipped
/// (the later pair): a pairing from a link or the page never fails.
pub fn pair_manual<S: AsRef<str>, T: AsRef<str>>(before: &[S], after: &[T], manual: &ManualPairs) -> Pairing {
    let mut b_free = vec![true; before.len()];
    let mut a_free = vec![true; after.len()];
    let mut pairs = Vec::new();
    for &(b, a) in &manual.pairs {
        if b_free.get(b) == Some(&true) && a_free.get(a) == Some(&true) {
            b_free[b] = false;
            a_free[a] = false;
            pairs.push(Pair { before: b, after: a, matched_by: MatchedBy::User });
        }
    }
    let mut b_held = vec![false; before.len()];
    let mut a_held = vec![false; after.len()];
    manual.unpaired_before.iter().filter(|&&i| b_free.get(i) == Some(&true)).for_each(|&i| b_held[i] = true);
    manual.unpaired_after.iter().filter(|&&i| a_free.get(i) == Some(&true)).for_each(|&i| a_held[i] = true);
    automatic(before, after, pairs, &b_free, &a_free, &b_held, &a_held)
}

/// The automatic steps after the user's `pairs` (module doc): among the kernels free (not in
/// a user's pair) and not held apart by the user.
fn automatic<S: AsRef<str>, T: AsRef<str>>(before: &[S], after: &[T], mut pairs: Vec<Pair>, b_free: &[bool], a_free: &[bool], b_held: &[bool], a_held: &[bool]) -> Pairing {
    let mut b_open: Vec<bool> = (0..before.len()).map(|i| b_free[i] && !b_held[i]).collect();
    let mut a_open: Vec<bool> = (0..after.len()).map(|i| a_free[i] && !a_held[i]).collect();

    // Exact names, repeated ones in order of appearance.
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, n) in after.iter().enumerate().filter(|(i, _)| a_open[*i]).rev() {
        by_name.entry(n.as_ref()).or_default().push(i);
    }
    for (b, n) in before.iter().enumerate() {
        if !b_open[b] {
            continue;
        }
        if let Some(a) = by_name.get_mut(n.as_ref()).and_then(Vec::pop) {
            b_open[b] = false;
            a_open[a] = false;
            pairs.push(Pair { before: b, after: a, matched_by: MatchedBy::Name });
        }
    }
    let keys: [(MatchedBy, Key); 3] = [(MatchedBy::Demangled, demangled_key), (MatchedBy::Short, display_name), (MatchedBy::Short, bare_key)];
    for (by, key) in keys {
        unique_pairs(before, after, &mut b_open, &mut a_open, key, by, &mut pairs);
    }
    // In before's order, by placing each pair at its before kernel (each is in one pair):
    // linear, and no sort's code in the app's wasm (each sort closure is kilobytes).
    let mut at: Vec<Option<Pair>> = vec![None; before.len()];
    for p in pairs {
        at[p.before] = Some(p);
    }
    let pairs: Vec<Pair> = at.into_iter().flatten().collect();
    // Linear in the kernels: the app pairs runs of 10,000 kernels.
    let (mut lone_b, mut lone_a) = (vec![true; before.len()], vec![true; after.len()]);
    for p in &pairs {
        lone_b[p.before] = false;
        lone_a[p.after] = false;
    }
    Pairing {
        removed: (0..before.len()).filter(|&i| lone_b[i]).collect(),
        added: (0..after.len()).filter(|&i| lone_a[i]).collect(),
        pairs,
    }
}

/// A user's `OLD=NEW`, split at the first `=` whose both sides name a kernel (a name may hold
/// `=`); the errors are those of the split at the first `=`.
fn resolve_pair<S: AsRef<str>, T: AsRef<str>>(before: &[S], after: &[T], old: &str, new: &str) -> Result<(usize, usize), PairError> {
    let whole = format!("{old}={new}");
    let first = || Ok((resolve(before, old, Which::Before)?, resolve(after, new, Which::After)?));
    for (at, _) in whole.match_indices('=') {
        if let (Ok(b), Ok(a)) = (resolve(before, &whole[..at], Which::Before), resolve(after, &whole[at + 1..], Which::After)) {
            return Ok((b, a));
        }
    }
    first()
}

/// A name's key for one automatic step.
type Key = fn(&str) -> String;

/// How many open kernels of one run have a key, and the last of them.
#[derive(Clone, Copy, Default)]
struct Seen {
    count: usize,
    last: usize,
}

impl Seen {
    fn add(&mut self, i: usize) {
        self.count += 1;
        self.last = i;
    }
}

/// Pairs the open kernels whose `key` is the same and unique among the open kernels of both
/// runs.
fn unique_pairs<S: AsRef<str>, T: AsRef<str>>(
    before: &[S],
    after: &[T],
    b_open: &mut [bool],
    a_open: &mut [bool],
    key: Key,
    by: MatchedBy,
    pairs: &mut Vec<Pair>,
) {
    // Per key: the open kernels of before and of after that have it.
    let mut seen: HashMap<String, (Seen, Seen)> = HashMap::new();
    for (i, n) in before.iter().enumerate().filter(|(i, _)| b_open[*i]) {
        seen.entry(key(n.as_ref())).or_default().0.add(i);
    }
    for (i, n) in after.iter().enumerate().filter(|(i, _)| a_open[*i]) {
        if let Some(e) = seen.get_mut(&key(n.as_ref())) {
            e.1.add(i);
        }
    }
    // Each before kernel has one key, so at most one pair: placed at it, they come out in
    // before's order (deterministic, whatever the map's order), without a sort.
    let mut found: Vec<Option<usize>> = vec![None; before.len()];
    for (b, a) in seen.into_values().filter(|(b, a)| b.count == 1 && a.count == 1) {
        found[b.last] = Some(a.last);
    }
    for (b, a) in found.into_iter().enumerate().filter_map(|(b, a)| Some((b, a?))) {
        b_open[b] = false;
        a_open[a] = false;
        pairs.push(Pair { before: b, after: a, matched_by: by });
    }
}

/// The name without its template arguments, parameter list kept: `void ns::f<float, 4>(float*,
/// int)` → `ns::f(float*, int)`. `void `, anonymous-namespace noise (as [`display_name`]
/// removes it) and repeated spaces go; a mangled `_Z…` name is demangled first.
pub fn demangled_key(full: &str) -> String {
    let mut s = full.trim().to_string();
    if s.starts_with("_Z") {
        if let Some(d) = demangle(&s) {
            s = d;
        }
    }
    for noise in ["(anonymous namespace)::", "`anonymous namespace'::", "{anonymous}::", "<unnamed>::", "(anonymous)::"] {
        s = s.replace(noise, "");
    }
    let s = s.strip_prefix("void ").unwrap_or(&s);
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_whitespace() => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    out.trim().replace("<…>", "")
}

/// The function's own name: the last identifier before the first `<` or `(` (namespaces,
/// template arguments, parameters and a `void ` return type dropped). `void
/// at::native::<unnamed>::k<float>(int)` and `void unnamed>::k<float, 4>(int)` (Nsight
/// Compute's console spelling, whose brackets do not balance) are both `k`. Reading only up
/// to the first bracket is what makes it hold for names whose brackets are garbled.
pub fn bare_key(full: &str) -> String {
    let mut s = full.trim().to_string();
    for noise in ["(anonymous namespace)::", "`anonymous namespace'::", "{anonymous}::", "<unnamed>::", "(anonymous)::"] {
        s = s.replace(noise, "");
    }
    let head = s.split(['<', '(']).next().unwrap_or(&s);
    let last = head.rsplit("::").next().unwrap_or(head).trim();
    // `void k`, `__global__ void k`: the name is the last word.
    let word = last.rsplit(' ').next().unwrap_or(last);
    if word.is_empty() {
        display_name(full)
    } else {
        word.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &Pairing) -> Vec<(usize, usize, MatchedBy)> {
        p.pairs.iter().map(|p| (p.before, p.after, p.matched_by)).collect()
    }

    #[test]
    fn manual_pairs_by_index_then_automatic() {
        // before: silu (PyTorch), copy, gemm; after: gemm, triton_silu, fused.
        let before = ["at::native::silu_kernel<float>(float*)", "copy", "gemm"];
        let after = ["gemm", "triton_silu", "fused"];
        let mut m = ManualPairs::default();
        let auto = pair_manual(&before, &after, &m);
        assert_eq!(names(&auto), [(2, 0, MatchedBy::Name)]);
        assert_eq!((auto.removed.as_slice(), auto.added.as_slice()), (&[0, 1][..], &[1, 2][..]));
        // The user pairs the renamed SiLU kernel; then pairs copy with fused, then re-pairs
        // copy with triton_silu: each kernel in one pair, the replaced one forgotten.
        m.pair(0, 1);
        m.pair(1, 2);
        m.pair(1, 1);
        assert_eq!(m.pairs, [(1, 1)]);
        m.pair(0, 1);
        let p = pair_manual(&before, &after, &m);
        assert_eq!(names(&p), [(0, 1, MatchedBy::User), (2, 0, MatchedBy::Name)]);
        assert_eq!((p.removed.as_slice(), p.added.as_slice()), (&[1][..], &[2][..]));
        // Unpairing gemm (automatic) holds both apart; unpairing SiLU (the user's) forgets it.
        m.unpair(&p, 0);
        assert_eq!((m.unpaired_before.as_slice(), m.unpaired_after.as_slice()), (&[2][..], &[0][..]));
        let p = pair_manual(&before, &after, &m);
        assert_eq!(names(&p), [(0, 1, MatchedBy::User)]);
        m.unpair(&p, 1);
        let p = pair_manual(&before, &after, &m);
        assert!(p.pairs.is_empty() && p.removed == [0, 1, 2] && p.added == [0, 1, 2]);
        // Filtered to before {0, 2} and after {1, 2}: SiLU (0 → 1) is (0 → 0) there; gemm's
        // after kernel 0 is filtered out, so neither is listed.
        let r = pair_manual(&before, &after, &ManualPairs { pairs: vec![(0, 1)], ..ManualPairs::default() }).restrict(&[0, 2], &[1, 2]);
        assert_eq!((names(&r), r.removed, r.added), (vec![(0, 0, MatchedBy::User)], vec![], vec![1]));
        // Indices past the runs, and a kernel in two pairs, are skipped, never a panic.
        let odd = ManualPairs { pairs: vec![(9, 0), (0, 9), (0, 1), (0, 2)], unpaired_before: vec![7], unpaired_after: vec![8] };
        assert_eq!(names(&pair_manual(&before, &after, &odd)), [(0, 1, MatchedBy::User), (2, 0, MatchedBy::Name)]);
    }

    #[test]
    fn keys() {
        assert_eq!(demangled_key("void ns::f<float, 4>(float*,  int)"), "ns::f(float*, int)");
        assert_eq!(demangled_key("_ZN2ns1fIiEEvT_"), "ns::f");
        assert_eq!(bare_key("void at::native::<unnamed>::k<float>(int)"), "k");
        assert_eq!(bare_key("void unnamed>::k<float, 4>(int)"), "k");
        assert_eq!(bare_key("plain"), "plain");
        assert_eq!(bare_key("void vectorized_elementwise_kernel<4, unnamed>::silu_kernel(TensorIteratorBase &)"), "vectorized_elementwise_kernel");
        assert_eq!(bare_key("copy_blocked[v1,cw51](Array<long long, 1, C>)"), "copy_blocked[v1,cw51]");
    }

    #[test]
    fn steps_in_order_and_only_unique() {
        let before = ["a(int)", "void f<float>(float*)", "void g<1>(int)", "void g<2>(int)", "void h<float>(float*)", "gone"];
        let after = ["a(int)", "void f<double>(float*)", "void g<3>(int)", "void g<4>(int)", "void h<double>(double*)", "new"];
        let p = pair(&before, &after, &UserPairs::default()).unwrap();
        // a: name; f: demangled (same parameters); g: two instances each side, ambiguous for
        // both keys; h: parameters differ, so short (`h<…>` unique on both sides).
        assert_eq!(names(&p), vec![(0, 0, MatchedBy::Name), (1, 1, MatchedBy::Demangled), (4, 4, MatchedBy::Short)]);
        assert_eq!(p.removed, vec![2, 3, 5]);
        assert_eq!(p.added, vec![2, 3, 5]);
    }

    #[test]
    fn user_pairs_override_and_unpair_holds() {
        let before = ["k1", "k2", "x=y"];
        let after = ["k1", "k2", "z"];
        let user = UserPairs { pairs: vec![("k1".into(), "k2".into()), ("x".into(), "y=z".into())], unpair: vec!["k2".into()] };
        let p = pair(&before, &after, &user).unwrap();
        // "x=y=z": split at the first `=`, "y=z" names no kernel of after, so the split is
        // "x=y" | "z".
        assert_eq!(names(&p), vec![(0, 1, MatchedBy::User), (2, 2, MatchedBy::User)]);
        // k2 of before is held by --unpair; k1 of after was left by the user pair.
        assert_eq!((p.removed, p.added), (vec![1], vec![0]));
        assert!(matches!(pair(&before, &after, &UserPairs { pairs: vec![("k".into(), "k1".into())], unpair: vec![] }), Err(PairError::Ambiguous { .. })));
        assert!(matches!(pair(&before, &after, &UserPairs { pairs: vec![], unpair: vec!["nope".into()] }), Err(PairError::UnpairNotFound { .. })));
        // Distinct short names, as the app's table tells colliding ones apart.
        let before = ["void k<float, 4>(float*)", "void k<double, 4>(double*)"];
        let after = ["void k<double, 8>(double*)"];
        let p = pair(&before, &after, &UserPairs { pairs: vec![("k<double, 4>".into(), "k".into())], unpair: vec![] }).unwrap();
        assert_eq!(names(&p), vec![(1, 0, MatchedBy::User)]);
    }
}
