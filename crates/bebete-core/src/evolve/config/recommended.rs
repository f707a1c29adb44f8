//! `evolve`'s recommended settings: what each built-in game changes from
//! the method, as typed values (the reasons are measured in
//! docs/experiments.md). Evolution's knowledge of a game, beside the
//! players' (`players::knowledge`), so that the games' own files name
//! nothing of evolution.

use crate::evolve::fitness::bank::Bank;
use crate::evolve::fitness::exhaustive::Exhaustive;
use crate::evolve::fitness::versus::Versus;
use crate::evolve::fitness::{AnyTerm, Fitness};
use crate::evolve::{Init, Mutation, Target};
use crate::games::{
    Checkers, Connect4, GenomeGame, Matchsticks, Othello, Registered, Solitaire, TicTacToe,
};
use crate::players::PlayerSpec;

/// What `evolve`'s recommended settings change from the method for one
/// game; `None` keeps the method's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSettings {
    pub population: Option<usize>,
    pub elite: Option<usize>,
    pub parents: Option<usize>,
    /// `--mutation`: a rate or a range.
    pub mutation: Option<Mutation>,
    pub fitness: Option<Fitness>,
    pub init: Option<Init>,
    /// `--self-play`.
    pub self_play: Option<u32>,
    /// `--learn-against`.
    pub learn_against: Option<PlayerSpec>,
    /// `--target`.
    pub target: Option<Target>,
    pub generations: Option<u64>,
    pub checkpoint_every: Option<u64>,
    pub bench_every: Option<u64>,
    /// `--bench-against`: the field's own yardstick among them, where it
    /// has one.
    pub bench_against: Option<Vec<PlayerSpec>>,
}

/// A built-in game's recommended run, the defaults of `evolve` (every
/// registered game has one: the dispatch asks it of each).
pub trait Recommended: Registered {
    /// The settings for this game, its rules and its encoder.
    fn recommended(&self) -> RunSettings;
}

/// `SPEC:N`: N games against a fixed player.
fn versus(player: PlayerSpec, games: u64) -> AnyTerm {
    AnyTerm::Versus(Versus { player, games })
}

/// A value genome's two learners, one per core: the better by `fitness`
/// is kept, the other restarts from a mutated copy of it.
fn two_learners(self_play: u32, fitness: Fitness) -> RunSettings {
    RunSettings {
        population: Some(2),
        elite: Some(1),
        parents: Some(1),
        mutation: Some(Mutation::fixed(0.01)),
        self_play: Some(self_play),
        fitness: Some(fitness),
        ..RunSettings::default()
    }
}

/// A vote table from zero weights (`--init zero`), selected by games
/// against fixed players.
fn votes_from_zero(against: impl IntoIterator<Item = (PlayerSpec, u64)>) -> RunSettings {
    RunSettings {
        fitness: Some(Fitness::of_terms(
            against
                .into_iter()
                .map(|(player, games)| versus(player, games)),
        )),
        init: Some(Init::Zero),
        ..RunSettings::default()
    }
}

/// The exact audit as the fitness, stopping once the champion is
/// unbeatable (the games solved whole).
fn exact() -> RunSettings {
    RunSettings {
        fitness: Some(Fitness::of_terms([AnyTerm::Exhaustive(Exhaustive)])),
        target: Some(Target::Unbeatable),
        ..RunSettings::default()
    }
}

/// The exact audit; a value genome learns by self-play in a population
/// of 8.
impl Recommended for GenomeGame<TicTacToe> {
    fn recommended(&self) -> RunSettings {
        if self.value_genome().is_some() {
            return RunSettings {
                population: Some(8),
                elite: Some(2),
                mutation: Some(Mutation::fixed(0.05)),
                self_play: Some(300),
                generations: Some(500),
                checkpoint_every: Some(50),
                ..exact()
            };
        }
        RunSettings {
            mutation: Some(Mutation::range(0.0005, 0.02)),
            generations: Some(5000),
            checkpoint_every: Some(100),
            ..exact()
        }
    }
}

