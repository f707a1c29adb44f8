//! The `perfect` player: exact play, at random among equally good moves.

use super::Player;
use super::knowledge::{ExactSolver, Knowledge};
use crate::solve::Value;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// Plays a move that keeps the position's game-theoretic value (a win if it
/// can, else a draw), chosen at random among all such moves.
pub struct PerfectPlayer<G: Knowledge> {
    solver: Box<dyn ExactSolver<G>>,
    rng: Pcg64Mcg,
}

impl<G: Knowledge> PerfectPlayer<G> {
    /// A perfect player using `oracle` (from [`Knowledge::exact_oracle`]).
    pub fn new(game: &G, oracle: &std::sync::Arc<G::Oracle>, seed: u64) -> Self {
        PerfectPlayer {
            solver: game.exact_solver(oracle),
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

fn rank(value: Value) -> u8 {
    match value {
        Value::Win => 2,
        Value::Draw => 1,
        Value::Loss => 0,
    }
}

impl<G: Knowledge> Player<G> for PerfectPlayer<G> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        let values = self.solver.move_values(game, pos);
        let best = values.iter().map(|&(_, v)| rank(v)).max()?;
        let ties: Vec<G::Move> = values
            .iter()
            .filter(|&&(_, v)| rank(v) == best)
            .map(|&(m, _)| m)
            .collect();
        ties.choose(&mut self.rng).copied()
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}
