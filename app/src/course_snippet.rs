//! "Copy for a course page" (issue 45): a Markdown and an HTML snippet that show the exported
//! PNG (`roofline.png`, downloaded beside the page) as a link to the live view, each in a
//! read-only text box with a Copy button. The clipboard may be refused: the box stays
//! selectable. The panel is static markup whose boxes are filled when it opens, from the link
//! at that moment (the app's wasm is tight on size: no reactive views here).

use crate::export::{current_link, frame_options, framed_for_export, Export};
use crate::notes::copy_text;
use crate::reactive::handler;
use crate::state::AppState;
use leptos::prelude::*;
use roofline_engine::chart::caption;
use wasm_bindgen::JsCast;

const PANEL_ID: &str = "course-snippet";
const MARKDOWN_ID: &str = "course-snippet-md";
const HTML_ID: &str = "course-snippet-html";

/// `text` safe inside a double-quoted HTML attribute.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('\'', "&#39;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `text` as Markdown link text: what could end the text or start markup is escaped.
fn md_text(text: &str) -> String {
    text.chars().fold(String::new(), |mut out, c| {
        if matches!(c, '\\' | '[' | ']' | '*' | '_' | '`' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
        out
    })
}

/// The Markdown and HTML snippets of the picture `image` (`width` × `height` CSS pixels) as a
/// link to `link`, with `alt` as its text alternative.
pub fn snippets(alt: &str, link: &str, image: &str, width: f64, height: f64) -> (String, String) {
    // A Markdown link destination cannot hold spaces or unbalanced parentheses.
    let md_link = link.replace(' ', "%20").replace('(', "%28").replace(')', "%29");
    let markdown = format!("[![{}]({image})]({md_link})", md_text(alt));
    let html = format!(r#"<a href="{}"><img src="{image}" alt="{}" width="{}" height="{}"></a>"#, attr(link), attr(alt), width.round(), height.round());
    (markdown, html)
}

fn element<T: JsCast>(id: &str) -> Option<T> {
    web_sys::window()?.document()?.get_element_by_id(id)?.dyn_into().ok()
}

/// Opens the panel with the snippets of the chart as it would be exported now, or closes it.
fn toggle(state: AppState, button: Option<web_sys::Element>) {
    let Some(panel) = element::<web_sys::HtmlElement>(PANEL_ID) else { return };
    let open = panel.hidden();
    if open {
        let framed = framed_for_export(state);
        let source = state.source.get_untracked();
        let (title, _, _) = frame_options();
        let what = [title.trim(), source.trim()].into_iter().find(|t| !t.is_empty()).unwrap_or("these kernels");
        let alt = format!("Roofline of {what} on {}", state.machine.with_untracked(caption::machine_line));
        let (markdown, html) = snippets(&alt, &current_link(state), &Export::Png.file_name(), framed.scene.width, framed.scene.height);
        for (id, text) in [(MARKDOWN_ID, markdown), (HTML_ID, html)] {
            if let Some(t) = element::<web_sys::HtmlTextAreaElement>(id) {
                t.set_value(&text);
            }
        }
    }
    panel.set_hidden(!open);
    if let Some(b) = button {
        let _ = b.set_attribute("aria-expanded", if open { "true" } else { "false" });
    }
}

#[component]
pub fn CourseSnippet(state: AppState) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let copy = move |id: &'static str| {
        handler(move |_: web_sys::MouseEvent| {
            if let Some(t) = element::<web_sys::HtmlTextAreaElement>(id) {
                copy_text(t.value(), copied);
            }
        })
    };
    view! {
        <button type="button" data-course-snippet="" aria-expanded="false" aria-controls=PANEL_ID on:click=handler(move |ev: web_sys::MouseEvent| {
            toggle(state, ev.current_target().and_then(|t| t.dyn_into().ok()))
        })>
            "Copy for a course page"
        </button>
        <div id=PANEL_ID class="course-snippet" role="group" aria-label="For a course page" hidden>
            <p class="hint">"Download the chart PNG and put it beside the page as roofline.png."</p>
            <label for=MARKDOWN_ID>"Markdown"</label>
            <textarea id=MARKDOWN_ID readonly rows="3"></textarea>
            <button type="button" aria-label="Copy the Markdown snippet" on:click=copy(MARKDOWN_ID)>"Copy"</button>
            <label for=HTML_ID>"HTML"</label>
            <textarea id=HTML_ID readonly rows="3"></textarea>
            <button type="button" aria-label="Copy the HTML snippet" on:click=copy(HTML_ID)>"Copy"</button>
            <span role="status">{move || copied.get()}</span>
        </div>
    }
}
