//! Everything bebete writes to disk: the framed binary container shared by
//! genome and checkpoint files, and atomic writes.

mod container;

pub use container::{FileError, FileProblem, Framed, read_framed, write_atomic, write_framed};
