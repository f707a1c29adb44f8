//! What the fixed opponents know of Connect-Four: columns from the centre
//! out, open lines of four, the exact solver and the position bank.

use super::{Exact, ExactSolver, GameBank, Knowledge, open_lines};
use crate::bank::BankSource;
use crate::games::{Connect4, Connect4Position};
use crate::solve::Score;
use crate::store::FileError;
use std::sync::Arc;

/// The Connect-Four board, as the line table and the solver's board string use it.
const WIDTH: i32 = crate::games::CONNECT4_WIDTH as i32;
const HEIGHT: i32 = crate::games::CONNECT4_HEIGHT as i32;
const STRIDE: i32 = crate::games::CONNECT4_STRIDE as i32;

/// The 69 four-cell lines of the Connect-Four board, as bitboard masks.
static CONNECT4_LINES: [u64; 69] = {
    let mut lines = [0u64; 69];
    let mut n = 0;
    let mut col = 0;
    while col < WIDTH {
        let mut row = 0;
        while row < HEIGHT {
            // (dcol, drow): horizontal, vertical, diagonal up, diagonal down
            let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
            let mut d = 0;
            while d < 4 {
                let (dc, dr) = dirs[d];
                let (end_c, end_r) = (col + 3 * dc, row + 3 * dr);
                if end_c >= 0 && end_c < WIDTH && end_r >= 0 && end_r < HEIGHT {
                    let mut mask = 0u64;
                    let mut k = 0;
                    while k < 4 {
                        let c = col + k * dc;
                        let r = row + k * dr;
                        mask |= 1 << (c * STRIDE + r);
                        k += 1;
                    }
                    lines[n] = mask;
                    n += 1;
                }
                d += 1;
            }
            row += 1;
        }
        col += 1;
    }
    lines
};

impl Knowledge for Connect4 {
    const RULES_PLAYER: &'static str = "win, block, the column nearest the centre";
    const SOLVABLE: bool = false;
    const BANKED: bool = true;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        vec![vec![3], vec![2, 4], vec![1, 5], vec![0, 6]]
    }

    fn opponent_wins_by(&self, pos: &Connect4Position, col: u8) -> bool {
        let col = col as u32;
        if !pos.can_play(col) {
            return false;
        }
        let column = ((1u64 << HEIGHT) - 1) << (STRIDE as u32 * col);
        let drop = (pos.mask + crate::games::connect4_bottom_mask(col)) & column;
        crate::games::connect4_has_four(pos.opponent() | drop)
    }

    fn heuristic(&self, pos: &Connect4Position) -> i32 {
        open_lines(&CONNECT4_LINES, pos.current, pos.opponent())
    }

    /// Each solver keeps its own transposition table: nothing is shared.
    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        Some(Arc::new(Connect4Exact))
    }

    fn bank(&self, source: &BankSource) -> Result<Option<GameBank<Self>>, FileError> {
        source.connect4().map(Some)
    }
}

/// Exact play of Connect-Four: a fresh [`Connect4Solver`] each time.
struct Connect4Exact;

impl Exact<Connect4> for Connect4Exact {
    fn solver(&self, _: &Connect4) -> Box<dyn ExactSolver<Connect4>> {
        Box::new(Connect4Solver::new())
    }
}

/// Connect-Four solved exactly: Pascal Pons' negamax (alpha-beta with a
/// null-window search on the score, a transposition table, moves ordered by
/// the threats they make) over the board, table and opening book (depth 8)
/// of the `connect-four-ai` crate, whose board uses our bit layout. The
/// search is ours so that it looks at the thread's [`crate::budget`]: under
/// the server's time for a move or a hang-up it stops within a millisecond,
/// and it leaves nothing half-searched in its table.
pub struct Connect4Solver {
    solver: connect_four_ai::Solver,
}

impl Connect4Solver {
    /// A solver with an empty table.
    pub fn new() -> Self {
        Connect4Solver {
            solver: connect_four_ai::Solver::new(),
        }
    }

    /// The external solver's view of our position.
    fn convert(pos: &Connect4Position) -> connect_four_ai::Position {
        let mut board = String::with_capacity((WIDTH as usize + 1) * HEIGHT as usize);
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let bit = 1u64 << (col * STRIDE + row);
                board.push(if pos.current & bit != 0 {
                    'x'
                } else if pos.mask & bit != 0 {
                    'o'
                } else {
                    '.'
                });
            }
            board.push('\n');
        }
        connect_four_ai::Position::from_board_string(&board)
            .expect("a 42-cell board string is always well formed")
    }

    /// The exact score of each column (positive: the mover wins). Under a
    /// spent budget the scores are meaningless (the caller's
    /// [`crate::budget::within`] drops them).
    pub fn scores(&mut self, pos: &Connect4Position) -> [Option<i8>; WIDTH as usize] {
        super::connect4_search::move_scores(&mut self.solver, &Self::convert(pos))
    }
}

impl Default for Connect4Solver {
    fn default() -> Self {
        Self::new()
    }
}

/// The solver's scores (Pascal Pons' scale: a win scores the winner's
/// stones left unplayed, plus one; a loss the negative), already higher for
/// a faster win and a slower loss.
impl ExactSolver<Connect4> for Connect4Solver {
    fn move_scores(&mut self, _game: &Connect4, pos: &Connect4Position) -> Vec<(u8, Score)> {
        self.scores(pos)
            .iter()
            .enumerate()
            .filter_map(|(col, score)| score.map(|s| (col as u8, Score::raw(s.into()))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Notation, TicTacToe};
    use crate::solve::Value;

    #[test]
    fn connect4_has_69_lines_of_four() {
        assert!(CONNECT4_LINES.iter().all(|l| l.count_ones() == 4));
        let distinct: std::collections::HashSet<_> = CONNECT4_LINES.iter().collect();
        assert_eq!(distinct.len(), 69);
    }

    #[test]
    fn threats_are_seen() {
        let ttt = TicTacToe::BASE3;
        // "152": X on cells 0 and 1, O on cell 4; O to move, and X
        // threatens cell 2.
        let pos = ttt.parse_position("152").unwrap();
        assert!(ttt.opponent_wins_by(&pos, 2));
        assert!(!ttt.opponent_wins_by(&pos, 8));
        let c4 = Connect4::SUBGRID;
        // X has three in column 1; O to move must block column 1.
        let pos = c4.parse_position("12121").unwrap();
        assert!(c4.opponent_wins_by(&pos, 0));
        assert!(!c4.opponent_wins_by(&pos, 1));
    }

    #[test]
    fn the_connect4_solver_knows_the_opening() {
        let mut solver = Connect4Solver::new();
        let values = solver.move_values(&Connect4, &Connect4.start());
        // Only the centre column wins for the first player; 3 and 5 draw.
        let wins: Vec<u8> = values
            .iter()
            .filter(|(_, v)| *v == Value::Win)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(wins, vec![3]);
        let draws: Vec<u8> = values
            .iter()
            .filter(|(_, v)| *v == Value::Draw)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(draws, vec![2, 4]);
    }
}
