//! `evolve`'s recommended settings: what each built-in game changes from
//! the method, as typed values (the reasons are measured in
//! docs/experiments.md). Evolution's knowledge of a game, beside the
//! players' (`players::knowledge`), so that the games' own files name
//! nothing of evolution.

use crate::evolve::fitness::bank::Bank;
use crate::evolve::fitness::exhaustive::Exhaustive;
use crate::evolve::fitness::versus::Versus;
use crate::evolve::fitness::{AnyTerm, Fitness};
use crate::evolve::{EvolveConfig, Init, Mutation, Target};
use crate::games::{
    Checkers, Connect4, GenomeGame, Matchsticks, Othello, Registered, Solitaire, TicTacToe,
};
use crate::players::PlayerSpec;

/// The plain method's settings of a built-in game.
pub(crate) fn method_of<R: Recommended>(_: &R) -> MethodSettings {
    R::METHOD
}

/// A built-in game's recommended run, the defaults of `evolve` (every
/// registered game has one: the dispatch asks it of each).
pub trait Recommended: Registered {
    /// The plain method's settings for this game.
    const METHOD: MethodSettings;
    /// The method's settings `cfg` as this game, its rules and its
    /// encoder recommend them.
    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig;
}

/// Settings a game gives a plain run (`--preset method`, and the base of
/// the recommended settings): a Connect-Four checkpoint of 100 genomes is
/// 92 MB, so it is written less often, and so on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MethodSettings {
    /// The one mutation rate.
    pub mutation: f64,
    /// Generations of a plain run.
    pub generations: u64,
    /// Checkpoint every K generations.
    pub checkpoint_every: u64,
    /// Benchmark every K generations.
    pub bench_every: u64,
}

/// `SPEC:N`: N games against a fixed player.
fn versus(player: PlayerSpec, games: u64) -> AnyTerm {
    AnyTerm::Versus(Versus { player, games })
}

/// A value genome's two learners, one per core: the better by `fitness`
/// is kept, the other restarts from a mutated copy of it.
fn two_learners(self_play: u32, fitness: Fitness, cfg: EvolveConfig) -> EvolveConfig {
    EvolveConfig {
        population: 2,
        elite: 1,
        parents: 1,
        mutation: Mutation::fixed(0.01),
        self_play,
        fitness,
        ..cfg
    }
}

/// A vote table from zero weights (`init = zero`), selected by games
/// against fixed players.
fn votes_from_zero(
    against: impl IntoIterator<Item = (PlayerSpec, u64)>,
    cfg: EvolveConfig,
) -> EvolveConfig {
    EvolveConfig {
        fitness: Fitness::of_terms(
            against
                .into_iter()
                .map(|(player, games)| versus(player, games)),
        ),
        init: Init::Zero,
        ..cfg
    }
}

/// The exact audit as the fitness, stopping once the champion is
/// unbeatable (the games solved whole).
fn exact(cfg: EvolveConfig) -> EvolveConfig {
    EvolveConfig {
        fitness: Fitness::of_terms([AnyTerm::Exhaustive(Exhaustive)]),
        target: Some(Target::Unbeatable),
        ..cfg
    }
}

/// The exact audit; a value genome learns by self-play in a population
/// of 8.
impl Recommended for GenomeGame<TicTacToe> {
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.001,
        generations: 1000,
        checkpoint_every: 50,
        bench_every: 10,
    };

    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig {
        if self.value_genome().is_some() {
            return EvolveConfig {
                population: 8,
                elite: 2,
                mutation: Mutation::fixed(0.05),
                self_play: 300,
                generations: 500,
                checkpoint_every: 50,
                ..exact(cfg)
            };
        }
        EvolveConfig {
            mutation: Mutation::range(0.0005, 0.02),
            generations: 5000,
            checkpoint_every: 100,
            ..exact(cfg)
        }
    }
}

/// The exact audit, with a wider range of rates than tic-tac-toe's.
impl Recommended for GenomeGame<Matchsticks> {
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.05,
        generations: 200,
        checkpoint_every: 50,
        bench_every: 10,
    };

    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig {
        EvolveConfig {
            mutation: Mutation::range(0.002, 0.2),
            generations: 5000,
            checkpoint_every: 100,
            ..exact(cfg)
        }
    }
}

