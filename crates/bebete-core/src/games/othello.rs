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

use super::{
    BoardView, Game, GameOptions, GenomeGame, InvalidRules, Kind, MethodSettings, MoveError,
    NTuple, NoGenome, NotationError, Outcome, Placement, Registered, Rules, RunSettings, Side,
    ValueGenome,
};
use serde::{Deserialize, Serialize};

/// The move of a side that cannot put a disc anywhere.
pub const PASS: u8 = 64;
/// Squares on the board.
pub const SQUARES: usize = 64;

/// Othello's rules: the standard board, no rule parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Othello;

/// Othello with its genome as files store it: both are value genomes,
/// their tuples read in the board's 8 symmetries. Stored by variant
/// index: append only.
#[derive(Serialize, Deserialize)]
pub enum Stored {
    /// `ntuple`: tuples drawn as random walks ("snakes"), redrawn by
    /// mutation.
    NTuple(NTuple),
    /// `straight`: every straight line of `length` squares (along a row, a
    /// column or a diagonal), one tuple per class under the symmetries;
    /// fixed, so that evolution and learning change only the weights.
    Straight(NTuple),
}

/// Othello has no vote table (see `encoding::othello`): its genomes are
/// value genomes.
impl Rules for Othello {
    type Votes = NoGenome;
    type Values = ValueGenome;
    type Stored = Stored;

    fn store(game: &GenomeGame<Othello>) -> Stored {
        match game.kind {
            Kind::Votes(none) => match none {},
            Kind::Value(ValueGenome {
                shape,
                placement: Placement::Drawn,
            }) => Stored::NTuple(shape),
            Kind::Value(ValueGenome {
                shape,
                placement: Placement::Straight,
            }) => Stored::Straight(shape),
        }
    }

    fn load(stored: Stored) -> GenomeGame<Othello> {
        GenomeGame::value(
            Othello,
            match stored {
                Stored::NTuple(shape) => ValueGenome::drawn(shape),
                Stored::Straight(shape) => ValueGenome::straight(shape),
            },
        )
    }
}

impl Othello {
    /// Random snakes' shape by default: 12 tuples of 6 squares.
    pub const SNAKES: NTuple = NTuple {
        tuples: 12,
        length: 6,
    };
    /// Straight tuples' length by default: quadruples (21 tuples, 81
    /// weights a table). Jaśkowski found pairs enough for self-play, and
    /// here pairs and quadruples learn alike by self-play; learning against
    /// the benchmark's player, quadruples score higher and learn faster
    /// (fewer tuples to read; docs/experiments.md).
    pub const STRAIGHT_LENGTH: u8 = 4;
    /// The value genome of straight quadruples.
    pub const STRAIGHT: GenomeGame<Othello> = Othello::straight(Othello::STRAIGHT_LENGTH);
    /// The value genome of straight pairs (Jaśkowski's 288 weights; the
    /// shipped `othello.genome`).
    pub const STRAIGHT_PAIRS: GenomeGame<Othello> = Othello::straight(2);

    /// The value genome of every straight line of `length` squares.
    pub const fn straight(length: u8) -> GenomeGame<Othello> {
        GenomeGame::value(
            Othello,
            ValueGenome::straight(NTuple {
                tuples: straight_count(length),
                length,
            }),
        )
    }
    /// The value genome of random snakes.
    pub const NTUPLE: GenomeGame<Othello> =
        GenomeGame::value(Othello, ValueGenome::drawn(Othello::SNAKES));
}

/// The image of square `square` under symmetry `s` of the square board
/// (0 the identity; 1–3 the mirrors and the half turn; 4–7 the same after
/// exchanging rows and columns).
pub const fn symmetric_square(s: usize, square: usize) -> usize {
    let (mut row, mut col) = (square / 8, square % 8);
    if s & 4 != 0 {
        (row, col) = (col, row);
    }
    if s & 1 != 0 {
        col = 7 - col;
    }
    if s & 2 != 0 {
        row = 7 - row;
    }
    row * 8 + col
}

