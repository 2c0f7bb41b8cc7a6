//! Writing results: output paths checked before anything runs, a file replaced atomically
//! (never left half-written, and the leftovers of killed writes removed), and standard output
//! that tolerates a reader that went away (`meshcast algos | head -1`).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The format of a results file (`--out`): CSV or JSON, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A CSV file with a header row.
    Csv,
    /// JSON.
    Json,
}

impl Format {
    /// The format of `--out PATH`: `.csv` or `.json`, in any letter case.
    pub fn of(path: &Path) -> Result<Format> {
        Ok(match check_extension("--out", path, &["csv", "json"])? {
            "csv" => Format::Csv,
            _ => Format::Json,
        })
    }
}

/// Check the results file (`--out`, FILE.csv or FILE.json) and plot (`--plot`, FILE.svg or
/// FILE.png) a command will write, and that their directories exist: before a long run, not
/// after it. Returns the format of `--out`.
pub fn check_outputs(out: Option<&Path>, plot: Option<&Path>) -> Result<Option<Format>> {
    let format = out.map(Format::of).transpose()?;
    if let Some(path) = plot {
        check_extension("--plot", path, &["svg", "png"])?;
    }
    for path in out.into_iter().chain(plot) {
        check_directory(path)?;
    }
    Ok(format)
}

/// The extension of `path` (lower case) when it is one of `allowed`; otherwise an error naming
/// `flag`, e.g. "--plot 'r.pdf': write FILE.svg or FILE.png".
pub fn check_extension(flag: &str, path: &Path, allowed: &[&'static str]) -> Result<&'static str> {
    let ext = extension(path);
    if let Some(ok) = allowed.iter().find(|a| **a == ext) {
        return Ok(ok);
    }
    let files: Vec<String> = allowed.iter().map(|a| format!("FILE.{a}")).collect();
    bail!("{flag} '{}': write {}", path.display(), files.join(" or "))
}

/// The lower-case extension of `path`, or "".
pub fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Fail before a long run, not after it, when `path`'s directory does not exist.
pub fn check_directory(path: &Path) -> Result<()> {
    let dir = directory(path);
    fs::metadata(dir).map(drop).with_context(|| {
        format!(
            "cannot write '{}': no directory '{}'",
            path.display(),
            dir.display()
        )
    })
}

/// The directory `path` is in ("." for a bare file name).
fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Write `contents` to `path` through a temporary file in the same directory, then rename it
/// over `path`, so readers see the old file or the whole new one. The temporary files of earlier
/// writes of `path` whose process is gone (killed mid-write) are removed first.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path)?;
    remove_stale_temps(path);
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

/// Remove `.name.<pid>.tmp` files beside `path` (exactly that pattern, for `path`'s own name)
/// whose process no longer runs: a write that was killed before its rename. Only where
/// `/proc` tells which processes run; a file that cannot be removed is left alone.
fn remove_stale_temps(path: &Path) {
    let (Some(name), Ok(entries)) = (path.file_name(), fs::read_dir(directory(path))) else {
        return;
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{}.", name.to_string_lossy());
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .filter(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        if let Some(pid) = pid {
            if !Path::new("/proc").join(pid).exists() {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// Print `text` to standard output. A closed pipe is not an error: the reader has all it wanted.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions() {
        assert_eq!(Format::of(Path::new("a/r.CSV")).unwrap(), Format::Csv);
        assert_eq!(Format::of(Path::new("r.json")).unwrap(), Format::Json);
        let e = Format::of(Path::new("r.txt")).unwrap_err().to_string();
        assert_eq!(e, "--out 'r.txt': write FILE.csv or FILE.json");
        assert_eq!(
            check_extension("--svg", Path::new("t.SVG"), &["svg"]).unwrap(),
            "svg"
        );
        let e = check_extension("--svg", Path::new("t"), &["svg"]).unwrap_err();
        assert_eq!(e.to_string(), "--svg 't': write FILE.svg");
    }

    #[test]
    fn stale_temporary_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        // No process has a PID this large (Linux caps them at 2²²).
        let dead = dir.path().join(".r.csv.999999999.tmp");
        let alive = dir.path().join(format!(
            ".r.csv.{}.tmp",
            std::os::unix::process::parent_id()
        ));
        let other = dir.path().join(".s.csv.999999999.tmp");
        let not_ours = dir.path().join(".r.csv.12x.tmp");
        for f in [&dead, &alive, &other, &not_ours] {
            fs::write(f, "partial").unwrap();
        }
        write_atomically(&path, b"whole").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"whole");
        assert!(!dead.exists(), "a dead write's file is removed");
        for kept in [&alive, &other, &not_ours] {
            assert!(kept.exists(), "{} is kept", kept.display());
        }
    }
}
