//! The parameters of a run, validated before any work starts.

use crate::encoding::IllegalPolicy;
use crate::games::{GameKind, GameSpec};
use serde::{Deserialize, Serialize};

/// How parents are chosen for each child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Selection {
    /// Uniformly among the elite (the method).
    Elite,
    /// Each parent is the best of K genomes drawn from the whole population.
    Tournament(u32),
}

impl Selection {
    /// Reads `elite` or `tournament:K`.
    pub fn parse(text: &str) -> Result<Selection, String> {
        match text.split_once(':') {
            None if text == "elite" => Ok(Selection::Elite),
            Some(("tournament", k)) => match k.parse::<u32>() {
                Ok(k) if k >= 1 => Ok(Selection::Tournament(k)),
                _ => Err(format!("tournament size '{k}' must be a whole number ≥ 1")),
            },
            _ => Err("expected elite or tournament:K".to_string()),
        }
    }
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selection::Elite => f.write_str("elite"),
            Selection::Tournament(k) => write!(f, "tournament:{k}"),
        }
    }
}

/// Everything that determines a run's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    pub game: GameSpec,
    pub population: usize,
    pub elite: usize,
    pub parents: usize,
    /// Per-gene probability of being redrawn in a child.
    pub mutation: f64,
    /// Planned total number of generations.
    pub generations: u64,
    pub seed: u64,
    /// Write a checkpoint every K generations (and at the end).
    pub checkpoint_every: u64,
    /// Checkpoints kept on disk (the oldest beyond this are removed).
    pub keep: usize,
    pub illegal: IllegalPolicy,
    pub selection: Selection,
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
    /// The defaults for `game`, chosen so that a plain `bebete evolve`
    /// finishes in well under a minute on 2 cores.
    pub fn defaults(game: GameSpec, seed: u64) -> EvolveConfig {
        // (mutation, generations, checkpoint every): a Connect-Four
        // checkpoint of 100 genomes is 92 MB, so it is written less often.
        let (mutation, generations, checkpoint_every) = match game.kind() {
            GameKind::TicTacToe => (0.005, 1000, 50),
            GameKind::Matchsticks => (0.05, 200, 50),
            GameKind::Connect4 => (0.002, 300, 50),
        };
        EvolveConfig {
            game,
            population: 100,
            elite: 10,
            parents: 2,
            mutation,
            generations,
            seed,
            checkpoint_every,
            keep: 2,
            illegal: IllegalPolicy::Repair,
            selection: Selection::Elite,
        }
    }

    /// Checks every parameter against its range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |flag, value: String, allowed: String| {
            Err(ConfigError {
                flag,
                value,
                allowed,
            })
        };
        if !(2..=100_000).contains(&self.population) {
            return err(
                "population",
                self.population.to_string(),
                "must be 2-100000".into(),
            );
        }
        if !(1..self.population).contains(&self.elite) {
            return err(
                "elite",
                self.elite.to_string(),
                format!("must be 1-{} (below the population)", self.population - 1),
            );
        }
        let most_parents = match self.selection {
            Selection::Elite => self.elite,
            Selection::Tournament(_) => self.population,
        };
        if !(1..=most_parents).contains(&self.parents) {
            return err(
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
        if !(0.0..=1.0).contains(&self.mutation) {
            return err(
                "mutation",
                self.mutation.to_string(),
                "must be a probability, 0-1".into(),
            );
        }
        if let Selection::Tournament(k) = self.selection
            && k as usize > self.population
        {
            return err(
                "selection",
                self.selection.to_string(),
                format!(
                    "tournament size must be 1-{} (the population)",
                    self.population
                ),
            );
        }
        if self.checkpoint_every == 0 {
            return err("checkpoint-every", "0".into(), "must be at least 1".into());
        }
        if self.keep == 0 {
            return err("keep", "0".into(), "must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_parses_and_prints() {
        assert_eq!(Selection::parse("elite"), Ok(Selection::Elite));
        assert_eq!(
            Selection::parse("tournament:3"),
            Ok(Selection::Tournament(3))
        );
        assert!(Selection::parse("tournament:0").is_err());
        assert!(Selection::parse("roulette").is_err());
        assert_eq!(Selection::Tournament(4).to_string(), "tournament:4");
    }

    #[test]
    fn out_of_range_values_name_the_flag() {
        let mut cfg = EvolveConfig::defaults(GameSpec::TicTacToe, 1);
        assert!(cfg.validate().is_ok());
        cfg.elite = 100;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .starts_with("--elite 100")
        );
        cfg.elite = 10;
        cfg.parents = 11;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("--parents")
        );
        cfg.parents = 2;
        cfg.mutation = 1.5;
        assert!(
            cfg.validate()
                .unwrap_err()
                .to_string()
                .contains("--mutation")
        );
    }
}
