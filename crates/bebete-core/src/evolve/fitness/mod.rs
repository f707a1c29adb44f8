//! Fitness: the points each genome of a generation earns, from the terms of
//! `--fitness`, one room per term.
//!
//! Each term is one file that owns everything about it: how it is checked
//! against the configuration and the game's abilities (`check`), the most
//! points it can give one genome in a generation (`max_points`), how it is
//! built for a run (`build`, resolving players, loading files) and how it
//! evaluates a generation ([`Term::evaluate`]):
//! - [`round_robin`]: every ordered pair plays once (the method);
//! - [`sampled`]: each genome meets K others drawn from the population, once
//!   on each side (a tournament affordable for large populations);
//! - [`versus`]: N games against a fixed player (2 points a win, 1 a draw);
//! - [`hall_of_fame`]: N games against past champions ([`super::hall`]);
//! - [`exhaustive`]: the share of every position of a solved game where the
//!   genome's move keeps the game's value (×1,000,000);
//! - [`bank`]: the same on the training positions of a solver-labelled bank
//!   (Connect-Four; [`super::tutor`]);
//! - [`solo`] (one-player games): one game per genome, points for the
//!   pieces it removes.
//!
//! A new term is a new file here and one line in each of [`check`],
//! [`max_points`] and [`FitnessTerms::new`]. What a run builds once and
//! its fitness and benchmark share (the solved game, the exhaustive table,
//! the bank) is [`RunTables`]. Every game is seeded from (run seed,
//! generation, stream), and points are summed in a fixed order, so fitness
//! does not depend on thread count.

pub mod bank;
pub mod exhaustive;
pub mod hall_of_fame;
pub mod round_robin;
pub mod sampled;
pub mod solo;
pub mod versus;

pub use exhaustive::ExhaustiveScores;

use super::tutor::Tutor;
use super::{ConfigError, EvolveConfig, Hall, MutationScope, Population};
use crate::dispatch::Abilities;
use crate::encoding::shell::GenomeRules;
use crate::encoding::{GeneUsage, IllegalPolicy, TableGame};
use crate::players::{Knowledge, PlayerError};
use crate::solve::SolvedOnce;
use crate::store::FileError;
use std::sync::{Arc, OnceLock};

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

impl Evaluation {
    /// Adds one term's points, genome by genome.
    fn add(&mut self, earned: Vec<u32>) {
        self.points
            .iter_mut()
            .zip(earned)
            .for_each(|(p, e)| *p += e);
    }
}

/// The generation a term evaluates.
pub struct Round<'a> {
    pub pop: &'a Population,
    pub hall: &'a Hall,
    pub rules: GenomeRules,
    /// The island's seed.
    pub seed: u64,
    pub generation: u64,
}

/// One fitness term of a run, built: adds each genome's points (and the
/// games it played) to `eval`.
pub trait Term<G: TableGame + Knowledge>: Send + Sync {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation);
}

/// What a run builds at most once and its fitness terms and benchmark
/// share: the solved game (the small games), the exhaustive score table
/// (built on first use) and the bank.
pub struct RunTables<G: TableGame + Knowledge> {
    pub solved: Arc<SolvedOnce<G::Position>>,
    exhaustive: OnceLock<Option<ExhaustiveScores>>,
    pub tutor: Option<Arc<Tutor<G>>>,
}

impl<G: TableGame + Knowledge> RunTables<G> {
    /// The run's tables; the bank is loaded now when `cfg` uses it.
    pub fn for_run(game: &G, cfg: &EvolveConfig) -> Result<Self, FileError> {
        Ok(RunTables {
            solved: Arc::new(SolvedOnce::default()),
            exhaustive: OnceLock::new(),
            tutor: Tutor::for_run(game, cfg)?.map(Arc::new),
        })
    }

    /// The exhaustive score table of `game` under `policy`, built on first
    /// use: from the solved game for two players, from the exact solver's
    /// best counts for one (`None` when that board is too large).
    pub fn exhaustive(&self, game: &G, policy: IllegalPolicy) -> Option<&ExhaustiveScores> {
        self.exhaustive
            .get_or_init(|| {
                if G::PLAYERS == 1 {
                    solo::exhaustive_scores(game, policy)
                } else {
                    Some(ExhaustiveScores::build(game, policy, self.solved.get(game)))
                }
            })
            .as_ref()
    }
}

