//! Reading user files (picked or dropped) into the engine's `SourceFile`s.

use roofline_engine::SourceFile;
use wasm_bindgen_futures::JsFuture;

/// Reads every file of a `FileList` into memory.
pub async fn read_file_list(list: web_sys::FileList) -> Result<Vec<SourceFile>, String> {
    let mut out = Vec::new();
    for i in 0..list.length() {
        let Some(file) = list.item(i) else { continue };
        let name = file.name();
        let buffer = JsFuture::from(file.array_buffer()).await.map_err(|_| format!("{name}: the browser could not read the file"))?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        out.push(SourceFile { name, bytes });
    }
    Ok(out)
}
