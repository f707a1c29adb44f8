//! `bebete audit`: prove what a genome can and cannot be beaten by (the
//! small games), or measure it on a solver-labelled bank (Connect-Four).

use super::explain::parse_policy;
use super::output::pretty_json;
use crate::audit::audit;
use crate::bank::BankSource;
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor, abilities, games_with, visit_puzzle};
use crate::encoding::IllegalPolicy;
use crate::evolve::tutor::Tutor;
use crate::games::Side;
use crate::genome::Genome;
use crate::players::{Puzzle, PuzzleVisitor};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete audit genomes/tictactoe.genome
  bebete audit genomes/matchsticks.genome --json
  bebete audit genomes/connect4.genome --bank both.bank
  bebete audit genomes/solitaire.genome

Tic-tac-toe and matchsticks are audited exactly: every position the genome
can reach, every line an opponent can play. Connect-Four is too large for
that: its audit is the share of a solver-labelled bank's held-out positions
where the genome's move (inside its shell) keeps the solver's value.
Solitaire: the pegs the genome leaves from the start, and over every
reachable position, where its jump keeps the best count and from where it
still finishes with it.")]
pub struct AuditArgs {
    /// The genome file (or a run directory: its champion)
    pub genome: PathBuf,
    /// Connect-Four: the bank to measure on [default: builtin, the bank
    /// shipped in the binary]
    #[arg(long, value_name = "FILE")]
    pub bank: Option<String>,
    /// What an illegal gene does: repair or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// Line counts beyond u64 (huge matchsticks trees) are reported as u64::MAX.
fn saturate(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// `audit --json`.
#[derive(Serialize)]
struct AuditJson {
    reachable: usize,
    optimal: usize,
    optimal_rate: f64,
    unbeatable_first: bool,
    unbeatable_second: bool,
    losing_lines: u64,
    losing_lines_first: u64,
    losing_lines_second: u64,
    example: Option<LosingLine>,
}

/// One line of play that beats the genome, with the genome's side.
#[derive(Serialize)]
struct LosingLine {
    side: &'static str,
    line: String,
}

struct Audit<'a> {
    genome: &'a Genome,
    args: &'a AuditArgs,
}

/// `audit --json` of a Connect-Four genome.
#[derive(Serialize)]
struct BankAuditJson {
    bank: String,
    lookahead: u8,
    held_out: u64,
    optimal: u64,
    optimal_rate: f64,
    train: u64,
    train_rate: f64,
}

impl Audit<'_> {
    /// The bank audit of a game too large to walk.
    fn on_bank<G: BuiltInGame>(&self, game: G) -> anyhow::Result<String> {
        let source = self
            .args
            .bank
            .as_deref()
            .map_or_else(BankSource::default, BankSource::parse);
        let lookahead = self.genome.lookahead;
        let Some(tutor) = Tutor::new(&game, &source, self.args.illegal, lookahead)? else {
            anyhow::bail!("{}: no bank for this game", self.args.genome.display());
        };
        let genes = &self.genome.genes;
        // Each position is a search of the genome's lookahead: minutes for
        // a deep one, so the two passes say what they do and how long.
        let searching = match lookahead {
            0 => "its table alone".to_string(),
            d => format!("searching {d} plies at each"),
        };
        errln!("audit: the held-out positions of the bank {source}, the genome {searching}…");
        let started = std::time::Instant::now();
        let held = tutor.held_out_rate(&game, genes);
        let pace = started.elapsed().as_secs_f64() / held.positions.max(1) as f64;
        let train_positions = tutor.train_positions(&game);
        errln!(
            "audit: {} held-out positions in {:.1} s; now the {train_positions} training positions (about {:.0} s at that pace)…",
            held.positions,
            started.elapsed().as_secs_f64(),
            pace * train_positions as f64
        );
        let train = tutor.train_rate(&game, genes);
        let report = BankAuditJson {
            bank: source.to_string(),
            lookahead,
            held_out: held.positions,
            optimal: held.kept,
            optimal_rate: held.share(),
            train: train.positions,
            train_rate: train.share(),
        };
        if self.args.json {
            return pretty_json(&report);
        }
        let shell = match report.lookahead {
            0 => "pure".to_string(),
            d => format!("in a shell of lookahead {d}"),
        };
        Ok(format!(
            "{}, {shell}, on the bank {}\n\
             held out    {} positions training never reads\n\
             optimal     {} of them keep the solver's value ({:.1}%)\n\
             training    {} positions, {:.1}% kept\n\
             (Connect-Four is too large to walk every line: no proof of unbeatability)\n",
            game.spec(),
            report.bank,
            report.held_out,
            report.optimal,
            100.0 * report.optimal_rate,
            report.train,
            100.0 * report.train_rate,
        ))
    }
}

