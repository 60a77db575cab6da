//! The view in the page address: `#v1.<length>.<base64url(deflate(binary view))>`, so that a link opens
//! the same chart, data included, anywhere. docs/SHARING.md specifies the format byte by byte.
//!
//! The fragment is never sent to a server. It carries the aggregated per-kernel counters the
//! charts need (not the raw profiler files), the machine (a catalogue id, or the whole machine
//! when edited or loaded from a file) and the chart settings ([`View`]). The payload is binary
//! because JSON of f64s is three times too long: 500 kernels must fit in [`MAX_LINK_CHARS`].
//!
//! Versioning: `v1` is frozen. Links made by any build must open in every later build, which
//! `engine/tests/share_fixtures.rs` checks against committed links. A change the v1 layout
//! cannot express gets a new version (`v2.`), with the v1 reader kept.
//!
//! Decoding is strict and safe: an unknown version, a truncated or altered link (CRC-32), a
//! decompression bomb or a malformed payload is a [`DecodeError`] with a reason, never a
//! panic, and nothing is allocated from a length before the length has been checked.
//!
//! Views too large for a link travel as a `.roofline.json` file ([`file`]), which the
//! importers open like any profiler file.

mod binary;
mod choice_wire;
mod codes;
mod deflate;
mod dictionary;
pub mod file;
mod link;
mod link_chart;
mod machine_wire;
mod v2;
pub mod url_param;
mod view;
mod wire;

pub use binary::{MAX_COLUMNS, MAX_HIDDEN_LEVELS, MAX_KERNELS};
pub use codes::{counter_code, counter_of};
pub use link::{decode, encode, encode_with_short_names, long_link_warning, looks_like_link, Link, LONG_LINK_CHARS, MAX_INPUT_CHARS, TERMINATOR};
pub use link_chart::LinkChart;
pub use v2::MAX_RUNS;
pub use view::{compute_id, level_id, theme_id, SharedKernel, SharedRun, View, ViewChoice, ViewRuns};
pub use wire::{quantise, MAX_STRING_BYTES};

use std::fmt;

/// The link schema version of a view of one run: frozen, read forever.
pub const VERSION: &str = "v1";

/// The version of a view that compares runs ([`View::runs`]): v1's payload followed by the
/// runs (docs/SHARING.md, "v2"). Views without runs are still written as [`VERSION`].
pub const VERSION_RUNS: &str = "v2";

/// Where the app is published; the CLI's `link --base` default. A link is this address plus
/// `#` and the fragment.
pub const DEFAULT_BASE_URL: &str = "https://example.github.io/roofline/";

/// Longest fragment [`encode`] makes, characters (`v1.` included). 500 kernels of real data fit
/// (docs/SHARING.md has the measurements); chat tools, mail clients and browsers handle
/// addresses of this length, while 64 k+ starts to break some of them.
pub const MAX_LINK_CHARS: usize = 32_000;

/// Largest decompressed payload accepted, bytes: a decompression bomb stops here. A maximal
/// link (32 000 characters) of real data inflates to a few hundred kB.
pub const MAX_DECODED_BYTES: usize = 4 * 1024 * 1024;

/// Why a link (or a `.roofline.json`) could not be opened. The text completes "this link
/// cannot be opened: …" and says what to do where there is something to do.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this link cannot be opened: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Why a view could not be made into a link.
#[derive(Clone, Debug, PartialEq)]
pub enum EncodeError {
    /// Even with every name shortened the link would be at least `chars` long, over `limit`:
    /// save the view as a `.roofline.json` file ([`file::to_json`]) instead. `chars` is the
    /// link's length with every name shortened, or, where the view's values alone pass the
    /// limit, the length they alone take (nothing is deflated then: the link would be longer).
    TooLarge { chars: usize, limit: usize, kernels: usize },
    /// Something the format cannot hold (a non-finite machine ceiling, a 64 KiB name, …).
    Invalid(String),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::TooLarge { chars, limit, kernels } => write!(
                f,
                "the view is too large for a link ({kernels} kernels need at least {chars} characters even with short names; the limit is {limit}): save it as a {} file instead",
                file::EXTENSION
            ),
            EncodeError::Invalid(why) => write!(f, "the view cannot be made into a link: {why}"),
        }
    }
}

