//! The games at the table: `POST /api/games`, a move, the next game, and
//! the bot's answer, bounded in time and stopped when its client leaves.

use super::*;
use crate::dispatch::{check_player, fixed_players, games_with};
use crate::players::FixedPlayer;

/// The body of `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// A player spec or a genome's name.
    opponent: String,
    /// The game, required unless the opponent is a genome.
    game: Option<String>,
    /// `human` (the default) or `bot`: who moves first in the first game.
    first: Option<String>,
    /// The game's rule parameters, as `GET /api/games` lists them (any
    /// left out keep their defaults); read by the registry, so the server
    /// knows no game's own parameters.
    rules: Option<serde_json::Value>,
}

impl NewGame {
    /// The game and rules a fixed player is to play.
    fn spec(&self) -> Result<GameSpec, ApiError> {
        let name = self.game.as_deref().ok_or_else(|| {
            ApiError::unprocessable(format!(
                "'game' is required when the opponent is '{}' rather than a genome",
                self.opponent
            ))
        })?;
        let kind = GameName::parse(name).ok_or_else(|| {
            ApiError::unprocessable(format!(
                "game '{name}': expected {}",
                games_with(|a| a.players == 2, "or")
            ))
        })?;
        // The page sends rule parameters as `rules.KEY`; a refusal names them so.
        let unprocessable = |e: crate::games::OptionError| {
            ApiError::unprocessable(e.spelled(crate::games::Spelling::RULES_JSON))
        };
        let options = kind
            .rules_options(self.rules.as_ref().unwrap_or(&serde_json::Value::Null))
            .map_err(unprocessable)?;
        let spec = kind.from_options(&options).map_err(unprocessable)?;
        spec.validate()
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        Ok(spec)
    }

    /// Whether rule parameters were given (`null` is none).
    fn has_rules(&self) -> bool {
        self.rules.as_ref().is_some_and(|r| !r.is_null())
    }
}

/// The refusal of a one-player game (a genome's, or named by `game`).
fn one_player_refused(spec: GameSpec) -> ApiError {
    let name = spec.game().name();
    ApiError::unprocessable(format!(
        "{name} is a one-player game and the page plays against a bot: play it in the terminal (bebete play --game {name})"
    ))
}

/// A table's state, as the page draws it.
#[derive(Serialize)]
struct GameState<'a> {
    id: &'a str,
    game: &'static str,
    rules: String,
    opponent: String,
    game_number: u32,
    /// The person's mark: `X` moves first.
    human: &'static str,
    moves: &'a str,
    #[serde(flatten)]
    view: TableView,
    your_turn: bool,
    thinking: bool,
    last: Option<LastMove>,
    result: Option<&'static str>,
    score: Score,
    bot: Option<BotReply<'a>>,
}

#[derive(Serialize)]
struct LastMove {
    by: &'static str,
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Serialize)]
struct BotReply<'a> {
    #[serde(rename = "move")]
    mv: Option<&'a str>,
    reason: &'a str,
    explain: Option<&'a serde_json::Value>,
}

/// The state of `session`, with its score brought up to date.
fn state(id: &str, session: &mut Session) -> Reply {
    let view = table::view(session.game, &session.moves)?;
    let human = if session.human_moves_first() {
        "X"
    } else {
        "O"
    };
    let result = match (view.winner, session.forfeit) {
        (_, true) => Some("bebete forfeits: you win"),
        (Some("draw"), _) => Some("a draw"),
        (Some(w), _) if w == human => Some("you win"),
        (Some(_), _) => Some("bebete wins"),
        (None, _) => None,
    };
    if let Some(r) = result.filter(|_| !session.scored) {
        session.scored = true;
        match r {
            "a draw" => session.score.draws += 1,
            "bebete wins" => session.score.bot += 1,
            _ => session.score.human += 1,
        }
    }
    let state = GameState {
        id,
        game: session.game.game().name(),
        rules: session.game.to_string(),
        opponent: session.bot.name(),
        game_number: session.game_number,
        human,
        moves: &session.moves,
        your_turn: result.is_none() && view.to_move == Some(human) && !session.busy,
        thinking: session.busy,
        view,
        last: session
            .last
            .as_ref()
            .map(|(by, mv)| LastMove { by, mv: mv.clone() }),
        result,
        score: session.score,
        bot: session.last_bot.as_ref().map(|b| BotReply {
            mv: b.mv.as_deref(),
            reason: &b.reason,
            explain: b.explain.as_ref(),
        }),
    };
    ok(&state)
}

