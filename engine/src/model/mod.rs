//! The roofline model: machines and their ceilings, and kernels placed against them.
//!
//! Formulas and reference numbers come from `shared/reference/` (cited where used): the GPU
//! course's roofline slides, Ding & Williams' Instruction Roofline paper, the NERSC use cases
//! and Nsight Compute hierarchical roofline post, and Intel Advisor's GPU roofline recipe.
//! docs/MODEL.md lists every formula with its source.
//!
//! - [`machine`]: ceilings, clocks, issue model, links; [`catalogue`]: published machines.
//! - [`classic`]: min(peak, bandwidth × AI), ridge points.
//! - [`hierarchical`]: one dot per memory level.
//! - [`instruction`]: the Instruction Roofline (GIPS vs instructions per transaction).
//! - [`walls`]: global and shared memory walls.
//! - [`transfers`]: host↔device copies against PCIe/NVLink.
//! - [`guidance`]: binding roof, headroom, Amdahl rank, one-sentence summary.
//! - [`point`], the dots: `RooflinePoint`, `classic_points`.
//! - [`identify`]: a profile's device → its catalogue (or derived) machine.
//! - [`profile_peaks`]: the machine "as Nsight Compute measured it", from a profile's peaks.

pub mod advice;
pub mod catalogue;
pub mod classic;
pub mod guidance;
pub mod hierarchical;
pub mod identify;
pub mod instruction;
pub mod machine;
pub mod point;
pub mod profile_peaks;
pub mod transfers;
pub mod walls;

pub use machine::{Basis, Ceiling, ComputeKind, Issue, Level, Link, Machine, MemoryLevel, PeakSet, TransactionSizes};
pub use point::RooflinePoint;
