//! Roofline Explorer in the browser. Everything here is a thin shell over `roofline_engine`;
//! see ARCHITECTURE.md for the data flow. A library so wasm-bindgen tests can reach the
//! components; `main.rs` only mounts.

pub mod app;
pub mod canvas;
pub mod chart_view;
pub mod collect_panel;
pub mod examples;
pub mod files;
pub mod kernel_table;
pub mod perf;
pub mod summary_panel;
pub mod url_state;

/// Installs the panic hook and mounts the app on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
