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
        Some(shown) => wasm_bindgen_futures::spawn_local(async move {
            let _ = JsFuture::from(shown).await;
            mount();
        }),
        None => mount(),
    }
}

/// Starts the app, then removes the static first paint (index.html's `#first-paint`) in the
/// task that mounted the app (whose first chart is drawn before the next frame), so no frame
/// shows both and nothing shifts.
fn mount() {
    roofline_app::start();
    if let Some(skeleton) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("first-paint")) {
        skeleton.remove();
    }
}
