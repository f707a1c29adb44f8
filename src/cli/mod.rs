//! The command line: clap types, one file per subcommand.
//!
//! Raw arguments are parsed by clap here, resolved into validated library
//! settings (a [`GameSpec`](crate::games::GameSpec), an evolution config, …)
//! and only then handed to the library. `main` only calls [`run`] and prints
//! the error chain on one line.

mod explain;
mod game_args;
mod genome_cmd;
mod move_cmd;
mod output;

pub use game_args::{GameArgs, RuleArg};
pub use output::{draw_seed, is_broken_pipe};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// bebete evolves game-playing genomes: lookup tables that map a board to a
/// move, bred by round-robin tournaments, uniform crossover and mutation.
#[derive(Parser, Debug)]
#[command(name = "bebete", version, about, long_about = None)]
#[command(after_help = "Examples:
  bebete genome random --game ttt --seed 7 --out genomes/random.genome
  bebete explain genomes/random.genome --position 519
  bebete move genomes/random.genome --position 519")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create or inspect genome files
    #[command(subcommand)]
    Genome(genome_cmd::GenomeCommand),
    /// Show why a genome plays what it plays in a position
    Explain(explain::ExplainArgs),
    /// Answer positions with moves (one, or a stream on stdin)
    Move(move_cmd::MoveArgs),
}

/// Runs a parsed command line; the exit code on success (`move` exits 1 when
/// some input line failed).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Genome(cmd) => genome_cmd::run(cmd),
        Command::Explain(args) => explain::run(args),
        Command::Move(args) => move_cmd::run(args),
    }
}
