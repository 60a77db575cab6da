//! One report result → one launch: its metrics are handed, by name and in the unit the
//! report stores them in, to the assembler every Nsight Compute format shares
//! ([`LaunchMetrics`]), which turns them into counters (deriving counts from the per-cycle
//! and per-second rates full-set reports store), the device and its peaks. Numbers go in as
//! [`LaunchMetrics::native`], strings (`device__attribute_display_name`, …) as
//! [`LaunchMetrics::text`]; instanced values are not used (a metric's own value is its total
//! or its rollup).

use super::messages::DeviceAttributes;
use super::report::ResultView;
use super::value::{value_of, Value};
use crate::domain::Device;
use crate::error::ImportError;
use crate::import::ncu_metrics::{LaunchMetrics, NcuLaunch};

/// Feeds one metric to `m`.
fn feed(m: &mut LaunchMetrics, name: &str, value: Value<'_>) {
    match value {
        Value::Number(v) => m.native(name, v),
        Value::Text(t) => m.text(name, t),
        Value::None => {}
    }
}

/// The launch a result describes (module doc); an error for a metric whose name is not in
/// the string table.
pub fn launch_from_result(file: &str, view: &ResultView<'_>) -> Result<NcuLaunch, ImportError> {
    let mut m = LaunchMetrics::new();
    for metric in view.metrics() {
        let metric = metric.map_err(|e| ImportError::new(file, None, format!("at byte {}: result {}: {e}", view.at, view.index + 1)))?;
        feed(&mut m, metric.name, metric.value());
    }
    Ok(m.finish())
}

/// The device a session's attribute list describes (its `device__attribute_*` values read
/// as a launch's would be), named by the session when no attribute names it.
pub fn session_device(d: &DeviceAttributes) -> Option<Device> {
    let mut m = LaunchMetrics::new();
    for a in &d.attributes {
        feed(&mut m, a.name.as_deref().unwrap_or(""), value_of(a.value.as_ref()));
    }
    if let Some(name) = d.name.as_deref().filter(|n| !n.trim().is_empty()) {
        m.text("device__attribute_display_name", name);
    }
    m.finish().device
}
