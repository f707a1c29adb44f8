//! bebete evolves game-playing genomes by genetic programming.
//!
//! A genome is a lookup table: the board is turned into a number
//! ([`encoding`]), the number picks a gene, the gene says what to play. A
//! population plays a round-robin, the best survive, and uniform crossover
//! plus mutation breed the rest ([`evolve`]).
//!
//! Module map, in layers: a module uses only modules of the layers before
//! its own (checked by `tests/layers.rs`; see docs/architecture.md).
//! 0. [`seed`] (derived seeds) and [`store`] (framed files, atomic writes,
//!    the directory lock);
//! 1. [`games`]: the rules of tic-tac-toe, matchsticks and Connect-Four,
//!    and the one walk over their positions;
//! 2. [`solve`]: exact values of the small games; [`solo`]: exact results
//!    of peg solitaire;
//! 3. [`encoding`]: board → gene index, gene → move; [`bank`]:
//!    solver-labelled positions;
//! 4. [`genome`]: the gene table and its file;
//! 5. [`players`]: genomes and fixed opponents behind one trait, and what
//!    the opponents know about each game;
//! 6. [`audit`], [`eval`], [`explain`] (why a genome plays its move),
//!    [`labelling`] (building a bank) and [`dispatch`] (from a game named as
//!    data to generic code);
//! 7. [`evolve`]: fitness, breeding, the generation loop, run directories;
//! 8. [`plot`] and [`play`];
//! 9. `serve` (feature `serve`, on by default): the browser page and its
//!    HTTP API;
//! 10. [`cli`]: the command line.

pub mod audit;
pub mod bank;
pub mod cli;
pub mod dispatch;
pub mod encoding;
pub mod eval;
pub mod evolve;
pub mod explain;
pub mod games;
pub mod genome;
pub mod labelling;
pub mod play;
pub mod players;
pub mod plot;
pub mod seed;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solo;
pub mod solve;
pub mod store;
