//! English checkers (American checkers, straight draughts) on the 32 dark
//! squares of an 8×8 board.
//!
//! Squares are numbered 1–32 in the standard way: row by row from Black's
//! side, four to a row. Black starts on 1–12 and moves first, towards
//! 29–32; White starts on 21–32 and moves towards 1–4. In rows 1, 3, 5
//! and 7 the dark squares are the 2nd, 4th, 6th and 8th from the left; in
//! the other rows the 1st, 3rd, 5th and 7th:
//!
//! ```text
//!     .  1  .  2  .  3  .  4      Black's side
//!     5  .  6  .  7  .  8  .
//!     .  9  . 10  . 11  . 12
//!    13  . 14  . 15  . 16  .
//!     . 17  . 18  . 19  . 20
//!    21  . 22  . 23  . 24  .
//!     . 25  . 26  . 27  . 28
//!    29  . 30  . 31  . 32  .      White's side
//! ```
//!
//! The rules: men move one square diagonally forward, kings both ways.
//! Captures are compulsory; a capture jumps an adjacent enemy piece into
//! the empty square beyond, and a capturing piece that can jump again must
//! (any capturing line may be chosen, not necessarily the longest). A
//! jumped piece cannot be jumped twice and stays on the board until the
//! move ends. A man reaching the far row is crowned and its move ends
//! there. A side with no legal move (or no pieces) loses. A game is drawn
//! after 40 moves of each side (80 plies) with no capture and no man
//! moved, or when a position (the pieces and the side to move) occurs for
//! the third time.
//!
//! A move is written `11-15`, a capture with every landing square:
//! `15x24`, `15x24x31`. A position is the moves from the start (separated
//! by spaces; move numbers such as `1.` are skipped) or a FEN string of
//! the standard kind: `B:W18,24,27,K28:B12,16,20,K22` (the side to move,
//! then each side's squares, `K` before a king; ranges such as `W21-32`
//! are read too).

mod notation;
pub use notation::FenError;
mod registration;
mod render;
#[cfg(test)]
mod tests;

use super::{
    BoardView, Game, GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, MoveError, NTuple,
    Notation, NotationError, Outcome, Pair, Registered, Side, ValueGenome,
};

/// Squares on the board.
pub(super) const SQUARES: usize = 32;
/// Plies with no capture and no man moved after which the game is drawn
/// (40 moves of each side).
pub(super) const QUIET_PLIES: u8 = 80;
/// Positions remembered for the repetition rule: every position since the
/// last capture or man move can repeat, and there are at most
/// [`QUIET_PLIES`] of them.
const HISTORY: usize = QUIET_PLIES as usize;

/// Directions as (row step, column step): up-left, up-right, down-left,
/// down-right; "down" is towards White's side (Black's forward).
const DIRECTIONS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
/// Black men move down, White men up.
const BLACK_FORWARD: [usize; 2] = [2, 3];
const WHITE_FORWARD: [usize; 2] = [0, 1];
const ALL_DIRECTIONS: [usize; 4] = [0, 1, 2, 3];

