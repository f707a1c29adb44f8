//! The parameters of a run, validated before any work starts.
//!
//! Configuration only: the operators' and fitness terms' own types and
//! grammars live in [`super::operators`].

use super::Fitness;
use super::operators::{Crossover, Init, Mutation, Selection, Target};
use crate::bank::BankSource;
use crate::dispatch::abilities;
use crate::encoding::IllegalPolicy;
use crate::encoding::shell::GenomeRules;
use crate::games::{GameId, GameSpec, MethodSettings};
use crate::players::{Playable, PlayerSpec};
use serde::{Deserialize, Serialize};

pub use recommended::{Recommended, RunSettings};

/// Everything that determines a run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    /// The game: a built-in one, or one from outside this crate
    /// ([`EvolveConfig::for_game`]).
    pub game: GameId,
    pub population: usize,
    pub elite: usize,
    pub parents: usize,
    /// Per-gene probability of being redrawn in a child.
    pub mutation: Mutation,
    /// Planned total number of generations.
    pub generations: u64,
    pub seed: u64,
    /// Write a checkpoint every K generations (and at the end).
    pub checkpoint_every: u64,
    /// Checkpoints kept on disk (the oldest beyond this are removed).
    pub keep: usize,
    pub illegal: IllegalPolicy,
    pub selection: Selection,
    pub fitness: Fitness,
    /// The genes of generation 0.
    #[serde(default)]
    pub init: Init,
    #[serde(default)]
    pub crossover: Crossover,
    /// How the champion is measured against fixed opponents.
    pub bench: BenchConfig,
    /// When the run may stop before its planned generations.
    pub stop: StopRule,
    /// How far every genome looks ahead, in plies, in fitness games,
    /// benchmarks and as the champion (0: it plays its table alone). One
    /// concept, read by each genome kind its own way: a vote table plays
    /// inside a tactical shell of that depth (`encoding::shell`), a value
    /// genome searches that deep by alpha-beta over its own values
    /// (`encoding::ntuple`).
    #[serde(default)]
    pub lookahead: u8,
    /// Learning from the bank (Connect-Four): its source (`--self-play` is
    /// the other learning, by the genomes themselves). Stored as `learn`,
    /// its name before.
    #[serde(default, rename = "learn")]
    pub tutor: Tutoring,
    /// The island model: how many populations, and how genomes migrate
    /// between them.
    #[serde(default)]
    pub islands: Islands,
    /// `--self-play N`: games of TD(λ) self-play each value genome learns
    /// from between generations (0: none; see [`crate::encoding::ntuple`]).
    #[serde(default)]
    pub self_play: u32,
    /// `--learn-against SPEC`: the fixed player each value genome plays
    /// its `--self-play` games against, learning from its own moves
    /// (`None`: against itself).
    #[serde(default)]
    pub learn_against: Option<PlayerSpec>,
    /// The defaults the run started from (`--preset`); `None` in a run
    /// started before presets were named.
    #[serde(default)]
    pub preset: Option<Preset>,
}

/// `--preset`: the defaults a run starts from, before any flag given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Each game's recommended run (docs/experiments.md says why).
    Recommended,
    /// The method as first described: round-robin fitness, elite
    /// selection, one mutation rate, each game's first encoder.
    Method,
}

impl Preset {
    /// Every preset, in the order `--preset` lists them.
    pub const ALL: [Preset; 2] = [Preset::Recommended, Preset::Method];

    /// The preset's name, as `--preset` and `run.toml` write it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Recommended => "recommended",
            Preset::Method => "method",
        }
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| format!("a preset is recommended or method, not '{}'", text.trim()))
    }
}

/// `--islands N`, `--migrate-every K`, `--migrants M`: N populations of
/// `population` genomes each, evolving side by side; every K generations
/// each sends its best M genomes to the next (a ring), where they replace
/// the last M children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Islands {
    pub count: usize,
    pub every: u64,
    pub migrants: usize,
}

impl Default for Islands {
    fn default() -> Self {
        Islands {
            count: 1,
            every: 10,
            migrants: 2,
        }
    }
}

/// The bank a run learns from and is measured on (see [`super::tutor`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tutoring {
    /// `--bank`: the built-in bank unless a file is named.
    pub bank: BankSource,
}

/// The benchmark: `--bench-every`, `--bench-against`, `--bench-games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchConfig {
    /// Measure the champion every K generations (0: never).
    pub every: u64,
    /// Fixed opponents of the benchmark.
    pub against: Vec<PlayerSpec>,
    /// Games per benchmark opponent.
    pub games: u64,
}

/// Early stopping: `--target`, `--patience`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StopRule {
    pub target: Option<Target>,
    /// Stop after this many generations without a better benchmark.
    pub patience: Option<u64>,
}

/// A parameter outside its allowed range; the message names the flag.
#[derive(Debug, thiserror::Error)]
#[error("--{flag} {value}: {allowed}")]
pub struct ConfigError {
    pub flag: &'static str,
    pub value: String,
    pub allowed: String,
}

