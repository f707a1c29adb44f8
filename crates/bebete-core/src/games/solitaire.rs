//! Triangular peg solitaire: the engine's one-player game.
//!
//! A triangle of `rows` rows (4–7; row r holds r holes), holes numbered 1..
//! row-major from the top. Every hole holds a peg except one (`empty`). A
//! move jumps a peg over an adjacent peg — along a row or either diagonal —
//! into the empty hole two steps away, and removes the jumped peg. The game
//! ends when no jump is left; the fewer pegs remain, the better (1 is
//! perfect).
//!
//! Holes as coordinates: hole (r, c), 0 ≤ c ≤ r, is number r(r+1)/2 + c + 1.
//! Its six neighbours are (r, c±1), (r−1, c−1), (r−1, c), (r+1, c) and
//! (r+1, c+1). A position is the set of pegs as a bit mask (hole k is bit
//! k−1, the genome's index as the issue fixes it); a move is the index of
//! a jump in the board's fixed list of every jump, sorted by (from, to).
//!
//! The two-player vocabulary maps as follows: the player is always
//! [`Side::First`] to move; a finished game with one peg is a win for it,
//! with more pegs a win for the board (`Side::Second`). Code that needs
//! more (the pegs left) asks the position.

use super::{
    BoardView, Game, GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, KindOf, MoveError,
    NoGenome, Notation, Outcome, Pair, Registered, Side, plain_number,
};
use crate::games::{OptionError, RuleObject};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Fewest and most rows.
pub const MIN_ROWS: u8 = 4;
/// The most rows a board has.
pub const MAX_ROWS: u8 = 7;

/// The board: its size and the hole left empty at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SolitaireRules {
    /// Rows of the triangle, 4–7.
    pub rows: u8,
    /// The hole empty at the start, 1-based.
    pub(crate) empty: u8,
}

impl Default for SolitaireRules {
    fn default() -> Self {
        SolitaireRules { rows: 5, empty: 1 }
    }
}

impl SolitaireRules {
    /// Holes on the board: rows·(rows+1)/2.
    pub(crate) fn holes(&self) -> u32 {
        let r = self.rows as u32;
        r * (r + 1) / 2
    }

    /// Whether the rules are in range; says which part is not.
    pub(crate) fn check(&self) -> Result<(), SolitaireRulesError> {
        if !(MIN_ROWS..=MAX_ROWS).contains(&self.rows) {
            return Err(SolitaireRulesError::Rows(self.rows));
        }
        if self.empty == 0 || self.empty as u32 > self.holes() {
            return Err(SolitaireRulesError::Empty {
                empty: self.empty,
                holes: self.holes(),
                rows: self.rows,
            });
        }
        Ok(())
    }
}

/// Peg-solitaire rules out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SolitaireRulesError {
    /// Not 4 to 7 rows.
    #[error("solitaire with {0} rows (4-7)")]
    Rows(u8),
    /// An empty hole that is not on the board.
    #[error("solitaire empty hole {empty} (1-{holes} on {rows} rows)")]
    /// The empty hole is not on the board.
    Empty {
        /// The hole asked for.
        empty: u8,
        /// Holes on the board.
        holes: u32,
        /// Rows of the board.
        rows: u8,
    },
}

impl From<SolitaireRulesError> for OptionError {
    fn from(e: SolitaireRulesError) -> OptionError {
        let (option, value) = match e {
            SolitaireRulesError::Rows(rows) => ("rows", rows),
            SolitaireRulesError::Empty { empty, .. } => ("empty", empty),
        };
        OptionError::valued(option, value.to_string(), e.to_string())
    }
}

impl std::fmt::Display for SolitaireRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} rows, {} holes, hole {} empty",
            self.rows,
            self.holes(),
            self.empty
        )
    }
}

/// One jump of the board: 0-based holes and their bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    pub(crate) from: u8,
    pub(crate) over: u8,
    pub(crate) to: u8,
}

impl Jump {
    /// Whether the jump can be made with `pegs`.
    pub(crate) fn fits(&self, pegs: u32) -> bool {
        pegs & (1 << self.from) != 0 && pegs & (1 << self.over) != 0 && pegs & (1 << self.to) == 0
    }

    /// The pegs after the jump.
    pub(crate) fn apply(&self, pegs: u32) -> u32 {
        (pegs & !(1 << self.from) & !(1 << self.over)) | (1 << self.to)
    }
}

/// Hole number (0-based) of row r, place c.
fn hole(r: i32, c: i32) -> u8 {
    (r * (r + 1) / 2 + c) as u8
}

