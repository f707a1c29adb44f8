//! Building a position bank ([`crate::bank`]): positions gathered from games
//! of varied players, then labelled by the exact solver.
//!
//! Gathering is cheap and deterministic: game `g` draws its two players, its
//! random opening and its share of random moves from (seed, g), games are
//! played in parallel and merged in game order, and a position met twice (or
//! as the mirror image of one met before) is kept once. Labelling is the slow
//! part (the solver's cost grows steeply below 14 stones), so it goes in
//! blocks that the caller can save and resume.

use crate::bank::{BankFile, BankHeader, Entry, HELD_OUT_EVERY, canonical_key};
use crate::encoding::IllegalPolicy;
use crate::games::{Connect4, Connect4Position, Game, GameSpec, Kind, Pair};
use crate::genome::Genome;
use crate::players::knowledge::Connect4Solver;
use crate::players::{Playable, Player, PlayerError, PlayerSpec};
use crate::seed::derive_seed;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Seed stream of the gathering games.
const GATHER_STREAM: u64 = 0xba4c;
/// Games gathered in one parallel batch.
const BATCH: u64 = 256;
/// Most games tried before giving up on finding more new positions.
const MAX_GAMES: u64 = 10_000_000;

/// What to gather.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The seed the games are played with.
    pub seed: u64,
    /// Positions wanted.
    pub positions: u64,
    /// Positions with fewer stones are skipped.
    pub min_stones: u8,
    /// The players whose games are gathered (two drawn per game).
    pub players: Vec<PlayerSpec>,
}

/// The players `bebete bank` draws from unless told otherwise: blunderers
/// and searchers, so that the bank holds both the positions weak play
/// reaches and those strong play does.
pub const DEFAULT_PLAYERS: &str = "random,rules,alphabeta:1,alphabeta:2,alphabeta:4,mc:50";

/// Positions gathered for a bank, in the order they were met, and the
/// games played.
#[derive(Default)]
pub struct Gathered {
    /// Each position and whether it is held out.
    pub positions: Vec<(Connect4Position, bool)>,
    /// Games played to gather them.
    pub games: u64,
}

/// One of the plan's players, built once: it makes a fresh player for
/// each game, on the rules (a genome plays with its own genome kind).
pub struct Seat(Box<dyn Fn(u64) -> Box<dyn Player<Connect4>> + Send + Sync>);

impl Seat {
    /// A player of `spec` in `game` (the rules paired with a genome kind),
    /// seated on the rules alone.
    fn new<G>(game: G, spec: &PlayerSpec) -> Result<Seat, PlayerError>
    where
        G: Playable + Game<Position = Connect4Position, Move = u8>,
    {
        let factory = spec.factory(&game, IllegalPolicy::default())?;
        Ok(Seat(Box::new(move |seed| {
            Box::new(OnRules {
                player: factory.make(&game, seed),
                game: game.clone(),
            })
        })))
    }
}

/// A player of a game of the rules and a genome kind, asked for moves in
/// the rules alone: its own game is the one it plays in.
struct OnRules<G: Game> {
    game: G,
    player: Box<dyn Player<G>>,
}

impl<G: Game<Position = Connect4Position, Move = u8>> Player<Connect4> for OnRules<G> {
    fn choose(&mut self, _: &Connect4, pos: &Connect4Position) -> Option<u8> {
        self.player.choose(&self.game, pos)
    }

    fn reseed(&mut self, seed: u64) {
        self.player.reseed(seed);
    }
}

