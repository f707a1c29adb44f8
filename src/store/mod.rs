//! Everything bebete writes to disk: the framed binary container shared by
//! genome and checkpoint files, atomic writes, and the run directory.

mod container;
mod run_dir;

pub use container::{FileError, FileProblem, Framed, read_framed, write_atomic, write_framed};
pub use run_dir::RunDir;