/// Straight lines of `length` squares, one per class of lines that the
/// board's symmetries map onto each other: the tuples of the `straight`
/// encoder. Each is its squares in order along the line.
pub fn straight_tuples(length: u8) -> Vec<Vec<u8>> {
    let length = length as i32;
    let mut classes: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    // East, south, south-east, south-west.
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for start in 0..64i32 {
            let (r0, c0) = (start / 8, start % 8);
            let (r1, c1) = (r0 + dr * (length - 1), c0 + dc * (length - 1));
            if !(0..8).contains(&r1) || !(0..8).contains(&c1) {
                continue;
            }
            let line: Vec<u8> = (0..length)
                .map(|i| ((r0 + dr * i) * 8 + c0 + dc * i) as u8)
                .collect();
            let key = (0..8)
                .map(|s| {
                    let mut image: Vec<u8> = line
                        .iter()
                        .map(|&q| symmetric_square(s, q as usize) as u8)
                        .collect();
                    image.sort_unstable();
                    image
                })
                .min()
                .expect("eight images");
            if !classes.iter().any(|(k, _)| *k == key) {
                classes.push((key, line));
            }
        }
    }
    classes.into_iter().map(|(_, line)| line).collect()
}

/// How many tuples [`straight_tuples`] gives, computed at compile time
/// for the encoder's constants (lengths 2–8).
pub const fn straight_count(length: u8) -> u16 {
    // Counted once by `straight_tuples` and pinned by a test.
    match length {
        2 => 32,
        3 => 24,
        4 => 21,
        5 => 14,
        6 => 12,
        7 => 6,
        8 => 5,
        _ => 0,
    }
}

