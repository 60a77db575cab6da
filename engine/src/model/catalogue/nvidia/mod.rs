//! NVIDIA GPUs, one file per generation.
//!
//! Peaks are the data sheets' dense values (an asterisked "with sparsity" value is halved).
//! Every entry states the clock its peaks hold at (`clock_hz`): NVIDIA prints some peaks at
//! lower clocks than others (Hopper's tensor peaks at 1.83 GHz, its vector peaks at 1.98);
//! such peaks are scaled to `clock_hz` as per-cycle rate × clock ([`super::gpu::at`]), and the
//! doc comment says from which clock. INT32 counts an IMAD as 2 operations, as NVIDIA's
//! whitepapers do. Capacities are binary (GiB, MiB), bandwidths decimal.

mod ada;
mod ampere;
mod blackwell;
mod geforce_blackwell;
mod hopper;
mod pascal;
mod turing;
mod volta;

pub use ada::{l4, l40, l40s, rtx4090};
pub use ampere::{a10, a100, a100_40gb, a100_pcie, a100_pcie_40gb};
pub use blackwell::{b200, gb200};
pub use geforce_blackwell::{rtx5060, rtx5060ti, rtx5070, rtx5070ti, rtx5080, rtx5090};
pub use hopper::{gh200, h100, h100_nvl, h100_pcie, h20, h200};
pub use pascal::{p100, p100_pcie};
pub use turing::t4;
pub use volta::{v100, v100_pcie};

use crate::model::machine::Link;
use crate::units::GIGA;

/// NVLink per direction (NVIDIA quotes the sum of both directions: "900 GB/s" is 450 each way).
fn nvlink(name: &str, gbytes_per_s_per_direction: f64) -> Link {
    Link { name: name.into(), bytes_per_s: gbytes_per_s_per_direction * GIGA }
}

/// PCIe 5.0 with 8 lanes (RTX 5060 Ti / 5060): half the x16 bandwidth per direction.
fn pcie5_x8() -> Link {
    Link { name: "PCIe 5.0 x8".into(), bytes_per_s: Link::pcie_x16(5).bytes_per_s / 2.0 }
}
