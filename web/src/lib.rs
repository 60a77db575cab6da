//! What the app (`app/`) and the link chart (`first/`) both need in the browser: the chart's
//! painter on a 2D canvas, the chart's size from the page's layout and the `performance` marks. One copy, so that the link chart drawn
//! before the app and the app's own chart are the same pixels.

pub mod canvas;
pub mod layout;
pub mod perf;
