//! A genome as a player: one table lookup per move.

use super::Player;
use crate::encoding::{Genotype, IllegalPolicy};
use std::sync::Arc;

/// Plays the moves its gene table dictates.
pub struct GenomePlayer {
    genes: Arc<[u8]>,
    policy: IllegalPolicy,
}

impl GenomePlayer {
    pub fn new(genes: impl Into<Arc<[u8]>>, policy: IllegalPolicy) -> Self {
        GenomePlayer {
            genes: genes.into(),
            policy,
        }
    }
}

impl<G: Genotype> Player<G> for GenomePlayer {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        game.decide(&self.genes, pos, self.policy)
    }
}
