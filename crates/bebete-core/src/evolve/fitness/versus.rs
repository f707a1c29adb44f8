//! `SPEC:N`: N games against a fixed player (`random`, `rules`, `mc:N`,
//! `alphabeta:D`, `perfect` or a genome file), sides alternating, 2 points
//! a win, 1 a draw.

use super::{Evaluation, Round, RunTables, Term, TermType};
use crate::dispatch::Abilities;
use crate::encoding::shell::PlayStyle;
use crate::eval::{MatchConfig, play_against};
use crate::evolve::OperatorError;
use crate::evolve::{EvolveConfig, Population};
use crate::players::Playable;
use crate::players::{GenomePlayer, Player, PlayerError, PlayerFactory, PlayerSpec};
use crate::seed::derive_seed;
use rayon::prelude::*;
use std::sync::Arc;

/// Seed stream of the games against fixed opponents (one per opponent
/// after it), apart from the benchmark's.
const FITNESS_STREAM: u64 = 0xf17e;

/// `SPEC:N`: N games against one fixed player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versus {
    /// The fixed opponent.
    pub player: PlayerSpec,
    /// Games against it, half on each side.
    pub games: u64,
}

impl TermType for Versus {
    const SYNTAX: &'static str = "SPEC:N";
    const HELP: &'static str = "N games against a fixed player (random, rules, mc:N, alphabeta:D, perfect, a genome file, …), sides alternating; 2 points a win, 1 a draw";
    const REPEATS: bool = true;

    /// Any word with a colon the other kinds did not claim: the player is
    /// what comes before the last colon (`mc:200:50`).
    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        let (spec, n) = word.rsplit_once(':')?;
        Some(match n.parse::<u64>() {
            Ok(games) if (1..=100_000).contains(&games) && !spec.is_empty() => {
                PlayerSpec::parse(spec)
                    .map(|player| Versus { player, games })
                    .map_err(|e| OperatorError(e.to_string()))
            }
            _ => Err(OperatorError(format!(
                "the game count '{n}' must be 1-100000 after a player"
            ))),
        })
    }

    /// 2 points a game, games played in pairs (one on each side).
    fn max_points(&self, _: &EvolveConfig, _: &Abilities) -> u64 {
        2 * (self.games.div_ceil(2) * 2)
    }

    /// Its player resolved (a genome file loaded) once.
    fn build<G: Playable>(
        &self,
        game: &G,
        cfg: &EvolveConfig,
        _: &Arc<RunTables<G>>,
        nth: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
        Ok(Some(Box::new(Built {
            opponent: self.player.factory(game, cfg.illegal)?,
            games: self.games,
            stream: FITNESS_STREAM + nth as u64,
        })))
    }
}

impl std::fmt::Display for Versus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.player, self.games)
    }
}

/// The term built: its player and seed stream.
struct Built<G: Playable> {
    opponent: PlayerFactory<G>,
    games: u64,
    stream: u64,
}

impl<G: Playable> Term<G> for Built<G> {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        let n = round.pop.size() as u64;
        let stream = derive_seed(round.seed, round.generation, self.stream);
        let earned = versus(
            game,
            round.pop,
            &self.opponent,
            self.games,
            stream,
            round.rules,
        );
        eval.add(earned);
        eval.games += self.games.div_ceil(2) * 2 * n;
    }
}

/// Points of each genome from `games` games against `opponent` (2 a win, 1
/// a draw).
fn versus<G: Playable>(
    game: &G,
    pop: &Population,
    opponent: &PlayerFactory<G>,
    games: u64,
    seed: u64,
    rules: PlayStyle,
) -> Vec<u32> {
    let match_cfg = MatchConfig {
        games,
        seed,
        openings: G::DEFAULT_OPENINGS,
        record: false,
    };
    (0..pop.size())
        .into_par_iter()
        .map(|i| {
            let me = || {
                Box::new(GenomePlayer::with_rules(pop.genome(i), rules)) as Box<dyn Player<G> + '_>
            };
            let t = play_against(game, &me, opponent, i as u64, match_cfg);
            (2 * t.wins + t.draws) as u32
        })
        .collect()
}
