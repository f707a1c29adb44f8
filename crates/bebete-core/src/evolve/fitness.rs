//! Fitness: the points each genome of a generation earns, from the terms of
//! `--fitness`.
//!
//! The terms, each optional and summed per genome:
//! - `round-robin`: every ordered pair plays once (the method);
//! - `sample:K`: each genome meets K others drawn from the population, once
//!   on each side (a tournament affordable for large populations);
//! - `SPEC:N`: N games against a fixed player (2 points a win, 1 a draw);
//! - `hof:N`: N games against past champions ([`super::hall`]);
//! - `exhaustive`: the share of every position of a solved game where the
//!   genome's move keeps the game's value (×1,000,000);
//! - `bank`, `bank-score`: the same on the training positions of a
//!   solver-labelled bank (Connect-Four; [`super::learn`]);
//! - `solo` (one-player games): one game per genome, points for the pieces
//!   it removes ([`super::solo`]); with `exhaustive`, the share of
//!   positions whose move keeps the best achievable count.
//!
//! A new term is a field of [`Fitness`](super::Fitness), a field here built
//! in [`FitnessTerms::new`] and a few lines in [`FitnessTerms::evaluate`].
//! Every game is seeded from (run seed, generation, stream), and points are
//! summed in a fixed order, so fitness does not depend on thread count.

