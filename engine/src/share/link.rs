//! The link text: `v1.` + the length of what follows + `.` + unpadded base64url(deflate(body +
//! CRC-32) + tail), and [`TERMINATOR`] where that would end on `-` or `_`; kept under
//! [`MAX_LINK_CHARS`] by shortening the longest kernel names first. The CRC-32 covers body and
//! tail; the tail (values' low bytes, incompressible) follows the deflate stream's last byte.
//!
//! Why the length and the terminator (docs/SHARING.md, "Text layout"): a link pasted into mail
//! or chat is often cut (a line wrapped, a preview shortened), and autolinkers (GitHub, Slack,
//! Teams, Outlook) leave a trailing `-`, `_`, `.`, `~`, `*`, `:`, `,`, `!` or `?` out of the
//! link they make. With the length ahead of the payload, a cut link says how much of it is
//! missing instead of "checksum mismatch", and one with text joined to it says so; with the
//! terminator, no link ends on a character an autolinker drops. Links without the length
//! (`v1.<payload>`, everything written before) decode as they always did: base64url has no
//! `.`, so a second `.` tells the two apart.

use super::binary;
use super::view::View;
use super::deflate::{deflate, inflate};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use super::{v2, DecodeError, EncodeError, MAX_LINK_CHARS, VERSION, VERSION_RUNS};
use crate::domain::short_names::distinct_display_names;
use crate::units::thousands;

/// Longest text [`decode`] looks at: no link this build writes comes near it, and a longer
/// one is refused before it is decoded into memory.
pub const MAX_INPUT_CHARS: usize = 1024 * 1024;

/// A link made by [`encode`].
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// `v1.…`: the page address's fragment, without `#`.
    pub fragment: String,
    /// How many kernel names were shortened (template arguments collapsed, parameter lists
    /// dropped) to fit the link; 0 when every name is in full. The app should say so.
    pub shortened_names: usize,
}

impl Link {
    /// The whole address: `base` (e.g. [`super::DEFAULT_BASE_URL`]) + `#` + fragment.
    pub fn url(&self, base: &str) -> String {
        format!("{}#{}", base.split('#').next().unwrap_or(base), self.fragment)
    }
}

/// What ends a link whose payload ends on `-` or `_`: GitHub, Slack, Teams and Outlook leave
/// a trailing `-`, `_` (and `. , : ! ? ~ *`) out of the link they make of an address in text,
/// which would cut the link by one character. Such a payload is a whole number of 4-character
/// base64 groups (a shorter last group carries zero low bits: `-` and `_` cannot end it), so
/// with the terminator the characters after the length are one more than a multiple of 4, a
/// count no unpadded base64 has: [`decode`] tells a terminator from a payload character by
/// that count alone.
pub const TERMINATOR: char = 'E';

/// The link text of a payload: `version.N.payload`, N the characters that follow the second
/// `.` (the terminator included), so that a reader knows where the link ends.
fn frame(version: &str, payload: &str) -> String {
    let end = matches!(payload.as_bytes().last(), Some(b'-' | b'_'));
    let mut s = format!("{version}.{}.{payload}", payload.len() + usize::from(end));
    if end {
        s.push(TERMINATOR);
    }
    s
}

/// Where the address is at least this long (characters, the whole address), Copy link and
/// `roofline link` say so, and how to share a shorter one ([`long_link_warning`]). The link
/// still works; but some places that carry links cut them near 2,000 characters: some chat
/// previews, the link fields of some course sites (LMS) and forms, older browsers (Internet
/// Explorer and the first Edge: 2,083 characters in all). 2,000 characters hold about 40
/// kernels with their names (the five-file NERSC run of 49 kernels takes 3,222).
pub const LONG_LINK_CHARS: usize = 2_000;

/// What to say of an address of `chars` characters, if it is longer than [`LONG_LINK_CHARS`]:
/// that it is long, where such links get cut, and the two ways to share a short one (a
/// `#url=` link to the profile put on the web, or a `.roofline.json` view file, which
/// `save_file` says how to write).
pub fn long_link_warning(chars: usize, save_file: &str) -> Option<String> {
    (chars > LONG_LINK_CHARS).then(|| {
        format!(
            "this link is long ({} characters): some chat previews, course sites and older browsers cut links past {}. To share a short one, put the profile on the web and share a #url= link to it (docs/SHARING.md, \"Open from a URL\"), or share the view as a file ({save_file})",
            thousands(chars as u64),
            thousands(LONG_LINK_CHARS as u64)
        )
    })
}

