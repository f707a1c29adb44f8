//! `bebete serve`: play and watch in the browser.
//!
//! A small HTTP server (axum over tokio) with the page embedded in the
//! binary (plain HTML, CSS and JavaScript under `serve/page/`, nothing
//! fetched from elsewhere) and a JSON API under `/api/` that the page uses.
//! It sits beside the command line, above everything else: it reads the
//! games, players, genomes and runs of the layers below and changes none.
//!
//! Safe by default: it binds to the loopback address unless told otherwise;
//! it answers only requests that name its own address, come from its own
//! page and, for a `POST`, carry JSON ([`guard`]);
//! requests can name only files under `genomes/` and `runs/` ([`files`]);
//! bodies are limited to [`BODY_LIMIT`] bytes; games live in a capped session
//! store ([`sessions`]); a genome file in play is loaded once, within a
//! memory budget ([`files::Project::genome`]); a bot's thinking runs on a
//! few threads of its own ([`thinkers`]), slow searches apart from quick
//! bots, each step under the time for a move, so a slow player never holds
//! up the page and no work outlives its client.

pub mod api;
pub mod files;
pub mod guard;
pub mod sessions;
pub mod table;
pub mod thinkers;

use api::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Largest request body accepted, in bytes (the API's bodies are tiny).
pub const BODY_LIMIT: usize = 16 * 1024;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The project directory whose `genomes/` and `runs/` are served.
    pub root: PathBuf,
    /// Most games held at once.
    pub max_games: usize,
    /// A game unused this long may be dropped when the store is full.
    pub idle: std::time::Duration,
    /// Slow bots thinking at once.
    pub thinkers: usize,
    /// The longest one move (or one explanation) may search.
    pub move_time: std::time::Duration,
    /// Most bytes of genes held loaded at once ([`files::Project::genome`]).
    pub genome_memory: u64,
    /// The longest a client may take to send a request's headers, or its
    /// body, and the longest a kept-alive connection may stay idle.
    pub client_time: std::time::Duration,
}

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX)
}

/// `/runs/NAME`: the page, which shows the run; 404 with a line of text
/// when there is no such run.
async fn run_page(
    axum::extract::State(app): axum::extract::State<Arc<AppState>>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Response {
    match app.project.run(&name) {
        Ok(_) => index().await,
        Err(e) => (
            e.status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{}; the runs are listed at /runs\n", e.message),
        )
            .into_response(),
    }
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "not found: the page is at /\n",
    )
        .into_response()
}

