//! What the fixed opponents know of tic-tac-toe: centre, corners, edges;
//! open lines; the whole game solved in a table.

use super::{ExactSolver, Knowledge, TableSolver, open_lines};
use crate::games::{Game, TicTacToe, TicTacToePosition};
use crate::solve::SolvedTable;
use std::sync::Arc;

impl Knowledge for TicTacToe {
    type Oracle = SolvedTable<TicTacToePosition>;
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

    fn exact_oracle(&self) -> Arc<Self::Oracle> {
        Arc::new(SolvedTable::build(self))
    }

    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>> {
        Box::new(TableSolver::new(self, oracle))
    }
}
