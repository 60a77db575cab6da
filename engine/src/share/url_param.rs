//! `#url=<address>&mode=…`: a profile (or a `.roofline.json` view file) named by its address
//! instead of packed into the link, as speedscope's `#profileURL=` (docs/SHARING.md, "Open from
//! a URL"). This module only reads and writes the fragment; the app asks the user before it
//! fetches anything (`app/src/open_url.rs`).
//!
//! Only `https:` addresses are accepted, and `http:` for this computer (`localhost`,
//! `127.0.0.1`) so a file served locally can be tried: a page served over HTTPS may not read
//! plain HTTP from elsewhere anyway (mixed content), and the page's `connect-src` names no more
//! (`[::1]` is not there: CSP has no syntax for IPv6 hosts). Credentials in an address
//! (`user:pass@`) are refused rather than sent.
//!
//! The address may be percent-encoded or plain. Plain, its own query can hold `&`: a piece after
//! `&` that is not one of the view's parameters ([`PARAMS`]) belongs to the address.

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};
use std::fmt;

/// The view's parameters beside the address, in the order they are written.
pub const PARAMS: [&str; 5] = ["mode", "machine", "select", "filter", "top"];

/// What a `#url=` fragment asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlParams {
    /// The file's address, decoded, checked ([`check_address`]).
    pub url: String,
    /// Its host as shown to the user (with the port when there is one).
    pub host: String,
    /// Chart mode id (`classic`, `hierarchical`, `instruction`, …), not checked here: the app
    /// says when it does not know it.
    pub mode: Option<String>,
    /// Catalogue machine id (`h100-sxm`, …).
    pub machine: Option<String>,
    /// The selected kernel, by name.
    pub select: Option<String>,
    /// The kernel filter (a case-insensitive regular expression, as in the app).
    pub filter: Option<String>,
    /// Show only the N most time-consuming kernels.
    pub top_n: Option<u32>,
}

/// Why a `#url=` fragment cannot be opened; its text is the page's alert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlError {
    /// Not `%XX` of UTF-8.
    Encoding,
    Empty,
    /// Not `https://…`, nor `http://` to this computer.
    Scheme(String),
    /// `user:password@` in the address.
    Credentials,
    NoHost,
    /// A parameter's value that cannot be read (`top=many`).
    Value(&'static str, String),
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Encoding => write!(f, "the link's #url= is not valid percent-encoded UTF-8"),
            UrlError::Empty => write!(f, "the link's #url= names no address"),
            UrlError::Scheme(url) => write!(f, "the link asks to load \"{url}\": only https:// addresses can be opened (http:// only on localhost or 127.0.0.1, for testing)"),
            UrlError::Credentials => write!(f, "the link's #url= holds a user name or password; such addresses are not opened"),
            UrlError::NoHost => write!(f, "the link's #url= names no host"),
            UrlError::Value(key, value) => write!(f, "the link's {key}={value} cannot be read"),
        }
    }
}

impl std::error::Error for UrlError {}

/// Whether `fragment` (without `#`) asks to open an address: it starts with `url=`.
pub fn is_url_fragment(fragment: &str) -> bool {
    fragment.starts_with("url=")
}

fn decode(text: &str) -> Result<String, UrlError> {
    percent_decode_str(text).decode_utf8().map(|s| s.into_owned()).map_err(|_| UrlError::Encoding)
}

/// Reads a `url=…[&key=value…]` fragment (without `#`). `None`: it is not one.
pub fn parse(fragment: &str) -> Option<Result<UrlParams, UrlError>> {
    let rest = fragment.strip_prefix("url=")?;
    Some(parse_pieces(rest))
}

fn parse_pieces(rest: &str) -> Result<UrlParams, UrlError> {
    let mut pieces = rest.split('&');
    let mut url = decode(pieces.next().unwrap_or_default())?;
    let mut p = UrlParams::default();
    for piece in pieces {
        let (key, value) = piece.split_once('=').unwrap_or((piece, ""));
        let Some(&key) = PARAMS.iter().find(|&&k| k == key) else {
            // The address's own query (`?a=1&b=2` written plainly).
            url.push('&');
            url.push_str(&decode(piece)?);
            continue;
        };
        let value = decode(value)?;
        match key {
            "mode" => p.mode = Some(value),
            "machine" => p.machine = Some(value),
            "select" => p.select = Some(value),
            "filter" => p.filter = Some(value),
            _ => p.top_n = Some(value.parse().map_err(|_| UrlError::Value("top", value))?),
        }
    }
    p.host = check_address(&url)?;
    p.url = url;
    Ok(p)
}

