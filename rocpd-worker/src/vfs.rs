//! A read-only SQLite VFS over a browser `File`: SQLite asks for pages, and each is read from
//! the `File` with `FileReaderSync` (a synchronous read, allowed in workers), so a database of
//! any size is opened without copying it into wasm memory: the worker holds SQLite's page
//! cache and [`CACHED_BLOCKS`] blocks of [`BLOCK_BYTES`], whatever the file's size
//! (docs/PERFORMANCE.md, "rocpd databases in the browser").
//!
//! Files are [`register`]ed under a name and opened as `file:NAME?immutable=1` with
//! [`VFS_NAME`]: immutable, SQLite takes no lock and looks for no journal or WAL file (a
//! dropped file has none; its bytes do not change while it is read). Temporary files SQLite
//! may want (a large sort) are kept in memory.

use sqlite_wasm_rs::vfs::{
    register_vfs, AccessMode, DeviceCharacteristics, LockLevel, MemChunksFile, OpenAccess, OpenRequest, OpenedFile, OpenOptions, SQLiteIoMethods, SQLiteVfs, SyncOptions,
    VfsError, VfsErrorCode, VfsFile, VfsResult, VfsStore,
};
use sqlite_wasm_rs::WasmOsCallback;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// The VFS's name, for `Connection::open_with_flags_and_vfs`.
pub const VFS_NAME: &str = "roofline-file";

/// Bytes read from the `File` at a time. SQLite reads one page (4 KiB in rocprofv3's
/// databases) at a time; a `FileReaderSync` read has a fixed cost, so a block of pages is
/// read at once and kept for the next pages, which a table scan reads in order. Small enough
/// that a page read out of order (an index lookup) does not fetch much it does not need.
const BLOCK_BYTES: u64 = 256 * 1024;

/// Blocks kept (least recently used dropped first): 4 MiB.
const CACHED_BLOCKS: usize = 16;

thread_local! {
    /// The files that can be opened, by name.
    static FILES: RefCell<HashMap<String, web_sys::File>> = RefCell::new(HashMap::new());
    /// Bytes read from files so far, and how many reads (for progress and the stats).
    static READ: Cell<(f64, u32)> = const { Cell::new((0.0, 0)) };
}

/// Registers the VFS (once, when the worker starts).
pub fn install() -> Result<(), String> {
    // SAFETY: the store and the VFS agree on their app data (none); the registration is kept
    // for the worker's life (`into_raw`), and SQLite is used from this one thread only.
    let registration = unsafe { register_vfs::<FileIo, FileVfs>(VFS_NAME, (), false) }.map_err(|e| format!("{e:?}"))?;
    let _ = registration.into_raw();
    Ok(())
}

/// Makes `file` openable as `name` until [`forget`].
pub fn register(name: &str, file: web_sys::File) {
    FILES.with(|f| f.borrow_mut().insert(name.to_string(), file));
}

pub fn forget(name: &str) {
    FILES.with(|f| f.borrow_mut().remove(name));
}

/// Bytes read from files so far, and the number of reads.
pub fn read_so_far() -> (f64, u32) {
    READ.with(Cell::get)
}

/// A database file: the `File`, and the blocks of it last read.
struct BlobFile {
    file: web_sys::File,
    size: u64,
    reader: web_sys::FileReaderSync,
    /// Blocks by start offset, the most recently used last.
    blocks: Vec<(u64, Vec<u8>)>,
}

impl BlobFile {
    /// The block starting at `start` (a multiple of [`BLOCK_BYTES`]), read if not kept.
    fn block(&mut self, start: u64) -> VfsResult<&[u8]> {
        if let Some(i) = self.blocks.iter().position(|(s, _)| *s == start) {
            let b = self.blocks.remove(i);
            self.blocks.push(b);
        } else {
            let end = start.saturating_add(BLOCK_BYTES).min(self.size);
            let io = |what: &str| VfsError::new(VfsErrorCode::IoRead, format!("the browser could not read the file ({what})").into());
            let blob = self.file.slice_with_f64_and_f64(start as f64, end as f64).map_err(|_| io("slice"))?;
            let buffer = self.reader.read_as_array_buffer(&blob).map_err(|_| io("read"))?;
            let bytes = js_sys::Uint8Array::new(&buffer);
            // The buffer kept is reused: the least recently used block's, once CACHED_BLOCKS are kept.
            let mut data = if self.blocks.len() >= CACHED_BLOCKS { self.blocks.remove(0).1 } else { Vec::new() };
            data.resize(bytes.length() as usize, 0);
            bytes.copy_to(&mut data);
            READ.with(|r| {
                let (b, n) = r.get();
                r.set((b + data.len() as f64, n.wrapping_add(1)));
            });
            self.blocks.push((start, data));
            crate::on_read();
        }
        Ok(self.blocks.last().map(|(_, d)| d.as_slice()).unwrap_or_default())
    }
}