/// One game the page can set up, as `GET /api/games` lists it.
#[derive(Serialize)]
struct Listed {
    /// The name `game` takes (`connect4`).
    name: &'static str,
    /// The name in words (`Connect-Four`).
    title: &'static str,
    /// The fixed players it can face, strongest first.
    players: Vec<FixedPlayer>,
    /// Its default rule parameters, `null` for a game without any
    /// (matchsticks has them: the page offers its rule fields).
    rules: serde_json::Value,
}

/// `GET /api/games`: the two-player games of the registry, each with its
/// fixed players and its rules, for the page's menus. Nothing is read
/// from disk; the genomes come from `GET /api/genomes`.
pub async fn catalogue() -> Reply {
    let listed: Vec<Listed> = GameName::ALL
        .iter()
        .filter_map(|kind| {
            let spec = kind.from_options(&GameOptions::default()).ok()?;
            (abilities(spec).players == 2).then(|| Listed {
                name: kind.name(),
                title: kind.title(),
                players: fixed_players(spec),
                rules: spec.rules_json(),
            })
        })
        .collect();
    ok(&listed)
}

/// `POST /api/games`: a new table against a genome or a player.
pub async fn new_game(State(app): Shared, bytes: Result<Bytes, BytesRejection>) -> Reply {
    let request: NewGame = body(bytes)?;
    let human_first = match request.first.as_deref().unwrap_or("human") {
        "human" => true,
        "bot" => false,
        other => {
            return Err(ApiError::unprocessable(format!(
                "first '{other}': expected human or bot"
            )));
        }
    };
    let player =
        PlayerSpec::parse(&request.opponent).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let (spec, bot) = match player {
        PlayerSpec::Genome(_) if !request.opponent.contains(['/', '\\']) => {
            return Err(ApiError::unprocessable(format!(
                "unknown player '{}': expected random, rules, wpc, mc:N, alphabeta:D, perfect or a genome under genomes/ or runs/",
                request.opponent
            )));
        }
        // A genome is read only through the checks above, which keep it
        // under genomes/ or runs/.
        PlayerSpec::Noisy(inner, _) if matches!(*inner, PlayerSpec::Genome(_)) => {
            return Err(ApiError::unprocessable(format!(
                "'{}': a genome plays here without a random-move rate",
                request.opponent
            )));
        }
        PlayerSpec::Genome(_) => {
            let genome = load_genome(&app, &request.opponent).await?;
            if let Some(name) = &request.game
                && GameName::parse(name) != Some(genome.game.game())
            {
                return Err(ApiError::unprocessable(format!(
                    "'{}' plays {}, not {name}",
                    request.opponent, genome.game
                )));
            }
            if request.has_rules() {
                return Err(ApiError::unprocessable(format!(
                    "'{}' plays {}: its rules come with it",
                    request.opponent, genome.game
                )));
            }
            let bot = Bot::Genome {
                name: request.opponent.clone(),
                genes: genome.genes,
                lookahead: genome.lookahead,
            };
            (genome.game, bot)
        }
        spec => (request.spec()?, Bot::Player(spec)),
    };
    if abilities(spec).players == 1 {
        return Err(one_player_refused(spec));
    }
    // A fixed player the game cannot have (`perfect` without a solver) is
    // refused now, not at the bot's first move.
    if let Bot::Player(player) = &bot {
        check_player(spec, player).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    }
    let seed = rand::random::<u64>();
    let id = app
        .sessions
        .insert(Session::new(spec, bot, human_first, seed))?;
    let session = app.sessions.get(&id)?;
    let turn = bot_turn(&mut lock(&session))?;
    bot_answers(&app, &id, &session, turn).await
}

