//! The `bebete` command line over the engine ([`bebete_core`]).
//!
//! The engine's modules are re-exported under their own names, so
//! `bebete::games` is `bebete_core::games`; this crate adds what a person
//! uses the engine through. Module map, in layers (checked by
//! `tests/integration/layers.rs`; see docs/architecture.md), above the engine's:
//! 9. [`typed`]: what a person types, read and echoed safely;
//! 10. [`plot`] (fitness curves) and [`play`] (terminal play);
//! 11. `serve` (feature `serve`, on by default): the browser page and its
//!    HTTP API;
//! 12. [`cli`]: the command line.

pub use bebete_core::{
    audit, bank, budget, dispatch, encoding, eval, evolve, explain, games, genome, labelling,
    observed, players, puzzle, seed, solve, store,
};

/// A line to standard error that never panics: a closed stderr (`bebete …
/// 2>&1 | head`) loses the line, as a closed stdout ends the command
/// quietly, where `eprintln!` would panic.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod cli;
pub mod play;
pub mod plot;
#[cfg(feature = "serve")]
pub mod serve;
pub mod typed;
