//! The baseline opponent: a uniformly random legal move from a seeded PCG.

use super::Player;
use crate::games::Game;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// Plays a uniformly random legal move.
pub struct RandomPlayer<M> {
    rng: Pcg64Mcg,
    moves: Vec<M>,
}

impl<M> RandomPlayer<M> {
    /// Uniform random moves drawn from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: Pcg64Mcg::seed_from_u64(seed),
            moves: Vec::new(),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer<G::Move> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        game.legal_moves(pos, &mut self.moves);
        self.moves.choose(&mut self.rng).copied()
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}