/// The discs of each side and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloPosition {
    pub black: u64,
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
pub fn moves_of(me: u64, them: u64) -> u64 {
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
pub fn flips(me: u64, them: u64, square: u8) -> u64 {
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
pub fn perft_bitboards(pos: &OthelloPosition, depth: u32) -> u64 {
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

/// The final disc difference (the side to move's discs minus the
/// opponent's, empty squares counting for no one, as the game is scored)
/// with best play by both sides from `pos`, exactly: [`ending`] from the
/// start of a search.
#[cfg(test)]
fn ending_score(
    pos: &OthelloPosition,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
    max_nodes: u64,
) -> Option<i32> {
    let (me, them) = pos.sides();
    ending(me, them, alpha, beta, false, nodes, max_nodes)
}

/// Empty squares at most for [`ending_moves`]: every move of a position
/// with 12 empty squares is searched in about 21 ms, with 10 in about 1 ms
/// (criterion, `othello/exact ending`, on the development machine; each
/// more square multiplies it by about four).
pub const ENDING_EMPTIES: u32 = 12;

/// Positions an ending search may visit before it gives up.
const ENDING_NODES: u64 = 20_000_000;

/// Every legal move of the unfinished `pos` (a pass when it is the only
/// one) with its exact final disc difference for the side that plays it,
/// when `pos` has at most [`ENDING_EMPTIES`] empty squares; the moves that
/// are not the best may carry a bound below the best instead of their
/// exact value, so the best ones are exactly those with the highest
/// score. `None` with more empty squares, or when the search gives up
/// (past its node limit, or this thread's budget spent).
pub fn ending_moves(pos: &OthelloPosition) -> Option<Vec<(u8, i32)>> {
    if pos.empty().count_ones() > ENDING_EMPTIES {
        return None;
    }
    let (me, them) = pos.sides();
    let mut squares = moves_of(me, them);
    if squares == 0 && moves_of(them, me) == 0 {
        return None;
    }
    let mut nodes = 0;
    if squares == 0 {
        let score = -ending(them, me, -65, 65, true, &mut nodes, ENDING_NODES)?;
        return Some(vec![(PASS, score)]);
    }
    let mut scored = Vec::with_capacity(squares.count_ones() as usize);
    let mut best = -65;
    while squares != 0 {
        let square = squares.trailing_zeros() as u8;
        squares &= squares - 1;
        let flipped = flips(me, them, square);
        // Exact from one below the best so far up: a move that fails
        // lower cannot tie with the best.
        let score = -ending(
            them & !flipped,
            me | flipped | (1 << square),
            -65,
            -(best - 1),
            false,
            &mut nodes,
            ENDING_NODES,
        )?;
        best = best.max(score);
        scored.push((square, score));
    }
    Some(scored)
}

/// The final disc difference for the side owning `me` to move (`passed`:
/// the other side just passed) with best play by both, exactly: alpha-beta
/// over the bitboards within `alpha..beta` (a fail-soft bound outside it).
/// Meant for the last few empty squares: its cost grows about fivefold
/// with each one more. `nodes` counts the positions visited; the search
/// gives up, returning `None`, past `max_nodes` or when this thread's
/// budget is spent.
fn ending(
    me: u64,
    them: u64,
    mut alpha: i32,
    beta: i32,
    passed: bool,
    nodes: &mut u64,
    max_nodes: u64,
) -> Option<i32> {
    *nodes += 1;
    if *nodes > max_nodes || (nodes.is_multiple_of(4096) && crate::budget::spent()) {
        return None;
    }
    let mut moves = moves_of(me, them);
    if moves == 0 {
        if passed {
            return Some(me.count_ones() as i32 - them.count_ones() as i32);
        }
        return ending(them, me, -beta, -alpha, true, nodes, max_nodes).map(|v| -v);
    }
    let mut best = -65;
    while moves != 0 {
        let square = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let flipped = flips(me, them, square);
        let score = -ending(
            them & !flipped,
            me | flipped | (1 << square),
            -beta,
            -alpha,
            false,
            nodes,
            max_nodes,
        )?;
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    Some(best)
}

/// `a1` … `h8`.
fn square_name(square: u8) -> String {
    let (row, col) = (square / 8, square % 8);
    format!("{}{}", (b'a' + col) as char, row + 1)
}

impl Game for Othello {
    type Position = OthelloPosition;
    type Move = u8;
    const MOVE_PROMPT: &'static str =
        "your move (a square a1-h8, or pass when you have none; q to quit): ";
    const SIDE_NAMES: [&'static str; 2] = ["black (X)", "white (O)"];
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

    fn is_pass(&self, mv: u8) -> bool {
        mv >= PASS
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

    /// Counted on bitboards, a pass a ply ([`perft_bitboards`]).
    fn perft(&self, pos: &OthelloPosition, depth: u32) -> u64 {
        perft_bitboards(pos, depth)
    }

    /// The last `ENDING_EMPTIES` empty squares (`ending_moves`).
    fn exact_ending(&self, pos: &OthelloPosition) -> Option<Vec<(u8, i32)>> {
        ending_moves(pos)
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

/// A board written as 64 squares and the side to move
/// ([`Othello::parse_position`](Game::parse_position)).
fn parse_board(text: &str) -> Result<OthelloPosition, String> {
    const FORM: &str = "a board is 64 squares X (black), O (white) or . (empty), rows from the top, then the side to move X or O";
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let side = match fields.pop() {
        Some("X") => Side::First,
        Some("O") => Side::Second,
        _ => return Err(format!("{FORM}: it must end with the side to move, X or O")),
    };
    let mut pos = OthelloPosition {
        black: 0,
        white: 0,
        to_move: side,
    };
    let mut square = 0u32;
    for c in fields.concat().chars().filter(|&c| c != '/') {
        if square >= 64 {
            return Err(format!("{FORM}: more than 64 squares"));
        }
        match c {
            'X' => pos.black |= 1 << square,
            'O' => pos.white |= 1 << square,
            '.' => {}
            other => return Err(format!("{FORM}: '{other}' is not a square")),
        }
        square += 1;
    }
    if square < 64 {
        return Err(format!("{FORM}: only {square} squares"));
    }
    Ok(pos)
}

/// `X` a black disc, `O` a white one, `.` empty.
fn cell(pos: &OthelloPosition, square: u8) -> char {
    let bit = 1u64 << square;
    if pos.black & bit != 0 {
        'X'
    } else if pos.white & bit != 0 {
        'O'
    } else {
        '.'
    }
}

impl Registered for GenomeGame<Othello> {
    const NAME: &'static str = "othello";
    const ALIASES: &'static [&'static str] = &["reversi"];
    const METHOD: MethodSettings = MethodSettings {
        mutation: 0.01,
        generations: 100,
        checkpoint_every: 10,
        bench_every: 10,
    };

    fn variants() -> Vec<Self> {
        vec![Othello::STRAIGHT, Othello::STRAIGHT_PAIRS, Othello::NTUPLE]
    }

    fn from_options(options: &GameOptions) -> Result<Self, String> {
        const NAMES: [&str; 2] = ["straight", "ntuple"];
        let genome = match options.encoder.as_deref().unwrap_or(NAMES[0]) {
            "ntuple" => ValueGenome::drawn(options.value_shape(Othello::SNAKES, SQUARES)?),
            "straight" => {
                let length = options.tuple_length.unwrap_or(Othello::STRAIGHT_LENGTH);
                let tuples = straight_count(length);
                if tuples == 0 {
                    return Err(format!(
                        "--tuple-length {length}: straight tuples are 2 to 8 squares long"
                    ));
                }
                if let Some(given) = options.tuples.filter(|&t| t != tuples) {
                    return Err(format!(
                        "--tuples {given}: the straight encoder has every straight line of {length} squares, {tuples} tuples (leave --tuples out, or use --encoder ntuple)"
                    ));
                }
                ValueGenome::straight(NTuple { tuples, length })
            }
            _ => return Err(options.unknown_encoder(Self::NAME, &NAMES, NAMES[0])),
        };
        Ok(GenomeGame::value(Othello, genome))
    }

    fn encoder_name(&self) -> &'static str {
        match self.value_kind().map(|genome| genome.placement) {
            Some(Placement::Straight) => "straight",
            _ => "ntuple",
        }
    }

    fn describe(&self) -> String {
        match self.value_kind() {
            Some(ValueGenome {
                shape,
                placement: Placement::Straight,
            }) => format!("othello (value genome, {shape} straight tuples)"),
            genome => format!(
                "othello (value genome, {} snake tuples)",
                genome.map_or(Othello::SNAKES, |g| g.shape)
            ),
        }
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        let Some(genome) = self.value_kind() else {
            return Ok(());
        };
        let s = genome.shape;
        s.check(SQUARES).map_err(InvalidRules)?;
        if genome.placement == Placement::Straight && s.tuples != straight_count(s.length) {
            return Err(InvalidRules(format!(
                "{} straight tuples of {} squares: there are {}",
                s.tuples,
                s.length,
                straight_count(s.length)
            )));
        }
        Ok(())
    }

    fn value_genome(&self) -> Option<NTuple> {
        self.value_kind().map(|genome| genome.shape)
    }

    /// Coevolutionary TD learning, as the papers learn (docs/experiments.md):
    /// a small population, each genome learning by TD(λ) self-play between
    /// generations, selected by a round-robin among themselves; no fixed
    /// player in the learning or the selection. (`--learn-against wpc@0.1
    /// --fitness vs:wpc@0.1:100` breeds a specialist against the papers'
    /// yardstick instead.) The benchmark includes that yardstick,
    /// `wpc@0.1`, the figure the papers report.
    fn recommended(&self) -> RunSettings {
        RunSettings {
            population: Some(4),
            elite: Some(2),
            parents: Some(2),
            mutation: Some("0.01"),
            self_play: Some(2_000),
            fitness: Some("round-robin"),
            generations: Some(100),
            checkpoint_every: Some(25),
            bench_every: Some(25),
            bench_against: Some("random,rules,wpc@0.1"),
            ..RunSettings::default()
        }
    }
}

/// The final disc difference for the side to move with best play, by
/// plain minimax over the rules (no pruning, no bitboard search): what the
/// tests check the ending search against.
#[cfg(test)]
pub(crate) fn ending_by_minimax(pos: &OthelloPosition) -> i32 {
    let game = Othello;
    if game.outcome(pos).is_some() {
        let (me, them) = pos.sides();
        return me.count_ones() as i32 - them.count_ones() as i32;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .iter()
        .map(|&m| -ending_by_minimax(&game.play(pos, m)))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::check_moves;
    use crate::games::walk::perft;

    #[test]
    fn the_start_and_blacks_four_first_moves() {
        let game = Othello;
        let start = game.start();
        let view = game.view(&start);
        let BoardView::Grid { cells, .. } = view else {
            panic!("a grid")
        };
        // Row 4: d4 white, e4 black; row 5: d5 black, e5 white.
        assert_eq!(&cells[24..32], "...OX...");
        assert_eq!(&cells[32..40], "...XO...");
        let mut moves = Vec::new();
        game.legal_moves(&start, &mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
        names.sort();
        assert_eq!(names, ["c4", "d3", "e6", "f5"]);
    }

    /// The endgame search gives what a plain minimax over the rules gives,
    /// on positions of random games with up to 9 empty squares, in a full
    /// window and in null windows around every score; a node limit or a
    /// spent budget gives up instead of answering wrong.
    #[test]
    fn the_endgame_search_is_exact() {
        use rand::{RngExt, SeedableRng};
        let minimax = |_: &Othello, pos: &OthelloPosition| ending_by_minimax(pos);
        let game = Othello;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let mut checked = 0;
        for round in 0..60 {
            let target = 1 + round % 9;
            let mut pos = game.start();
            let mut moves = Vec::new();
            while game.outcome(&pos).is_none() && pos.empty().count_ones() > target {
                game.legal_moves(&pos, &mut moves);
                pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
            }
            let exact = minimax(&game, &pos);
            let mut nodes = 0;
            assert_eq!(
                ending_score(&pos, -65, 65, &mut nodes, u64::MAX),
                Some(exact),
                "{}",
                game.render(&pos)
            );
            // Every move's value: the best moves are the ones with the
            // highest score, and it is the position's.
            if let Some(scored) = ending_moves(&pos) {
                let top = scored.iter().map(|&(_, v)| v).max().unwrap();
                assert_eq!(top, exact);
                for &(mv, v) in &scored {
                    let own = -minimax(&game, &game.play(&pos, mv));
                    assert_eq!(v == top, own == exact, "{}", game.format_move(mv));
                    assert!(v <= own.max(top - 1));
                }
            }
            for edge in [exact - 1, exact, exact + 1] {
                let mut nodes = 0;
                let v = ending_score(&pos, edge - 1, edge, &mut nodes, u64::MAX).unwrap();
                // Fail-soft: the bound's side is right.
                assert_eq!(v >= edge, exact >= edge);
            }
            checked += 1;
        }
        assert_eq!(checked, 60);
        let pos = game.start();
        let mut nodes = 0;
        assert_eq!(ending_score(&pos, -65, 65, &mut nodes, 1000), None);
        assert!(nodes <= 1001);
    }

    /// The published move-path counts from the start (a pass counts as a
    /// ply; none occurs before ply 9).
    #[test]
    fn perft_matches_the_published_counts_to_depth_8() {
        let game = Othello;
        let counts = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216];
        for (depth, &count) in (1..).zip(counts.iter()) {
            assert_eq!(perft(&game, &game.start(), depth), count, "depth {depth}");
        }
    }

    /// The bitboard count agrees with the generic walk, and with the
    /// published counts once their convention for finished games is
    /// allowed for.
    #[test]
    fn the_bitboard_perft_agrees_and_reaches_depth_10() {
        let game = Othello;
        let start = game.start();
        for depth in 1..=8 {
            assert_eq!(perft_bitboards(&start, depth), perft(&game, &start, depth));
        }
        assert_eq!(perft_bitboards(&start, 9), 3_005_288);
        // The published 24,571,284 for depth 10 also lets each game that is
        // over at ply 9 pass once more: it is ours plus those 228 games.
        let (me, them) = start.sides();
        let over = games_over_at(me, them, 9);
        assert_eq!(over, 228);
        assert_eq!(perft_bitboards(&start, 10) + over, 24_571_284);
        // A position with a pass in it: the walk and the count agree there too.
        let pos = OthelloPosition {
            black: 1 | (1 << 8),
            white: 1 << 1,
            to_move: Side::Second,
        };
        for depth in 1..=3 {
            assert_eq!(
                perft_bitboards(&pos, depth),
                perft(&game, &pos, depth),
                "depth {depth}"
            );
        }
    }

    /// Move paths of `depth` plies after which the game is over.
    fn games_over_at(me: u64, them: u64, depth: u32) -> u64 {
        let over = moves_of(me, them) == 0 && moves_of(them, me) == 0;
        if depth == 0 || over {
            return u64::from(depth == 0 && over);
        }
        let mut moves = moves_of(me, them);
        if moves == 0 {
            return games_over_at(them, me, depth - 1);
        }
        let mut total = 0;
        while moves != 0 {
            let square = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let flipped = flips(me, them, square);
            total += games_over_at(them & !flipped, me | flipped | (1 << square), depth - 1);
        }
        total
    }

    #[test]
    fn a_move_flips_every_line_it_closes() {
        let game = Othello;
        let pos = game.parse_position("f5").unwrap();
        // f5 closes the line e5 (white) against d5: e5 turns black.
        assert_eq!(pos.black.count_ones(), 4);
        assert_eq!(pos.white.count_ones(), 1);
        assert_eq!(game.turn(&pos), Side::Second);
        let same = game.parse_position("f5 d6 c3").unwrap();
        assert_eq!(game.parse_position("f5d6c3").unwrap(), same);
        assert_eq!(game.parse_position("F5, D6, C3").unwrap(), same);
        let err = game.parse_position("f5 d6 d6").unwrap_err();
        assert_eq!(err.number, 3);
        assert_eq!(err.reason.to_string(), "d6 is taken");
        let err = game.parse_position("a1").unwrap_err();
        assert_eq!(
            err.reason.to_string(),
            "a1 flips no disc: it must end a line of the other side's discs"
        );
        assert!(game.parse_position("i9").is_err());
        assert!(game.parse_position("pass").is_err(), "Black has moves");
    }

    #[test]
    fn a_side_without_a_move_passes_and_the_game_ends_when_neither_can_move() {
        let game = Othello;
        // Black on a1 and a2, White on b1, White to move: White closes no
        // line, while Black's c1 would close a1-b1.
        let pos = OthelloPosition {
            black: 1 | (1 << 8),
            white: 1 << 1,
            to_move: Side::Second,
        };
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        assert_eq!(moves, [PASS], "White has no move, Black has c1");
        assert_eq!(game.outcome(&pos), None);
        let passed = game.play(&pos, PASS);
        assert_eq!(game.turn(&passed), Side::First);
        assert!(game.is_legal(&passed, 2), "c1");
        let end = game.play(&passed, 2);
        // All discs black: nobody can move, Black wins.
        assert_eq!(end.white, 0);
        assert_eq!(game.outcome(&end), Some(Outcome::Win(Side::First)));
        game.legal_moves(&end, &mut moves);
        assert!(moves.is_empty());
        // Equal counts with no move left draw.
        let even = OthelloPosition {
            black: 1,
            white: 1 << 63,
            to_move: Side::First,
        };
        assert_eq!(game.outcome(&even), Some(Outcome::Draw));
    }

    #[test]
    fn random_games_keep_the_rules_invariants() {
        use rand::{RngExt, SeedableRng};
        let game = Othello;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let mut moves = Vec::new();
        let mut ends = 0;
        for _ in 0..200 {
            let mut pos = game.start();
            for _ in 0..130 {
                check_moves(&game, &pos).unwrap();
                game.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    ends += 1;
                    break;
                }
                pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
                assert_eq!(pos.black & pos.white, 0);
            }
        }
        assert_eq!(ends, 200, "every game ends within 130 plies");
    }

    #[test]
    fn a_board_string_is_a_position_and_its_faults_are_named() {
        let game = Othello;
        let start = "......../......../......../...OX.../...XO.../......../......../........ X";
        assert_eq!(game.parse_position(start).unwrap(), game.start());
        let flat = start.replace('/', "");
        assert_eq!(game.parse_position(&flat).unwrap(), game.start());
        let white = start.replace(" X", " O");
        assert_eq!(
            game.turn(&game.parse_position(&white).unwrap()),
            Side::Second
        );
        let no_side = game.parse_position(&start.replace(" X", "")).unwrap_err();
        assert!(
            no_side.to_string().contains("the side to move, X or O"),
            "{no_side}"
        );
        let short = game
            .parse_position(&start.replacen("........", ".......", 1))
            .unwrap_err();
        assert!(short.to_string().contains("only 63 squares"), "{short}");
        let bad = game
            .parse_position(&start.replacen('.', "b", 1))
            .unwrap_err();
        assert!(bad.to_string().contains("'b' is not a square"), "{bad}");
        assert_eq!(bad.number, 1);
    }

    #[test]
    fn the_board_is_drawn_with_its_legal_squares() {
        let game = Othello;
        let text = game.render(&game.start());
        assert_eq!(
            text,
            "   a b c d e f g h\n\
             1  . . . . . . . .\n\
             2  . . . . . . . .\n\
             3  . . . * . . . .\n\
             4  . . * O X . . .\n\
             5  . . . X O * . .\n\
             6  . . . . * . . .\n\
             7  . . . . . . . .\n\
             8  . . . . . . . .\n   X (black) 2, O (white) 2; * a legal square\n"
        );
    }

    #[test]
    fn the_eight_symmetries_are_the_squares_group() {
        let images: Vec<Vec<usize>> = (0..8)
            .map(|s| (0..64).map(|q| symmetric_square(s, q)).collect())
            .collect();
        for image in &images {
            let mut sorted = image.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..64).collect::<Vec<_>>(), "a permutation");
        }
        let mut distinct = images.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 8);
        // a1 goes to every corner; d4 to the four centre squares.
        let a1: std::collections::BTreeSet<usize> = images.iter().map(|i| i[0]).collect();
        assert_eq!(a1, [0, 7, 56, 63].into());
        // The start is symmetric under the half turn.
        let game = Othello;
        let start = game.start();
        let turned = |discs: u64| {
            (0..64).fold(0u64, |m, q| {
                m | (((discs >> q) & 1) << symmetric_square(3, q))
            })
        };
        assert_eq!(turned(start.black), start.black);
        assert_eq!(turned(start.white), start.white);
    }

    #[test]
    fn straight_tuples_are_one_line_per_class() {
        for length in 2..=8u8 {
            let lines = straight_tuples(length);
            assert_eq!(
                lines.len(),
                straight_count(length) as usize,
                "length {length}"
            );
            for line in &lines {
                assert_eq!(line.len(), length as usize);
                // Consecutive squares one step apart along one direction.
                let step = line[1] as i32 - line[0] as i32;
                assert!([1, 8, 9, 7].contains(&step), "{line:?}");
                assert!(line.windows(2).all(|w| w[1] as i32 - w[0] as i32 == step));
            }
        }
        // Jaśkowski's network of every straight pair: 288 weights, 9 per
        // tuple (here twice, one table for each side that left the board).
        assert_eq!(straight_count(2) as usize * 9, 288);
        assert_eq!(straight_count(1), 0);
        assert_eq!(straight_count(9), 0);
    }

    #[test]
    fn options_choose_the_encoders_and_refuse_what_does_not_fit() {
        let options = |encoder: &str, tuples: Option<u16>, length: Option<u8>| GameOptions {
            encoder: Some(encoder.to_string()),
            tuples,
            tuple_length: length,
            ..GameOptions::default()
        };
        assert_eq!(
            GenomeGame::<Othello>::from_options(&GameOptions::default()),
            Ok(Othello::STRAIGHT)
        );
        let four =
            GenomeGame::<Othello>::from_options(&options("straight", None, Some(4))).unwrap();
        assert_eq!(
            four.value_genome().unwrap(),
            NTuple {
                tuples: 21,
                length: 4
            }
        );
        let err =
            GenomeGame::<Othello>::from_options(&options("straight", Some(5), None)).unwrap_err();
        assert!(
            err.starts_with(
                "--tuples 5: the straight encoder has every straight line of 4 squares, 21 tuples"
            ),
            "{err}"
        );
        let snakes =
            GenomeGame::<Othello>::from_options(&options("ntuple", Some(20), Some(5))).unwrap();
        assert_eq!(
            snakes,
            GenomeGame::value(
                Othello,
                ValueGenome::drawn(NTuple {
                    tuples: 20,
                    length: 5
                })
            )
        );
        let err = GenomeGame::<Othello>::from_options(&options("subgrid", None, None)).unwrap_err();
        assert!(
            err.contains("othello encoders are straight and ntuple"),
            "{err}"
        );
        // A stored straight genome whose count is not the lines' is refused.
        let wrong = GenomeGame::value(
            Othello,
            ValueGenome::straight(NTuple {
                tuples: 5,
                length: 2,
            }),
        );
        assert!(wrong.validate().is_err());
    }
}
