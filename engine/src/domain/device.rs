//! The processor a profile ran on, as the profiler's file describes it.
//!
//! Formats say more or less: Nsight Compute's raw page carries dozens of
//! `device__attribute_*` values (name, compute capability, SM count, clocks, memory); its
//! details page only the `CC` column; nvprof the `Device` column ("Tesla V100-SXM2-16GB (0)");
//! rocprof-compute's `sysinfo.csv` the gfx target, CU count and clocks. Every field is
//! therefore optional, and [`crate::model::identify`] maps what there is onto a catalogue
//! machine (docs/MODEL.md, "Which machine").

use super::data_type::DataType;
use serde::{Deserialize, Serialize};

/// Who made the processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    Nvidia,
    Amd,
    Intel,
}

/// What a profile says about the processor that ran it. `None` means the file does not say.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Device {
    /// The name as the profiler prints it, without a device-index suffix: "NVIDIA B200",
    /// "Tesla V100-SXM2-16GB", "AMD Instinct MI210".
    pub name: Option<String>,
    pub vendor: Option<Vendor>,
    /// NVIDIA compute capability, (major, minor): (9, 0) for Hopper.
    pub compute_capability: Option<(u32, u32)>,
    /// The architecture as compilers name it: `sm_90` (from the compute capability), `gfx942`.
    pub arch: Option<String>,
    /// Streaming multiprocessors (NVIDIA), compute units (AMD) or Xe-cores (Intel).
    pub sm_count: Option<u32>,
    /// Device memory, bytes.
    pub memory_bytes: Option<f64>,
    /// L2 cache, bytes.
    pub l2_bytes: Option<f64>,
    /// The SM (shader engine) clock the device may run at, Hz: Nsight Compute's
    /// `device__attribute_max_gpu_frequency_khz` / `clock_rate`, rocprof-compute's `max_sclk`.
    pub max_sm_clock_hz: Option<f64>,
    /// Memory clock, Hz (`device__attribute_memory_clock_rate`, rocprof-compute `max_mclk`).
    pub memory_clock_hz: Option<f64>,
    /// Memory bus width, bits (`device__attribute_global_memory_bus_width`).
    pub memory_bus_bits: Option<u32>,
    /// The peak rates the profiler itself computed for this device, where the file has them.
    #[serde(default)]
    pub peaks: Option<DevicePeaks>,
}

/// The peaks a profiler computed for its device, as Nsight Compute's roofline sections use
/// them: per-cycle peaks (`*.peak_sustained`) of each pipe and memory unit, and the clocks
/// they run at, measured during the profile. Peak rate = per-cycle peak × clock (the section
/// files' "Theoretical … Operations" × "SM Frequency", "Theoretical DRAM Bytes Accessible" ×
/// "DRAM Frequency"). [`crate::model::profile_peaks`] turns them into a machine.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DevicePeaks {
    /// FP64/FP32/FP16 FLOPs per SM cycle over the device: 2 × DFMA/FFMA and 4 × HFMA2
    /// thread instructions per cycle (`derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2`).
    pub fp64_flops_per_cycle: Option<f64>,
    pub fp32_flops_per_cycle: Option<f64>,
    pub fp16_flops_per_cycle: Option<f64>,
    /// Dense matrix operations per SM cycle, per data type (`sm__ops_path_tensor_src_*.sum.peak_sustained`).
    pub matrix_ops_per_cycle: Vec<(DataType, f64)>,
    /// Warp instructions per SM cycle over the device (`sm__inst_executed.sum.peak_sustained`).
    pub warp_inst_per_cycle: Option<f64>,
    /// Bytes per cycle of each memory unit's own clock.
    pub dram_bytes_per_cycle: Option<f64>,
    pub l2_bytes_per_cycle: Option<f64>,
    pub l1_bytes_per_cycle: Option<f64>,
    /// The clocks those cycles are of, Hz, as measured (`dram__cycles_elapsed.avg.per_second`, …).
    pub dram_hz: Option<f64>,
    pub l2_hz: Option<f64>,
    pub l1_hz: Option<f64>,
}

impl DevicePeaks {
    pub fn is_empty(&self) -> bool {
        *self == DevicePeaks::default()
    }
}

impl Device {
    /// A device known only by its name (nvprof's `Device` column, a console header).
    pub fn named(name: &str) -> Device {
        Device { name: Some(clean_name(name)), ..Device::default() }.normalised()
    }

    /// Fills what follows from what is there: the vendor and `sm_XY` architecture from a
    /// compute capability, else the architecture of an older NVIDIA part from its product name
    /// ([`super::gpu_arch`]: nvprof names a "Tesla K80" or "GeForce GTX 760", never its compute
    /// capability), the vendor from a `gfx` architecture or from the name.
    pub fn normalised(mut self) -> Device {
        if let (None, Some((major, minor))) = (&self.arch, self.compute_capability) {
            self.arch = Some(format!("sm_{major}{minor}"));
        }
        if let (None, None, Some(name)) = (&self.arch, self.compute_capability, self.name.as_deref()) {
            if let Some((major, minor)) = super::gpu_arch::compute_capability_of_name(name) {
                self.arch = Some(format!("sm_{major}{minor}"));
            }
        }
        if self.vendor.is_none() {
            let name = self.name.as_deref().unwrap_or("").to_ascii_lowercase();
            let arch = self.arch.as_deref().unwrap_or("");
            self.vendor = if self.compute_capability.is_some() || arch.starts_with("sm_") || is_nvidia_name(&name) {
                Some(Vendor::Nvidia)
            } else if arch.starts_with("gfx") || name.contains("amd") || name.contains("instinct") || name.contains("radeon") {
                Some(Vendor::Amd)
            } else if name.contains("intel") {
                Some(Vendor::Intel)
            } else {
                None
            };
        }
        self
    }

