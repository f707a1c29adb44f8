//! The bebete engine: games, lookup-table genomes, players, exact solving,
//! measuring and evolution, with no command line, terminal, plotting or
//! server dependency (the `bebete` binary crate holds those).
//!
//! A genome is a lookup table: the board is turned into a number
//! ([`encoding`]), the number picks a gene, the gene says what to play. A
//! second genome kind, the value genome ([`encoding::ntuple`]), is a table
//! of weights over small tuples of cells that values positions and learns
//! by self-play. A population is scored (a round-robin, fixed opponents or
//! solved positions), the best survive, and uniform crossover plus
//! mutation breed the rest ([`evolve`]).
//!
//! A game of your own plugs in through four traits: [`games::Game`] (the
//! rules), [`encoding::TableGame`] (how a gene table decides a move),
//! [`players::Knowledge`] (what the fixed players know of it) and
//! [`games::Identified`] (the name its files carry). Then the engine's
//! own loop, [`evolve::Evolution`], runs it as it runs a built-in game:
//! fitness terms, checkpoints, an exact resume, genome files. This
//! crate's `examples/own_game.rs` evolves a game it does not know.
//!
//! Module map, in layers: a module uses only modules of the layers before
//! its own (checked by `tests/integration/layers.rs`; see docs/architecture.md).
//! 0. [`seed`] (derived seeds), [`store`] (framed files, atomic writes,
//!    the directory lock) and [`budget`] (when a search must stop);
//! 1. [`games`]: the rules of tic-tac-toe, matchsticks, Connect-Four,
//!    checkers, Othello and peg solitaire, and the one walk over their
//!    positions;
//! 2. [`solve`]: exact values of the small games (perft counts for
//!    checkers and Othello); [`puzzle`]: exact results of peg solitaire;
//! 3. [`encoding`]: board → gene index, gene → move; [`bank`]:
//!    solver-labelled positions;
//! 4. [`genome`]: the gene table and its file;
//! 5. [`players`]: genomes and fixed opponents behind one trait, and what
//!    the opponents know about each game;
//! 6. [`audit`], [`eval`], [`explain`] (why a genome plays its move),
//!    [`labelling`] (building a bank) and [`dispatch`] (from a game named as
//!    data to generic code);
//! 7. [`evolve`]: fitness, breeding, the generation loop, run directories;
//! 8. [`observed`]: games outside bebete seen through an observation
//!    tensor (OpenSpiel's, from Python), their value genomes and runs.

// No unsafe code in the engine. The unit tests' counting allocator
// (`hot_paths`, a `GlobalAlloc`) is the one exception, allowed there alone.
#![warn(missing_docs, unreachable_pub)]
#![cfg_attr(not(test), forbid(unsafe_code))]
#![cfg_attr(test, deny(unsafe_code))]

pub mod audit;
pub mod bank;
pub mod budget;
pub mod dispatch;
pub mod encoding;
pub mod eval;
pub mod evolve;
pub mod explain;
pub mod games;
pub mod genome;
#[cfg(test)]
#[allow(unsafe_code)]
mod hot_paths;
pub mod labelling;
pub mod observed;
pub mod players;
pub mod puzzle;
pub mod seed;
pub mod solve;
pub mod store;
