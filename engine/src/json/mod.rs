//! JSON without serde, for the web app: reading the two JSON inputs (`.roofline.json` view
//! files, `share::file`; ERT's `roofline.json`, `import::ert`) and writing the two JSON
//! outputs (the kernel table's export, `report_json`; view files, `share::file`).
//!
//! Why: serde's generic code for every type read or written, serde_json's value tree, its
//! error machinery and its float formatter cost 35 KB of the gzipped first visit, against a
//! few kB for this module. The CLI keeps serde_json; the writers here produce exactly
//! serde_json's pretty output (tests compare them byte for byte), so the app's JSON export
//! stays the CLI's `analyze --json` contract.

mod read;
mod write;

pub use read::{parse, Json, JsonError, MAX_DEPTH};
pub use write::Writer;
