//! A run's parameters checked before any work starts: each against its
//! range, then against the game's abilities and the rest of the
//! configuration; the first problem names its flag.

use super::{ConfigError, EvolveConfig};
use crate::bank::BankSource;
use crate::dispatch::{Abilities, abilities};
use crate::encoding::shell::MAX_LOOKAHEAD;
use crate::evolve::fitness;
use crate::evolve::operators::{Init, Mutation, Selection, Target};
use crate::games::GameId;
use crate::players::Playable;

/// A parameter refused: its flag, the value given and what is allowed.
fn refuse(flag: &'static str, value: String, allowed: String) -> Result<(), ConfigError> {
    Err(ConfigError {
        flag,
        value,
        allowed,
    })
}

impl EvolveConfig {
    /// Checks every parameter against its range and the built-in game's
    /// abilities; the first problem names its flag. A game from outside
    /// this crate is checked with [`EvolveConfig::validate_for`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self.game.built_in() {
            Some(spec) => self.validate_with(abilities(spec)),
            None => refuse(
                "game",
                self.game.to_string(),
                "is a game from outside bebete: check its configuration with the game (validate_for)"
                    .into(),
            ),
        }
    }

    /// Checks every parameter against its range and the abilities of
    /// `game`, which must be the configuration's own.
    pub fn validate_for<G: Playable>(&self, game: &G) -> Result<(), ConfigError> {
        self.validate_as(&game.id(), Abilities::of(game))
    }

    /// [`EvolveConfig::validate_for`] of a game named `id` with
    /// `abilities`, already read off it.
    pub(crate) fn validate_as(&self, id: &GameId, abilities: Abilities) -> Result<(), ConfigError> {
        if self.game != *id {
            return refuse(
                "game",
                id.to_string(),
                format!("this configuration is for {}", self.game),
            );
        }
        self.validate_with(abilities)
    }

    fn validate_with(&self, abilities: Abilities) -> Result<(), ConfigError> {
        self.check_sizes(abilities.max_lookahead)?;
        self.check_players(abilities)?;
        self.check_audit(abilities)?;
        fitness::check(self, abilities)?;
        self.check_learning(abilities)?;
        self.check_islands()?;
        self.check_patience()
    }

    /// Population, elite, parents, mutation, selection, checkpoints, the
    /// shell and the benchmark's games, each within its range.
    fn check_sizes(&self, most_lookahead: u8) -> Result<(), ConfigError> {
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
        let most = most_lookahead;
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
        if !(1..=1_000_000).contains(&self.bench_games) {
            return refuse(
                "bench-games",
                self.bench_games.to_string(),
                "must be 1-1000000".into(),
            );
        }
        Ok(())
    }

    /// `--target unbeatable` needs an exact audit of pure genomes.
    fn check_audit(&self, abilities: Abilities) -> Result<(), ConfigError> {
        let exact = abilities.solvable;
        if self.target == Some(Target::Unbeatable) && !exact {
            return refuse(
                "target",
                "unbeatable".into(),
                format!(
                    "needs an exact audit: {} (use score:SPEC:X for the others)",
                    crate::dispatch::games_with(|a| a.solvable, "or")
                ),
            );
        }
        if self.lookahead > 0 && self.target == Some(Target::Unbeatable) {
            return refuse(
                "lookahead",
                self.lookahead.to_string(),
                fitness::exhaustive::SHELL_VS_AUDIT.into(),
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
        if !abilities.learns && self.self_play > 0 {
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
            let needs_bank = fitness::bank::needs_bank();
            if self.bank != BankSource::Builtin {
                return refuse("bank", self.bank.to_string(), needs_bank);
            }
        }
        Ok(())
    }

    /// The island model: counts, the migration interval, migrants.
    fn check_islands(&self) -> Result<(), ConfigError> {
        if !(1..=1024).contains(&self.islands) {
            return refuse("islands", self.islands.to_string(), "must be 1-1024".into());
        }
        if self.islands > 1 {
            if self.migrate_every == 0 {
                return refuse("migrate-every", "0".into(), "must be at least 1".into());
            }
            if !(1..=self.elite).contains(&self.migrants) {
                return refuse(
                    "migrants",
                    self.migrants.to_string(),
                    format!(
                        "must be 1-{} (migrants are an island's best: its elite)",
                        self.elite
                    ),
                );
            }
            if self.migrants > self.population - self.elite {
                return refuse(
                    "migrants",
                    self.migrants.to_string(),
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
        if self.patience.is_some() && self.bench_every == 0 {
            return refuse(
                "patience",
                format!("{}", self.patience.unwrap_or(0)),
                "needs a benchmark: set --bench-every".into(),
            );
        }
        Ok(())
    }

    /// What needs two players is refused for a one-player game, each in
    /// one line: the fitness terms ([`fitness::check_players`]),
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
        fitness::check_players(self, abilities)?;
        if abilities.players == 2 {
            if let Some(Target::Pegs(_)) = self.target {
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
        if !self.bench_against.is_empty() {
            return err(
                "bench-against",
                self.bench_against
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
                "a one-player game has no opponents to measure against (its benchmark is the champion's pegs)",
            );
        }
        if matches!(self.target, Some(Target::Unbeatable | Target::Score { .. })) {
            return err(
                "target",
                self.target
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
}