/// Every jump of a board of `rows` rows, sorted by (from, to), built once.
pub fn jumps(rows: u8) -> &'static [Jump] {
    static TABLES: [OnceLock<Vec<Jump>>; (MAX_ROWS + 1) as usize] =
        [const { OnceLock::new() }; (MAX_ROWS + 1) as usize];
    let rows = rows.clamp(MIN_ROWS, MAX_ROWS);
    TABLES[rows as usize].get_or_init(|| {
        let n = rows as i32;
        let inside = |r: i32, c: i32| r >= 0 && r < n && c >= 0 && c <= r;
        let mut list = Vec::new();
        for r in 0..n {
            for c in 0..=r {
                for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)] {
                    let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                    if inside(r2, c2) {
                        list.push(Jump {
                            from: hole(r, c),
                            over: hole(r + dr, c + dc),
                            to: hole(r2, c2),
                        });
                    }
                }
            }
        }
        list.sort_by_key(|j| (j.from, j.to));
        list
    })
}

/// Triangular peg solitaire: its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solitaire {
    /// The board and the hole empty at the start.
    pub rules: SolitaireRules,
}

/// The solitaire genome's one encoder, `bits`: the pegs as a bit mask
/// pick the gene, which names a jump.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PegBits;

/// Files store solitaire as its rules alone (its genome has one kind
/// and one encoder).
impl GenomeKinds for Solitaire {
    type Votes = PegBits;
    type Values = NoGenome;
    type Stored = SolitaireRules;

    fn store(game: &GenomeGame<Solitaire>) -> SolitaireRules {
        game.rules.rules
    }

    fn load(rules: SolitaireRules) -> Result<GenomeGame<Solitaire>, String> {
        Ok(Solitaire::bits(rules).registered())
    }
}

/// The vote table is Solitaire's votes kind.
impl KindOf<Solitaire> for PegBits {
    fn of(self) -> Kind<Solitaire> {
        Kind::Votes(self)
    }
}

/// The pegs on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SolitairePosition {
    /// Bit k−1 is hole k.
    pub(crate) pegs: u32,
}

impl SolitairePosition {
    /// Pegs on the board.
    pub(crate) fn pegs_left(&self) -> u32 {
        self.pegs.count_ones()
    }
}

impl Solitaire {
    /// The default board: 5 rows, hole 1 empty.
    pub const FIVE_ROWS: Solitaire = Solitaire {
        rules: SolitaireRules { rows: 5, empty: 1 },
    };

    /// The game under `rules`.
    pub const fn new(rules: SolitaireRules) -> Solitaire {
        Solitaire { rules }
    }

    /// Solitaire under `rules`, played by its genome (the pegs as bits).
    pub const fn bits(rules: SolitaireRules) -> Pair<Solitaire, PegBits> {
        Pair::new(Solitaire { rules }, PegBits)
    }

    /// The board's jumps (a move is an index into this list).
    pub fn jumps(&self) -> &'static [Jump] {
        jumps(self.rules.rows)
    }

    /// Holes on the board.
    pub(crate) fn holes(&self) -> u32 {
        self.rules.holes()
    }

    /// Whether any jump is left.
    pub(crate) fn has_jump(&self, pegs: u32) -> bool {
        self.jumps().iter().any(|j| j.fits(pegs))
    }
}

impl Registered for GenomeGame<Solitaire> {
    const NAME: &'static str = "solitaire";
    const TITLE: &'static str = "Peg solitaire";
    const ALIASES: &'static [&'static str] = &["peg"];
    /// The default board and the smallest.
    fn variants() -> Vec<Self> {
        vec![
            Solitaire::bits(SolitaireRules::default()).registered(),
            Solitaire::bits(SolitaireRules { rows: 4, empty: 2 }).registered(),
        ]
    }

    fn from_options(options: &GameOptions) -> Result<Self, OptionError> {
        if let Some(name) = options.encoder.as_deref().filter(|&n| n != "bits") {
            return Err(OptionError::valued(
                "encoder",
                name,
                "solitaire has one encoder, bits (the pegs as a bit mask)",
            ));
        }
        let defaults = SolitaireRules::default();
        let rules = SolitaireRules {
            rows: options.rows.unwrap_or(defaults.rows),
            empty: options.empty.unwrap_or(defaults.empty),
        };
        rules.check()?;
        Ok(Solitaire::bits(rules).registered())
    }

    fn rule_options(&self, options: &mut GameOptions) {
        options.rows = Some(self.rules.rules.rows);
        options.empty = Some(self.rules.rules.empty);
    }

    fn rules_json(&self) -> serde_json::Value {
        serde_json::json!({"rows": self.rules.rules.rows, "empty": self.rules.rules.empty})
    }

    fn rules_options(rules: &serde_json::Value) -> Result<GameOptions, OptionError> {
        let read = RuleObject::read(rules, Self::NAME, &["rows", "empty"])?;
        Ok(GameOptions {
            rows: read.byte("rows")?,
            empty: read.byte("empty")?,
            ..GameOptions::default()
        })
    }

    fn rule_options_given(options: &GameOptions) -> Option<&'static [&'static str]> {
        (options.rows.is_some() || options.empty.is_some()).then_some(&["rows", "empty"])
    }

    fn encoder_name(&self) -> &'static str {
        "bits"
    }

    fn describe(&self) -> String {
        format!("solitaire ({})", self.rules.rules)
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        self.rules
            .rules
            .check()
            .map_err(|e| InvalidRules(e.to_string()))
    }
}

