//! The HTTP API under `/api/` (JSON in, JSON out), which the page uses and
//! other programs can too. Every refusal is a 4xx with `{"error": "…"}`
//! saying what was wrong; nothing a request sends reaches a panic.

use super::files::{Project, run_params};
use super::sessions::{Score, Session, Sessions, lock};
use super::table::{self, Bot, TableView};
use crate::budget::{self, Budget};
use crate::dispatch::abilities;
use crate::games::{GameKind, GameOptions, GameSpec, TakeRuleName};
use crate::players::PlayerSpec;
use crate::seed::derive_seed;
use crate::store::run_files;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// What every handler shares.
pub struct AppState {
    pub project: Project,
    pub sessions: Sessions,
    /// Slow bots thinking at once; further moves queue for a permit, and
    /// quick bots ([`Bot::is_quick`]) and requests that need no bot never
    /// wait.
    pub thinking: Semaphore,
    /// The longest a bot's move or an explanation may search.
    pub move_time: Duration,
}

/// Sets a think's cancel flag when dropped: a handler whose client hung up
/// is dropped, and so stops the work it started.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Waits until `flag` is set (polled: a cancelled wait ends within 50 ms).
async fn cancelled(flag: &AtomicBool) {
    while !flag.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub type Shared = State<Arc<AppState>>;

/// A refused request: its status and what was wrong.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
    pub fn bad_request(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, m)
    }
    pub fn forbidden(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, m)
    }
    pub fn not_found(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, m)
    }
    pub fn conflict(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, m)
    }
    pub fn unprocessable(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m)
    }
    pub fn unavailable(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, m)
    }
    pub fn internal(m: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, m)
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json(
            self.status,
            &ErrorBody {
                error: &self.message,
            },
        )
    }
}

/// `value` as a JSON response.
pub fn json<T: Serialize>(status: StatusCode, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            format!("{{\"error\":\"{}\"}}", e.to_string().replace('"', "'")),
        )
            .into_response(),
    }
}

type Reply = Result<Response, ApiError>;

fn ok<T: Serialize>(value: &T) -> Reply {
    Ok(json(StatusCode::OK, value))
}

/// A request body read as JSON of type `T`: too large, not JSON, or not
/// the expected fields are refused with the reason.
fn body<T: for<'de> Deserialize<'de>>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let bytes = if bytes.is_empty() {
        Bytes::from_static(b"{}")
    } else {
        bytes
    };
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("request body: {e}")))
}

/// `GET /api/genomes`: the genomes a game can be played against.
pub async fn genomes(State(app): Shared) -> Reply {
    let project = app.project.clone();
    let list = tokio::task::spawn_blocking(move || project.genomes())
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    ok(&list)
}

/// `GET /api/runs`: the runs under `runs/`.
pub async fn runs(State(app): Shared) -> Reply {
    let project = app.project.clone();
    let list = tokio::task::spawn_blocking(move || project.runs())
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?;
    ok(&list)
}

#[derive(Serialize)]
struct RunReport {
    name: String,
    running: bool,
    /// Every parameter of `run.toml`.
    params: toml::Table,
    /// Generations recorded (a run of islands has a row per island).
    generations: usize,
    /// The columns of `stats.csv`, and its rows (empty cells as null).
    columns: Vec<String>,
    rows: Vec<Vec<Option<f64>>>,
    /// The champion, to play against.
    champion: Option<String>,
}

