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

use super::{
    BoardView, Game, GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, KindOf, MoveError,
    NoGenome, Notation, Outcome, Pair, Registered, Side, plain_number,
};
use crate::games::{OptionError, RuleObject};
use serde::{Deserialize, Serialize};

/// Which take rule is in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TakeRule {
    /// Take 1..=`max_take`; `last_loses` selects misère play.
    /// Take 1 to `max_take` sticks.
    Subtract {
        /// The most sticks a move takes.
        max_take: u8,
        /// Who takes the last stick loses.
        last_loses: bool,
    },
    /// Fibonacci nim: first move 1..N−1, then up to twice the last take; last stick wins.
    Double,
}

/// The rule parameters of a matchsticks game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchsticksRules {
    /// Sticks on the heap at the start (1..=255; at least 2 for `Double`).
    pub(crate) sticks: u8,
    pub(crate) rule: TakeRule,
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
/// Stored by variant index: append only.
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
    /// The encoder's name, as `--encoder` takes it.
    pub fn name(self) -> &'static str {
        match self {
            MatchsticksEncoder::State => "state",
            MatchsticksEncoder::Sticks => "sticks",
        }
    }
}

/// The take rules by name, as `--rule` gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeRuleName {
    /// Take 1..=max-take sticks.
    Subtract,
    /// First move 1..N−1, then at most twice the opponent's last take.
    Double,
}

impl TakeRuleName {
    /// The name, as `--rule` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TakeRuleName::Subtract => "subtract",
            TakeRuleName::Double => "double",
        }
    }
}

/// A matchsticks game: its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Matchsticks {
    /// The rules played.
    pub rules: MatchsticksRules,
}

/// Sticks left, the most that may be taken now, and the number of moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchsticksPosition {
    pub(crate) left: u8,
    pub(crate) limit: u8,
    pub(crate) ply: u16,
}

impl Matchsticks {
    /// Matchsticks under `rules`.
    pub const fn new(rules: MatchsticksRules) -> Self {
        Matchsticks { rules }
    }

    /// Matchsticks under `rules`, played by a genome with the state
    /// encoder.
    pub const fn state(rules: MatchsticksRules) -> Pair<Matchsticks, MatchsticksEncoder> {
        Pair::new(Matchsticks { rules }, MatchsticksEncoder::State)
    }
}

/// Files store matchsticks as its rules and its genome's encoder (the only
/// kind it has: a vote table of takes).
impl GenomeKinds for Matchsticks {
    type Votes = MatchsticksEncoder;
    type Values = NoGenome;
    type Stored = (MatchsticksRules, MatchsticksEncoder);

    fn store(game: &GenomeGame<Matchsticks>) -> Self::Stored {
        match game.kind {
            Kind::Votes(encoder) => (game.rules.rules, encoder),
            Kind::Value(none) => match none {},
        }
    }

    fn load((rules, encoder): Self::Stored) -> Result<GenomeGame<Matchsticks>, String> {
        Ok(GenomeGame::votes(Matchsticks { rules }, encoder))
    }
}

/// The vote table is Matchsticks's votes kind.
impl KindOf<Matchsticks> for MatchsticksEncoder {
    fn of(self) -> Kind<Matchsticks> {
        Kind::Votes(self)
    }
}