/// Checks that `url` may be fetched and returns its host (`host[:port]`): `https://` anywhere,
/// `http://` to `localhost` or `127.0.0.1` only; no credentials.
pub fn check_address(url: &str) -> Result<String, UrlError> {
    let url = url.trim();
    if url.is_empty() {
        return Err(UrlError::Empty);
    }
    let refused = || UrlError::Scheme(url.to_string());
    let (scheme, rest) = url.split_once("://").ok_or_else(refused)?;
    let https = scheme.eq_ignore_ascii_case("https");
    if !https && !scheme.eq_ignore_ascii_case("http") {
        return Err(refused());
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(UrlError::Credentials);
    }
    // The host without its port (`[::1]:8000` → `[::1]`).
    let name = match authority.rfind(':') {
        Some(i) if !authority[i..].contains(']') => &authority[..i],
        _ => authority,
    };
    if name.is_empty() {
        return Err(UrlError::NoHost);
    }
    let local = ["localhost", "127.0.0.1"].iter().any(|l| name.eq_ignore_ascii_case(l));
    if !https && !local {
        return Err(refused());
    }
    Ok(authority.to_ascii_lowercase())
}

/// What a parameter's value escapes: controls, space and the fragment's own separators
/// (`&`, `=`, `#`, `%`), so any text travels and reads back the same.
const VALUE: &AsciiSet = &CONTROLS.add(b' ').add(b'"').add(b'#').add(b'%').add(b'&').add(b'=').add(b'<').add(b'>').add(b'`');

/// The fragment (without `#`) for `p`: the address as it is where it needs no escape (readable:
/// `url=https://host/path/file.csv`), the parameters that are set after it.
pub fn write(p: &UrlParams) -> String {
    let mut out = format!("url={}", utf8_percent_encode(&p.url, VALUE));
    let values = [p.mode.clone(), p.machine.clone(), p.select.clone(), p.filter.clone(), p.top_n.map(|n| n.to_string())];
    for (key, value) in PARAMS.iter().zip(values) {
        if let Some(v) = value {
            out.push_str(&format!("&{key}={}", utf8_percent_encode(&v, VALUE)));
        }
    }
    out
}

