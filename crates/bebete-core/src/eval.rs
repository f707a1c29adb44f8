//! Measuring a player against fixed opponents.
//!
//! Each opponent plays `games` games against the player, in pairs: both games
//! of a pair start from the same opening (`openings` random plies, seeded)
//! and the sides are swapped, so neither moving first nor a lucky opening
//! favours anyone. Pairs run in parallel; every player is reseeded per game
//! from (seed, opponent, pair), so results do not depend on thread count.

use crate::encoding::TableGame;
use crate::games::{Outcome, Side};
use crate::players::Playable;
use crate::players::{Player, PlayerFactory, play_game_seen};
use crate::seed::derive_seed;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::Serialize;

pub mod league;
use std::ops::AddAssign;

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games per opponent (rounded up to an even number).
    pub games: u64,
    /// Seed of the match: each pair of games derives its own.
    pub seed: u64,
    /// Random plies played before each pair of games.
    pub openings: u32,
    /// Whether the tally keeps every game's moves ([`Tally::records`]).
    pub record: bool,
}

/// One game of a match, kept when [`MatchConfig::record`] asks for it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Whether the player moved first.
    pub player_first: bool,
    /// How the game ended.
    pub outcome: Outcome,
    /// Every move from the start, the opening's included, in the game's
    /// notation: a position `bebete move --position` takes.
    pub moves: String,
}

impl GameRecord {
    /// The first line of a file of records: the columns' names.
    pub const HEADER: &'static str = "# first\tsecond\tresult\tmoves\n";

    /// The game as a record file's line, `player` and `other` named in the
    /// order they moved: tab-separated, the result `1-0`, `0-1` or
    /// `1/2-1/2` from the first player's side.
    pub fn line(&self, player: &str, other: &str) -> String {
        let (first, second) = match self.player_first {
            true => (player, other),
            false => (other, player),
        };
        let result = match self.outcome {
            Outcome::Win(Side::First) => "1-0",
            Outcome::Win(Side::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        };
        format!("{first}\t{second}\t{result}\t{}\n", self.moves)
    }
}

/// Wins, draws and losses against one opponent, from the player's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally {
    /// The opponent, as its spec.
    pub against: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Wins, draws and losses of the games the player moved first in, and
    /// of those it moved second in.
    pub(crate) as_first: [u64; 3],
    pub(crate) as_second: [u64; 3],
    /// The games, pair by pair, when the match was asked to keep them.
    #[serde(skip)]
    pub records: Vec<GameRecord>,
}

impl Tally {
    /// Share of points: a win 1, a draw ½.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }

    /// A 95% confidence interval on the score (normal approximation with
    /// the games' own variance), clamped to [0, 1].
    pub fn interval95(&self) -> (f64, f64) {
        let n = self.games as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let mean = self.score();
        let mean_sq = (self.wins as f64 + self.draws as f64 / 4.0) / n;
        let half = 1.96 * ((mean_sq - mean * mean).max(0.0) / n).sqrt();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }
}

/// The position after `plies` random moves (fewer if the game ends), each
/// move told to `seen`.
fn opening<G: TableGame>(
    game: &G,
    plies: u32,
    seed: u64,
    mut seen: impl FnMut(G::Move),
) -> G::Position {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = game.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&pos, &mut moves);
        // Never play an opening into a finished game.
        let next = moves
            .iter()
            .map(|&m| (m, game.play(&pos, m)))
            .filter(|(_, p)| game.outcome(p).is_none())
            .collect::<Vec<_>>();
        let Some(&(mv, after)) = next.choose(&mut rng) else {
            break;
        };
        seen(mv);
        pos = after;
    }
    pos
}

/// Makes a fresh player (one per worker thread).
pub(crate) type MakePlayer<'a, G> = dyn Fn() -> Box<dyn Player<G> + 'a> + Sync + 'a;

/// Plays `player` against `opponent` (the `index`-th opponent of a match),
/// watched by `watch` when given ([`play_with`]).
pub fn play_match<G: Playable>(
    game: &G,
    player: &PlayerFactory<G>,
    opponent: &PlayerFactory<G>,
    index: u64,
    cfg: MatchConfig,
    watch: Option<&Watch>,
) -> Tally {
    let mut tally = play_with(
        game,
        &|| player.make(game, 0),
        &|| opponent.make(game, 0),
        index,
        cfg,
        watch,
    );
    tally.against = opponent.spec().to_string();
    tally
}

