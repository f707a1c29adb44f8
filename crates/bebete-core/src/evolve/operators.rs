//! The genetic operators and fitness terms a run is configured with, as
//! typed values: each reads its command-line grammar ([`FromStr`]) and
//! writes it back ([`Display`](std::fmt::Display)), so `run.toml` and error
//! messages show exactly what a user would type.
//!
//! Parsing is pure: a player named inside a term (`vs:rules:20`,
//! `score:mc:200:0.9`) is stored as a [`PlayerSpec`] and only checked
//! against a game (a genome file loaded) when the run builds its players.

use crate::players::PlayerSpec;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// A value that does not follow its flag's grammar; the message says what
/// was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OperatorError(pub String);

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
    fn parse_text(text: &str) -> Result<Selection, String> {
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

/// How a child's genes are taken from its parents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Crossover {
    /// Each gene from a parent drawn uniformly (the method).
    #[default]
    Uniform,
    /// Each run of B consecutive genes from one parent. Connect-Four's gene
    /// index is four base-31 digits (the window's columns, left to right),
    /// so blocks of 31 genes share the first three columns' states and
    /// blocks of 961 the first two: such genes answer similar windows and
    /// travel together.
    Block(u32),
}

impl Crossover {
    /// Reads `uniform` or `block:B`.
    fn parse_text(text: &str) -> Result<Crossover, String> {
        match text.split_once(':') {
            None if text == "uniform" => Ok(Crossover::Uniform),
            Some(("block", b)) => match b.parse::<u32>() {
                Ok(b) if b >= 1 => Ok(Crossover::Block(b)),
                _ => Err(format!("block size '{b}' must be a whole number ≥ 1")),
            },
            _ => Err("expected uniform or block:B".to_string()),
        }
    }
}

impl std::fmt::Display for Crossover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Crossover::Uniform => f.write_str("uniform"),
            Crossover::Block(b) => write!(f, "block:{b}"),
        }
    }
}

/// The genes of generation 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Init {
    /// Every gene drawn at random (the method).
    #[default]
    Random,
    /// Connect-Four: every vote has weight 0 (its column still random), so
    /// a new genome plays the tie order (centre first) and a window only
    /// takes part once mutation has given its gene a weight that selection
    /// kept.
    Zero,
}

impl Init {
    /// Reads `random` or `zero`.
    fn parse_text(text: &str) -> Result<Init, String> {
        match text {
            "random" => Ok(Init::Random),
            "zero" => Ok(Init::Zero),
            _ => Err("expected random or zero".to_string()),
        }
    }
}

impl std::fmt::Display for Init {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Init::Random => "random",
            Init::Zero => "zero",
        })
    }
}

/// The per-gene mutation probability: one rate, or a range from which each
/// child draws its own rate (log-uniformly), so that every generation has
/// both bold and careful children and selection keeps whichever works.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mutation {
    /// The lowest rate a child draws.
    pub low: f64,
    /// The highest rate a child draws (equal to `low`: one rate).
    pub high: f64,
}

impl Mutation {
    /// One rate for every child.
    pub fn fixed(rate: f64) -> Mutation {
        Mutation {
            low: rate,
            high: rate,
        }
    }

    /// A range: each child draws its rate log-uniformly from `low..high`
    /// (`--mutation LO..HI`).
    pub fn range(low: f64, high: f64) -> Mutation {
        Mutation { low, high }
    }

    /// Reads `P` or `LO..HI` (0 < LO ≤ HI ≤ 1 for a range).
    fn parse_text(text: &str) -> Result<Mutation, String> {
        let rate = |t: &str| -> Result<f64, String> {
            match t.trim().parse::<f64>() {
                Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
                _ => Err(format!("'{t}' must be a probability, 0-1")),
            }
        };
        match text.split_once("..") {
            None => Ok(Mutation::fixed(rate(text)?)),
            Some((lo, hi)) => {
                let (low, high) = (rate(lo)?, rate(hi)?);
                if low <= 0.0 || low > high {
                    return Err(format!(
                        "a range LO..HI needs 0 < LO <= HI (got {low}..{high})"
                    ));
                }
                Ok(Mutation { low, high })
            }
        }
    }

    /// The rate of one child: the fixed rate, or a log-uniform draw.
    pub fn draw<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        use rand::RngExt;
        if self.low >= self.high {
            return self.low;
        }
        let (a, b) = (self.low.ln(), self.high.ln());
        (a + (b - a) * rng.random::<f64>()).exp()
    }
}

