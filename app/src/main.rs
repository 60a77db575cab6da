//! Entry point of the web app (built by Trunk).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

fn main() {
    // index.html's static first paint shows an image of the default chart; the app mounts once
    // that image has been shown (`rooflineFirstPaint`, public/first-paint.js, which says why).
    let shown = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"rooflineFirstPaint".into()).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    match shown {
        Some(shown) => roofline_app::executor::spawn_local(async move {
            let _ = JsFuture::from(shown).await;
            // The wasm is fetched after that image (public/first-paint.js), so the promise has
            // resolved by now and the mount would run in the task that instantiated the wasm:
            // one 130 ms task on Lighthouse's 4x slower phone (total blocking time 35 -> 80-96
            // ms). A task of its own for the mount: two shorter tasks, input handled between.
            let _ = JsFuture::from(roofline_app::executor::next_task()).await;
            mount();
        }),
        None => mount(),
    }
}

/// Starts the app, then removes the static first paint (index.html's `#first-paint`) in the
/// task that mounted the app (whose first chart is drawn before the next frame), so no frame
/// shows both and nothing shifts. From the next task on, the executor's runs are sliced
/// (executor.rs says why the start is not).
fn mount() {
    roofline_app::start();
    if let Some(skeleton) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("first-paint")) {
        skeleton.remove();
    }
    roofline_app::executor::spawn_local(async {
        let _ = JsFuture::from(roofline_app::executor::next_task()).await;
        roofline_app::executor::slice_runs(roofline_app::executor::SLICE_MS);
    });
}