/// Row (0 at Black's side) and column (0 at the left) of square index
/// `sq` (0-based: square number − 1).
pub(super) const fn row_col(sq: usize) -> (i32, i32) {
    let row = (sq / 4) as i32;
    let col = 2 * (sq % 4) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

/// The square index at (row, col), if it is a dark square on the board.
pub const fn square_at(row: i32, col: i32) -> Option<usize> {
    if row < 0 || row > 7 || col < 0 || col > 7 || (row + col) % 2 == 0 {
        None
    } else {
        Some((row * 4 + col / 2) as usize)
    }
}

/// `STEP[sq][d]`: the neighbour in direction `d`; `JUMP[sq][d]` the square
/// beyond it. 32 = off the board.
const OFF: u8 = 32;
static STEP: [[u8; 4]; SQUARES] = neighbours(1);
static JUMP: [[u8; 4]; SQUARES] = neighbours(2);

const fn neighbours(distance: i32) -> [[u8; 4]; SQUARES] {
    let mut table = [[OFF; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (row, col) = row_col(sq);
        let mut d = 0;
        while d < 4 {
            let (dr, dc) = DIRECTIONS[d];
            if let Some(to) = square_at(row + distance * dr, col + distance * dc) {
                table[sq][d] = to as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Black crowns on 29–32, White on 1–4.
const BLACK_CROWN: u32 = 0xF000_0000;
const WHITE_CROWN: u32 = 0x0000_000F;

/// How a checkers vote table reads the board (the rules are the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CheckersEncoder {
    /// The text's 4×4 sub-grid: each of the 25 placements of a 4×4 window
    /// reads its 8 dark squares (5 states each, 390,625 window states, one
    /// table shared by every placement) and votes for a move that starts
    /// in the window.
    #[default]
    Subgrid,
}

impl CheckersEncoder {
    /// The encoder's name, as `--encoder` takes it.
    pub fn name(self) -> &'static str {
        match self {
            CheckersEncoder::Subgrid => "subgrid",
        }
    }
}

/// English checkers' rules (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Checkers;

impl Checkers {
    /// Checkers played by a vote table with the sub-grid encoder.
    pub const SUBGRID: Pair<Checkers, CheckersEncoder> =
        Pair::new(Checkers, CheckersEncoder::Subgrid);

    /// The value genome's default shape: 128 tuples of 6 squares (5^6 =
    /// 15,625 weights a table; 8 MB a genome). Twice the 64 tuples it had
    /// lifted the recommended run's 6-ply champion from 83.5% to 90.5%
    /// against `alphabeta:6` (seed 1; docs/experiments.md, "A larger
    /// network").
    pub const NTUPLE: NTuple = NTuple {
        tuples: 128,
        length: 6,
    };

    /// Checkers played by a value genome of `shape`.
    pub const fn value_genome(shape: NTuple) -> Pair<Checkers, ValueGenome> {
        Pair::new(Checkers, ValueGenome::drawn(shape))
    }
}

/// A position: the pieces as bit masks (bit k is square k+1), the side to
/// move, and what the draw rules need (plies since the last capture or
/// man move, and the positions seen since then).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersPosition {
    /// Black's pieces, a bit per square.
    pub black: u32,
    /// White's pieces, a bit per square.
    pub white: u32,
    /// Kings of either side (a subset of `black | white`).
    pub kings: u32,
    /// The side to move.
    pub to_move: Side,
    /// Plies since the last capture or man move.
    pub quiet: u8,
    /// Fingerprints of the positions of those plies, oldest first.
    seen: [u32; HISTORY],
}

impl CheckersPosition {
    /// A position with these pieces, `to_move` to move and no history.
    pub fn new(black: u32, white: u32, kings: u32, to_move: Side) -> CheckersPosition {
        CheckersPosition {
            black,
            white,
            kings: kings & (black | white),
            to_move,
            quiet: 0,
            seen: [0; HISTORY],
        }
    }

    /// The pieces of `side`.
    pub fn pieces(&self, side: Side) -> u32 {
        match side {
            Side::First => self.black,
            Side::Second => self.white,
        }
    }

    /// The occupied squares.
    pub(crate) fn occupied(&self) -> u32 {
        self.black | self.white
    }

    /// The pieces as a 64-bit word and the side to move, mixed so that
    /// different positions rarely share the 32-bit fingerprint.
    fn fingerprint(&self) -> u32 {
        let mut x = (self.black as u64) | (self.white as u64) << 32;
        x ^= (self.kings as u64).rotate_left(17) ^ (self.to_move == Side::Second) as u64;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (x ^ (x >> 31)) as u32
    }

    /// How often this position occurred before, since the last capture or
    /// man move.
    fn earlier_occurrences(&self) -> usize {
        let me = self.fingerprint();
        self.seen[..self.quiet as usize]
            .iter()
            .filter(|&&f| f == me)
            .count()
    }

    /// What a square holds: `b`/`B` a black man/king, `w`/`W` white, `.`.
    pub(crate) fn piece_char(&self, sq: usize) -> char {
        let bit = 1u32 << sq;
        let king = self.kings & bit != 0;
        match (self.black & bit != 0, self.white & bit != 0, king) {
            (true, _, false) => 'b',
            (true, _, true) => 'B',
            (_, true, false) => 'w',
            (_, true, true) => 'W',
            _ => '.',
        }
    }
}

/// A move: the moving piece's square, its landing squares in order (one
/// for a step or a single jump) and the squares of the pieces it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersMove {
    /// 0-based square index.
    pub from: u8,
    /// Landing squares, 5 bits each, the first in the low bits.
    path: u64,
    /// Number of landing squares (1 for a step).
    pub hops: u8,
    /// Captured pieces (empty for a step).
    pub captured: u32,
}

/// The most landing squares a move stores (12 would clear the board).
const MAX_HOPS: usize = 12;

impl CheckersMove {
    /// A step from `from` to `to`.
    fn step(from: usize, to: usize) -> CheckersMove {
        CheckersMove {
            from: from as u8,
            path: to as u64,
            hops: 1,
            captured: 0,
        }
    }

    /// The `i`-th landing square.
    pub fn landing(&self, i: usize) -> usize {
        ((self.path >> (5 * i)) & 31) as usize
    }

    /// Every landing square in order.
    pub(crate) fn landings(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.hops as usize).map(|i| self.landing(i))
    }

    /// Where the piece ends.
    pub fn to(&self) -> usize {
        self.landing(self.hops as usize - 1)
    }

    /// Whether the move captures.
    pub(crate) fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The direction of the first step or jump (0 up-left, 1 up-right, 2
    /// down-left, 3 down-right).
    pub(crate) fn direction(&self) -> usize {
        let (r0, c0) = row_col(self.from as usize);
        let (r1, c1) = row_col(self.landing(0));
        match (r1 > r0, c1 > c0) {
            (false, false) => 0,
            (false, true) => 1,
            (true, false) => 2,
            (true, true) => 3,
        }
    }

    /// A move with one more jump to `to` over `over`.
    fn then_jump(mut self, over: usize, to: usize) -> CheckersMove {
        if self.captured == 0 {
            self.path = to as u64;
            self.hops = 1;
        } else {
            self.path |= (to as u64) << (5 * self.hops as usize);
            self.hops += 1;
        }
        self.captured |= 1 << over;
        self
    }
}

impl Checkers {
    /// Appends every capture of the side to move to `moves`; true if any.
    fn captures(&self, pos: &CheckersPosition, moves: &mut Vec<CheckersMove>) -> bool {
        let side = pos.to_move;
        let mut pieces = pos.pieces(side);
        let before = moves.len();
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let king = pos.kings & (1 << sq) != 0;
            let start = CheckersMove {
                from: sq as u8,
                path: 0,
                hops: 0,
                captured: 0,
            };
            // The moving piece has left its square: it may jump back over it.
            let empty = !(pos.occupied() & !(1 << sq));
            self.extend_jumps(pos, start, sq, king, empty, moves);
        }
        moves.len() > before
    }

    /// Continues a capture from `at` while jumps remain; pushes each
    /// finished capturing line.
    fn extend_jumps(
        &self,
        pos: &CheckersPosition,
        line: CheckersMove,
        at: usize,
        king: bool,
        empty: u32,
        moves: &mut Vec<CheckersMove>,
    ) {
        let side = pos.to_move;
        let enemy = pos.pieces(side.other()) & !line.captured;
        let mut extended = false;
        for &d in directions(king, side) {
            let over = STEP[at][d];
            let to = JUMP[at][d];
            if to == OFF || enemy & (1 << over) == 0 || empty & (1 << to) == 0 {
                continue;
            }
            if line.hops as usize >= MAX_HOPS {
                continue;
            }
            extended = true;
            let next = line.then_jump(over as usize, to as usize);
            let crowned = !king && self.crown_row(side) & (1 << to) != 0;
            if crowned {
                moves.push(next);
            } else {
                self.extend_jumps(pos, next, to as usize, king, empty, moves);
            }
        }
        if !extended && line.hops > 0 {
            moves.push(line);
        }
    }

    /// The row where `side`'s men are crowned.
    fn crown_row(&self, side: Side) -> u32 {
        match side {
            Side::First => BLACK_CROWN,
            Side::Second => WHITE_CROWN,
        }
    }

    /// Appends every step (non-capturing move) of the side to move.
    fn steps(&self, pos: &CheckersPosition, moves: &mut Vec<CheckersMove>) {
        let side = pos.to_move;
        let empty = !pos.occupied();
        let mut pieces = pos.pieces(side);
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            for &d in directions(pos.kings & (1 << sq) != 0, side) {
                let to = STEP[sq][d];
                if to != OFF && empty & (1 << to) != 0 {
                    moves.push(CheckersMove::step(sq, to as usize));
                }
            }
        }
    }

    /// Whether the side to move has any move (a step or a first jump),
    /// found without building the list: [`Game::outcome`] asks at every
    /// position of every game and search.
    fn has_move(&self, pos: &CheckersPosition) -> bool {
        let side = pos.to_move;
        let empty = !pos.occupied();
        let enemy = pos.pieces(side.other());
        let mut pieces = pos.pieces(side);
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            for &d in directions(pos.kings & (1 << sq) != 0, side) {
                let (step, jump) = (STEP[sq][d], JUMP[sq][d]);
                if step == OFF {
                    continue;
                }
                if empty & (1 << step) != 0
                    || (jump != OFF && enemy & (1 << step) != 0 && empty & (1 << jump) != 0)
                {
                    return true;
                }
            }
        }
        false
    }
}

