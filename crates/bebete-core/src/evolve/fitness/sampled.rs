//! `sample:K`: each genome meets K opponents drawn from the population, one
//! game on each side, and only its own points count: a tournament large
//! populations can afford (`crate::evolve::tournament::sampled`).

use super::round_robin::RoundRobin;
use super::{Evaluation, Round, RunTables, Term, TermType, count_term};
use crate::dispatch::Abilities;
use crate::evolve::OperatorError;
use crate::evolve::tournament::sampled;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Playable;
use crate::players::PlayerError;
use std::sync::Arc;

/// `sample:K`: K opponents per genome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampled(pub u32);

impl TermType for Sampled {
    const SYNTAX: &'static str = "sample:K";
    const HELP: &'static str = "K opponents drawn from the population, one game on each side: a tournament affordable for large populations";

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        count_term(word, "sample", 10_000, "number of sampled opponents").map(|k| k.map(Sampled))
    }

    /// K must be below the population, and the round-robin already meets
    /// everyone.
    fn check(&self, cfg: &EvolveConfig, _: Abilities) -> Result<(), ConfigError> {
        if cfg.fitness.has::<RoundRobin>() || self.0 as usize >= cfg.population {
            return Err(ConfigError {
                flag: "fitness",
                value: cfg.fitness.to_string(),
                allowed: format!(
                    "sample:K needs K below the population ({}) and no round-robin (which already meets everyone)",
                    cfg.population
                ),
            });
        }
        Ok(())
    }

    /// 4 points per opponent met: a win on each side.
    fn max_points(&self, _: &EvolveConfig, _: &Abilities) -> u64 {
        4 * u64::from(self.0)
    }

    fn build<G: Playable>(
        &self,
        _: &G,
        _: &EvolveConfig,
        _: &Arc<RunTables<G>>,
        _: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
        Ok(Some(Box::new(*self)))
    }
}

impl std::fmt::Display for Sampled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sample:{}", self.0)
    }
}

impl<G: Playable> Term<G> for Sampled {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let (n, k) = (round.pop.size(), self.0 as usize);
        eval.add(sampled(
            game,
            round.pop,
            k,
            round.rules,
            round.seed,
            round.generation,
        ));
        eval.games += (2 * n * k) as u64;
    }
}
