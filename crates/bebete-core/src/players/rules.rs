//! The `rules` player: win if possible, else block, else a fixed preference.

use super::Player;
use super::knowledge::Knowledge;
use crate::games::Outcome;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;

/// Wins at once when it can, blocks the opponent's immediate win, and
/// otherwise plays the first preference class that has a legal move (centre,
/// corners, edges; Connect-Four columns from the centre out), choosing at
/// random within a class.
pub struct RulesPlayer<M> {
    rng: Pcg64Mcg,
    moves: Vec<M>,
}

impl<M> RulesPlayer<M> {
    /// The rules player, breaking ties with a stream seeded by `seed`.
    pub fn new(seed: u64) -> Self {
        RulesPlayer {
            rng: Pcg64Mcg::seed_from_u64(seed),
            moves: Vec::new(),
        }
    }

    fn pick(&mut self, candidates: &[M]) -> Option<M>
    where
        M: Copy,
    {
        candidates.choose(&mut self.rng).copied()
    }
}

impl<G: Knowledge> Player<G> for RulesPlayer<G::Move> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        game.legal_moves(pos, &mut self.moves);
        let me = game.turn(pos);
        let moves = std::mem::take(&mut self.moves);
        let wins: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&m| game.outcome(&game.play(pos, m)) == Some(Outcome::Win(me)))
            .collect();
        if let Some(best) = game.rule_moves(pos, &moves) {
            let choice = self.pick(&wins).or_else(|| self.pick(&best));
            let choice = choice.or_else(|| self.pick(&moves));
            self.moves = moves;
            return choice;
        }
        let blocks: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&m| game.opponent_wins_by(pos, m))
            .collect();
        let mut choice = self.pick(&wins).or_else(|| self.pick(&blocks));
        if choice.is_none() {
            for class in game.preference_classes() {
                let legal: Vec<G::Move> = class.into_iter().filter(|m| moves.contains(m)).collect();
                choice = self.pick(&legal);
                if choice.is_some() {
                    break;
                }
            }
        }
        let choice = choice.or_else(|| self.pick(&moves));
        self.moves = moves;
        choice
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }
}
