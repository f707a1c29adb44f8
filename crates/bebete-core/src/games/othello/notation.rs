//! Squares and boards written as text.

use super::{OthelloPosition, Side};

/// `a1` … `h8`.
pub(super) fn square_name(square: u8) -> String {
    let (row, col) = (square / 8, square % 8);
    format!("{}{}", (b'a' + col) as char, row + 1)
}

/// A board written as 64 squares and the side to move
/// ([`Othello::parse_position`](crate::games::Notation::parse_position)).
pub(super) fn parse_board(text: &str) -> Result<OthelloPosition, String> {
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
pub(super) fn cell(pos: &OthelloPosition, square: u8) -> char {
    let bit = 1u64 << square;
    if pos.black & bit != 0 {
        'X'
    } else if pos.white & bit != 0 {
        'O'
    } else {
        '.'
    }
}