/// Plays players made by `player` against `opponent` (the `index`-th
/// opponent of a match), unwatched: a genome's fitness games and
/// benchmark. The tally's `against` is left empty (no allocation).
pub(crate) fn play_against<G: Playable>(
    game: &G,
    player: &MakePlayer<'_, G>,
    opponent: &PlayerFactory<G>,
    index: u64,
    cfg: MatchConfig,
) -> Tally {
    play_with(game, player, &|| opponent.make(game, 0), index, cfg, None)
}

/// What a caller watching a long match shares with it: the games played
/// so far (for a progress bar), and a flag that stops it (Ctrl-C). A
/// stopped match's tally holds the pairs of games that were played; each
/// pair is seeded on its own, so those are the same games an uninterrupted
/// match plays.
#[derive(Debug, Default)]
pub struct Watch {
    /// Games played so far, for a progress bar.
    pub played: std::sync::atomic::AtomicU64,
    /// Raised to stop the match after the pairs of games under way.
    pub stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Watch {
    /// Whether the match was told to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Plays players made by `player` against players made by `opponent`; the
/// tally's `against` is left empty for the caller to name. With `watch`,
/// the games played are counted into it and the match stops (before the
/// next pair of games) when it says so.
pub fn play_with<G: TableGame>(
    game: &G,
    player: &MakePlayer<'_, G>,
    opponent: &MakePlayer<'_, G>,
    index: u64,
    cfg: MatchConfig,
    watch: Option<&Watch>,
) -> Tally {
    use std::sync::atomic::Ordering;
    let pairs = cfg.games.div_ceil(2);
    // One entry a pair (`None`: not played, the match stopped): an exact-size,
    // indexed collect, as fast as the unwatched match's.
    type Pair = ([Outcome; 2], Option<[GameRecord; 2]>);
    let results: Vec<Option<Pair>> = (0..pairs)
        .into_par_iter()
        .map_init(
            || (player(), opponent()),
            |(p, o), pair| {
                if watch.is_some_and(Watch::stopped) {
                    return None;
                }
                let mut opened = Vec::new();
                let start = opening(
                    game,
                    cfg.openings,
                    derive_seed(cfg.seed, index, pair),
                    |m| {
                        if cfg.record {
                            opened.push(m);
                        }
                    },
                );
                let mut outcome = |player_side: Side| {
                    let k = 2 * pair + (player_side == Side::Second) as u64;
                    p.reseed(derive_seed(cfg.seed ^ 0x5eed, index, 2 * k));
                    o.reseed(derive_seed(cfg.seed ^ 0x5eed, index, 2 * k + 1));
                    let mut moves = opened.clone();
                    let seen = |m| {
                        if cfg.record {
                            moves.push(m);
                        }
                    };
                    let outcome = match player_side {
                        Side::First => play_game_seen(game, start, p.as_mut(), o.as_mut(), seen),
                        Side::Second => play_game_seen(game, start, o.as_mut(), p.as_mut(), seen),
                    };
                    let record = cfg.record.then(|| GameRecord {
                        player_first: player_side == Side::First,
                        outcome,
                        moves: game.format_line(&moves),
                    });
                    (outcome, record)
                };
                let (first, second) = (outcome(Side::First), outcome(Side::Second));
                if let Some(w) = watch {
                    w.played.fetch_add(2, Ordering::Relaxed);
                }
                let records = first.1.zip(second.1).map(<[GameRecord; 2]>::from);
                Some(([first.0, second.0], records))
            },
        )
        .collect();
    let played = results.iter().flatten().count() as u64;
    let mut tally = Tally {
        against: String::new(),
        games: 2 * played,
        wins: 0,
        draws: 0,
        losses: 0,
        as_first: [0; 3],
        as_second: [0; 3],
        records: Vec::new(),
    };
    for ([as_first, as_second], records) in results.into_iter().flatten() {
        tally.records.extend(records.into_iter().flatten());
        for (outcome, side) in [(as_first, Side::First), (as_second, Side::Second)] {
            let k = match outcome {
                Outcome::Win(winner) if winner == side => 0,
                Outcome::Draw => 1,
                Outcome::Win(_) => 2,
            };
            [&mut tally.wins, &mut tally.draws, &mut tally.losses][k].add_assign(1);
            match side {
                Side::First => tally.as_first[k] += 1,
                Side::Second => tally.as_second[k] += 1,
            }
        }
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::IllegalPolicy;
    use crate::games::{Pair, TicTacToe, TicTacToeEncoder};
    use crate::players::PlayerSpec;

    fn factory(spec: &str) -> PlayerFactory<Pair<TicTacToe, TicTacToeEncoder>> {
        PlayerSpec::parse(spec)
            .unwrap()
            .factory(&TicTacToe::BASE3, IllegalPolicy::Repair)
            .unwrap()
    }

    #[test]
    fn perfect_against_random_never_loses_and_the_tally_adds_up() {
        let cfg = MatchConfig {
            games: 101,
            seed: 3,
            openings: 0,
            record: false,
        };
        let t = play_match(
            &TicTacToe::BASE3,
            &factory("perfect"),
            &factory("random"),
            0,
            cfg,
            None,
        );
        assert_eq!(t.games, 102);
        assert_eq!(t.wins + t.draws + t.losses, 102);
        assert_eq!(t.losses, 0);
        assert!(t.score() > 0.8);
        let (lo, hi) = t.interval95();
        assert!(lo <= t.score() && t.score() <= hi);
    }

    #[test]
    fn a_match_is_the_same_on_one_thread_or_two() {
        let cfg = MatchConfig {
            games: 60,
            seed: 8,
            openings: 1,
            record: false,
        };
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| {
                    play_match(
                        &TicTacToe::BASE3,
                        &factory("mc:5"),
                        &factory("random"),
                        2,
                        cfg,
                        None,
                    )
                })
        };
        assert_eq!(on(1), on(2));
    }

    /// A watched match counts its games, and a stopped one keeps the pairs
    /// it played: the same games as the whole match's, fewer of them.
    #[test]
    fn a_stopped_match_keeps_the_games_it_played() {
        let cfg = MatchConfig {
            games: 40,
            seed: 8,
            openings: 1,
            record: false,
        };
        let play = |watch: &Watch| {
            play_match(
                &TicTacToe::BASE3,
                &factory("mc:5"),
                &factory("random"),
                2,
                cfg,
                Some(watch),
            )
        };
        let whole = Watch::default();
        let all = play(&whole);
        assert_eq!(whole.played.load(std::sync::atomic::Ordering::Relaxed), 40);
        assert_eq!(all.games, 40);
        let stopped = Watch::default();
        stopped
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let none = play(&stopped);
        assert_eq!((none.games, none.wins + none.draws + none.losses), (0, 0));
    }

    /// Keeping the games changes none of them: the same tally, a record
    /// a game, each record's moves a finished game with its outcome.
    #[test]
    fn recorded_games_are_the_games_played() {
        use crate::games::{Game, Notation};
        let cfg = MatchConfig {
            games: 20,
            seed: 9,
            openings: 2,
            record: false,
        };
        let game = TicTacToe::BASE3;
        let play = |cfg| play_match(&game, &factory("rules"), &factory("random"), 1, cfg, None);
        let plain = play(cfg);
        let recorded = play(MatchConfig {
            record: true,
            ..cfg
        });
        assert!(plain.records.is_empty());
        assert_eq!(recorded.records.len(), 20);
        assert_eq!(
            Tally {
                records: Vec::new(),
                ..recorded.clone()
            },
            plain
        );
        for (i, record) in recorded.records.iter().enumerate() {
            assert_eq!(record.player_first, i % 2 == 0);
            let end = game.parse_position(&record.moves).unwrap();
            assert_eq!(game.outcome(&end), Some(record.outcome), "{}", record.moves);
        }
    }

    #[test]
    fn the_interval_is_a_point_for_a_clean_sweep() {
        let t = Tally {
            against: "x".into(),
            games: 10,
            wins: 10,
            draws: 0,
            losses: 0,
            as_first: [5, 0, 0],
            as_second: [5, 0, 0],
            records: Vec::new(),
        };
        assert_eq!(t.interval95(), (1.0, 1.0));
    }
}
