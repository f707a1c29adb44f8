//! Naming a game and its rules as data, and dispatching to the concrete type.

use super::{
    Connect4, Connect4Encoder, Matchsticks, MatchsticksEncoder, MatchsticksRules, NTuple,
    Solitaire, SolitaireRules, TicTacToe, TicTacToeEncoder,
};
use serde::{Deserialize, Serialize};

/// Which game, without its rules (the value of `--game`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    TicTacToe,
    Matchsticks,
    Connect4,
    Solitaire,
}

impl GameKind {
    /// Every built-in game, in the order the command line lists them.
    pub const ALL: [GameKind; 4] = [
        GameKind::TicTacToe,
        GameKind::Matchsticks,
        GameKind::Connect4,
        GameKind::Solitaire,
    ];

    /// The game under each of its encoders and rule variants that the
    /// tests run over (default rules, plus matchsticks' Fibonacci rule and
    /// the smallest solitaire board): a game is covered by the tests that
    /// run over [`GameSpec::registered`] once it is listed here, and the
    /// match makes the compiler ask for a new game's list.
    pub fn variants(self) -> Vec<GameSpec> {
        match self {
            GameKind::TicTacToe => vec![
                GameSpec::TicTacToe(TicTacToeEncoder::Base3),
                GameSpec::TicTacToe(TicTacToeEncoder::Symmetric),
                GameSpec::TicTacToe(TicTacToeEncoder::NTuple(TicTacToeEncoder::NTUPLE)),
            ],
            GameKind::Matchsticks => {
                let double = MatchsticksRules {
                    sticks: 30,
                    rule: super::TakeRule::Double,
                };
                vec![
                    GameSpec::Matchsticks(MatchsticksRules::default(), MatchsticksEncoder::State),
                    GameSpec::Matchsticks(double, MatchsticksEncoder::State),
                    GameSpec::Matchsticks(double, MatchsticksEncoder::Sticks),
                ]
            }
            GameKind::Connect4 => vec![
                GameSpec::Connect4(Connect4Encoder::Subgrid),
                GameSpec::Connect4(Connect4Encoder::Playable),
                GameSpec::Connect4(Connect4Encoder::Mirror),
                GameSpec::Connect4(Connect4Encoder::NTuple(NTuple {
                    tuples: 8,
                    length: 6,
                })),
            ],
            GameKind::Solitaire => vec![
                GameSpec::Solitaire(SolitaireRules::default()),
                GameSpec::Solitaire(SolitaireRules { rows: 4, empty: 2 }),
            ],
        }
    }

    /// The canonical command-line name.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "tictactoe",
            GameKind::Matchsticks => "matchsticks",
            GameKind::Connect4 => "connect4",
            GameKind::Solitaire => "solitaire",
        }
    }

    /// The shorter names the command line also reads.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            GameKind::TicTacToe => &["ttt"],
            GameKind::Matchsticks => &["nim"],
            GameKind::Connect4 => &["c4"],
            GameKind::Solitaire => &["peg"],
        }
    }

    /// Reads a game name or alias (`tictactoe`/`ttt`, `matchsticks`/`nim`,
    /// `connect4`/`c4`, `solitaire`/`peg`), in any case.
    pub fn parse(text: &str) -> Option<GameKind> {
        let text = text.to_ascii_lowercase();
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == text || k.aliases().contains(&text.as_str()))
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Rule parameters out of range (read from a file); says which.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidRules(pub String);

/// An unknown `--game` name; says which names are known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game: expected {}", known_games())]
pub struct UnknownGame;

/// `tictactoe (ttt), matchsticks (nim), connect4 (c4) or solitaire (peg)`.
fn known_games() -> String {
    let names: Vec<String> = GameKind::ALL
        .iter()
        .map(|k| format!("{} ({})", k.name(), k.aliases().join(", ")))
        .collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<GameKind, UnknownGame> {
        GameKind::parse(text).ok_or(UnknownGame)
    }
}

/// A game this crate knows by name: its rules are recorded in files as a
/// [`GameSpec`] and read back from them. A game from outside the crate
/// implements [`Game`](super::Game) alone, and the tournament and
/// breeding work for it all the same; the run directory, the genome file
/// and the command line need a `GameSpec`, so they ask for this trait too.
pub trait BuiltIn: super::Game {
    /// The game and its rules, as stored in files.
    fn spec(&self) -> GameSpec;
}

/// A game together with its rules: what files record and what commands run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameSpec {
    TicTacToe(TicTacToeEncoder),
    Matchsticks(MatchsticksRules, MatchsticksEncoder),
    Connect4(Connect4Encoder),
    /// Triangular peg solitaire (one player; one encoder: the pegs as bits).
    Solitaire(SolitaireRules),
}

impl GameSpec {
    /// Every built-in game under each of its encoders and rule variants
    /// ([`GameKind::variants`] of [`GameKind::ALL`]).
    pub fn registered() -> Vec<GameSpec> {
        GameKind::ALL.iter().flat_map(|k| k.variants()).collect()
    }

    /// Tic-tac-toe with the base-3 encoder (one gene per board).
    pub const TICTACTOE: GameSpec = GameSpec::TicTacToe(TicTacToeEncoder::Base3);
    /// Connect-Four with the 4×4 sub-grid encoder.
    pub const CONNECT4: GameSpec = GameSpec::Connect4(Connect4Encoder::Subgrid);

