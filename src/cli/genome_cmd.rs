//! `bebete genome random|info|shell|polish`: create a random genome,
//! describe a genome file, set the tactical shell a genome plays in, fit a
//! Connect-Four genome to the bank.

use super::output::pretty_json;
use super::{GameArgs, draw_seed};
use crate::bank::BankSource;
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::IllegalPolicy;
use crate::encoding::shell::max_lookahead;
use crate::evolve::tutor::Tutor;

use crate::games::GameName;
use crate::genome::Genome;
use anyhow::Context;
use clap::{Args, Subcommand};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum GenomeCommand {
    /// Write a genome of uniformly random genes
    #[command(after_help = "Examples:
  bebete genome random --game ttt --seed 7 --out genomes/random-ttt.genome
  bebete genome random --game nim --rule double --sticks 50 --seed 1 --out genomes/nim.genome")]
    Random(RandomArgs),
    /// Show a genome file's game, rules, size and provenance
    #[command(after_help = "Example:
  bebete genome info genomes/tictactoe.genome --json")]
    Info(InfoArgs),
    /// Copy a genome with a tactical shell of D plies (0 removes it)
    #[command(after_help = "Examples:
  bebete genome shell genomes/connect4-pure.genome --lookahead 4 --out genomes/c4-shelled.genome
  bebete explain genomes/c4-shelled.genome --position 4453

The shell plays a win at once, never leaves the opponent a win at once, and
from D = 2 takes wins and avoids losses that a D-ply search proves; the
genes choose among the moves left. play, eval, move and explain use it.")]
    Shell(ShellArgs),
    /// Fit a Connect-Four genome to the bank by local search (a Lamarckian step)
    #[command(after_help = "Examples:
  bebete genome polish genomes/connect4-pure.genome --passes 3 --out genomes/c4-polished.genome
  bebete genome polish runs/c4-first --bank banks/my.bank --passes 1 --out genomes/c4-fit.genome

Each pass sets every gene the bank's training positions read to the column
and weight (of 4 × 8 candidates) that keeps the solver's value in the most
of the positions reading it, inside the genome's own shell. Each pass prints
the share kept on the training positions and on the held-out ones, which
the fit never reads: the second says whether it generalises.")]
    Polish(PolishArgs),
}

#[derive(Args, Debug)]
pub struct PolishArgs {
    /// The genome file (or a run directory: its champion)
    pub file: PathBuf,
    /// Passes of local search, 1-20
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub passes: u32,
    /// The bank [default: builtin, the bank shipped in the binary]
    #[arg(long, value_name = "FILE")]
    pub bank: Option<String>,
    /// Where to write the polished genome
    #[arg(long, short)]
    pub out: PathBuf,
    /// Replace the file at --out if there is one
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct ShellArgs {
    /// The genome file to copy
    pub file: PathBuf,
    /// Plies the shell searches after each move, 0-6; a value genome
    /// (--encoder ntuple) searches with its own values instead, 0-12
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(0..=12))]
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
    super::output::check_out_path("--out", out, Some("my.genome"))?;
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
        GenomeCommand::Polish(args) => polish(args),
    }
}

/// Runs the passes of `genome polish` on a concrete game.
struct Polish<'a> {
    args: &'a PolishArgs,
    genome: &'a mut Genome,
}

impl GameVisitor for Polish<'_> {
    type Output = anyhow::Result<()>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<()> {
        let source = self
            .args
            .bank
            .as_deref()
            .map_or_else(BankSource::default, BankSource::parse);
        let policy = IllegalPolicy::default();
        let Some(tutor) = Tutor::new(&game, &source, policy, self.genome.lookahead)? else {
            anyhow::bail!(
                "{}: {} genome; only {} genomes learn from a bank",
                self.args.file.display(),
                crate::store::with_article(self.genome.game.game().name()),
                crate::dispatch::games_with(|a| a.banked, "and")
            );
        };
        let genes = &mut self.genome.genes;
        let report = |pass: String, genes: &[u8], changed: Option<u32>| -> anyhow::Result<()> {
            let train = tutor.train_rate(&game, genes).share();
            let held = tutor.held_out_rate(&game, genes).share();
            let changed = changed.map_or_else(String::new, |c| {
                format!("  ({c} gene{} changed)", if c == 1 { "" } else { "s" })
            });
            outln!("{pass:<8} train {train:.4}  held out {held:.4}{changed}");
            Ok(())
        };
        report("start".into(), genes, None)?;
        for pass in 1..=self.args.passes {
            let changed = tutor.polish(&game, genes);
            report(format!("pass {pass}"), genes, Some(changed))?;
        }
        Ok(())
    }
}

