//! `hof:N`: N games per genome against past champions drawn from the hall
//! of fame ([`crate::evolve::hall`]), 2 points a win, 1 a draw.

use super::{Evaluation, Round, Term};
use crate::encoding::TableGame;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Knowledge;

/// A hall belongs to one population: not with islands (yet).
pub fn check(cfg: &EvolveConfig) -> Result<(), ConfigError> {
    if cfg.islands.count > 1 && cfg.fitness.hall > 0 {
        return Err(ConfigError {
            flag: "islands",
            value: cfg.islands.count.to_string(),
            allowed: "does not combine with a hall of fame (hof:N) yet: use one or the other"
                .into(),
        });
    }
    Ok(())
}

/// The term, when `cfg` names it.
pub fn build<G: TableGame + Knowledge>(cfg: &EvolveConfig) -> Option<Box<dyn Term<G>>> {
    let games = cfg.fitness.hall;
    (games > 0).then(|| Box::new(HallOfFame(games)) as Box<dyn Term<G>>)
}

/// 2 points a game.
pub fn max_points(cfg: &EvolveConfig) -> u64 {
    2 * u64::from(cfg.fitness.hall)
}

struct HallOfFame(u32);

impl<G: TableGame + Knowledge> Term<G> for HallOfFame {
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