    /// The game without its rules.
    pub fn kind(&self) -> GameKind {
        match self {
            GameSpec::TicTacToe(_) => GameKind::TicTacToe,
            GameSpec::Matchsticks(..) => GameKind::Matchsticks,
            GameSpec::Connect4(_) => GameKind::Connect4,
            GameSpec::Solitaire(_) => GameKind::Solitaire,
        }
    }

    /// Checks rule parameters read from a file (the command line checks its
    /// own flags): matchsticks needs sticks ≥ 1 (≥ 2 for double) and
    /// max-take ≥ 1.
    pub fn validate(&self) -> Result<(), InvalidRules> {
        match self {
            GameSpec::Matchsticks(rules, _) => {
                let least = if rules.rule == super::TakeRule::Double {
                    2
                } else {
                    1
                };
                if rules.sticks < least {
                    return Err(InvalidRules(format!(
                        "matchsticks with {} sticks (at least {least})",
                        rules.sticks
                    )));
                }
                if let super::TakeRule::Subtract { max_take: 0, .. } = rules.rule {
                    return Err(InvalidRules("matchsticks with a max-take of 0".to_string()));
                }
                Ok(())
            }
            GameSpec::Solitaire(rules) => rules.check().map_err(InvalidRules),
            GameSpec::TicTacToe(TicTacToeEncoder::NTuple(shape)) => {
                shape.check(9).map_err(InvalidRules)
            }
            GameSpec::Connect4(Connect4Encoder::NTuple(shape)) => {
                shape.check(42).map_err(InvalidRules)
            }
            _ => Ok(()),
        }
    }

    /// The shape of its value genome, when its encoder is `ntuple`.
    pub fn value_genome(&self) -> Option<NTuple> {
        match self {
            GameSpec::TicTacToe(TicTacToeEncoder::NTuple(shape))
            | GameSpec::Connect4(Connect4Encoder::NTuple(shape)) => Some(*shape),
            _ => None,
        }
    }

    /// The name of the encoder (`base3`, `symmetric`, `state`, `sticks`,
    /// `subgrid`, …), as `--encoder` takes it.
    pub fn encoder_name(&self) -> &'static str {
        match self {
            GameSpec::TicTacToe(e) => e.name(),
            GameSpec::Matchsticks(_, e) => e.name(),
            GameSpec::Connect4(e) => e.name(),
            GameSpec::Solitaire(_) => "bits",
        }
    }

    /// The concrete game of this spec, as one of the three game types.
    pub fn concrete(self) -> Concrete {
        match self {
            GameSpec::TicTacToe(encoder) => Concrete::TicTacToe(TicTacToe { encoder }),
            GameSpec::Matchsticks(rules, encoder) => {
                Concrete::Matchsticks(Matchsticks { rules, encoder })
            }
            GameSpec::Connect4(encoder) => Concrete::Connect4(Connect4 { encoder }),
            GameSpec::Solitaire(rules) => Concrete::Solitaire(Solitaire { rules }),
        }
    }
}

/// A spec turned into its game value; the layers above dispatch on it to
/// run generic code with the concrete type.
pub enum Concrete {
    TicTacToe(TicTacToe),
    Matchsticks(Matchsticks),
    Connect4(Connect4),
    Solitaire(Solitaire),
}

impl std::fmt::Display for GameSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameSpec::Matchsticks(rules, MatchsticksEncoder::State) => {
                write!(f, "matchsticks ({rules})")
            }
            GameSpec::Matchsticks(rules, MatchsticksEncoder::Sticks) => {
                write!(f, "matchsticks ({rules}; sticks encoder)")
            }
            GameSpec::Connect4(Connect4Encoder::Subgrid) => f.write_str("connect4"),
            GameSpec::Connect4(Connect4Encoder::NTuple(shape)) => {
                write!(f, "connect4 (value genome, {shape} tuples)")
            }
            GameSpec::TicTacToe(TicTacToeEncoder::NTuple(shape)) => {
                write!(f, "tictactoe (value genome, {shape} tuples)")
            }
            GameSpec::Connect4(e) => write!(f, "connect4 ({} encoder)", e.name()),
            GameSpec::TicTacToe(TicTacToeEncoder::Symmetric) => {
                f.write_str("tictactoe (symmetric encoder)")
            }
            GameSpec::Solitaire(rules) => write!(f, "solitaire ({rules})"),
            other => f.write_str(other.kind().name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry lists each game once, by the name the command line
    /// reads, with variants of that game only, all within their rules.
    #[test]
    fn every_registered_game_is_named_and_valid() {
        for (i, kind) in GameKind::ALL.iter().enumerate() {
            assert!(!GameKind::ALL[..i].contains(kind), "{kind} twice");
            assert_eq!(GameKind::parse(kind.name()), Some(*kind));
            let variants = kind.variants();
            assert!(!variants.is_empty(), "{kind} has no variants");
            for spec in variants {
                assert_eq!(spec.kind(), *kind, "{spec}");
                assert!(spec.validate().is_ok(), "{spec}");
            }
        }
        assert!(GameSpec::registered().len() >= GameKind::ALL.len());
        assert_eq!(
            UnknownGame.to_string(),
            "unknown game: expected tictactoe (ttt), matchsticks (nim), connect4 (c4) or solitaire (peg)"
        );
        assert_eq!(GameKind::parse("C4"), Some(GameKind::Connect4));
        assert_eq!(GameKind::parse("chess"), None);
    }
}
