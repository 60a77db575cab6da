//! Which machine a profile's device is: the catalogue entry for it, or one derived from its
//! attributes, or none (docs/MODEL.md, "Which machine").
//!
//! 1. **By name.** Profilers print the product name ("Tesla V100-SXM2-16GB", "NVIDIA
//!    A100-PCIE-40GB", "NVIDIA B200", "AMD Instinct MI300X"): its words pick the entry
//!    (form factor and memory words too: PCIe, 40GB). The device's own attributes still win
//!    over the name: a device with fewer SMs than its entry (a MIG slice "A100-SXM4-40GB MIG
//!    3g.20gb" with 42 SMs, an MI300X compute partition with 38 CUs) gets the entry scaled to
//!    its part ([`super::catalogue::partition`]), with a note.
//! 2. **By architecture.** A compute capability or gfx target alone (Nsight Compute's details
//!    page has only `CC`) picks the catalogue entries of that architecture, and what else the
//!    file says chooses among them: the SM count (132 SMs at CC 9.0 is an H100 SXM or H200,
//!    114 an H100 PCIe), the memory size (H100 80 GB vs H200 141 GB), the memory clock (the
//!    details page's "DRAM Frequency": 2.62 GHz on an H100 SXM, 3.20 on an H200), the clock (a 765 MHz
//!    measured clock at CC 8.0 is an A100 PCIe locked to its base clock: the SXM's base is
//!    1095 MHz). Without any of these, the architecture's first entry (the data-centre part
//!    profiled most) stands, with a note saying it was assumed.
//! 3. **Derived.** A device of a known architecture that matches no entry (a GeForce part, an
//!    unreleased SKU) gets a machine built from its attributes: SMs × clock × the per-SM
//!    rates of its architecture ([`super::catalogue::derived_machine`]), with a note.
//! 4. Otherwise the device is named and no roof is invented.

use super::catalogue;
use super::machine::Machine;
use crate::domain::Device;

/// How a device was matched to a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Match {
    /// The product name names a catalogue entry.
    Name,
    /// The architecture (and SM count, memory, clock) picks a catalogue entry.
    Architecture,
    /// No entry fits: a machine derived from the device's attributes.
    Derived,
}

/// A device's machine and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Identified {
    pub machine: Machine,
    pub how: Match,
    /// What was assumed, for the sentence above the chart ("the file names only CC 8.0: an
    /// A100 SXM4 80GB is assumed").
    pub note: Option<String>,
}

/// Catalogue ids by the words of product names, most specific first. A rule matches when every
/// word in `all` is one of the name's words (or, for words ending in `*`, a prefix of one) and
/// none of `none` is.
struct NameRule {
    all: &'static [&'static str],
    none: &'static [&'static str],
    id: &'static str,
}

const fn rule(all: &'static [&'static str], none: &'static [&'static str], id: &'static str) -> NameRule {
    NameRule { all, none, id }
}

