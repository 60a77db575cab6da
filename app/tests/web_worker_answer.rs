//! The page's reading of a parser worker's answer (`roofline_app::worker::read_dataset`): a
//! large answer's kernels are read a slice at a time, each slice in a task of its own; the
//! dataset read is the one the worker sent; answers are read one at a time, in the order they
//! came; Cancel ends the one being read and those waiting (docs/PERFORMANCE.md).

use roofline_app::worker::{cancel, read_dataset, CANCELLED};
use roofline_engine::dataset::wire::DatasetWire;
use roofline_engine::domain::Counter;
use roofline_engine::KernelProfile;
use serde::Serialize;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A dataset of `n` kernels with distinct counters, and 7 launch records left behind.
fn wire(n: usize) -> DatasetWire {
    let kernels = (0..n)
        .map(|i| KernelProfile::from_counters(&format!("kernel_{i}"), &[(Counter::TimeS, 1e-5 * (1 + i % 97) as f64), (Counter::Fp32Fma, 1e9 * (1 + i % 389) as f64)]))
        .collect();
    DatasetWire { kernels, launches: 7, ..DatasetWire::default() }
}

/// The answer as the worker sends it (worker/src/main.rs: serde-wasm-bindgen's JSON-compatible
/// form).
fn answer(w: &DatasetWire) -> JsValue {
    w.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).expect("a dataset serialises")
}

/// A flag set by a zero-delay timer started now: set once a task has run since.
fn timer_flag() -> Rc<Cell<bool>> {
    let flag = Rc::new(Cell::new(false));
    let set = flag.clone();
    let f = Closure::once_into_js(move || set.set(true));
    web_sys::window().expect("a window").set_timeout_with_callback(f.unchecked_ref()).expect("a timer");
    flag
}

#[wasm_bindgen_test]
async fn a_large_answer_is_read_in_several_tasks_and_a_small_one_in_one() {
    // 2,500 kernels: the rest of the answer, then 1,000 + 1,000 + 500 kernels, a timer's task
    // before each slice, so a timer set before the read has run by its end.
    let big = wire(2500);
    let ran = timer_flag();
    let read = read_dataset(answer(&big)).await.expect("read");
    assert!(ran.get(), "the page's tasks ran while the answer was read");
    assert_eq!(read, big);
    assert_eq!(read.kernels[2499].name, "kernel_2499");
    // 1,000 kernels (the slice's size) are read at once, in this task.
    let small = wire(1000);
    let ran = timer_flag();
    let read = read_dataset(answer(&small)).await.expect("read");
    assert!(!ran.get(), "no other task ran");
    assert_eq!(read, small);
}

#[wasm_bindgen_test]
async fn answers_are_read_one_at_a_time_in_order_and_cancel_ends_them() {
    let (big, small) = (wire(2500), wire(3));
    // The small answer comes while the large one is being read: it waits its turn, so the
    // loads end in the order their answers came, and neither is lost.
    let order = Rc::new(std::cell::RefCell::new(Vec::new()));
    let read = |w: &DatasetWire, tag: &'static str| {
        let (value, order) = (answer(w), order.clone());
        async move {
            let r = read_dataset(value).await;
            order.borrow_mut().push(tag);
            r
        }
    };
    let (first, second) = futures::join!(read(&big, "large"), read(&small, "small"));
    assert_eq!(*order.borrow(), ["large", "small"]);
    assert_eq!(first, Ok(big.clone()));
    assert_eq!(second, Ok(small.clone()));
    // Cancel while one answer is being read and another waits: both end as cancelled.
    let (first, second, ()) = futures::join!(read_dataset(answer(&big)), read_dataset(answer(&small)), async { cancel() });
    assert_eq!(first, Err(CANCELLED.to_string()));
    assert_eq!(second, Err(CANCELLED.to_string()));
    // The turn was given back: the next answer is read whole.
    assert_eq!(read_dataset(answer(&big)).await, Ok(big));
}
