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

use super::{BoardView, Game, MoveError, NotationError, Outcome, Side};

/// The move of a side that cannot put a disc anywhere.
pub const PASS: u8 = 64;

/// Othello on the standard board (no rule parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Othello;

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
            let len = if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case("pass") {
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
}
