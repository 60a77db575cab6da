//! One report result → one launch's counters: the only place that turns a report's metric
//! names and values into the engine's counter vocabulary, so the switch to the shared
//! Nsight Compute assembler (`ncu_metrics::LaunchMetrics`, fed by the CSV pages too) is a
//! change here alone.
//!
//! Until then the CSV pages' map is used ([`ncu::metric_counter`], [`ncu::unit_scale`]):
//! a report holds no unit strings, values are in Nsight Compute's stored unit, which for
//! the mapped metrics is nanoseconds for `gpu__time_duration*` and the base unit (bytes,
//! cycles, instructions, cycles per second) for the rest.

use super::report::ResultView;
use super::value::Value;
use super::device::add_attribute;
use crate::domain::counters::{Counter, Counters};
use crate::domain::Device;
use crate::error::ImportError;
use crate::import::ncu;
use crate::import::sink::CounterSink;

/// A result read as a launch.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadLaunch<'a> {
    /// The kernel name as stored (demangled); cleaned by the caller.
    pub kernel: &'a str,
    pub counters: Counters,
    /// `launch__device_id`: which of the session's devices ran it.
    pub device_id: Option<u32>,
    /// The device as the result's `device__attribute_*` metrics describe it.
    pub device: Device,
}

/// The unit Nsight Compute stores a mapped counter's metric in, as the CSV pages name it.
fn stored_unit(c: Counter) -> &'static str {
    match c {
        Counter::TimeS => "ns",
        _ => "",
    }
}

/// The launch a result describes (module doc).
pub fn launch_from_result<'a>(file: &str, view: &ResultView<'a>) -> Result<ReadLaunch<'a>, ImportError> {
    let mut sink = CounterSink::default();
    let mut device_id = None;
    let mut device = Device::default();
    for metric in view.metrics() {
        let metric = metric.map_err(|e| ImportError::new(file, None, format!("at byte {}: result {}: {e}", view.at, view.index + 1)))?;
        if metric.name.starts_with("device__attribute_") {
            add_attribute(&mut device, metric.name, metric.value());
            continue;
        }
        let Value::Number(v) = metric.value() else { continue };
        if !v.is_finite() {
            continue;
        }
        if metric.name == "launch__device_id" && v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) {
            device_id = Some(v as u32);
        }
        let Some((counter, additive)) = ncu::metric_counter(metric.name) else { continue };
        let Some(scale) = ncu::unit_scale(stored_unit(counter)) else { continue };
        sink.put(counter, additive, v * scale);
    }
    Ok(ReadLaunch { kernel: view.kernel_name(), counters: sink.into_counters(), device_id, device })
}
