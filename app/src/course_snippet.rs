//! "Copy for a course page" (issue 45): a Markdown and an HTML snippet that show the exported
//! PNG (`roofline.png`, downloaded beside the page) as a link to the live view, each in a
//! read-only text box with a Copy button. The clipboard may be refused: the box stays
//! selectable. Built when the panel opens, from the link at that moment.

use crate::export::{current_link, framed_for_export, Export, FrameOptions};
use crate::notes::copy_text;
use crate::reactive::handler;
use crate::state::AppState;
use leptos::prelude::*;
use roofline_engine::chart::caption;

/// `text` safe inside a double-quoted HTML attribute.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('\'', "&#39;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `text` as Markdown link text: brackets and backslashes escaped, so a name cannot end it.
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
    // A link in a Markdown destination cannot hold spaces or unbalanced parentheses.
    let md_link = link.replace(' ', "%20").replace('(', "%28").replace(')', "%29");
    let markdown = format!("[![{}]({image})]({md_link})", md_text(alt));
    let html = format!(r#"<a href="{}"><img src="{image}" alt="{}" width="{}" height="{}"></a>"#, attr(link), attr(alt), width.round(), height.round());
    (markdown, html)
}

/// One snippet: its label, the read-only text box and its Copy button.
fn snippet_box(label: &'static str, id: &'static str, text: String) -> impl IntoView {
    let copied = RwSignal::new(String::new());
    let copy = text.clone();
    view! {
        <label for=id>{label}</label>
        <textarea id=id readonly rows="3" on:focus=handler(|ev: web_sys::FocusEvent| {
            use wasm_bindgen::JsCast;
            if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                t.select();
            }
        })>{text}</textarea>
        <button type="button" aria-label=format!("Copy the {label} snippet") on:click=handler(move |_: web_sys::MouseEvent| copy_text(copy.clone(), copied))>"Copy"</button>
        <span role="status">{move || copied.get()}</span>
    }
}

#[component]
pub fn CourseSnippet(state: AppState, opts: FrameOptions) -> impl IntoView {
    let shown: RwSignal<Option<(String, String)>> = RwSignal::new(None);
    let toggle = move |_: web_sys::MouseEvent| {
        if shown.get_untracked().is_some() {
            return shown.set(None);
        }
        let framed = framed_for_export(state, opts);
        let title = opts.title.get_untracked();
        let source = state.source.get_untracked();
        let what = [title.trim(), source.trim()].into_iter().find(|t| !t.is_empty()).unwrap_or("these kernels").to_string();
        let alt = format!("Roofline of {what} on {}", state.machine.with_untracked(caption::machine_line));
        shown.set(Some(snippets(&alt, &current_link(state), &Export::Png.file_name(), framed.scene.width, framed.scene.height)));
    };
    view! {
        <button type="button" data-course-snippet="" aria-expanded=move || shown.get().is_some().to_string() aria-controls="course-snippet" on:click=handler(toggle)>
            "Copy for a course page"
        </button>
        <div id="course-snippet" class="course-snippet" role="group" aria-label="For a course page" hidden=move || shown.get().is_none()>
            {move || shown.get().map(|(markdown, html)| view! {
                <p class="hint">"Download the chart PNG and put it beside the page as roofline.png."</p>
                {snippet_box("Markdown", "course-snippet-md", markdown)}
                {snippet_box("HTML", "course-snippet-html", html)}
            })}
        </div>
    }
}
