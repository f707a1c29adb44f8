//! The parameters of a run, validated before any work starts.
//!
//! Configuration only: the operators' and fitness terms' own types and
//! grammars live in [`super::operators`].

use super::Fitness;
use super::operators::{Crossover, Init, Mutation, MutationScope, Selection, Target};
use crate::bank::BankSource;
use crate::dispatch::{Abilities, abilities};
use crate::encoding::IllegalPolicy;
use crate::encoding::shell::{GenomeRules, MAX_LOOKAHEAD, max_lookahead};
use crate::games::{GameSpec, MethodSettings};
use crate::players::PlayerSpec;
use serde::{Deserialize, Serialize};

/// Everything that determines a run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    pub game: GameSpec,
    pub population: usize,
    pub elite: usize,
    pub parents: usize,
    /// Per-gene probability of being redrawn in a child.
    pub mutation: Mutation,
    /// Which genes mutation may redraw.
    #[serde(default)]
    pub mutate: MutationScope,
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
    /// Learning from the bank (Connect-Four): its source and the guided
    /// operators (`--self-play` is the other learning, by the genomes
    /// themselves). Stored as `learn`, its name before.
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

/// The bank a run learns from and is measured on, and the operators that
/// use it (see [`super::tutor`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tutoring {
    /// `--bank`: the built-in bank unless a file is named.
    pub bank: BankSource,
    /// `--guided N`: training positions fixed per child (0: off).
    pub guided: u32,
    /// `--local-search K`: children per generation given a pass of direct
    /// fitting (0: off).
    pub local_search: u32,
}

impl Tutoring {
    /// Whether anything reads the training positions (the fitness term
    /// aside).
    pub fn operators(&self) -> bool {
        self.guided > 0 || self.local_search > 0
    }
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

/// A parameter refused: its flag, the value given and what is allowed.
fn refuse(flag: &'static str, value: String, allowed: String) -> Result<(), ConfigError> {
    Err(ConfigError {
        flag,
        value,
        allowed,
    })
}

impl EvolveConfig {
    /// The recommended settings for `game`, the defaults of `evolve`: the
    /// method with what the game's [`RunSettings`](crate::games::RunSettings)
    /// change (each game says why in its own file).
    pub fn recommended(game: GameSpec, seed: u64) -> EvolveConfig {
        let mut cfg = EvolveConfig::method(game, seed);
        let settings = game.recommended();
        if let Some(n) = settings.population {
            cfg.population = n;
        }
        if let Some(n) = settings.elite {
            cfg.elite = n;
        }
        if let Some(n) = settings.parents {
            cfg.parents = n;
        }
        if let Some(text) = settings.mutation {
            cfg.mutation = text.parse().expect("a game's recommended mutation");
        }
        if let Some(text) = settings.fitness {
            cfg.fitness = text.parse().expect("a game's recommended fitness");
        }
        if settings.zero_init {
            cfg.init = Init::Zero;
        }
        if let Some(n) = settings.self_play {
            cfg.self_play = n;
        }
        if let Some(text) = settings.learn_against {
            cfg.learn_against = Some(
                PlayerSpec::parse(text).expect("a game's recommended opponent to learn against"),
            );
        }
        if let Some(text) = settings.target {
            cfg.stop.target = Some(text.parse().expect("a game's recommended target"));
        }
        if let Some(n) = settings.generations {
            cfg.generations = n;
        }
        if let Some(n) = settings.checkpoint_every {
            cfg.checkpoint_every = n;
        }
        if let Some(n) = settings.bench_every {
            cfg.bench.every = n;
        }
        if let Some(list) = settings.bench_against {
            cfg.bench.against = list
                .split(',')
                .map(|text| PlayerSpec::parse(text).expect("a game's recommended benchmark"))
                .collect();
        }
        cfg
    }

    /// The method as first described (round-robin fitness, elite
    /// selection, one mutation rate), with per-game rates and run lengths
    /// such that a plain run finishes in well under a minute on 2 cores.
    pub fn method(game: GameSpec, seed: u64) -> EvolveConfig {
        // (mutation, generations, checkpoint every): a Connect-Four
        // checkpoint of 100 genomes is 92 MB, so it is written less often.
        let MethodSettings {
            mutation,
            generations,
            checkpoint_every,
            bench_every,
        } = game.kind().method();
        let one_player = abilities(game).players == 1;
        EvolveConfig {
            game,
            population: 100,
            elite: 10,
            parents: 2,
            mutation: Mutation::fixed(mutation),
            mutate: MutationScope::All,
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
        }
    }

