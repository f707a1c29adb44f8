//! `round-robin`: every ordered pair of genomes plays once (the method);
//! 2 points a win, 1 a draw ([`crate::evolve::tournament::round_robin`]).

use super::{Evaluation, Round, RunTables, Term, TermType};
use crate::dispatch::Abilities;
use crate::evolve::EvolveConfig;
use crate::evolve::OperatorError;
use crate::evolve::tournament::round_robin;
use crate::players::Playable;
use crate::players::PlayerError;
use std::sync::Arc;

/// The method's term: written first, as `round-robin[+TERM…]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRobin;

impl TermType for RoundRobin {
    const SYNTAX: &'static str = "round-robin";
    const HELP: &'static str =
        "every ordered pair of genomes plays once (the method); 2 points a win, 1 a draw";

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        (word == "round-robin").then_some(Ok(RoundRobin))
    }

    /// 4 points per other genome: a win on each side.
    fn max_points(&self, cfg: &EvolveConfig, _: &Abilities) -> u64 {
        4 * (cfg.population as u64 - 1)
    }

    fn build<G: Playable>(
        &self,
        _: &G,
        _: &EvolveConfig,
        _: &Arc<RunTables<G>>,
        _: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
        Ok(Some(Box::new(RoundRobin)))
    }
}

impl std::fmt::Display for RoundRobin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::SYNTAX)
    }
}

impl<G: Playable> Term<G> for RoundRobin {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let n = round.pop.size();
        eval.add(round_robin(game, round.pop, round.rules));
        eval.games += (n * (n - 1)) as u64;
    }
}
