//! Host↔device copies and memsets: not kernels, placed on the transfer roofline.

/// A memory copy or memset: not a kernel, reported separately (PCIe/NVLink roofline).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Transfer {
    pub name: String,
    pub count: u64,
    pub bytes: Option<f64>,
    pub time_s: Option<f64>,
}
