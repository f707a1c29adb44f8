//! `hof:N`: N games per genome against past champions drawn from the hall
//! of fame ([`crate::evolve::hall`]), 2 points a win, 1 a draw.

use super::{Evaluation, Round, RunTables, Term, TermType, count_term};
use crate::dispatch::Abilities;
use crate::evolve::OperatorError;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Playable;
use crate::players::PlayerError;
use std::sync::Arc;

/// `hof:N`: N games per genome against the hall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HallOfFame(pub u32);

impl TermType for HallOfFame {
    const SYNTAX: &'static str = "hof:N";
    const HELP: &'static str = "N games against past champions: every 10th generation's enters a hall of fame of the latest 50";

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        count_term(word, "hof", 100_000, "games against the hall of fame")
            .map(|n| n.map(HallOfFame))
    }

    /// A hall belongs to one population: not with islands (yet).
    fn check(&self, cfg: &EvolveConfig, _: Abilities) -> Result<(), ConfigError> {
        if cfg.islands > 1 {
            return Err(ConfigError {
                flag: "islands",
                value: cfg.islands.to_string(),
                allowed: "does not combine with a hall of fame (hof:N) yet: use one or the other"
                    .into(),
            });
        }
        Ok(())
    }

    /// 2 points a game.
    fn max_points(&self, _: &EvolveConfig, _: &Abilities) -> u64 {
        2 * u64::from(self.0)
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

impl std::fmt::Display for HallOfFame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "hof:{}", self.0)
    }
}

impl<G: Playable> Term<G> for HallOfFame {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        if round.hall.is_empty() {
            return;
        }
        let earned = round.hall.points(
            game,
            round.pop,
            self.0,
            round.rules,
            round.seed,
            round.generation,
        );
        eval.add(earned);
        eval.games += u64::from(self.0) * round.pop.size() as u64;
    }
}
