//! One game at the table, generic over the game: the state the page draws,
//! a person's move checked, and the bot's move with its reasons.
//!
//! A game in progress is held as data that does not name the game type (the
//! rules as a [`GameSpec`], the moves as notation); each request replays the
//! moves (at most 42) into the concrete game through the dispatch, which
//! costs microseconds and keeps the session store free of type parameters.

use super::api::ApiError;
use crate::budget::{self, Budget};
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::{IllegalPolicy, TableGame};
use crate::explain::Explained;
use crate::games::{BoardView, GameSpec, Outcome, Side};
use crate::players::PlayerSpec;
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// The bot a person plays against.
#[derive(Clone, Debug)]
pub enum Bot {
    /// A genome, whose moves explain themselves.
    Genome {
        name: String,
        genes: Arc<Vec<u8>>,
        lookahead: u8,
    },
    /// A fixed player: random, rules, mc:N, alphabeta:D or perfect.
    Player(PlayerSpec),
}

impl Bot {
    /// The bot as the page names it.
    pub fn name(&self) -> String {
        match self {
            Bot::Genome { name, .. } => name.clone(),
            Bot::Player(spec) => spec.to_string(),
        }
    }
}

/// The board and whose turn, as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct TableView {
    pub board: BoardView,
    /// The side to move (`X` moves first), `None` once the game is over.
    pub to_move: Option<&'static str>,
    /// The legal moves, in the notation.
    pub legal: Vec<String>,
    /// How the game ended, once it has: `X`, `O` or `draw`.
    pub winner: Option<&'static str>,
}

/// The mark of a side: X moves first.
pub fn mark(side: Side) -> &'static str {
    match side {
        Side::First => "X",
        Side::Second => "O",
    }
}

/// The bot's answer in one position.
#[derive(Clone, Debug)]
pub struct BotMove {
    /// The move in the notation; `None` when the bot forfeits.
    pub mv: Option<String>,
    /// The one-line reason `play` prints.
    pub reason: String,
    /// The genome's full explanation (the report of `explain --json`).
    pub explain: Option<serde_json::Value>,
}

fn replay<G: TableGame>(game: &G, moves: &str) -> Result<G::Position, ApiError> {
    game.parse_position(moves)
        .map_err(|e| ApiError::bad_request(format!("position '{moves}': {e}")))
}

/// The view of the position after `moves`.
pub fn view(spec: GameSpec, moves: &str) -> Result<TableView, ApiError> {
    struct View<'a>(&'a str);
    impl GameVisitor for View<'_> {
        type Output = Result<TableView, ApiError>;
        fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
            let pos = replay(&game, self.0)?;
            let outcome = game.outcome(&pos);
            let mut legal = Vec::new();
            game.legal_moves(&pos, &mut legal);
            Ok(TableView {
                board: game.view(&pos),
                to_move: outcome.is_none().then(|| mark(game.turn(&pos))),
                legal: legal.iter().map(|&m| game.format_move(m)).collect(),
                winner: outcome.map(|o| match o {
                    Outcome::Win(side) => mark(side),
                    Outcome::Draw => "draw",
                }),
            })
        }
    }
    spec.visit(View(moves))
}

/// `moves` followed by `mv`, and `mv` as the notation writes it, if `mv` is
/// a legal move there; a refusal that says why otherwise.
pub fn extend(spec: GameSpec, moves: &str, mv: &str) -> Result<(String, String), ApiError> {
    struct Extend<'a>(&'a str, &'a str);
    impl GameVisitor for Extend<'_> {
        type Output = Result<(String, String), ApiError>;
        fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
            let (moves, text) = (self.0, self.1.trim());
            let pos = replay(&game, moves)?;
            let mv = game
                .parse_move(text)
                .map_err(|e| ApiError::unprocessable(format!("'{text}' is not a move: {e}")))?;
            game.try_play(&pos, mv)
                .map_err(|e| ApiError::unprocessable(format!("not allowed: {e}")))?;
            Ok((append(&game, moves, mv), game.format_move(mv)))
        }
    }
    spec.visit(Extend(moves, mv))
}

fn append<G: TableGame>(game: &G, moves: &str, mv: G::Move) -> String {
    let text = game.format_move(mv);
    if moves.is_empty() {
        text
    } else {
        format!("{moves}{}{text}", game.notation_separator())
    }
}