/// The directions a piece moves in: a king all four, a man forward.
fn directions(king: bool, side: Side) -> &'static [usize] {
    match (king, side) {
        (true, _) => &ALL_DIRECTIONS,
        (false, Side::First) => &BLACK_FORWARD,
        (false, Side::Second) => &WHITE_FORWARD,
    }
}

impl Game for Checkers {
    type Position = CheckersPosition;
    type Move = CheckersMove;

    /// Forced captures make deterministic players repeat one game more
    /// often than in the other games: a few random plies vary them.
    const DEFAULT_OPENINGS: u32 = 4;

    fn start(&self) -> CheckersPosition {
        CheckersPosition::new(0x0000_0FFF, 0xFFF0_0000, 0, Side::First)
    }

    fn turn(&self, pos: &CheckersPosition) -> Side {
        pos.to_move
    }

    fn outcome(&self, pos: &CheckersPosition) -> Option<Outcome> {
        if pos.quiet >= QUIET_PLIES || pos.earlier_occurrences() >= 2 {
            return Some(Outcome::Draw);
        }
        (!self.has_move(pos)).then_some(Outcome::Win(pos.to_move.other()))
    }

    fn legal_moves(&self, pos: &CheckersPosition, moves: &mut Vec<CheckersMove>) {
        moves.clear();
        if pos.quiet >= QUIET_PLIES || pos.earlier_occurrences() >= 2 {
            return;
        }
        if !self.captures(pos, moves) {
            self.steps(pos, moves);
        }
    }

