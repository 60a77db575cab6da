//! Roofline Explorer in the browser. Everything here is a thin shell over `roofline_engine`;
//! see ARCHITECTURE.md for the data flow. A library so wasm-bindgen tests can reach the
//! components; `main.rs` only mounts.

/// The canvas painter and the performance marks live in `web/`, shared with the link chart.
pub use roofline_web::{canvas, perf};

pub mod address;
pub mod app;
pub mod chart_view;
pub mod collect_panel;
pub mod compare;
pub mod course_snippet;
pub mod embed;
pub mod example_picker;
pub mod examples;
pub mod gesture_frames;
pub mod executor;
pub mod export;
pub mod files;
pub mod json;
pub mod kernel_table;
pub mod keyboard;
pub mod machine_editor;
pub mod notes;
pub mod open_url;
pub mod panic;
pub mod paste_box;
pub mod reactive;
pub mod popover;
pub mod prepare;
pub mod start_link;
pub mod state;
pub mod summary_panel;
pub mod theme;
pub mod toolbar;
pub mod url_state;
pub mod view_controls;
pub mod warm;
pub mod worker;

/// Installs the panic hook and the task executor, and mounts the app on `<body>`.
pub fn start() {
    panic::install();
    executor::install();
    leptos::mount::mount_to_body(app::App);
}