impl Game for Solitaire {
    type Position = SolitairePosition;
    type Move = u8;
    const PLAYERS: u8 = 1;

    fn start(&self) -> SolitairePosition {
        let all = (1u32 << self.holes()) - 1;
        SolitairePosition {
            pegs: all & !(1 << (self.rules.empty.max(1) - 1)),
        }
    }

    fn turn(&self, _pos: &SolitairePosition) -> Side {
        Side::First
    }

    fn outcome(&self, pos: &SolitairePosition) -> Option<Outcome> {
        if self.has_jump(pos.pegs) {
            None
        } else if pos.pegs_left() == 1 {
            Some(Outcome::Win(Side::First))
        } else {
            Some(Outcome::Win(Side::Second))
        }
    }

    fn legal_moves(&self, pos: &SolitairePosition, moves: &mut Vec<u8>) {
        moves.clear();
        moves.extend(
            self.jumps()
                .iter()
                .enumerate()
                .filter(|(_, j)| j.fits(pos.pegs))
                .map(|(i, _)| i as u8),
        );
    }

    fn is_legal(&self, pos: &SolitairePosition, mv: u8) -> bool {
        self.jumps()
            .get(mv as usize)
            .is_some_and(|j| j.fits(pos.pegs))
    }

    fn play(&self, pos: &SolitairePosition, mv: u8) -> SolitairePosition {
        match self.jumps().get(mv as usize) {
            Some(j) => SolitairePosition {
                pegs: j.apply(pos.pegs),
            },
            None => *pos,
        }
    }

    fn pieces_left(&self, pos: &SolitairePosition) -> u32 {
        pos.pegs_left()
    }
}

