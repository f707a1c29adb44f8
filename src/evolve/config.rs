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

/// What a genome's fitness is made of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fitness {
    /// Round-robin points only (the method).
    RoundRobin,
    /// Round-robin points plus N games against a fixed opponent.
    RoundRobinPlus { opponent: String, games: u64 },
    /// N games against a fixed opponent only.
    Versus { opponent: String, games: u64 },
}

impl Fitness {
    /// Reads `round-robin`, `round-robin+SPEC:N` or `vs:SPEC:N` (SPEC may
    /// itself contain colons, as in `mc:200`).
    pub fn parse(text: &str) -> Result<Fitness, String> {
        let opponent_games = |rest: &str| -> Result<(String, u64), String> {
            let (spec, n) = rest
                .rsplit_once(':')
                .ok_or_else(|| format!("'{rest}' needs a game count: SPEC:N"))?;
            match n.parse::<u64>() {
                Ok(n) if (1..=100_000).contains(&n) && !spec.is_empty() => {
                    Ok((spec.to_string(), n))
                }
                _ => Err(format!(
                    "the game count '{n}' must be 1-100000 after a player"
                )),
            }
        };
        if text == "round-robin" {
            Ok(Fitness::RoundRobin)
        } else if let Some(rest) = text.strip_prefix("round-robin+") {
            let (opponent, games) = opponent_games(rest)?;
            Ok(Fitness::RoundRobinPlus { opponent, games })
        } else if let Some(rest) = text.strip_prefix("vs:") {
            let (opponent, games) = opponent_games(rest)?;
            Ok(Fitness::Versus { opponent, games })
        } else {
            Err("expected round-robin, round-robin+SPEC:N or vs:SPEC:N".to_string())
        }
    }

    /// The fixed opponent and its game count, if any.
    pub fn opponent(&self) -> Option<(&str, u64)> {
        match self {
            Fitness::RoundRobin => None,
            Fitness::RoundRobinPlus { opponent, games } | Fitness::Versus { opponent, games } => {
                Some((opponent, *games))
            }
        }
    }

    /// Whether the round-robin is played.
    pub fn round_robin(&self) -> bool {
        !matches!(self, Fitness::Versus { .. })
    }
}

impl std::fmt::Display for Fitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fitness::RoundRobin => f.write_str("round-robin"),
            Fitness::RoundRobinPlus { opponent, games } => {
                write!(f, "round-robin+{opponent}:{games}")
            }
            Fitness::Versus { opponent, games } => write!(f, "vs:{opponent}:{games}"),
        }
    }
}

/// When a run may stop before its planned generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// The champion's audit: its move keeps the game's value in every
    /// position it can reach (tic-tac-toe, matchsticks).
    Unbeatable,
    /// The champion's score share against SPEC reaches X (0-1).
    Score { opponent: String, share: f64 },
}

impl Target {
    /// Reads `unbeatable` or `score:SPEC:X`.
    pub fn parse(text: &str) -> Result<Target, String> {
        if text == "unbeatable" {
            return Ok(Target::Unbeatable);
        }
        let rest = text
            .strip_prefix("score:")
            .ok_or("expected unbeatable or score:SPEC:X")?;
        let (spec, x) = rest.rsplit_once(':').ok_or("expected score:SPEC:X")?;
        match x.parse::<f64>() {
            Ok(share) if (0.0..=1.0).contains(&share) && !spec.is_empty() => Ok(Target::Score {
                opponent: spec.to_string(),
                share,
            }),
            _ => Err(format!("the score share '{x}' must be 0-1 (0.9 = 90%)")),
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Unbeatable => f.write_str("unbeatable"),
            Target::Score { opponent, share } => write!(f, "score:{opponent}:{share}"),
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
    pub fitness: Fitness,
    /// Measure the champion every K generations (0: never).
    pub bench_every: u64,
    /// Fixed opponents of the benchmark (player specs).
    pub bench_against: Vec<String>,
    /// Games per benchmark opponent.
    pub bench_games: u64,
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
    /// The defaults for `game`, chosen so that a plain `bebete evolve`
    /// finishes in well under a minute on 2 cores.
    pub fn defaults(game: GameSpec, seed: u64) -> EvolveConfig {
        // (mutation, generations, checkpoint every): a Connect-Four
        // checkpoint of 100 genomes is 92 MB, so it is written less often.
        let (mutation, generations, checkpoint_every, bench_every) = match game.kind() {
            GameKind::TicTacToe => (0.005, 1000, 50, 10),
            GameKind::Matchsticks => (0.05, 200, 50, 10),
            GameKind::Connect4 => (0.002, 300, 50, 25),
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
            fitness: Fitness::RoundRobin,
            bench_every,
            bench_against: vec!["random".to_string(), "rules".to_string()],
            bench_games: 100,
            target: None,
            patience: None,
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
        if !(1..=1_000_000).contains(&self.bench_games) {
            return err(
                "bench-games",
                self.bench_games.to_string(),
                "must be 1-1000000".into(),
            );
        }
        let exact = self.game.kind() != GameKind::Connect4;
        if self.target == Some(Target::Unbeatable) && !exact {
            return err(
                "target",
                "unbeatable".into(),
                "needs an exact audit: tictactoe or matchsticks (use score:SPEC:X for connect4)"
                    .into(),
            );
        }
        if self.patience.is_some() && self.bench_every == 0 {
            return err(
                "patience",
                format!("{}", self.patience.unwrap_or(0)),
                "needs a benchmark: set --bench-every".into(),
            );
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
    fn fitness_and_target_parse_specs_with_colons() {
        assert_eq!(Fitness::parse("round-robin"), Ok(Fitness::RoundRobin));
        assert_eq!(
            Fitness::parse("vs:mc:200:50"),
            Ok(Fitness::Versus {
                opponent: "mc:200".into(),
                games: 50
            })
        );
        assert_eq!(
            Fitness::parse("round-robin+random:20").unwrap().to_string(),
            "round-robin+random:20"
        );
        assert!(Fitness::parse("vs:random").is_err());
        assert!(Fitness::parse("elo").is_err());
        assert_eq!(Target::parse("unbeatable"), Ok(Target::Unbeatable));
        assert_eq!(
            Target::parse("score:alphabeta:4:0.5"),
            Ok(Target::Score {
                opponent: "alphabeta:4".into(),
                share: 0.5
            })
        );
        assert!(Target::parse("score:random:1.5").is_err());
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
