//! One writer per run directory.
//!
//! `evolve` and `resume` hold `RUN/lock`, which names the holder's process
//! id, for as long as they run. A second writer is refused with the holder's
//! pid; a lock left by a process that no longer exists (a crash, SIGKILL) is
//! taken over.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "{dir} is in use by process {pid} (lock file {lock}); wait for it to finish, or delete the lock file if that process is gone",
        dir = .dir.display(),
        lock = .lock.display()
    )]
    Busy {
        dir: PathBuf,
        lock: PathBuf,
        pid: u32,
    },
    #[error("{path}: {source}", path = .path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// A held run lock; released (the file removed) on drop.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
}

/// Whether a process with this id is running (Linux: `/proc/PID`; elsewhere
/// every recorded holder is assumed alive).
fn alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new("/proc").join(pid.to_string()).exists()
    } else {
        true
    }
}

impl RunLock {
    /// Takes the lock of run directory `dir` (created if missing).
    pub fn acquire(dir: &Path) -> Result<RunLock, LockError> {
        let path = dir.join("lock");
        let io_err = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        fs::create_dir_all(dir).map_err(io_err)?;
        let me = std::process::id();
        for _ in 0..2 {
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut file) => {
                    writeln!(file, "{me}").map_err(io_err)?;
                    return Ok(RunLock { path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    let holder = fs::read_to_string(&path)
                        .ok()
                        .and_then(|t| t.trim().parse::<u32>().ok());
                    match holder {
                        Some(pid) if pid != me && alive(pid) => {
                            return Err(LockError::Busy {
                                dir: dir.to_path_buf(),
                                lock: path.clone(),
                                pid,
                            });
                        }
                        // Stale (dead holder, unreadable, or ourselves): take it over.
                        _ => fs::remove_file(&path).map_err(io_err)?,
                    }
                }
                Err(e) => return Err(io_err(e)),
            }
        }
        Err(io_err(io::Error::other("the lock file keeps reappearing")))
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_and_a_stale_lock_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        // A live holder: the test process's parent (pid 1 is always alive).
        fs::create_dir_all(&run).unwrap();
        fs::write(run.join("lock"), "1\n").unwrap();
        let err = RunLock::acquire(&run).unwrap_err().to_string();
        assert!(err.contains("in use by process 1"), "{err}");
        // A dead holder: take over.
        fs::write(run.join("lock"), "4294967295\n").unwrap();
        let lock = RunLock::acquire(&run).unwrap();
        let text = fs::read_to_string(run.join("lock")).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
        drop(lock);
        assert!(!run.join("lock").exists());
    }
}
