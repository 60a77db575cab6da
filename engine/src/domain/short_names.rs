//! Short kernel names that tell kernels apart.
//!
//! [`super::names::display_name`] collapses template arguments to `<…>`, which is what makes
//! a name readable, and also what makes fourteen TensorFlow kernels all read
//! `Eigen::internal::EigenMetaKernel<…>`. [`distinct_display_names`] keeps the short form and,
//! only where short forms collide, brings back the template arguments that tell the colliding
//! kernels apart: all of them when they are short (`SwapDimension1And2InTensor3UsingTiles<half,
//! 256, 32, 32, false>`), else the fewest identifiers that no other kernel of the group has
//! (`EigenMetaKernel<… TensorBroadcastingOp …>`), else a number (`#2`). The full name is
//! always kept beside it (table title, tooltip); these names are for reading and labels.

use super::names::display_name;
use std::collections::HashMap;

/// Template arguments shown whole when every colliding kernel's are at most this long.
const WHOLE_ARGS_CHARS: usize = 40;
/// Most identifiers used to tell a kernel from the others of its group.
const MAX_TOKENS: usize = 3;

/// Each name's short display name ([`display_name`]), made distinct where short names
/// collide (module doc). Names equal in full are numbered like any others. Deterministic: the result depends
/// only on the names and their order.
pub fn distinct_display_names<S: AsRef<str>>(full: &[S]) -> Vec<String> {
    let mut out: Vec<String> = full.iter().map(|n| display_name(n.as_ref())).collect();
    // Kernels by short name, groups in order of first appearance.
    let mut group_of: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, s) in out.iter().enumerate() {
        let g = *group_of.entry(s.as_str()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    for group in groups.into_iter().filter(|g| g.len() > 1) {
        let names: Vec<&str> = group.iter().map(|&i| full[i].as_ref()).collect();
        for (slot, name) in group.iter().zip(distinguish(&out[group[0]], &names)) {
            out[*slot] = name;
        }
    }
    out
}

/// The names of one group of kernels whose short name is `short`.
fn distinguish(short: &str, full: &[&str]) -> Vec<String> {
    let args: Vec<String> = full.iter().map(|n| template_args(n)).collect();
    let base = short.strip_suffix("<…>").unwrap_or(short);
    let whole = args.iter().all(|a| !a.is_empty() && a.chars().count() <= WHOLE_ARGS_CHARS);
    let mut names: Vec<String> = if whole && distinct(&args) {
        args.iter().map(|a| format!("{base}<{a}>")).collect()
    } else {
        let tokens: Vec<Vec<&str>> = args.iter().map(|a| identifiers(a)).collect();
        let group = Group::new(&args, &tokens);
        // Worked out once per class (kernels with the same template arguments).
        let mut told: Vec<Option<String>> = vec![None; group.seqs.len()];
        (0..full.len())
            .map(|i| {
                let c = group.class_of[i];
                told[c]
                    .get_or_insert_with(|| match group.telling(c) {
                        Some(t) => format!("{base}<… {} …>", t.join(", ")),
                        None => short.to_string(),
                    })
                    .clone()
            })
            .collect()
    };
    // Whatever still collides (names that differ only in punctuation or parameters) is
    // numbered in input order: per name, how many there are and how many are numbered.
    let mut count: HashMap<String, (usize, usize)> = HashMap::new();
    for n in &names {
        count.entry(n.clone()).or_default().0 += 1;
    }
    for n in &mut names {
        if let Some(c) = count.get_mut(n.as_str()).filter(|c| c.0 > 1) {
            c.1 += 1;
            *n = format!("{n} #{}", c.1);
        }
    }
    names
}

fn distinct(items: &[String]) -> bool {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    items.iter().all(|s| seen.insert(s.as_str(), 0).is_none())
}

/// The template arguments of a kernel's name (the text inside its first `<…>`, before any
/// parameter list), with namespace qualifiers dropped (`Eigen::half` → `half`) and spaces
/// normalised; empty when it has none.
fn template_args(full: &str) -> String {
    let s = full.trim();
    let s = s.strip_prefix("void ").unwrap_or(s);
    let Some(open) = s.find('<') else { return String::new() };
    // The parameter list starts at the first '(' outside brackets; no template after it.
    if s[..open].contains('(') {
        return String::new();
    }
    let mut depth = 0usize;
    let mut inner = String::new();
    for c in s[open..].chars() {
        match c {
            '<' => {
                depth += 1;
                if depth > 1 {
                    inner.push(c);
                }
            }
            '>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
                inner.push(c);
            }
            _ => inner.push(c),
        }
    }
    unqualify(&inner)
}

