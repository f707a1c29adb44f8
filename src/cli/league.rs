//! `bebete eval A B C --league`: every pair of players plays a match, sides
//! alternating, and a Bradley–Terry fit ranks them on the Elo scale
//! ([`crate::eval::league`]).
//!
//! The players may be genomes of different kinds for the same rules (a
//! Connect-Four vote table and a value genome): each is built in its own
//! game type and plays in the others' through the positions and moves
//! the rules share.

use super::eval::EvalArgs;
use super::evolve::thread_count;
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::eval::league::{PairResult, Rating, ratings};
use crate::eval::{MatchConfig, Tally, Watch, play_with};
use crate::games::{Game, GameSpec};
use crate::players::{Player, PlayerSpec};
use anyhow::Context;
use serde::Serialize;
use std::any::Any;
use std::sync::Arc;

/// A player of a game's positions and moves, whatever genome kind it was
/// built for.
trait Seat<P, M>: Send {
    fn choose(&mut self, pos: &P) -> Option<M>;
    fn reseed(&mut self, seed: u64);
}

/// A player in its own game type.
struct Own<G: Game> {
    game: G,
    player: Box<dyn Player<G>>,
}

impl<G: Game> Seat<G::Position, G::Move> for Own<G> {
    fn choose(&mut self, pos: &G::Position) -> Option<G::Move> {
        self.player.choose(&self.game, pos)
    }
    fn reseed(&mut self, seed: u64) {
        self.player.reseed(seed);
    }
}

/// A seat taken into another game type of the same rules.
struct Guest<P, M> {
    seat: Box<dyn Seat<P, M>>,
}

impl<G: Game> Player<G> for Guest<G::Position, G::Move> {
    fn choose(&mut self, _game: &G, pos: &G::Position) -> Option<G::Move> {
        self.seat.choose(pos)
    }
    fn reseed(&mut self, seed: u64) {
        self.seat.reseed(seed);
    }
}

/// Makes a player's seats, its game's types erased (a `Box<dyn Seat<P, M>>`
/// inside the `Any`).
type MakeSeat = Arc<dyn Fn() -> Box<dyn Any + Send> + Send + Sync>;

/// Builds the seat maker of one player in its own game.
struct SeatMaker<'a> {
    spec: &'a PlayerSpec,
    args: &'a EvalArgs,
}

impl GameVisitor for SeatMaker<'_> {
    type Output = anyhow::Result<MakeSeat>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<MakeSeat> {
        let factory = self.spec.factory(&game, self.args.illegal)?;
        Ok(Arc::new(move || {
            let seat: Box<dyn Seat<G::Position, G::Move>> = Box::new(Own {
                game: game.clone(),
                player: factory.make(&game, 0),
            });
            Box::new(seat) as Box<dyn Any + Send>
        }))
    }
}

/// The league's matches, played in the first player's game type.
struct Matches<'a> {
    makers: Vec<MakeSeat>,
    args: &'a EvalArgs,
    watch: &'a Watch,
}

impl GameVisitor for Matches<'_> {
    type Output = anyhow::Result<Vec<(usize, usize, Tally)>>;

    fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
        let cfg = MatchConfig {
            games: self.args.games + self.args.games % 2,
            seed: self.args.seed,
            openings: self.args.openings.unwrap_or(G::DEFAULT_OPENINGS),
            record: false,
        };
        let host = |maker: &MakeSeat| -> Option<Box<dyn Player<G>>> {
            let seat = maker()
                .downcast::<Box<dyn Seat<G::Position, G::Move>>>()
                .ok()?;
            Some(Box::new(Guest { seat: *seat }))
        };
        // Same rules were checked by name; the types must agree too.
        if self.makers.iter().any(|m| host(m).is_none()) {
            anyhow::bail!("the players' games differ in their positions or moves");
        }
        let n = self.makers.len();
        let mut results = Vec::new();
        let mut index = 0;
        for i in 0..n {
            for j in i + 1..n {
                if self.watch.stopped() {
                    return Ok(results);
                }
                let (a, b) = (&self.makers[i], &self.makers[j]);
                let make_a = || host(a).expect("checked above");
                let make_b = || host(b).expect("checked above");
                let tally = play_with(&game, &make_a, &make_b, index, cfg, Some(self.watch));
                index += 1;
                if tally.games > 0 {
                    results.push((i, j, tally));
                }
            }
        }
        Ok(results)
    }
}

/// One row of the league's table.
#[derive(Serialize)]
struct Row {
    player: String,
    rating: f64,
    low: f64,
    high: f64,
    games: u64,
    score: f64,
}

/// One pair's match, from the first player's side.
#[derive(Serialize)]
struct PairRow {
    player: String,
    against: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
}