/// One game's positions (unfinished, with at least `min_stones` stones).
fn one_game(seats: &[Seat], plan: &Plan, g: u64) -> Vec<Connect4Position> {
    let game = Connect4;
    let seed = derive_seed(plan.seed, g, GATHER_STREAM);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut players: Vec<Box<dyn Player<Connect4>>> = (0..2)
        .map(|side| {
            let seat = seats.choose(&mut rng).expect("at least one player");
            (seat.0)(derive_seed(seed, side, 0))
        })
        .collect();
    // A share of random moves (none, some, many) varies the games further.
    let epsilon = *[0.0, 0.1, 0.25].choose(&mut rng).expect("three shares");
    let opening = rng.random_range(0..=4);
    let mut pos = game.start();
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while game.outcome(&pos).is_none() {
        if pos.moves >= plan.min_stones {
            out.push(pos);
        }
        let side = (pos.moves % 2) as usize;
        let mv = if pos.moves < opening || rng.random::<f64>() < epsilon {
            game.legal_moves(&pos, &mut moves);
            moves.choose(&mut rng).copied()
        } else {
            players[side].choose(&game, &pos)
        };
        match mv {
            Some(mv) if game.is_legal(&pos, mv) => pos = game.play(&pos, mv),
            _ => break,
        }
    }
    out
}

/// The plan's players, each built once (genome files read and checked): a
/// genome plays with its own encoder, the others with the sub-grid one.
pub fn players(plan: &Plan) -> Result<Vec<Seat>, PlayerError> {
    plan.players
        .iter()
        .map(|spec| {
            let own = match spec {
                PlayerSpec::Genome(path) => match Genome::load(path)?.game {
                    GameSpec::Connect4(own) => own,
                    _ => Connect4::SUBGRID.registered(),
                },
                _ => Connect4::SUBGRID.registered(),
            };
            match own.kind {
                Kind::Votes(encoder) => Seat::new(Pair::new(own.rules, encoder), spec),
                Kind::Value(genome) => Seat::new(Pair::new(own.rules, genome), spec),
            }
        })
        .collect()
}

/// Gathers `plan.positions` distinct positions (mirror images counted
/// once), every tenth game held out; `progress` gets the count so far
/// after each batch of games and says whether to go on (`false`: stop
/// there, with fewer positions than asked).
pub fn gather(plan: &Plan, mut progress: impl FnMut(u64) -> bool) -> Result<Gathered, PlayerError> {
    let seats = players(plan)?;
    let mut index: HashMap<u64, usize> = HashMap::default();
    let mut positions: Vec<(Connect4Position, bool)> = Vec::new();
    let mut games = 0;
    while (positions.len() as u64) < plan.positions && games < MAX_GAMES {
        let batch: Vec<Vec<Connect4Position>> = (games..games + BATCH)
            .into_par_iter()
            .map(|g| one_game(&seats, plan, g))
            .collect();
        for (k, found) in batch.into_iter().enumerate() {
            let g = games + k as u64;
            let held_out = g.is_multiple_of(HELD_OUT_EVERY);
            for pos in found {
                match index.get(&canonical_key(&pos)) {
                    Some(&i) => positions[i].1 |= held_out,
                    None if (positions.len() as u64) < plan.positions => {
                        index.insert(canonical_key(&pos), positions.len());
                        positions.push((pos, held_out));
                    }
                    None => {}
                }
            }
            if positions.len() as u64 >= plan.positions {
                games = g + 1;
                break;
            }
        }
        if (positions.len() as u64) < plan.positions {
            games += BATCH;
        }
        if !progress(positions.len() as u64) {
            break;
        }
    }
    Ok(Gathered { positions, games })
}

/// A new, unlabelled bank file for what was gathered.
pub fn new_bank(plan: &Plan, gathered: &Gathered) -> BankFile {
    BankFile {
        header: BankHeader {
            game: "connect4".to_string(),
            seed: plan.seed,
            wanted: plan.positions,
            min_stones: plan.min_stones,
            players: plan.players.iter().map(ToString::to_string).collect(),
            games: gathered.games,
            labelled: 0,
            gathered: gathered.positions.len() as u64,
            seconds: 0.0,
        },
        entries: Vec::new(),
    }
}

/// One labelled position and the seconds its labelling took.
pub struct LabelledEntry {
    /// The position and its scores.
    pub entry: Entry,
    /// Seconds spent labelling it.
    pub seconds: f64,
}