/// Product names as `nvidia-smi`, Nsight Compute, nvprof and ROCm print them.
const NAME_RULES: &[NameRule] = &[
    rule(&["gh200"], &[], "gh200"),
    rule(&["gb200"], &[], "gb200"),
    rule(&["b200"], &[], "b200"),
    rule(&["h200"], &[], "h200"),
    rule(&["h100", "nvl"], &[], "h100-nvl"),
    rule(&["h100", "pcie"], &[], "h100-pcie"),
    rule(&["h100"], &[], "h100"),
    rule(&["h20"], &[], "h20"),
    rule(&["a100", "pcie", "40gb"], &[], "a100-pcie-40gb"),
    rule(&["a100", "pcie"], &[], "a100-pcie"),
    rule(&["a100", "40gb"], &[], "a100-40gb"),
    rule(&["a100"], &[], "a100"),
    rule(&["a10"], &[], "a10"),
    rule(&["l40s"], &[], "l40s"),
    rule(&["l40"], &[], "l40"),
    rule(&["l4"], &[], "l4"),
    rule(&["t4"], &[], "t4"),
    rule(&["v100", "pcie"], &[], "v100-pcie"),
    rule(&["v100"], &[], "v100"),
    rule(&["p100", "pcie"], &[], "p100-pcie"),
    rule(&["p100"], &[], "p100"),
    rule(&["4090"], &[], "rtx4090"),
    rule(&["5090"], &[], "rtx5090"),
    rule(&["5080"], &[], "rtx5080"),
    rule(&["5070", "ti"], &[], "rtx5070ti"),
    rule(&["5070"], &["ti"], "rtx5070"),
    rule(&["5060", "ti"], &[], "rtx5060ti"),
    rule(&["5060"], &["ti"], "rtx5060"),
    rule(&["mi355x"], &[], "mi355x"),
    rule(&["mi350x"], &[], "mi350x"),
    rule(&["mi325x"], &[], "mi325x"),
    rule(&["mi300x"], &[], "mi300x"),
    rule(&["mi300a"], &[], "mi300a"),
    // ROCm shows each MI250X/MI250 graphics compute die as a device, and a kernel runs on one.
    rule(&["mi250x"], &[], "mi250x-gcd"),
    rule(&["mi250"], &[], "mi250x-gcd"),
    rule(&["mi210"], &[], "mi210"),
    rule(&["max", "1550"], &[], "max1550"),
];

/// The lower-case alphanumeric words of a name: "NVIDIA A100-PCIE-40GB" → nvidia, a100, pcie, 40gb.
fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_ascii_lowercase).collect()
}

/// The catalogue id a product name names, if a rule matches.
pub fn id_by_name(name: &str) -> Option<&'static str> {
    rule_by_name(name).map(|r| r.id)
}

/// The rule a product name matches, if any.
fn rule_by_name(name: &str) -> Option<&'static NameRule> {
    // A MIG slice's profile ("… MIG 3g.40gb") names the slice's memory, not the GPU's.
    let (gpu, _) = catalogue::partition::split_mig(name);
    NAME_RULES.iter().find(|r| r.matches(&words(&gpu)))
}

impl NameRule {
    /// Whether a name of these words is one this rule picks.
    fn matches(&self, ws: &[String]) -> bool {
        let has = |w: &str| ws.iter().any(|x| x == w);
        self.all.iter().all(|w| has(w)) && !self.none.iter().any(|w| has(w))
    }
}

/// The machine of a device (module doc), given the SM clock measured in the profile (which
/// tells an A100 PCIe locked to 765 MHz from an SXM). `None`: the device could not be matched
/// and no machine can be derived.
pub fn identify(device: &Device, measured_sm_clock_hz: Option<f64>) -> Option<Identified> {
    if let Some(rule) = device.name.as_deref().and_then(rule_by_name) {
        if let Some(m) = catalogue::by_id(rule.id) {
            // A MIG slice reports its own memory, not the GPU's: its name's memory word decides.
            let mig = device.name.as_deref().and_then(catalogue::partition::mig_profile).is_some();
            let m = if mig { m } else { refine_by_memory(m, device, rule) };
            if let Some((part, note)) = catalogue::partition::part_of(&m, device) {
                return Some(Identified { machine: part, how: Match::Derived, note: Some(note) });
            }
            return Some(Identified { machine: m, how: Match::Name, note: None });
        }
    }
    let arch = device.arch.as_deref()?;
    let candidates: Vec<Machine> = catalogue::all().into_iter().filter(|m| m.arch.as_deref() == Some(arch)).collect();
    if let Some((m, assumed)) = by_attributes(&candidates, device, measured_sm_clock_hz) {
        let note = assumed.then(|| format!("the profile names only {}: {} is assumed", what_is_known(device), m.name));
        return Some(Identified { machine: m, how: Match::Architecture, note });
    }
    let derived = catalogue::derived_machine(device)?;
    let note = format!("{} is not in the catalogue: its roofs are derived from its attributes ({})", device.describe(), derived.source);
    Some(Identified { machine: derived, how: Match::Derived, note: Some(note) })
}

