//! Writing results: a file replaced atomically (never left half-written), and standard output
//! that tolerates a reader that went away (`meshcast algos | head -1`).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Write `contents` to `path` through a temporary file in the same directory, then rename it
/// over `path`, so readers see the old file or the whole new one.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path)?;
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(contents).and_then(|()| f.sync_all()))
        .and_then(|()| fs::rename(&tmp, path));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// `dir/.name.<pid>.tmp` beside `path`.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let tmp = format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id());
    Ok(path.with_file_name(tmp))
}

/// Print `text` to standard output. A closed pipe is not an error: the reader has all it wanted.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
