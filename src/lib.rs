//! The `bebete` command line over the engine ([`bebete_core`]).
//!
//! The engine's modules are re-exported under their own names, so
//! `bebete::games` is `bebete_core::games`; this crate adds what a person
//! uses the engine through. Module map, in layers (checked by
//! `tests/integration/layers.rs`; see docs/architecture.md), above the engine's:
//! 8. [`plot`] (fitness curves) and [`play`] (terminal play);
//! 9. `serve` (feature `serve`, on by default): the browser page and its
//!    HTTP API;
//! 10. [`cli`]: the command line.

pub use bebete_core::{
    audit, bank, budget, dispatch, encoding, eval, evolve, explain, games, genome, labelling,
    players, puzzle, seed, solve, store,
};

pub mod cli;
pub mod play;
pub mod plot;
#[cfg(feature = "serve")]
pub mod serve;