/// A name's rule may pick an entry of the wrong memory size where the name does not say it
/// ("NVIDIA A100-SXM4" on a 40 GB card): the sibling of the same architecture and SM count
/// whose memory is nearest the device's wins. Siblings are only the entries the same rule's
/// words name (an "NVIDIA GH200 480GB", 95 GB reported, is a GH200, never the 94 GB "H100
/// NVL" beside it).
fn refine_by_memory(m: Machine, device: &Device, rule: &NameRule) -> Machine {
    let Some(bytes) = device.memory_bytes else { return m };
    let siblings: Vec<Machine> = catalogue::all()
        .into_iter()
        .filter(|s| s.arch == m.arch && s.sm_count == m.sm_count && s.vendor == m.vendor && s.memory_bytes.is_some() && same_form(s, &m) && rule.matches(&words(&s.name)))
        .collect();
    let nearest = siblings.into_iter().min_by(|a, b| memory_distance(a, bytes).total_cmp(&memory_distance(b, bytes)));
    nearest.filter(|n| memory_distance(n, bytes) < memory_distance(&m, bytes)).unwrap_or(m)
}

/// Whether two entries are the same form factor (PCIe or not), by their names.
fn same_form(a: &Machine, b: &Machine) -> bool {
    let pcie = |m: &Machine| words(&m.name).iter().any(|w| w == "pcie");
    pcie(a) == pcie(b)
}

/// How far an entry's memory is from the device's: the ratio's distance from 1 (memory
/// reported by the driver is a little less than the data sheet's).
fn memory_distance(m: &Machine, bytes: f64) -> f64 {
    m.memory_bytes.map_or(f64::INFINITY, |mb| (bytes / mb).ln().abs())
}

/// Memory clocks of catalogue entries that share an architecture and SM count with another
/// entry but not its memory, Hz, as `nvidia-smi` prints them ("Max Clocks: Memory") and
/// Nsight Compute measures them (`dram__cycles_elapsed.avg.per_second`, "DRAM Frequency"):
/// - `h100`: 2619 MHz; ncu 2.62 GHz (an "NVIDIA H100 80GB HBM3", tests/fixtures/ncu-hopper/h100);
/// - `h200`: 3201 MHz; ncu 3.20 GHz (an "NVIDIA H200", tests/fixtures/ncu-hopper/h200);
/// - `gh200`: `device__attribute_memory_clock_rate` 2619000 kHz (the cs599k GH200 reports);
/// - `h100-nvl`: 2593 MHz, what its data sheet's 3.9 TB/s needs on its 6016-bit bus (2 × 2593
///   MHz × 6016 / 8 = 3900 GB/s), so that an NVL's clock keeps it among the candidates.
const MEMORY_CLOCKS_HZ: &[(&str, f64)] = &[("h100", 2619e6), ("h200", 3201e6), ("gh200", 2619e6), ("h100-nvl", 2593e6)];

/// How far a memory clock may be from an entry's to pick it: 5% (the details page rounds the
/// clock to 10 MHz; HBM generations differ by 20% and more).
const MEMORY_CLOCK_TOLERANCE: f64 = 0.05;

/// The entries of `pool` whose memory clock is the device's, where the device's memory clock
/// is known and some entry's is within [`MEMORY_CLOCK_TOLERANCE`] of it; else `pool`.
fn by_memory_clock<'a>(pool: Vec<&'a Machine>, device: &Device) -> Vec<&'a Machine> {
    let Some(hz) = device.memory_clock_hz.filter(|h| h.is_finite() && *h > 0.0) else { return pool };
    let near = |m: &Machine| MEMORY_CLOCKS_HZ.iter().find(|(id, _)| *id == m.id).is_some_and(|(_, c)| (hz / c - 1.0).abs() <= MEMORY_CLOCK_TOLERANCE);
    let matching: Vec<&Machine> = pool.iter().copied().filter(|m| near(m)).collect();
    if matching.is_empty() {
        pool
    } else {
        matching
    }
}

