//! The files a dataset is read from.

/// A file as the user gave it: a display name and its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A file that was read and the format it was read as.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FileInfo {
    pub path: String,
    pub format: &'static str,
    /// The tool and version that wrote the file, where the file says (Nsight Compute
    /// reports: "Nsight Compute 2025.1.0.0 (build 35237751)").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// The `&'static str` for a format id read back from another module (`dataset::wire`): each
/// distinct id is stored once for the life of the program (there are a few dozen formats),
/// so the dataset keeps the type every importer gives it.
pub fn intern_format(id: &str) -> &'static str {
    use std::sync::Mutex;
    static KNOWN: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&k) = known.iter().find(|&&k| k == id) {
        return k;
    }
    let k: &'static str = Box::leak(id.to_string().into_boxed_str());
    known.push(k);
    k
}
