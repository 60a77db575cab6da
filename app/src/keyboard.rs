//! Keyboard: `?` help, `1`–`5` modes, `+`/`-`/`0` zoom, `/` filter, `↑`/`↓` step through the
//! kernels in table order, `Esc` closes help or clears the selection (an open menu takes Esc
//! itself: the browser closes it). Keys typed into form fields are left alone. The help
//! dialog takes focus when it opens and gives it back to where it was when it closes.

use crate::state::AppState;
use crate::chart_view::zoom_centre;
use leptos::prelude::*;
use crate::reactive::{flag, handler};
use roofline_engine::chart::Mode;
use wasm_bindgen::JsCast;

const SHORTCUTS: &[(&str, &str)] = &[
    ("?", "show or hide this help"),
    ("1 – 5", "classic, hierarchical, instruction, memory walls, transfers"),
    ("+  −  0", "zoom in, zoom out, reset zoom"),
    ("/", "filter kernels by name"),
    ("↑  ↓", "previous / next kernel (table order)"),
    ("Esc", "close a menu or this help, clear the selection"),
    ("wheel, drag, shift-drag", "zoom about the cursor, pan, zoom to a box"),
];

fn typing_in_a_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"))
}

/// The next kernel in `order` after `current` (`step` = ±1), wrapping at the ends.
pub fn step_selection(order: &[usize], current: Option<usize>, step: isize) -> Option<usize> {
    if order.is_empty() {
        return None;
    }
    let n = order.len() as isize;
    let pos = current.and_then(|c| order.iter().position(|&i| i == c));
    let next = match pos {
        Some(p) => (p as isize + step).rem_euclid(n),
        None if step > 0 => 0,
        None => n - 1,
    };
    order.get(next as usize).copied()
}

#[component]
pub fn KeyboardShortcuts(state: AppState) -> impl IntoView {
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || typing_in_a_field(&ev) {
            return;
        }
        // An open menu is closed by the browser on Esc; the page's keys wait until it is.
        if crate::popover::any_open() {
            return;
        }
        let key = ev.key();
        let mut handled = true;
        match key.as_str() {
            "?" => state.help_open.update(|o| *o = !*o),
            "Escape" => {
                if state.help_open.get_untracked() {
                    state.help_open.set(false);
                } else {
                    state.selected.set(None);
                }
            }
            "1" | "2" | "3" | "4" | "5" => {
                let i = key.parse::<usize>().unwrap_or(1) - 1;
                if let Some(&m) = Mode::ALL.get(i) {
                    state.mode.set(m);
                    state.zoom.set(None);
                }
            }
            "+" | "=" => zoom_centre(state, 1.25),
            "-" | "_" => zoom_centre(state, 1.0 / 1.25),
            "0" => state.zoom.set(None),
            "/" => {
                if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("kernel-filter")) {
                    if let Ok(input) = el.dyn_into::<web_sys::HtmlElement>() {
                        let _ = input.focus();
                    }
                }
            }
            "ArrowDown" | "ArrowUp" => {
                let step = if key == "ArrowDown" { 1 } else { -1 };
                let next = state.row_order.with_untracked(|o| step_selection(o, state.selected.get_untracked(), step));
                state.selected.set(next);
            }
            _ => handled = false,
        }
        if handled {
            ev.prevent_default();
        }
    });
    on_cleanup(move || handle.remove());
}

#[component]
pub fn HelpDialog(state: AppState) -> impl IntoView {
    let close_ref = NodeRef::<leptos::html::Button>::new();
    let dialog_ref = NodeRef::<leptos::html::Div>::new();
    // The element that had focus when help opened, to give it back on close.
    let before: StoredValue<Option<web_sys::HtmlElement>, LocalStorage> = StoredValue::new_local(None);
    // The dialog's contents, built when it first opens rather than in the start's long task
    // (docs/PERFORMANCE.md), then kept.
    let mount_in = crate::popover::mount_once(move || {
        view! {
            <h2 id="help-title">"Keyboard shortcuts"</h2>
            <dl>
                {SHORTCUTS.iter().map(|(k, what)| view! { <dt><kbd>{*k}</kbd></dt><dd>{*what}</dd> }).collect_view()}
            </dl>
            <button type="button" node_ref=close_ref on:click=handler(move |_: web_sys::MouseEvent| state.help_open.set(false))>"Close"</button>
        }
    });
    Effect::new(move |was_open: Option<bool>| {
        let open = state.help_open.get();
        let document = web_sys::window().and_then(|w| w.document());
        if open && was_open != Some(true) {
            if let Some(dialog) = dialog_ref.get_untracked() {
                mount_in(dialog.into());
            }
            let active = document.and_then(|d| d.active_element()).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            before.set_value(active);
            // After the dialog is shown (it is `hidden` until this render).
            crate::executor::after_effects_frame(move || {
                if let Some(b) = close_ref.get_untracked() {
                    let _ = b.focus();
                }
            });
        } else if !open && was_open == Some(true) {
            if let Some(el) = before.get_value() {
                let _ = el.focus();
            }
        }
        open
    });
    view! {
        <div class="help" role="dialog" aria-modal="false" aria-labelledby="help-title" node_ref=dialog_ref hidden=flag(move || !state.help_open.get())></div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn arrows_step_through_table_order_and_wrap() {
        let order = [4, 1, 7];
        assert_eq!(step_selection(&order, None, 1), Some(4));
        assert_eq!(step_selection(&order, None, -1), Some(7));
        assert_eq!(step_selection(&order, Some(4), 1), Some(1));
        assert_eq!(step_selection(&order, Some(7), 1), Some(4));
        assert_eq!(step_selection(&order, Some(4), -1), Some(7));
        assert_eq!(step_selection(&[], Some(4), 1), None);
    }
}