impl std::fmt::Display for Mutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.low >= self.high {
            write!(f, "{}", self.low)
        } else {
            write!(f, "{}..{}", self.low, self.high)
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
    /// A score share of at least `share` against `opponent`.
    Score {
        /// The fixed player measured against.
        opponent: PlayerSpec,
        /// The share to reach, 0-1.
        share: f64,
    },
    /// One-player games: the champion's game from the start leaves N
    /// pieces or fewer (`pegs:1`: a perfect solitaire game).
    Pegs(u32),
}

impl Target {
    /// Reads `unbeatable` or `score:SPEC:X`.
    fn parse_text(text: &str) -> Result<Target, String> {
        if text == "unbeatable" {
            return Ok(Target::Unbeatable);
        }
        if let Some(n) = text.strip_prefix("pegs:") {
            return match n.parse::<u32>() {
                Ok(n) if (1..=28).contains(&n) => Ok(Target::Pegs(n)),
                _ => Err(format!("pegs:N needs N 1-28 (got '{n}')")),
            };
        }
        let rest = text
            .strip_prefix("score:")
            .ok_or("expected unbeatable, score:SPEC:X or pegs:N")?;
        let (spec, x) = rest.rsplit_once(':').ok_or("expected score:SPEC:X")?;
        match x.parse::<f64>() {
            Ok(share) if (0.0..=1.0).contains(&share) && !spec.is_empty() => Ok(Target::Score {
                opponent: PlayerSpec::parse(spec).map_err(|e| e.to_string())?,
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
            Target::Pegs(n) => write!(f, "pegs:{n}"),
        }
    }
}

/// `FromStr` for each operator type, through its `parse_text`.
macro_rules! from_str_via_parse_text {
    ($($ty:ty),* $(,)?) => {$(
        impl FromStr for $ty {
            type Err = OperatorError;

            fn from_str(text: &str) -> Result<$ty, OperatorError> {
                <$ty>::parse_text(text).map_err(OperatorError)
            }
        }
    )*};
}

from_str_via_parse_text!(Selection, Crossover, Init, Mutation, Target);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutation_is_a_rate_or_a_log_uniform_range() {
        assert_eq!("0.01".parse::<Mutation>(), Ok(Mutation::fixed(0.01)));
        let range = "0.0001..0.01".parse::<Mutation>().unwrap();
        assert_eq!(range.to_string(), "0.0001..0.01");
        let mut rng = <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(1);
        let draws: Vec<f64> = (0..1000).map(|_| range.draw(&mut rng)).collect();
        assert!(draws.iter().all(|&r| (0.0001..=0.01).contains(&r)));
        // Log-uniform: about half the draws fall below the geometric mean 0.001.
        let below = draws.iter().filter(|&&r| r < 0.001).count();
        assert!((400..600).contains(&below), "{below}");
        for bad in ["2", "0.1..0.01", "0..0.1", "x"] {
            assert!(bad.parse::<Mutation>().is_err(), "{bad}");
        }
    }

    #[test]
    fn selection_parses_and_prints() {
        assert_eq!("elite".parse::<Selection>(), Ok(Selection::Elite));
        assert_eq!(
            "tournament:3".parse::<Selection>(),
            Ok(Selection::Tournament(3))
        );
        assert!("tournament:0".parse::<Selection>().is_err());
        assert!("roulette".parse::<Selection>().is_err());
        assert_eq!(Selection::Tournament(4).to_string(), "tournament:4");
        assert_eq!("block:961".parse::<Crossover>(), Ok(Crossover::Block(961)));
        assert_eq!("uniform".parse::<Crossover>(), Ok(Crossover::Uniform));
        assert_eq!(Crossover::Block(31).to_string(), "block:31");
        for bad in ["block:0", "block", "one-point"] {
            assert!(bad.parse::<Crossover>().is_err(), "{bad}");
        }
        assert_eq!("zero".parse::<Init>(), Ok(Init::Zero));
        assert!("ones".parse::<Init>().is_err());
    }

    #[test]
    fn a_target_parses_specs_with_colons() {
        assert_eq!("unbeatable".parse::<Target>(), Ok(Target::Unbeatable));
        assert_eq!(
            "score:alphabeta:4:0.5".parse::<Target>(),
            Ok(Target::Score {
                opponent: PlayerSpec::AlphaBeta(4),
                share: 0.5
            })
        );
        assert!("score:random:1.5".parse::<Target>().is_err());
    }
}