impl GameVisitor for Audit<'_> {
    type Output = anyhow::Result<String>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<String> {
        if !G::SOLVABLE && G::BANKED {
            return self.on_bank(game);
        }
        if !G::SOLVABLE {
            anyhow::bail!(
                "{}: audit proves {} exactly and measures {} on a bank; {} has neither a solved table nor a bank: eval measures it against fixed players (e.g. --against random,rules,alphabeta:4)",
                self.args.genome.display(),
                games_with(|a| a.solvable, "and"),
                games_with(|a| a.banked, "and"),
                game.spec().game()
            );
        }
        if self.args.bank.is_some() {
            anyhow::bail!(
                "--bank: {} is solved whole and audited exactly; a bank is for {}",
                game.spec(),
                games_with(|a| a.banked, "and")
            );
        }
        if self.genome.lookahead > 0 {
            anyhow::bail!(
                "{}: the exact audit walks the pure genome; this one plays in a shell (genome shell … --lookahead 0 removes it)",
                self.args.genome.display()
            );
        }
        let r = audit(&game, &self.genome.genes, self.args.illegal);
        let side_name = |s: Side| if s == Side::First { "first" } else { "second" };
        if self.args.json {
            let report = AuditJson {
                reachable: r.reachable,
                optimal: r.optimal,
                optimal_rate: r.optimal_rate(),
                unbeatable_first: r.unbeatable_first,
                unbeatable_second: r.unbeatable_second,
                losing_lines: saturate(r.losing_lines()),
                losing_lines_first: saturate(r.losing_lines_first),
                losing_lines_second: saturate(r.losing_lines_second),
                example: r.example.as_ref().map(|(s, line)| LosingLine {
                    side: side_name(*s),
                    line: line.clone(),
                }),
            };
            return pretty_json(&report);
        }
        let verdict = |unbeatable: bool| if unbeatable { "unbeatable" } else { "beatable" };
        let losing_lines = |n| match n {
            1 => "1 losing line".to_string(),
            n => format!("{n} losing lines"),
        };
        let mut out = format!(
            "{}\n\
             reachable   {} positions where the genome is to move\n\
             optimal     {} of them keep the game-theoretic value ({:.1}%)\n\
             as first    {} ({})\n\
             as second   {} ({})\n",
            game.spec(),
            r.reachable,
            r.optimal,
            100.0 * r.optimal_rate(),
            verdict(r.unbeatable_first),
            losing_lines(r.losing_lines_first),
            verdict(r.unbeatable_second),
            losing_lines(r.losing_lines_second),
        );
        if let Some((side, line)) = &r.example {
            out.push_str(&format!(
                "a loss      playing {}: {line}\n",
                side_name(*side)
            ));
        }
        Ok(out)
    }
}

/// `audit` of a puzzle's genome (a one-player game solved whole).
struct AuditPuzzle<'a> {
    genome: &'a Genome,
    args: &'a AuditArgs,
}

impl PuzzleVisitor for AuditPuzzle<'_> {
    type Output = anyhow::Result<String>;

    fn visit<P: Puzzle>(self, game: &P) -> anyhow::Result<String> {
        let (genome, args) = (self.genome, self.args);
        if args.bank.is_some() {
            anyhow::bail!(
                "--bank: banks are for {}; {} is audited on every reachable position",
                games_with(|a| a.banked, "and"),
                genome.game.game()
            );
        }
        let report = game.audit(&genome.genes, args.illegal)?;
        if args.json {
            return pretty_json(&report);
        }
        Ok(format!(
            "{} ({})\n{report}",
            genome.game,
            args.genome.display()
        ))
    }
}

pub fn run(args: AuditArgs) -> anyhow::Result<ExitCode> {
    let genome = super::game_args::load_genome(&args.genome)?;
    if abilities(genome.game).players == 1 {
        let text = visit_puzzle(
            genome.game,
            AuditPuzzle {
                genome: &genome,
                args: &args,
            },
        )
        .map_err(|e| anyhow::anyhow!("{} is a one-player game, but {e}", genome.game))??;
        std::io::stdout().write_all(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = genome.game.visit(Audit {
        genome: &genome,
        args: &args,
    })?;
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
