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
}
