//! `round-robin`: every ordered pair of genomes plays once (the method);
//! 2 points a win, 1 a draw ([`crate::evolve::tournament::round_robin`]).

use super::{Evaluation, Round, Term};
use crate::encoding::TableGame;
use crate::evolve::EvolveConfig;
use crate::evolve::tournament::round_robin;
use crate::players::Knowledge;

/// The term, when `cfg` names it.
pub fn build<G: TableGame + Knowledge>(cfg: &EvolveConfig) -> Option<Box<dyn Term<G>>> {
    cfg.fitness
        .round_robin
        .then(|| Box::new(RoundRobin) as Box<dyn Term<G>>)
}

/// 4 points per other genome: a win on each side.
pub fn max_points(cfg: &EvolveConfig) -> u64 {
    if cfg.fitness.round_robin {
        4 * (cfg.population as u64 - 1)
    } else {
        0
    }
}

struct RoundRobin;

impl<G: TableGame + Knowledge> Term<G> for RoundRobin {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let n = round.pop.size();
        eval.add(round_robin(game, round.pop, round.rules));
        eval.games += (n * (n - 1)) as u64;
    }
}
