//! `bebete genome random|info|shell`: create a random genome, describe a
//! genome file, set the tactical shell a genome plays in.

use super::output::pretty_json;
use super::{GameArgs, draw_seed};
use crate::games::{GameKind, GameSpec, TakeRule};
use crate::genome::Genome;
use anyhow::Context;
use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum GenomeCommand {
    /// Write a genome of uniformly random genes
    #[command(after_help = "Examples:
  bebete genome random --game ttt --seed 7 --out genomes/random-ttt.genome
  bebete genome random --game nim --rule double --sticks 50 --seed 1 --out nim.genome")]
    Random(RandomArgs),
    /// Show a genome file's game, rules, size and provenance
    #[command(after_help = "Example:
  bebete genome info genomes/tictactoe.genome --json")]
    Info(InfoArgs),
    /// Copy a genome with a tactical shell of D plies (0 removes it)
    #[command(after_help = "Examples:
  bebete genome shell genomes/connect4-pure.genome --lookahead 4 --out c4-shelled.genome
  bebete explain c4-shelled.genome --position 4453

The shell plays a win at once, never leaves the opponent a win at once, and
from D = 2 takes wins and avoids losses that a D-ply search proves; the
genes choose among the moves left. play, eval, move and explain use it.")]
    Shell(ShellArgs),
}

#[derive(Args, Debug)]
pub struct ShellArgs {
    /// The genome file to copy
    pub file: PathBuf,
    /// Plies the shell searches after each move, 0-6
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(0..=6))]
    pub lookahead: u8,
    /// Where to write the copy
    #[arg(long, short)]
    pub out: PathBuf,
    /// Replace the file at --out if there is one
    #[arg(long)]
    pub force: bool,
}

/// Refuses to replace an existing file (a shipped champion, say) unless
/// `--force` was given.
fn check_out(out: &std::path::Path, force: bool) -> anyhow::Result<()> {
    if out.exists() && !force {
        anyhow::bail!(
            "{} exists: choose another --out, or add --force to replace it",
            out.display()
        );
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct RandomArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of the random genes [default: drawn and printed]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where to write the genome
    #[arg(long, short)]
    pub out: PathBuf,
    /// Replace the file at --out if there is one
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The genome file
    pub file: PathBuf,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(cmd: GenomeCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        GenomeCommand::Random(args) => random(args),
        GenomeCommand::Info(args) => info(args),
        GenomeCommand::Shell(args) => shell(args),
    }
}

fn shell(args: ShellArgs) -> anyhow::Result<ExitCode> {
    check_out(&args.out, args.force)?;
    let mut genome = Genome::load(&args.file)?;
    genome.lookahead = args.lookahead;
    genome.save(&args.out)?;
    writeln!(
        std::io::stdout(),
        "wrote {} with a shell of lookahead {} to {}",
        args.file.display(),
        args.lookahead,
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn random(args: RandomArgs) -> anyhow::Result<ExitCode> {
    let spec = args.game.spec(GameKind::TicTacToe)?;
    check_out(&args.out, args.force)?;
    let seed = args.seed.unwrap_or_else(draw_seed);
    let genome = Genome::random(spec, seed);
    genome.save(&args.out)?;
    writeln!(
        std::io::stdout(),
        "wrote a random {spec} genome ({} genes, seed {seed}) to {}",
        genome.genes.len(),
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The rules of a game as JSON (`null` for games without parameters).
pub fn rules_json(spec: &GameSpec) -> serde_json::Value {
    match spec {
        GameSpec::Matchsticks(rules, _) => match rules.rule {
            TakeRule::Subtract {
                max_take,
                last_loses,
            } => {
                json!({"rule": "subtract", "sticks": rules.sticks, "max_take": max_take, "last_loses": last_loses})
            }
            TakeRule::Double => json!({"rule": "double", "sticks": rules.sticks}),
        },
        _ => serde_json::Value::Null,
    }
}

/// `genome info --json`.
#[derive(Serialize)]
struct InfoJson<'a> {
    file: &'a std::path::Path,
    game: &'static str,
    rules: serde_json::Value,
    genes: usize,
    lookahead: u8,
    provenance: &'a crate::genome::Provenance,
}

fn info(args: InfoArgs) -> anyhow::Result<ExitCode> {
    let genome = Genome::load(&args.file)?;
    let p = &genome.provenance;
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = InfoJson {
            file: &args.file,
            game: genome.game.kind().name(),
            rules: rules_json(&genome.game),
            genes: genome.genes.len(),
            lookahead: genome.lookahead,
            provenance: p,
        };
        write!(out, "{}", pretty_json(&report)?)?;
    } else {
        let unknown = || "unknown".to_string();
        writeln!(out, "file        {}", args.file.display())?;
        writeln!(out, "game        {}", genome.game)?;
        writeln!(out, "genes       {}", genome.genes.len())?;
        if genome.lookahead > 0 {
            writeln!(out, "lookahead   {} (tactical shell)", genome.lookahead)?;
        }
        writeln!(out, "run         {}", p.run.clone().unwrap_or_else(unknown))?;
        writeln!(
            out,
            "generation  {}",
            p.generation.map_or_else(unknown, |g| g.to_string())
        )?;
        writeln!(
            out,
            "fitness     {}",
            p.fitness.map_or_else(unknown, |f| f.to_string())
        )?;
        writeln!(
            out,
            "seed        {}",
            p.seed.map_or_else(unknown, |s| s.to_string())
        )?;
    }
    out.flush().context("writing the report")?;
    Ok(ExitCode::SUCCESS)
}
