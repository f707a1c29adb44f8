//! `bank`, `bank-score` (Connect-Four): the share of the bank's training
//! positions where the genome's move keeps the solver's value, or each move
//! scored between the worst and the best move, ×1,000,000
//! ([`crate::evolve::tutor`]).

use super::{Evaluation, Round, RunTables, Term, TermKind};
use crate::dispatch::Abilities;
use crate::evolve::OperatorError;
use crate::evolve::tutor::Tutor;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Playable;
use crate::players::PlayerError;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What needs a solver-labelled bank, refused for a game that has none,
/// naming the games that have one and those solved whole, from the
/// registry.
pub fn needs_bank() -> String {
    use crate::dispatch::games_with;
    format!(
        "needs a solver-labelled bank: {} only ({} learn from the solved game: --fitness vs:exhaustive)",
        games_with(|a| a.banked, "and"),
        games_with(|a| a.solvable, "and")
    )
}

/// How the `bank` fitness term scores a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BankMetric {
    /// `bank`: 1 where the move keeps the solver's value, else 0.
    Keep,
    /// `bank-score`: the move's score between the worst (0) and the best (1).
    Score,
}

impl std::fmt::Display for BankMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BankMetric::Keep => "bank",
            BankMetric::Score => "bank-score",
        })
    }
}

/// `bank` or `bank-score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bank(pub BankMetric);

impl TermKind for Bank {
    const SYNTAX: &'static str = "bank or bank-score";
    const HELP: &'static str = "(connect4) 1,000,000 × the share of the bank's training positions where the move keeps the solver's value (bank), or each move scored between the worst and the best move (bank-score)";

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        match word {
            "bank" => Some(Ok(Bank(BankMetric::Keep))),
            "bank-score" => Some(Ok(Bank(BankMetric::Score))),
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
        Ok(tables.tutor.clone().map(|tutor| {
            Box::new(Banked {
                metric: self.0,
                tutor,
            }) as Box<dyn Term<G>>
        }))
    }
}

impl std::fmt::Display for Bank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The term built, on the run's bank.
struct Banked<G: Playable> {
    metric: BankMetric,
    tutor: Arc<Tutor<G>>,
}

impl<G: Playable> Term<G> for Banked<G> {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        eval.add_each(round.pop, |genes| {
            self.tutor.points(game, genes, self.metric)
        });
    }
}
