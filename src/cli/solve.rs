//! `bebete solve`: exact values of tic-tac-toe and matchsticks, exact
//! results of peg solitaire, and the exact score of every move of a position
//! of any game.

use super::GameArgs;
use super::output::pretty_json;
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor, abilities, visit_puzzle};
use crate::games::GameName;
use crate::players::{Puzzle, PuzzleVisitor};
use crate::puzzle::PuzzleError;
use crate::solve::SolvedTable;
use crate::solve::{Score, Value};
use clap::Args;
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete solve --game ttt
  bebete solve --game nim --rule double --sticks 55 --json
  bebete solve --game ttt --position 15
  bebete solve --game c4 --position 4453 --json
  bebete solve --game solitaire --rows 6 --empty 4
  bebete solve --game peg --position 4-1,6-4
  bebete solve --game checkers --perft 8
  bebete solve --game checkers --perft 6 --position \"B:W18,24,27,K28:B12,16,20,K22\"
  bebete solve --game othello --perft 11

With --position, the exact score of every legal move there: for tictactoe
and matchsticks the plies to the end with best play; for connect4 the
solver's score (positive: the mover wins, higher is sooner; negative: a loss,
nearer 0 is later). Early Connect-Four positions take the solver seconds.

With --perft D, the number of move sequences of 1, 2, ..., D plies from the
start (or from --position) instead: the count engine writers compare their
move generators against (checkers from the start: 7, 49, 302, 1469, ...;
Othello: 4, 12, 56, 244, ..., a pass counted as a ply). Checkers and Othello
have no exact solver, so --perft is what solve does for them.")]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Score each legal move of this position (the moves played from the start)
    #[arg(long, value_name = "MOVES")]
    pub position: Option<String>,
    /// Count the move sequences of 1..=D plies instead of solving, 1-20 (each ply multiplies the time)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub perft: Option<u32>,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
}

/// `solve --perft D --json`: the count at each depth.
#[derive(Serialize)]
struct PerftReport {
    game: &'static str,
    position: String,
    counts: Vec<PerftRow>,
}

#[derive(Serialize)]
struct PerftRow {
    depth: u32,
    sequences: u64,
    seconds: f64,
}

/// `solve --perft D`.
struct Perft {
    depth: u32,
    position: Option<String>,
    json: bool,
}

impl GameVisitor for Perft {
    type Output = anyhow::Result<String>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<String> {
        let text = self.position.unwrap_or_default();
        let pos = super::output::position_of(&game, &text)?;
        let mut counts = Vec::new();
        let mut out = format!(
            "{} from {}\ndepth     sequences   seconds\n",
            rules_only(&game.spec().to_string()),
            if text.is_empty() { "the start" } else { &text }
        );
        for depth in 1..=self.depth {
            let clock = std::time::Instant::now();
            let sequences = game.perft(&pos, depth);
            let seconds = clock.elapsed().as_secs_f64();
            out.push_str(&format!("{depth:>5} {sequences:>13} {seconds:>9.2}\n"));
            counts.push(PerftRow {
                depth,
                sequences,
                seconds,
            });
        }
        if self.json {
            return pretty_json(&PerftReport {
                game: game.spec().game().name(),
                position: text,
                counts,
            });
        }
        Ok(out)
    }
}

/// The games whose every position `solve` enumerates (from the registry):
/// the solvable two-player games and the one-player puzzles.
fn enumerable_games() -> String {
    let names: Vec<&str> = GameName::ALL
        .iter()
        .filter(|kind| {
            let abilities = abilities(kind.variants()[0]);
            abilities.solvable || abilities.players == 1
        })
        .map(|kind| kind.name())
        .collect();
    crate::store::listed(&names, "and")
}

/// A game's description without its genome's part: `othello (value
/// genome, 21×4 straight tuples)` is `othello`, `matchsticks (double, 30
/// sticks, …; sticks encoder)` keeps its rules. Move sequences are the
/// rules' alone.
fn rules_only(described: &str) -> String {
    let Some((name, inside)) = described.strip_suffix(')').and_then(|d| d.split_once(" (")) else {
        return described.to_string();
    };
    let genome = |part: &&str| {
        part.contains("encoder") || part.contains("genome") || part.contains("tuples")
    };
    let rules: Vec<&str> = inside.split("; ").filter(|p| !genome(p)).collect();
    if rules.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({})", rules.join("; "))
    }
}

/// `solve --json` of a whole game.
#[derive(Serialize)]
struct SurveyReport {
    game: &'static str,
    rules: serde_json::Value,
    positions: usize,
    terminal: u64,
    won: u64,
    lost: u64,
    drawn: u64,
    value: &'static str,
    best_moves: Vec<String>,
}

/// One legal move of `solve --position`.
#[derive(Serialize)]
struct MoveScore {
    #[serde(rename = "move")]
    mv: String,
    value: &'static str,
    /// Plies to the end with best play (tic-tac-toe, matchsticks).
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<u32>,
    /// The solver's score (Connect-Four).
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i32>,
    /// Among the moves with the best score.
    best: bool,
}

/// `solve --position --json`.
#[derive(Serialize)]
struct PositionReport {
    game: &'static str,
    position: String,
    value: &'static str,
    moves: Vec<MoveScore>,
}

struct Survey {
    json: bool,
    position: Option<String>,
}

