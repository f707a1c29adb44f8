//! The evolution loop: fitness, self-play learning, selection, breeding,
//! checkpoints.
//!
//! One generation: value genomes that learn first play their self-play
//! games, each learner with its own random stream (`learn`); every genome
//! is then scored by the run's fitness ([`fitness`]: the method's
//! round-robin of [`tournament`], a sample of it, games against fixed
//! opponents, a bank of solved positions, or a sum of such terms); the
//! genomes are ranked by fitness (ties to the lower index); the best
//! `elite` survive unchanged; the rest are children of
//! parents chosen from the elite (or by tournament selection), built by
//! uniform crossover and geometric-gap mutation ([`breeding`]). Every random
//! draw comes from a PCG seeded by (run seed, generation, child), so the run
//! is the same on any number of threads and a resumed run equals an
//! uninterrupted one. [`Evolution`] drives the loop; [`checkpoint`] saves and
//! restores its whole state.

pub mod bench;
pub mod breeding;
pub mod checkpoint;
mod config;
mod evolution;
pub mod exchange;
pub mod fitness;
pub mod hall;
pub(crate) mod operators;
pub(crate) mod population;
mod prepare;
mod run_dir;
pub mod stats;
pub mod tournament;
pub mod tutor;

pub use config::{ConfigError, EvolveConfig, MethodSettings, Preset, Recommended, SettingError};
pub use evolution::{Evolution, EvolveError, GenerationReport, Observer, Prepared, RunEnd};
pub use fitness::Fitness;
pub use hall::Hall;
pub use operators::{Crossover, Init, Mutation, OperatorError, Selection, Target};
pub use population::Population;
pub use run_dir::{RunDir, RunEnded, run_toml_text};
pub use stats::StatsRow;