impl Bot {
    /// Whether one move of `game` costs at most milliseconds whatever the
    /// position (random, rules, wpc, any of them with random moves,
    /// [`genome_is_quick`]): such bots never wait
    /// behind slow ones. Alpha-beta, Monte Carlo and perfect play may take
    /// seconds.
    pub fn is_quick(&self, game: GameSpec) -> bool {
        match self {
            Bot::Genome { lookahead, .. } => genome_is_quick(game, *lookahead),
            Bot::Player(spec) => matches!(
                spec.plain(),
                PlayerSpec::Random
                    | PlayerSpec::Rules
                    | PlayerSpec::Wpc
                    | PlayerSpec::AlphaBeta(0..=1)
            ),
        }
    }

    /// The same bot searching less, weakest first and ending with itself:
    /// the server plays the strongest of these that finishes within its time
    /// for a move (alpha-beta and a value genome's search deepen a ply at a
    /// time, Monte Carlo multiplies its playouts by 8, perfect play falls
    /// back on the rules of thumb). A slow fixed player's first step is a
    /// random move, and a genome's is its table alone: each takes
    /// microseconds, so every step can run under the deadline and a move is
    /// always ready. A quick bot of `game` is its own only step.
    fn ladder(&self, game: GameSpec) -> Vec<Bot> {
        if self.is_quick(game) {
            return vec![self.clone()];
        }
        let player = |spec| Bot::Player(spec);
        if let Bot::Player(PlayerSpec::Noisy(inner, rate)) = self {
            // A player with random moves deepens as the plain one does,
            // each search step keeping its random moves (the first step,
            // a random move, is random already).
            return Bot::Player((**inner).clone())
                .ladder(game)
                .into_iter()
                .map(|rung| match rung {
                    Bot::Player(PlayerSpec::Random) => rung,
                    Bot::Player(spec) => Bot::Player(PlayerSpec::Noisy(Box::new(spec), *rate)),
                    genome => genome,
                })
                .collect();
        }
        let searches: Vec<Bot> = match self {
            // A genome's first step, its table alone, is already quick.
            Bot::Genome {
                name,
                genes,
                lookahead,
            } => {
                return (0..=*lookahead)
                    .map(|l| Bot::Genome {
                        name: name.clone(),
                        genes: genes.clone(),
                        lookahead: l,
                    })
                    .collect();
            }
            Bot::Player(PlayerSpec::AlphaBeta(depth)) => (1..=*depth)
                .map(|d| player(PlayerSpec::AlphaBeta(d)))
                .collect(),
            Bot::Player(PlayerSpec::MonteCarlo(playouts)) => {
                std::iter::successors(Some(16u32), |n| Some(n * 8))
                    .take_while(|n| n < playouts)
                    .map(|n| player(PlayerSpec::MonteCarlo(n)))
                    .chain([self.clone()])
                    .collect()
            }
            Bot::Player(PlayerSpec::Perfect) => vec![player(PlayerSpec::Rules), self.clone()],
            Bot::Player(_) => vec![self.clone()],
        };
        std::iter::once(player(PlayerSpec::Random))
            .chain(searches)
            .collect()
    }

    /// How deep (or how many playouts) this rung searches, as a reason says it.
    fn reach(&self) -> String {
        match self {
            Bot::Genome { lookahead, .. } => format!("lookahead {lookahead}"),
            Bot::Player(PlayerSpec::AlphaBeta(d)) => format!("depth {d}"),
            Bot::Player(PlayerSpec::MonteCarlo(n)) => format!("{n} playouts"),
            Bot::Player(PlayerSpec::Noisy(inner, _)) => Bot::Player((**inner).clone()).reach(),
            Bot::Player(spec) => spec.to_string(),
        }
    }
}

/// Whether a genome of `game` with `lookahead` moves (or explains a move)
/// within milliseconds: alone, or in its tactical shell, which searches at
/// most `MAX_LOOKAHEAD` plies of wins and losses. A
/// value genome's alpha-beta search may take seconds.
pub fn genome_is_quick(game: GameSpec, lookahead: u8) -> bool {
    lookahead == 0 || game.value_genome().is_none()
}

