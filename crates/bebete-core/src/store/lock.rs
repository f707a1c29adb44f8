//! One writer per run directory.
//!
//! `evolve` and `resume` hold an advisory lock (`flock`) on `RUN/lock` for
//! as long as they run. The kernel releases it when the holder exits, however
//! it exits (SIGKILL included), so a lock is never stale, and nothing is
//! decided from process ids: on a shared filesystem the holder may be a
//! process of another machine. The file also records the holder's process
//! id and host, only to name the holder in the message a second writer gets.

use std::fs::{self, File, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{dir} is in use by {holder} (lock file {lock}); wait for it to finish",
        dir = .dir.display(),
        lock = .lock.display()
    )]
    /// Another process holds the lock.
    Busy {
        /// The run directory.
        dir: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// Who holds it, as the holder recorded it ("process N on HOST").
        holder: String,
    },
    #[error("{path} is a file, not a directory: a run needs a directory of its own", path = .path.display())]
    /// The path is a file, not a directory.
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    #[error("{path}: {error}", path = .path.display())]
    /// The lock file could not be read or written.
    Io {
        /// The lock file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    #[error("{dir}: the run's folder cannot be made there: {error}", dir = .dir.display())]
    /// The run directory could not be made.
    Create {
        /// The run directory.
        dir: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// A held run lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

/// This machine's name, for the message (empty if unknown).
fn host() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// "process N on HOST", from the lock file's text.
fn describe(text: &str) -> String {
    let mut words = text.split_whitespace();
    match (words.next(), words.next()) {
        (Some(pid), Some(host)) => format!("process {pid} on {host}"),
        (Some(pid), None) => format!("process {pid}"),
        _ => "another process".to_string(),
    }
}

impl RunLock {
    /// Takes the lock of run directory `dir` (created if missing).
    pub fn acquire(dir: &Path) -> Result<RunLock, LockError> {
        let path = dir.join(super::run_files::LOCK);
        let io_err = |error| LockError::Io {
            path: path.clone(),
            error,
        };
        if dir.exists() && !dir.is_dir() {
            return Err(LockError::NotADirectory {
                path: dir.to_path_buf(),
            });
        }
        fs::create_dir_all(dir).map_err(|error| LockError::Create {
            dir: dir.to_path_buf(),
            error,
        })?;
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Err(LockError::Busy {
                    dir: dir.to_path_buf(),
                    lock: path.clone(),
                    holder: describe(&text),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io_err(e)),
        }
        file.set_len(0).map_err(io_err)?;
        file.rewind().map_err(io_err)?;
        writeln!(file, "{} {}", std::process::id(), host()).map_err(io_err)?;
        Ok(RunLock { _file: file })
    }

    /// Whether a process holds the lock of an opened lock file (a run still
    /// going), creating nothing: a regular file (checked on the handle)
    /// whose shared lock cannot be taken now, then let go at once. The
    /// caller opens `RUN/lock` its own way (the server: no link followed,
    /// no wait on a FIFO).
    pub fn is_held_in(file: &File) -> bool {
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return false;
        }
        match file.try_lock_shared() {
            Ok(()) => {
                let _ = file.unlock();
                false
            }
            Err(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        let held = RunLock::acquire(&run).unwrap();
        let err = RunLock::acquire(&run).unwrap_err().to_string();
        let me = format!("in use by process {}", std::process::id());
        assert!(err.contains(&me), "{err}");
        let held_now = || RunLock::is_held_in(&File::open(run.join("lock")).unwrap());
        assert!(held_now());
        drop(held);
        assert!(!held_now());
        // A lock file left behind (by a killed holder) is not a lock.
        assert!(run.join("lock").exists());
        RunLock::acquire(&run).unwrap();
    }

    #[test]
    fn a_file_in_the_way_is_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.md");
        fs::write(&file, "x").unwrap();
        let err = RunLock::acquire(&file).unwrap_err().to_string();
        assert!(err.contains("is a file, not a directory"), "{err}");
        let err = RunLock::acquire(&file.join("run")).unwrap_err();
        // The OS error appears once: it is the message, not also a source.
        assert!(std::error::Error::source(&err).is_none(), "{err}");
    }

    #[test]
    fn the_holder_is_described_from_the_file() {
        assert_eq!(describe("12 node7\n"), "process 12 on node7");
        assert_eq!(describe("12\n"), "process 12");
        assert_eq!(describe(""), "another process");
    }
}