/// The league's players and their game: every player's game of the same
/// rules (genomes of any kind), the first genome's game the host.
fn checked(args: &EvalArgs) -> anyhow::Result<(Vec<PlayerSpec>, Vec<GameSpec>, GameSpec)> {
    if args.players.len() < 2 {
        anyhow::bail!(
            "--league ranks two players or more against each other: name them all (genome files or player specs)"
        );
    }
    if args.against.is_some() {
        anyhow::bail!(
            "--against: a league's players are the ones named, every pair playing; list the opponents among them instead"
        );
    }
    let specs = args
        .players
        .iter()
        .map(|p| PlayerSpec::parse(p))
        .collect::<Result<Vec<_>, _>>()?;
    for (k, spec) in specs.iter().enumerate() {
        if specs[..k].contains(spec) {
            anyhow::bail!("--league: {} is named twice", args.players[k]);
        }
    }
    // The game: the first genome's (checked against --game), else --game.
    let mut game_args = args.game.clone();
    let first_genome = specs
        .iter()
        .find(|s| matches!(s.plain(), PlayerSpec::Genome(_)));
    let host = game_args.game_of(first_genome.unwrap_or(&specs[0]))?;
    game_args.game = Some(host.game());
    let games = specs
        .iter()
        .map(|s| match s.plain() {
            PlayerSpec::Genome(_) => {
                // A genome's own kind; only its rules must match.
                let mut own = game_args.clone();
                own.encoder = None;
                own.game_of(s)
            }
            _ => Ok(host),
        })
        .collect::<anyhow::Result<Vec<GameSpec>>>()?;
    for (k, game) in games.iter().enumerate() {
        if game.rules_json() != host.rules_json() {
            anyhow::bail!(
                "{} plays {} under other rules than {} ({} against {}): a league's players share one game",
                args.players[k],
                game.game(),
                args.players[0],
                game.rules_json(),
                host.rules_json()
            );
        }
    }
    if crate::dispatch::abilities(host).players == 1 {
        anyhow::bail!(
            "a league needs a two-player game, and {} has one player",
            host.game()
        );
    }
    Ok((specs, games, host))
}

/// Runs the league `args` asks for: the table (or JSON) on stdout; 130
/// when a signal stopped it (the games played by then are rated).
pub fn run(args: &EvalArgs) -> anyhow::Result<std::process::ExitCode> {
    use std::io::Write;
    let (specs, games, host) = checked(args)?;
    let makers = specs
        .iter()
        .zip(&games)
        .map(|(spec, game)| game.visit(SeatMaker { spec, args }))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let n = specs.len();
    let per_pair = args.games + args.games % 2;
    let total = per_pair * (n * (n - 1) / 2) as u64;
    let heading = format!(
        "league of {n} players ({}), {per_pair} games a pair, sides alternating\n",
        host.game()
    );
    if args.dry_run {
        std::io::stdout().write_all(
            format!("{heading}dry run: every player checked; nothing played\n").as_bytes(),
        )?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let watch = Watch::default();
    super::eval::stop_on_signals(&watch.stop);
    if !args.json {
        std::io::stdout().write_all(heading.as_bytes())?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(args.threads))
        .build()
        .context("starting the thread pool")?;
    let played = super::eval::with_games_bar(total, args.json, &watch, |_| {
        pool.install(|| {
            host.visit(Matches {
                makers,
                args,
                watch: &watch,
            })
        })
    })?;
    let pairs: Vec<PairResult> = played
        .iter()
        .map(|(i, j, t)| PairResult {
            i: *i,
            j: *j,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
        })
        .collect();
    let rated = ratings(n, &pairs);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| rated[b].rating.total_cmp(&rated[a].rating));
    let rows: Vec<Row> = order
        .iter()
        .map(|&k| {
            let Rating {
                rating,
                low,
                high,
                games,
                score,
            } = rated[k];
            Row {
                player: args.players[k].clone(),
                rating,
                low,
                high,
                games,
                score,
            }
        })
        .collect();
    let pair_rows: Vec<PairRow> = played
        .iter()
        .map(|(i, j, t)| PairRow {
            player: args.players[*i].clone(),
            against: args.players[*j].clone(),
            games: t.games,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            score: t.score(),
        })
        .collect();
    let text = if args.json {
        serde_json::to_string_pretty(&serde_json::json!({
            "players": rows,
            "pairs": pair_rows,
        }))? + "\n"
    } else {
        table(&rows, &pair_rows)
    };
    std::io::stdout().write_all(text.as_bytes())?;
    if watch.stopped() {
        let done: u64 = played.iter().map(|(_, _, t)| t.games).sum();
        errln!(
            "stopped by a signal after {done} of {total} games: the ratings are of the games played"
        );
        return Ok(std::process::ExitCode::from(130));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// The ranking, then each pair's match.
fn table(rows: &[Row], pairs: &[PairRow]) -> String {
    let width = rows
        .iter()
        .map(|r| r.player.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut out = format!(
        "rank  {:<width$}  rating  95% interval   games   score\n",
        "player"
    );
    for (k, r) in rows.iter().enumerate() {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>+6.0}  {:>+5.0} to {:<+5.0}  {:>6}  {:>5.1}%\n",
            k + 1,
            r.player,
            r.rating,
            r.low,
            r.high,
            r.games,
            100.0 * r.score
        ));
    }
    out.push_str(
        "rating: Bradley-Terry on the Elo scale, mean 0 (400 points: odds of 10 to 1); a draw is half a win, and one virtual draw a pair keeps a clean sweep finite\n\npairs (first player's side)\n",
    );
    let against = pairs
        .iter()
        .map(|p| p.against.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    out.push_str(&format!(
        "{:<width$}  {:<against$}  {:>6} {:>6} {:>6} {:>6}  {:>6}\n",
        "player", "against", "games", "wins", "draws", "losses", "score"
    ));
    for p in pairs {
        out.push_str(&format!(
            "{:<width$}  {:<against$}  {:>6} {:>6} {:>6} {:>6}  {:>5.1}%\n",
            p.player,
            p.against,
            p.games,
            p.wins,
            p.draws,
            p.losses,
            100.0 * p.score
        ));
    }
    out
}