/// Why a bot gave no move.
pub fn cancelled() -> ApiError {
    ApiError::unavailable("the move was cancelled: its game was deleted or its client left")
}

/// The bot's move after `moves` (an unfinished position where it is to
/// move); `seed` drives a random player. This may take long (perfect play,
/// many playouts): callers run it off the request threads, under `budget`.
/// The bot searches deeper a step at a time (`Bot::ladder`); when the
/// budget's deadline passes, the last step that finished gives the move and
/// the reason says how far it got, in seconds since `started` (when the
/// request arrived: a wait for a search thread counts). Every step but the
/// first runs under the deadline; the first takes microseconds (see
/// `Bot::ladder`) and runs even past it (a move still queued at its
/// deadline), so a move is ready unless the budget is cancelled, which
/// gives no move at all.
pub fn bot_move(
    spec: GameSpec,
    moves: &str,
    bot: &Bot,
    seed: u64,
    budget: &Budget,
    started: Instant,
) -> Result<BotMove, ApiError> {
    struct Think<'a>(&'a str, &'a Bot, u64, &'a Budget, Instant);
    impl GameVisitor for Think<'_> {
        type Output = Result<BotMove, ApiError>;
        fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
            let (moves, bot, seed, budget, started) = (self.0, self.1, self.2, self.3, self.4);
            let pos = replay(&game, moves)?;
            let rungs = bot.ladder(game.spec());
            let mut best = None;
            for (i, rung) in rungs.iter().enumerate() {
                // The first step takes microseconds (see `Bot::ladder`): it
                // runs even when the deadline has passed (a move that got
                // its search thread at the last moment), so a move is ready.
                let answer = if i == 0 {
                    if budget.is_cancelled() {
                        return Err(cancelled());
                    }
                    Some(one_move(&game, &pos, moves, rung, seed))
                } else {
                    budget::within(budget, || one_move(&game, &pos, moves, rung, seed))
                };
                match answer {
                    Some(answer) => best = Some(answer?),
                    None if budget.is_cancelled() => return Err(cancelled()),
                    None => {
                        let mut answer: BotMove = best.ok_or_else(cancelled)?;
                        let cut = format!(
                            "out of time after {:.1} s: the move of {}, not {}",
                            started.elapsed().as_secs_f64(),
                            rungs[i - 1].reach(),
                            bot.reach(),
                        );
                        answer.reason = match bot {
                            Bot::Player(spec) => format!("({spec}, {cut})"),
                            Bot::Genome { .. } => format!("{} ({cut})", answer.reason),
                        };
                        return Ok(answer);
                    }
                }
            }
            best.ok_or_else(cancelled)
        }
    }
    spec.visit(Think(moves, bot, seed, budget, started))
}

/// One move of `bot` (one rung of the ladder) at `pos`.
fn one_move<G: BuiltInGame>(
    game: &G,
    pos: &G::Position,
    moves: &str,
    bot: &Bot,
    seed: u64,
) -> Result<BotMove, ApiError> {
    let policy = IllegalPolicy::Repair;
    match bot {
        Bot::Genome {
            genes, lookahead, ..
        } => {
            let explained = Explained::new(game, genes, pos, policy, *lookahead);
            let report = serde_json::to_value(explained.report(game, moves))
                .map_err(|e| ApiError::internal(e.to_string()))?;
            Ok(BotMove {
                mv: explained.played().map(|m| game.format_move(m)),
                reason: explained.summary(game),
                explain: Some(report),
            })
        }
        Bot::Player(spec) => {
            let mut player = spec
                .build(game, seed, policy)
                .map_err(|e| ApiError::unprocessable(e.to_string()))?;
            Ok(BotMove {
                mv: player.choose(game, pos).map(|m| game.format_move(m)),
                reason: format!("({spec})"),
                explain: None,
            })
        }
    }
}