impl Notation for Solitaire {
    const MOVE_PROMPT: &'static str = "your jump (from-to, e.g. 4-1; ? asks bebete, q quits): ";

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        const EXPECTED: &str = "a jump is written from-to with hole numbers, e.g. 4-1";
        let (from, to) = text
            .split_once('-')
            .ok_or(MoveError::Syntax { expected: EXPECTED })?;
        let hole = |t: &str| -> Result<u8, MoveError> {
            match plain_number(t.trim()) {
                Some(n) if n >= 1 && n <= self.holes() => Ok((n - 1) as u8),
                Some(n) => Err(MoveError::Illegal(format!(
                    "there is no hole {n} (holes 1-{})",
                    self.holes()
                ))),
                None => Err(MoveError::Syntax { expected: EXPECTED }),
            }
        };
        let (from, to) = (hole(from)?, hole(to)?);
        self.jumps()
            .iter()
            .position(|j| j.from == from && j.to == to)
            .map(|i| i as u8)
            .ok_or_else(|| {
                MoveError::Illegal(format!(
                    "{}-{} is not a jump: the holes must be two apart in a row or a diagonal",
                    from + 1,
                    to + 1
                ))
            })
    }

    fn format_move(&self, mv: u8) -> String {
        match self.jumps().get(mv as usize) {
            Some(j) => format!("{}-{}", j.from + 1, j.to + 1),
            None => format!("jump#{mv}"),
        }
    }

    fn notation_separator(&self) -> &'static str {
        ","
    }

    fn why_illegal(&self, pos: &SolitairePosition, mv: u8) -> String {
        let Some(j) = self.jumps().get(mv as usize) else {
            return format!("{} is not a jump of this board", self.format_move(mv));
        };
        if pos.pegs & (1 << j.from) == 0 {
            format!("hole {} has no peg to jump", j.from + 1)
        } else if pos.pegs & (1 << j.over) == 0 {
            format!("hole {} has no peg to jump over", j.over + 1)
        } else {
            format!("hole {} is not empty", j.to + 1)
        }
    }

    fn view(&self, pos: &SolitairePosition) -> BoardView {
        BoardView::Triangle {
            rows: self.rules.rows.into(),
            pegs: (0..self.holes())
                .map(|k| if pos.pegs & (1 << k) != 0 { 'o' } else { '.' })
                .collect(),
        }
    }

    fn render(&self, pos: &SolitairePosition) -> String {
        // The pegs (o) and the hole numbers, side by side, as triangles.
        let rows = self.rules.rows as usize;
        let width = 4 * rows;
        let mut out = String::new();
        for r in 0..rows {
            let holes: Vec<u32> = (0..=r).map(|c| hole(r as i32, c as i32) as u32).collect();
            let pegs: Vec<String> = holes
                .iter()
                .map(|&k| if pos.pegs & (1 << k) != 0 { "o" } else { "." }.to_string())
                .collect();
            let numbers: Vec<String> = holes.iter().map(|k| format!("{:>2}", k + 1)).collect();
            let left = format!("{}{}", " ".repeat(rows - 1 - r), pegs.join(" "));
            let right = format!("{}{}", "  ".repeat(rows - 1 - r), numbers.join("  "));
            out.push_str(&format!(
                "{left:<width$}{right}\n",
                width = width.max(2 * rows)
            ));
        }
        out.push_str(&format!(
            "{} peg{} left\n",
            pos.pegs_left(),
            if pos.pegs_left() == 1 { "" } else { "s" }
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_the_published_number_of_jumps() {
        // A triangle of n rows has 3·(n−1)(n−2) jumps: 18 for 4 rows,
        // 36 for 5, 60 for 6, 90 for 7.
        for (rows, count) in [(4, 18), (5, 36), (6, 60), (7, 90)] {
            assert_eq!(jumps(rows).len(), count, "{rows} rows");
        }
    }

    #[test]
    fn the_opening_jumps_into_the_corner() {
        let game = Solitaire::FIVE_ROWS;
        let start = game.start();
        assert_eq!(start.pegs_left(), 14);
        let mut moves = Vec::new();
        game.legal_moves(&start, &mut moves);
        let names: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
        assert_eq!(names, ["4-1", "6-1"]);
        let pos = game.parse_position("4-1,6-4").unwrap();
        assert_eq!(pos.pegs_left(), 12);
        assert!(pos.pegs & 1 != 0 && pos.pegs & (1 << 3) != 0 && pos.pegs & (1 << 5) == 0);
    }

    #[test]
    fn bad_jumps_are_named() {
        let game = Solitaire::FIVE_ROWS;
        let err = game.parse_position("4-1,4-1").unwrap_err().to_string();
        assert!(
            err.contains("move 2 ('4-1'): hole 4 has no peg to jump"),
            "{err}"
        );
        let err = game.parse_position("4-2").unwrap_err().to_string();
        assert!(err.contains("4-2 is not a jump"), "{err}");
        let err = game.parse_position("16-1").unwrap_err().to_string();
        assert!(err.contains("no hole 16"), "{err}");
        let err = game.parse_position("41").unwrap_err().to_string();
        assert!(err.contains("from-to"), "{err}");
    }

    /// A jump sequence from `pos` that ends with one peg, by depth-first
    /// search.
    fn solution(game: &Solitaire, pos: SolitairePosition, line: &mut Vec<u8>) -> bool {
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            return pos.pegs_left() == 1;
        }
        for m in moves {
            line.push(m);
            if solution(game, game.play(&pos, m), line) {
                return true;
            }
            line.pop();
        }
        false
    }

    #[test]
    fn a_game_ends_when_no_jump_is_left() {
        let game = Solitaire::FIVE_ROWS;
        let mut line = Vec::new();
        assert!(solution(&game, game.start(), &mut line));
        assert_eq!(line.len(), 13);
        // Written in the notation and read back, it ends with one peg: a
        // win; a board with no jump and more pegs is the board's win.
        let text = game.format_line(&line);
        let pos = game.parse_position(&text).unwrap();
        assert_eq!(pos.pegs_left(), 1);
        assert_eq!(game.outcome(&pos), Some(Outcome::Win(Side::First)));
        let stuck = SolitairePosition {
            pegs: 0b1_0000_0001,
        };
        assert_eq!(game.outcome(&stuck), Some(Outcome::Win(Side::Second)));
    }
}
