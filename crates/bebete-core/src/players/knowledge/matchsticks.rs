//! What the fixed opponents know of matchsticks: nothing but the solved
//! table.

use super::{ExactSolver, Knowledge, TableSolver};
use crate::games::{Matchsticks, MatchsticksPosition};
use crate::solve::SolvedTable;
use std::sync::Arc;

impl Knowledge for Matchsticks {
    type Oracle = SolvedTable<MatchsticksPosition>;
    const SOLVABLE: bool = true;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        Vec::new()
    }

    fn opponent_wins_by(&self, _pos: &MatchsticksPosition, _take: u8) -> bool {
        false
    }

    fn heuristic(&self, _pos: &MatchsticksPosition) -> i32 {
        0
    }

    fn exact_oracle(&self) -> Arc<Self::Oracle> {
        Arc::new(SolvedTable::build(self))
    }

    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>> {
        Box::new(TableSolver::new(self, oracle))
    }
}
