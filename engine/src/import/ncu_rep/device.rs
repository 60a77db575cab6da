//! The GPU a report describes, from its `device__attribute_*` values: those of the session
//! (one set per device, arriving after the first result) and those each result carries.
//!
//! Until the shared Nsight Compute assembler (`ncu_metrics::LaunchMetrics`) takes these
//! over, only what identifies the machine is read: name, compute capability, SM count,
//! memory and L2 sizes, clocks and bus width (attribute names as the reports hold them;
//! clocks are stored in kHz).

use super::value::Value;
use crate::domain::Device;

/// Adds one attribute to `d` (others are ignored).
pub fn add_attribute(d: &mut Device, name: &str, value: Value<'_>) {
    let Some(attr) = name.strip_prefix("device__attribute_") else { return };
    let number = match value {
        Value::Number(v) if v.is_finite() && v >= 0.0 => Some(v),
        _ => None,
    };
    let int = number.filter(|v| v.fract() == 0.0 && *v <= f64::from(u32::MAX)).map(|v| v as u32);
    match (attr, value) {
        ("display_name", Value::Text(t)) if !t.trim().is_empty() => d.name = Some(crate::domain::device::clean_name(t)),
        ("compute_capability_major", _) => {
            if let Some(major) = int {
                d.compute_capability = Some((major, d.compute_capability.map_or(0, |c| c.1)));
            }
        }
        ("compute_capability_minor", _) => {
            if let Some(minor) = int {
                d.compute_capability = Some((d.compute_capability.map_or(0, |c| c.0), minor));
            }
        }
        ("multiprocessor_count", _) => d.sm_count = int.or(d.sm_count),
        ("total_memory", _) => d.memory_bytes = number.or(d.memory_bytes),
        ("l2_cache_size", _) => d.l2_bytes = number.or(d.l2_bytes),
        ("max_gpu_frequency_khz", _) => d.max_sm_clock_hz = number.map(|k| k * 1e3).or(d.max_sm_clock_hz),
        ("clock_rate", _) if d.max_sm_clock_hz.is_none() => d.max_sm_clock_hz = number.map(|k| k * 1e3),
        ("max_mem_frequency_khz", _) => d.memory_clock_hz = number.map(|k| k * 1e3).or(d.memory_clock_hz),
        ("memory_clock_rate", _) if d.memory_clock_hz.is_none() => d.memory_clock_hz = number.map(|k| k * 1e3),
        ("global_memory_bus_width", _) => d.memory_bus_bits = int.or(d.memory_bus_bits),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_in_any_order() {
        let mut d = Device::default();
        add_attribute(&mut d, "device__attribute_compute_capability_minor", Value::Number(0.0));
        add_attribute(&mut d, "device__attribute_clock_rate", Value::Number(1_980_000.0));
        add_attribute(&mut d, "device__attribute_compute_capability_major", Value::Number(9.0));
        add_attribute(&mut d, "device__attribute_display_name", Value::Text("NVIDIA GH200 480GB"));
        add_attribute(&mut d, "device__attribute_multiprocessor_count", Value::Number(132.0));
        add_attribute(&mut d, "launch__sm_count", Value::Number(1.0));
        let d = d.normalised();
        assert_eq!(d.compute_capability, Some((9, 0)));
        assert_eq!(d.arch.as_deref(), Some("sm_90"));
        assert_eq!(d.max_sm_clock_hz, Some(1.98e9));
        assert_eq!(d.sm_count, Some(132));
        assert_eq!(d.name.as_deref(), Some("NVIDIA GH200 480GB"));
    }
}
