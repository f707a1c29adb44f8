//! Checkers notation: moves (`11-15`, `15x24x31`) and FEN positions
//! (`B:W18,24,27,K28:B12,16,20,K22`).

use super::*;

impl Checkers {
    /// The position as a FEN string (`B:W18,24,K28:B12,16`).
    #[cfg(test)]
    pub(crate) fn fen(&self, pos: &CheckersPosition) -> String {
        let list = |pieces: u32| {
            (0..SQUARES)
                .filter(|&sq| pieces & (1 << sq) != 0)
                .map(|sq| {
                    let king = if pos.kings & (1 << sq) != 0 { "K" } else { "" };
                    format!("{king}{}", sq + 1)
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}:W{}:B{}",
            if pos.to_move == Side::First { 'B' } else { 'W' },
            list(pos.white),
            list(pos.black)
        )
    }

    /// Reads a FEN string; says what is wrong with a bad one.
    pub(crate) fn parse_fen(&self, text: &str) -> Result<CheckersPosition, FenError> {
        let text = text.trim().trim_end_matches('.');
        let mut parts = text.split(':');
        let to_move = match parts.next().map(str::trim) {
            Some("B") | Some("b") => Side::First,
            Some("W") | Some("w") => Side::Second,
            other => {
                return Err(FenError::SideToMove(other.unwrap_or_default().to_string()));
            }
        };
        let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
        let mut sides_read = 0;
        for part in parts {
            let part = part.trim();
            let (side, list) = match part.split_at_checked(1) {
                Some(("W" | "w", list)) => (Side::Second, list),
                Some(("B" | "b", list)) => (Side::First, list),
                _ => {
                    return Err(FenError::SideList(part.to_string()));
                }
            };
            sides_read += 1;
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (king, squares) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let number = |s: &str| -> Result<usize, FenError> {
                    match s.parse::<usize>() {
                        Ok(n) if (1..=32).contains(&n) => Ok(n - 1),
                        _ => Err(FenError::Square(item.to_string())),
                    }
                };
                let (first, last) = match squares.split_once('-') {
                    Some((a, b)) => (number(a)?, number(b)?),
                    None => (number(squares)?, number(squares)?),
                };
                for sq in first..=last {
                    let bit = 1u32 << sq;
                    if (black | white) & bit != 0 {
                        return Err(FenError::Twice(sq as u8 + 1));
                    }
                    match side {
                        Side::First => black |= bit,
                        Side::Second => white |= bit,
                    }
                    if king {
                        kings |= bit;
                    }
                }
            }
        }
        if sides_read == 0 {
            return Err(FenError::NoPieces);
        }
        let men = (black | white) & !kings;
        if men & ((black & BLACK_CROWN) | (white & WHITE_CROWN)) != 0 {
            return Err(FenError::UncrownedMan);
        }
        Ok(CheckersPosition::new(black, white, kings, to_move))
    }
}

/// What is wrong with a FEN string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// It does not start with `B` or `W`.
    #[error("a FEN string starts with the side to move, B or W (found '{0}')")]
    SideToMove(String),
    /// A list of pieces that does not start with `W` or `B`.
    #[error("'{0}': each side's list starts with W or B (W18,24,K28)")]
    SideList(String),
    /// A square or a range with a square outside 1–32.
    #[error("'{0}': squares are 1-32")]
    Square(String),
    /// A square given twice.
    #[error("square {0} is listed twice")]
    Twice(u8),
    /// No list of pieces.
    #[error("a FEN string lists the pieces: B:W21-32:B1-12")]
    NoPieces,
    /// A man on its crowning row.
    #[error("a man stands on its crowning row: it would be a king")]
    UncrownedMan,
}

/// Reads one move: `11-15`, or a capture with every landing square.
pub(super) fn parse_move(text: &str) -> Result<CheckersMove, MoveError> {
    const EXPECTED: &str = "a move is two squares 1-32 joined by - (11-15), or a capture with every landing square joined by x (15x24, 15x24x31)";
    let text = text.trim();
    let capture = text.contains(['x', 'X', ':']);
    let squares: Vec<usize> = text
        .split(['-', 'x', 'X', ':'])
        .map(|s| match crate::games::plain_number(s.trim()) {
            Some(n @ 1..=32) => Ok(n as usize - 1),
            _ => Err(MoveError::Syntax { expected: EXPECTED }),
        })
        .collect::<Result<_, _>>()?;
    if squares.len() < 2 || (!capture && squares.len() != 2) || squares.len() > MAX_HOPS + 1 {
        return Err(MoveError::Syntax { expected: EXPECTED });
    }
    if !capture {
        return Ok(CheckersMove::step(squares[0], squares[1]));
    }
    let mut mv = CheckersMove {
        from: squares[0] as u8,
        path: 0,
        hops: 0,
        captured: 0,
    };
    for pair in squares.windows(2) {
        let (r0, c0) = row_col(pair[0]);
        let (r1, c1) = row_col(pair[1]);
        if (r1 - r0).abs() != 2 || (c1 - c0).abs() != 2 {
            return Err(MoveError::Illegal(format!(
                "{}x{} is not a jump: write every landing square (15x24x31)",
                pair[0] + 1,
                pair[1] + 1
            )));
        }
        let over = square_at((r0 + r1) / 2, (c0 + c1) / 2).unwrap_or_default();
        mv = mv.then_jump(over, pair[1]);
    }
    Ok(mv)
}

/// Writes one move as [`parse_move`] reads it.
pub(super) fn format_move(mv: CheckersMove) -> String {
    let sep = if mv.is_capture() { "x" } else { "-" };
    let mut text = (mv.from + 1).to_string();
    for sq in mv.landings() {
        text.push_str(sep);
        text.push_str(&(sq + 1).to_string());
    }
    text
}
