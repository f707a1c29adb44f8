//! bebete evolves game-playing genomes by genetic programming.
//!
//! A genome is a lookup table: the board is turned into a number
//! ([`encoding`]), the number picks a gene, the gene says what to play. A
//! population plays a round-robin, the best survive, and uniform crossover
//! plus mutation breed the rest ([`evolve`]).
//!
//! Module map:
//! - [`games`]: the rules of tic-tac-toe, matchsticks and Connect-Four;
//! - [`encoding`]: board → gene index, gene → move;
//! - [`genome`]: the gene table and its file;
//! - [`players`]: genomes and fixed opponents behind one trait;
//! - [`solve`]: exact values of the small games;
//! - [`evolve`]: the round-robin, breeding and the generation loop;
//! - [`store`]: framed files, atomic writes, run directories;
//! - [`cli`]: the command line.

pub mod audit;
pub mod cli;
pub mod encoding;
pub mod eval;
pub mod evolve;
pub mod games;
pub mod genome;
pub mod play;
pub mod players;
pub mod plot;
pub mod solve;
pub mod store;
