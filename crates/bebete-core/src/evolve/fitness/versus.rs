//! `SPEC:N`: N games against a fixed player (`random`, `rules`, `mc:N`,
//! `alphabeta:D`, `perfect` or a genome file), sides alternating, 2 points
//! a win, 1 a draw; with `--mutate used` these games also record which
//! genes each genome read.

use super::{Evaluation, Round, Term};
use crate::encoding::shell::GenomeRules;
use crate::encoding::{GeneUsage, TableGame};
use crate::eval::{MatchConfig, play_with};
use crate::evolve::{ConfigError, EvolveConfig, MutationScope, Population};
use crate::players::{
    GenomePlayer, Knowledge, Player, PlayerError, PlayerFactory, RecordingPlayer,
};
use crate::seed::derive_seed;
use rayon::prelude::*;

/// Seed stream of the games against fixed opponents (one per opponent
/// after it), apart from the benchmark's.
const FITNESS_STREAM: u64 = 0xf17e;

/// `--mutate used` learns which genes play reads from these games: it
/// needs at least one fixed opponent.
pub fn check(cfg: &EvolveConfig) -> Result<(), ConfigError> {
    if cfg.mutate == MutationScope::Used && cfg.fitness.opponents.is_empty() {
        return Err(ConfigError {
            flag: "mutate",
            value: "used".into(),
            allowed: "records the genes consulted in games against fixed opponents: give --fitness SPEC:N terms".into(),
        });
    }
    Ok(())
}

/// The term, when `cfg` names fixed opponents: their players resolved
/// (genome files loaded) once.
pub fn build<G: TableGame + Knowledge>(
    game: &G,
    cfg: &EvolveConfig,
) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
    if cfg.fitness.opponents.is_empty() {
        return Ok(None);
    }
    let opponents = cfg
        .fitness
        .opponents
        .iter()
        .map(|(spec, games)| Ok((spec.factory(game, cfg.illegal)?, *games)))
        .collect::<Result<_, PlayerError>>()?;
    Ok(Some(Box::new(Versus { opponents })))
}

/// 2 points a game, games played in pairs (one on each side).
pub fn max_points(cfg: &EvolveConfig) -> u64 {
    let games = cfg
        .fitness
        .opponents
        .iter()
        .map(|(_, games)| games.div_ceil(2) * 2);
    games.map(|g| 2 * g).sum()
}

struct Versus<G: TableGame + Knowledge> {
    opponents: Vec<(PlayerFactory<G>, u64)>,
}

impl<G: TableGame + Knowledge> Term<G> for Versus<G> {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let n = round.pop.size() as u64;
        for (k, (opponent, games)) in self.opponents.iter().enumerate() {
            let stream = derive_seed(round.seed, round.generation, FITNESS_STREAM + k as u64);
            let earned = versus(
                game,
                round.pop,
                opponent,
                *games,
                stream,
                round.rules,
                &eval.usage,
            );
            eval.add(earned);
            eval.games += games.div_ceil(2) * 2 * n;
        }
    }
}

/// Points of each genome from `games` games against `opponent` (2 a win, 1
/// a draw), marking the genes read in `usage` when given.
fn versus<G: TableGame + Knowledge>(
    game: &G,
    pop: &Population,
    opponent: &PlayerFactory<G>,
    games: u64,
    seed: u64,
    rules: GenomeRules,
    usage: &Option<GeneUsage>,
) -> Vec<u32> {
    let match_cfg = MatchConfig {
        games,
        seed,
        openings: G::DEFAULT_OPENINGS,
    };
    (0..pop.size())
        .into_par_iter()
        .map(|i| {
            let genome = || GenomePlayer::with_rules(pop.genome(i), rules);
            let me = || match usage {
                Some(usage) => {
                    Box::new(RecordingPlayer::new(genome(), usage)) as Box<dyn Player<G> + '_>
                }
                None => Box::new(genome()),
            };
            let t = play_with(game, &me, &|| opponent.make(game, 0), i as u64, match_cfg);
            (2 * t.wins + t.draws) as u32
        })
        .collect()
}
