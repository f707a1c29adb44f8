//! Othello (reversi) on 8×8, on bitboards: the rules and the notation.
//!
//! The usual four-disc start (White on d4 and e5, Black on d5 and e4),
//! Black moves first. A move puts a disc on an empty square from which, in
//! at least one of the eight directions, a line of the opponent's discs
//! ends on one of the mover's; every such line is flipped. A side with no
//! such move passes (the move `pass`, which is then its only move); the
//! game ends when neither side can move, and the side with more discs wins
//! (equal counts draw). Empty squares left at the end go to nobody: results
//! are counted in discs, as the papers on Othello and evolution count them,
//! and only win, draw or loss matters here.
//!
//! Squares are written `a1`–`h8`: columns a–h from the left, rows 1–8 from
//! the top (Black's first moves are d3, c4, f5 and e6). A position is the
//! moves from the start, with or without separators (`f5 d6 c3`,
//! `f5d6c3`), or a board: 64 squares `X`, `O` or `.` from the top left
//! (`/` between rows allowed) and the side to move. Bit `8 × row + column`
//! of a board is its square, `a1` = bit 0.

mod ending;
mod notation;
mod registration;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use ending::ending_by_minimax;
use ending::ending_moves;
use notation::{cell, parse_board, square_name};
pub(crate) use registration::{pattern_tuples, straight_tuples, symmetric_square};

use super::{
    BoardView, Game, GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, MoveError, NTuple,
    NoGenome, Notation, NotationError, Outcome, Placement, Registered, Side, ValueGenome,
};

/// The move of a side that cannot put a disc anywhere.
pub const PASS: u8 = 64;
/// Squares on the board.
pub(super) const SQUARES: usize = 64;

/// Othello's rules: the standard board, no rule parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Othello;

/// The discs of each side and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloPosition {
    /// Black's discs, a bit per square.
    pub black: u64,
    /// White's discs, a bit per square.
    pub white: u64,
    /// [`Side::First`] is Black.
    pub to_move: Side,
}

impl OthelloPosition {
    /// The discs of the side to move and of the other side.
    pub fn sides(&self) -> (u64, u64) {
        match self.to_move {
            Side::First => (self.black, self.white),
            Side::Second => (self.white, self.black),
        }
    }

    /// The squares where the side to move may put a disc.
    pub fn moves(&self) -> u64 {
        let (me, them) = self.sides();
        moves_of(me, them)
    }

    /// Empty squares.
    pub fn empty(&self) -> u64 {
        !(self.black | self.white)
    }
}

