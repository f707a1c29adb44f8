//! The names of the files in a run directory, in one place: the engine
//! writes them (`evolve::RunDir` builds its paths from these), and
//! genome loading, the plots, terminal play and the server read them. They
//! are a contract (docs/formats.md, "Run directory and files").

/// Every parameter of the run, the seed included.
pub const RUN_TOML: &str = "run.toml";
/// One row per generation (per island), header first.
pub const STATS_CSV: &str = "stats.csv";
/// The checkpoints, `gen-NNNNNN.ckpt` (per rank under MPI).
pub const CHECKPOINTS: &str = "checkpoints";
/// The current champion; a run directory named where a genome is expected
/// stands for it.
pub const BEST_GENOME: &str = "best.genome";
/// How the run ended, once it has: the last generation and why
/// (`evolve::RunEnded`); removed when a resume runs more generations.
pub const ENDED_TOML: &str = "ended.toml";
/// The one-writer lock of the directory ([`super::RunLock`]).
pub const LOCK: &str = "lock";
