//! One-ply players: `wpc`, the move after which the game's static
//! evaluation is best, and `PLAYER@ε`, any player with random moves.

use super::Player;
use super::knowledge::Knowledge;
use crate::games::Game;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Plays the move whose position the game's heuristic values best for it
/// (Othello: the weighted piece counter), ties at random. A move that ends
/// the game is valued by the same count, as the papers' heuristic player
/// values it.
pub struct GreedyPlayer<M> {
    rng: Pcg64Mcg,
    moves: Vec<M>,
    best: Vec<M>,
}

impl<M> GreedyPlayer<M> {
    /// A greedy player breaking ties with a stream seeded by `seed`.
    pub fn new(seed: u64) -> Self {
        GreedyPlayer {
            rng: Pcg64Mcg::seed_from_u64(seed),
            moves: Vec::new(),
            best: Vec::new(),
        }
    }
}

impl<G: Knowledge> Player<G> for GreedyPlayer<G::Move> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        game.legal_moves(pos, &mut self.moves);
        let mut top = i32::MIN;
        self.best.clear();
        for &mv in &self.moves {
            // The heuristic is for the side to move after `mv`: the opponent.
            let score = -game.heuristic(&game.play(pos, mv));
            if score > top {
                top = score;
                self.best.clear();
            }
            if score == top {
                self.best.push(mv);
            }
        }
        self.best.choose(&mut self.rng).copied()
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}

/// Another player, but a uniformly random legal move instead with
/// probability `rate`: the Othello benchmark's ε-greedy sides, which make
/// two deterministic players play many different games.
pub struct NoisyPlayer<G: Game> {
    inner: Box<dyn Player<G>>,
    rate: f64,
    rng: Pcg64Mcg,
    moves: Vec<G::Move>,
}

/// Keeps the coin's stream apart from the inner player's, which is seeded
/// with the same seed.
const COIN_STREAM: u64 = 0x9e37_79b9_7f4a_7c15;

impl<G: Game> NoisyPlayer<G> {
    /// `inner`, playing a random move instead at `rate`, drawn from `seed`.
    pub fn new(inner: Box<dyn Player<G>>, rate: f64, seed: u64) -> Self {
        NoisyPlayer {
            inner,
            rate,
            rng: Pcg64Mcg::seed_from_u64(seed ^ COIN_STREAM),
            moves: Vec::new(),
        }
    }
}

impl<G: Game> Player<G> for NoisyPlayer<G> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        if self.rng.random::<f64>() < self.rate {
            game.legal_moves(pos, &mut self.moves);
            if let Some(&mv) = self.moves.choose(&mut self.rng) {
                return Some(mv);
            }
        }
        self.inner.choose(game, pos)
    }

    fn reseed(&mut self, seed: u64) {
        self.inner.reseed(seed);
        self.rng = Pcg64Mcg::seed_from_u64(seed ^ COIN_STREAM);
    }
}
