//! Kernel names: the profiler's spelling cleaned for joining, demangling of `_Z…` symbols,
//! and a short display name for charts (the full name is always kept alongside).

/// The name a launch is recorded under: surrounding space trimmed, profiler-added suffixes
/// removed (nvprof's ` [1171]` correlation id, ROCm's ` [clone .kd]`, ` (.kd)` and `.kd`
/// code-object suffixes) and Itanium-mangled names (`_Z…`) demangled, so that the same kernel
/// gets the same name in every file of a run.
pub fn clean(raw: &str) -> String {
    let mut s = raw.trim();
    if let Some(open) = s.rfind(" [") {
        let tail = &s[open + 2..];
        if let Some(digits) = tail.strip_suffix(']') {
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                s = s[..open].trim_end();
            }
        }
    }
    for suffix in [" [clone .kd]", " (.kd)", ".kd"] {
        if let Some(stripped) = s.strip_suffix(suffix) {
            s = stripped.trim_end();
            break;
        }
    }
    if s.starts_with("_Z") {
        if let Some(d) = demangle(s) {
            return d;
        }
    }
    s.to_string()
}

/// Best-effort Itanium C++ demangling of a kernel symbol, enough to name it: the (nested)
/// qualified name, `<…>` when it is a template instance, and no parameter list. Returns
/// `None` for anything it does not understand (the mangled name is then kept as is). Not
/// `cpp_demangle`: measured, it adds 151 KB to the app's wasm (52 KB gzipped, +14% of the
/// first visit; ARCHITECTURE.md, "Hand-written pieces") for little gain here, since
/// profilers print demangled names by default (`--kernel-base demangled`).
pub fn demangle(sym: &str) -> Option<String> {
    let mut rest = sym.strip_prefix("_Z")?.as_bytes();
    let mut parts: Vec<String> = Vec::new();
    let nested = rest.first() == Some(&b'N');
    if nested {
        rest = &rest[1..];
        while let Some((b'r' | b'V' | b'K', tail)) = rest.split_first() {
            rest = tail;
        }
    }
    loop {
        if rest.starts_with(b"St") {
            parts.push("std".into());
            rest = &rest[2..];
            continue;
        }
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            break;
        }
        let len: usize = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
        // A length near usize::MAX must not overflow: a mangled name is input.
        let end = digits.checked_add(len)?;
        let name = rest.get(digits..end)?;
        parts.push(String::from_utf8(name.to_vec()).ok()?);
        rest = rest.get(end..)?;
        if rest.first() == Some(&b'I') {
            if let Some(last) = parts.last_mut() {
                last.push_str("<…>");
            }
            break;
        }
        if !nested || rest.first() == Some(&b'E') {
            break;
        }
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("::"))
    }
}

/// A short name for charts and tables: `(anonymous namespace)::` and `<unnamed>::` noise and
/// a leading `void ` removed, the parameter list dropped, template arguments collapsed to
/// `<…>`. `void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<…>, long>(…)`
/// becomes `Eigen::internal::EigenMetaKernel<…>`.
pub fn display_name(full: &str) -> String {
    let trimmed = full.trim();
    // Each noise holds "anonymous" or "unnamed": most names have neither and are not copied
    // once per noise (the page names 10,000 kernels at each load: 12 → 5 ms natively).
    // (`str::contains`, not memchr's `memmem`: the page's wasm has the one and not the other,
    // which costs 5.8 KB gzipped.)
    let mut s = std::borrow::Cow::Borrowed(trimmed);
    if trimmed.contains("anonymous") || trimmed.contains("unnamed") {
        for noise in ["(anonymous namespace)::", "`anonymous namespace'::", "{anonymous}::", "<unnamed>::", "(anonymous)::"] {
            s = s.replace(noise, "").into();
        }
    }
    let s = s.strip_prefix("void ").unwrap_or(&s);
    let mut out = String::with_capacity(s.len().min(120));
    let mut angle = 0usize;
    let mut square = 0usize;
    for c in s.chars() {
        match c {
            '<' => {
                if angle == 0 {
                    out.push_str("<…>");
                }
                angle += 1;
            }
            '>' if angle > 0 => angle -= 1,
            _ if angle > 0 => {}
            '[' => {
                square += 1;
                out.push(c);
            }
            ']' => {
                square = square.saturating_sub(1);
                out.push(c);
            }
            '(' if square == 0 && !out.trim().is_empty() => break,
            _ => out.push(c),
        }
    }
    let out = out.trim();
    if out.is_empty() {
        full.trim().to_string()
    } else {
        out.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiler_suffixes_are_removed() {
        assert_eq!(clean("void f<double>(int) [1171]"), "void f<double>(int)");
        assert_eq!(clean("vecCopy(double*) [clone .kd]"), "vecCopy(double*)");
        assert_eq!(clean("vecCopy(double*, int) (.kd)"), "vecCopy(double*, int)");
        assert_eq!(clean("__amd_rocclr_fillBufferAligned.kd"), "__amd_rocclr_fillBufferAligned");
        assert_eq!(clean("k [x]"), "k [x]");
    }

    #[test]
    fn mangled_names_are_demangled_best_effort() {
        assert_eq!(demangle("_Z9mysgemmNTPKfiS0_iPfiiff").as_deref(), Some("mysgemmNT"));
        assert_eq!(demangle("_ZN5Eigen8internal15EigenMetaKernelINS_15TensorEvaluatorEEEvT_").as_deref(), Some("Eigen::internal::EigenMetaKernel<…>"));
        assert_eq!(demangle("_ZNSt6vectorIiE9push_backEv").as_deref(), Some("std::vector<…>"));
        assert_eq!(demangle("_Zjunk"), None);
        assert_eq!(clean("_Z6kernelPf"), "kernel");
    }

    #[test]
    fn display_names_are_short() {
        assert_eq!(
            display_name("void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<A, B>, long>(Eigen::TensorEvaluator<A, B>, long)"),
            "Eigen::internal::EigenMetaKernel<…>"
        );
        assert_eq!(display_name("(anonymous namespace)::softmax_warp_forward<float, 4>(float*)"), "softmax_warp_forward<…>");
        assert_eq!(display_name("<unnamed>::k(int)"), "k");
        assert_eq!(display_name("copy_blocked[v1,cw51](Array<long long, 1, C>, long long)"), "copy_blocked[v1,cw51]");
        assert_eq!(display_name("maxwell_sgemm_128x64_raggedMn_nn_splitK"), "maxwell_sgemm_128x64_raggedMn_nn_splitK");
    }
}