/// A view with runs is written as v2 (v1's payload, then the runs); one without, as v1, byte
/// for byte as before v2 existed.
fn pack(view: &View, names: &[&str]) -> String {
    let binary::Payload { mut body, mut tail } = binary::write(view, names);
    let version = match &view.runs {
        Some(runs) => {
            v2::write(runs, view.kernels.len(), &mut body, &mut tail);
            VERSION_RUNS
        }
        None => VERSION,
    };
    let crc = crc32(&[body.as_slice(), tail.as_slice()].concat());
    body.extend_from_slice(&crc.to_be_bytes());
    let mut bytes = deflate(&body);
    bytes.extend_from_slice(&tail);
    frame(version, &URL_SAFE_NO_PAD.encode(&bytes))
}

/// The fewest characters a link of `view` has, whatever its names: `v1.`, the length field and
/// the base64 of its tail alone, the two low bytes of each measured value, which are never
/// deflated (`binary::write`).
fn least_chars(view: &View) -> usize {
    let runs = view.runs.as_ref().map_or(0, v2::tail_len);
    let payload = ((binary::tail_len(view) + runs) * 4).div_ceil(3);
    VERSION.len() + 1 + payload.to_string().len() + 1 + payload
}

/// CRC-32 (IEEE 802.3, as zip and PNG use; check value `crc32(b"123456789") == 0xCBF43926`):
/// detects a link altered in a way that still inflates. With the crate's 1 KB byte table
/// (`Table<1>`): the bitwise form (`NoTable`) made a 10,000-kernel view's address write in the
/// browser 18.4 ms where it is now 14.9 (docs/PERFORMANCE.md). The table is built on first use, not
/// at compile time, so the wasm carries the few instructions that build it instead of its
/// 1 KB of incompressible data (+1.2 KB on the first visit, measured).
pub(super) fn crc32(bytes: &[u8]) -> u32 {
    static CRC: std::sync::OnceLock<crc::Crc<u32, crc::Table<1>>> = std::sync::OnceLock::new();
    CRC.get_or_init(|| crc::Crc::<u32, crc::Table<1>>::new(&crc::CRC_32_ISO_HDLC)).checksum(bytes)
}

/// Unpadded base64url (RFC 4648 §5), strict: padding, a lone trailing character, or unused
/// low bits that are not zero (the encoder leaves them zero) are refused. On failure, the
/// 0-based index of the offending character.
fn unbase64(text: &str) -> Result<Vec<u8>, usize> {
    use base64::DecodeError as E;
    URL_SAFE_NO_PAD.decode(text).map_err(|e| match e {
        E::InvalidByte(at, _) | E::InvalidLastSymbol(at, _) => at,
        E::InvalidLength(len) => len,
        E::InvalidPadding => text.find('=').unwrap_or(text.len()),
    })
}

/// Encodes a view as a link fragment. Names are kept in full when the link fits in
/// [`MAX_LINK_CHARS`]; otherwise the longest names are shortened (to
/// [`distinct_display_names`], the page's short names) until it fits, keeping as many full names as
/// possible. If even all-short names do not fit, the view is too large for a link: save it
/// with [`super::file::to_json`] instead.
pub fn encode(view: &View) -> Result<Link, EncodeError> {
    encode_with_short_names(view, None)
}