/// `a::b::c<d::e>` → `c<e>`, with runs of spaces made one and none before `>` or `,`.
fn unqualify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word_start = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.truncate(word_start);
            continue;
        }
        if c.is_whitespace() {
            if !out.ends_with(' ') && !out.is_empty() {
                out.push(' ');
            }
            word_start = out.len();
            continue;
        }
        if matches!(c, '>' | ',') && out.ends_with(' ') {
            out.pop();
        }
        out.push(c);
        if !(c.is_alphanumeric() || c == '_') {
            word_start = out.len();
        }
    }
    out.trim().to_string()
}

/// The identifiers of a text, in order (`TensorMap`, `half`, `scalar_sum_op`): names, not
/// numbers, which tell a reader what a kernel does.
fn identifiers(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| t.len() > 1 && !t.chars().all(|c| c.is_ascii_digit()) && !t.starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

/// C++ words that name built-in types: they tell kernels apart less well than the names of
/// what a kernel does (`TensorBroadcastingOp` rather than `int`), so they come second.
const BASIC: &[&str] = &["bool", "char", "short", "int", "long", "unsigned", "signed", "float", "double", "half", "const", "void", "true", "false", "ul", "size_t"];

/// One group's identifiers, arranged so that [`Group::telling`] costs about the same for a
/// group of 10,000 kernels as for a few: numbered, each kernel's once each in the order they
/// first appear, kernels with the same template arguments (so the same identifiers) as one
/// class, and for each identifier how many kernels and which classes have it. Asking every
/// kernel's list whether it holds an identifier, as the first version did, cost the square of
/// the group's size times the square of its identifiers: 14 s natively for 10,000 kernels that
/// differ only in their parameters (docs/PERFORMANCE.md). Its maps are from `&str` to
/// `usize`, as `distinct_display_names`' own, so the page's wasm gains no code for other types.
struct Group<'a> {
    /// Identifier by number, and whether it names a built-in type ([`BASIC`]).
    names: Vec<&'a str>,
    basic: Vec<bool>,
    /// Per kernel: its class.
    class_of: Vec<usize>,
    /// Per class: its identifiers' numbers, once each, in the order they first appear; and
    /// how many kernels it has.
    seqs: Vec<Vec<usize>>,
    sizes: Vec<usize>,
    /// Per identifier: how many kernels have it, and which classes (ascending).
    df: Vec<usize>,
    postings: Vec<Vec<usize>>,
}

