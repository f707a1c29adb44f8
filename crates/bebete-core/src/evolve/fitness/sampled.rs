//! `sample:K`: each genome meets K opponents drawn from the population, one
//! game on each side, and only its own points count: a tournament large
//! populations can afford ([`crate::evolve::tournament::sampled`]).

use super::{Evaluation, Round, Term};
use crate::encoding::TableGame;
use crate::evolve::tournament::sampled;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Knowledge;

/// K must be below the population, and the round-robin already meets
/// everyone.
pub fn check(cfg: &EvolveConfig) -> Result<(), ConfigError> {
    let k = cfg.fitness.sampled;
    if k > 0 && (cfg.fitness.round_robin || k as usize >= cfg.population) {
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

/// The term, when `cfg` names it.
pub fn build<G: TableGame + Knowledge>(cfg: &EvolveConfig) -> Option<Box<dyn Term<G>>> {
    let k = cfg.fitness.sampled as usize;
    (k > 0 && !cfg.fitness.round_robin).then(|| Box::new(Sampled(k)) as Box<dyn Term<G>>)
}

/// 4 points per opponent met: a win on each side.
pub fn max_points(cfg: &EvolveConfig) -> u64 {
    4 * u64::from(cfg.fitness.sampled)
}

struct Sampled(usize);

impl<G: TableGame + Knowledge> Term<G> for Sampled {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let (n, k) = (round.pop.size(), self.0);
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
