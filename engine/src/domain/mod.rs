//! The domain types, the lowest layer of the engine: what a profile is made of (launches,
//! kernels and their counters, transfers, the device that ran them) and the files it is read
//! from. Everything else builds on these and nothing here imports from above
//! (ARCHITECTURE.md, "Layers").

pub mod counters;
pub mod data_type;
pub mod device;
pub mod gpu_arch;
pub mod names;
pub mod profile;
pub mod short_names;
pub mod source;
pub mod transfer;

pub use counters::{Counter, Counters};
pub use data_type::DataType;
pub use device::{Device, DevicePeaks, Vendor};
pub use profile::{KernelProfile, Launch, Precision};
pub use source::{FileInfo, SourceFile};
pub use transfer::Transfer;