impl<'a> Group<'a> {
    /// `args`: each kernel's template arguments; `tokens`: their [`identifiers`].
    fn new(args: &'a [String], tokens: &[Vec<&'a str>]) -> Self {
        let mut ids: HashMap<&'a str, usize> = HashMap::new();
        let mut names: Vec<&'a str> = Vec::new();
        let mut classes: HashMap<&'a str, usize> = HashMap::new();
        let (mut seqs, mut sizes, mut class_of) = (Vec::new(), Vec::new(), Vec::with_capacity(args.len()));
        for (a, ts) in args.iter().zip(tokens) {
            let c = *classes.entry(a.as_str()).or_insert_with(|| {
                let mut seq: Vec<usize> = Vec::new();
                for t in ts {
                    let id = *ids.entry(t).or_insert_with(|| {
                        names.push(t);
                        names.len() - 1
                    });
                    if !seq.contains(&id) {
                        seq.push(id);
                    }
                }
                seqs.push(seq);
                sizes.push(0);
                seqs.len() - 1
            });
            sizes[c] += 1;
            class_of.push(c);
        }
        let (mut df, mut postings) = (vec![0; names.len()], vec![Vec::new(); names.len()]);
        for (c, seq) in seqs.iter().enumerate() {
            for &t in seq {
                df[t] += sizes[c];
                postings[t].push(c);
            }
        }
        let basic = names.iter().map(|n| BASIC.contains(n)).collect();
        Group { names, basic, class_of, seqs, sizes, df, postings }
    }

    /// The fewest identifiers of the kernels of class `own` that no other kernel of the group
    /// has all of (up to [`MAX_TOKENS`]), in the order they appear in its name. Where no set
    /// of its identifiers rules every other kernel out (its identifiers are a subset of
    /// another's), the ones that rule out the most: the names still read differently, and
    /// equal ones are numbered after. `None` when no identifier rules out any kernel.
    /// Greedy: each step takes the identifier that rules out the most kernels still
    /// confusable, then one that names an operation rather than a built-in type ([`BASIC`]),
    /// then the one fewest kernels of the group have, then the earliest. (The same for every
    /// kernel of a class: those of its own class are never ruled out.)
    fn telling(&self, own: usize) -> Option<Vec<&'a str>> {
        let mine = self.seqs.get(own)?;
        let n = self.class_of.len();
        // The kernels still confusable with one of class `own`, as (class, kernels of it);
        // `None` before the first step: every other kernel, of which those without identifier
        // t number n − df(t) (the kernel itself has t).
        let mut confusable: Option<Vec<(usize, usize)>> = None;
        let mut left = n - 1;
        let mut chosen: Vec<usize> = Vec::new();
        while left > 0 && chosen.len() < MAX_TOKENS {
            let ruled_out = |t: usize| match &confusable {
                None => n - self.df[t],
                Some(cs) => cs.iter().filter(|(c, _)| !self.seqs[*c].contains(&t)).map(|(_, k)| k).sum(),
            };
            let Some(best) = mine
                .iter()
                .enumerate()
                .filter(|(_, t)| !chosen.contains(t))
                .map(|(pos, &t)| (ruled_out(t), !self.basic[t], self.df[t], pos, t))
                .filter(|(ruled_out, ..)| *ruled_out > 0)
                .max_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(&a.2)).then(b.3.cmp(&a.3)))
            else {
                break;
            };
            let t = best.4;
            chosen.push(t);
            let kept: Vec<(usize, usize)> = match confusable.take() {
                None => self.postings[t].iter().map(|&c| (c, self.sizes[c] - usize::from(c == own))).filter(|&(_, k)| k > 0).collect(),
                Some(cs) => cs.into_iter().filter(|(c, _)| self.seqs[*c].contains(&t)).collect(),
            };
            left = kept.iter().map(|(_, k)| k).sum();
            confusable = Some(kept);
        }
        if chosen.is_empty() {
            return None;
        }
        Some(mine.iter().filter(|t| chosen.contains(t)).map(|&t| self.names[t]).collect())
    }
}

