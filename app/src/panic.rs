//! What the page does if the app panics: say so in the page, not only in the console.
//!
//! Design:
//! 1. **No panic is reachable from input.** Files, links and `.roofline.json` views are read
//!    by the engine, whose importers and link decoder return errors (`ImportError`,
//!    `DecodeError`) for anything malformed; the app shows those in its `role="alert"` and
//!    keeps the previous view. That is tested on hostile inputs and fuzzed
//!    (docs/FUZZING.md, `engine/tests/hostile_inputs.rs`).
//! 2. **A panic anyway is a bug, and it is fatal.** On wasm32 a panic aborts (the
//!    `wasm-release` profile has `panic = "abort"`, and wasm32-unknown-unknown cannot unwind):
//!    the module traps, and every later call into it (a click, a drop) traps too. Nothing can
//!    be recovered, so the hook's job is to leave the page *readable and reloadable*: the
//!    chart, the table and the address stay as they were; the alert explains what happened.
//! 3. **The hook does not use Leptos.** The reactive runtime may be in the middle of an
//!    update (its cells borrowed) when the panic happens, so the hook writes the message with
//!    plain DOM calls into the existing `[role="alert"]` element (or a new one at the top of
//!    `<body>` if the panic came before the app was mounted), as text only. It also logs
//!    the panic to the console with its location ([`console_error_panic_hook`]), and keeps
//!    it with its stack as `window.rooflinePanic` (an `Error`) for drivers without a console.
//! 4. **A way out of a crashing view.** The view lives in the address (`#v1.…`) and
//!    survives a reload; if the view itself triggers the bug, reloading would crash again, so
//!    the alert links to the page without the fragment.
//!
//! A panic inside the hook (a DOM call failing) cannot recurse: the message is written once.

use std::panic::PanicHookInfo;
use std::sync::atomic::{AtomicBool, Ordering};

/// Longest panic message shown in the page (the console has the whole of it).
const MAX_SHOWN_CHARS: usize = 300;

/// Set once a panic has been shown: later panics only go to the console.
static SHOWN: AtomicBool = AtomicBool::new(false);

/// Installs the panic hook (console + `role="alert"`). Call once, before mounting.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        if !SHOWN.swap(true, Ordering::SeqCst) {
            let text = message(info);
            show(&text);
            keep_stack(&text);
        }
    }));
}

/// The sentence shown for a panic: what failed, and what the user can do.
fn message(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown error".to_string());
    let mut what: String = what.chars().take(MAX_SHOWN_CHARS).collect();
    if let Some(at) = info.location() {
        what.push_str(&format!(" (at {}:{})", at.file(), at.line()));
    }
    format!(
        "Roofline Explorer stopped because of an internal error: {what}. The page no longer responds: \
         reload it to continue (your view is kept in the address). Details are in the browser console; \
         please report them. "
    )
}

/// Keeps the panic's sentence and JavaScript stack as `window.rooflinePanic`, an `Error`
/// (its `message` and `stack`), for a test driver that cannot read the console (WebKit's
/// WebDriver): the browser tests print it, with the wasm frames named from the build's symbol
/// maps (scripts/symbols.mjs), when a scenario fails. A release build says only `traits.rs`
/// for a disposed signal; the stack says which of the app's functions read it. An `Error`
/// made here, not a formatted string: +73 B of gzipped wasm instead of +379 B.
fn keep_stack(what: &str) {
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &"rooflinePanic".into(), &js_sys::Error::new(what));
    }
}

/// Writes `text` into the page's `role="alert"` element and shows it, with a link to the
/// page without the view. Only DOM calls, errors ignored: this runs in a panic.
pub fn show(text: &str) {
    let Some(window) = web_sys::window() else { return };
    let Some(doc) = window.document() else { return };
    let existing = doc.query_selector("[role=alert]").ok().flatten();
    let Some(alert) = existing.or_else(|| {
        let el = doc.create_element("div").ok()?;
        el.set_class_name("alert");
        el.set_attribute("role", "alert").ok()?;
        doc.body()?.prepend_with_node_1(&el).ok()?;
        Some(el)
    }) else {
        return;
    };
    alert.set_text_content(Some(text));
    let _ = alert.remove_attribute("hidden");
    let location = window.location();
    let page = format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default());
    if let Ok(link) = doc.create_element("a") {
        let _ = link.set_attribute("href", &page);
        link.set_text_content(Some("Open the page without this view"));
        let _ = alert.append_child(&link);
    }
}
