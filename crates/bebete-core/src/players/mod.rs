//! Players: anything that picks a move in a position.
//!
//! Genomes are players, and so are the fixed opponents used to measure them:
//! `random`, `rules`, `wpc`, `mc:N`, `alphabeta:D` and `perfect`, and any
//! of them with random moves at a rate ε (`wpc@0.1`). A [`PlayerSpec`]
//! is the textual form used on the command line; [`PlayerSpec::factory`]
//! checks it against a game once (loading a genome file, say) and the
//! [`PlayerFactory`] then makes as many independent, seeded players as the
//! parallel work needs.

mod alphabeta;
mod genome_player;
mod greedy;
pub mod knowledge;
mod montecarlo;
mod perfect;
mod random;
mod rules;

pub use alphabeta::AlphaBetaPlayer;
pub use genome_player::GenomePlayer;
pub use greedy::{GreedyPlayer, NoisyPlayer};
pub use knowledge::{
    Exact, ExactSolver, Knowledge, NotAPuzzle, Puzzle, PuzzleVisitor, SolvedExact, TableSolver,
};
pub use montecarlo::MonteCarloPlayer;
pub use perfect::PerfectPlayer;
pub use random::RandomPlayer;
pub use rules::RulesPlayer;

use crate::encoding::{IllegalPolicy, TableGame};
use crate::games::{Game, Identified, Notation, Outcome, Side};
use crate::genome::Genome;
use crate::store::FileError;
use std::path::PathBuf;
use std::sync::Arc;

/// A game with its genome kind ([`TableGame`]), what the fixed players
/// know of it ([`Knowledge`]) and the name its files carry
/// ([`Identified`]): what matches and evolution run, for a built-in game or
/// one from outside this crate. Every type with the three is one; the name
/// stands for the bound.
pub trait Playable: TableGame + Knowledge + Identified + Notation {}

impl<G: TableGame + Knowledge + Identified + Notation> Playable for G {}

/// Something that chooses moves.
pub trait Player<G: Game>: Send {
    /// The move to play in `pos` (which is not finished); `None` forfeits.
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move>;
    /// Restarts the player's random stream (players without one ignore it).
    fn reseed(&mut self, _seed: u64) {}
}

/// Plays one game from `start`; `first` moves first. A forfeit or an illegal
/// move loses.
pub fn play_game<G: Game>(
    game: &G,
    start: G::Position,
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
) -> Outcome {
    play_game_seen(game, start, first, second, |_| {})
}

/// [`play_game`], telling `seen` each move played (a game record).
pub(crate) fn play_game_seen<G: Game>(
    game: &G,
    start: G::Position,
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
    mut seen: impl FnMut(G::Move),
) -> Outcome {
    let mut pos = start;
    loop {
        if let Some(outcome) = game.outcome(&pos) {
            return outcome;
        }
        let side = game.turn(&pos);
        let player: &mut dyn Player<G> = match side {
            Side::First => first,
            Side::Second => second,
        };
        match player.choose(game, &pos) {
            Some(mv) if game.is_legal(&pos, mv) => {
                seen(mv);
                pos = game.play(&pos, mv);
            }
            _ => return Outcome::Win(side.other()),
        }
    }
}

/// Most playouts per move for `mc:N`.
pub(crate) const MAX_PLAYOUTS: u32 = 100_000;
/// Deepest search for `alphabeta:D`.
pub(crate) const MAX_DEPTH: u32 = 12;

/// The count a fixed player takes after `:` (`alphabeta:D`), for a menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerCount {
    /// What the count is, in words (`depth D`).
    pub(crate) name: &'static str,
    /// The least and most it may be.
    pub(crate) least: u32,
    pub(crate) most: u32,
    /// A sensible first choice.
    pub(crate) usual: u32,
}

/// One fixed player a game can face, as a menu lists it: its name as a
/// spec takes it, what it does in words, and its count when it takes one.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FixedPlayer {
    /// The spec's name (`alphabeta`); with a count, the spec is
    /// `name:count`.
    pub(crate) name: &'static str,
    /// What the player does, in words (`search to depth D`).
    pub(crate) about: String,
    /// The count after `:`, for the players that take one.
    pub(crate) count: Option<PlayerCount>,
}

