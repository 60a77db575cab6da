//! A large load's report and short names, worked out before its kernels are shown, a part per
//! task of the page, for the page's memos to take instead of computing them in one task.
//!
//! Why: the memos of 10,000 kernels are computed by the first effect that reads them, in one
//! poll of the executor. Slicing the executor's runs (executor.rs) cannot cut inside a poll, so
//! the report (guidance, then each kernel's numbers: 50–90 ms in the browser on the
//! development machine) stayed one long task. Here it is built by the engine's
//! [`KernelsReport`], a few hundred kernels at a time until [`STEP_MS`] have passed, then in
//! the next task; the names take a task of their own. A small load is done within its first
//! step and so waits for nothing.
//!
//! The memos know the prepared values by the kernels they are for: the address and length of
//! the `Vec` the page then shows (moved into the signal, so not reallocated) and the machine.
//! Anything else (another load shown meanwhile, a change of machine) finds nothing prepared
//! and computes as before.

use roofline_engine::domain::short_names::distinct_display_names;
use roofline_engine::model::Machine;
use roofline_engine::report::{AnalyzeReport, KernelsReport};
use roofline_engine::KernelProfile;
use crate::worker::next_task_unless;
use std::cell::{Cell, RefCell};

/// How long one task of the preparation runs before it lets the page's next task come, in ms:
/// well under the 50 ms that makes a task long, as the executor's slices are.
pub const STEP_MS: f64 = crate::executor::SLICE_MS;

/// Kernels whose report is worked out between two looks at the clock.
const KERNELS_PER_LOOK: usize = 256;

/// What was prepared, and for which kernels.
struct Prepared {
    /// The kernels' buffer address and length.
    kernels: (usize, usize),
    machine: Machine,
    report: Option<AnalyzeReport>,
    names: Option<Vec<String>>,
}

thread_local! {
    static PREPARED: RefCell<Option<Prepared>> = const { RefCell::new(None) };
    /// Tickets of the loads that prepare (in the order their answers came) and the newest shown.
    static NEXT_TICKET: Cell<u64> = const { Cell::new(0) };
    static SHOWN_TICKET: Cell<u64> = const { Cell::new(0) };
}

fn key(kernels: &[KernelProfile]) -> (usize, usize) {
    (kernels.as_ptr() as usize, kernels.len())
}

/// A load's place in line, taken when its answer has been read.
pub fn ticket() -> u64 {
    NEXT_TICKET.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

/// Whether the load with `ticket` may be shown: no load whose answer came after it has been
/// shown while it prepared (that one is newer, and stays). Marks it shown.
pub fn may_show(ticket: u64) -> bool {
    SHOWN_TICKET.with(|s| {
        if ticket < s.get() {
            return false;
        }
        s.set(ticket);
        true
    })
}

/// Works out the report of `kernels` against `machine`, and their short names, over as many of
/// the page's tasks as it takes; [`crate::worker::CANCELLED`] if `cancelled()` says so between two of them.
pub async fn prepare(kernels: &[KernelProfile], machine: &Machine, cancelled: impl Fn() -> bool) -> Result<(), String> {
    let mut until = js_sys::Date::now() + STEP_MS;
    let mut yielded = false;
    let mut builder = KernelsReport::new(kernels, Some(machine));
    while !builder.step(KERNELS_PER_LOOK) {
        if js_sys::Date::now() >= until {
            next_task_unless(&cancelled).await?;
            yielded = true;
            until = js_sys::Date::now() + STEP_MS;
        }
    }
    let report = builder.finish();
    // The names in a task of their own for a load that took several (they are read all at
    // once: 16–24 ms for 10,000 kernels in the browser).
    if yielded || js_sys::Date::now() >= until {
        next_task_unless(&cancelled).await?;
    }
    let names = distinct_display_names(&kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>());
    PREPARED.with(|p| *p.borrow_mut() = Some(Prepared { kernels: key(kernels), machine: machine.clone(), report: Some(report), names: Some(names) }));
    Ok(())
}

/// The report prepared for these kernels on this machine, if any (taken: asked again, it is
/// computed).
pub fn take_report(kernels: &[KernelProfile], machine: &Machine) -> Option<AnalyzeReport> {
    PREPARED.with(|p| p.borrow_mut().as_mut().filter(|p| p.kernels == key(kernels) && p.machine == *machine).and_then(|p| p.report.take()))
}

/// The short names prepared for these kernels, if any (taken).
pub fn take_names(kernels: &[KernelProfile]) -> Option<Vec<String>> {
    PREPARED.with(|p| p.borrow_mut().as_mut().filter(|p| p.kernels == key(kernels)).and_then(|p| p.names.take()))
}

/// Forgets what was prepared (a load cancelled or superseded).
pub fn forget() {
    PREPARED.with(|p| *p.borrow_mut() = None);
}