/// Every column but a (a shift east must not wrap into it).
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every column but h.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The squares one step from `b` in direction `dir` (0–7: east, west,
/// south, north, south-east, south-west, north-east, north-west), none
/// leaving the board.
#[inline]
fn shift(b: u64, dir: usize) -> u64 {
    match dir {
        0 => (b << 1) & NOT_A,
        1 => (b >> 1) & NOT_H,
        2 => b << 8,
        3 => b >> 8,
        4 => (b << 9) & NOT_A,
        5 => (b << 7) & NOT_H,
        6 => (b >> 7) & NOT_A,
        _ => (b >> 9) & NOT_H,
    }
}

/// The squares where discs `me` may be put against `them`: empty squares
/// that end a line of `them` starting next to one of `me`.
#[inline]
pub(super) fn moves_of(me: u64, them: u64) -> u64 {
    let empty = !(me | them);
    let mut moves = 0;
    for dir in 0..8 {
        let mut line = shift(me, dir) & them;
        for _ in 0..5 {
            line |= shift(line, dir) & them;
        }
        moves |= shift(line, dir) & empty;
    }
    moves
}

/// The discs of `them` that a disc of `me` on `square` flips.
#[inline]
pub(super) fn flips(me: u64, them: u64, square: u8) -> u64 {
    let disc = 1u64 << square;
    let mut flipped = 0;
    for dir in 0..8 {
        let mut line = 0;
        let mut next = shift(disc, dir);
        while next & them != 0 {
            line |= next;
            next = shift(next, dir);
        }
        if next & me != 0 {
            flipped |= line;
        }
    }
    flipped
}

/// Move paths of `depth` plies from `pos` (a pass counts as a ply; a game
/// that ends sooner adds nothing), counted on the bitboards directly: the
/// last ply is the number of moves, not a walk. It equals the generic
/// walk's count. The published counts agree to depth 9; from depth 10 they
/// also let a finished game pass (24,571,284 and 212,258,800 at depths 10
/// and 11, against 24,571,056 and 212,258,216 here). Depth 11 takes 1.5 s
/// on one core of the 2-core development machine.
pub(super) fn perft_bitboards(pos: &OthelloPosition, depth: u32) -> u64 {
    let (me, them) = pos.sides();
    perft_sides(me, them, depth, false)
}

/// `perft_bitboards` for the side owning `me` to move; `passed`: the other
/// side just passed.
fn perft_sides(me: u64, them: u64, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = moves_of(me, them);
    if moves == 0 {
        // A pass, unless the other side cannot move either (the end).
        return if passed || moves_of(them, me) == 0 {
            0
        } else {
            perft_sides(them, me, depth - 1, true)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let square = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let flipped = flips(me, them, square);
        total += perft_sides(
            them & !flipped,
            me | flipped | (1 << square),
            depth - 1,
            false,
        );
    }
    total
}

impl Game for Othello {
    type Position = OthelloPosition;
    type Move = u8;
    /// Both sides' deterministic players would otherwise repeat one game.
    const DEFAULT_OPENINGS: u32 = 4;

    fn start(&self) -> OthelloPosition {
        // d4 = bit 27 and e5 = bit 36 white; d5 = bit 35 and e4 = bit 28 black.
        OthelloPosition {
            black: (1 << 35) | (1 << 28),
            white: (1 << 27) | (1 << 36),
            to_move: Side::First,
        }
    }

    fn turn(&self, pos: &OthelloPosition) -> Side {
        pos.to_move
    }

    fn outcome(&self, pos: &OthelloPosition) -> Option<Outcome> {
        if moves_of(pos.black, pos.white) != 0 || moves_of(pos.white, pos.black) != 0 {
            return None;
        }
        let (black, white) = (pos.black.count_ones(), pos.white.count_ones());
        Some(match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn legal_moves(&self, pos: &OthelloPosition, moves: &mut Vec<u8>) {
        moves.clear();
        let mut squares = pos.moves();
        if squares == 0 {
            let (me, them) = pos.sides();
            if moves_of(them, me) != 0 {
                moves.push(PASS);
            }
            return;
        }
        while squares != 0 {
            moves.push(squares.trailing_zeros() as u8);
            squares &= squares - 1;
        }
    }

    fn is_legal(&self, pos: &OthelloPosition, mv: u8) -> bool {
        let squares = pos.moves();
        match mv {
            PASS => {
                let (me, them) = pos.sides();
                squares == 0 && moves_of(them, me) != 0
            }
            0..=63 => squares & (1 << mv) != 0,
            _ => false,
        }
    }

    fn play(&self, pos: &OthelloPosition, mv: u8) -> OthelloPosition {
        let mut next = OthelloPosition {
            to_move: pos.to_move.other(),
            ..*pos
        };
        if mv >= PASS {
            return next;
        }
        let (me, them) = pos.sides();
        let flipped = flips(me, them, mv);
        let (me, them) = (me | flipped | (1 << mv), them & !flipped);
        match pos.to_move {
            Side::First => (next.black, next.white) = (me, them),
            Side::Second => (next.white, next.black) = (me, them),
        }
        next
    }

    fn is_pass(&self, mv: u8) -> bool {
        mv >= PASS
    }

    /// Counted on bitboards, a pass a ply (`perft_bitboards`).
    fn perft(&self, pos: &OthelloPosition, depth: u32) -> u64 {
        perft_bitboards(pos, depth)
    }

    /// The last 12 empty squares (`ENDING_EMPTIES`, `ending_moves`).
    fn exact_ending(&self, pos: &OthelloPosition) -> Option<Vec<(u8, i32)>> {
        ending_moves(pos)
    }
}

impl Notation for Othello {
    const MOVE_PROMPT: &'static str =
        "your move (a square a1-h8, or pass when you have none; q to quit): ";

    const SIDE_NAMES: [&'static str; 2] = ["black (X)", "white (O)"];

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        const EXPECTED: &str =
            "a move is a square a1-h8 (column a-h from the left, row 1-8 from the top) or pass";
        if text.eq_ignore_ascii_case("pass") {
            return Ok(PASS);
        }
        match text.to_ascii_lowercase().as_bytes() {
            &[col @ b'a'..=b'h', row @ b'1'..=b'8'] => Ok((row - b'1') * 8 + (col - b'a')),
            _ => Err(MoveError::Syntax { expected: EXPECTED }),
        }
    }

    fn format_move(&self, mv: u8) -> String {
        if mv >= PASS {
            "pass".to_string()
        } else {
            square_name(mv)
        }
    }

    fn notation_separator(&self) -> &'static str {
        " "
    }

    /// Moves with or without separators (spaces or commas): `f5 d6 c3`,
    /// `f5,d6,c3` and `f5d6c3` are one line.
    fn split_notation<'a>(&self, text: &'a str) -> Vec<&'a str> {
        let mut tokens = Vec::new();
        let mut rest = text.trim_start_matches([' ', ',']);
        while !rest.is_empty() {
            // `get`: the fourth byte may fall inside a character ('abcé').
            let len = if rest
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("pass"))
            {
                4
            } else {
                rest.chars().take(2).map(char::len_utf8).sum()
            };
            tokens.push(&rest[..len]);
            rest = rest[len..].trim_start_matches([' ', ',']);
        }
        tokens
    }

    /// The moves from the start, or a board: 64 squares `X` (black), `O`
    /// (white) or `.`, rows from the top (`/` or spaces between rows
    /// allowed), then the side to move, `X` or `O` (`...OX.../... X`).
    fn parse_position(&self, text: &str) -> Result<OthelloPosition, NotationError> {
        let text = text.trim();
        let squares = text
            .chars()
            .filter(|c| matches!(c, 'X' | 'O' | '.'))
            .count();
        if squares < 60 {
            return self.parse_moves(text);
        }
        parse_board(text).map_err(|reason| NotationError {
            number: 1,
            text: text.to_string(),
            reason: MoveError::Illegal(reason),
        })
    }

    fn why_illegal(&self, pos: &OthelloPosition, mv: u8) -> String {
        if mv >= PASS {
            let some: Vec<String> = (0..64u8)
                .filter(|&s| pos.moves() & (1 << s) != 0)
                .map(square_name)
                .collect();
            return format!(
                "a side passes only when it has no move, and here it has {}",
                some.join(", ")
            );
        }
        let name = square_name(mv);
        if pos.empty() & (1 << mv) == 0 {
            format!("{name} is taken")
        } else if pos.moves() == 0 {
            "no disc can be put anywhere: the move is pass".to_string()
        } else {
            format!("{name} flips no disc: it must end a line of the other side's discs")
        }
    }

    fn view(&self, pos: &OthelloPosition) -> BoardView {
        BoardView::Grid {
            rows: 8,
            columns: 8,
            cells: (0..64).map(|s| cell(pos, s)).collect(),
            winning: Vec::new(),
        }
    }

    fn render(&self, pos: &OthelloPosition) -> String {
        self.render_play(pos, None)
    }

    /// The board with the legal squares marked `*` and the last move `>`
    /// before it, and the disc count.
    fn render_play(&self, pos: &OthelloPosition, last: Option<u8>) -> String {
        let legal = if self.outcome(pos).is_none() {
            pos.moves()
        } else {
            0
        };
        let mut out = String::from("   a b c d e f g h\n");
        for row in 0..8u8 {
            out.push_str(&format!("{} ", row + 1));
            for col in 0..8u8 {
                let square = row * 8 + col;
                let mark = if last == Some(square) { '>' } else { ' ' };
                let c = if legal & (1 << square) != 0 {
                    '*'
                } else {
                    cell(pos, square)
                };
                out.push(mark);
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "   X (black) {}, O (white) {}; * a legal square\n",
            pos.black.count_ones(),
            pos.white.count_ones()
        ));
        out
    }
}
