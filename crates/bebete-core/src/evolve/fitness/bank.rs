//! `bank`, `bank-score` (Connect-Four): the share of the bank's training
//! positions where the genome's move keeps the solver's value, or each move
//! scored between the worst and the best move, ×1,000,000
//! ([`crate::evolve::tutor`]).

use super::{Evaluation, Round, RunTables, Term};
use crate::dispatch::Abilities;
use crate::encoding::TableGame;
use crate::evolve::tutor::Tutor;
use crate::evolve::{BankMetric, ConfigError, EvolveConfig};
use crate::players::Knowledge;
use rayon::prelude::*;
use std::sync::Arc;

/// What needs a solver-labelled bank, refused for a game that has none.
pub const NEEDS_BANK: &str = "needs a solver-labelled bank: connect4 only (tictactoe and matchsticks learn from the solved game: --fitness vs:exhaustive)";

/// The term needs a game with a bank.
pub fn check(cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
    if !abilities.banked && cfg.fitness.bank.is_some() {
        return Err(ConfigError {
            flag: "fitness",
            value: cfg.fitness.to_string(),
            allowed: NEEDS_BANK.into(),
        });
    }
    Ok(())
}

/// The term, when `cfg` names it, on the run's bank.
pub fn build<G: TableGame + Knowledge>(
    cfg: &EvolveConfig,
    tables: &Arc<RunTables<G>>,
) -> Option<Box<dyn Term<G>>> {
    let (metric, tutor) = cfg.fitness.bank.zip(tables.tutor.clone())?;
    Some(Box::new(Bank { metric, tutor }))
}

/// 1,000,000 × a share.
pub fn max_points(cfg: &EvolveConfig) -> u64 {
    if cfg.fitness.bank.is_some() {
        1_000_000
    } else {
        0
    }
}

struct Bank<G: TableGame + Knowledge> {
    metric: BankMetric,
    tutor: Arc<Tutor<G>>,
}

impl<G: TableGame + Knowledge> Term<G> for Bank<G> {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let earned = (0..round.pop.size())
            .into_par_iter()
            .map(|i| self.tutor.points(game, round.pop.genome(i), self.metric))
            .collect();
        eval.add(earned);
    }
}
