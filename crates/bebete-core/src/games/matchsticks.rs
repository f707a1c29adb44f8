//! Matchsticks: a heap of sticks, players take turns removing some.
//!
//! Two rule families share one position type:
//! - **subtract**: take 1..=`max_take`; whoever takes the last stick loses
//!   (misère, the default) or wins;
//! - **double** (Fibonacci nim): the first move takes 1..N−1, every later move
//!   at most twice the opponent's last take; the last stick wins.
//!
//! The position stores the most sticks that may be taken now (`limit`), which
//! is all the double rule needs to remember of the past.

use super::{BoardView, BuiltIn, Game, GameSpec, MoveError, Outcome, Side};
use serde::{Deserialize, Serialize};

/// Which take rule is in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TakeRule {
    /// Take 1..=`max_take`; `last_loses` selects misère play.
    Subtract { max_take: u8, last_loses: bool },
    /// Fibonacci nim: first move 1..N−1, then up to twice the last take; last stick wins.
    Double,
}

/// The rule parameters of a matchsticks game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchsticksRules {
    /// Sticks on the heap at the start (1..=255; at least 2 for `Double`).
    pub sticks: u8,
    pub rule: TakeRule,
}

impl Default for MatchsticksRules {
    fn default() -> Self {
        MatchsticksRules {
            sticks: 21,
            rule: TakeRule::Subtract {
                max_take: 3,
                last_loses: true,
            },
        }
    }
}

impl std::fmt::Display for MatchsticksRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.rule {
            TakeRule::Subtract {
                max_take,
                last_loses,
            } => write!(
                f,
                "subtract, {} sticks, take 1-{}, last stick {}",
                self.sticks,
                max_take,
                if last_loses { "loses" } else { "wins" }
            ),
            TakeRule::Double => write!(
                f,
                "double, {} sticks, up to twice the last take, last stick wins",
                self.sticks
            ),
        }
    }
}

/// How a matchsticks genome indexes states (the rules are the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchsticksEncoder {
    /// The whole state: sticks left, and under the double rule also the most
    /// that may be taken now (the basic encoding).
    #[default]
    State,
    /// Sticks left only; a take above the current limit is repaired (or
    /// forfeits). Under the double rule this needs N+1 genes instead of
    /// (N+1)², and still allows perfect play.
    Sticks,
}

impl MatchsticksEncoder {
    pub fn name(self) -> &'static str {
        match self {
            MatchsticksEncoder::State => "state",
            MatchsticksEncoder::Sticks => "sticks",
        }
    }
}

/// A matchsticks game with its rules and the encoder its genomes use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matchsticks {
    pub rules: MatchsticksRules,
    pub encoder: MatchsticksEncoder,
}

/// Sticks left, the most that may be taken now, and the number of moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchsticksPosition {
    pub left: u8,
    pub limit: u8,
    pub ply: u16,
}

impl Matchsticks {
    /// Matchsticks with the state encoder.
    pub fn new(rules: MatchsticksRules) -> Self {
        Matchsticks {
            rules,
            encoder: MatchsticksEncoder::State,
        }
    }
}

impl BuiltIn for Matchsticks {
    fn spec(&self) -> GameSpec {
        GameSpec::Matchsticks(self.rules, self.encoder)
    }
}

impl Game for Matchsticks {
    type Position = MatchsticksPosition;
    type Move = u8;
    const MOVE_PROMPT: &'static str = "sticks to take (q to quit): ";

    fn start(&self) -> MatchsticksPosition {
        let n = self.rules.sticks;
        let limit = match self.rules.rule {
            TakeRule::Subtract { max_take, .. } => max_take.min(n),
            TakeRule::Double => n.saturating_sub(1),
        };
        MatchsticksPosition {
            left: n,
            limit,
            ply: 0,
        }
    }

    fn turn(&self, pos: &MatchsticksPosition) -> Side {
        Side::at_ply(pos.ply as u32)
    }

    fn outcome(&self, pos: &MatchsticksPosition) -> Option<Outcome> {
        if pos.left > 0 && pos.limit > 0 {
            return None;
        }
        // The side that just moved took the last stick (or, for a heap that
        // cannot be touched at all, nobody moved and the mover is stuck).
        let last_mover = self.turn(pos).other();
        let last_loses = match self.rules.rule {
            TakeRule::Subtract { last_loses, .. } => last_loses,
            TakeRule::Double => false,
        };
        if pos.left > 0 {
            // No legal take (a one-stick double game): the side to move loses.
            return Some(Outcome::Win(last_mover));
        }
        Some(Outcome::Win(if last_loses {
            last_mover.other()
        } else {
            last_mover
        }))
    }

    fn legal_moves(&self, pos: &MatchsticksPosition, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome(pos).is_none() {
            moves.extend(1..=pos.limit);
        }
    }

    fn is_legal(&self, pos: &MatchsticksPosition, take: u8) -> bool {
        take >= 1 && take <= pos.limit && pos.left > 0
    }

    fn play(&self, pos: &MatchsticksPosition, take: u8) -> MatchsticksPosition {
        let left = pos.left.saturating_sub(take);
        let limit = match self.rules.rule {
            TakeRule::Subtract { max_take, .. } => max_take.min(left),
            TakeRule::Double => take.saturating_mul(2).min(left),
        };
        MatchsticksPosition {
            left,
            limit,
            ply: pos.ply + 1,
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        match text.parse::<u8>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(MoveError::Syntax {
                expected: "a take is a whole number of sticks, at least 1",
            }),
        }
    }

    fn format_move(&self, take: u8) -> String {
        take.to_string()
    }

    fn notation_separator(&self) -> &'static str {
        ","
    }

    fn why_illegal(&self, pos: &MatchsticksPosition, take: u8) -> String {
        format!(
            "cannot take {take}: {} left, at most {} may be taken now",
            pos.left, pos.limit
        )
    }

    fn view(&self, pos: &MatchsticksPosition) -> BoardView {
        BoardView::Heap {
            sticks: pos.left.into(),
            most: pos.limit.min(pos.left).into(),
        }
    }

    fn render(&self, pos: &MatchsticksPosition) -> String {
        let sticks = "|".repeat(pos.left as usize);
        format!(
            "{sticks} ({} stick{} left; take 1-{})\n",
            pos.left,
            if pos.left == 1 { "" } else { "s" },
            pos.limit
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_is_comma_separated_takes() {
        let game = Matchsticks::new(MatchsticksRules::default());
        let pos = game.parse_position("3,1,2").unwrap();
        assert_eq!((pos.left, pos.ply), (15, 3));
        assert_eq!(game.parse_position("").unwrap(), game.start());
        let err = game.parse_position("3,4").unwrap_err();
        assert_eq!((err.number, err.text.as_str()), (2, "4"));
        let err = game.parse_position("2,x").unwrap_err();
        assert_eq!(err.number, 2);
    }

    #[test]
    fn double_limits_each_take_to_twice_the_last() {
        let game = Matchsticks::new(MatchsticksRules {
            sticks: 20,
            rule: TakeRule::Double,
        });
        assert_eq!(game.start().limit, 19);
        let pos = game.parse_position("3").unwrap();
        assert_eq!((pos.left, pos.limit), (17, 6));
        assert!(game.parse_position("3,7").is_err());
    }
}
