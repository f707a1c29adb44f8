//! `bebete serve`: the browser page and its API (see [`crate::serve`]).

use crate::serve::{self, Config};
use clap::Args;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

/// `serve --help`'s closing text: examples, and the games the page
/// plays, from the registry (every two-player game).
fn serve_help() -> String {
    let games = crate::dispatch::games_with(|a| a.players == 2, "and");
    format!(
        "Examples:
  bebete serve                         http://127.0.0.1:8080/ : play, explain, watch runs
  bebete serve --port 0                any free port (printed)
  bebete serve --host 0.0.0.0          reachable from other machines (no login: trusted networks only)
  curl -s http://127.0.0.1:8080/api/genomes

The page plays {games}
against the genomes under genomes/, the champions of runs under runs/, or
random, rules, mc:N, alphabeta:D, perfect (where a game has an exact
solver) and wpc (othello); /runs/NAME shows a run's curves as it evolves.
Only files under genomes/ and runs/ of --dir can be named by a request."
    )
}

#[derive(Args, Debug)]
#[command(after_help = serve_help())]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default is reachable from this machine only
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// The project directory whose genomes/ and runs/ are served
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
    /// Most games held open at once, 1-10000; when full, a new game drops a
    /// finished game, else the game least recently moved (reading a game
    /// does not count); a game whose bot is thinking is never dropped
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_games: u32,
    /// Minutes without a move after which a game is dropped, 1-1440
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=1440))]
    pub idle_minutes: u64,
    /// Megabytes of genomes held loaded at once, over every game and
    /// explanation, 1-65536 (a Connect-Four value genome is 18 MB; games
    /// naming the same file share one copy); a game that would need more is
    /// refused until others end
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub genome_memory_mb: u64,
    /// Seconds a bot may think about one move, 1-600: a deeper search
    /// (alphabeta:D, mc:N, a genome's lookahead, perfect play) that runs out
    /// plays the move of the deepest step it finished (perfect play: the
    /// rules player's) and says so. A move is stopped at once
    /// when its game is deleted or its client leaves
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub move_seconds: u64,
    /// Seconds a client may take to send a request's headers or its body,
    /// and that a kept-alive connection may stay idle, 1-600; a slower
    /// client's connection is closed (408 for a body)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub client_seconds: u64,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    if !args.dir.is_dir() {
        anyhow::bail!("--dir {}: not a directory", args.dir.display());
    }
    let config = Config {
        addr: SocketAddr::new(args.host, args.port),
        root: args.dir.clone(),
        max_games: args.max_games as usize,
        idle: std::time::Duration::from_secs(60 * args.idle_minutes),
        thinkers: std::thread::available_parallelism().map_or(2, |n| n.get()),
        move_time: std::time::Duration::from_secs(args.move_seconds),
        genome_memory: args.genome_memory_mb * 1_000_000,
        client_time: std::time::Duration::from_secs(args.client_seconds),
    };
    let dir = args.dir.clone();
    serve::run(config, |addr| {
        let mut out = std::io::stdout();
        let _ = writeln!(out, "serving bebete at http://{addr}/");
        if !addr.ip().is_loopback() {
            errln!(
                "warning: listening on {} beyond this machine: anyone who can reach it can play and read genomes/ and runs/ (there is no login)",
                addr.ip()
            );
        }
        let _ = writeln!(
            out,
            "  genomes/ and runs/ of {}; the API is under /api/; Ctrl-C stops",
            dir.canonicalize().unwrap_or(dir.clone()).display()
        );
        if !dir.join("genomes").is_dir() && !dir.join("runs").is_dir() {
            let _ = writeln!(
                out,
                "  note: there is no genomes/ or runs/ here, so the page offers the fixed players only; start it in your bebete directory, or name it with --dir"
            );
        }
        let _ = out.flush();
    })
    .map_err(|e| anyhow::anyhow!("serving on {}:{}: {e}", args.host, args.port))?;
    Ok(ExitCode::SUCCESS)
}
