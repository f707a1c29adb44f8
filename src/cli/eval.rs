//! `bebete eval`: a player's score against fixed opponents.

use super::GameArgs;
use super::evolve::thread_count;
use super::explain::parse_policy;
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::IllegalPolicy;
use crate::eval::{GameRecord, MatchConfig, Tally, Watch, play_match};
use crate::games::GameSpec;
use crate::players::PlayerSpec;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Args, Debug)]
#[command(
    after_help = "Players: random, rules, mc:N (N playouts per move), alphabeta:D (depth D),
perfect (exact; Connect-Four through an embedded solver), or a genome file.

Examples:
  bebete eval genomes/tictactoe.genome --against random,rules,perfect
  bebete eval genomes/connect4.genome --against random,rules,mc:200 --games 1000 --json
  bebete eval rules --game c4 --against random
  bebete eval genomes/connect4.genome genomes/connect4-subgrid.genome alphabeta:4 mc:200 --league --games 20"
)]
pub struct EvalArgs {
    /// The player measured: a genome file or a player spec (with --league,
    /// every player of the league)
    #[arg(required = true, num_args = 1.., value_name = "PLAYER")]
    pub players: Vec<String>,
    /// Opponents, comma separated [default: random,rules]
    #[arg(long, value_name = "SPEC,…")]
    pub against: Option<String>,
    /// Rank the players named against each other: every pair plays
    /// --games games, sides alternating, and a Bradley-Terry fit rates
    /// them on the Elo scale, with 95% intervals. Genomes of any kind for
    /// the same game may meet
    #[arg(long)]
    pub league: bool,
    #[command(flatten)]
    pub game: GameArgs,
    /// Games per opponent, half with each side first (an odd number is rounded up)
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Seed of the openings and of the players' random choices
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies before each pair of games [default: 0; 2 for connect4]
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub openings: Option<u32>,
    /// What an illegal gene does: repair or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
    /// Worker threads [default: all cores]; results do not depend on it
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
    /// Write every game played to FILE, one line a game: the first player,
    /// the second, the result (1-0, 0-1 or 1/2-1/2) and the moves from the
    /// start in the game's notation (a position `move --position` takes),
    /// tab-separated
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Check the player and every opponent (files read, specs built) and
    /// print the table's first line; play nothing
    #[arg(long)]
    pub dry_run: bool,
}

struct Evaluate<'a> {
    player: PlayerSpec,
    opponents: Vec<PlayerSpec>,
    args: &'a EvalArgs,
    watch: &'a Watch,
    /// The table's first line, printed once every player is built (a bad
    /// player is refused before anything is printed) and before a game.
    heading: Option<String>,
    /// The progress bar (on a terminal), kept below the heading.
    bar: &'a ProgressBar,
}

impl GameVisitor for Evaluate<'_> {
    type Output = anyhow::Result<Vec<Tally>>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<Vec<Tally>> {
        let cfg = MatchConfig {
            games: self.args.games,
            seed: self.args.seed,
            openings: self.args.openings.unwrap_or(G::DEFAULT_OPENINGS),
            record: self.args.record.is_some(),
        };
        let player = self.player.factory(&game, self.args.illegal)?;
        let mut tallies = Vec::new();
        // Every opponent is checked before a game is played.
        let opponents = self
            .opponents
            .iter()
            .map(|spec| spec.factory(&game, self.args.illegal))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(heading) = &self.heading {
            // At once: a long match is seen to have started. The bar steps
            // aside while it is written, and is drawn again below it.
            self.bar.suspend(|| {
                let mut stdout = std::io::stdout().lock();
                stdout.write_all(heading.as_bytes())?;
                stdout.flush()
            })?;
        }
        for (i, opponent) in opponents.iter().enumerate() {
            if self.args.dry_run || self.watch.stopped() {
                break;
            }
            let tally = play_match(&game, &player, opponent, i as u64, cfg, Some(self.watch));
            if tally.games > 0 {
                tallies.push(tally);
            }
        }
        Ok(tallies)
    }
}

/// The table's first line: the player, the game, the games per opponent.
fn heading(player: &str, spec: &GameSpec, games: u64) -> String {
    format!("{player} ({spec}), {games} games per opponent, sides alternating\n")
}

/// The table below the heading: a row per opponent.
fn rows(tallies: &[Tally]) -> String {
    let mut out = format!(
        "{:<16} {:>7} {:>7} {:>7} {:>7} {:>7}  95% interval\n",
        "against", "games", "wins", "draws", "losses", "score"
    );
    for t in tallies {
        let (lo, hi) = t.interval95();
        out.push_str(&format!(
            "{:<16} {:>7} {:>7} {:>7} {:>7} {:>6.1}%  {:.1}-{:.1}%\n",
            t.against,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            100.0 * lo,
            100.0 * hi
        ));
    }
    out
}

/// The opponents `--against` names.
pub fn against(args: &EvalArgs) -> &str {
    args.against.as_deref().unwrap_or("random,rules")
}

