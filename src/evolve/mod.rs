//! The evolution loop: round-robin, selection, breeding, checkpoints.
//!
//! One generation: every ordered pair of genomes plays one game
//! ([`tournament`]); the genomes are ranked by points (ties to the lower
//! index); the best `elite` survive unchanged; the rest are children of
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
mod driver;
pub mod hall;
pub mod population;
pub mod stats;
pub mod tournament;

pub use config::{
    ConfigError, Crossover, EvolveConfig, Fitness, Init, Mutation, MutationScope, Selection, Target,
};
pub use driver::{Evolution, EvolveError, GenerationReport, Observer, RunEnd};
pub use hall::Hall;
pub use population::Population;
pub use stats::StatsRow;

/// A seed for one unit of work, derived from the run seed and its place in
/// the run (splitmix64 over the three words). Never from thread identity or
/// time.
pub fn derive_seed(seed: u64, generation: u64, index: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    mix(mix(mix(seed) ^ generation) ^ index)
}