    /// What needs two players is refused for a one-player game, each in
    /// one line: the fitness terms ([`super::fitness::check_players`]),
    /// then `pegs:N` for two players, or the benchmark opponents, the
    /// targets against an opponent and the shell for one.
    fn check_players(&self, abilities: Abilities) -> Result<(), ConfigError> {
        let err = |flag, value: String, allowed: &str| {
            Err(ConfigError {
                flag,
                value,
                allowed: allowed.to_string(),
            })
        };
        super::fitness::check_players(self, abilities)?;
        if abilities.players == 2 {
            if let Some(Target::Pegs(_)) = self.stop.target {
                return err(
                    "target",
                    "pegs".into(),
                    &format!(
                        "pegs:N is a target of one-player games ({})",
                        crate::dispatch::games_with(|a| a.players == 1, "and")
                    ),
                );
            }
            return Ok(());
        }
        if !self.bench.against.is_empty() {
            return err(
                "bench-against",
                self.bench
                    .against
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                "a one-player game has no opponents to measure against (its benchmark is the champion's pegs)",
            );
        }
        if matches!(
            self.stop.target,
            Some(Target::Unbeatable | Target::Score { .. })
        ) {
            return err(
                "target",
                self.stop
                    .target
                    .as_ref()
                    .map(|t| t.to_string())
                    .unwrap_or_default(),
                "a one-player game has no opponent: use pegs:N (the champion leaves N pegs or fewer)",
            );
        }
        if self.lookahead > 0 {
            return err(
                "lookahead",
                self.lookahead.to_string(),
                "the shell searches against an opponent; a one-player game has none",
            );
        }
        Ok(())
    }

    /// How the run's genomes play: the illegal-gene policy and the shell.
    pub fn genome_rules(&self) -> GenomeRules {
        GenomeRules {
            policy: self.illegal,
            lookahead: self.lookahead,
        }
    }

    /// Checks every parameter against its range and the game's abilities;
    /// the first problem names its flag.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.check_sizes()?;
        let abilities = abilities(self.game);
        self.check_players(abilities)?;
        self.check_audit(abilities)?;
        super::fitness::check(self, abilities)?;
        if self.mutate == MutationScope::Used
            && !self.fitness.has::<super::fitness::versus::Versus>()
        {
            return refuse(
                "mutate",
                "used".into(),
                "records the genes consulted in games against fixed opponents: give --fitness SPEC:N terms".into(),
            );
        }
        self.check_learning(abilities)?;
        self.check_islands()?;
        self.check_patience()
    }

    /// Population, elite, parents, mutation, selection, checkpoints, the
    /// shell and the benchmark's games, each within its range.
    fn check_sizes(&self) -> Result<(), ConfigError> {
        if self.generations == 0 {
            return refuse(
                "generations",
                "0".into(),
                "must be at least 1 (a run's champion comes from its first generation)".into(),
            );
        }
        if !(1..=100_000).contains(&self.population) {
            return refuse(
                "population",
                self.population.to_string(),
                "must be 1-100000".into(),
            );
        }
        if self.population == 1 {
            // Plain self-play learning: one genome, kept, no children.
            if self.self_play == 0 {
                return refuse(
                    "population",
                    "1".into(),
                    "a population of one only learns by self-play (a value genome with --self-play); evolution needs 2-100000".into(),
                );
            }
            if self.elite != 1 {
                return refuse(
                    "elite",
                    self.elite.to_string(),
                    "must be 1 in a population of one".into(),
                );
            }
        } else if !(1..self.population).contains(&self.elite) {
            return refuse(
                "elite",
                self.elite.to_string(),
                format!("must be 1-{} (below the population)", self.population - 1),
            );
        }
        let most_parents = match self.selection {
            Selection::Elite => self.elite,
            Selection::Tournament(_) => self.population,
        };
        if self.population > 1 && !(1..=most_parents).contains(&self.parents) {
            return refuse(
                "parents",
                self.parents.to_string(),
                format!(
                    "must be 1-{most_parents} (parents are drawn from the {})",
                    if self.selection == Selection::Elite {
                        "elite"
                    } else {
                        "population"
                    }
                ),
            );
        }
        let Mutation { low, high } = self.mutation;
        if !(0.0..=1.0).contains(&low) || !(0.0..=1.0).contains(&high) || low > high {
            return refuse(
                "mutation",
                self.mutation.to_string(),
                "must be a probability, 0-1".into(),
            );
        }
        if let Selection::Tournament(k) = self.selection
            && k as usize > self.population
        {
            return refuse(
                "selection",
                self.selection.to_string(),
                format!(
                    "tournament size must be 1-{} (the population)",
                    self.population
                ),
            );
        }
        if self.checkpoint_every == 0 {
            return refuse("checkpoint-every", "0".into(), "must be at least 1".into());
        }
        if self.keep == 0 {
            return refuse("keep", "0".into(), "must be at least 1".into());
        }
        let most = max_lookahead(self.game);
        if self.lookahead > most {
            return refuse(
                "lookahead",
                self.lookahead.to_string(),
                match most {
                    MAX_LOOKAHEAD => format!("must be 0-{most}"),
                    _ => format!("must be 0-{most} (plies a value genome searches)"),
                },
            );
        }
        if !(1..=1_000_000).contains(&self.bench.games) {
            return refuse(
                "bench-games",
                self.bench.games.to_string(),
                "must be 1-1000000".into(),
            );
        }
        Ok(())
    }

