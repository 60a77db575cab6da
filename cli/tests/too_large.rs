//! A file over `roofline_engine::limits::MAX_FILE_BYTES` is refused from its size, before a
//! byte is read (docs/FUZZING.md, size limits). The file is sparse: no disk space is used.

use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn a_file_over_the_limit_is_refused_before_reading() {
    let dir = std::env::temp_dir().join(format!("roofline-too-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("huge.csv");
    let file = std::fs::File::create(&path).expect("a temporary file");
    file.set_len(roofline_engine::limits::MAX_FILE_BYTES + 1).expect("a sparse file");
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_roofline")).args(["analyze", path.to_str().unwrap_or_default()]).output().expect("the roofline binary runs");
    let elapsed = t0.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("huge.csv: the file is too large: 2148 MB, limit 2147 MB"), "{stderr}");
    assert!(elapsed < Duration::from_secs(10), "refused without reading 2 GiB: {elapsed:?}");
}
