//! What the player of peg solitaire knows: the fewest pegs each jump can
//! still end with.

use super::{ExactSolver, Knowledge, score_moves};
use crate::games::{Solitaire, SolitairePosition};
use crate::puzzle::{MAX_POSITIONS, SoloTable};
use crate::solve::Score;
use std::sync::Arc;

/// Peg solitaire: one player, so no preferences, threats or opponents; its
/// exact solver reads the fewest pegs each jump can still end with from a
/// table of every reachable position ([`SoloTable`]).
impl Knowledge for Solitaire {
    /// The solved table; `None` when the board is too large to solve.
    type Oracle = Option<SoloTable>;
    const SOLVABLE: bool = false;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        Vec::new()
    }

    fn opponent_wins_by(&self, _pos: &SolitairePosition, _mv: u8) -> bool {
        false
    }

    fn heuristic(&self, pos: &SolitairePosition) -> i32 {
        -(pos.pegs_left() as i32)
    }

    fn exact_oracle(&self) -> Arc<Self::Oracle> {
        Arc::new(SoloTable::build(self, MAX_POSITIONS).ok())
    }

    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>> {
        Box::new(SoloSolver(oracle.clone()))
    }
}

/// Scores a jump by the fewest pegs it can still end with: fewer is higher.
struct SoloSolver(Arc<Option<SoloTable>>);

impl ExactSolver<Solitaire> for SoloSolver {
    fn move_scores(&mut self, game: &Solitaire, pos: &SolitairePosition) -> Vec<(u8, Score)> {
        score_moves(game, pos, |next| {
            let best = (*self.0)
                .as_ref()
                .and_then(|t| t.get(next))
                .map_or(next.pegs_left() as i32, |e| e.best as i32);
            Score::raw(-best)
        })
    }
}
