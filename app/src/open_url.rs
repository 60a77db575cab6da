//! `#url=<address>&mode=…`: open a profile that lives elsewhere (a course's repository, a
//! gist) by its address, as speedscope's `#profileURL=` (docs/SHARING.md, "Open from a URL").
//!
//! Nothing is fetched before the user says so: the page starts on the built-in example with a
//! dialog that names the host and the address ([`Consent`]). Load fetches the file without
//! credentials (`mode: 'cors'`, `credentials: 'omit'`) and hands its bytes to the parser as a
//! dropped `File` (`AppState::show_files`), so formats, errors and `.roofline.json` view files
//! behave exactly as a drop; then the link's parameters (mode, machine, selection, filter, top
//! N) are applied. The fragment's reading and writing is the engine's (`share::url_param`).
//!
//! The address: while the page shows the fetched file's kernels and the view differs from what
//! the load gave only in what the parameters say, it is kept as `#url=…&<parameters>`
//! ([`write_address`]), short and shareable; anything else (other data dropped, a zoom, an edited
//! machine, a compared run) is the ordinary `#v1.` link.

use crate::reactive::{handler, text};
use crate::state::AppState;
use leptos::prelude::*;
use leptos::task::spawn_local;
use roofline_engine::chart::Mode;
use roofline_engine::choice::{self, ClockBasis, ClockChoice, Chosen};
use roofline_engine::limits::MAX_IN_MEMORY_FILE_BYTES;
use roofline_engine::model::{catalogue, Machine};
use roofline_engine::notice::Notice;
use roofline_engine::share::url_param::{self, UrlParams};
use roofline_engine::share::View;
use std::cell::RefCell;
use std::hash::{DefaultHasher, Hash, Hasher};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The fetched file's view as its load left it, before the link's parameters: what the address
/// compares the current view with.
struct Opened {
    url: String,
    /// Number and names of its kernels ([`fingerprint`]): still the fetched file's kernels?
    kernels: (usize, u64),
    /// The view right after the load, kernels left out.
    loaded: View,
}

thread_local! {
    /// The address the dialog asks about, from the start until the load ends or is cancelled;
    /// the address is left alone meanwhile.
    static ASKED: RefCell<Option<UrlParams>> = const { RefCell::new(None) };
    static OPENED: RefCell<Option<Opened>> = const { RefCell::new(None) };
}

/// Starts the page on a `#url=` address: the built-in example, and the question (or the
/// alert that says why the address cannot be opened). `false`: the address is not `#url=`.
pub fn start(state: AppState) -> bool {
    let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else { return false };
    let Some(asked) = url_param::parse(hash.strip_prefix('#').unwrap_or(&hash)) else { return false };
    state.start_with(None);
    match asked {
        Ok(p) => ASKED.with(|a| *a.borrow_mut() = Some(p)),
        Err(e) => state.error.set(Some(roofline_engine::notice::capitalise(&e.to_string()))),
    }
    true
}

/// The consent dialog of a `#url=` address; nothing where the address is not one.
#[component]
pub fn Consent(state: AppState) -> impl IntoView {
    let asked = ASKED.with(|a| a.borrow().clone())?;
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let status = RwSignal::new(String::new());
    // Shown as a modal once mounted: focus moves to it (its first button), Escape cancels.
    Effect::new(move |_| {
        if let Some(d) = dialog.get() {
            let _ = d.show_modal();
        }
    });
    let close = move || {
        if let Some(d) = dialog.get_untracked() {
            d.close();
        }
    };
    let host = asked.host.clone();
    let cancel = move || {
        if ASKED.with(|a| a.borrow_mut().take()).is_none() {
            return;
        }
        close();
        state.warnings.set(vec![Notice::plain(&format!("Nothing was loaded from {host}: this is the built-in example. Open the link again to be asked again, or drop a file here."))]);
        // The address becomes this view's, so it no longer asks.
        crate::url_state::write(&state.view_untracked(), None);
    };
    let cancel_key = cancel.clone();
    let cancel_esc = cancel.clone();
    let p = asked.clone();
    let load = move |_| {
        if !status.get_untracked().is_empty() {
            return;
        }
        status.set(format!("Fetching {} …", url_param::file_name(&p.url)));
        let p = p.clone();
        spawn_local(async move {
            let fetched = fetch_file(&p).await;
            close();
            match fetched {
                Ok(file) => load_fetched(state, file, p).await,
                Err(e) => state.error.set(Some(e)),
            }
            ASKED.with(|a| a.borrow_mut().take());
        });
    };
    Some(view! {
        <dialog class="open-url" node_ref=dialog aria-labelledby="open-url-title" aria-describedby="open-url-what"
            on:cancel=handler(move |ev: web_sys::Event| { ev.prevent_default(); cancel_key(); })
            // The page's shortcuts (keyboard.rs, on the window) wait behind the modal: Escape
            // there would be taken (and its default, this dialog's cancel, prevented).
            on:keydown=handler(move |ev: web_sys::KeyboardEvent| {
                ev.stop_propagation();
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    cancel_esc();
                }
            })>
            <h2 id="open-url-title">"Load a profile from " {asked.host.clone()} "?"</h2>
            <p id="open-url-what">"This link asks to load the file at"</p>
            <p class="open-url-address">{asked.url.clone()}</p>
            <p>"Nothing is sent but the request for this file (no cookies, nothing of this page); it is read here, as a dropped file."</p>
            <p class="open-url-status" role="status">{text(move || status.get())}</p>
            <div class="open-url-buttons">
                <button type="button" class="primary" on:click=handler(load)>"Load"</button>
                <button type="button" on:click=handler(move |_: web_sys::MouseEvent| cancel())>"Cancel"</button>
            </div>
        </dialog>
    })
}