use super::learn::Tutor;
use super::tournament::{round_robin, sampled};
use super::{BankMetric, EvolveConfig, Hall, MutationScope, Population};
use crate::encoding::shell::GenomeRules;
use crate::encoding::{Explanation, GeneUsage, IllegalPolicy, TableGame};
use crate::eval::{MatchConfig, play_with};
use crate::players::{
    GenomePlayer, Knowledge, Player, PlayerError, PlayerFactory, RecordingPlayer,
};
use crate::seed::derive_seed;
use crate::solve::{SolvedOnce, SolvedTable, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// Seed stream of the games against fixed opponents (one per opponent
/// after it), apart from the benchmark's.
const FITNESS_STREAM: u64 = 0xf17e;

/// What one generation's evaluation produced.
pub struct Evaluation {
    /// Points per genome, in population order.
    pub points: Vec<u32>,
    /// Games played.
    pub games: u64,
    /// With `--mutate used`: the gene indices read in the games against
    /// fixed opponents.
    pub usage: Option<GeneUsage>,
}

/// The fitness terms of a run, with their players built once.
pub struct FitnessTerms<G: TableGame + Knowledge> {
    round_robin: bool,
    sampled: usize,
    opponents: Vec<(PlayerFactory<G>, u64)>,
    hall_games: u32,
    exhaustive: bool,
    record_usage: bool,
    solved: Arc<SolvedOnce<G::Position>>,
    /// The exhaustive term's score table, built on first use.
    scores: OnceLock<ExhaustiveScores>,
    /// The bank term and the run's bank.
    bank: Option<(BankMetric, Arc<Tutor<G>>)>,
    /// One-player games: the `solo` term.
    solo: bool,
}

impl<G: TableGame + Knowledge> FitnessTerms<G> {
    /// Resolves the players of `cfg`'s fitness for `game` (loading genome
    /// files); `solved` is the run's shared solved table, `tutor` its bank
    /// (which the `bank` term needs).
    pub fn new(
        game: &G,
        cfg: &EvolveConfig,
        solved: Arc<SolvedOnce<G::Position>>,
        tutor: Option<Arc<Tutor<G>>>,
    ) -> Result<Self, PlayerError> {
        let opponents = cfg
            .fitness
            .opponents
            .iter()
            .map(|(spec, games)| Ok((spec.factory(game, cfg.illegal)?, *games)))
            .collect::<Result<_, PlayerError>>()?;
        Ok(FitnessTerms {
            round_robin: cfg.fitness.round_robin,
            sampled: cfg.fitness.sampled as usize,
            opponents,
            hall_games: cfg.fitness.hall,
            exhaustive: cfg.fitness.exhaustive,
            record_usage: cfg.mutate == MutationScope::Used,
            solved,
            scores: OnceLock::new(),
            bank: cfg.fitness.bank.zip(tutor),
            solo: cfg.fitness.solo,
        })
    }

    /// Every genome's points in generation `generation` of a run seeded
    /// with `seed`.
    pub fn evaluate(
        &self,
        game: &G,
        pop: &Population,
        hall: &Hall,
        rules: GenomeRules,
        seed: u64,
        generation: u64,
    ) -> Evaluation {
        let policy = rules.policy;
        let n = pop.size();
        let mut eval = Evaluation {
            points: vec![0; n],
            games: 0,
            usage: self.record_usage.then(|| GeneUsage::new(pop.gene_count())),
        };
        if self.round_robin {
            add(&mut eval.points, round_robin(game, pop, rules));
            eval.games += (n * (n - 1)) as u64;
        } else if self.sampled > 0 {
            let k = self.sampled;
            add(
                &mut eval.points,
                sampled(game, pop, k, rules, seed, generation),
            );
            eval.games += (2 * n * k) as u64;
        }
        if self.solo {
            let earned = (0..n)
                .into_par_iter()
                .map(|i| super::solo::points(game, super::solo::play(game, pop.genome(i), rules)))
                .collect();
            add(&mut eval.points, earned);
            eval.games += n as u64;
        }
        if self.exhaustive {
            let scores = self.scores.get_or_init(|| {
                if G::PLAYERS == 1 {
                    super::solo::exhaustive_scores(game, policy)
                        .expect("the configuration checked the board is small enough")
                } else {
                    ExhaustiveScores::build(game, policy, self.solved.get(game))
                }
            });
            let earned = (0..n)
                .into_par_iter()
                .map(|i| scores.score(pop.genome(i)))
                .collect();
            add(&mut eval.points, earned);
        }
        if let Some((metric, tutor)) = &self.bank {
            let earned = (0..n)
                .into_par_iter()
                .map(|i| tutor.points(game, pop.genome(i), *metric))
                .collect();
            add(&mut eval.points, earned);
        }
        for (k, (opponent, games)) in self.opponents.iter().enumerate() {
            let stream = derive_seed(seed, generation, FITNESS_STREAM + k as u64);
            let earned = versus(game, pop, opponent, *games, stream, rules, &eval.usage);
            add(&mut eval.points, earned);
            eval.games += games.div_ceil(2) * 2 * n as u64;
        }
        if self.hall_games > 0 && !hall.is_empty() {
            let earned = hall.points(game, pop, self.hall_games, rules, seed, generation);
            add(&mut eval.points, earned);
            eval.games += u64::from(self.hall_games) * n as u64;
        }
        eval
    }
}

fn add(points: &mut [u32], earned: Vec<u32>) {
    points.iter_mut().zip(earned).for_each(|(p, e)| *p += e);
}

/// Points of each genome from `games` games against `opponent` (2 a win, 1
/// a draw), marking the genes read in `usage` when given.
fn versus<G: TableGame + Knowledge>(
    game: &G,
    pop: &Population,
    opponent: &PlayerFactory<G>,
    games: u64,
    seed: u64,
    rules: GenomeRules,
    usage: &Option<GeneUsage>,
) -> Vec<u32> {
    let match_cfg = MatchConfig {
        games,
        seed,
        openings: G::DEFAULT_OPENINGS,
    };
    (0..pop.size())
        .into_par_iter()
        .map(|i| {
            let genome = || GenomePlayer::with_rules(pop.genome(i), rules);
            let me = || match usage {
                Some(usage) => {
                    Box::new(RecordingPlayer::new(genome(), usage)) as Box<dyn Player<G> + '_>
                }
                None => Box::new(genome()),
            };
            let t = play_with(game, &me, &|| opponent.make(game, 0), i as u64, match_cfg);
            (2 * t.wins + t.draws) as u32
        })
        .collect()
}

/// Every unfinished position of a small game, solved, turned into a score
/// table: what the exhaustive fitness checks a genome against.
///
/// In these games a position's move depends on one gene only, so the score
/// is a sum over gene indices: `rows[i][g]` counts the positions reading
/// gene index i where the gene value g plays a move that keeps the game's
/// value. Scoring a genome is then one load per index (627 for the
/// symmetric tic-tac-toe encoder, 101 for 100 sticks under the `sticks`
/// encoder) instead of one decision per position.
pub struct ExhaustiveScores {
    rows: Vec<(usize, Box<[u32; 256]>)>,
    total: u64,
}

impl ExhaustiveScores {
    /// Tabulates every gene value of every index `game` reads in its
    /// `solved` positions (tic-tac-toe: 4,520), under the illegal-gene
    /// `policy`.
    pub fn build<G: TableGame>(
        game: &G,
        policy: IllegalPolicy,
        solved: &SolvedTable<G::Position>,
    ) -> Self {
        let mut moves = Vec::new();
        let unfinished = solved.positions().filter(|pos| game.outcome(pos).is_none());
        ExhaustiveScores::build_with(game, policy, unfinished, |pos| {
            let target = solved.get(pos).unwrap_or(Value::Draw);
            game.legal_moves(pos, &mut moves);
            moves
                .iter()
                .copied()
                .filter(|&m| solved.get(&game.play(pos, m)).map(Value::flip) == Some(target))
                .collect()
        })
    }

    /// Tabulates `positions` (unfinished), where `keep` names the moves
    /// that keep what the position is worth.
    pub fn build_with<'p, G: TableGame>(
        game: &G,
        policy: IllegalPolicy,
        positions: impl Iterator<Item = &'p G::Position>,
        mut keep: impl FnMut(&G::Position) -> Vec<G::Move>,
    ) -> Self {
        let mut scratch = vec![0u8; game.gene_count()];
        let mut rows: BTreeMap<usize, Box<[u32; 256]>> = BTreeMap::new();
        let mut total = 0u64;
        for pos in positions {
            total += 1;
            // Only games whose decision reads one gene can be tabulated.
            let reason = game.explain(&scratch, pos, policy);
            let mut read = reason.consulted();
            let (Some(index), None) = (read.next(), read.next()) else {
                continue;
            };
            let keep = keep(pos);
            let row = rows.entry(index).or_insert_with(|| Box::new([0; 256]));
            for gene in (0..=255u8).filter(|&g| game.gene_is_valid(g)) {
                scratch[index] = gene;
                if game
                    .decide(&scratch, pos, policy)
                    .is_some_and(|m| keep.contains(&m))
                {
                    row[gene as usize] += 1;
                }
            }
            scratch[index] = 0;
        }
        ExhaustiveScores {
            rows: rows.into_iter().collect(),
            total,
        }
    }

    /// 1,000,000 × the share of positions where the genome's move keeps the
    /// value (fine enough that one position of a 100-stick game counts).
    pub fn score(&self, genes: &[u8]) -> u32 {
        let good: u64 = self
            .rows
            .iter()
            .map(|(index, row)| row[genes[*index] as usize] as u64)
            .sum();
        (1_000_000 * good / self.total.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Matchsticks, MatchsticksEncoder, MatchsticksRules, TakeRule, TicTacToe};

    /// The smallest term of n's Zeckendorf representation: Fibonacci nim's
    /// winning take whenever it is allowed.
    fn zeckendorf_smallest(mut n: usize) -> usize {
        let mut fib = vec![1usize, 2];
        while fib[fib.len() - 1] <= n {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let mut smallest = n;
        for &f in fib.iter().rev() {
            if f <= n {
                n -= f;
                smallest = f;
            }
        }
        smallest
    }

    #[test]
    fn the_zeckendorf_genome_scores_full_marks_with_the_sticks_encoder() {
        let game = Matchsticks {
            rules: MatchsticksRules {
                sticks: 60,
                rule: TakeRule::Double,
            },
            encoder: MatchsticksEncoder::Sticks,
        };
        let genes: Vec<u8> = (0..=60)
            .map(|n| zeckendorf_smallest(n.max(1)) as u8)
            .collect();
        let scores =
            ExhaustiveScores::build(&game, IllegalPolicy::Repair, &SolvedTable::build(&game));
        assert_eq!(scores.score(&genes), 1_000_000);
        let mut wrong = genes.clone();
        wrong[50] = 7;
        assert!(scores.score(&wrong) < 1_000_000);
    }

    #[test]
    fn terms_add_up_and_name_their_games() {
        let game = TicTacToe::BASE3;
        let mut cfg = EvolveConfig::method(crate::games::GameSpec::TICTACTOE, 3);
        cfg.population = 6;
        cfg.elite = 2;
        let pop = Population::random(&game, 6, 4);
        let hall = Hall::default();
        let solved = Arc::new(SolvedOnce::default());
        let plain = FitnessTerms::new(&game, &cfg, solved.clone(), None).unwrap();
        let rr = plain.evaluate(&game, &pop, &hall, cfg.genome_rules(), 3, 0);
        assert_eq!(rr.points, round_robin(&game, &pop, cfg.illegal));
        assert_eq!(rr.games, 30);
        cfg.fitness = "round-robin+random:4".parse().unwrap();
        let both = FitnessTerms::new(&game, &cfg, solved, None).unwrap();
        let sum = both.evaluate(&game, &pop, &hall, cfg.genome_rules(), 3, 0);
        assert_eq!(sum.games, 30 + 4 * 6);
        assert!(sum.points.iter().zip(&rr.points).all(|(s, r)| s >= r));
        assert!(sum.points.iter().zip(&rr.points).any(|(s, r)| s > r));
    }
}
