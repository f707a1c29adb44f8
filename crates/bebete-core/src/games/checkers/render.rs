//! The board as `play` and `explain` draw it.

use super::*;

/// The board from Black's side, with every square's number in a key
/// beside it (as on the page); `>` marks where the last move ended.
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
                    out.push(' ');
                    out.push(mark);
                    out.push(pos.piece_char(sq));
                }
            }
        }
        out.push_str("     ");
        for col in 0..8 {
            match square_at(row, col) {
                None => out.push_str("  ·"),
                Some(sq) => out.push_str(&format!("{:>3}", sq + 1)),
            }
        }
        out.push('\n');
    }
    out.push_str("  (b/B: Black man/king, moving down; w/W: White, moving up; . empty; the squares' numbers on the right");
    if last.is_some() {
        out.push_str("; > the last move");
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every square is numbered, occupied or not, beside the board.
    #[test]
    fn every_square_is_numbered_beside_the_board() {
        let game = Checkers::SUBGRID;
        let text = board(&game.start(), None);
        let first = text.lines().next().unwrap();
        assert_eq!(
            first,
            "    ·  b  ·  b  ·  b  ·  b       ·  1  ·  2  ·  3  ·  4"
        );
        let numbers: Vec<u32> = text
            .lines()
            .take(8)
            .flat_map(|l| l.split("     ").nth(1).unwrap().split_whitespace())
            .filter_map(|t| t.parse().ok())
            .collect();
        assert_eq!(numbers, (1..=32).collect::<Vec<_>>());
    }
}