/// The explanation of a fetch that failed before any response (a `TypeError`).
fn unreachable(p: &UrlParams) -> String {
    format!(
        "{} could not be fetched: the server {} refused to share it with this page (CORS) or could not be reached. Ways out: download the file and drop it here, or host it where cross-origin reads are allowed (GitHub raw files, gists, GitHub Pages).",
        p.url, p.host
    )
}

/// The reason phrase of a status where the response has none (HTTP/2 sends none).
fn reason(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn too_large(p: &UrlParams, bytes: f64) -> String {
    format!(
        "{} is {:.0} MB, over the {} MB a file fetched into the page may have. Download it and drop it here: a dropped file is read in slices.",
        p.url,
        bytes / 1e6,
        MAX_IN_MEMORY_FILE_BYTES / 1_000_000
    )
}

/// Fetches the file, without credentials, into a `File` named after the address.
async fn fetch_file(p: &UrlParams) -> Result<web_sys::File, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(&p.url, &init)).await.map_err(|_| unreachable(p))?.unchecked_into();
    if !response.ok() {
        let status = response.status();
        let phrase = Some(response.status_text()).filter(|t| !t.is_empty()).unwrap_or_else(|| reason(status).into());
        return Err(format!("{} could not be loaded: the server answered HTTP {status} {phrase}.", p.url).replace(" .", "."));
    }
    let announced = response.headers().get("content-length").ok().flatten().and_then(|v| v.trim().parse::<f64>().ok());
    if let Some(n) = announced.filter(|&n| n > MAX_IN_MEMORY_FILE_BYTES as f64) {
        return Err(too_large(p, n));
    }
    let body = response.array_buffer().map_err(|_| unreachable(p))?;
    let buffer: js_sys::ArrayBuffer = JsFuture::from(body).await.map_err(|_| unreachable(p))?.unchecked_into();
    if f64::from(buffer.byte_length()) > MAX_IN_MEMORY_FILE_BYTES as f64 {
        return Err(too_large(p, f64::from(buffer.byte_length())));
    }
    web_sys::File::new_with_buffer_source_sequence(&js_sys::Array::of1(&buffer), &url_param::file_name(&p.url)).map_err(|_| format!("{}: the browser could not hold the file", p.url))
}

/// Loads the fetched file as a drop, then applies the link's parameters.
async fn load_fetched(state: AppState, file: web_sys::File, p: UrlParams) {
    let Some(list) = web_sys::DataTransfer::new().ok().and_then(|dt| dt.items().add_with_file(&file).ok().map(|_| dt.files())).flatten() else {
        return state.error.set(Some("The browser could not hand the fetched file over".into()));
    };
    state.error.set(None);
    crate::perf::mark("roofline:load-start");
    crate::perf::mark("roofline:parse-start");
    state.loading_mark.set(true);
    state.progress.set(Some(0.0));
    state.show_files(&list).await;
    if state.error.get_untracked().is_some() || state.kernels.with_untracked(Vec::is_empty) {
        return;
    }
    let loaded = untrack(|| settings(&state.view()));
    let problems = apply(state, &p);
    if !problems.is_empty() {
        state.warnings.update(|w| w.extend(problems.iter().map(|m| Notice::plain(m))));
    }
    let kernels = fingerprint(state);
    OPENED.with(|o| *o.borrow_mut() = Some(Opened { url: p.url, kernels, loaded }));
}

/// The catalogue machine `id` as the link applies it: at the profile's measured clock where it
/// has one, else as the catalogue states it.
fn machine_for(state: AppState, id: &str) -> Option<(Machine, ClockBasis)> {
    let m = catalogue::by_id(id)?;
    let (measured, from_ncu) = state.profile.with_untracked(|p| (p.measured_sm_clock_hz, p.from_ncu));
    Some(choice::at_clock(m.clone(), ClockChoice::Measured, measured, from_ncu).unwrap_or((m, ClockBasis::Stated)))
}

