//! The board as `play` and `explain` draw it.

use super::*;

/// The board from Black's side with the empty squares numbered; `>` marks
/// where the last move ended.
pub(super) fn board(pos: &CheckersPosition, last: Option<CheckersMove>) -> String {
    let mut out = String::new();
    for row in 0..8 {
        out.push_str("  ");
        for col in 0..8 {
            match square_at(row, col) {
                None => out.push_str("  ·"),
                Some(sq) => {
                    let mark = if last.is_some_and(|m| m.to() == sq) {
                        '>'
                    } else {
                        ' '
                    };
                    match pos.piece_char(sq) {
                        '.' => out.push_str(&format!("{:>3}", sq + 1)),
                        c => {
                            out.push(' ');
                            out.push(mark);
                            out.push(c);
                        }
                    }
                }
            }
        }
        out.push('\n');
    }
    out.push_str("  (b/B: Black man/king, moving down; w/W: White, moving up");
    if last.is_some() {
        out.push_str("; > the last move");
    }
    out.push_str(")\n");
    out
}
