//! The embed view (issue 45): the same address with `?embed` (or `?embed=1`) shows the chart
//! alone, for an `<iframe>` on a course page or a blog (docs/SHARING.md, "Embed a live chart").
//! It fills its frame (`roofline_web::layout`: the whole width, the height below a one-line bar)
//! and follows the frame's size; hover, click, wheel, drag and the keys work as on the page. The
//! bar names the machine and links to the full view in a new tab: the same address without
//! `embed`, kept current as the view changes (a zoom, a selection).
//!
//! Nothing that opens or saves files is built: no toolbar (file picker, menus, mode tabs: the
//! mode is the link's), no side panels, table or footer, a drop refused with a word, and the parser
//! worker is not started before it is needed: by a `#url=` link, whose file the embed loads
//! once the reader says so, as the page does (`open_url.rs`). The parameter is read once, at start ([`active`]); the page's layout
//! follows the `embed` class that `public/first-paint.js` puts on `<html>` before the first
//! paint by the same rule, so the static first paint is laid out as the embed is (app/style.css,
//! app/first-paint.css) and no toolbar flashes. `public/sw-register.js` registers no service
//! worker in an embed (it says why).

use crate::chart_view::ChartView;
use crate::keyboard::{HelpDialog, KeyboardShortcuts};
use crate::reactive::{flag, handler, text};
use crate::state::AppState;
use leptos::prelude::*;

/// The query parameter that asks for the embed view.
pub const PARAM: &str = "embed";

thread_local! {
    /// Whether this page is an embed: read once, at start (the address's fragment changes
    /// with the view; its query never does).
    static ACTIVE: bool = web_sys::window().and_then(|w| w.location().search().ok()).is_some_and(|s| requested(&s));
}

/// Whether this page is an embed (`?embed` in its address when it started).
pub fn active() -> bool {
    ACTIVE.with(|a| *a)
}

/// The parameters of a query (`location.search`, with or without its `?`), `&`-separated.
fn pairs(search: &str) -> impl Iterator<Item = &str> {
    search.strip_prefix('?').unwrap_or(search).split('&').filter(|p| !p.is_empty())
}

/// A parameter's name: what precedes its `=`, if any.
fn name(pair: &str) -> &str {
    pair.split_once('=').map_or(pair, |(n, _)| n)
}

/// Whether the query `search` asks for the embed view: it has an `embed` parameter, with or
/// without a value (public/first-paint.js's rule: `URLSearchParams.has('embed')`).
pub fn requested(search: &str) -> bool {
    pairs(search).any(|p| name(p) == PARAM)
}

/// The query `search` without its `embed` parameters: with its `?`, or empty when nothing else
/// is left.
pub fn without_embed(search: &str) -> String {
    let kept: Vec<&str> = pairs(search).filter(|p| name(p) != PARAM).collect();
    if kept.is_empty() {
        String::new()
    } else {
        format!("?{}", kept.join("&"))
    }
}

/// The full view of what this embed shows: the page's current address without `embed`.
fn full_view_href() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else { return String::new() };
    let part = |r: Result<String, _>| r.unwrap_or_default();
    format!("{}{}{}{}", part(loc.origin()), part(loc.pathname()), without_embed(&part(loc.search())), part(loc.hash()))
}

/// The embed's layout: the bar, an alert when the link cannot be shown as it is, the chart.
#[component]
pub fn Embed(state: AppState) -> impl IntoView {
    let machine = move || state.machine.with(|m| match m.clock_hz {
        Some(hz) => format!("{} at {:.0} MHz", m.name, hz / 1e6),
        None => m.name.clone(),
    });
    // The address is rewritten (address.rs) and then `link_notice` set, on every write: the
    // link is read again after each.
    let href = text(move || {
        state.link_notice.track();
        full_view_href()
    });
    view! {
        // A file dropped on the frame would make the browser open it in the frame, in the chart's
        // place: the drop is refused, with where files are opened.
        <div
            class="app"
            on:dragover=handler(|ev: web_sys::DragEvent| ev.prevent_default())
            on:drop=handler(move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                state.error.set(Some("This embedded chart opens no files: open it in Roofline Explorer (↗ above) and drop them there.".into()));
            })
        >
            <KeyboardShortcuts state=state />
            <HelpDialog state=state />
            // `?embed#url=…`: the frame asks before it fetches, as the page does (open_url.rs).
            <crate::open_url::Consent state=state />
            <main class="workspace">
                // The page's name for screen readers (the bar shows the machine instead).
                <h1 class="visually-hidden">"Roofline Explorer: embedded chart"</h1>
                <div class="chart-column">
                    <p class="embed-bar">
                        <span class="embed-machine" role="status" aria-label="Machine" title=text(machine)>{text(machine)}</span>
                        <a class="embed-open" href=href target="_blank" rel="noopener">
                            "Open in Roofline Explorer"<span aria-hidden="true">" ↗"</span>
                        </a>
                    </p>
                    <div class="alert" role="alert" hidden=flag(move || state.error.with(Option::is_none))>
                        {text(move || state.error.get().unwrap_or_default())}
                    </div>
                    <ChartView state=state />
                </div>
            </main>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::{requested, without_embed};
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn the_embed_parameter_bare_or_with_a_value_and_the_address_without_it() {
        assert!(requested("?embed"));
        assert!(requested("?embed=1"));
        assert!(requested("?lang=en&embed"));
        assert!(!requested(""));
        assert!(!requested("?embedded=1"));
        assert!(!requested("?x=embed"));
        assert_eq!(without_embed("?embed"), "");
        assert_eq!(without_embed("?embed=1"), "");
        assert_eq!(without_embed("?a=1&embed&b=embed"), "?a=1&b=embed");
        assert_eq!(without_embed("?embedded=1&embed=1"), "?embedded=1");
        assert_eq!(without_embed(""), "");
    }
}
