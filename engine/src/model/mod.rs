//! The roofline model: machines and their ceilings, and kernels placed against them.
//!
//! Formulas and reference numbers come from `shared/reference/` (cited where used): the GPU
//! course's roofline slides, Ding & Williams' Instruction Roofline paper, the NERSC use cases
//! and Nsight Compute hierarchical roofline post, and Intel Advisor's GPU roofline recipe.

pub mod catalogue;
pub mod classic;
pub mod machine;
pub mod point;

pub use machine::{Ceiling, ComputeKind, Level, Machine, MemoryLevel};
pub use point::RooflinePoint;