/// `GET /api/runs/{name}`: a run's parameters and statistics.
pub async fn run(State(app): Shared, Path(name): Path<String>) -> Reply {
    let dir = app.project.run(&name)?;
    let report = tokio::task::spawn_blocking(move || {
        let table = crate::evolve::stats::StatsTable::read(
            &crate::evolve::stats::StatsTable::path_in(&dir),
        );
        let generations = table.as_ref().map_or(0, |t| t.generations());
        let (columns, rows) = table.map(|t| (t.columns, t.rows)).unwrap_or_default();
        RunReport {
            running: crate::store::RunLock::is_held(&dir),
            params: run_params(&dir),
            champion: dir
                .join(run_files::BEST_GENOME)
                .is_file()
                .then(|| format!("runs/{name}/best.genome")),
            name,
            generations,
            columns,
            rows,
        }
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?;
    ok(&report)
}

/// `GET /api/runs/{name}/plot.svg`: the panels of `bebete plot`, as SVG.
pub async fn run_plot(State(app): Shared, Path(name): Path<String>) -> Reply {
    let dir = app.project.run(&name)?;
    let svg = tokio::task::spawn_blocking(move || crate::plot::render_svg(&[dir]))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| match e {
            crate::plot::PlotError::Run { reason, .. } => {
                ApiError::conflict(format!("runs/{name}: {reason}"))
            }
            crate::plot::PlotError::Draw { reason, .. } => ApiError::internal(reason),
        })?;
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

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
    /// Matchsticks rules.
    sticks: Option<u8>,
    rule: Option<String>,
    max_take: Option<u8>,
    last: Option<String>,
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
        let two_players = || {
            GameKind::ALL
                .iter()
                .filter(|k| abilities(k.variants()[0]).players == 2)
                .map(|k| k.name())
                .collect::<Vec<_>>()
        };
        let kind = GameKind::parse(name).ok_or_else(|| {
            let names = two_players();
            ApiError::unprocessable(format!(
                "game '{name}': expected {}",
                match names.split_last() {
                    Some((last, rest)) if !rest.is_empty() =>
                        format!("{} or {last}", rest.join(", ")),
                    _ => names.join(""),
                }
            ))
        })?;
        // The rule fields are matchsticks' own; other games ignore them.
        let options = if kind == GameKind::Matchsticks {
            self.matchsticks_options()?
        } else {
            GameOptions::default()
        };
        let spec = kind
            .from_options(&options)
            .map_err(ApiError::unprocessable)?;
        if abilities(spec).players == 1 {
            return Err(one_player_refused());
        }
        spec.validate()
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        Ok(spec)
    }

    /// The matchsticks rule fields as the game reads them.
    fn matchsticks_options(&self) -> Result<GameOptions, ApiError> {
        let last_wins = match self.last.as_deref() {
            None | Some("loses") => false,
            Some("wins") => true,
            Some(other) => {
                return Err(ApiError::unprocessable(format!(
                    "last '{other}': expected loses or wins"
                )));
            }
        };
        let rule = match self.rule.as_deref() {
            None => None,
            Some("subtract") => Some(TakeRuleName::Subtract),
            Some("double") => Some(TakeRuleName::Double),
            Some(other) => {
                return Err(ApiError::unprocessable(format!(
                    "rule '{other}': expected subtract or double"
                )));
            }
        };
        Ok(GameOptions {
            rule,
            sticks: self.sticks,
            max_take: self.max_take,
            last_wins,
            ..GameOptions::default()
        })
    }

    fn has_rules(&self) -> bool {
        self.sticks.is_some()
            || self.rule.is_some()
            || self.max_take.is_some()
            || self.last.is_some()
    }
}

/// The refusal of a one-player game (a genome's, or named by `game`).
fn one_player_refused() -> ApiError {
    ApiError::unprocessable(
        "solitaire is a one-player game and the page plays against a bot: play it in the terminal (bebete play --game solitaire)",
    )
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
        game: session.game.kind().name(),
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
                "unknown player '{}': expected random, rules, mc:N, alphabeta:D, perfect or a genome under genomes/ or runs/",
                request.opponent
            )));
        }
        PlayerSpec::Genome(_) => {
            let genome = load_genome(&app, &request.opponent).await?;
            if let Some(name) = &request.game
                && GameKind::parse(name) != Some(genome.game.kind())
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
                genes: genome.genes.into(),
                lookahead: genome.lookahead,
            };
            (genome.game, bot)
        }
        spec => (request.spec()?, Bot::Player(spec)),
    };
    if abilities(spec).players == 1 {
        return Err(one_player_refused());
    }
    let seed = rand::random::<u64>();
    let id = app
        .sessions
        .insert(Session::new(spec, bot, human_first, seed))?;
    let session = app.sessions.get(&id)?;
    bot_answers(&app, &id, &session).await
}

/// `GET /api/games/{id}`.
/// A move the bot did not finish (its client left) is started again here.
pub async fn get_game(State(app): Shared, Path(id): Path<String>) -> Reply {
    let session = app.sessions.get(&id)?;
    bot_answers(&app, &id, &session).await
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
    {
        let mut s = lock(&session);
        if s.busy {
            return Err(ApiError::conflict(
                "bebete is still thinking; wait for its move",
            ));
        }
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
    }
    bot_answers(&app, &id, &session).await
}

/// `POST /api/games/{id}/next`: the next game at the same table, sides
/// swapped (the score is kept).
pub async fn next_game(State(app): Shared, Path(id): Path<String>) -> Reply {
    let session = app.sessions.get(&id)?;
    {
        let mut s = lock(&session);
        if s.busy {
            return Err(ApiError::conflict(
                "bebete is still thinking; wait for its move",
            ));
        }
        let view = table::view(s.game, &s.moves)?;
        if view.winner.is_none() && !s.forfeit && !s.moves.is_empty() {
            // Abandoning a game counts as a loss, as leaving the board would.
            s.score.bot += 1;
        }
        s.next_game();
    }
    bot_answers(&app, &id, &session).await
}