impl EvolveConfig {
    /// The settings of `preset` for `game`.
    pub fn preset(preset: Preset, game: GameSpec, seed: u64) -> EvolveConfig {
        match preset {
            Preset::Recommended => EvolveConfig::recommended(game, seed),
            Preset::Method => EvolveConfig::method(game, seed),
        }
    }

    /// The recommended settings for `game`, the defaults of `evolve`: the
    /// method with what the game's [`RunSettings`] change (each game's
    /// reasons beside them, in `config/recommended.rs`).
    pub fn recommended(game: GameSpec, seed: u64) -> EvolveConfig {
        let mut cfg = EvolveConfig::method(game, seed);
        let RunSettings {
            population,
            elite,
            parents,
            mutation,
            fitness,
            init,
            self_play,
            learn_against,
            target,
            generations,
            checkpoint_every,
            bench_every,
            bench_against,
        } = crate::games::with_game!(game, g => g.recommended());
        cfg.population = population.unwrap_or(cfg.population);
        cfg.elite = elite.unwrap_or(cfg.elite);
        cfg.parents = parents.unwrap_or(cfg.parents);
        cfg.mutation = mutation.unwrap_or(cfg.mutation);
        cfg.fitness = fitness.unwrap_or(cfg.fitness);
        cfg.init = init.unwrap_or(cfg.init);
        cfg.self_play = self_play.unwrap_or(cfg.self_play);
        cfg.learn_against = learn_against.or(cfg.learn_against);
        cfg.stop.target = target.or(cfg.stop.target);
        cfg.generations = generations.unwrap_or(cfg.generations);
        cfg.checkpoint_every = checkpoint_every.unwrap_or(cfg.checkpoint_every);
        cfg.bench.every = bench_every.unwrap_or(cfg.bench.every);
        cfg.bench.against = bench_against.unwrap_or(cfg.bench.against);
        cfg.preset = Some(Preset::Recommended);
        cfg
    }

    /// The method as first described (round-robin fitness, elite
    /// selection, one mutation rate), with per-game rates and run lengths
    /// such that a plain run finishes in well under a minute on 2 cores.
    pub fn method(game: GameSpec, seed: u64) -> EvolveConfig {
        // The game's own settings (mutation, generations, checkpoint
        // every): a Connect-Four checkpoint of 100 genomes is 92 MB, so it
        // is written less often.
        let players = abilities(game).players;
        EvolveConfig::plain(game.into(), players, game.kind().method(), seed)
    }

    /// The method for `game`, a game from outside this crate as well as a
    /// built-in one, with `settings` in place of a registered game's own:
    /// what a program evolving its own game starts from.
    ///
    /// ```
    /// use bebete_core::evolve::{EvolveConfig, Fitness};
    /// use bebete_core::games::{MethodSettings, TicTacToe};
    ///
    /// let settings = MethodSettings {
    ///     mutation: 0.02,
    ///     generations: 50,
    ///     checkpoint_every: 10,
    ///     bench_every: 10,
    /// };
    /// let cfg = EvolveConfig::for_game(&TicTacToe::BASE3, settings, 7);
    /// assert_eq!((cfg.population, cfg.generations), (100, 50));
    /// assert_eq!(cfg.fitness, Fitness::round_robin());
    /// cfg.validate_for(&TicTacToe::BASE3).unwrap();
    /// ```
    pub fn for_game<G: Playable>(game: &G, settings: MethodSettings, seed: u64) -> EvolveConfig {
        EvolveConfig::plain(game.id(), G::PLAYERS, settings, seed)
    }

    fn plain(game: GameId, players: u8, settings: MethodSettings, seed: u64) -> EvolveConfig {
        let MethodSettings {
            mutation,
            generations,
            checkpoint_every,
            bench_every,
        } = settings;
        let one_player = players == 1;
        EvolveConfig {
            game,
            population: 100,
            elite: 10,
            parents: 2,
            mutation: Mutation::fixed(mutation),
            generations,
            seed,
            checkpoint_every,
            keep: 2,
            illegal: IllegalPolicy::Repair,
            selection: Selection::Elite,
            // A one-player game has no round-robin: the method plays each
            // genome's one game.
            fitness: if one_player {
                Fitness::solo()
            } else {
                Fitness::round_robin()
            },
            init: Init::Random,
            crossover: Crossover::Uniform,
            bench: BenchConfig {
                every: bench_every,
                against: if one_player {
                    Vec::new()
                } else {
                    vec![PlayerSpec::Random, PlayerSpec::Rules]
                },
                games: 100,
            },
            stop: StopRule::default(),
            lookahead: 0,
            tutor: Tutoring::default(),
            islands: Islands::default(),
            self_play: 0,
            learn_against: None,
            preset: Some(Preset::Method),
        }
    }

    /// How the run's genomes play: the illegal-gene policy and the shell.
    pub fn genome_rules(&self) -> GenomeRules {
        GenomeRules {
            policy: self.illegal,
            lookahead: self.lookahead,
        }
    }
}

mod checks;
mod recommended;
#[cfg(test)]
mod tests;
