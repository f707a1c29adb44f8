//! The HTTP API under `/api/` (JSON in, JSON out), which the page uses and
//! other programs can too. Every refusal is a 4xx with `{"error": "…"}`
//! saying what was wrong; nothing a request sends reaches a panic.

use super::files::{Project, run_params};
use super::sessions::{Score, Session, Sessions, lock};
use super::table::{self, Bot, TableView};
use crate::budget::{self, Budget};
use crate::dispatch::abilities;
use crate::games::{GameName, GameOptions, GameSpec};
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

mod games;
pub use games::{catalogue, delete_game, get_game, new_game, next_game, play_move};

/// What every handler shares.
pub struct AppState {
    pub project: Project,
    pub sessions: Sessions,
    /// Slow bots thinking at once; further moves queue for a permit, and
    /// quick bots ([`Bot::is_quick`]) and requests that need no bot never
    /// wait.
    pub thinking: Semaphore,
    /// Reads of a run's whole `stats.csv` (its page and its plot) at once;
    /// further ones wait for a permit, within the request's time.
    pub run_reads: Semaphore,
    /// The threads bots and explanations think on.
    pub thinkers: super::thinkers::Thinkers,
    /// The longest a bot's move or an explanation may search.
    pub move_time: Duration,
}

impl AppState {
    /// The budget of one request's work: until `deadline` (the request's,
    /// set when it arrived: what it waited for counts), and `flag` (set
    /// when the request is dropped or its game deleted).
    fn budget_until(&self, flag: Arc<AtomicBool>, deadline: Instant) -> Budget {
        Budget::unlimited().until(deadline).cancelled_by(flag)
    }
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

/// Reads of a whole `stats.csv` at once ([`AppState::run_reads`]): each
/// holds some tens of MB while it parses a large file, so many clients
/// asking at once wait their turn instead of multiplying the memory.
pub const RUN_READS: usize = 2;

/// Waits for one of the run reads' permits until `deadline`, the request's
/// (its read then has what is left of the time).
async fn run_read_permit(
    app: &AppState,
    deadline: Instant,
) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
    let seconds = app.move_time.as_secs_f64();
    match tokio::time::timeout_at(deadline.into(), app.run_reads.acquire()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(ApiError::unavailable(format!(
            "other clients' run reads took the server's {seconds} s for a request (serve --move-seconds): try again"
        ))),
    }
}

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

/// Runs `work` (file reads) on the blocking pool, under the server's time
/// for a move and stopped when the request is dropped (its client left):
/// the readers look at the budget as they go ([`budget::spent`]).
async fn off_the_workers<T: Send + 'static>(
    app: &AppState,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    off_the_workers_until(app, Instant::now() + app.move_time, work).await
}

/// [`off_the_workers`] by `deadline` (a request's, set when it arrived:
/// what it waited for before counts).
async fn off_the_workers_until<T: Send + 'static>(
    app: &AppState,
    deadline: Instant,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let flag = Arc::new(AtomicBool::new(false));
    let _stop_if_dropped = CancelOnDrop(flag.clone());
    let budget = app.budget_until(flag, deadline);
    let seconds = app.move_time.as_secs_f64();
    tokio::task::spawn_blocking(move || budget::within(&budget, work))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .ok_or_else(|| {
            ApiError::unavailable(format!(
                "reading the files took longer than the server's {seconds} s for a request (serve --move-seconds)"
            ))
        })?
}

/// `GET /api/genomes`: the genomes a game can be played against.
pub async fn genomes(State(app): Shared) -> Reply {
    let project = app.project.clone();
    ok(&off_the_workers(&app, move || Ok(project.genomes())).await?)
}

/// `GET /api/runs`: the runs under `runs/`.
pub async fn runs(State(app): Shared) -> Reply {
    let project = app.project.clone();
    ok(&off_the_workers(&app, move || Ok(project.runs())).await?)
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
    /// How the run ended (its last generation and why); `null` while it
    /// runs, when it was interrupted, or for a run older than the record.
    ended: Option<crate::evolve::RunEnded>,
}