/// The table `id` after the bot's move, if it is its turn: a table deleted
/// while the bot thought is gone (404), not answered.
async fn bot_answers(app: &Arc<AppState>, id: &str, session: &Arc<Mutex<Session>>) -> Reply {
    let thought = play_bot_if_its_turn(app, session).await;
    app.sessions.get(id)?;
    thought?;
    state(id, &mut lock(session))
}

/// Lets the bot move when it is its turn. The thinking runs on the
/// blocking pool, as a task of its own, under the server's time for a move;
/// a slow bot first waits for a thinker's permit, a quick one does not. The
/// think stops when the game is deleted or when this request is dropped
/// (its client hung up): then the table keeps the bot to move, and the next
/// `GET` of the game starts the move again.
async fn play_bot_if_its_turn(
    app: &Arc<AppState>,
    session: &Arc<Mutex<Session>>,
) -> Result<(), ApiError> {
    let flag = Arc::new(AtomicBool::new(false));
    let job = {
        let mut s = lock(session);
        let view = table::view(s.game, &s.moves)?;
        let human = if s.human_moves_first() { "X" } else { "O" };
        if view.to_move.is_none() || view.to_move == Some(human) || s.busy || s.forfeit {
            return Ok(());
        }
        s.busy = true;
        s.cancel = Some(flag.clone());
        let ply = s.moves.len() as u64;
        let seed = derive_seed(s.seed, s.game_number.into(), ply);
        (s.game, s.moves.clone(), s.bot.clone(), seed)
    };
    let _stop_if_dropped = CancelOnDrop(flag.clone());
    let app = app.clone();
    let session = session.clone();
    let task = tokio::spawn(async move {
        let (spec, moves, bot, seed) = job;
        let permit = if bot.is_quick(spec) {
            None
        } else {
            tokio::select! {
                permit = app.thinking.acquire() => Some(permit),
                () = cancelled(&flag) => None,
            }
        };
        let thought = match permit {
            Some(Err(_)) => Err(ApiError::unavailable("the server is shutting down")),
            _ if flag.load(Ordering::Relaxed) => Err(table::cancelled()),
            _ => {
                let budget = Budget::unlimited()
                    .until(Instant::now() + app.move_time)
                    .cancelled_by(flag.clone());
                tokio::task::spawn_blocking(move || {
                    table::bot_move(spec, &moves, &bot, seed, &budget)
                })
                .await
                .unwrap_or_else(|e| Err(ApiError::internal(format!("the bot failed: {e}"))))
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
            }
            None => s.forfeit = true,
        }
        s.last_bot = Some(reply);
        Ok::<(), ApiError>(())
    });
    task.await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("the bot failed: {e}"))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    genome: String,
    #[serde(default)]
    position: String,
}

/// The genome file `name`, read on the blocking pool (a value genome is
/// 18 MB: the async workers keep answering meanwhile).
async fn load_genome(app: &Arc<AppState>, name: &str) -> Result<crate::genome::Genome, ApiError> {
    let (project, name) = (app.project.clone(), name.to_string());
    tokio::task::spawn_blocking(move || project.genome(&name))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("reading a genome: {e}"),
            )
        })?
}

/// `POST /api/explain`: why a genome plays its move in a position; the
/// report of `bebete explain --json`.
pub async fn explain(State(app): Shared, bytes: Result<Bytes, BytesRejection>) -> Reply {
    let request: ExplainRequest = body(bytes)?;
    let genome = load_genome(&app, &request.genome).await?;
    let flag = Arc::new(AtomicBool::new(false));
    let _stop_if_dropped = CancelOnDrop(flag.clone());
    let _permit = if table::genome_is_quick(genome.game, genome.lookahead) {
        None
    } else {
        Some(app.thinking.acquire().await)
    };
    let budget = Budget::unlimited()
        .until(Instant::now() + app.move_time)
        .cancelled_by(flag);
    let seconds = app.move_time.as_secs_f64();
    let report = tokio::task::spawn_blocking(move || {
        budget::within(&budget, || {
            table::explain(
                genome.game,
                &genome.genes,
                genome.lookahead,
                &request.position,
            )
        })
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))?
    .ok_or_else(|| {
        ApiError::unavailable(format!(
            "the explanation took longer than the server's {seconds} s for a move (serve --move-seconds)"
        ))
    })??;
    ok(&report)
}

/// Any other path under `/api/`.
pub async fn no_such_endpoint() -> ApiError {
    ApiError::not_found(
        "no such endpoint; the API is listed in the README (GET /api/genomes, /api/runs, POST /api/games, …)",
    )
}

/// A known path asked with a method it does not take.
pub async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method",
    )
}