impl Survey {
    fn position<G: BuiltInGame>(&self, game: &G, text: &str) -> anyhow::Result<String> {
        let pos = super::output::position_in_play(game, text)?;
        let Some(exact) = game.exact() else {
            anyhow::bail!(
                "{} has no exact solver: --perft D counts its move sequences, and eval measures genomes against alphabeta:D",
                game.spec().game()
            );
        };
        let mut solver = exact.solver(game);
        let scores = solver.move_scores(game, &pos);
        let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(Score::DRAW);
        let moves: Vec<MoveScore> = scores
            .iter()
            .map(|&(m, s)| MoveScore {
                mv: game.format_move(m),
                value: s.value().name(),
                plies: if G::SOLVABLE { s.plies() } else { None },
                score: (!G::SOLVABLE).then(|| s.get()),
                best: s == best,
            })
            .collect();
        let report = PositionReport {
            game: game.spec().game().name(),
            position: text.to_string(),
            value: best.value().name(),
            moves,
        };
        if self.json {
            return pretty_json(&report);
        }
        let mut out = format!("{} after '{text}'\n", game.spec());
        out.push_str(&game.render(&pos));
        out.push_str(&format!("value {} for the side to move\n", report.value));
        for m in &report.moves {
            let how = match (m.plies, m.score) {
                (Some(1), _) if m.value != "draw" => " in 1 ply".to_string(),
                (Some(p), _) if m.value != "draw" => format!(" in {p} plies"),
                (_, Some(s)) => format!(" (score {s})"),
                _ => String::new(),
            };
            let mark = if m.best { "  best" } else { "" };
            out.push_str(&format!("  {:>3}  {}{how}{mark}\n", m.mv, m.value));
        }
        Ok(out)
    }
}

impl GameVisitor for Survey {
    type Output = anyhow::Result<String>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<String> {
        if let Some(text) = &self.position {
            return self.position(&game, text);
        }
        if game.exact().is_none() {
            anyhow::bail!(
                "{} has no exact solver: --perft D counts its move sequences (e.g. solve --game {} --perft 8)",
                game.spec().game(),
                game.spec().game()
            );
        }
        if !G::SOLVABLE {
            anyhow::bail!(
                "solve enumerates every position, which {} allow; {} has too many: give a position (--position MOVES: the moves played from the start)",
                enumerable_games(),
                game.spec().game()
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
            return pretty_json(&SurveyReport {
                game: game.spec().game().name(),
                rules: game.spec().rules_json(),
                positions,
                terminal,
                won,
                lost,
                drawn,
                value,
                best_moves: best,
            });
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

/// `solve` of a puzzle (a one-player game solved whole): the figures of
/// the whole puzzle, or the moves of a position.
struct SolvePuzzle<'a> {
    position: Option<&'a str>,
    json: bool,
}

impl PuzzleVisitor for SolvePuzzle<'_> {
    type Output = anyhow::Result<String>;

    fn visit<P: Puzzle>(self, game: &P) -> anyhow::Result<String> {
        let Some(text) = self.position else {
            let survey = game.survey()?;
            if self.json {
                #[derive(Serialize)]
                struct Whole<'a, S: Serialize> {
                    game: &'static str,
                    rules: serde_json::Value,
                    #[serde(flatten)]
                    survey: &'a S,
                }
                return pretty_json(&Whole {
                    game: game.spec().game().name(),
                    rules: game.spec().rules_json(),
                    survey: &survey,
                });
            }
            return Ok(format!("{}\n{survey}", game.spec()));
        };
        let pos = super::output::position_of(game, text)?;
        let moves = game.moves(&pos).map_err(|e| match e {
            PuzzleError::Over(_) => {
                anyhow::anyhow!("position '{}': {e}", crate::typed::shown(text))
            }
            PuzzleError::TooLarge(_) => anyhow::Error::new(e),
        })?;
        if self.json {
            #[derive(Serialize)]
            struct Moves<'a, M: Serialize> {
                game: &'static str,
                position: &'a str,
                #[serde(flatten)]
                moves: &'a M,
            }
            return pretty_json(&Moves {
                game: game.spec().game().name(),
                position: text,
                moves: &moves,
            });
        }
        Ok(format!("{} after '{text}'\n{moves}", game.spec()))
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    args.game.refuse_encoder("solve")?;
    let spec = args.game.spec(GameName::TicTacToe)?;
    if let Some(depth) = args.perft {
        let text = spec.visit(Perft {
            depth,
            position: args.position.clone(),
            json: args.json,
        })?;
        std::io::stdout().write_all(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if abilities(spec).players == 1 {
        let text = visit_puzzle(
            spec,
            SolvePuzzle {
                position: args.position.as_deref(),
                json: args.json,
            },
        )
        .map_err(|e| anyhow::anyhow!("{spec} is a one-player game, but {e}"))??;
        std::io::stdout().write_all(text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    let text = spec.visit(Survey {
        json: args.json,
        position: args.position.clone(),
    })?;
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_perft_header_names_the_rules_not_the_genome() {
        use super::rules_only;
        assert_eq!(
            rules_only("othello (value genome, 21×4 straight tuples)"),
            "othello"
        );
        assert_eq!(rules_only("checkers"), "checkers");
        assert_eq!(rules_only("tictactoe (symmetric encoder)"), "tictactoe");
        assert_eq!(
            rules_only("matchsticks (double, 30 sticks; sticks encoder)"),
            "matchsticks (double, 30 sticks)"
        );
    }
}
