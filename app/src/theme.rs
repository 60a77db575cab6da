//! Light and dark: follows the system (`prefers-color-scheme`) unless the user picks one. The
//! chosen theme is set as `data-theme` on `<html>` so the CSS and the chart (which takes the
//! theme in its input) agree.

use crate::state::AppState;
use leptos::prelude::*;
use roofline_engine::chart::Theme;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

fn dark_query() -> Option<web_sys::MediaQueryList> {
    web_sys::window()?.match_media("(prefers-color-scheme: dark)").ok()?
}

pub fn system_prefers_dark() -> bool {
    dark_query().is_some_and(|q| q.matches())
}

/// Keeps `state.system_dark` current and `<html data-theme>` in step with the theme in force.
pub fn follow_system(state: AppState) {
    if let Some(q) = dark_query() {
        let on_change = Closure::<dyn Fn()>::new(move || state.system_dark.set(system_prefers_dark()));
        let _ = q.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget(); // lives as long as the page
    }
    Effect::new(move |_| {
        let theme = match state.effective_theme() {
            Theme::Dark => "dark",
            Theme::Light => "light",
        };
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("data-theme", theme);
        }
    });
}

/// System → light → dark → system.
pub fn cycle(state: AppState) {
    state.theme.update(|t| {
        *t = match t {
            None => Some(Theme::Light),
            Some(Theme::Light) => Some(Theme::Dark),
            Some(Theme::Dark) => None,
        }
    });
}

/// The theme button's face: half-filled circle for the system's choice, sun, moon.
pub fn icon(theme: Option<Theme>) -> &'static str {
    match theme {
        None => "◐",
        Some(Theme::Light) => "☀",
        Some(Theme::Dark) => "☾",
    }
}

pub fn label(theme: Option<Theme>) -> &'static str {
    match theme {
        None => "Theme: system",
        Some(Theme::Light) => "Theme: light",
        Some(Theme::Dark) => "Theme: dark",
    }
}
