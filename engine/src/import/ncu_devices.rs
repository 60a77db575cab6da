//! The devices of one Nsight Compute file, in the order first seen: a launch's device is
//! found by its CUDA index and description, so a file of several GPUs keeps them apart.
//!
//! Every launch of a CSV page describes its device again (a raw page row repeats the
//! `device__attribute_*` columns), almost always as the launch before did: the last
//! description and its index are remembered, so the device is built and looked up only when
//! the description changes.

use super::ncu_metrics::{Description, NcuLaunch};
use crate::domain::Device;

#[derive(Default)]
pub struct FileDevices {
    list: Vec<(Option<u32>, Device)>,
    /// The last description looked up ([`Description::write_key`] and its name) and its
    /// index; `None` before the first.
    last: Option<(Vec<u64>, String, Option<u16>)>,
    /// The key of the description being looked up (kept to reuse its buffer).
    key: Vec<u64>,
}

impl FileDevices {
    /// The index into [`FileDevices::devices`] of the launch's device, adding it if new.
    pub fn index_of(&mut self, launch: &NcuLaunch) -> Option<u16> {
        // The remembered index holds only while every lookup goes through the descriptions.
        self.last = None;
        self.index(launch.device.as_ref(), launch.device_index)
    }

    /// [`FileDevices::index_of`] for a launch described by `description`, its device and
    /// CUDA index built by `make` only when the description differs from the last one looked
    /// up (equal descriptions make equal devices, and a device that agreed with one and was
    /// filled from it still agrees with it: the same index).
    pub fn index_of_described(&mut self, description: Description<'_>, make: impl FnOnce() -> (Option<Device>, Option<u32>)) -> Option<u16> {
        description.write_key(&mut self.key);
        if let Some((key, name, index)) = &self.last {
            if *key == self.key && name == description.name() {
                return *index;
            }
        }
        let (device, device_index) = make();
        let index = self.index(device.as_ref(), device_index);
        let (mut key, mut name) = self.last.take().map(|(k, n, _)| (k, n)).unwrap_or_default();
        std::mem::swap(&mut key, &mut self.key);
        name.clear();
        name.push_str(description.name());
        self.last = Some((key, name, index));
        index
    }

    fn index(&mut self, device: Option<&Device>, device_index: Option<u32>) -> Option<u16> {
        let d = device?;
        let i = match self.list.iter().position(|(idx, known)| *idx == device_index && known.agrees_with(d)) {
            Some(i) => {
                if let Some((_, known)) = self.list.get_mut(i) {
                    known.fill_from(d);
                }
                i
            }
            None => {
                self.list.push((device_index, d.clone()));
                self.list.len() - 1
            }
        };
        u16::try_from(i).ok()
    }

    pub fn devices(&self) -> Vec<Device> {
        self.list.iter().map(|(_, d)| d.clone()).collect()
    }

    /// The devices with their CUDA index, in the order first seen (what a parser of a later
    /// part of the file hands over, [`super::stream::PartState`]).
    pub fn entries(&self) -> &[(Option<u32>, Device)] {
        &self.list
    }

    /// Adds the devices of a later part of the file, in the order that part first saw them,
    /// as its launches would have added them here; returns each one's index here. Where
    /// every launch describes its device whole (the raw page), this is the index reading the
    /// whole file here would have given.
    pub fn adopt(&mut self, entries: &[(Option<u32>, Device)]) -> Vec<Option<u16>> {
        self.last = None;
        entries.iter().map(|(index, d)| self.index(Some(d), *index)).collect()
    }
}