/// Labels `positions` with one solver per thread (a solver holds a
/// transposition table of about 100 MB: made once and kept from block to
/// block, it also reuses what it learnt about neighbouring positions). The
/// result is in the order given and does not depend on the thread count.
pub fn label(
    positions: &[(Connect4Position, bool)],
    solvers: &mut [Connect4Solver],
) -> Vec<LabelledEntry> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<LabelledEntry>>> =
        Mutex::new((0..positions.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for solver in solvers.iter_mut() {
            let (next, out) = (&next, &out);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(pos, held_out)) = positions.get(i) else {
                        break;
                    };
                    let started = Instant::now();
                    let scores = solver.scores(&pos);
                    let done = LabelledEntry {
                        entry: Entry {
                            pos,
                            scores,
                            held_out,
                        },
                        seconds: started.elapsed().as_secs_f64(),
                    };
                    out.lock().expect("no labeller panics")[i] = Some(done);
                }
            });
        }
    });
    out.into_inner()
        .expect("no labeller panics")
        .into_iter()
        .map(|l| l.expect("every position labelled"))
        .collect()
}

/// One solver per labelling thread.
pub fn solvers(threads: usize) -> Vec<Connect4Solver> {
    (0..threads.max(1)).map(|_| Connect4Solver::new()).collect()
}

/// Labelling speed by stones on the board.
#[derive(Clone, Debug, Default)]
pub struct Speed {
    /// (positions, seconds) per number of stones.
    pub by_stones: Vec<(u64, f64)>,
}

impl Speed {
    /// Counts a position of `stones` stones labelled in `seconds`.
    pub fn add(&mut self, stones: u8, seconds: f64) {
        let s = stones as usize;
        if self.by_stones.len() <= s {
            self.by_stones.resize(s + 1, (0, 0.0));
        }
        self.by_stones[s].0 += 1;
        self.by_stones[s].1 += seconds;
    }

    /// Lines of `stones  positions  positions/s per thread`, in groups.
    pub fn table(&self) -> String {
        let groups: [(u8, u8); 8] = [
            (0, 7),
            (8, 9),
            (10, 11),
            (12, 13),
            (14, 15),
            (16, 19),
            (20, 29),
            (30, 42),
        ];
        let mut out = String::from("stones   positions   per second per thread\n");
        for (lo, hi) in groups {
            let (n, s) = (lo..=hi)
                .filter_map(|k| self.by_stones.get(k as usize))
                .fold((0, 0.0), |(n, s), &(a, b)| (n + a, s + b));
            if n > 0 {
                out.push_str(&format!(
                    "{:>6}   {n:>9}   {:>10.1}\n",
                    format!("{lo}-{hi}"),
                    n as f64 / s.max(1e-9)
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(positions: u64) -> Plan {
        Plan {
            seed: 7,
            positions,
            min_stones: 20,
            players: PlayerSpec::parse_list("random,rules").unwrap(),
        }
    }

    #[test]
    fn gathering_is_deterministic_distinct_and_split_by_game() {
        let a = gather(&plan(400), |_| true).unwrap();
        let b = gather(&plan(400), |_| true).unwrap();
        assert_eq!(a.positions, b.positions);
        assert_eq!(a.positions.len(), 400);
        let keys: std::collections::HashSet<u64> =
            a.positions.iter().map(|(p, _)| canonical_key(p)).collect();
        assert_eq!(keys.len(), 400, "mirror images and repeats kept once");
        assert!(a.positions.iter().all(|(p, _)| p.moves >= 20));
        let held = a.positions.iter().filter(|(_, h)| *h).count();
        assert!(held > 0 && held < 200, "{held} held out");
    }

    #[test]
    fn labels_agree_with_the_solver_in_any_thread_count() {
        let gathered = gather(&plan(24), |_| true).unwrap();
        let one = label(&gathered.positions, &mut solvers(1));
        let two = label(&gathered.positions, &mut solvers(2));
        let mut solver = Connect4Solver::new();
        for ((a, b), (pos, _)) in one.iter().zip(&two).zip(&gathered.positions) {
            assert_eq!(a.entry, b.entry);
            assert_eq!(a.entry.scores, solver.scores(pos));
        }
    }
}