/// Applies the link's parameters; what could not be applied, as sentences.
fn apply(state: AppState, p: &UrlParams) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(id) = &p.mode {
        match Mode::from_id(id) {
            Some(m) => state.mode.set(m),
            None => problems.push(format!("the link's mode={id} is not a chart of this version ({})", Mode::ALL.map(Mode::id).join(", "))),
        }
    }
    if let Some(id) = &p.machine {
        match machine_for(state, id) {
            Some((m, basis)) => {
                state.machine.set(m);
                state.clock_basis.set(basis);
                if state.chosen.get_untracked().is_some() {
                    state.chosen.set(Some(Chosen::Option));
                }
            }
            None => problems.push(format!("the link's machine={id} is not in this version's catalogue; the profile's machine is shown")),
        }
    }
    if let Some(f) = &p.filter {
        state.filter.set(f.clone());
    }
    if let Some(n) = p.top_n {
        state.top_n.set((n > 0).then_some(n as usize));
    }
    if let Some(name) = p.select.as_deref().filter(|s| !s.is_empty()) {
        let found = state.kernels.with_untracked(|ks| ks.iter().position(|k| k.name == name)).or_else(|| state.names.with_untracked(|ns| ns.iter().position(|n| n == name)));
        match found {
            Some(i) => state.selected.set(Some(i)),
            None => problems.push(format!("the link selects kernel \"{name}\", which the file does not have")),
        }
    } else if p.select.is_some() {
        state.selected.set(None);
    }
    problems
}

/// The number and a hash of the names of the page's kernels.
fn fingerprint(state: AppState) -> (usize, u64) {
    state.kernels.with_untracked(|ks| {
        let mut h = DefaultHasher::new();
        ks.iter().for_each(|k| k.name.hash(&mut h));
        (ks.len(), h.finish())
    })
}

/// What of a view the parameters cannot say (zoom, roofs, levels, word size, colours): a
/// `#url=` link is written only while these are as the load left them.
fn settings(v: &View) -> View {
    View {
        zoom: v.zoom,
        compute: v.compute.clone(),
        hidden_levels: v.hidden_levels.clone(),
        word_bytes: v.word_bytes,
        all_roofs: v.all_roofs,
        color_by: v.color_by.clone(),
        mode: v.mode.clone(),
        filter: v.filter.clone(),
        top_n: v.top_n,
        selected: v.selected,
        machine_id: v.machine_id.clone(),
        custom_machine: v.custom_machine.clone(),
        ..View::default()
    }
}

/// Writes the address for `view` when it is a `#url=` page's: left as it is while the dialog
/// asks, `#url=…&<parameters>` while the view is the fetched file's (module doc). `false`: the
/// ordinary link applies.
pub fn write_address(state: AppState, view: &View) -> bool {
    if ASKED.with(|a| a.borrow().is_some()) {
        return true;
    }
    let Some(fragment) = OPENED.with(|o| o.borrow().as_ref().and_then(|o| url_fragment(state, o, view))) else {
        OPENED.with(|o| o.borrow_mut().take());
        return false;
    };
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
    }
    state.link_notice.set(None);
    true
}

/// The `#url=` fragment of `view`, if the parameters can say how it differs from the load's.
fn url_fragment(state: AppState, o: &Opened, view: &View) -> Option<String> {
    if view.runs.is_some() || fingerprint(state) != o.kernels {
        return None;
    }
    let now = settings(view);
    let base = &o.loaded;
    // Zoom, roofs, levels, word size, colours: as the load left them.
    let rest = |v: &View| View { mode: String::new(), filter: String::new(), top_n: None, selected: None, machine_id: String::new(), custom_machine: None, ..v.clone() };
    if rest(&now) != rest(base) {
        return None;
    }
    let machine = if (&now.machine_id, &now.custom_machine) == (&base.machine_id, &base.custom_machine) {
        None
    } else {
        // Another machine: only a catalogue one as the link would apply it.
        let applied = machine_for(state, &now.machine_id)?.0;
        if !state.machine.with_untracked(|m| *m == applied) {
            return None;
        }
        Some(now.machine_id.clone())
    };
    let select = (now.selected != base.selected).then(|| now.selected.and_then(|i| state.kernels.with_untracked(|ks| ks.get(i).map(|k| k.name.clone()))).unwrap_or_default());
    let p = UrlParams {
        url: o.url.clone(),
        mode: (now.mode != base.mode).then(|| now.mode.clone()),
        machine,
        select,
        filter: (now.filter != base.filter).then(|| now.filter.clone()),
        top_n: (now.top_n != base.top_n).then(|| now.top_n.unwrap_or(0)),
        ..UrlParams::default()
    };
    Some(url_param::write(&p))
}
