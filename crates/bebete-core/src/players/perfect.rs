//! The `perfect` player: exact play with the best score, at random among
//! equally good moves.

use super::Player;
use super::knowledge::{Exact, ExactSolver, Knowledge};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Plays a move with the best exact score: the fastest win, else a draw,
/// else the slowest loss (a lost perfect player still resists), chosen at
/// random among moves of equal score.
pub struct PerfectPlayer<G: Knowledge> {
    solver: Box<dyn ExactSolver<G>>,
    rng: Pcg64Mcg,
}

impl<G: Knowledge> PerfectPlayer<G> {
    /// A perfect player of `exact` (from [`Knowledge::exact`]).
    pub fn new(game: &G, exact: &dyn Exact<G>, seed: u64) -> Self {
        PerfectPlayer {
            solver: exact.solver(game),
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

impl<G: Knowledge> Player<G> for PerfectPlayer<G> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        let scores = self.solver.move_scores(game, pos);
        super::best_at_random(&scores, &mut self.rng)
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}