/// A value genome: two learners selected on the solver-labelled bank. A
/// vote genome: games against fixed opponents from zero weights, 3,000
/// generations.
impl Recommended for GenomeGame<Connect4> {
    /// A checkpoint of 100 sub-grid genomes is 92 MB: written less often.
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.002,
        generations: 300,
        checkpoint_every: 50,
        bench_every: 25,
    };

    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig {
        if self.value_genome().is_some() {
            return EvolveConfig {
                generations: 60,
                checkpoint_every: 5,
                bench_every: 5,
                ..two_learners(25_000, Fitness::of_terms([AnyTerm::Bank(Bank)]), cfg)
            };
        }
        EvolveConfig {
            generations: 3000,
            checkpoint_every: 500,
            bench_every: 100,
            ..votes_from_zero(
                [
                    (PlayerSpec::Random, 10),
                    (PlayerSpec::Rules, 20),
                    (PlayerSpec::AlphaBeta(2), 6),
                ],
                cfg,
            )
        }
    }
}

/// Stop at a perfect game (one peg left).
impl Recommended for GenomeGame<Solitaire> {
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.001,
        generations: 500,
        checkpoint_every: 50,
        bench_every: 10,
    };

    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig {
        EvolveConfig {
            mutation: Mutation::range(0.0005, 0.05),
            target: Some(Target::Pegs(1)),
            generations: 2000,
            ..cfg
        }
    }
}

/// Games against fixed opponents, as for Connect-Four's vote genome; a
/// value genome: two learners by self-play, the better against
/// `alphabeta:2` kept.
impl Recommended for GenomeGame<Checkers> {
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.002,
        generations: 200,
        checkpoint_every: 50,
        bench_every: 20,
    };

    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig {
        if self.value_genome().is_some() {
            return EvolveConfig {
                generations: 200,
                checkpoint_every: 10,
                bench_every: 10,
                ..two_learners(
                    5_000,
                    Fitness::of_terms([versus(PlayerSpec::AlphaBeta(2), 20)]),
                    cfg,
                )
            };
        }
        EvolveConfig {
            generations: 300,
            checkpoint_every: 50,
            bench_every: 25,
            ..votes_from_zero([(PlayerSpec::Random, 10), (PlayerSpec::Rules, 20)], cfg)
        }
    }
}

/// Coevolutionary TD learning, as the papers learn: a small population,
/// each genome learning by TD self-play between generations, selected by
/// a round-robin among themselves; no fixed player in the learning or the
/// selection. (`learn_against = wpc@0.1`, `fitness = vs:wpc@0.1:100`
/// breed a specialist against the papers' yardstick instead.) The
/// benchmark includes that yardstick, `wpc@0.1`, the figure the papers
/// report.
impl Recommended for GenomeGame<Othello> {
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.01,
        generations: 100,
        checkpoint_every: 10,
        bench_every: 10,
    };

    fn recommend(&self, cfg: EvolveConfig) -> EvolveConfig {
        EvolveConfig {
            population: 4,
            elite: 2,
            parents: 2,
            mutation: Mutation::fixed(0.01),
            self_play: 2_000,
            fitness: Fitness::round_robin(),
            generations: 100,
            checkpoint_every: 25,
            bench_every: 25,
            bench_against: vec![
                PlayerSpec::Random,
                PlayerSpec::Rules,
                PlayerSpec::Noisy(Box::new(PlayerSpec::Wpc), 100),
            ],
            ..cfg
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::evolve::{EvolveConfig, Fitness, Mutation, Target};
    use crate::games::GameSpec;
    use crate::players::PlayerSpec;

    /// Every game's recommended run passes the checks a run from the
    /// command line passes, and each typed value is one the command line
    /// reads back from its text (so the flags' own ranges hold it too).
    #[test]
    fn every_recommended_run_is_one_the_command_line_reads() {
        for spec in GameSpec::registered() {
            let cfg = EvolveConfig::recommended(spec, 1);
            if let Err(e) = cfg.validate() {
                panic!("{spec}: {e}");
            }
            let text = cfg.fitness.to_string();
            assert_eq!(
                text.parse::<Fitness>().ok(),
                Some(cfg.fitness.clone()),
                "{spec}: {text}"
            );
            let text = cfg.mutation.to_string();
            assert_eq!(
                text.parse::<Mutation>().ok(),
                Some(cfg.mutation),
                "{spec}: {text}"
            );
            if let Some(target) = &cfg.target {
                let text = target.to_string();
                assert_eq!(
                    text.parse::<Target>().ok().as_ref(),
                    Some(target),
                    "{spec}: {text}"
                );
            }
            for player in cfg.bench_against.iter().chain(&cfg.learn_against) {
                let text = player.to_string();
                assert_eq!(
                    PlayerSpec::parse(&text).ok().as_ref(),
                    Some(player),
                    "{spec}: {text}"
                );
            }
        }
    }
}