/// What SQLite opens: a database `File`, or a temporary file in memory.
enum File {
    Blob(Box<BlobFile>),
    Temp(MemChunksFile),
}

fn read_only() -> VfsError {
    VfsError::new(VfsErrorCode::ReadOnly, "the database is opened read-only".into())
}

impl VfsFile for File {
    fn device_characteristics(&self) -> DeviceCharacteristics {
        match self {
            // Its bytes do not change while it is open: no locks, no journal looked for.
            File::Blob(_) => DeviceCharacteristics::IMMUTABLE,
            File::Temp(t) => t.device_characteristics(),
        }
    }

    fn read(&mut self, buf: &mut [u8], offset: u64) -> VfsResult<usize> {
        let f = match self {
            File::Blob(f) => f,
            File::Temp(t) => return t.read(buf, offset),
        };
        let mut done = 0usize;
        while done < buf.len() {
            let at = offset.saturating_add(done as u64);
            if at >= f.size {
                break;
            }
            let start = at - at % BLOCK_BYTES;
            let block = f.block(start)?;
            let from = (at - start) as usize;
            let n = (buf.len() - done).min(block.len().saturating_sub(from));
            if n == 0 {
                break;
            }
            if let (Some(to), Some(from)) = (buf.get_mut(done..done + n), block.get(from..from + n)) {
                to.copy_from_slice(from);
            }
            done += n;
        }
        Ok(done)
    }

    fn write(&mut self, buf: &[u8], offset: u64) -> VfsResult<()> {
        match self {
            File::Blob(_) => Err(read_only()),
            File::Temp(t) => t.write(buf, offset),
        }
    }

    fn truncate(&mut self, size: u64) -> VfsResult<()> {
        match self {
            File::Blob(_) => Err(read_only()),
            File::Temp(t) => t.truncate(size),
        }
    }

    fn sync(&mut self, options: SyncOptions) -> VfsResult<()> {
        match self {
            File::Blob(_) => Ok(()),
            File::Temp(t) => t.sync(options),
        }
    }

    fn size(&self) -> VfsResult<u64> {
        match self {
            File::Blob(f) => Ok(f.size),
            File::Temp(t) => t.size(),
        }
    }

    fn lock(&mut self, _level: LockLevel) -> VfsResult<()> {
        Ok(())
    }

    fn unlock(&mut self, _level: LockLevel) -> VfsResult<()> {
        Ok(())
    }

    fn check_reserved_lock(&self) -> VfsResult<bool> {
        Ok(false)
    }
}

struct FileStore;

impl VfsStore for FileStore {
    type File = File;
    type AppData = ();

    fn open_file(_data: &(), request: OpenRequest<'_>) -> VfsResult<OpenedFile<File>> {
        let Some(name) = request.filename.map(|n| n.path()) else {
            // An anonymous temporary file (a sort that outgrew memory): in memory.
            return Ok(OpenedFile { file: File::Temp(MemChunksFile::default()), access: request.options.access() });
        };
        let file = FILES.with(|f| f.borrow().get(name).cloned());
        let Some(file) = file else {
            return Err(VfsError::new(VfsErrorCode::CantOpen, format!("{name}: no such file").into()));
        };
        let reader = web_sys::FileReaderSync::new().map_err(|_| VfsError::new(VfsErrorCode::CantOpen, "this browser has no FileReaderSync".into()))?;
        let size = file.size().max(0.0) as u64;
        Ok(OpenedFile { file: File::Blob(Box::new(BlobFile { file, size, reader, blocks: Vec::new() })), access: OpenAccess::ReadOnly })
    }

    fn close_file(_data: &(), _name: Option<&str>, _file: File, _options: OpenOptions) -> VfsResult<()> {
        Ok(())
    }

    fn access(_data: &(), name: &str, _mode: AccessMode) -> VfsResult<bool> {
        Ok(FILES.with(|f| f.borrow().contains_key(name)))
    }

    fn full_pathname(_data: &(), name: &str) -> VfsResult<String> {
        Ok(name.to_string())
    }

    fn delete_file(_data: &(), _name: &str, _sync_dir: bool) -> VfsResult<()> {
        Err(read_only())
    }
}

struct FileIo;

impl SQLiteIoMethods for FileIo {
    type Store = FileStore;
}

struct FileVfs;

impl SQLiteVfs<FileIo> for FileVfs {
    type Os = WasmOsCallback;

    fn os(_: &()) -> &WasmOsCallback {
        &WasmOsCallback
    }
}
