//! Connect-Four on 7 columns × 6 rows, as bitboards.
//!
//! The layout follows Pascal Pons' solver: each column takes 7 bits (6 rows
//! plus a sentinel), bit `7·col + row` with row 0 at the bottom.
//!
//! ```text
//!   .  .  .  .  .  .  .      sentinel row (always empty)
//!   5 12 19 26 33 40 47      top row
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42      bottom row
//! ```
//!
//! A position is two words: `current` (stones of the side to move) and `mask`
//! (all stones). Playing a column is three bit operations.

use super::{
    BoardView, Game, GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, KindOf, MoveError,
    NTuple, Notation, Outcome, Pair, Registered, Side, ValueGenome, plain_number,
};
use crate::games::OptionError;

/// Board width (columns).
pub const WIDTH: u32 = 7;
/// Board height (rows).
pub const HEIGHT: u32 = 6;
/// Bits per column in the bitboards: the rows plus a sentinel.
pub const STRIDE: u32 = HEIGHT + 1;
const H1: u32 = STRIDE;

/// How a Connect-Four vote table indexes its 12 windows (the rules are
/// the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Connect4Encoder {
    /// The 4×4 sub-grid code: 31 fillings per window column,
    /// 31^4 = 923,521 genes.
    #[default]
    Subgrid,
    /// `subgrid`, with a window and its left-right mirror sharing one gene
    /// (the gene's column read mirrored).
    Mirror,
}

impl Connect4Encoder {
    /// Every vote encoder, in the order `--encoder` lists them.
    pub(crate) const ALL: [Connect4Encoder; 2] =
        [Connect4Encoder::Subgrid, Connect4Encoder::Mirror];

    /// The encoder's name, as `--encoder` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Connect4Encoder::Subgrid => "subgrid",
            Connect4Encoder::Mirror => "mirror",
        }
    }

    /// Whether mirrored windows share a gene.
    pub(crate) fn mirror(self) -> bool {
        self == Connect4Encoder::Mirror
    }
}

/// Connect-Four's rules (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Connect4;

impl Connect4 {
    /// Connect-Four played by a vote table with the 4×4 sub-grid encoder.
    pub const SUBGRID: Pair<Connect4, Connect4Encoder> =
        Pair::new(Connect4, Connect4Encoder::Subgrid);

    /// The value genome's default shape: 70 tuples of 8 cells (the
    /// published Connect-Four setting, measured in the prototype).
    pub const NTUPLE: NTuple = NTuple {
        tuples: 70,
        length: 8,
    };

    /// Connect-Four played by a value genome of `shape`.
    pub const fn value_genome(shape: NTuple) -> Pair<Connect4, ValueGenome> {
        Pair::new(Connect4, ValueGenome::drawn(shape))
    }
}

/// Connect-Four with its genome kind as files store it: one tag per vote
/// encoder, then the value genome. Append only: the tags of the retired
/// `playable` encoders keep their places, so the others read as written.
#[derive(serde::Serialize, serde::Deserialize)]
pub enum Stored {
    Subgrid,
    RetiredPlayable,
    Mirror,
    RetiredPlayableMirror,
    NTuple(NTuple),
}

/// Why a genome of a retired encoder does not read.
const RETIRED_PLAYABLE: &str = "its Connect-Four encoder, `playable` (or `playable-mirror`), was an experiment that did not help (docs/experiments.md) and was retired in bebete 0.1 after commit 939d49a; that commit still reads and plays it";

impl GenomeKinds for Connect4 {
    type Votes = Connect4Encoder;
    type Values = ValueGenome;
    type Stored = Stored;

    fn store(game: &GenomeGame<Connect4>) -> Stored {
        match game.kind {
            Kind::Votes(Connect4Encoder::Subgrid) => Stored::Subgrid,
            Kind::Votes(Connect4Encoder::Mirror) => Stored::Mirror,
            Kind::Value(genome) => Stored::NTuple(genome.shape),
        }
    }

    fn load(stored: Stored) -> Result<GenomeGame<Connect4>, String> {
        let votes = |encoder| Ok(GenomeGame::votes(Connect4, encoder));
        match stored {
            Stored::Subgrid => votes(Connect4Encoder::Subgrid),
            Stored::Mirror => votes(Connect4Encoder::Mirror),
            Stored::RetiredPlayable | Stored::RetiredPlayableMirror => {
                Err(RETIRED_PLAYABLE.to_string())
            }
            Stored::NTuple(shape) => Ok(Connect4::value_genome(shape).registered()),
        }
    }
}

/// The vote table is Connect4's votes kind.
impl KindOf<Connect4> for Connect4Encoder {
    fn of(self) -> Kind<Connect4> {
        Kind::Votes(self)
    }
}

/// A Connect-Four position (Pons layout, see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Connect4Position {
    /// Stones of the side to move.
    pub(crate) current: u64,
    /// All stones.
    pub(crate) mask: u64,
    /// Moves played so far.
    pub moves: u8,
}

