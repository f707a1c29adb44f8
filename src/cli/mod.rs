//! The command line: clap types, one file per subcommand.
//!
//! Raw arguments are parsed by clap here, resolved into validated library
//! settings (a [`GameSpec`](crate::games::GameSpec), an evolution config, …)
//! and only then handed to the library. `main` only calls [`run`] and prints
//! the error chain on one line.

/// `println!` that returns a closed stdout as an error (a broken pipe,
/// which `main` treats as a normal end) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)?
    }};
}

pub mod api;
mod audit;
mod bank;
mod eval;
mod evolution_run;
mod evolve;
mod explain;
mod game_args;
mod genome_cmd;
mod league;
mod move_cmd;
mod output;
mod play_cmd;
pub mod plot_cmd;
mod resume;
#[cfg(feature = "serve")]
mod serve_cmd;
mod solve;
mod summary;

pub use game_args::{FLAGS, FlagError, GameArgs, RuleArg};
pub use output::{draw_seed, is_broken_pipe};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// bebete evolves game-playing genomes: lookup tables that map a board to a
/// move, bred by round-robin tournaments, uniform crossover and mutation.
#[derive(Parser, Debug)]
#[command(name = "bebete", version, about, long_about = None)]
#[command(after_help = "Examples:
  bebete evolve                      evolve tic-tac-toe with the defaults
  bebete evolve --game c4 --seed 1   evolve Connect-Four
  bebete resume runs/tictactoe-1 --generations 100
  bebete genome random --game ttt --seed 7 --out genomes/random.genome
  bebete explain genomes/random.genome --position 519
  bebete move genomes/random.genome --position 519
  bebete bank --game c4 --positions 2000 --seed 1 --out banks/my.bank
  bebete serve                       play and watch in the browser")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Evolve a population of genomes (writes a run directory and a champion)
    Evolve(Box<evolve::EvolveArgs>),
    /// Continue a run from its newest valid checkpoint
    Resume(resume::ResumeArgs),
    /// Create or inspect genome files
    #[command(
        subcommand,
        after_help = "Examples:
  bebete genome random --game c4 --seed 7 --out genomes/my-c4.genome
  bebete genome info genomes/connect4.genome
  bebete genome info runs/tictactoe-1 --json      (a run directory: its best.genome)
  bebete genome shell genomes/connect4-pure.genome --lookahead 3 --out genomes/c4-d3.genome
  bebete genome polish genomes/connect4-pure.genome --passes 2 --out genomes/c4-fit.genome"
    )]
    Genome(genome_cmd::GenomeCommand),
    /// Show why a genome plays what it plays in a position
    Explain(explain::ExplainArgs),
    /// Answer positions with moves (one, or a stream on stdin)
    Move(move_cmd::MoveArgs),
    /// Score a genome or player against fixed opponents
    Eval(eval::EvalArgs),
    /// Prove exactly whether a genome can be beaten (a game solved whole), or measure it on a solver-labelled bank
    Audit(audit::AuditArgs),
    /// Play against a genome (the shipped champion by default) in the terminal
    Play(play_cmd::PlayArgs),
    /// Draw fitness curves of runs to PNG or SVG
    Plot(plot_cmd::PlotArgs),
    /// Solve a small game exactly: its value, positions and best first moves
    Solve(solve::SolveArgs),
    /// Build a solver-labelled bank of Connect-Four positions (or describe or merge banks)
    Bank(bank::BankArgs),
    /// Play and watch in the browser: a local web server with a JSON API
    #[cfg(feature = "serve")]
    Serve(serve_cmd::ServeArgs),
}

/// Runs a parsed command line; the exit code on success (`move` exits 1 when
/// some input line failed).
/// Parses the process's arguments, with `evolve --help` listing each
/// game's defaults from the settings a run uses
/// (`evolve::defaults_by_game`). Exits on `--help`, `--version` and a
/// flag clap refuses, as `Cli::parse` does.
pub fn parse() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    let command = with_encoder_help(Cli::command(), &game_args::encoder_help());
    let command = command.mut_subcommand("evolve", |evolve| {
        let examples = evolve
            .get_after_long_help()
            .map(|h| h.to_string())
            .unwrap_or_default();
        // Help among the run's flags: `-h` fits one screen without a
        // heading of its own.
        let help = clap::Arg::new("help")
            .short('h')
            .long("help")
            .action(clap::ArgAction::Help)
            .help("Print help (--help: the details, examples and each game's defaults)")
            .help_heading("Run");
        evolve
            .disable_help_flag(true)
            .arg(help)
            .after_long_help(format!("{examples}\n\n{}", evolve::defaults_by_game()))
            .mut_arg("fitness", |arg| {
                arg.long_help(crate::evolve::Fitness::help())
            })
    });
    let matches = command.get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// `cmd` and its subcommands with `--encoder`'s long help set to `help`.
fn with_encoder_help(cmd: clap::Command, help: &str) -> clap::Command {
    let cmd = if cmd.get_arguments().any(|a| a.get_id() == "encoder") {
        cmd.mut_arg("encoder", |arg| arg.long_help(help.to_string()))
    } else {
        cmd
    };
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    names.iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(name, |sub| with_encoder_help(sub, help))
    })
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Evolve(args) => evolve::run(*args),
        Command::Resume(args) => resume::run(args),
        Command::Genome(cmd) => genome_cmd::run(cmd),
        Command::Explain(args) => explain::run(args),
        Command::Move(args) => move_cmd::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Plot(args) => plot_cmd::run(args),
        Command::Play(args) => play_cmd::run(args),
        Command::Bank(args) => bank::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve_cmd::run(args),
    }
}

/// How a genome with `lookahead` plays, as `play` and `eval` name it:
/// nothing when alone, else its search or its tactical shell.
pub fn lookahead_note(game: crate::games::GameSpec, lookahead: u8) -> String {
    match lookahead {
        0 => String::new(),
        d if game.value_genome().is_some() => format!(", searching {d} plies"),
        d => format!(", in its tactical shell of lookahead {d}"),
    }
}
