//! Everything bebete writes to disk: the framed binary container shared by
//! genome and checkpoint files, atomic writes and the one-writer lock of a
//! directory. The run directory itself belongs to the evolution layer.
//! Beside them, the small pieces of the messages about files and everything
//! else (`words.rs`: an article, a size, a list of names).

mod container;
mod lock;
pub mod run_files;
pub(crate) mod words;

pub(crate) use container::decode_checkpoint;
pub use container::{
    FileError, FileProblem, Framed, decode_framed, decode_framed_versions, open_regular,
    peek_framed, peek_framed_in, read_framed, read_regular, remove_temporaries, write_atomic,
    write_atomic_with, write_framed, write_framed_streamed,
};
pub use lock::{LockError, RunLock};
pub use words::{article, listed, size_in_words, with_article};