/// The fixed players `game` can face, strongest first: of `perfect`,
/// `wpc`, `alphabeta:D`, `mc:N`, `rules` and `random`, those that build
/// for it ([`PlayerSpec::factory`] decides: `perfect` needs exact play,
/// `wpc` a weighted piece counter, the others but `random` an opponent).
pub(crate) fn fixed_players<G: Playable>(game: &G) -> Vec<FixedPlayer> {
    let count = |name, most, usual| {
        Some(PlayerCount {
            name,
            least: 1,
            most,
            usual,
        })
    };
    let (depth, playouts) = (4, 200);
    // Each candidate with the spec it is offered as (a count at its usual
    // value), which decides whether the game can have it.
    let candidates = [
        ("perfect", "exact play", PlayerSpec::Perfect, None),
        (
            "wpc",
            "the weighted piece counter, one ply",
            PlayerSpec::Wpc,
            None,
        ),
        (
            "alphabeta",
            "search to depth D",
            PlayerSpec::AlphaBeta(depth),
            count("depth D", MAX_DEPTH, depth),
        ),
        (
            "mc",
            "N random playouts per move",
            PlayerSpec::MonteCarlo(playouts),
            count("playouts N", MAX_PLAYOUTS, playouts),
        ),
        ("rules", G::RULES_PLAYER, PlayerSpec::Rules, None),
        ("random", "a random legal move", PlayerSpec::Random, None),
    ];
    candidates
        .into_iter()
        .filter(|(_, _, spec, _)| spec.factory(game, IllegalPolicy::Repair).is_ok())
        .map(|(name, about, _, count)| FixedPlayer {
            name,
            about: about.to_string(),
            count,
        })
        .collect()
}

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A uniformly random legal move.
    Random,
    /// Win, else block, else a fixed preference.
    Rules,
    /// `mc:N`: N random playouts per legal move.
    MonteCarlo(u32),
    /// `alphabeta:D`: negamax with alpha-beta to depth D.
    AlphaBeta(u32),
    /// Exact play.
    Perfect,
    /// `wpc`: one ply, the move after which the game's weighted piece
    /// counter is best (Othello's standard heuristic player).
    Wpc,
    /// A genome file.
    Genome(PathBuf),
    /// `PLAYER@ε`: the player, but a uniformly random legal move instead
    /// with probability ε (in thousandths: 100 is 0.1), as the Othello
    /// papers' benchmark plays both sides.
    Noisy(Box<PlayerSpec>, u16),
}

impl PlayerError {
    /// A genome path with no file: said as a missing file when the name
    /// reads as one, else as an unknown player.
    pub fn missing(path: &std::path::Path) -> PlayerError {
        let name = path.display().to_string();
        if let Some(meant) = crate::genome::meant_file(path) {
            PlayerError::DidYouMean(name, meant.display().to_string())
        } else if name.contains('/') || name.ends_with(".genome") {
            PlayerError::NoGenomeFile(name)
        } else {
            PlayerError::Unknown(name)
        }
    }
}

/// A player specification that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error(
        "unknown player '{0}': expected random, rules, wpc, mc:N, alphabeta:D, perfect or the path of a genome file (any of them with @ε for random moves at rate ε: wpc@0.1)"
    )]
    /// No player has this spec.
    Unknown(String),
    /// A name that reads as a file (a `/` or `.genome` in it) but no file
    /// is there.
    #[error("player '{0}': no such genome file")]
    NoGenomeFile(String),
    /// A genome's name without its `.genome`.
    #[error("player '{0}': no such genome file; did you mean '{1}'?")]
    DidYouMean(String, String),
    #[error("player '{spec}': {reason}")]
    /// A player's parameter out of its range.
    OutOfRange {
        /// The spec given.
        spec: String,
        /// What is allowed, in words.
        reason: String,
    },
    #[error(
        "player '{0}' plays against an opponent; {1} is a one-player game: only random, perfect and genomes play it"
    )]
    /// A player of two-player games, asked for a puzzle.
    TwoPlayerOnly(String, String),
    #[error("player 'perfect': {0} has no exact solver; alphabeta:D searches D plies {1}")]
    /// `perfect` for a game with no exact solver.
    NoSolver(String, &'static str),
    #[error(
        "player 'wpc': {0} has no weighted piece counter (othello's heuristic player); try rules or alphabeta:D"
    )]
    /// `wpc` for a game with no weighted piece counter.
    NoWeightedPieces(String),
    #[error(transparent)]
    /// A genome file that could not be read.
    File(#[from] FileError),
}

/// Reads ε of `PLAYER@ε`: 0 to 1, in thousandths.
fn parse_rate(spec: &str, text: &str) -> Result<u16, PlayerError> {
    let out_of_range = || PlayerError::OutOfRange {
        spec: spec.to_string(),
        reason:
            "the random-move rate after @ must be a number 0-1 with at most three decimals (0.1)"
                .to_string(),
    };
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let rate: f64 = text
        .parse()
        .ok()
        .filter(|_| digits)
        .ok_or_else(out_of_range)?;
    let thousandths = (rate * 1000.0).round();
    if !(0.0..=1000.0).contains(&thousandths) || (thousandths - rate * 1000.0).abs() > 1e-6 {
        return Err(out_of_range());
    }
    Ok(thousandths as u16)
}

