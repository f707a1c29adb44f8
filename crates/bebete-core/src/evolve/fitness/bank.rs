//! `bank` (Connect-Four): the share of the bank's training positions where
//! the genome's move keeps the solver's value, ×1,000,000
//! ([`crate::evolve::tutor`]).

use super::{Evaluation, Round, RunTables, Term, TermType};
use crate::dispatch::Abilities;
use crate::evolve::OperatorError;
use crate::evolve::tutor::Tutor;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Playable;
use crate::players::PlayerError;
use std::sync::Arc;

/// What needs a solver-labelled bank, refused for a game that has none,
/// naming the games that have one and those solved whole, from the
/// registry.
pub(crate) fn needs_bank() -> String {
    use crate::dispatch::games_with;
    format!(
        "needs a solver-labelled bank: {} only ({} learn from the solved game: --fitness vs:exhaustive)",
        games_with(|a| a.banked, "and"),
        games_with(|a| a.solvable, "and")
    )
}

/// `bank`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bank;

impl TermType for Bank {
    const SYNTAX: &'static str = "bank";
    const HELP: &'static str = "(connect4) 1,000,000 × the share of the bank's training positions where the move keeps the solver's value";

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        match word {
            "bank" => Some(Ok(Bank)),
            _ => None,
        }
    }

    /// The term needs a game with a bank.
    fn check(&self, cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
        if !abilities.banked {
            return Err(ConfigError {
                flag: "fitness",
                value: cfg.fitness.to_string(),
                allowed: needs_bank(),
            });
        }
        Ok(())
    }

    /// 1,000,000 × a share.
    fn max_points(&self, _: &EvolveConfig, _: &Abilities) -> u64 {
        1_000_000
    }

    /// On the run's bank.
    fn build<G: Playable>(
        &self,
        _: &G,
        _: &EvolveConfig,
        tables: &Arc<RunTables<G>>,
        _: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
        Ok(tables
            .tutor
            .clone()
            .map(|tutor| Box::new(Banked { tutor }) as Box<dyn Term<G>>))
    }
}

impl std::fmt::Display for Bank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("bank")
    }
}

/// The term built, on the run's bank.
struct Banked<G: Playable> {
    tutor: Arc<Tutor<G>>,
}

impl<G: Playable> Term<G> for Banked<G> {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        eval.add_each(round.pop, |genes| self.tutor.points(game, genes));
    }
}
