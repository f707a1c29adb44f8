//! Everything bebete writes to disk: the framed binary container shared by
//! genome and checkpoint files, atomic writes, the run directory and its
//! one-writer lock.

mod container;
mod lock;
mod run_dir;

pub use container::{
    FileError, FileProblem, Framed, decode_framed, decode_framed_versions, read_framed,
    write_atomic, write_atomic_with, write_framed, write_framed_parts,
};
pub use lock::{LockError, RunLock};
pub use run_dir::RunDir;