fn parse_count(spec: &str, text: &str, most: u32, what: &str) -> Result<u32, PlayerError> {
    // Digits only: `u32`'s parser would also take a leading `+`.
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u32>().ok().filter(|_| digits) {
        Some(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(PlayerError::OutOfRange {
            spec: spec.to_string(),
            reason: format!("{what} must be a whole number 1-{most}"),
        }),
    }
}

impl PlayerSpec {
    /// Reads a player name, `mc:N`, `alphabeta:D`, or a genome path. Pure:
    /// whether the path names a genome file is checked when the player is
    /// built ([`PlayerSpec::factory`]).
    pub fn parse(text: &str) -> Result<PlayerSpec, PlayerError> {
        if let Some((player, rate)) = text.rsplit_once('@') {
            let rate = parse_rate(text, rate)?;
            return match PlayerSpec::parse(player)? {
                PlayerSpec::Noisy(..) => Err(PlayerError::OutOfRange {
                    spec: text.to_string(),
                    reason: "one random-move rate per player".to_string(),
                }),
                inner => Ok(PlayerSpec::Noisy(Box::new(inner), rate)),
            };
        }
        match text.split_once(':') {
            Some(("mc", n)) => Ok(PlayerSpec::MonteCarlo(parse_count(
                text,
                n,
                MAX_PLAYOUTS,
                "the playouts N",
            )?)),
            Some(("alphabeta", d)) => Ok(PlayerSpec::AlphaBeta(parse_count(
                text,
                d,
                MAX_DEPTH,
                "the depth D",
            )?)),
            _ => match text {
                "random" => Ok(PlayerSpec::Random),
                "rules" => Ok(PlayerSpec::Rules),
                "perfect" => Ok(PlayerSpec::Perfect),
                "wpc" => Ok(PlayerSpec::Wpc),
                "" => Err(PlayerError::Unknown(String::new())),
                path => Ok(PlayerSpec::Genome(path.into())),
            },
        }
    }

    /// The player without its random-move rate (`wpc` for `wpc@0.1`).
    pub fn plain(&self) -> &PlayerSpec {
        match self {
            PlayerSpec::Noisy(inner, _) => inner,
            spec => spec,
        }
    }

    /// Reads a comma-separated list of player specs.
    pub fn parse_list(text: &str) -> Result<Vec<PlayerSpec>, PlayerError> {
        text.split(',')
            .map(|s| PlayerSpec::parse(s.trim()))
            .collect()
    }

    /// Checks the spec against `game` once (loading a genome file) and
    /// returns a factory of players.
    pub fn factory<G: Playable>(
        &self,
        game: &G,
        policy: IllegalPolicy,
    ) -> Result<PlayerFactory<G>, PlayerError> {
        let needs_opponent = matches!(
            self,
            PlayerSpec::Rules
                | PlayerSpec::MonteCarlo(_)
                | PlayerSpec::AlphaBeta(_)
                | PlayerSpec::Wpc
        );
        if G::PLAYERS == 1 && needs_opponent {
            return Err(PlayerError::TwoPlayerOnly(
                self.to_string(),
                game.id().name().to_string(),
            ));
        }
        if *self == PlayerSpec::Wpc && !G::WEIGHTED_PIECES {
            return Err(PlayerError::NoWeightedPieces(game.id().name().to_string()));
        }
        let made = match self {
            PlayerSpec::Random => Made::Random,
            PlayerSpec::Rules => Made::Rules,
            PlayerSpec::MonteCarlo(n) => Made::MonteCarlo(*n),
            PlayerSpec::AlphaBeta(d) => Made::AlphaBeta(*d),
            PlayerSpec::Wpc => Made::Wpc,
            PlayerSpec::Perfect => Made::Perfect(game.exact().ok_or(PlayerError::NoSolver(
                game.id().name().to_string(),
                if G::WEIGHTED_PIECES {
                    "with the weighted piece counter (wpc)"
                } else {
                    "with a material count"
                },
            ))?),
            PlayerSpec::Genome(path) if !path.exists() => {
                return Err(PlayerError::missing(path));
            }
            PlayerSpec::Genome(path) => {
                let genome = Genome::load_for(game, path)?;
                Made::Genome(Arc::from(genome.genes), genome.lookahead)
            }
            PlayerSpec::Noisy(inner, rate) => {
                return Ok(PlayerFactory {
                    spec: self.clone(),
                    rate: *rate,
                    ..inner.factory(game, policy)?
                });
            }
        };
        Ok(PlayerFactory {
            spec: self.clone(),
            made,
            policy,
            rate: 0,
        })
    }

    /// One player for `game`; `seed` drives any randomness it has.
    pub fn build<G: Playable>(
        &self,
        game: &G,
        seed: u64,
        policy: IllegalPolicy,
    ) -> Result<Box<dyn Player<G>>, PlayerError> {
        Ok(self.factory(game, policy)?.make(game, seed))
    }
}

/// Stored as its text (`mc:200`, a genome path), exactly as a `String`
/// field would be: files written when specs were strings still load.
impl serde::Serialize for PlayerSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for PlayerSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        PlayerSpec::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(text: &str) -> Result<Self, PlayerError> {
        PlayerSpec::parse(text)
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Rules => f.write_str("rules"),
            PlayerSpec::MonteCarlo(n) => write!(f, "mc:{n}"),
            PlayerSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            PlayerSpec::Perfect => f.write_str("perfect"),
            PlayerSpec::Wpc => f.write_str("wpc"),
            PlayerSpec::Genome(path) => write!(f, "{}", path.display()),
            PlayerSpec::Noisy(inner, rate) => write!(f, "{inner}@{}", *rate as f64 / 1000.0),
        }
    }
}