/// A name short enough for a chart label: the namespace qualifiers before the kernel's own
/// name dropped (`Eigen::internal::EigenMetaKernel<…>` → `EigenMetaKernel<…>`), then, past
/// `max_chars`, the middle cut out (`volta_fp16_s884cu…interior_nhwc_tn_v1`), so both the
/// family and the distinguishing end stay.
pub fn chart_label(name: &str, max_chars: usize) -> String {
    let mut depth = 0i32;
    let mut cut = 0usize;
    let bytes = name.as_bytes();
    for (i, c) in name.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => cut = i + 2,
            _ => {}
        }
    }
    let own = if cut < name.len() { &name[cut..] } else { name };
    let n = own.chars().count();
    if n <= max_chars || max_chars < 5 {
        return own.to_string();
    }
    let keep = max_chars - 1;
    let head = keep.div_ceil(2);
    let tail = keep - head;
    let start: String = own.chars().take(head).collect();
    let end: String = own.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const EIGEN_SUM_HALF: &str = "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<Eigen::half, 2, 1, int>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_sum_op<Eigen::half, Eigen::half>, Eigen::TensorBroadcastingOp<Eigen::array<long, 2ul> const, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 2, 1, int>, 16, Eigen::MakePointer> const> const, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 2, 1, int>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, int>(Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<Eigen::half, 2, 1, int>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_sum_op<Eigen::half, Eigen::half>, Eigen::TensorBroadcastingOp<Eigen::array<long, 2ul> const, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 2, 1, int>, 16, Eigen::MakePointer> const> const, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 2, 1, int>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, int)";
    const EIGEN_SUM_FLOAT: &str = "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<float, 1, 1, long>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_sum_op<float const, float const>, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, long>(Eigen::TensorEvaluator<…>, long)";
    const EIGEN_MAX_HALF: &str = "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<Eigen::half, 1, 1, long>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_max_op<Eigen::half const, Eigen::half const>, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 1, 1, long>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, long>(Eigen::TensorEvaluator<…>, long)";
    const EIGEN_SUM_HALF_1D: &str = "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<Eigen::half, 1, 1, long>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_sum_op<Eigen::half const, Eigen::half const>, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 1, 1, long>, 16, Eigen::MakePointer> const> const> const, Eigen::GpuDevice>, long>(Eigen::TensorEvaluator<…>, long)";


    /// The first version of `Group::telling`, kept as its reference: it asks every kernel's
    /// list whether it holds an identifier.
    fn telling_tokens<'a>(i: usize, tokens: &[Vec<&'a str>]) -> Option<Vec<&'a str>> {
        let mine: Vec<&str> = {
            let mut seen = Vec::new();
            for t in &tokens[i] {
                if !seen.contains(t) {
                    seen.push(*t);
                }
            }
            seen
        };
        let has = |j: usize, t: &str| tokens[j].contains(&t);
        let df = |t: &str| (0..tokens.len()).filter(|&j| has(j, t)).count();
        let mut confusable: Vec<usize> = (0..tokens.len()).filter(|&j| j != i).collect();
        let mut chosen: Vec<&str> = Vec::new();
        while !confusable.is_empty() && chosen.len() < MAX_TOKENS {
            let Some(best) = mine
                .iter()
                .enumerate()
                .filter(|(_, t)| !chosen.contains(t))
                .map(|(pos, t)| (confusable.iter().filter(|&&j| !has(j, t)).count(), !BASIC.contains(t), df(t), pos, *t))
                .filter(|(ruled_out, ..)| *ruled_out > 0)
                .max_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(&a.2)).then(b.3.cmp(&a.3)))
            else {
                break;
            };
            chosen.push(best.4);
            confusable.retain(|&j| has(j, best.4));
        }
        if chosen.is_empty() {
            return None;
        }
        Some(mine.into_iter().filter(|t| chosen.contains(t)).collect())
    }

    #[test]
    fn the_grouped_identifiers_tell_kernels_apart_as_the_first_version_did() {
        // Random groups: up to 40 kernels, each up to 6 identifiers (repeats included) from a
        // vocabulary of 2–9, one of them a built-in type, so ties and subsets are common.
        let vocab = ["int", "Map", "Sum", "Max", "Bcast", "Pad", "Slice", "Cast", "Op"];
        // A seeded xorshift (the domain layer names no chart test helper).
        let mut state = 17u64;
        let mut below = |k: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % k as u64) as usize
        };
        let mut compared = 0;
        for _ in 0..400 {
            let v = 2 + below(8);
            let n = 1 + below(40);
            let tokens: Vec<Vec<&str>> = (0..n).map(|_| (0..below(7)).map(|_| vocab[below(v)]).collect()).collect();
            // Template arguments: the tokens and a number (as `<Map, 2>`), so that kernels
            // with the same identifiers fall in one class or in several.
            let args: Vec<String> = tokens.iter().map(|t| format!("{}, {}", t.join(", "), below(3))).collect();
            let group = Group::new(&args, &tokens);
            for i in 0..n {
                assert_eq!(group.telling(group.class_of[i]), telling_tokens(i, &tokens), "kernel {i} of {tokens:?}");
                compared += 1;
            }
        }
        assert!(compared > 4000, "{compared}");
    }

    #[test]
    fn ten_thousand_kernels_of_one_short_name_are_named_at_once() {
        // They differ only in their parameters (no identifier tells them apart: numbered), or
        // in one identifier each (that one names them). The first version took 14 s natively
        // for the first; a test only shows the result, the speed is in docs/PERFORMANCE.md.
        let same: Vec<String> = (0..10_000).map(|i| format!("void at::elementwise_kernel<128, at::AddFunctor<float>>(int, {i})")).collect();
        let got = distinct_display_names(&same);
        assert_eq!(got[0], "at::elementwise_kernel<…> #1");
        assert_eq!(got[9_999], "at::elementwise_kernel<…> #10000");
        // Template arguments past 40 characters: named by identifiers, not shown whole.
        let own: Vec<String> = (0..10_000).map(|i| format!("void at::elementwise_kernel<4, at::BinaryFunctor<float, float, at::Functor_{i}<float>>, at::Array<char*, 3>>(int)")).collect();
        let got = distinct_display_names(&own);
        assert_eq!(got[0], "at::elementwise_kernel<… Functor_0 …>");
        assert_eq!(got[4_321], "at::elementwise_kernel<… Functor_4321 …>");
    }

    #[test]
    fn unique_short_names_stay_short() {
        let names = ["volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nn", "void cudnn::detail::bn_fw_tr_1C11_kernel_NCHW<__half, float, 512, true, 1>(cudnnTensorStruct)"];
        assert_eq!(distinct_display_names(&names), ["volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nn", "cudnn::detail::bn_fw_tr_1C11_kernel_NCHW<…>"]);
    }

    #[test]
    fn short_template_arguments_come_back_whole() {
        let names = [
            "void tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<Eigen::half, 256, 32, 32, false>(Eigen::half const*, tensorflow::functor::Dimension<3>, Eigen::half*)",
            "void tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<unsigned short, 256, 2, 256, false>(unsigned short const*, tensorflow::functor::Dimension<3>, unsigned short*)",
            "void tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<unsigned short, 256, 256, 2, false>(unsigned short const*, tensorflow::functor::Dimension<3>, unsigned short*)",
        ];
        assert_eq!(
            distinct_display_names(&names),
            [
                "tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<half, 256, 32, 32, false>",
                "tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<unsigned short, 256, 2, 256, false>",
                "tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<unsigned short, 256, 256, 2, false>",
            ]
        );
    }

    #[test]
    fn long_template_arguments_give_the_identifiers_that_tell_kernels_apart() {
        let names = [EIGEN_SUM_HALF, EIGEN_SUM_FLOAT, EIGEN_MAX_HALF, EIGEN_SUM_HALF_1D, "volta_sgemm"];
        let got = distinct_display_names(&names);
        // Only the first has a broadcast; the max is the only max; the float sum is the only
        // float kernel; the 1-D half sum's identifiers are all in the first one's: the sum
        // (not the max) over half (not float) reads differently from the broadcast.
        assert_eq!(got[0], "Eigen::internal::EigenMetaKernel<… TensorBroadcastingOp …>");
        assert_eq!(got[1], "Eigen::internal::EigenMetaKernel<… float …>");
        assert_eq!(got[2], "Eigen::internal::EigenMetaKernel<… scalar_max_op …>");
        assert_eq!(got[3], "Eigen::internal::EigenMetaKernel<… half, scalar_sum_op …>");
        assert_eq!(got[4], "volta_sgemm");
        let mut unique = got.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), got.len());
    }

    #[test]
    fn names_no_identifier_separates_are_numbered() {
        let names = ["k<1>(int)", "k<2>(int)", "k<1>(float)"];
        // Arguments "1", "2", "1": not distinct whole, no identifiers: numbered in order; the
        // two that are still equal after that are numbered among themselves.
        let got = distinct_display_names(&names);
        assert_eq!(got, ["k<…> #1", "k<…> #2", "k<…> #3"]);
    }

    #[test]
    fn equal_full_names_are_numbered() {
        assert_eq!(distinct_display_names(&["a<int>", "a<int>"]), ["a<…> #1", "a<…> #2"]);
    }

    #[test]
    fn arguments_lose_their_namespaces() {
        assert_eq!(unqualify("Eigen::half ,  std::vector<cub::Sum >"), "half, vector<Sum>");
        assert_eq!(template_args("void f<a::b, 3>(x<y>)"), "b, 3");
        assert_eq!(template_args("f(x<y>)"), "");
    }

    #[test]
    fn chart_labels_keep_both_ends() {
        assert_eq!(chart_label("Eigen::internal::EigenMetaKernel<… float …>", 40), "EigenMetaKernel<… float …>");
        assert_eq!(chart_label("volta_fp16_s884cudnn_fp16_256x128_ldg8_relu_f2f_exp_interior_nhwc_tn_v1", 33), "volta_fp16_s884c…erior_nhwc_tn_v1");
        assert_eq!(chart_label("ax_kernel", 33), "ax_kernel");
        assert_eq!(chart_label("f<a::b>", 33), "f<a::b>");
    }
}
