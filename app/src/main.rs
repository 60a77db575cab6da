//! Entry point of the web app (built by Trunk).

fn main() {
    roofline_app::start();
    // The static first paint (index.html's `#first-paint`) has done its job: it goes in the
    // task that mounted the app (whose first chart is drawn before the next frame), so no frame
    // shows both and nothing shifts.
    if let Some(skeleton) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("first-paint")) {
        skeleton.remove();
    }
}