/// The candidate the device's attributes fit best, and whether it was assumed (nothing but
/// the architecture known). `None` when the SM count is known and no candidate has it.
fn by_attributes(candidates: &[Machine], device: &Device, measured_sm_clock_hz: Option<f64>) -> Option<(Machine, bool)> {
    let pool: Vec<&Machine> = match device.sm_count {
        Some(n) => candidates.iter().filter(|m| m.sm_count == Some(n)).collect(),
        None => candidates.iter().collect(),
    };
    let wide = pool.len();
    let pool = by_memory_clock(pool, device);
    let first = *pool.first()?;
    if pool.len() == 1 {
        let narrowed = pool.len() < wide;
        return Some((first.clone(), !narrowed && device.sm_count.is_none() && candidates.len() > 1));
    }
    if let Some(bytes) = device.memory_bytes {
        let best = pool.iter().min_by(|a, b| memory_distance(a, bytes).total_cmp(&memory_distance(b, bytes)))?;
        return Some(((*best).clone(), false));
    }
    // A clock: the device's maximum, else the measured one, nearest to an entry's boost or base.
    let clock = device.max_sm_clock_hz.map(|c| (c, false)).or_else(|| measured_sm_clock_hz.map(|c| (c, true)));
    if let Some((hz, measured)) = clock {
        let distance = |m: &Machine| {
            let near = |c: Option<f64>| c.map_or(f64::INFINITY, |c| (hz / c).ln().abs());
            if measured {
                near(m.base_clock_hz).min(near(m.boost_clock_hz))
            } else {
                near(m.boost_clock_hz)
            }
        };
        let best = pool.iter().min_by(|a, b| distance(a).total_cmp(&distance(b)))?;
        return Some(((*best).clone(), false));
    }
    Some((first.clone(), true))
}