    /// `--target unbeatable` needs an exact audit of pure genomes.
    fn check_audit(&self, abilities: Abilities) -> Result<(), ConfigError> {
        let exact = abilities.solvable;
        if self.stop.target == Some(Target::Unbeatable) && !exact {
            return refuse(
                "target",
                "unbeatable".into(),
                format!(
                    "needs an exact audit: {} (use score:SPEC:X for the others)",
                    crate::dispatch::games_with(|a| a.solvable, "or")
                ),
            );
        }
        if self.lookahead > 0 && self.stop.target == Some(Target::Unbeatable) {
            return refuse(
                "lookahead",
                self.lookahead.to_string(),
                super::fitness::exhaustive::SHELL_VS_AUDIT.into(),
            );
        }
        Ok(())
    }

    /// Zero-weight genes and the bank's operators need a game that has
    /// them; the operators' sizes.
    fn check_learning(&self, abilities: Abilities) -> Result<(), ConfigError> {
        if self.self_play > 1_000_000 {
            return refuse(
                "self-play",
                self.self_play.to_string(),
                "must be 0-1000000 games per genome per generation".into(),
            );
        }
        if let Some(spec) = &self.learn_against
            && !abilities.learns
        {
            return refuse(
                "learn-against",
                spec.to_string(),
                format!(
                    "only a value genome learns between generations: use --encoder ntuple ({})",
                    crate::dispatch::games_with(|a| a.learns, "or")
                ),
            );
        }
        if let Some(spec) = &self.learn_against
            && self.self_play == 0
        {
            return refuse(
                "learn-against",
                spec.to_string(),
                "needs games to learn from: --self-play N (1-1000000), or --learn-against self"
                    .into(),
            );
        }
        // The bank's operators rewrite genes the bank reads: refused, with
        // `why`, where there are none.
        let no_bank_operators = |why: &str| {
            if self.tutor.guided > 0 {
                return refuse("guided", self.tutor.guided.to_string(), why.into());
            }
            if self.tutor.local_search > 0 {
                return refuse(
                    "local-search",
                    self.tutor.local_search.to_string(),
                    why.into(),
                );
            }
            Ok(())
        };
        if abilities.learns {
            let table_only = "a value genome has no gene table for it (--encoder ntuple)";
            no_bank_operators(table_only)?;
            if self.mutate != MutationScope::All {
                return refuse("mutate", "used".into(), table_only.into());
            }
        } else if self.self_play > 0 {
            return refuse(
                "self-play",
                self.self_play.to_string(),
                format!(
                    "only a value genome learns by self-play: use --encoder ntuple ({})",
                    crate::dispatch::games_with(|a| a.learns, "or")
                ),
            );
        }
        if self.init == Init::Zero && !abilities.weighted_genes {
            return refuse(
                "init",
                "zero".into(),
                format!(
                    "only {} genes carry a weight: use random",
                    crate::dispatch::games_with(|a| a.weighted_genes, "and")
                ),
            );
        }
        if !abilities.banked {
            let needs_bank = super::fitness::bank::NEEDS_BANK;
            no_bank_operators(needs_bank)?;
            if self.tutor.bank != BankSource::Builtin {
                return refuse("bank", self.tutor.bank.to_string(), needs_bank.into());
            }
        }
        if self.tutor.guided > 10_000 {
            return refuse(
                "guided",
                self.tutor.guided.to_string(),
                "must be 0-10000 positions per child".into(),
            );
        }
        if self.tutor.local_search as usize > self.population - self.elite {
            return refuse(
                "local-search",
                self.tutor.local_search.to_string(),
                format!(
                    "must be 0-{} (the children of a generation: population minus elite)",
                    self.population - self.elite
                ),
            );
        }
        Ok(())
    }

    /// The island model: counts, the migration interval, migrants.
    fn check_islands(&self) -> Result<(), ConfigError> {
        let islands = self.islands;
        if !(1..=1024).contains(&islands.count) {
            return refuse(
                "islands",
                islands.count.to_string(),
                "must be 1-1024".into(),
            );
        }
        if islands.count > 1 {
            if islands.every == 0 {
                return refuse("migrate-every", "0".into(), "must be at least 1".into());
            }
            if !(1..=self.elite).contains(&islands.migrants) {
                return refuse(
                    "migrants",
                    islands.migrants.to_string(),
                    format!(
                        "must be 1-{} (migrants are an island's best: its elite)",
                        self.elite
                    ),
                );
            }
            if islands.migrants > self.population - self.elite {
                return refuse(
                    "migrants",
                    islands.migrants.to_string(),
                    format!(
                        "must be at most {} (they replace children: population minus elite)",
                        self.population - self.elite
                    ),
                );
            }
        }
        Ok(())
    }

    /// `--patience` counts benchmarks without progress.
    fn check_patience(&self) -> Result<(), ConfigError> {
        if self.stop.patience.is_some() && self.bench.every == 0 {
            return refuse(
                "patience",
                format!("{}", self.stop.patience.unwrap_or(0)),
                "needs a benchmark: set --bench-every".into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
