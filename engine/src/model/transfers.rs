//! The transfer roofline: host↔device copies against the link they cross (GPU course slides,
//! "PCI-E bandwidth (roofline model)": "We must recalibrate the model for PCI-E 3.0:
//! Performance = min{Peak Floprate, Flops / Transfers × 32 GB/s}").
//!
//! Copies and memsets are not kernels: each is a dot of achieved bytes/s against the
//! bandwidth of what it crosses. Host↔device copies cross the first PCIe link of the machine;
//! peer copies the NVLink if there is one, else PCIe; device-to-device copies read and write
//! device memory, so their roof is half the DRAM bandwidth; memsets only write it, so theirs
//! is the DRAM bandwidth.

use super::classic::attainable_flops_per_s;
use super::machine::{Level, Machine};
use crate::domain::Transfer;
use serde::Serialize;

/// What a copy does, from its name as profilers print it (nvprof `[CUDA memcpy HtoD]`, Nsight
/// Systems `Host-to-Device`, rocprof `CopyHostToDevice`, `[CUDA memset]`, `FillBuffer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TransferKind {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
    PeerToPeer,
    Memset,
    Other,
}

impl TransferKind {
    pub fn of(name: &str) -> TransferKind {
        let n: String = name.to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        if n.contains("memset") || n.contains("fillbuffer") {
            TransferKind::Memset
        } else if n.contains("htod") || n.contains("hosttodevice") {
            TransferKind::HostToDevice
        } else if n.contains("dtoh") || n.contains("devicetohost") {
            TransferKind::DeviceToHost
        } else if n.contains("ptop") || n.contains("peertopeer") {
            TransferKind::PeerToPeer
        } else if n.contains("dtod") || n.contains("devicetodevice") {
            TransferKind::DeviceToDevice
        } else {
            TransferKind::Other
        }
    }
}

/// One transfer (all calls of one name) on the transfer roofline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TransferPoint {
    pub name: String,
    pub kind: TransferKind,
    pub count: u64,
    pub bytes: Option<f64>,
    pub time_s: Option<f64>,
    /// Achieved bytes / time; `null` unless both are known and the time is positive.
    pub bytes_per_s: Option<f64>,
    /// What bounds it ("PCIe 3.0 x16", "HBM2 (read + write)"); `null` without a machine.
    pub roof: Option<String>,
    pub roof_bytes_per_s: Option<f64>,
    /// bytes_per_s / roof_bytes_per_s.
    pub attained_fraction: Option<f64>,
}

/// The roof of a transfer on a machine: name and bytes/s.
///
/// Host↔device copies cross the host link: PCIe, or on a superchip (GH200, GB200) the
/// NVLink-C2C to its Grace CPU; peer copies cross the GPU-to-GPU NVLink (never the C2C, which
/// reaches the CPU only), else the host link.
pub fn roof(kind: TransferKind, m: &Machine) -> Option<(String, f64)> {
    let is_c2c = |name: &str| name.starts_with("NVLink-C2C");
    let host = || m.links.iter().find(|l| l.name.starts_with("PCIe")).or_else(|| m.links.iter().find(|l| is_c2c(&l.name))).or(m.links.first());
    match kind {
        TransferKind::HostToDevice | TransferKind::DeviceToHost | TransferKind::Other => host().map(|l| (l.name.clone(), l.bytes_per_s)),
        TransferKind::PeerToPeer => m.links.iter().find(|l| l.name.starts_with("NVLink") && !is_c2c(&l.name)).or_else(host).map(|l| (l.name.clone(), l.bytes_per_s)),
        TransferKind::DeviceToDevice => m.memory_level(Level::Dram).map(|d| (format!("{} (read + write)", d.name), d.bytes_per_s / 2.0)),
        TransferKind::Memset => m.memory_level(Level::Dram).map(|d| (d.name.clone(), d.bytes_per_s)),
    }
}