/// `GET /api/runs/{name}`: a run's parameters and statistics.
pub async fn run(State(app): Shared, Path(name): Path<String>) -> Reply {
    let dir = app.project.run(&name)?;
    let deadline = Instant::now() + app.move_time;
    let _reading = run_read_permit(&app, deadline).await?;
    let report = off_the_workers_until(&app, deadline, move || {
        let table = super::files::run_stats(&dir, &name)?;
        let generations = table.as_ref().map_or(0, |t| t.generations());
        let (columns, rows) = table.map(|t| (t.columns, t.rows)).unwrap_or_default();
        Ok::<_, ApiError>(RunReport {
            running: super::files::run_running(&dir),
            params: run_params(&dir),
            ended: super::files::run_ended(&dir),
            champion: dir
                .join(run_files::BEST_GENOME)
                .is_file()
                .then(|| format!("runs/{name}/best.genome")),
            name,
            generations,
            columns,
            rows,
        })
    })
    .await?;
    ok(&report)
}

/// `GET /api/runs/{name}/plot.svg`: the panels of `bebete plot`, as SVG.
pub async fn run_plot(State(app): Shared, Path(name): Path<String>) -> Reply {
    let dir = app.project.run(&name)?;
    let deadline = Instant::now() + app.move_time;
    let _reading = run_read_permit(&app, deadline).await?;
    let run = name.clone();
    let svg = off_the_workers_until(&app, deadline, move || {
        // Each file is opened once, as the server opens files (no link, no
        // FIFO, one link only, within its limit), and read from that handle.
        let Some(table) = super::files::run_stats(&dir, &run)? else {
            return Err(ApiError::conflict(format!(
                "runs/{run}: stats.csv has no generations yet"
            )));
        };
        let stats = crate::plot::RunStats::of(&dir, table, run_params(&dir));
        Ok(stats.and_then(|s| crate::plot::render_svg_of(vec![s])))
    })
    .await?
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    genome: String,
    #[serde(default)]
    position: String,
}

/// The genome file `name`, read on the blocking pool (a value genome is
/// 18 MB: the async workers keep answering meanwhile).
async fn load_genome(
    app: &Arc<AppState>,
    name: &str,
) -> Result<super::files::SharedGenome, ApiError> {
    let (project, name) = (app.project.clone(), name.to_string());
    off_the_workers(app, move || project.genome(&name)).await
}

/// `POST /api/explain`: why a genome plays its move in a position; the
/// report of `bebete explain --json`.
pub async fn explain(State(app): Shared, bytes: Result<Bytes, BytesRejection>) -> Reply {
    let request: ExplainRequest = body(bytes)?;
    let genome = load_genome(&app, &request.genome).await?;
    let flag = Arc::new(AtomicBool::new(false));
    let _stop_if_dropped = CancelOnDrop(flag.clone());
    let quick = table::genome_is_quick(genome.game, genome.lookahead);
    // The request's time runs from here: its wait for a search permit
    // counts, so a queue of searches cannot hold it past its time.
    let deadline = Instant::now() + app.move_time;
    let seconds = app.move_time.as_secs_f64();
    let _permit = if quick {
        None
    } else {
        match tokio::time::timeout_at(deadline.into(), app.thinking.acquire()).await {
            Ok(Ok(permit)) => Some(permit),
            Ok(Err(_)) => return Err(ApiError::unavailable("the server is shutting down")),
            Err(_) => {
                return Err(ApiError::unavailable(format!(
                    "every search thread was busy for the server's {seconds} s for a request (serve --move-seconds); try again"
                )));
            }
        }
    };
    let budget = app.budget_until(flag, deadline);
    let report = app
        .thinkers
        .run(quick, move || {
            budget::within(&budget, || {
                table::explain(
                    genome.game,
                    &genome.genes,
                    genome.lookahead,
                    &request.position,
                )
            })
        })
        .await?
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
        "no such endpoint; the API is listed in docs/guide.md (GET /api/genomes, /api/runs, POST /api/games, …)",
    )
}

/// A known path asked with a method it does not take.
pub async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method",
    )
}
