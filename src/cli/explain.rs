//! `bebete explain`: why a genome plays what it plays in a position.

use super::output::pretty_json;
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::{IllegalPolicy, UnknownPolicy};
use crate::explain::Explained;
use clap::Args;
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
pub fn parse_policy(text: &str) -> Result<IllegalPolicy, UnknownPolicy> {
    text.parse()
}

struct Explain<'a> {
    genes: &'a [u8],
    lookahead: u8,
    args: &'a ExplainArgs,
}

impl GameVisitor for Explain<'_> {
    type Output = anyhow::Result<String>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<String> {
        let text = self.args.position.as_str();
        let pos = super::output::position_in_play(&game, text)?;
        let explained = Explained::new(&game, self.genes, &pos, self.args.illegal, self.lookahead);
        if self.args.json {
            return pretty_json(&explained.report(&game, text));
        }
        let mut out = format!("{} after '{text}'\n", game.spec());
        out.push_str(&game.render(&pos));
        out.push_str(&explained.details(&game));
        Ok(out)
    }
}

/// What `bebete explain` prints for `args`: text, or JSON with `--json`.
pub fn text(args: &ExplainArgs) -> anyhow::Result<String> {
    let genome = super::game_args::load_genome(&args.genome)?;
    genome.game.visit(Explain {
        genes: &genome.genes,
        lookahead: genome.lookahead,
        args,
    })
}

pub fn run(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let text = text(&args)?;
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
