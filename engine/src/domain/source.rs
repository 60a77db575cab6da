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
