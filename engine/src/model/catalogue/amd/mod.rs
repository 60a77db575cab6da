//! AMD Instinct GPUs, one file per CDNA generation. ROCm shows each graphics compute die (GCD)
//! of an MI250X as its own device, and a kernel runs on one: profiles of an MI250X kernel
//! belong on `mi250x-gcd`, not `mi250x`. AMD's instruction roofline differs from Ding &
//! Williams' (64-wide wavefronts, other transaction sizes), so these machines have no issue
//! model.
//!
//! Clocks: AMD data sheets give one clock, the "peak engine clock", at which every peak is
//! stated; it is `clock_hz` and the boost clock. AMD publishes no base clock for Instinct
//! parts (the amdgpu driver lowers the clock under load by power management, with no
//! documented floor), so `base_clock_hz` is also the peak engine clock: `--clock base` is
//! defined and changes nothing. rocprof-compute profiles at that clock: its MI210 sample's
//! `sysinfo.csv` (`shared/samples/rocprof/`) has `cur_sclk` = `max_sclk` = 1700 MHz.

mod cdna2;
mod cdna3;
mod cdna4;

pub use cdna2::{mi210, mi250x, mi250x_gcd};
pub use cdna3::{mi300a, mi300x, mi325x};
pub use cdna4::{mi350x, mi355x};