    fn is_legal(&self, pos: &CheckersPosition, mv: CheckersMove) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        moves.contains(&mv)
    }

    fn play(&self, pos: &CheckersPosition, mv: CheckersMove) -> CheckersPosition {
        let side = pos.to_move;
        let from = 1u32 << mv.from;
        let to = 1u32 << mv.to();
        let was_king = pos.kings & from != 0;
        let mut next = *pos;
        match side {
            Side::First => {
                next.black = (pos.black & !from) | to;
                next.white = pos.white & !mv.captured;
            }
            Side::Second => {
                next.white = (pos.white & !from) | to;
                next.black = pos.black & !mv.captured;
            }
        }
        next.kings = pos.kings & !from & !mv.captured;
        if was_king || self.crown_row(side) & to != 0 {
            next.kings |= to;
        }
        next.to_move = side.other();
        if mv.is_capture() || !was_king {
            next.quiet = 0;
        } else {
            // A king's quiet move: remember where the game came from.
            let at = pos.quiet as usize;
            if at < HISTORY {
                next.seen[at] = pos.fingerprint();
            }
            next.quiet = pos.quiet + 1;
        }
        next
    }
}

impl Notation for Checkers {
    const MOVE_PROMPT: &'static str = "your move, e.g. 11-15 or 15x24 (q to quit): ";