impl std::error::Error for EncodeError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::{Counter, Counters};

    fn view() -> View {
        let mut counters = Counters::default();
        counters.set(Counter::DramBytes, 8e9);
        counters.set(Counter::Fp64Flops, 5e8);
        counters.set(Counter::TimeS, 0.010582);
        View {
            machine_id: "v100".into(),
            selected: Some(0),
            kernels: vec![SharedKernel { name: "ax_kernel<\"q\">".into(), launches: 3, counters }],
            ..View::default()
        }
    }

    fn quantised(mut v: View) -> View {
        for k in &mut v.kernels {
            let mut c = Counters::default();
            for (counter, value) in k.counters.iter() {
                c.set(counter, quantise(value));
            }
            k.counters = c;
        }
        v
    }

    #[test]
    fn round_trip() {
        let v = view();
        let link = encode(&v).unwrap();
        assert_eq!(link.shortened_names, 0);
        let s = link.fragment;
        let n = s.rsplit('.').next().unwrap().len();
        assert!(s.starts_with(&format!("v1.{n}.")), "{s}");
        assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "{s}");
        assert_eq!(decode(&format!("#{s}")).unwrap(), quantised(v.clone()));
        assert_eq!(decode(&format!("https://x.org/r/?a=b#{s}\n")).unwrap(), quantised(v));
    }

    #[test]
    fn bad_links_say_why() {
        let s = encode(&view()).unwrap().fragment;
        assert!(decode("v9.abc").unwrap_err().0.contains("newer version"));
        assert!(decode("x9.abc").unwrap_err().0.contains("not a link version"));
        assert!(decode("nodot").unwrap_err().0.contains("version"));
        let e = decode(&format!("{}!{}", &s[..12], &s[13..])).unwrap_err().0;
        assert!(e.contains("base64url"), "{s}: {e}");
        assert!(decode(&s[..s.len() - 8]).unwrap_err().0.contains("cut short; 8 of its"));
        assert!(decode(&format!("{s}AA")).unwrap_err().0.contains("altered"));
        assert!(decode("").is_err());
    }

    #[test]
    fn decompression_bombs_are_capped() {
        let zeros = vec![0u8; MAX_DECODED_BYTES + 1];
        let bomb = format!("v1.{}", base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, miniz_oxide::deflate::compress_to_vec(&zeros, 9)));
        assert!(bomb.len() < 40_000);
        assert!(decode(&bomb).unwrap_err().0.contains("expands beyond"));
    }
}

/// Rounds every counter of `kernels` to the precision a link carries, so that a view and the
/// same view reopened from its address show identical numbers and pixels. The app applies it
/// to every dataset it shows; the CLI's `analyze` keeps full precision.
pub fn quantise_kernels(kernels: &mut [crate::domain::profile::KernelProfile]) {
    for k in kernels {
        let measured: Vec<_> = k.counters.iter().collect();
        for (c, v) in measured {
            k.counters.set(c, quantise(v));
        }
    }
}

#[cfg(test)]
mod quantise_tests {
    use super::*;
    use crate::domain::counters::{Counter, Counters};
    use crate::domain::profile::KernelProfile;

    #[test]
    fn quantised_kernels_survive_a_link_unchanged() {
        let mut c = Counters::default();
        c.set(Counter::DramBytes, 5_920_456_608.0);
        c.set(Counter::TimeS, 0.066_273_480_186);
        let mut ks = vec![KernelProfile { name: "k".into(), launches: 8, counters: c }];
        quantise_kernels(&mut ks);
        assert_ne!(ks[0].counters.get(Counter::DramBytes), Some(5_920_456_608.0), "24-bit values");
        let rel = (ks[0].counters.get(Counter::DramBytes).unwrap() - 5_920_456_608.0).abs() / 5_920_456_608.0;
        assert!(rel < 2f64.powi(-16), "{rel}");
        let view = View::new(&crate::model::catalogue::v100(), &ks);
        let back = decode(&encode(&view).unwrap().fragment).unwrap();
        assert_eq!(back.kernel_profiles(), ks);
    }
}
