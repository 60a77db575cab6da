//! The devices one file names, in order of first appearance: what [`super::Imported::devices`]
//! holds and [`crate::domain::Launch::device`] indexes.
//!
//! Profilers name a launch's device per row (nvprof's `Device` column, rocprof's `gpu-id`),
//! so an importer looks each row's device up here and gets its index; a name seen again is
//! the same device.

use crate::domain::Device;
use std::collections::HashMap;

/// Devices by the key the file writes them with (nvprof "GeForce GTX 760 (1)", rocprof "8").
#[derive(Default)]
pub struct DeviceList {
    devices: Vec<Device>,
    by_key: HashMap<String, u16>,
}

impl DeviceList {
    /// The index of the device the file writes as `key`, adding it (described by `make`) when
    /// first seen. `None` for an empty key, and past `u16::MAX` devices (no real file has them).
    pub fn index(&mut self, key: &str, make: impl FnOnce() -> Device) -> Option<u16> {
        let key = key.trim();
        if key.is_empty() {
            return None;
        }
        if let Some(&i) = self.by_key.get(key) {
            return Some(i);
        }
        let i = u16::try_from(self.devices.len()).ok()?;
        self.devices.push(make().normalised());
        self.by_key.insert(key.to_string(), i);
        Some(i)
    }

    /// A device known by its name, as nvprof prints it ("Tesla V100-SXM2-16GB (0)": the
    /// index in parentheses tells two boards of one model apart, the name drops it).
    pub fn named(&mut self, printed: &str) -> Option<u16> {
        self.index(printed, || Device::named(printed))
    }

    /// A device known only by an index, as rocprof's `gpu-id` / `GPU_ID` / `Agent_Id` columns
    /// give it (`8`, `Agent 4`): named "GPU 8", nothing else known.
    pub fn numbered(&mut self, cell: &str) -> Option<u16> {
        let t = cell.trim();
        let digits = t.trim_start_matches(|c: char| !c.is_ascii_digit());
        let number = digits.split(|c: char| !c.is_ascii_digit()).next().unwrap_or("");
        let key = if number.is_empty() { t } else { number };
        let name = if number.is_empty() { t.to_string() } else { format!("GPU {number}") };
        self.index(key, || Device { name: Some(name), ..Device::default() })
    }

    pub fn into_devices(self) -> Vec<Device> {
        self.devices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_indexed_by_first_appearance() {
        let mut l = DeviceList::default();
        assert_eq!(l.named("GeForce GTX 760 (1)"), Some(0));
        assert_eq!(l.named("Tesla K20c (0)"), Some(1));
        assert_eq!(l.named("GeForce GTX 760 (1)"), Some(0));
        assert_eq!(l.named("  "), None);
        assert_eq!(l.numbered("8"), Some(2));
        assert_eq!(l.numbered("Agent 8"), Some(2), "the same number is the same device");
        let d = l.into_devices();
        assert_eq!(d[0].name.as_deref(), Some("GeForce GTX 760"));
        assert_eq!(d[2].name.as_deref(), Some("GPU 8"));
        assert_eq!(d.len(), 3);
    }
}
