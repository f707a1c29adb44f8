//! What the fixed opponents know of matchsticks: nothing but the solved
//! table.

use super::{Exact, Knowledge, SolvedExact};
use crate::games::{Matchsticks, MatchsticksPosition};
use std::sync::Arc;

impl Knowledge for Matchsticks {
    const RULES_PLAYER: &'static str = "win at once, else a random take";
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

    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        Some(Arc::new(SolvedExact::default()))
    }
}