/// The exact audit, with a wider range of rates than tic-tac-toe's.
impl Recommended for GenomeGame<Matchsticks> {
    fn recommended(&self) -> RunSettings {
        RunSettings {
            mutation: Some(Mutation::range(0.002, 0.2)),
            generations: Some(5000),
            checkpoint_every: Some(100),
            ..exact()
        }
    }
}

/// A value genome: two learners selected on the solver-labelled bank. A
/// vote genome: games against fixed opponents from zero weights, 3,000
/// generations.
impl Recommended for GenomeGame<Connect4> {
    fn recommended(&self) -> RunSettings {
        if self.value_genome().is_some() {
            return RunSettings {
                generations: Some(60),
                checkpoint_every: Some(5),
                bench_every: Some(5),
                ..two_learners(25_000, Fitness::of_terms([AnyTerm::Bank(Bank)]))
            };
        }
        RunSettings {
            generations: Some(3000),
            checkpoint_every: Some(500),
            bench_every: Some(100),
            ..votes_from_zero([
                (PlayerSpec::Random, 10),
                (PlayerSpec::Rules, 20),
                (PlayerSpec::AlphaBeta(2), 6),
            ])
        }
    }
}

/// Stop at a perfect game (one peg left).
impl Recommended for GenomeGame<Solitaire> {
    fn recommended(&self) -> RunSettings {
        RunSettings {
            mutation: Some(Mutation::range(0.0005, 0.05)),
            target: Some(Target::Pegs(1)),
            generations: Some(2000),
            ..RunSettings::default()
        }
    }
}

/// Games against fixed opponents, as for Connect-Four's vote genome; a
/// value genome: two learners by self-play, the better against
/// `alphabeta:2` kept.
impl Recommended for GenomeGame<Checkers> {
    fn recommended(&self) -> RunSettings {
        if self.value_genome().is_some() {
            return RunSettings {
                generations: Some(200),
                checkpoint_every: Some(10),
                bench_every: Some(10),
                ..two_learners(
                    5_000,
                    Fitness::of_terms([versus(PlayerSpec::AlphaBeta(2), 20)]),
                )
            };
        }
        RunSettings {
            generations: Some(300),
            checkpoint_every: Some(50),
            bench_every: Some(25),
            ..votes_from_zero([(PlayerSpec::Random, 10), (PlayerSpec::Rules, 20)])
        }
    }
}

/// Coevolutionary TD learning, as the papers learn: a small population,
/// each genome learning by TD self-play between generations, selected by
/// a round-robin among themselves; no fixed player in the learning or the
/// selection. (`--learn-against wpc@0.1 --fitness vs:wpc@0.1:100` breeds
/// a specialist against the papers' yardstick instead.) The benchmark
/// includes that yardstick, `wpc@0.1`, the figure the papers report.
impl Recommended for GenomeGame<Othello> {
    fn recommended(&self) -> RunSettings {
        RunSettings {
            population: Some(4),
            elite: Some(2),
            parents: Some(2),
            mutation: Some(Mutation::fixed(0.01)),
            self_play: Some(2_000),
            fitness: Some(Fitness::round_robin()),
            generations: Some(100),
            checkpoint_every: Some(25),
            bench_every: Some(25),
            bench_against: Some(vec![
                PlayerSpec::Random,
                PlayerSpec::Rules,
                PlayerSpec::Noisy(Box::new(PlayerSpec::Wpc), 100),
            ]),
            ..RunSettings::default()
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
            if let Some(target) = &cfg.stop.target {
                let text = target.to_string();
                assert_eq!(
                    text.parse::<Target>().ok().as_ref(),
                    Some(target),
                    "{spec}: {text}"
                );
            }
            for player in cfg.bench.against.iter().chain(&cfg.learn_against) {
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