/// The player, its opponents and its game, checked.
fn players(args: &EvalArgs) -> anyhow::Result<(PlayerSpec, Vec<PlayerSpec>, GameSpec)> {
    if args.players.len() > 1 {
        anyhow::bail!(
            "{} players named: add --league to rank them against each other (every pair plays), or name one player and its opponents with --against",
            args.players.len()
        );
    }
    let player = PlayerSpec::parse(&args.players[0])?;
    let opponents = PlayerSpec::parse_list(against(args))?;
    let spec = args.game.game_of(&player)?;
    if crate::dispatch::abilities(spec).players == 1 {
        anyhow::bail!(
            "eval scores against opponents, and {} is a one-player game: `bebete audit GENOME` gives what it leaves and how it plays from every position",
            spec.game()
        );
    }
    Ok((player, opponents, spec))
}

/// The matches `args` asks for, printing nothing: a tally per opponent
/// (the games played by then when `watch` is stopped).
pub fn tallies(args: &EvalArgs, watch: &Watch) -> anyhow::Result<Vec<Tally>> {
    let (player, opponents, spec) = players(args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(args.threads))
        .build()
        .context("starting the thread pool")?;
    let bar = ProgressBar::hidden();
    pool.install(|| {
        spec.visit(Evaluate {
            player,
            opponents,
            args,
            watch,
            heading: None,
            bar: &bar,
        })
    })
}

pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    if args.league {
        return super::league::run(&args);
    }
    let (player, opponents, spec) = players(&args)?;
    if let Some(file) = &args.record
        && file.exists()
    {
        anyhow::bail!(
            "{} exists: choose another --record (games are not added to an old record)",
            file.display()
        );
    }
    let player_shown = player.clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(args.threads))
        .build()
        .context("starting the thread pool")?;
    let shell = match player_shown.plain() {
        PlayerSpec::Genome(path) => crate::genome::Genome::peek(path)
            .map_or(String::new(), |(_, lookahead)| {
                super::lookahead_note(spec, lookahead)
            }),
        _ => String::new(),
    };
    let player_named = format!("{}{shell}", args.players[0]);
    // An odd count is rounded up, as the match plays it.
    let games = args.games + args.games % 2;
    if games != args.games {
        errln!(
            "note: --games {} rounded up to {games}: games come in pairs, one with each side first",
            args.games
        );
    }
    // Ctrl-C, SIGTERM or SIGHUP stop the match after the pairs of games
    // under way; the games played by then are reported. Set up
    // before the heading, which tells a watcher the match has begun.
    let watch = Watch::default();
    stop_on_signals(&watch.stop);
    let table = !args.json && !args.dry_run;
    let total = games * opponents.len() as u64;
    let tallies = with_games_bar(total, args.dry_run, &watch, |bar| {
        pool.install(|| {
            spec.visit(Evaluate {
                player,
                opponents,
                args: &args,
                watch: &watch,
                heading: table.then(|| heading(&player_named, &spec, games)),
                bar,
            })
        })
    })?;
    let stopped = watch.stopped();
    let text = if args.dry_run {
        heading(&player_named, &spec, games)
            + &format!(
                "dry run: the player and {} checked; nothing played\n",
                against(&args)
            )
    } else if args.json {
        serde_json::to_string_pretty(&tallies)? + "\n"
    } else {
        rows(&tallies)
    };
    std::io::stdout().write_all(text.as_bytes())?;
    if let Some(file) = args.record.as_ref().filter(|_| !args.dry_run) {
        let text = record_lines(&args.players[0], &tallies);
        crate::store::write_atomic(file, text.as_bytes())?;
    }
    if stopped {
        let played: u64 = tallies.iter().map(|t| t.games).sum();
        errln!(
            "stopped by a signal after {played} of {total} games: {} holds the games played",
            if args.json { "the JSON" } else { "the table" }
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// The games of `tallies` as `--record` writes them ([`GameRecord::line`]).
fn record_lines(player: &str, tallies: &[Tally]) -> String {
    let lines = tallies
        .iter()
        .flat_map(|t| t.records.iter().map(|game| game.line(player, &t.against)));
    std::iter::once(GameRecord::HEADER.to_string())
        .chain(lines)
        .collect()
}

/// Ctrl-C, SIGTERM or SIGHUP raise `stop` (the work ends at its next
/// step and keeps what it has done); a second ends the command at once,
/// its exit status 128 + the signal, whatever stage it is at.
pub(super) fn stop_on_signals(stop: &Arc<AtomicBool>) {
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        let _ =
            signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, stop.clone());
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
}

/// Runs `work` under a bar of `total` games (drawn on a terminal unless
/// `hidden`), ticked from the games `watch` counts; the bar is cleared
/// when the work is done.
pub(super) fn with_games_bar<T>(
    total: u64,
    hidden: bool,
    watch: &Watch,
    work: impl FnOnce(&ProgressBar) -> T,
) -> T {
    let bar = ProgressBar::new(total);
    if hidden || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(
        ProgressStyle::with_template("{pos}/{len} games {wide_bar} {eta} left")
            .expect("a valid template"),
    );
    // The ticker stops, and is waited for, before the bar is cleared: a
    // last tick after the clear would draw the bar again.
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let ticking = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                bar.set_position(watch.played.load(Ordering::Relaxed));
                // Woken at the end (below): a short match waits for no tick.
                std::thread::park_timeout(std::time::Duration::from_millis(100));
            }
        });
        let out = work(&bar);
        done.store(true, Ordering::Relaxed);
        ticking.thread().unpark();
        let _ = ticking.join();
        bar.finish_and_clear();
        out
    })
}