/// The mark of one cell: `X` (first player), `O` or `.`.
fn mark(x: u64, o: u64, bit: u64) -> char {
    if x & bit != 0 {
        'X'
    } else if o & bit != 0 {
        'O'
    } else {
        '.'
    }
}

impl Connect4 {
    /// The stones of X (who moved first) and of O, whoever is to move now.
    fn stones_by_mark(&self, pos: &Connect4Position) -> (u64, u64) {
        match self.turn(pos) {
            Side::First => (pos.current, pos.opponent()),
            Side::Second => (pos.opponent(), pos.current),
        }
    }
}

/// The bottom cell of `col`.
pub const fn bottom_mask(col: u32) -> u64 {
    1 << (col * H1)
}

/// The top cell of `col`.
pub(crate) const fn top_mask(col: u32) -> u64 {
    1 << (HEIGHT - 1 + col * H1)
}

/// Whether `stones` contain four in a row (any direction).
pub fn has_four(stones: u64) -> bool {
    // horizontal, diagonal (/), diagonal (\), vertical
    [H1, H1 + 1, H1 - 1, 1].iter().any(|&shift| {
        let pairs = stones & (stones >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

/// The cells of every four in a row among `stones`.
pub(crate) fn fours(stones: u64) -> u64 {
    [H1, H1 + 1, H1 - 1, 1]
        .iter()
        .map(|&shift| {
            let pairs = stones & (stones >> shift);
            let starts = pairs & (pairs >> (2 * shift));
            starts | starts << shift | starts << (2 * shift) | starts << (3 * shift)
        })
        .fold(0, |all, cells| all | cells)
}

impl Connect4Position {
    /// Stones of the side that just moved (the opponent of the side to move).
    pub(crate) fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Whether a stone can still be dropped into `col`.
    pub(crate) fn can_play(&self, col: u32) -> bool {
        self.mask & top_mask(col) == 0
    }

    /// How many stones `col` holds.
    pub(crate) fn height(&self, col: u32) -> u32 {
        ((self.mask >> (col * H1)) & 0x3f).count_ones()
    }
}

impl Registered for GenomeGame<Connect4> {
    const NAME: &'static str = "connect4";
    const TITLE: &'static str = "Connect-Four";
    const ALIASES: &'static [&'static str] = &["c4"];
    fn variants() -> Vec<Self> {
        let mut games: Vec<Self> = Connect4Encoder::ALL
            .map(|encoder| GenomeGame::votes(Connect4, encoder))
            .to_vec();
        games.push(
            Connect4::value_genome(NTuple {
                tuples: 8,
                length: 6,
            })
            .registered(),
        );
        games
    }

    fn from_options(options: &GameOptions) -> Result<Self, OptionError> {
        let default = if options.recommended {
            "ntuple"
        } else {
            "subgrid"
        };
        let name = options.encoder.as_deref().unwrap_or(default);
        if name == "ntuple" {
            return Ok(
                Connect4::value_genome(options.value_shape(Connect4::NTUPLE, 42)?).registered(),
            );
        }
        match Connect4Encoder::ALL.into_iter().find(|e| e.name() == name) {
            Some(encoder) => Ok(GenomeGame::votes(Connect4, encoder)),
            None => {
                Err(options.unknown_encoder(Self::NAME, &["subgrid", "mirror", "ntuple"], default))
            }
        }
    }

    fn encoder_name(&self) -> &'static str {
        self.encoder().map_or("ntuple", Connect4Encoder::name)
    }

    fn describe(&self) -> String {
        match self.kind {
            Kind::Votes(Connect4Encoder::Subgrid) => Self::NAME.to_string(),
            Kind::Votes(e) => format!("connect4 ({} encoder)", e.name()),
            Kind::Value(genome) => format!("connect4 (value genome, {} tuples)", genome.shape),
        }
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        match self.value_genome() {
            Some(shape) => shape.check(42).map_err(InvalidRules::from),
            None => Ok(()),
        }
    }

    fn value_genome(&self) -> Option<NTuple> {
        self.value_kind().map(|genome| genome.shape)
    }
}

impl Game for Connect4 {
    type Position = Connect4Position;
    type Move = u8;
    const DEFAULT_OPENINGS: u32 = 2;

    fn start(&self) -> Connect4Position {
        Connect4Position::default()
    }

    fn turn(&self, pos: &Connect4Position) -> Side {
        Side::at_ply(pos.moves as u32)
    }

    fn outcome(&self, pos: &Connect4Position) -> Option<Outcome> {
        if has_four(pos.opponent()) {
            Some(Outcome::Win(self.turn(pos).other()))
        } else if pos.moves as u32 == WIDTH * HEIGHT {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn legal_moves(&self, pos: &Connect4Position, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome(pos).is_none() {
            moves.extend((0..WIDTH as u8).filter(|&c| pos.can_play(c as u32)));
        }
    }

    fn is_legal(&self, pos: &Connect4Position, col: u8) -> bool {
        (col as u32) < WIDTH && pos.can_play(col as u32) && self.outcome(pos).is_none()
    }

    fn play(&self, pos: &Connect4Position, col: u8) -> Connect4Position {
        let col = col as u32 % WIDTH;
        let current = pos.current ^ pos.mask;
        let mask = pos.mask | (pos.mask + bottom_mask(col));
        Connect4Position {
            current,
            mask,
            moves: pos.moves + 1,
        }
    }
}

impl Notation for Connect4 {
    const MOVE_PROMPT: &'static str = "your move (column 1-7, q to quit): ";

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        match plain_number(text) {
            Some(n @ 1..=7) => Ok(n as u8 - 1),
            _ => Err(MoveError::Syntax {
                expected: "a column is a digit 1–7",
            }),
        }
    }

    fn format_move(&self, col: u8) -> String {
        (col + 1).to_string()
    }

    fn notation_separator(&self) -> &'static str {
        ""
    }

    fn why_illegal(&self, _pos: &Connect4Position, col: u8) -> String {
        format!("column {} is full", col + 1)
    }

    fn render(&self, pos: &Connect4Position) -> String {
        self.render_play(pos, None)
    }

    /// The board with `>` before the stone just played in column `last`
    /// and `*` before each stone of a winning four.
    fn view(&self, pos: &Connect4Position) -> BoardView {
        let (x, o) = self.stones_by_mark(pos);
        let won = fours(pos.opponent());
        let mut cells = String::new();
        let mut winning = Vec::new();
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let bit = 1u64 << (col * H1 + row);
                if won & bit != 0 {
                    winning.push((HEIGHT - 1 - row) * WIDTH + col);
                }
                cells.push(mark(x, o, bit));
            }
        }
        BoardView::Grid {
            rows: HEIGHT,
            columns: WIDTH,
            cells,
            winning,
        }
    }

    fn render_play(&self, pos: &Connect4Position, last: Option<u8>) -> String {
        let (x, o) = self.stones_by_mark(pos);
        // The top stone of the last move's column.
        let last_bit = last
            .map(|c| pos.mask & (((1u64 << HEIGHT) - 1) << (c as u32 * H1)))
            .filter(|&stones| stones != 0)
            .map_or(0, |stones| 1u64 << (63 - stones.leading_zeros()));
        let won = fours(pos.opponent());
        let mut out = String::new();
        for row in (0..HEIGHT).rev() {
            out.push('|');
            for col in 0..WIDTH {
                let bit = 1u64 << (col * H1 + row);
                out.push(if won & bit != 0 {
                    '*'
                } else if last_bit & bit != 0 {
                    '>'
                } else {
                    ' '
                });
                out.push(mark(x, o, bit));
            }
            out.push_str(" |\n");
        }
        out.push_str("  1 2 3 4 5 6 7\n");
        if won != 0 {
            out.push_str("  (* the winning four)\n");
        } else if last_bit != 0 {
            out.push_str("  (> the last move)\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_marks_the_last_move_and_the_winning_four() {
        let game = Connect4::SUBGRID;
        let pos = game.parse_position("4453").unwrap();
        let board = game.render_play(&pos, Some(2));
        let marks: usize = board
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(|l| l.matches('>').count())
            .sum();
        assert_eq!(marks, 1, "{board}");
        assert!(board.contains("| . .>O X X . . |"), "{board}");
        assert_eq!(board, game.render_play(&pos, Some(2)));
        assert!(!game.render(&pos).contains('>'));
        // X completes column 1 from the bottom: four stars, no arrow.
        let won = game.parse_position("1212121").unwrap();
        let board = game.render_play(&won, Some(0));
        assert_eq!(board.matches("*X").count(), 4, "{board}");
        assert!(board.contains("(* the winning four)"), "{board}");
        assert_eq!(fours(won.opponent()).count_ones(), 4);
    }

    #[test]
    fn wins_are_seen_in_every_direction() {
        let game = Connect4::SUBGRID;
        for line in ["1212121", "1122334", "12233434474", "76655454414"] {
            let before = game.parse_position(&line[..line.len() - 1]).unwrap();
            assert_eq!(game.outcome(&before), None, "{line}");
            let after = game.parse_position(line).unwrap();
            assert_eq!(
                game.outcome(&after),
                Some(Outcome::Win(Side::First)),
                "{line}"
            );
        }
        let err = game.parse_position("12121214").unwrap_err();
        assert_eq!(err.number, 8);
        assert_eq!(err.reason, MoveError::GameOver, "{err}");
    }

    #[test]
    fn a_full_column_is_refused_by_name() {
        let err = Connect4::SUBGRID.parse_position("4444444").unwrap_err();
        assert_eq!(err.number, 7);
        let err = Connect4::SUBGRID.parse_position("48").unwrap_err();
        assert_eq!((err.number, err.text.as_str()), (2, "8"));
    }
}
