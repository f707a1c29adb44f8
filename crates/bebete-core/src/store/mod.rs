//! Everything bebete writes to disk: the framed binary container shared by
//! genome and checkpoint files, atomic writes and the one-writer lock of a
//! directory. The run directory itself belongs to the evolution layer.

mod container;
mod lock;
pub mod run_files;

pub use container::{
    FileError, FileProblem, Framed, article, decode_framed, decode_framed_versions, peek_framed,
    peek_framed_in, read_framed, write_atomic, write_atomic_with, write_framed, write_framed_parts,
};
pub use lock::{LockError, RunLock};
