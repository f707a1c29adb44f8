//! The `mc:N` player: N random playouts after each legal move.

use super::Player;
use crate::games::Game;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// For each legal move, plays `playouts` uniformly random games to the end
/// and keeps the move with the most points (win 2, draw 1); ties at random.
pub struct MonteCarloPlayer<M> {
    playouts: u32,
    rng: Pcg64Mcg,
    moves: Vec<M>,
    scratch: Vec<M>,
}

impl<M> MonteCarloPlayer<M> {
    /// `playouts` random games a move, drawn from `seed`.
    pub fn new(playouts: u32, seed: u64) -> Self {
        MonteCarloPlayer {
            playouts,
            rng: Pcg64Mcg::seed_from_u64(seed),
            moves: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl<G: Game> Player<G> for MonteCarloPlayer<G::Move> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        game.legal_moves(pos, &mut self.moves);
        let me = game.turn(pos);
        let moves = std::mem::take(&mut self.moves);
        let mut best: Vec<G::Move> = Vec::new();
        let mut best_points = 0u64;
        for &mv in &moves {
            let after = game.play(pos, mv);
            let mut points = 0u64;
            for _ in 0..self.playouts {
                if crate::budget::spent() {
                    break;
                }
                let mut p = after;
                let outcome = loop {
                    if let Some(o) = game.outcome(&p) {
                        break o;
                    }
                    game.legal_moves(&p, &mut self.scratch);
                    let m = *self
                        .scratch
                        .choose(&mut self.rng)
                        .expect("an unfinished game has moves");
                    p = game.play(&p, m);
                };
                points += outcome.points(me) as u64;
            }
            if best.is_empty() || points > best_points {
                best.clear();
                best_points = points;
            }
            if points == best_points {
                best.push(mv);
            }
        }
        self.moves = moves;
        best.choose(&mut self.rng).copied()
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}