/// [`encode`], given the short names of `view.kernels` where the caller keeps them: exactly
/// [`distinct_display_names`] of their names, in order, as the page keeps for its table. A
/// view too long for full names then does not work them out again at each write (for 10,000
/// kernels, 20 ms of a 40 ms address write in the page, measured 2026-11-28). Names of
/// another count are not used: they are worked out here.
pub fn encode_with_short_names(view: &View, short: Option<&[String]>) -> Result<Link, EncodeError> {
    binary::check(view).map_err(EncodeError::Invalid)?;
    if let Some(runs) = &view.runs {
        v2::check(runs).map_err(EncodeError::Invalid)?;
    }
    // No names can make it fit when its values alone pass the limit: then nothing is packed or
    // deflated. A 10,000-kernel view's address write in the page was two whole packs, 41–56 ms
    // (docs/PERFORMANCE.md, 2026-11-29, night).
    let least = least_chars(view);
    if least > MAX_LINK_CHARS {
        return Err(EncodeError::TooLarge { chars: least, limit: MAX_LINK_CHARS, kernels: view.kernels.len() });
    }
    let full: Vec<&str> = view.kernels.iter().map(|k| k.name.as_str()).collect();
    let fragment = pack(view, &full);
    if fragment.len() <= MAX_LINK_CHARS {
        return Ok(Link { fragment, shortened_names: 0 });
    }
    // The names the page shows (short, told apart where short names collide), so a reopened
    // link still tells the kernels apart.
    let made: Vec<String>;
    let short: &[String] = match short {
        Some(given) if given.len() == full.len() => given,
        _ => {
            made = distinct_display_names(&full);
            &made
        }
    };
    // Shortening names longer than `threshold`: the candidate thresholds are the lengths of
    // the names that shorten, plus 0 (shorten all of them). Bigger threshold, fewer shortened.
    let mut thresholds: Vec<usize> = full.iter().zip(short).filter(|(f, s)| s.len() < f.len()).map(|(f, _)| f.len()).collect();
    thresholds.push(0);
    thresholds.sort();
    thresholds.dedup();
    let attempt = |threshold: usize| {
        let names: Vec<&str> = full.iter().zip(short).map(|(f, s)| if f.len() > threshold && s.len() < f.len() { s.as_str() } else { f }).collect();
        let count = names.iter().zip(&full).filter(|(n, f)| n.len() != f.len()).count();
        (pack(view, &names), count)
    };
    // thresholds.last() shortens nothing (known not to fit); find the largest that fits.
    let (smallest, count) = attempt(0);
    if smallest.len() > MAX_LINK_CHARS {
        return Err(EncodeError::TooLarge { chars: smallest.len(), limit: MAX_LINK_CHARS, kernels: view.kernels.len() });
    }
    let (mut fits, mut fails) = (0, thresholds.len() - 1);
    let mut best = (smallest, count);
    while fails - fits > 1 {
        let mid = (fits + fails) / 2;
        let (fragment, count) = attempt(thresholds[mid]);
        if fragment.len() <= MAX_LINK_CHARS {
            fits = mid;
            best = (fragment, count);
        } else {
            fails = mid;
        }
    }
    Ok(Link { fragment: best.0, shortened_names: best.1 })
}

/// Decodes a link: the fragment with or without `#`, or a whole address (what follows its
/// last `#`). ASCII whitespace anywhere is ignored: around a link pasted from a chat or a file,
/// and inside one a mail program wrapped over lines. A link of this build's form (`v1.N.…`)
/// that is shorter than its length says is refused as cut, saying how many characters are
/// missing; one longer, as altered or joined to other text. Links written before lengths
/// (`v1.…` and `v2.…` with no second `.`) are read as they always were.
pub fn decode(text: &str) -> Result<View, DecodeError> {
    if text.len() > MAX_INPUT_CHARS {
        return Err(DecodeError(format!("it is {} characters long, more than any link this version makes", text.len())));
    }
    let text: std::borrow::Cow<str> = if text.bytes().any(|b| b.is_ascii_whitespace()) {
        text.chars().filter(|c| !c.is_ascii_whitespace()).collect::<String>().into()
    } else {
        text.into()
    };
    let fragment = unquoted(text.rsplit('#').next().unwrap_or_default());
    let Some((version, rest)) = fragment.split_once('.') else {
        return Err(DecodeError(format!("it has no version prefix (expected \"#{VERSION}.…\")")));
    };
    if version != VERSION && version != VERSION_RUNS {
        let newer = version.strip_prefix('v').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        return Err(DecodeError(if newer {
            format!("it is a \"{version}\" link, which this version does not read (it reads {VERSION} and {VERSION_RUNS}); open it with a newer version")
        } else {
            format!("\"{}\" is not a link version (expected \"{VERSION}.…\")", version.chars().take(20).collect::<String>())
        }));
    }
    let (payload, at) = match rest.split_once('.') {
        Some((count, framed)) => (unframe(count, framed, text.len() - fragment.len() + version.len() + count.len() + 2)?, version.len() + count.len() + 2),
        // Only digits (or nothing) after `v1.`: the start of a link of this build's form, cut
        // inside its length (no link made before lengths is as short: a view takes more).
        None if rest.len() < 8 && rest.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(DecodeError(format!("it was cut short just after its start (\"{fragment}\"). {COPY_AGAIN}")));
        }
        // A link made before lengths: read as it always was.
        None => (rest, version.len() + 1),
    };
    read_payload(version, payload, at)
}