impl Registered for GenomeGame<Matchsticks> {
    const NAME: &'static str = "matchsticks";
    const TITLE: &'static str = "Matchsticks";
    const ALIASES: &'static [&'static str] = &["nim"];
    /// The default rules, and Fibonacci nim under both encoders.
    fn variants() -> Vec<Self> {
        let double = MatchsticksRules {
            sticks: 30,
            rule: TakeRule::Double,
        };
        vec![
            Matchsticks::state(MatchsticksRules::default()).registered(),
            Matchsticks::state(double).registered(),
            GenomeGame::votes(Matchsticks::new(double), MatchsticksEncoder::Sticks),
        ]
    }

    fn from_options(options: &GameOptions) -> Result<Self, OptionError> {
        let double = options.rule == Some(TakeRuleName::Double);
        let default = if options.recommended && double {
            "sticks"
        } else {
            "state"
        };
        let encoder = match options.encoder.as_deref().unwrap_or(default) {
            "state" => MatchsticksEncoder::State,
            "sticks" => MatchsticksEncoder::Sticks,
            _ => {
                return Err(options.unknown_encoder(Self::NAME, &["state", "sticks"], default));
            }
        };
        let defaults = MatchsticksRules::default();
        let sticks = options.sticks.unwrap_or(defaults.sticks);
        let rule = if double {
            if options.max_take.is_some() || options.last_loses || options.last_wins {
                return Err(OptionError::only_where(
                    &["max_take", "last_loses", "last_wins"],
                    "rule",
                    "subtract",
                    None,
                    Some("double: last stick wins, takes limited by the last take"),
                ));
            }
            if sticks < 2 {
                return Err(OptionError::valued(
                    "sticks",
                    sticks.to_string(),
                    "2-255 under the double rule",
                ));
            }
            TakeRule::Double
        } else {
            TakeRule::Subtract {
                max_take: options.max_take.unwrap_or(3),
                last_loses: !options.last_wins,
            }
        };
        Ok(GenomeGame::votes(
            Matchsticks::new(MatchsticksRules { sticks, rule }),
            encoder,
        ))
    }

    fn rule_options(&self, options: &mut GameOptions) {
        options.sticks = Some(self.rules.rules.sticks);
        match self.rules.rules.rule {
            TakeRule::Subtract {
                max_take,
                last_loses,
            } => {
                options.rule = Some(TakeRuleName::Subtract);
                options.max_take = Some(max_take);
                options.last_loses = last_loses;
                options.last_wins = !last_loses;
            }
            TakeRule::Double => options.rule = Some(TakeRuleName::Double),
        }
    }

    fn rules_json(&self) -> serde_json::Value {
        let sticks = self.rules.rules.sticks;
        match self.rules.rules.rule {
            TakeRule::Subtract {
                max_take,
                last_loses,
            } => serde_json::json!({
                "rule": "subtract", "sticks": sticks, "max_take": max_take, "last_loses": last_loses
            }),
            TakeRule::Double => serde_json::json!({"rule": "double", "sticks": sticks}),
        }
    }

    fn rules_options(rules: &serde_json::Value) -> Result<GameOptions, OptionError> {
        let read = RuleObject::read(
            rules,
            Self::NAME,
            &["rule", "sticks", "max_take", "last_loses"],
        )?;
        const RULES: [TakeRuleName; 2] = [TakeRuleName::Subtract, TakeRuleName::Double];
        let last_loses = read.boolean("last_loses")?;
        Ok(GameOptions {
            rule: read
                .choice("rule", &RULES.map(TakeRuleName::name))?
                .map(|i| RULES[i]),
            sticks: read.byte("sticks")?,
            max_take: read.byte("max_take")?,
            last_loses: last_loses == Some(true),
            last_wins: last_loses == Some(false),
            ..GameOptions::default()
        })
    }

    fn rule_options_given(options: &GameOptions) -> Option<&'static [&'static str]> {
        let given = options.rule.is_some()
            || options.sticks.is_some()
            || options.max_take.is_some()
            || options.last_loses
            || options.last_wins;
        given.then_some(&["rule", "sticks", "max_take", "last_loses", "last_wins"])
    }

    fn encoder_name(&self) -> &'static str {
        match self.kind {
            Kind::Votes(encoder) => encoder.name(),
            Kind::Value(none) => match none {},
        }
    }

    fn describe(&self) -> String {
        match self.kind {
            Kind::Votes(MatchsticksEncoder::State) => format!("matchsticks ({})", self.rules.rules),
            Kind::Votes(MatchsticksEncoder::Sticks) => {
                format!("matchsticks ({}; sticks encoder)", self.rules.rules)
            }
            Kind::Value(none) => match none {},
        }
    }

    /// Sticks ≥ 1 (≥ 2 for double) and max-take ≥ 1.
    fn validate(&self) -> Result<(), InvalidRules> {
        let rules = self.rules.rules;
        let least = if rules.rule == TakeRule::Double { 2 } else { 1 };
        if rules.sticks < least {
            return Err(InvalidRules(format!(
                "matchsticks with {} sticks (at least {least})",
                rules.sticks
            )));
        }
        if let TakeRule::Subtract { max_take: 0, .. } = rules.rule {
            return Err(InvalidRules("matchsticks with a max-take of 0".to_string()));
        }
        Ok(())
    }
}

impl Game for Matchsticks {
    type Position = MatchsticksPosition;
    type Move = u8;

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
}

impl Notation for Matchsticks {
    const MOVE_PROMPT: &'static str = "sticks to take (q to quit): ";

    const SIDE_NAMES: [&'static str; 2] = ["player 1", "player 2"];

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match plain_number(text).and_then(|n| u8::try_from(n).ok()) {
            Some(n) if n >= 1 => Ok(n),
            // A whole number, only too large for any heap.
            _ if digits && text.trim_start_matches('0').len() >= 3 => Err(MoveError::Syntax {
                expected: "a take is at most 255 sticks (no heap is larger)",
            }),
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
        let most = pos.limit.min(pos.left);
        let take = match most {
            0 => String::new(),
            1 => "; take 1".to_string(),
            _ => format!("; take 1-{most}"),
        };
        match pos.left {
            0 => "(no sticks left)\n".to_string(),
            1 => format!("{sticks} (1 stick left{take})\n"),
            n => format!("{sticks} ({n} sticks left{take})\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_take_too_large_for_any_heap_says_so() {
        use super::*;
        let game = Matchsticks::new(MatchsticksRules::default());
        for text in ["256", "300", "99999999999999999999999999"] {
            let err = game.parse_move(text).unwrap_err().to_string();
            assert!(err.contains("at most 255 sticks"), "{text}: {err}");
        }
        for text in ["0", "-1", "x"] {
            let err = game.parse_move(text).unwrap_err().to_string();
            assert!(err.contains("at least 1"), "{text}: {err}");
        }
        assert_eq!(game.parse_move("255"), Ok(255));
    }

    /// The terminal's line says only the takes allowed: none once the
    /// heap is empty, one stick as "take 1".
    #[test]
    fn the_heap_line_says_the_takes_allowed() {
        use super::*;
        let game = Matchsticks::new(MatchsticksRules::default());
        let mut pos = game.start();
        assert!(
            game.render(&pos).ends_with("(21 sticks left; take 1-3)\n"),
            "{}",
            game.render(&pos)
        );
        while pos.left > 1 {
            pos = game.play(&pos, 1);
        }
        assert_eq!(game.render(&pos), "| (1 stick left; take 1)\n");
        pos = game.play(&pos, 1);
        assert_eq!(game.render(&pos), "(no sticks left)\n");
    }

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
