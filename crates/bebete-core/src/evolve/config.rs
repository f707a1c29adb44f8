//! The parameters of a run, validated before any work starts.
//!
//! Configuration only: the operators' and fitness terms' own types and
//! grammars live in [`super::operators`].

use super::Fitness;
use super::operators::{Crossover, Init, Mutation, Selection, Target};
use crate::bank::BankSource;
use crate::dispatch::abilities;
use crate::encoding::IllegalPolicy;
use crate::encoding::shell::PlayStyle;
use crate::games::{GameId, GameSpec};
use crate::players::{Playable, PlayerSpec};
use serde::{Deserialize, Serialize};

pub use recommended::{MethodSettings, Recommended};
pub use settable::SettingError;

/// Everything that determines a run's results: the one settings type.
/// `run.toml` is this written whole ([`super::run_toml_text`]), every
/// field a key in the command line's words; `--set KEY=VALUE` and the
/// Python package's keywords fill it by those keys ([`EvolveConfig::set`]),
/// and [`EvolveConfig::validate`] checks it. A new setting is a field here,
/// its check and its use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    /// The game: a built-in one, or one from outside this crate
    /// ([`EvolveConfig::for_game`]); written as its name and options.
    #[serde(flatten, with = "words::game")]
    pub game: GameId,
    #[serde(with = "words::seed")]
    /// The seed every random draw of the run derives from.
    pub seed: u64,
    /// The defaults the run started from (`--preset`).
    #[serde(with = "words::optional")]
    pub(crate) preset: Option<Preset>,
    /// Planned total number of generations.
    pub generations: u64,
    /// Genomes per generation (per island).
    pub population: usize,
    /// Genomes that survive unchanged.
    pub elite: usize,
    /// Parents per child.
    pub parents: usize,
    /// Per-gene probability of being redrawn in a child.
    #[serde(with = "words::text")]
    pub mutation: Mutation,
    #[serde(with = "words::text")]
    /// How parents are chosen.
    pub selection: Selection,
    #[serde(with = "words::text")]
    pub(crate) crossover: Crossover,
    /// The genes of generation 0.
    #[serde(with = "words::text")]
    pub init: Init,
    #[serde(with = "words::text")]
    /// What a gene naming an illegal move does.
    pub illegal: IllegalPolicy,
    /// Islands: populations of `population` genomes each, evolving side by
    /// side; every `migrate_every` generations each sends its best
    /// `migrants` genomes to the next (a ring), where they replace the
    /// last children.
    pub islands: usize,
    pub(crate) migrate_every: u64,
    /// Genomes each island sends per migration.
    pub migrants: usize,
    #[serde(with = "words::text")]
    /// How genomes are scored each generation.
    pub fitness: Fitness,
    /// How far every genome looks ahead, in plies, in fitness games,
    /// benchmarks and as the champion (0: it plays its table alone). One
    /// concept, read by each genome kind its own way: a vote table plays
    /// inside a tactical shell of that depth (`encoding::shell`), a value
    /// genome searches that deep by alpha-beta over its own values
    /// (`encoding::ntuple`).
    #[serde(default)]
    pub lookahead: u8,
    /// The solver-labelled bank (Connect-Four) the `bank` term and the
    /// `optimal_rate` column read (see [`super::tutor`]).
    #[serde(with = "words::text")]
    pub bank: BankSource,
    /// Games of TD(λ) self-play each value genome learns from between
    /// generations (0: none; see [`crate::encoding::ntuple`]).
    #[serde(default)]
    pub self_play: u32,
    /// The fixed player each value genome plays its `self_play` games
    /// against, learning from its own moves (`None`: against itself).
    #[serde(default, with = "words::opponent")]
    pub learn_against: Option<PlayerSpec>,
    /// Measure the champion every K generations (0: never).
    pub bench_every: u64,
    /// Fixed opponents of the benchmark.
    #[serde(with = "words::list")]
    pub bench_against: Vec<PlayerSpec>,
    /// Games per benchmark opponent.
    pub(crate) bench_games: u64,
    /// Stop once the champion reaches this.
    #[serde(default, with = "words::optional")]
    pub target: Option<Target>,
    /// Stop after this many generations without a better benchmark.
    #[serde(default, with = "words::optional")]
    pub(crate) patience: Option<u64>,
    /// Write a checkpoint every K generations (and at the end).
    pub checkpoint_every: u64,
    /// Checkpoints kept on disk (the oldest beyond this are removed).
    pub(crate) keep: usize,
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
    pub(crate) const ALL: [Preset; 2] = [Preset::Recommended, Preset::Method];

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