/// What the profile said about a device that only its architecture identified.
fn what_is_known(d: &Device) -> String {
    match (d.compute_capability, d.arch.as_deref()) {
        (Some((a, b)), _) => format!("compute capability {a}.{b}"),
        (None, Some(arch)) => format!("the architecture {arch}"),
        (None, None) => "nothing about its device".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_names_pick_entries() {
        assert_eq!(id_by_name("Tesla V100-SXM2-16GB"), Some("v100"));
        assert_eq!(id_by_name("Tesla V100-PCIE-32GB"), Some("v100-pcie"));
        assert_eq!(id_by_name("NVIDIA A100-PCIE-40GB"), Some("a100-pcie-40gb"));
        assert_eq!(id_by_name("NVIDIA A100 80GB PCIe"), Some("a100-pcie"));
        assert_eq!(id_by_name("NVIDIA A100-SXM4-40GB"), Some("a100-40gb"));
        assert_eq!(id_by_name("NVIDIA A10"), Some("a10"));
        assert_eq!(id_by_name("NVIDIA H100 80GB HBM3"), Some("h100"));
        assert_eq!(id_by_name("NVIDIA H100 PCIe"), Some("h100-pcie"));
        assert_eq!(id_by_name("NVIDIA GH200 480GB"), Some("gh200"));
        assert_eq!(id_by_name("NVIDIA B200"), Some("b200"));
        assert_eq!(id_by_name("NVIDIA L40S"), Some("l40s"));
        assert_eq!(id_by_name("NVIDIA L4"), Some("l4"));
        assert_eq!(id_by_name("Tesla T4"), Some("t4"));
        assert_eq!(id_by_name("NVIDIA GeForce RTX 5070 Ti"), Some("rtx5070ti"));
        assert_eq!(id_by_name("NVIDIA GeForce RTX 5070"), Some("rtx5070"));
        assert_eq!(id_by_name("AMD Instinct MI250X/MI250"), Some("mi250x-gcd"));
        assert_eq!(id_by_name("AMD Instinct MI300X"), Some("mi300x"));
        assert_eq!(id_by_name("GeForce GTX 1080 Ti"), None);
        assert_eq!(id_by_name("NVIDIA H100 NVL"), Some("h100-nvl"));
        assert_eq!(id_by_name("NVIDIA H20"), Some("h20"));
        assert_eq!(id_by_name("NVIDIA L40"), Some("l40"));
        assert_eq!(id_by_name("NVIDIA L40S"), Some("l40s"));
        assert_eq!(id_by_name("NVIDIA A100-SXM4-40GB MIG 3g.20gb"), Some("a100-40gb"));
        assert_eq!(id_by_name("NVIDIA A100-SXM4-80GB MIG 3g.40gb"), Some("a100"));
    }

    fn dram_gbps(m: &Machine) -> f64 {
        m.memory_level(crate::model::Level::Dram).map_or(0.0, |l| l.bytes_per_s / 1e9)
    }

    fn tflops(m: &Machine, t: crate::domain::DataType) -> f64 {
        m.matrix_ceiling(t).map_or(0.0, |c| c.flops_per_s / 1e12)
    }

    /// The expert review's cases (issue 42): an H100 NVL is not an H100 PCIe, an L40 not an
    /// L40S, an H20 not a full Hopper, a MIG slice not the whole A100.
    #[test]
    fn the_device_not_a_similar_name_decides() {
        use crate::domain::DataType;
        // NVIDIA H100 NVL: 132 SMs, 94 GB, 3.9 TB/s (data sheet).
        let nvl = Device { name: Some("NVIDIA H100 NVL".into()), compute_capability: Some((9, 0)), sm_count: Some(132), memory_bytes: Some(99.9e9), ..Device::default() }.normalised();
        let i = identify(&nvl, None).expect("NVL");
        assert_eq!((i.machine.id.as_str(), i.machine.sm_count, i.how), ("h100-nvl", Some(132), Match::Name));
        assert!(dram_gbps(&i.machine) >= 3500.0, "{}", dram_gbps(&i.machine));
        // The same device known by attributes only (a details page): 132 SMs at CC 9.0, ~94
        // GB, a 2.59 GHz memory clock: the NVL, not the 96 GB GH200 nor the 80 GB H100.
        let bare = Device { name: None, memory_clock_hz: Some(2.593e9), ..nvl.clone() };
        assert_eq!(identify(&bare, None).map(|i| i.machine.id), Some("h100-nvl".into()));
        // L40: 142 SMs like the L40S, but FP16 matrix 181.05 TFLOPS (data sheet), not 366.5.
        let l40 = Device { name: Some("NVIDIA L40".into()), compute_capability: Some((8, 9)), sm_count: Some(142), ..Device::default() }.normalised();
        let i = identify(&l40, None).expect("L40");
        assert_eq!(i.machine.id, "l40");
        assert!((tflops(&i.machine, DataType::Fp16) - 181.05).abs() < 1e-9);
        // Known by attributes only: the L40's 2490 MHz maximum clock, not the L40S's 2520.
        let bare = Device { name: None, max_sm_clock_hz: Some(2490e6), ..l40 };
        assert_eq!(identify(&bare, None).map(|i| i.machine.id), Some("l40".into()));
        // H20: FP16 matrix 148 TFLOPS dense (≤ 160), not 78 SMs × 4096 × 1.5 GHz = 479.
        let h20 = Device { name: Some("NVIDIA H20".into()), compute_capability: Some((9, 0)), sm_count: Some(78), ..Device::default() }.normalised();
        let i = identify(&h20, None).expect("H20");
        assert_eq!(i.machine.id, "h20");
        assert!(tflops(&i.machine, DataType::Fp16) <= 160.0 && (tflops(&i.machine, DataType::Fp16) - 148.0).abs() < 1e-9);
        // MIG 3g.20gb of an A100 40GB: 42 SMs. FP16 matrix 42 × 2048 × 1.41 GHz = 121.28
        // TFLOPS (the whole A100: 312); DRAM 1555 ÷ 2 = 777.5 GB/s.
        let mig = Device { name: Some("NVIDIA A100-SXM4-40GB MIG 3g.20gb".into()), compute_capability: Some((8, 0)), sm_count: Some(42), ..Device::default() }.normalised();
        let i = identify(&mig, None).expect("MIG");
        assert_eq!((i.machine.sm_count, i.how), (Some(42), Match::Derived));
        assert!((tflops(&i.machine, DataType::Fp16) - 42.0 * 2048.0 * 1.41e9 / 1e12).abs() < 0.01 * 121.28, "{}", tflops(&i.machine, DataType::Fp16));
        assert!((dram_gbps(&i.machine) - 777.5).abs() < 1e-6);
        assert!(i.note.is_some_and(|n| n.starts_with("a MIG slice (3g.20gb)")));
        // An 80 GB A100's 3g.40gb slice reports 40 GB of memory: still the 80 GB part's slice,
        // DRAM 2039 ÷ 2 = 1019.5 GB/s (not the 40 GB part's whole 1555).
        let mig80 = Device { name: Some("NVIDIA A100-SXM4-80GB MIG 3g.40gb".into()), memory_bytes: Some(40.0e9), ..mig };
        let i = identify(&mig80, None).expect("MIG");
        assert!((dram_gbps(&i.machine) - 1019.5).abs() < 1e-6, "{}", dram_gbps(&i.machine));
    }

    #[test]
    fn a_name_in_the_catalogue_is_matched_by_name() {
        let d = Device::named("Tesla V100-SXM2-16GB (0)");
        let id = identify(&d, None).expect("V100");
        assert_eq!((id.machine.id.as_str(), id.how, id.note), ("v100", Match::Name, None));
    }

    #[test]
    fn architecture_and_sm_count_pick_among_entries() {
        // CC 9.0 with 132 SMs and ~80 GB: the H100 SXM, not the H200 (141 GB).
        let d = Device { compute_capability: Some((9, 0)), sm_count: Some(132), memory_bytes: Some(85.0e9), ..Device::default() }.normalised();
        assert_eq!(identify(&d, None).map(|i| (i.machine.id, i.how)), Some(("h100".into(), Match::Architecture)));
        let d = Device { memory_bytes: Some(150.0e9), ..d };
        assert_eq!(identify(&d, None).map(|i| i.machine.id), Some("h200".into()));
        // CC 7.0 alone: V100 assumed, and the note says so.
        let d = Device { compute_capability: Some((7, 0)), ..Device::default() }.normalised();
        let i = identify(&d, None).expect("sm_70");
        assert_eq!(i.machine.arch.as_deref(), Some("sm_70"));
        assert!(i.note.is_some_and(|n| n.starts_with("the profile names only compute capability 7.0")));
    }

    #[test]
    fn the_memory_clock_tells_an_h200_from_an_h100() {
        // What an Nsight Compute details page says of both: CC 9.0, 132 SMs, a measured SM
        // clock of 1.50 GHz (ncu's clock control), and the "DRAM Frequency": 3.20 GHz on the
        // H200 fixture, 2.62 GHz on the H100 one.
        let page = |dram_ghz: f64| Device { compute_capability: Some((9, 0)), sm_count: Some(132), memory_clock_hz: Some(dram_ghz * 1e9), ..Device::default() }.normalised();
        let h200 = identify(&page(3.20), Some(1.5e9)).expect("sm_90");
        assert_eq!((h200.machine.id.as_str(), h200.how, h200.note), ("h200", Match::Architecture, None));
        assert_eq!(identify(&page(2.62), Some(1.5e9)).map(|i| i.machine.id), Some("h100".into()));
        // A memory clock no entry has (another HBM): the clock decides nothing.
        assert_eq!(identify(&page(1.6), Some(1.5e9)).map(|i| i.machine.id), Some("h100".into()));
    }

    #[test]
    fn nothing_known_is_nothing_matched() {
        assert_eq!(identify(&Device::named("Some Accelerator"), None), None);
        assert_eq!(identify(&Device::default(), None), None);
    }
}