/// Whether pasted text is meant as a link (an address ending in `#v1.…`, or the fragment
/// alone), whole or not, rather than profiler output: without its whitespace, what follows its
/// last `#` is `v<digits>.` and then only characters a link has (letters, digits, `-`, `_`,
/// `.`). Profiler text has commas, quotes or spaces between words, so it never is one. The
/// app's paste box opens such text with [`decode`], which says why one that does not open.
pub fn looks_like_link(text: &str) -> bool {
    let fragment = unquoted(text.trim().rsplit('#').next().unwrap_or_default());
    let mut bytes = fragment.bytes().filter(|b| !b.is_ascii_whitespace());
    if bytes.next() != Some(b'v') {
        return false;
    }
    let mut digits = 0;
    while let Some(b) = bytes.next() {
        match b {
            b'0'..=b'9' => digits += 1,
            b'.' if digits > 0 => return bytes.all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
            _ => return false,
        }
    }
    false
}

/// A fragment without the brackets, quotes and closing punctuation that prose puts around a
/// link ("(see …#v1.….)", "<…>", a sentence's full stop copied with it): no link ends on one
/// (this build's end on a letter or digit, older ones on base64url) or starts with one.
fn unquoted(fragment: &str) -> &str {
    let fragment = fragment.trim_start_matches(['(', '<', '[', '"', '\'']);
    let trimmed = fragment.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '>', ']', '"', '\'']);
    // `v1.` alone, a link cut just after its version, keeps its dot.
    if trimmed.contains('.') { trimmed } else { fragment }
}

/// What a user can do about a link cut short.
const COPY_AGAIN: &str = "Copy the whole link again: a mail or chat program may have cut it";

/// A link whose length field, or the end its length calls for, is not one this build writes.
const ALTERED: &str = "it is damaged (its length or its end is not one a link has); was it altered?";

/// The payload of `count.framed` (the link after `v1.`), checked against its length:
/// `before` is how many characters the link has ahead of `framed` (its address, if given).
fn unframe<'a>(count: &str, framed: &'a str, before: usize) -> Result<&'a str, DecodeError> {
    // At most 7 digits (MAX_INPUT_CHARS), no leading zero, not 0: one text, one length.
    if count.is_empty() || count.len() > 7 || count.starts_with('0') || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DecodeError(ALTERED.into()));
    }
    // Digits checked: no `str::parse` (its code, for 7 digits, in the page's wasm).
    let n = count.bytes().fold(0, |n, b| n * 10 + usize::from(b - b'0'));
    if framed.len() < n {
        let missing = n - framed.len();
        let are = if missing == 1 { "is" } else { "are" };
        return Err(DecodeError(format!("it was cut short; {} of its {} characters {are} missing. {COPY_AGAIN}", thousands(missing as u64), thousands((before + n) as u64))));
    }
    if framed.len() > n {
        return Err(DecodeError(format!("it is {} characters long, not {}: it was altered, or joined to other text", thousands((before + framed.len()) as u64), thousands((before + n) as u64))));
    }
    // One more than a multiple of 4 ends on the terminator, after a payload ending on - or _.
    match (n % 4, framed.as_bytes()) {
        (1, [.., b'-' | b'_', end]) if char::from(*end) == TERMINATOR => Ok(&framed[..n - 1]),
        (1, _) => Err(DecodeError(ALTERED.into())),
        _ => Ok(framed),
    }
}