/// The routes: the page, its run pages, and the API, behind the guard of
/// the address `bound`.
pub fn router(state: Arc<AppState>, bound: SocketAddr, client_time: std::time::Duration) -> Router {
    let guard = Arc::new(guard::Guard {
        ip: bound.ip(),
        port: bound.port(),
        body_time: client_time,
    });
    let api = Router::new()
        .route("/genomes", get(api::genomes))
        .route("/runs", get(api::runs))
        .route("/runs/{name}", get(api::run))
        .route("/runs/{name}/plot.svg", get(api::run_plot))
        .route("/games", get(api::catalogue).post(api::new_game))
        .route("/games/{id}", get(api::get_game).delete(api::delete_game))
        .route("/games/{id}/move", post(api::play_move))
        .route("/games/{id}/next", post(api::next_game))
        .route("/explain", post(api::explain))
        .fallback(api::no_such_endpoint)
        .method_not_allowed_fallback(api::wrong_method);
    Router::new()
        .route("/", get(index))
        .route("/runs", get(index))
        .route("/runs/", get(index))
        .route("/runs/{name}", get(run_page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .nest("/api", api)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(guard, guard::check))
        .with_state(state)
}

/// Serves until Ctrl-C (or SIGTERM); `ready` is told the address bound
/// (the port chosen, when the configured port is 0) before the first request.
///
/// Each connection is served by hyper with a timer: a client gets
/// [`Config::client_time`] to send a request's headers — and a kept-alive
/// connection that long idle before its next request — after which the
/// connection is closed; [`guard`] gives it as long for the body.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    // Blocks of 1 MB and more (a genome's genes, a search table) are mapped
    // apart and given back to the system when freed, rather than kept in
    // the allocator's heaps for the next one: after the games end, resident
    // memory returns near where it started.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter of glibc's allocator; it
    // is called before the server starts any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
    let max_connections = connections_allowed(raise_descriptor_limit()) as usize;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let bound = listener.local_addr()?;
        ready(bound);
        let state = Arc::new(AppState {
            project: files::Project::new(config.root, config.genome_memory),
            sessions: sessions::Sessions::new(config.max_games, config.idle),
            thinking: tokio::sync::Semaphore::new(config.thinkers.max(1)),
            run_reads: tokio::sync::Semaphore::new(api::RUN_READS),
            thinkers: thinkers::Thinkers::new(config.thinkers)?,
            move_time: config.move_time,
        });
        let app = router(state.clone(), bound, config.client_time);
        let connections = GracefulShutdown::new();
        let open = Arc::new(tokio::sync::Semaphore::new(max_connections));
        let mut stop = std::pin::pin!(stopped());
        loop {
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        // Out of file descriptors or a connection reset
                        // before it was accepted: wait a little, go on.
                        errln!("serve: accepting a connection: {e}");
                        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                        continue;
                    }
                },
                () = &mut stop => break,
            };
            // Past the cap a connection is closed at once: the descriptors
            // never run out, and the connections already open go on.
            let Ok(permit) = open.clone().try_acquire_owned() else {
                drop(stream);
                continue;
            };
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(config.client_time)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
            let connection = connections.watch(connection);
            tokio::spawn(async move {
                let _ = connection.await;
                drop(permit);
            });
        }
        // At Ctrl-C or SIGTERM the server stops accepting, stops every
        // bot's thinking (its request answers 503 at once) and lets open
        // requests finish, for at most SHUTDOWN_GRACE: a half-open
        // connection cannot keep it alive.
        drop(listener);
        state.thinking.close();
        state.sessions.cancel_all();
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, connections.shutdown()).await;
        Ok::<(), std::io::Error>(())
    });
    // Work still on the blocking pool (a search or a file read that has not
    // yet seen its cancel) is not waited for: the process is ending.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    served
}

/// File descriptors kept from the connections' share: files read, genomes,
/// threads, the runtime's own.
const DESCRIPTORS_KEPT: u64 = 64;

/// Connections open at once under a limit of `descriptors` open files:
/// all but [`DESCRIPTORS_KEPT`], and at least 16.
fn connections_allowed(descriptors: u64) -> u64 {
    descriptors.saturating_sub(DESCRIPTORS_KEPT).max(16)
}

/// Raises the soft limit on open files to the hard one (many systems
/// start a process at 1,024, which a few hundred idle connections and
/// the files they ask for can use up) and says so on standard error;
/// returns the limit in force. Where the limits cannot be read, 1,024.
#[cfg(unix)]
fn raise_descriptor_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid `rlimit` for the call to write.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return 1024;
    }
    // An unlimited hard limit is raised to no more than this.
    let wanted = limit.rlim_max.min(1 << 20);
    if wanted > limit.rlim_cur {
        let raised = libc::rlimit {
            rlim_cur: wanted,
            rlim_max: limit.rlim_max,
        };
        // SAFETY: `raised` is a valid `rlimit`, read by the call only.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            errln!(
                "serve: open files: soft limit raised from {} to {wanted} (the hard limit); at most {} connections at once",
                limit.rlim_cur,
                connections_allowed(wanted)
            );
            return wanted;
        }
    }
    limit.rlim_cur
}

#[cfg(not(unix))]
fn raise_descriptor_limit() -> u64 {
    1024
}

/// How long open requests may finish after Ctrl-C or SIGTERM.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Resolves at Ctrl-C or SIGTERM.
async fn stopped() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