/// The file name to give the fetched bytes: the address's last path segment, decoded
/// (`…/runs/a%20b.csv?raw=1` → `a b.csv`), else `profile`.
pub fn file_name(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let after_host = path.split_once("://").map_or(path, |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
    let last = after_host.rsplit('/').next().unwrap_or_default();
    let name = percent_decode_str(last).decode_utf8_lossy().into_owned();
    if name.is_empty() { "profile".into() } else { name }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(fragment: &str) -> UrlParams {
        parse(fragment).expect("a #url= fragment").expect("valid")
    }

    fn err(fragment: &str) -> UrlError {
        parse(fragment).expect("a #url= fragment").expect_err("refused")
    }

    #[test]
    fn plain_and_percent_encoded_addresses_read_the_same() {
        let plain = ok("url=https://raw.githubusercontent.com/course/lab/main/runs/a.csv&mode=hierarchical");
        let encoded = ok("url=https%3A%2F%2Fraw.githubusercontent.com%2Fcourse%2Flab%2Fmain%2Fruns%2Fa.csv&mode=hierarchical");
        assert_eq!(plain, encoded);
        assert_eq!(plain.url, "https://raw.githubusercontent.com/course/lab/main/runs/a.csv");
        assert_eq!(plain.host, "raw.githubusercontent.com");
        assert_eq!(plain.mode.as_deref(), Some("hierarchical"));
        assert_eq!(plain.machine, None);
    }

    #[test]
    fn every_parameter_is_read_and_decoded() {
        let p = ok("url=https://h.example/x.csv&machine=h100-sxm&select=void%20k%3Cfloat%3E(int)&filter=gemm%7Cconv&top=20&mode=instruction");
        assert_eq!(p.machine.as_deref(), Some("h100-sxm"));
        assert_eq!(p.select.as_deref(), Some("void k<float>(int)"));
        assert_eq!(p.filter.as_deref(), Some("gemm|conv"));
        assert_eq!(p.top_n, Some(20));
        assert_eq!(p.mode.as_deref(), Some("instruction"));
        assert_eq!(err("url=https://h.example/x.csv&top=many"), UrlError::Value("top", "many".into()));
    }

    #[test]
    fn a_plain_query_keeps_its_own_ampersands() {
        let p = ok("url=https://h.example/get?id=7&raw=1&mode=classic");
        assert_eq!(p.url, "https://h.example/get?id=7&raw=1");
        assert_eq!(p.mode.as_deref(), Some("classic"));
    }

    #[test]
    fn only_https_or_http_to_this_computer() {
        assert_eq!(ok("url=http://127.0.0.1:8123/x.csv").host, "127.0.0.1:8123");
        assert_eq!(ok("url=http://LOCALHOST/x.csv").host, "localhost");
        assert_eq!(ok("url=https://[::1]:9000/x.csv").host, "[::1]:9000");
        assert_eq!(err("url=http://[::1]:9000/x.csv"), UrlError::Scheme("http://[::1]:9000/x.csv".into()));
        assert_eq!(ok("url=HTTPS://Gist.GitHubUserContent.com/u/1/raw/x.csv").host, "gist.githubusercontent.com");
        assert_eq!(err("url=http://example.com/x.csv"), UrlError::Scheme("http://example.com/x.csv".into()));
        assert_eq!(err("url=http://127.0.0.1.evil.com/x.csv"), UrlError::Scheme("http://127.0.0.1.evil.com/x.csv".into()));
        assert_eq!(err("url=javascript:alert(1)"), UrlError::Scheme("javascript:alert(1)".into()));
        assert_eq!(err("url=file:///etc/passwd"), UrlError::Scheme("file:///etc/passwd".into()));
        assert_eq!(err("url=data://x"), UrlError::Scheme("data://x".into()));
        assert_eq!(err("url=https://user:pw@h.example/x.csv"), UrlError::Credentials);
        assert_eq!(err("url="), UrlError::Empty);
        assert_eq!(err("url=https:///x.csv"), UrlError::NoHost);
        assert_eq!(err("url=https%3A%2F%2Fh%FF"), UrlError::Encoding);
        assert!(err("url=ftp://h/x").to_string().contains("only https://"));
    }

    #[test]
    fn other_fragments_are_not_url_fragments() {
        assert_eq!(parse("v1.AWIAnf8"), None);
        assert_eq!(parse(""), None);
        assert!(is_url_fragment("url=https://h/x"));
        assert!(!is_url_fragment("v1.url="));
    }

    #[test]
    fn write_reads_back_the_same() {
        let p = UrlParams {
            url: "https://h.example/get?id=7&raw=1".into(),
            host: "h.example".into(),
            mode: Some("hierarchical".into()),
            machine: None,
            select: Some("a&b=c #%d".into()),
            filter: Some("gemm|conv".into()),
            top_n: Some(5),
        };
        let text = write(&p);
        assert_eq!(text, "url=https://h.example/get?id%3D7%26raw%3D1&mode=hierarchical&select=a%26b%3Dc%20%23%25d&filter=gemm|conv&top=5");
        assert_eq!(ok(&text), p);
        assert_eq!(write(&UrlParams { url: "https://h/x.csv".into(), ..UrlParams::default() }), "url=https://h/x.csv");
    }

    #[test]
    fn file_names_come_from_the_last_segment() {
        assert_eq!(file_name("https://h/runs/a%20b.csv?raw=1"), "a b.csv");
        assert_eq!(file_name("https://h/v.roofline.json#x"), "v.roofline.json");
        assert_eq!(file_name("https://h/"), "profile");
        assert_eq!(file_name("https://h"), "profile");
    }
}
