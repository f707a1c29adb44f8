//! Hexapawn's rules, shared by the examples that evolve it (`own_game`: a
//! vote table; `own_value_genome`: the engine's value genome).
//!
//! Martin Gardner's Hexapawn (1962) is the game his matchbox machine HER
//! learned: three pawns a side on a 3×3 board. A pawn steps forward onto an
//! empty square or captures diagonally forward. You win by reaching the far
//! row, by taking every enemy pawn, or when the side to move has no move.
//! With perfect play the second player wins.

use bebete_core::games::{BoardView, Game, MoveError, Notation, Outcome, Side};

/// The rules (no parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hexapawn;

/// Cells 0..9 row-major from the top: 0 empty, 1 the first player's pawn
/// (starting on the bottom row, moving up), 2 the second player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub cells: [u8; 9],
    pub second_to_move: bool,
}

/// A move: `from * 9 + to` (cells 0..9): 81 codes, few of them ever legal.
pub type Move = u8;
pub const MOVES: u8 = 81;

impl Board {
    pub fn mover(&self) -> u8 {
        1 + self.second_to_move as u8
    }
}

impl Game for Hexapawn {
    type Position = Board;
    type Move = Move;

    fn start(&self) -> Board {
        Board {
            cells: [2, 2, 2, 0, 0, 0, 1, 1, 1],
            second_to_move: false,
        }
    }
    fn turn(&self, pos: &Board) -> Side {
        if pos.second_to_move {
            Side::Second
        } else {
            Side::First
        }
    }
    fn outcome(&self, pos: &Board) -> Option<Outcome> {
        let loser = self.turn(pos);
        // The side that just moved wins on reaching its far row; the side
        // to move loses when it has no pawn or no move.
        let (far, last) = if pos.second_to_move {
            (0..3, 1)
        } else {
            (6..9, 2)
        };
        let stuck = || (0..MOVES).all(|mv| !self.is_legal(pos, mv));
        (pos.cells[far].contains(&last) || stuck()).then_some(Outcome::Win(loser.other()))
    }
    fn legal_moves(&self, pos: &Board, moves: &mut Vec<Move>) {
        moves.clear();
        if self.outcome(pos).is_none() {
            moves.extend((0..MOVES).filter(|&mv| self.is_legal(pos, mv)));
        }
    }
    fn is_legal(&self, pos: &Board, mv: Move) -> bool {
        let (from, to) = (mv as usize / 9, mv as usize % 9);
        let forward = if pos.second_to_move { 1 } else { -1 };
        let (rows, cols) = (
            to as isize / 3 - from as isize / 3,
            to as isize % 3 - from as isize % 3,
        );
        let want = if cols == 0 { 0 } else { 3 - pos.mover() }; // empty, or an enemy pawn
        pos.cells[from] == pos.mover()
            && rows == forward
            && cols.abs() <= 1
            && pos.cells[to] == want
    }
    fn play(&self, pos: &Board, mv: Move) -> Board {
        let mut next = *pos;
        next.cells[mv as usize % 9] = pos.mover();
        next.cells[mv as usize / 9] = 0;
        next.second_to_move = !pos.second_to_move;
        next
    }
}

impl Notation for Hexapawn {
    const MOVE_PROMPT: &'static str = "your move (from-to, cells 1-9): ";

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let cell = |t: &str| t.trim().parse::<u8>().ok().filter(|c| (1..=9).contains(c));
        let cells = text
            .split_once('-')
            .and_then(|(a, b)| Some((cell(a)?, cell(b)?)));
        let (from, to) = cells.ok_or(MoveError::Syntax {
            expected: "FROM-TO, cells 1-9: 8-5",
        })?;
        Ok((from - 1) * 9 + to - 1)
    }

    fn format_move(&self, mv: Move) -> String {
        format!("{}-{}", mv / 9 + 1, mv % 9 + 1)
    }

    fn notation_separator(&self) -> &'static str {
        ","
    }

    fn render(&self, pos: &Board) -> String {
        let mark = |c: &u8| ['.', 'W', 'B'][*c as usize];
        pos.cells
            .chunks(3)
            .map(|row| row.iter().map(mark).collect::<String>() + "\n")
            .collect()
    }

    fn view(&self, pos: &Board) -> BoardView {
        let cells = pos
            .cells
            .iter()
            .map(|&c| ['.', 'X', 'O'][c as usize])
            .collect();
        BoardView::Grid {
            rows: 3,
            columns: 3,
            cells,
            winning: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_and_the_notation() {
        let game = Hexapawn;
        let pos = game.parse_position("8-5,1-4").unwrap();
        assert_eq!(game.format_line(&[7 * 9 + 4, 3]), "8-5,1-4");
        assert_eq!(game.render(&pos), ".BB\nBW.\nW.W\n");
        // A step onto a pawn, a capture of nothing, a backward step: refused.
        assert!(game.parse_position("8-5,2-5").is_err());
        assert!(game.parse_position("8-4").is_err());
        assert!(game.parse_position("8-5,1-4,5-8").is_err());
    }
}
