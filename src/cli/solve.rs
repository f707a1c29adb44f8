//! `bebete solve`: exact values of tic-tac-toe and matchsticks.

use super::GameArgs;
use crate::dispatch::{Dispatch, GameVisitor};
use crate::encoding::Genotype;
use crate::games::GameKind;
use crate::players::Knowledge;
use crate::solve::SolvedTable;
use crate::solve::Value;
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete solve --game ttt
  bebete solve --game nim --rule double --sticks 55 --json")]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

struct Survey {
    json: bool,
}

impl GameVisitor for Survey {
    type Output = anyhow::Result<String>;

    fn visit<G: Genotype + Knowledge>(self, game: G) -> anyhow::Result<String> {
        if !G::SOLVABLE {
            anyhow::bail!(
                "solve enumerates every position, which only tictactoe and matchsticks allow; measure Connect-Four with `bebete eval … --against perfect`"
            );
        }
        let table = SolvedTable::build(&game);
        let value_of = |pos: &G::Position| table.get(pos).unwrap_or(Value::Draw);
        let (mut terminal, mut won, mut lost, mut drawn) = (0u64, 0u64, 0u64, 0u64);
        for pos in table.positions() {
            match value_of(pos) {
                Value::Win => won += 1,
                Value::Loss => lost += 1,
                Value::Draw => drawn += 1,
            }
            terminal += game.outcome(pos).is_some() as u64;
        }
        let start = game.start();
        let mut moves = Vec::new();
        game.legal_moves(&start, &mut moves);
        let best: Vec<String> = moves
            .into_iter()
            .filter(|&m| value_of(&game.play(&start, m)).flip() == value_of(&start))
            .map(|m| game.format_move(m))
            .collect();
        let value = value_of(&start).name();
        let positions = table.len();
        if self.json {
            let doc = json!({
                "game": game.spec().kind().name(),
                "rules": super::genome_cmd::rules_json(&game.spec()),
                "positions": positions,
                "terminal": terminal,
                "won": won,
                "lost": lost,
                "drawn": drawn,
                "value": value,
                "best_moves": best,
            });
            return Ok(serde_json::to_string_pretty(&doc)? + "\n");
        }
        Ok(format!(
            "{}\n\
             positions   {} reachable from the start, {terminal} of them terminal\n\
             side to move wins {won}, loses {lost}, draws {drawn}\n\
             value       {value} for the first player\n\
             best moves  {}\n",
            game.spec(),
            positions,
            best.join(" ")
        ))
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let spec = args.game.spec(GameKind::TicTacToe)?;
    let text = spec.visit(Survey { json: args.json })?;
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