/// Makes players of one spec, cheaply: a genome's genes are loaded once and
/// shared, and so is a perfect player's exact play.
pub struct PlayerFactory<G: Knowledge> {
    spec: PlayerSpec,
    made: Made<G>,
    policy: IllegalPolicy,
    /// `@ε`'s random-move rate, in thousandths (0: none).
    rate: u16,
}

/// What the spec was resolved to, once: the genes it plays, the exact play
/// it shares.
enum Made<G: Knowledge> {
    Random,
    Rules,
    MonteCarlo(u32),
    AlphaBeta(u32),
    Wpc,
    Perfect(Arc<dyn Exact<G>>),
    /// A genome's genes and the lookahead of its shell.
    Genome(Arc<[u8]>, u8),
}

impl<G: Knowledge> Clone for Made<G> {
    fn clone(&self) -> Self {
        match self {
            Made::Random => Made::Random,
            Made::Rules => Made::Rules,
            Made::MonteCarlo(n) => Made::MonteCarlo(*n),
            Made::AlphaBeta(d) => Made::AlphaBeta(*d),
            Made::Wpc => Made::Wpc,
            Made::Perfect(exact) => Made::Perfect(exact.clone()),
            Made::Genome(genes, lookahead) => Made::Genome(genes.clone(), *lookahead),
        }
    }
}

impl<G: Knowledge> Clone for PlayerFactory<G> {
    fn clone(&self) -> Self {
        PlayerFactory {
            spec: self.spec.clone(),
            made: self.made.clone(),
            policy: self.policy,
            rate: self.rate,
        }
    }
}

impl<G: Playable> PlayerFactory<G> {
    /// The spec this factory makes.
    pub(crate) fn spec(&self) -> &PlayerSpec {
        &self.spec
    }

    /// A fresh player seeded with `seed`.
    pub fn make(&self, game: &G, seed: u64) -> Box<dyn Player<G>> {
        let player = self.make_plain(game, seed);
        if self.rate == 0 {
            return player;
        }
        Box::new(NoisyPlayer::new(player, self.rate as f64 / 1000.0, seed))
    }

    /// The player without its random moves.
    fn make_plain(&self, game: &G, seed: u64) -> Box<dyn Player<G>> {
        match &self.made {
            Made::Random => Box::new(RandomPlayer::new(seed)),
            Made::Rules => Box::new(RulesPlayer::new(seed)),
            Made::MonteCarlo(n) => Box::new(MonteCarloPlayer::new(*n, seed)),
            Made::AlphaBeta(d) => Box::new(AlphaBetaPlayer::new(*d, seed)),
            Made::Wpc => Box::new(GreedyPlayer::new(seed)),
            Made::Perfect(exact) => Box::new(PerfectPlayer::new(game, exact.as_ref(), seed)),
            Made::Genome(genes, lookahead) => {
                Box::new(GenomePlayer::new(genes.clone(), self.policy).with_lookahead(*lookahead))
            }
        }
    }
}

/// A move of the highest score in `scored`, at random among equals; `None`
/// when there is none.
pub(crate) fn best_at_random<M: Copy, S: Ord + Copy, R: rand::Rng>(
    scored: &[(M, S)],
    rng: &mut R,
) -> Option<M> {
    use rand::seq::IndexedRandom;
    let best = scored.iter().map(|&(_, s)| s).max()?;
    let ties: Vec<M> = scored
        .iter()
        .filter(|&&(_, s)| s == best)
        .map(|&(m, _)| m)
        .collect();
    ties.choose(rng).copied()
}

#[cfg(test)]
mod tests;
