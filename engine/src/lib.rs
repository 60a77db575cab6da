//! Roofline Explorer's engine: everything between the bytes of a profiler's file and the
//! numbers a chart draws. It has no browser dependency: the same code runs in the `roofline`
//! command-line tool, in native tests and benchmarks, and (compiled to wasm32) in the web app.
//!
//! Data flow: [`import`] turns files into per-launch [`counters::Counters`]; [`dataset`] merges
//! files and aggregates launches into [`profile::KernelProfile`]s; [`model`] places kernels on
//! rooflines of a [`model::Machine`]; [`share`] packs a view into a page address.
//!
//! Units: every quantity is in base SI units (seconds, bytes, FLOPs, instructions); prefixes are
//! decimal (1 GB/s = 1e9 bytes/s), see [`units`].

pub mod chart;
pub mod choice;
pub mod collect;
pub mod compare;
pub mod dataset;
pub mod domain;
pub mod error;
pub mod import;
pub mod limits;
pub mod model;
pub mod notice;
pub mod order;
pub mod provenance;
pub mod report;
pub mod selection;
pub mod share;
pub mod units;

pub use dataset::{load_dataset, Dataset};
pub use domain::SourceFile;
pub use error::ImportError;
pub use domain::KernelProfile;