    const SIDE_NAMES: [&'static str; 2] = ["Black (b, B)", "White (w, W)"];

    fn parse_move(&self, text: &str) -> Result<CheckersMove, MoveError> {
        notation::parse_move(text)
    }

    fn format_move(&self, mv: CheckersMove) -> String {
        notation::format_move(mv)
    }

    fn notation_separator(&self) -> &'static str {
        " "
    }

    /// Whitespace between moves; move numbers (`1.`) are skipped.
    fn split_notation<'a>(&self, text: &'a str) -> Vec<&'a str> {
        text.split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect()
    }

    /// The moves from the start, or a FEN string.
    fn parse_position(&self, text: &str) -> Result<CheckersPosition, NotationError> {
        let text = text.trim();
        if text.starts_with(['B', 'W', 'b', 'w']) && text.contains(':') {
            return self.parse_fen(text).map_err(|reason| NotationError {
                number: 1,
                text: text.to_string(),
                reason: MoveError::Illegal(reason.to_string()),
            });
        }
        self.parse_moves(text)
    }

    fn why_illegal(&self, pos: &CheckersPosition, mv: CheckersMove) -> String {
        let sq = mv.from as usize;
        let own = pos.pieces(pos.to_move);
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        if own & (1 << sq) == 0 {
            format!("square {} holds no piece of the side to move", sq + 1)
        } else if moves.iter().any(CheckersMove::is_capture) && !mv.is_capture() {
            let some: Vec<String> = moves.iter().map(|&m| self.format_move(m)).collect();
            format!("a capture is compulsory: {}", some.join(", "))
        } else if let Some(longer) = moves.iter().find(|m| {
            m.from == mv.from
                && m.hops > mv.hops
                && (0..mv.hops as usize).all(|i| m.landing(i) == mv.landing(i))
        }) {
            format!(
                "the capture must go on while it can: {}",
                self.format_move(*longer)
            )
        } else if !mv.is_capture() {
            let to = mv.to();
            let man = pos.kings & (1 << sq) == 0;
            let forward: &[usize] = if pos.to_move == Side::First {
                &BLACK_FORWARD
            } else {
                &WHITE_FORWARD
            };
            match (0..4).find(|&d| STEP[sq][d] as usize == to) {
                None => format!("squares {} and {} are not neighbours", sq + 1, to + 1),
                Some(d) if man && !forward.contains(&d) => {
                    format!("the man on {} moves forward only", sq + 1)
                }
                Some(_) if pos.occupied() & (1 << to) != 0 => {
                    format!("square {} is taken", to + 1)
                }
                Some(_) => format!("{} is not a legal move here", self.format_move(mv)),
            }
        } else {
            format!("{} is not a legal move here", self.format_move(mv))
        }
    }

    fn render(&self, pos: &CheckersPosition) -> String {
        self.render_play(pos, None)
    }

    /// The board from Black's side with the empty squares numbered; `>`
    /// marks where the last move ended.
    fn render_play(&self, pos: &CheckersPosition, last: Option<CheckersMove>) -> String {
        render::board(pos, last)
    }

    fn view(&self, pos: &CheckersPosition) -> BoardView {
        BoardView::Draughts {
            squares: (0..SQUARES).map(|sq| pos.piece_char(sq)).collect(),
        }
    }
}