/// The explanation of `genes` in the position after `moves` (the API's
/// `explain`): exactly the report of `bebete explain --json`.
pub fn explain(
    spec: GameSpec,
    genes: &[u8],
    lookahead: u8,
    moves: &str,
) -> Result<serde_json::Value, ApiError> {
    struct Why<'a>(&'a [u8], u8, &'a str);
    impl GameVisitor for Why<'_> {
        type Output = Result<serde_json::Value, ApiError>;
        fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
            let (genes, lookahead, moves) = (self.0, self.1, self.2);
            let pos = replay(&game, moves)?;
            if game.outcome(&pos).is_some() {
                return Err(ApiError::unprocessable(format!(
                    "position '{moves}': the game is already over"
                )));
            }
            let explained = Explained::new(&game, genes, &pos, IllegalPolicy::Repair, lookahead);
            serde_json::to_value(explained.report(&game, moves))
                .map_err(|e| ApiError::internal(e.to_string()))
        }
    }
    spec.visit(Why(genes, lookahead, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameName, GameOptions, TakeRuleName};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    fn spec(kind: GameName, options: GameOptions) -> GameSpec {
        kind.from_options(&options).unwrap()
    }

    /// The slowest replies: perfect Connect-Four after 65215516
    /// then 7 (98.6 s before), and the first move of perfect matchsticks
    /// with 255 sticks and the doubling rule (its solved table, about 2 s).
    fn slow_perfect_moves() -> [(GameSpec, &'static str); 2] {
        let nim = GameOptions {
            sticks: Some(255),
            rule: Some(TakeRuleName::Double),
            ..GameOptions::default()
        };
        [
            (
                spec(GameName::Connect4, GameOptions::default()),
                "652155167",
            ),
            (spec(GameName::Matchsticks, nim), ""),
        ]
    }

    #[test]
    fn perfect_play_answers_by_its_deadline_with_the_move_of_a_lesser_step() {
        let perfect = Bot::Player(PlayerSpec::Perfect);
        for (game, moves) in slow_perfect_moves() {
            let started = Instant::now();
            let budget = Budget::unlimited().until(started + Duration::from_millis(200));
            let answer = bot_move(game, moves, &perfect, 1, &budget, started).unwrap();
            let took = started.elapsed();
            assert!(took < Duration::from_millis(700), "{game}: {took:?}");
            assert!(answer.mv.is_some(), "{game}");
            assert!(
                answer.reason.starts_with("(perfect, out of time after ")
                    && answer.reason.ends_with(": the move of rules, not perfect)"),
                "{game}: {}",
                answer.reason
            );
        }
    }

    #[test]
    fn perfect_play_stops_when_its_client_leaves() {
        let perfect = Bot::Player(PlayerSpec::Perfect);
        for (game, moves) in slow_perfect_moves() {
            let flag = Arc::new(AtomicBool::new(false));
            let leaves = {
                let flag = flag.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(100));
                    flag.store(true, Ordering::Relaxed);
                    Instant::now()
                })
            };
            let budget = Budget::unlimited()
                .until(Instant::now() + Duration::from_secs(600))
                .cancelled_by(flag);
            let answer = bot_move(game, moves, &perfect, 1, &budget, Instant::now());
            let left = leaves.join().unwrap();
            assert!(answer.is_err(), "{game}");
            let after = left.elapsed();
            assert!(after < Duration::from_millis(100), "{game}: {after:?}");
        }
    }

    /// A player with random moves deepens like the plain one: out of time,
    /// its move is a search's (with the random moves kept), not the first
    /// step's random move.
    #[test]
    fn noisy_alphabeta_deepens_like_the_plain_one() {
        let othello = spec(GameName::Othello, GameOptions::default());
        let noisy = Bot::Player(PlayerSpec::parse("alphabeta:12@0.1").unwrap());
        let rungs: Vec<String> = noisy
            .ladder(othello)
            .iter()
            .map(|rung| match rung {
                Bot::Player(spec) => spec.to_string(),
                Bot::Genome { .. } => "genome".into(),
            })
            .collect();
        assert_eq!(rungs.len(), 13, "{rungs:?}");
        assert_eq!(rungs[0], "random");
        assert_eq!(rungs[1], "alphabeta:1@0.1");
        assert_eq!(rungs[12], "alphabeta:12@0.1");
        let started = Instant::now();
        let budget = Budget::unlimited().until(started + Duration::from_millis(300));
        let answer = bot_move(othello, "", &noisy, 1, &budget, started).unwrap();
        assert!(answer.mv.is_some());
        assert!(
            answer
                .reason
                .starts_with("(alphabeta:12@0.1, out of time after ")
                && answer.reason.contains("the move of depth ")
                && !answer.reason.contains("the move of random"),
            "{}",
            answer.reason
        );
    }
}
