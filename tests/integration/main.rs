//! Every command-line and cross-module test, as modules of one test binary:
//! one link instead of twelve, so a fresh `cargo test` builds faster (see
//! docs/performance.md). The MPI and browser tests, which need cargo
//! features and system packages, keep their own binaries.

#[path = "../common/mod.rs"]
mod common;

mod bank_commands;
mod checkers;
mod docs;
mod evolve_commands;
mod evolve_settings;
mod genome_commands;
mod hostile_input;
mod invariants;
mod islands;
mod layers;
mod measure_commands;
mod othello;
mod play_and_plot;
mod reliability;
#[cfg(feature = "serve")]
mod serve_api;
#[cfg(feature = "serve")]
mod serve_refusals;
#[cfg(feature = "serve")]
mod serve_work;
mod shown_commands;
mod soak;
mod solitaire;
mod value_genome;