/// Every transfer as a dot on the transfer roofline.
pub fn transfer_points(transfers: &[Transfer], machine: Option<&Machine>) -> Vec<TransferPoint> {
    transfers
        .iter()
        .map(|t| {
            let kind = TransferKind::of(&t.name);
            let bytes_per_s = match (t.bytes, t.time_s) {
                (Some(b), Some(s)) if s > 0.0 => Some(b / s),
                _ => None,
            };
            let r = machine.and_then(|m| roof(kind, m));
            TransferPoint {
                name: t.name.clone(),
                kind,
                count: t.count,
                bytes: t.bytes,
                time_s: t.time_s,
                bytes_per_s,
                attained_fraction: bytes_per_s.zip(r.as_ref()).map(|(b, r)| b / r.1),
                roof_bytes_per_s: r.as_ref().map(|r| r.1),
                roof: r.map(|r| r.0),
            }
        })
        .collect()
}

/// Attainable FLOP/s of an offloaded computation whose data crosses the link: the classic
/// roofline with the link's bandwidth and FLOPs per byte moved over the link (course slides).
pub fn offload_attainable_flops_per_s(flops_per_link_byte: f64, peak_flops_per_s: f64, link_bytes_per_s: f64) -> f64 {
    attainable_flops_per_s(flops_per_link_byte, peak_flops_per_s, link_bytes_per_s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_profiler_names() {
        assert_eq!(TransferKind::of("[CUDA memcpy HtoD]"), TransferKind::HostToDevice);
        assert_eq!(TransferKind::of("[CUDA memcpy Device-to-Host]"), TransferKind::DeviceToHost);
        assert_eq!(TransferKind::of("CopyDeviceToDevice"), TransferKind::DeviceToDevice);
        assert_eq!(TransferKind::of("[CUDA memset]"), TransferKind::Memset);
        assert_eq!(TransferKind::of("[CUDA memcpy PtoP]"), TransferKind::PeerToPeer);
    }

    #[test]
    fn ax_with_copies_is_bound_by_pcie() {
        // Course slides: AX with the copies, n = 500e6 doubles: n FLOPs over 16n bytes crossing
        // PCIe 3.0 at "32 GB/s" → at most 2 GFLOP/s; measured 0.3 GFLOP/s in 1.652748 s.
        let n = 500e6;
        let roof = offload_attainable_flops_per_s(n / (16.0 * n), 7000e9, 32e9);
        assert_eq!(roof, 2e9);
        let measured = n / 1.652748;
        assert!((measured / 1e9 - 0.30).abs() < 0.005, "{measured}");
        assert!(measured < roof);
    }

    /// HGX B200's host link is PCIe 5.0 x16 (63.015 GB/s per direction), not NVLink 5's 900;
    /// a GB200's is the NVLink-C2C to Grace (450 per direction), and its peer copies take
    /// NVLink 5.
    #[test]
    fn blackwell_copies_cross_their_host_link() {
        use super::super::catalogue::{b200, gb200, gh200};
        let host = |m: &Machine| roof(TransferKind::HostToDevice, m).map(|(n, b)| (n, (b / 1e9 * 1000.0).round() / 1000.0));
        let peer = |m: &Machine| roof(TransferKind::PeerToPeer, m).map(|(n, b)| (n, b / 1e9));
        assert_eq!(host(&b200()), Some(("PCIe 5.0 x16".to_string(), 63.015)));
        assert_eq!(peer(&b200()), Some(("NVLink 5".to_string(), 900.0)));
        assert_eq!(host(&gb200()), Some(("NVLink-C2C".to_string(), 450.0)));
        assert_eq!(peer(&gb200()), Some(("NVLink 5".to_string(), 900.0)));
        assert_eq!(peer(&gh200()), Some(("NVLink 4".to_string(), 450.0)));
    }

    #[test]
    fn copies_against_the_v100_link() {
        let m = super::super::catalogue::v100();
        let t = Transfer { name: "[CUDA memcpy HtoD]".into(), count: 1, bytes: Some(4e9), time_s: Some(0.4) };
        let p = &transfer_points(&[t], Some(&m))[0];
        assert_eq!(p.roof.as_deref(), Some("PCIe 3.0 x16"));
        assert!((p.attained_fraction.unwrap_or(0.0) - 1e10 / (16e9 * 128.0 / 130.0)).abs() < 1e-9);
        let t = Transfer { name: "[CUDA memset]".into(), count: 3, bytes: None, time_s: Some(0.1) };
        assert_eq!(transfer_points(&[t], None)[0].bytes_per_s, None);
    }
}