/// A parameter outside its allowed range; the message names the flag.
#[derive(Debug, thiserror::Error)]
#[error("--{flag} {value}: {allowed}")]
pub struct ConfigError {
    /// The setting, as its flag names it (`population`, `bench-against`).
    pub flag: &'static str,
    /// The value given.
    pub value: String,
    /// What is allowed, in words.
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
    /// method with what the game's [`Recommended`] changes (each game's
    /// reasons beside it, in `config/recommended.rs`).
    pub fn recommended(game: GameSpec, seed: u64) -> EvolveConfig {
        let method = EvolveConfig::method(game, seed);
        EvolveConfig {
            preset: Some(Preset::Recommended),
            ..crate::games::with_game!(game, g => g.recommend(method))
        }
    }

    /// The method as first described (round-robin fitness, elite
    /// selection, one mutation rate), with per-game rates and run lengths
    /// such that a plain run finishes in well under a minute on 2 cores.
    pub fn method(game: GameSpec, seed: u64) -> EvolveConfig {
        // The game's own settings (mutation, generations, checkpoint
        // every): a Connect-Four checkpoint of 100 genomes is 92 MB, so it
        // is written less often.
        let players = abilities(game).players;
        let settings = crate::games::with_game!(game, g => recommended::method_of(&g));
        EvolveConfig::plain(game.into(), players, settings, seed)
    }

    /// The method for `game`, a game from outside this crate as well as a
    /// built-in one, with `settings` in place of a registered game's own:
    /// what a program evolving its own game starts from.
    ///
    /// ```
    /// use bebete_core::evolve::{EvolveConfig, Fitness, MethodSettings};
    /// use bebete_core::games::TicTacToe;
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

    pub(crate) fn plain(
        game: GameId,
        players: u8,
        settings: MethodSettings,
        seed: u64,
    ) -> EvolveConfig {
        let MethodSettings {
            mutation,
            generations,
            checkpoint_every,
            bench_every,
        } = settings;
        let one_player = players == 1;
        EvolveConfig {
            game,
            seed,
            preset: Some(Preset::Method),
            generations,
            population: 100,
            elite: 10,
            parents: 2,
            mutation: Mutation::fixed(mutation),
            selection: Selection::Elite,
            crossover: Crossover::Uniform,
            init: Init::Random,
            illegal: IllegalPolicy::Repair,
            islands: 1,
            migrate_every: 10,
            migrants: 2,
            // A one-player game has no round-robin: the method plays each
            // genome's one game.
            fitness: if one_player {
                Fitness::solo()
            } else {
                Fitness::round_robin()
            },
            lookahead: 0,
            bank: BankSource::Builtin,
            self_play: 0,
            learn_against: None,
            bench_every,
            bench_against: if one_player {
                Vec::new()
            } else {
                vec![PlayerSpec::Random, PlayerSpec::Rules]
            },
            bench_games: 100,
            target: None,
            patience: None,
            checkpoint_every,
            keep: 2,
        }
    }

    /// How the run's genomes play: the illegal-gene policy and the shell.
    pub(crate) fn play_style(&self) -> PlayStyle {
        PlayStyle {
            policy: self.illegal,
            lookahead: self.lookahead,
        }
    }
}

mod checks;
mod recommended;
mod settable;
#[cfg(test)]
mod tests;
mod words;