/// The terms against the game's players: a one-player game has no
/// opponents (no round-robin, sample, hall or fixed players) and needs
/// `solo` and/or `exhaustive`; `solo` is for one-player games only.
pub fn check_players(cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
    let f = &cfg.fitness;
    let refuse = |allowed: &str| {
        Err(ConfigError {
            flag: "fitness",
            value: f.to_string(),
            allowed: allowed.to_string(),
        })
    };
    if abilities.players == 2 {
        if f.solo {
            return refuse(
                "solo is the fitness of one-player games (solitaire); two-player games play each other",
            );
        }
        return Ok(());
    }
    if f.round_robin || f.sampled > 0 || f.hall > 0 || !f.opponents.is_empty() {
        return refuse(
            "a one-player game has no opponents: use solo (one game per genome), vs:exhaustive, or vs:solo+exhaustive",
        );
    }
    if !f.solo && !f.exhaustive {
        return refuse("give solo and/or exhaustive");
    }
    Ok(())
}

/// Checks every fitness term of `cfg` against its range and the game's
/// abilities; the first problem names its flag. (Against the game's
/// players: [`check_players`], checked first with the rest of the
/// configuration's players.)
pub fn check(cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
    exhaustive::check(cfg, abilities)?;
    sampled::check(cfg)?;
    versus::check(cfg)?;
    bank::check(cfg, abilities)?;
    hall_of_fame::check(cfg)?;
    Ok(())
}

/// The most fitness points a genome can earn in one generation.
pub fn max_points(cfg: &EvolveConfig) -> u64 {
    round_robin::max_points(cfg)
        + sampled::max_points(cfg)
        + hall_of_fame::max_points(cfg)
        + versus::max_points(cfg)
        + exhaustive::max_points(cfg)
        + bank::max_points(cfg)
        + solo::max_points(cfg)
}

/// The fitness terms of a run, with their players built once.
pub struct FitnessTerms<G: TableGame + Knowledge> {
    terms: Vec<Box<dyn Term<G>>>,
    record_usage: bool,
}

impl<G: TableGame + Knowledge> FitnessTerms<G> {
    /// Builds the terms `cfg` names for `game` (loading genome files), on
    /// the run's shared `tables`.
    pub fn new(
        game: &G,
        cfg: &EvolveConfig,
        tables: &Arc<RunTables<G>>,
    ) -> Result<Self, PlayerError> {
        let terms = [
            round_robin::build(cfg),
            sampled::build(cfg),
            solo::build(cfg),
            exhaustive::build(cfg, tables),
            bank::build(cfg, tables),
            versus::build(game, cfg)?,
            hall_of_fame::build(cfg),
        ];
        Ok(FitnessTerms {
            terms: terms.into_iter().flatten().collect(),
            record_usage: cfg.mutate == MutationScope::Used,
        })
    }

    /// Every genome's points in generation `generation` of a run (or of
    /// its island) seeded with `seed`.
    pub fn evaluate(
        &self,
        game: &G,
        pop: &Population,
        hall: &Hall,
        rules: GenomeRules,
        seed: u64,
        generation: u64,
    ) -> Evaluation {
        let mut eval = Evaluation {
            points: vec![0; pop.size()],
            games: 0,
            usage: self.record_usage.then(|| GeneUsage::new(pop.gene_count())),
        };
        let round = Round {
            pop,
            hall,
            rules,
            seed,
            generation,
        };
        for term in &self.terms {
            term.evaluate(game, &round, &mut eval);
        }
        eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::tournament::round_robin;
    use crate::games::{GameSpec, TicTacToe};

    #[test]
    fn terms_add_up_and_name_their_games() {
        let game = TicTacToe::BASE3;
        let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 3);
        cfg.population = 6;
        cfg.elite = 2;
        let pop = Population::random(&game, 6, 4);
        let hall = Hall::default();
        let tables = Arc::new(RunTables::for_run(&game, &cfg).unwrap());
        let plain = FitnessTerms::new(&game, &cfg, &tables).unwrap();
        let rr = plain.evaluate(&game, &pop, &hall, cfg.genome_rules(), 3, 0);
        assert_eq!(rr.points, round_robin(&game, &pop, cfg.illegal));
        assert_eq!(rr.games, 30);
        cfg.fitness = "round-robin+random:4".parse().unwrap();
        let both = FitnessTerms::new(&game, &cfg, &tables).unwrap();
        let sum = both.evaluate(&game, &pop, &hall, cfg.genome_rules(), 3, 0);
        assert_eq!(sum.games, 30 + 4 * 6);
        assert!(sum.points.iter().zip(&rr.points).all(|(s, r)| s >= r));
        assert!(sum.points.iter().zip(&rr.points).any(|(s, r)| s > r));
    }

    #[test]
    fn the_most_points_add_up_over_the_terms() {
        let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 3);
        cfg.fitness = "round-robin+random:3+rules:4".parse().unwrap();
        // 4 per other genome, then 2 points a game, odd counts rounded up
        // to whole pairs.
        assert_eq!(max_points(&cfg), 4 * 99 + 2 * 4 + 2 * 4);
        cfg.fitness = "vs:exhaustive+hof:5".parse().unwrap();
        assert_eq!(max_points(&cfg), 1_000_000 + 2 * 5);
    }
}
