//! `bebete explain`: why a genome plays what it plays in a position.

use crate::dispatch::{Dispatch, GameVisitor};
use crate::encoding::{Genotype, IllegalPolicy, Reason};
use crate::genome::Genome;
use crate::players::Knowledge;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete explain genomes/tictactoe.genome --position 519
  bebete explain genomes/connect4.genome --position 4453 --json
  bebete explain genomes/matchsticks.genome --position 3,1,2")]
pub struct ExplainArgs {
    /// The genome file
    pub genome: PathBuf,
    /// The moves played so far, in the position notation (empty: the start)
    #[arg(long, short, default_value = "", allow_hyphen_values = true)]
    pub position: String,
    /// What an illegal gene does: repair or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// clap value parser for `--illegal`.
pub fn parse_policy(text: &str) -> Result<IllegalPolicy, String> {
    match text {
        "repair" => Ok(IllegalPolicy::Repair),
        "forfeit" => Ok(IllegalPolicy::Forfeit),
        _ => Err("expected repair or forfeit".to_string()),
    }
}

struct Explain<'a> {
    genes: &'a [u8],
    args: &'a ExplainArgs,
}

impl GameVisitor for Explain<'_> {
    type Output = anyhow::Result<String>;

    fn visit<G: Genotype + Knowledge>(self, game: G) -> anyhow::Result<String> {
        let text = self.args.position.as_str();
        let pos = game
            .parse_position(text)
            .map_err(|e| anyhow::anyhow!("position '{text}': {e}"))?;
        if game.outcome(&pos).is_some() {
            anyhow::bail!("position '{text}': the game is already over");
        }
        let reason = game.explain(self.genes, &pos, self.args.illegal);
        let mv = reason.chosen().map(|m| game.format_move(m));
        if self.args.json {
            let mut value = json!({
                "game": game.spec().kind().name(),
                "position": text,
                "move": mv,
            });
            match &reason {
                Reason::Lookup {
                    index,
                    gene,
                    repaired,
                    ..
                } => {
                    value["index"] = json!(index);
                    value["gene"] = json!(gene);
                    value["repaired"] = json!(repaired);
                }
                Reason::Votes { windows, votes, .. } => {
                    value["windows"] = windows
                        .iter()
                        .map(|w| {
                            json!({
                                "column_offset": w.column_offset,
                                "row_offset": w.row_offset,
                                "index": w.index,
                                "gene": w.gene,
                                "column": w.column + 1,
                                "weight": w.weight,
                            })
                        })
                        .collect();
                    value["votes"] = json!(votes);
                }
            }
            return Ok(serde_json::to_string_pretty(&value)? + "\n");
        }
        let mut out = format!("{} after '{text}'\n", game.spec());
        out.push_str(&game.render(&pos));
        let played = mv.clone().unwrap_or_else(|| "forfeit".to_string());
        match &reason {
            Reason::Lookup {
                index,
                gene,
                repaired,
                ..
            } => {
                out.push_str(&format!("index {index}, gene {gene}"));
                match (repaired, &mv) {
                    (true, _) => out.push_str(&format!(" (illegal, repaired) -> move {played}\n")),
                    (false, None) => out.push_str(" (illegal) -> forfeit\n"),
                    (false, Some(_)) => out.push_str(&format!(" -> move {played}\n")),
                }
            }
            Reason::Votes { windows, votes, .. } => {
                out.push_str("window (col+row offset)    index  gene  votes for column\n");
                for w in windows {
                    out.push_str(&format!(
                        "  +{} +{}                  {:>7}  {:>4}  {} with weight {}\n",
                        w.column_offset,
                        w.row_offset,
                        w.index,
                        w.gene,
                        w.column + 1,
                        w.weight
                    ));
                }
                let sums: Vec<String> = votes
                    .iter()
                    .enumerate()
                    .map(|(c, v)| format!("{}:{v}", c + 1))
                    .collect();
                out.push_str(&format!("column sums  {}\n", sums.join("  ")));
                out.push_str(&format!(
                    "move {played} (the heaviest legal column; ties to the centre, then the left)\n"
                ));
            }
        }
        Ok(out)
    }
}

pub fn run(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let genome = Genome::load(&args.genome)?;
    let text = genome.game.visit(Explain {
        genes: &genome.genes,
        args: &args,
    })?;
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
