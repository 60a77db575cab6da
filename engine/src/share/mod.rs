//! The view in the page address: `#v1.<base64url(deflate(JSON))>`.
//!
//! The fragment is never sent to a server. The JSON carries the aggregated per-kernel
//! counters the charts need (not the raw CSV), the machine and the chart settings. Decoding
//! is strict: an unknown version, bad base64, a corrupt or oversized deflate stream, or JSON of
//! the wrong shape is an error with a reason, never a panic.

mod base64url;

use crate::counters::Counters;
use crate::profile::KernelProfile;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The link schema version this build writes.
pub const VERSION: &str = "v1";

/// Largest decompressed view accepted, bytes: protects against decompression bombs.
pub const MAX_DECODED_BYTES: usize = 16 * 1024 * 1024;

/// Everything needed to redraw a view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// Catalogue machine id.
    pub machine: String,
    /// Chart mode (`classic`, …).
    pub mode: String,
    /// Selected kernel index, if any.
    #[serde(default)]
    pub selected: Option<usize>,
    pub kernels: Vec<SharedKernel>,
}

/// A kernel as it travels in a link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedKernel {
    pub name: String,
    pub launches: u64,
    pub counters: Counters,
}

impl From<&KernelProfile> for SharedKernel {
    fn from(k: &KernelProfile) -> Self {
        SharedKernel { name: k.name.clone(), launches: k.launches, counters: k.counters.clone() }
    }
}

impl From<&SharedKernel> for KernelProfile {
    fn from(k: &SharedKernel) -> Self {
        KernelProfile { name: k.name.clone(), launches: k.launches, counters: k.counters.clone() }
    }
}

/// Why a link could not be opened.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this link cannot be opened: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Encodes a view as a fragment (without the leading `#`).
pub fn encode(view: &View) -> String {
    let json = serde_json::to_vec(view).expect("a View always serialises");
    let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{VERSION}.{}", base64url::encode(&packed))
}

/// Decodes a fragment (with or without the leading `#`).
pub fn decode(fragment: &str) -> Result<View, DecodeError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let (version, payload) = fragment
        .split_once('.')
        .ok_or_else(|| DecodeError("it has no version prefix (expected \"#v1.…\")".into()))?;
    if version != VERSION {
        return Err(DecodeError(format!("version \"{version}\" is not known to this build (it reads {VERSION})")));
    }
    let packed = base64url::decode(payload)
        .map_err(|at| DecodeError(format!("it is damaged (not base64url at character {at}); was it cut or altered?")))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_DECODED_BYTES).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            DecodeError(format!("it expands beyond {} MB", MAX_DECODED_BYTES / (1024 * 1024)))
        } else {
            DecodeError("it is damaged (the compressed data is truncated or altered)".into())
        }
    })?;
    serde_json::from_slice(&json).map_err(|e| DecodeError(format!("its content is not a valid view ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::Counter;

    fn view() -> View {
        let mut counters = Counters::default();
        counters.set(Counter::DramBytes, 8e9);
        counters.set(Counter::Fp64Flops, 5e8);
        counters.set(Counter::TimeS, 0.010582);
        View {
            machine: "v100".into(),
            mode: "classic".into(),
            selected: Some(0),
            kernels: vec![SharedKernel { name: "ax_kernel<\"q\">".into(), launches: 3, counters }],
        }
    }

    #[test]
    fn round_trip() {
        let v = view();
        let s = encode(&v);
        assert!(s.starts_with("v1."));
        assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "{s}");
        assert_eq!(decode(&format!("#{s}")).unwrap(), v);
    }

    #[test]
    fn bad_links_say_why() {
        let s = encode(&view());
        assert!(decode("v9.abc").unwrap_err().0.contains("v9"));
        assert!(decode("nodot").unwrap_err().0.contains("version"));
        assert!(decode(&format!("{}!", &s)).unwrap_err().0.contains("base64url"));
        assert!(decode(&s[..s.len() - 8]).unwrap_err().0.contains("damaged"));
    }

    #[test]
    fn decompression_bombs_are_capped() {
        let zeros = vec![b' '; MAX_DECODED_BYTES + 1];
        let bomb = format!("v1.{}", base64url::encode(&miniz_oxide::deflate::compress_to_vec(&zeros, 9)));
        assert!(bomb.len() < 40_000);
        assert!(decode(&bomb).unwrap_err().0.contains("expands beyond"));
    }
}
