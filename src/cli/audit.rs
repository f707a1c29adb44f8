//! `bebete audit`: prove what a genome can and cannot be beaten by.

use super::explain::parse_policy;
use super::output::pretty_json;
use crate::audit::audit;
use crate::dispatch::{Dispatch, GameVisitor};
use crate::encoding::{IllegalPolicy, TableGame};
use crate::games::Side;
use crate::genome::Genome;
use crate::players::Knowledge;
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete audit genomes/tictactoe.genome
  bebete audit genomes/matchsticks.genome --json")]
pub struct AuditArgs {
    /// The genome file (tictactoe or matchsticks)
    pub genome: PathBuf,
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
    genes: &'a [u8],
    args: &'a AuditArgs,
}

impl GameVisitor for Audit<'_> {
    type Output = anyhow::Result<String>;

    fn visit<G: TableGame + Knowledge>(self, game: G) -> anyhow::Result<String> {
        if !G::SOLVABLE {
            anyhow::bail!(
                "audit walks every opponent line, which only tictactoe and matchsticks allow; measure Connect-Four with `bebete eval … --against perfect`"
            );
        }
        let r = audit(&game, self.genes, self.args.illegal);
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
        let mut out = format!(
            "{}\n\
             reachable   {} positions where the genome is to move\n\
             optimal     {} of them keep the game-theoretic value ({:.1}%)\n\
             as first    {} ({} losing lines)\n\
             as second   {} ({} losing lines)\n",
            game.spec(),
            r.reachable,
            r.optimal,
            100.0 * r.optimal_rate(),
            verdict(r.unbeatable_first),
            r.losing_lines_first,
            verdict(r.unbeatable_second),
            r.losing_lines_second,
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

pub fn run(args: AuditArgs) -> anyhow::Result<ExitCode> {
    let genome = Genome::load(&args.genome)?;
    let text = genome.game.visit(Audit {
        genes: &genome.genes,
        args: &args,
    })?;
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