/// The view of a payload (base64url) of link `version`; `at`: where the payload starts in the
/// fragment, for the position of a character that is not base64url.
fn read_payload(version: &str, payload: &str, at: usize) -> Result<View, DecodeError> {
    let packed = unbase64(payload).map_err(|i| DecodeError(format!("it is damaged (not base64url at character {}); was it cut or altered?", i + at)))?;
    let (mut body, consumed) = inflate(&packed)?;
    let tail = &packed[consumed..];
    if body.len() < 4 {
        return Err(DecodeError("it is damaged (too short to hold a view)".into()));
    }
    let body_len = body.len() - 4;
    let mut crc = [0u8; 4];
    crc.copy_from_slice(&body[body_len..]);
    body.truncate(body_len);
    body.extend_from_slice(tail);
    if u32::from_be_bytes(crc) != crc32(&body) {
        return Err(DecodeError("it is damaged (checksum mismatch); was it cut or altered?".into()));
    }
    if version == VERSION_RUNS {
        v2::read(&body[..body_len], tail)
    } else {
        binary::read(&body[..body_len], tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_is_unpadded_and_strict() {
        // RFC 4648 §10 vectors, unpadded.
        for (raw, enc) in [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(URL_SAFE_NO_PAD.encode(raw), enc);
            assert_eq!(unbase64(enc).as_deref(), Ok(raw.as_bytes()));
        }
        assert_eq!(URL_SAFE_NO_PAD.encode([0xfb, 0xff]), "-_8", "the URL alphabet");
        assert_eq!(unbase64("Zm9v!"), Err(4));
        assert_eq!(unbase64("Zh"), Err(1), "unused bits must be zero");
        assert_eq!(unbase64("Zm8="), Err(3), "no padding");
        assert_eq!(unbase64("Zm9vY"), Err(5), "a lone trailing character encodes no byte");
    }

    /// `n` kernels of the same two measured values and one not measured (NaN).
    fn kernels(n: usize) -> View {
        use super::super::view::SharedKernel;
        use crate::domain::counters::{Counter, Counters};
        let mut counters = Counters::default();
        counters.set(Counter::TimeS, 1.5e-3);
        counters.set(Counter::DramBytes, 4e9);
        counters.set(Counter::Fp32Flops, f64::NAN);
        let kernels = (0..n).map(|i| SharedKernel { name: format!("k{i}"), launches: 1, counters: counters.clone() }).collect();
        View { machine_id: "v100".into(), kernels, ..View::default() }
    }

    #[test]
    fn the_least_length_is_the_values_alone_and_never_above_the_link() {
        // Two measured values a kernel, two bytes each in the tail: 1,000 kernels, 4,000
        // bytes, 5,334 base64 characters (4,000 × 4 / 3 = 5,333.3), "v1." and "5334.".
        assert_eq!(least_chars(&kernels(1_000)), 5_342);
        for n in [0, 1, 2, 3, 50, 1_000] {
            let v = kernels(n);
            let link = encode(&v).unwrap();
            assert!(least_chars(&v) <= link.fragment.len(), "{n} kernels: {} > {}", least_chars(&v), link.fragment.len());
        }
    }

    #[test]
    fn a_view_whose_values_alone_pass_the_limit_is_too_large_at_once() {
        // 10,000 kernels: 40,000 bytes of values, 53,334 characters, over the 32,000 (with
        // "v1." and "53334.", 53,343).
        assert_eq!(encode(&kernels(10_000)), Err(EncodeError::TooLarge { chars: 53_343, limit: MAX_LINK_CHARS, kernels: 10_000 }));
        // Under the limit by its values (5,000 kernels: 26,670), the view is packed; with its
        // names the link passes the limit: too large, with the packed link's own length.
        match encode(&kernels(5_000)) {
            Err(EncodeError::TooLarge { chars, kernels: 5_000, .. }) => assert!(chars > MAX_LINK_CHARS, "{chars}"),
            other => panic!("expected TooLarge, got {:?}", other.map(|l| l.fragment.len())),
        }
    }

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }
}
