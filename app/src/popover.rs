//! Menus of the toolbar: a button that opens a panel, on the browser's own popover API
//! (`popover="auto"` and `popovertarget`), so Esc and a click outside close it, the panel
//! sits in the top layer over the chart, it follows its button in the tab order, and focus
//! returns to the button when it closes from inside, with no script of ours for any of it.
//! What is ours: placing the panel under its button (the top layer's default is the middle
//! of the screen), keeping it inside the window, `aria-expanded` on the button, and
//! [`close`] for menus that close once an item is picked.

use crate::reactive::{handler, text, Handler, Text};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Gap between a button and its panel, and the panel's smallest distance to the window's
/// edges, CSS pixels.
const GAP_PX: f64 = 4.0;
const EDGE_PX: f64 = 8.0;

/// Closes the popover with this id if it is open (a picked example, a started export).
pub fn close(id: &str) {
    let el = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id));
    if let Some(el) = el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        if el.matches(":popover-open").unwrap_or(false) {
            let _ = el.hide_popover();
        }
    }
}

/// Whether any popover is open (Esc then belongs to it, not to the page's shortcuts).
pub fn any_open() -> bool {
    web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(":popover-open").ok().flatten()).is_some()
}

/// Places the open panel `panel` under `button`, inside the window: left-aligned with the
/// button, moved left where it would overflow the right edge.
fn place(button: &web_sys::Element, panel: &web_sys::HtmlElement) {
    let Some(window) = web_sys::window() else { return };
    let vw = window.inner_width().ok().and_then(|v| v.as_f64()).unwrap_or(1024.0);
    let b = button.get_bounding_client_rect();
    let width = panel.offset_width() as f64;
    let left = b.left().min(vw - width - EDGE_PX).max(EDGE_PX);
    let style = panel.style();
    let _ = style.set_property("top", &format!("{}px", b.bottom() + GAP_PX));
    let _ = style.set_property("left", &format!("{left}px"));
}

/// A menu's button: labelled `label` (with a ▾; `prefix` is read before the label but not
/// shown: "Machine: " before the machine's name, which says enough to the eye), opening the
/// panel `id`, saying whether it is open through `open` (kept by [`on_toggle`]).
pub fn menu_button(id: &'static str, label: Text, prefix: &'static str, open: RwSignal<bool>) -> impl IntoView {
    view! {
        <button type="button" class="menu-button" id=format!("{id}-button") popovertarget=id aria-expanded=text(move || open.get().to_string())>
            <span class="visually-hidden">{prefix}</span>
            <span class="menu-label">{label}</span>
            <span class="caret" aria-hidden="true">"▾"</span>
        </button>
    }
}

/// Mounts the view `build` makes into the element it is first given, then kept; later calls
/// do nothing. For contents built when their panel first opens, not at the app's start: the
/// menus' panels ([`on_first_open`]), the help dialog, the "How to collect" panel.
pub fn mount_once<V: IntoView + 'static>(build: impl FnOnce() -> V + 'static) -> impl Fn(web_sys::HtmlElement) + Clone + 'static {
    let build = std::rc::Rc::new(std::cell::RefCell::new(Some(build)));
    move |parent: web_sys::HtmlElement| {
        let first = build.borrow_mut().take();
        if let Some(f) = first {
            leptos::mount::mount_to(parent, f).forget();
        }
    }
}

/// The `beforetoggle` and `toggle` handlers of the panel `id` whose contents `build` makes
/// when it first opens, not at the app's start: they are mounted into the panel as it starts
/// to open (`beforetoggle`, so before it is shown and placed; on `toggle` where an engine lacks
/// that event), then kept, so what was typed or opened in them stays. The Machine, Chart and
/// Export panels were 180 of the page's 423 elements, built in the start's one long task
/// (docs/PERFORMANCE.md). Mounted, not a reactive `Option` of the view, which would carry
/// code to rebuild the whole panel (+5.4 KB for the Machine menu, measured).
pub fn on_first_open<V: IntoView + 'static>(id: &'static str, open: RwSignal<bool>, build: impl FnOnce() -> V + 'static) -> (Handler<web_sys::Event>, Handler<web_sys::Event>) {
    let mount_in = mount_once(build);
    let mount = move |ev: &web_sys::Event| {
        if let Some(panel) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
            mount_in(panel);
        }
    };
    let before = mount.clone();
    let mut toggle = on_toggle(id, open);
    (
        handler(move |ev: web_sys::Event| before(&ev)),
        handler(move |ev: web_sys::Event| {
            mount(&ev);
            toggle(ev);
        }),
    )
}

/// The `toggle` handler of the panel `id`: records whether it is open in `open` and, when
/// it opens, places it under its button. The panels are written where they are used
/// (toolbar.rs) rather than passed to a component as children: a component's children
/// become a type-erased view, whose code the wasm would carry once per menu.
pub fn on_toggle(id: &'static str, open: RwSignal<bool>) -> Handler<web_sys::Event> {
    handler(move |ev: web_sys::Event| {
        let Some(panel) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
        let is_open = panel.matches(":popover-open").unwrap_or(false);
        open.set(is_open);
        let button = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(&format!("{id}-button")));
        if let (true, Some(b)) = (is_open, button) {
            place(&b, &panel);
        }
    })
}
