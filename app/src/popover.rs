//! Menus of the toolbar: a button that opens a panel, on the browser's own popover API
//! (`popover="auto"` and `popovertarget`), so Esc and a click outside close it, the panel
//! sits in the top layer over the chart, it follows its button in the tab order, and focus
//! returns to the button when it closes from inside, with no script of ours for any of it.
//! What is ours: placing the panel under its button (the top layer's default is the middle
//! of the screen), keeping it inside the window, `aria-expanded` on the button, and
//! [`close`] for menus that close once an item is picked.

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

/// A toolbar menu: a button labelled `label` (with a ▾) that opens a panel holding the
/// children. `id` names the panel (tests and `close` find it by it). `prefix` is read before
/// the label but not shown ("Machine: " before the machine's name, which says enough to
/// the eye).
#[component]
pub fn Menu(
    id: &'static str,
    label: crate::reactive::Text,
    #[prop(optional)] prefix: &'static str,
    #[prop(optional)] class: &'static str,
    children: Children,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let button_ref = NodeRef::<leptos::html::Button>::new();
    let on_toggle = move |ev: web_sys::Event| {
        let Some(panel) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return };
        let is_open = panel.matches(":popover-open").unwrap_or(false);
        open.set(is_open);
        if is_open {
            if let Some(b) = button_ref.get_untracked() {
                place(&b, &panel);
            }
        }
    };
    let label_text = label.clone();
    view! {
        <div class=format!("menu {class}")>
            <button
                type="button"
                class="menu-button"
                node_ref=button_ref
                popovertarget=id
                aria-expanded=move || open.get().to_string()
            >
                {(!prefix.is_empty()).then(|| view! { <span class="visually-hidden">{prefix}</span> })}
                <span class="menu-label">{move || label()}</span>
                <span class="caret" aria-hidden="true">"▾"</span>
            </button>
            <div id=id popover="auto" class="menu-panel" role="group" aria-label=move || format!("{prefix}{}", label_text()) on:toggle=on_toggle>
                {children()}
            </div>
        </div>
    }
}
