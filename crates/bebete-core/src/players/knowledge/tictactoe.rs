//! What the fixed opponents know of tic-tac-toe: centre, corners, edges;
//! open lines; the whole game solved in a table.

use super::{Exact, Knowledge, SolvedExact, open_lines};
use crate::games::{Game, TicTacToe, TicTacToePosition};
use std::sync::Arc;

impl Knowledge for TicTacToe {
    const RULES_PLAYER: &'static str = "win, block, the centre, a corner, an edge";
    const SOLVABLE: bool = true;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        vec![vec![4], vec![0, 2, 6, 8], vec![1, 3, 5, 7]]
    }

    fn opponent_wins_by(&self, pos: &TicTacToePosition, cell: u8) -> bool {
        let opponent = pos.stones(self.turn(pos).other());
        pos.empty() & (1 << cell) != 0 && crate::games::tictactoe_has_line(opponent | 1 << cell)
    }

    fn heuristic(&self, pos: &TicTacToePosition) -> i32 {
        let me = pos.stones(self.turn(pos));
        let them = pos.stones(self.turn(pos).other());
        open_lines(&crate::games::TICTACTOE_LINES, me as u64, them as u64)
    }

    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        Some(Arc::new(SolvedExact::default()))
    }
}