fn polish(args: PolishArgs) -> anyhow::Result<ExitCode> {
    check_out(&args.out, args.force)?;
    let mut genome = super::game_args::load_genome(&args.file)?;
    genome.game.visit(Polish {
        args: &args,
        genome: &mut genome,
    })?;
    genome.save(&args.out)?;
    outln!("wrote the polished genome to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn shell(args: ShellArgs) -> anyhow::Result<ExitCode> {
    check_out(&args.out, args.force)?;
    let mut genome = super::game_args::load_genome(&args.file)?;
    let most = max_lookahead(genome.game);
    if args.lookahead > most {
        anyhow::bail!(
            "--lookahead {}: must be 0-{most} for {} (0-12 only for value genomes)",
            args.lookahead,
            genome.game
        );
    }
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
    let spec = args.game.spec(GameName::TicTacToe)?;
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

/// `genome info --json` of an observed game's genome.
#[derive(Serialize)]
struct ObservedJson<'a> {
    file: &'a std::path::Path,
    game: &'a str,
    layout: &'a crate::observed::Layout,
    tuples: usize,
    tuple_length: usize,
    /// Whether each tuple also reads the board's mirror image.
    mirrored: bool,
    learned: &'a str,
    alpha: f32,
    /// The learning rate now, fallen with the games learned.
    alpha_now: f32,
    epsilon: f32,
    games_learned: u64,
    plays_with: &'static str,
}

/// Where an observed game's genome plays: its game is not compiled in.
const PLAYS_WITH: &str = "the Python package (bebete.load, bebete.openspiel.Bot)";

/// `genome info` of a genome of a game bebete was not built for (an
/// OpenSpiel game evolved from Python).
fn observed_info(args: &InfoArgs) -> anyhow::Result<ExitCode> {
    let file = crate::observed::TensorGenome::read(&args.file)?;
    let g = &file.genome;
    let (alpha, epsilon) = g.rates();
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = ObservedJson {
            file: &args.file,
            game: &file.game,
            layout: &file.layout,
            tuples: g.tuples(),
            tuple_length: g.length(),
            mirrored: g.mirrored(),
            learned: &file.history,
            alpha,
            alpha_now: g.learning_rate(),
            epsilon,
            games_learned: g.games(),
            plays_with: PLAYS_WITH,
        };
        write!(out, "{}", pretty_json(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "file        {}", args.file.display())?;
    writeln!(
        out,
        "game        {} (a game bebete was not built for)",
        file.game
    )?;
    writeln!(out, "reads       {}", file.layout.describe())?;
    let whole = if g.tuples() == 1 && g.length() == file.layout.cells() {
        " (the whole board: a table of every position)"
    } else if g.mirrored() {
        ", each read in both mirror images"
    } else {
        ""
    };
    writeln!(
        out,
        "tuples      {} of {} cells{whole}",
        g.tuples(),
        g.length()
    )?;
    writeln!(out, "learning    by TD: {}", file.history)?;
    writeln!(out, "rates       {}", g.rates_in_words())?;
    writeln!(out, "plays with  {PLAYS_WITH}")?;
    Ok(ExitCode::SUCCESS)
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
    /// How a learning genome learned (`null` for one that does not learn).
    learning: Option<crate::genome::Learning>,
}

fn info(args: InfoArgs) -> anyhow::Result<ExitCode> {
    if super::game_args::file_magic(&args.file)
        == Some(crate::observed::OBSERVED_GENOME_FORMAT.magic)
    {
        return observed_info(&args);
    }
    let genome = super::game_args::load_genome(&args.file)?;
    let p = &genome.provenance;
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = InfoJson {
            file: &args.file,
            game: genome.game.game().name(),
            rules: genome.game.rules_json(),
            genes: genome.genes.len(),
            lookahead: genome.lookahead,
            provenance: p,
            learning: genome.learning(),
        };
        write!(out, "{}", pretty_json(&report)?)?;
    } else {
        let unknown = || "unknown".to_string();
        writeln!(out, "file        {}", args.file.display())?;
        writeln!(out, "game        {}", genome.game)?;
        writeln!(out, "genes       {}", genome.genes.len())?;
        if genome.lookahead > 0 {
            let how = match genome.game.value_genome() {
                Some(_) => "alpha-beta over its own values",
                None => "tactical shell",
            };
            writeln!(out, "lookahead   {} ({how})", genome.lookahead)?;
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
        if let Some(learning) = genome.learning() {
            let how = match learning.opponent.as_deref() {
                Some("self") => "by self-play".to_string(),
                Some(spec) => format!("against {spec}"),
                None => "not recorded (a file written before the record)".to_string(),
            };
            let (s, p) = (learning.schedule, learning.schedule.params);
            writeln!(out, "learning    {how}, {} games learned from", p.games)?;
            let falls = match p.fixed_schedule {
                true => "α falls to a tenth and ε holds",
                false => "α falls to a quarter and ε to a tenth",
            };
            writeln!(
                out,
                "schedule    α {:.6} (now {:.6}), λ {:.2}, ε {:.3} (now {:.3}): {falls} over {} games",
                p.alpha, s.alpha_now, p.lambda, p.epsilon, s.epsilon_now, s.horizon
            )?;
            let mut how = Vec::new();
            if p.from_exploration {
                how.push("learns from its exploratory moves too".to_string());
            }
            if p.one_table {
                how.push("one table per tuple for both sides".to_string());
            }
            if p.fixed_schedule {
                how.push("α, λ and ε fixed for life (mutation leaves them)".to_string());
            }
            if p.stages > 1 {
                how.push(format!(
                    "tables by game stage: {} stages, each its own group of tuples",
                    p.stages
                ));
            }
            if !how.is_empty() {
                writeln!(out, "td          {}", how.join("; "))?;
            }
        }
    }
    out.flush().context("writing the report")?;
    Ok(ExitCode::SUCCESS)
}