    /// Whether the file said anything at all about the device.
    pub fn is_empty(&self) -> bool {
        *self == Device::default()
    }

    /// Copies every field `other` has and `self` lacks (two files of one run describing the
    /// same device, one with more attributes than the other).
    pub fn fill_from(&mut self, other: &Device) {
        macro_rules! fill {
            ($($f:ident),*) => { $( if self.$f.is_none() { self.$f = other.$f.clone(); } )* };
        }
        fill!(name, vendor, compute_capability, arch, sm_count, memory_bytes, l2_bytes, max_sm_clock_hz, memory_clock_hz, memory_bus_bits, peaks);
    }

    /// Whether two descriptions can be the same device: no field that both have differs.
    /// Names are compared without case and spaces ("Tesla V100-SXM2-16GB" = "tesla v100-sxm2-16gb").
    pub fn agrees_with(&self, other: &Device) -> bool {
        fn same<T: PartialEq>(a: &Option<T>, b: &Option<T>) -> bool {
            match (a, b) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            }
        }
        let names = match (&self.name, &other.name) {
            (Some(a), Some(b)) => a == b || squashed(a).eq(squashed(b)),
            _ => true,
        };
        names && same(&self.compute_capability, &other.compute_capability) && same(&self.arch, &other.arch) && same(&self.sm_count, &other.sm_count)
    }

    /// Whether the files know this device only by its index ("GPU 2", as rocprof's counter
    /// files name it): nothing to identify it by.
    pub fn known_by_index_only(&self) -> bool {
        let index = self.name.as_deref().and_then(|n| n.strip_prefix("GPU ")).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        index && self.arch.is_none() && self.sm_count.is_none() && self.compute_capability.is_none()
    }

    /// A short description for sentences: "NVIDIA A100-PCIE-40GB (sm_80, 108 SMs)".
    pub fn describe(&self) -> String {
        let name = self.name.clone().or_else(|| self.arch.as_ref().map(|a| format!("an {a} GPU"))).unwrap_or_else(|| "an unnamed device".into());
        let unit = if self.vendor == Some(Vendor::Amd) { "CUs" } else if self.vendor == Some(Vendor::Intel) { "Xe-cores" } else { "SMs" };
        let details: Vec<String> = [self.arch.clone().filter(|_| self.name.is_some()), self.sm_count.map(|n| format!("{n} {unit}"))]
            .into_iter()
            .flatten()
            .collect();
        if details.is_empty() {
            name
        } else {
            format!("{name} ({})", details.join(", "))
        }
    }
}

/// A name as profilers print it without decoration: nvprof's trailing device index
/// ("Tesla V100-SXM2-16GB (0)") and surrounding quotes and spaces removed.
pub fn clean_name(name: &str) -> String {
    let t = name.trim().trim_matches('"').trim();
    let t = match t.rfind(" (") {
        Some(i) if t.ends_with(')') && t[i + 2..t.len() - 1].bytes().all(|b| b.is_ascii_digit()) && i + 3 < t.len() => &t[..i],
        _ => t,
    };
    t.trim().to_string()
}

/// `s` without whitespace, ASCII letters in lower case, as characters: compared without
/// allocating (an Nsight Compute page compares every launch's device with the file's devices;
/// two `String`s per launch were ≈ 3 % of reading a raw page, docs/PERFORMANCE.md). Device names
/// are ASCII; Unicode's case tables would be 11.7 KB of the app's wasm.
fn squashed(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars().filter(|c| !c.is_whitespace()).map(|c| c.to_ascii_lowercase())
}

fn is_nvidia_name(lower: &str) -> bool {
    ["nvidia", "tesla", "geforce", "quadro", "titan"].iter().any(|w| lower.contains(w))
        || lower.starts_with("rtx")
        || lower.starts_with("gtx")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvprof_names_lose_their_index() {
        assert_eq!(clean_name("Tesla V100-SXM2-16GB (0)"), "Tesla V100-SXM2-16GB");
        assert_eq!(clean_name("\"GeForce GTX 1070 (0)\""), "GeForce GTX 1070");
        assert_eq!(clean_name("NVIDIA A100 (PCIe)"), "NVIDIA A100 (PCIe)");
        assert_eq!(clean_name(" (0)"), "(0)");
    }

    #[test]
    fn compute_capability_gives_arch_and_vendor() {
        let d = Device { compute_capability: Some((9, 0)), ..Device::default() }.normalised();
        assert_eq!((d.arch.as_deref(), d.vendor), (Some("sm_90"), Some(Vendor::Nvidia)));
        let d = Device { arch: Some("gfx942".into()), ..Device::default() }.normalised();
        assert_eq!(d.vendor, Some(Vendor::Amd));
        assert_eq!(Device::named("GeForce GTX 1080 Ti").vendor, Some(Vendor::Nvidia));
    }

    #[test]
    fn descriptions_merge_and_compare() {
        let mut a = Device { name: Some("NVIDIA B200".into()), ..Device::default() };
        let b = Device { name: Some("nvidia  b200".into()), sm_count: Some(148), compute_capability: Some((10, 0)), ..Device::default() };
        assert!(a.agrees_with(&b));
        a.fill_from(&b);
        assert_eq!(a.normalised().describe(), "NVIDIA B200 (sm_100, 148 SMs)");
        let c = Device { sm_count: Some(132), ..Device::default() };
        assert!(!b.agrees_with(&c));
    }
}