/// `GET /api/games/{id}`.
/// A move the bot did not finish (its client left) is started again here.
pub async fn get_game(State(app): Shared, Path(id): Path<String>) -> Reply {
    let session = app.sessions.get(&id)?;
    let turn = bot_turn(&mut lock(&session))?;
    bot_answers(&app, &id, &session, turn).await
}

/// `DELETE /api/games/{id}`.
pub async fn delete_game(State(app): Shared, Path(id): Path<String>) -> Reply {
    app.sessions.remove(&id)?;
    ok(&serde_json::json!({ "deleted": id }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/games/{id}/move`: the person's move, then the bot's answer.
pub async fn play_move(
    State(app): Shared,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> Reply {
    let request: MoveRequest = body(bytes)?;
    let session = app.sessions.get(&id)?;
    let turn = {
        let mut s = lock(&session);
        not_thinking(&s)?;
        let view = table::view(s.game, &s.moves)?;
        if view.winner.is_some() || s.forfeit {
            return Err(ApiError::conflict(
                "the game is over; start the next one (POST /api/games/ID/next)",
            ));
        }
        let human = if s.human_moves_first() { "X" } else { "O" };
        if view.to_move != Some(human) {
            return Err(ApiError::conflict("it is bebete's turn, not yours"));
        }
        let (moves, mv) = table::extend(s.game, &s.moves, &request.mv)?;
        s.moves = moves;
        s.last = Some(("human", mv));
        s.human_moves += 1;
        s.moved();
        bot_turn(&mut s)?
    };
    bot_answers(&app, &id, &session, turn).await
}

/// `POST /api/games/{id}/next`: the next game at the same table, sides
/// swapped (the score is kept).
pub async fn next_game(State(app): Shared, Path(id): Path<String>) -> Reply {
    let session = app.sessions.get(&id)?;
    let turn = {
        let mut s = lock(&session);
        not_thinking(&s)?;
        let view = table::view(s.game, &s.moves)?;
        if view.winner.is_none() && !s.forfeit && !s.moves.is_empty() {
            // Abandoning a game counts as a loss, as leaving the board would.
            s.score.bot += 1;
        }
        s.next_game();
        s.moved();
        bot_turn(&mut s)?
    };
    bot_answers(&app, &id, &session, turn).await
}

/// The table `id` after the bot's `turn`, if it has one: a table deleted
/// while the bot thought is gone (404), not answered.
async fn bot_answers(
    app: &Arc<AppState>,
    id: &str,
    session: &Arc<Mutex<Session>>,
    turn: Option<BotTurn>,
) -> Reply {
    if let Some(turn) = turn {
        let thought = play_bot(app, session, turn).await;
        app.sessions.get(id)?;
        thought?;
    }
    state(id, &mut lock(session))
}

/// What the bot is to think about, claimed for it at its table.
struct BotTurn {
    spec: GameSpec,
    moves: String,
    bot: Bot,
    seed: u64,
    flag: Arc<AtomicBool>,
}

/// Claims the bot's move when it is its turn, marking the table busy in
/// the same lock as the change that gave it the turn: a person's move and
/// the bot's thinking are one step to every other request (a `GET` in
/// between would otherwise start the move itself and answer only after it).
/// The caller plays the turn with [`play_bot`] before its next `.await`.
fn bot_turn(s: &mut Session) -> Result<Option<BotTurn>, ApiError> {
    let view = table::view(s.game, &s.moves)?;
    let human = if s.human_moves_first() { "X" } else { "O" };
    if view.to_move.is_none() || view.to_move == Some(human) || s.busy || s.forfeit {
        return Ok(None);
    }
    let flag = Arc::new(AtomicBool::new(false));
    s.busy = true;
    s.cancel = Some(flag.clone());
    let ply = s.moves.len() as u64;
    Ok(Some(BotTurn {
        spec: s.game,
        moves: s.moves.clone(),
        bot: s.bot.clone(),
        seed: derive_seed(s.seed, s.game_number.into(), ply),
        flag,
    }))
}

/// Plays the bot's claimed turn. The thinking runs on the
/// blocking pool, as a task of its own, under the server's time for a move;
/// a slow bot first waits for a thinker's permit, a quick one does not. The
/// think stops when the game is deleted or when this request is dropped
/// (its client hung up): then the table keeps the bot to move, and the next
/// `GET` of the game starts the move again.
async fn play_bot(
    app: &Arc<AppState>,
    session: &Arc<Mutex<Session>>,
    turn: BotTurn,
) -> Result<(), ApiError> {
    let BotTurn {
        spec,
        moves,
        bot,
        seed,
        flag,
    } = turn;
    let _stop_if_dropped = CancelOnDrop(flag.clone());
    let app = app.clone();
    let session = session.clone();
    let task = tokio::spawn(async move {
        let quick = bot.is_quick(spec);
        // The move's time runs from the request: a wait for a search
        // permit counts, and a bot still queued at the deadline plays its
        // first step (a random move, a genome's table alone), which takes
        // microseconds, on the quick threads.
        let started = Instant::now();
        let deadline = started + app.move_time;
        let waited = if quick {
            Waited::Quick
        } else {
            tokio::select! {
                permit = app.thinking.acquire() => match permit {
                    Ok(permit) => Waited::Permit(permit),
                    Err(_) => Waited::Closed,
                },
                () = cancelled(&flag) => Waited::Cancelled,
                () = tokio::time::sleep_until(deadline.into()) => Waited::OutOfTime,
            }
        };
        let thought = match waited {
            Waited::Closed => Err(ApiError::unavailable("the server is shutting down")),
            _ if flag.load(Ordering::Relaxed) => Err(table::cancelled()),
            Waited::Cancelled => Err(table::cancelled()),
            Waited::Quick | Waited::Permit(_) | Waited::OutOfTime => {
                let on_quick_threads = !matches!(waited, Waited::Permit(_));
                let budget = app.budget_until(flag.clone(), deadline);
                app.thinkers
                    .run(on_quick_threads, move || {
                        table::bot_move(spec, &moves, &bot, seed, &budget, started)
                    })
                    .await
                    .and_then(|thought| thought)
            }
        };
        let mut s = lock(&session);
        s.busy = false;
        s.cancel = None;
        let reply = thought?;
        match &reply.mv {
            Some(mv) => {
                let (moves, mv) = table::extend(s.game, &s.moves, mv)?;
                s.moves = moves;
                s.last = Some(("bot", mv));
                s.moved();
            }
            None => s.forfeit = true,
        }
        s.last_bot = Some(reply);
        Ok::<(), ApiError>(())
    });
    task.await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("the bot failed: {e}"))))
}

/// How a bot's wait for a search permit ended.
enum Waited<'a> {
    /// A quick bot waits for none.
    Quick,
    Permit(
        #[expect(dead_code, reason = "held, not read: the search runs while it lives")]
        tokio::sync::SemaphorePermit<'a>,
    ),
    /// The server is shutting down.
    Closed,
    /// The game was deleted or the client left.
    Cancelled,
    /// The request's time passed in the queue.
    OutOfTime,
}

/// Refuses a request while the bot is thinking at the table.
fn not_thinking(session: &Session) -> Result<(), ApiError> {
    if session.busy {
        return Err(ApiError::conflict(
            "bebete is still thinking; wait for its move",
        ));
    }
    Ok(())
}
