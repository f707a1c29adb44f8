//! A genome as a player: one table lookup per move.

use super::Player;
use crate::encoding::{Explanation, GeneUsage, Genotype, IllegalPolicy};
use std::sync::Arc;

/// Plays the moves its gene table dictates. The table may be owned and
/// shared (`Arc<[u8]>`, the default) or borrowed from a population.
pub struct GenomePlayer<T = Arc<[u8]>> {
    genes: T,
    policy: IllegalPolicy,
}

impl<T: AsRef<[u8]>> GenomePlayer<T> {
    pub fn new(genes: T, policy: IllegalPolicy) -> Self {
        GenomePlayer { genes, policy }
    }
}

impl<G: Genotype, T: AsRef<[u8]> + Send> Player<G> for GenomePlayer<T> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        game.decide(self.genes.as_ref(), pos, self.policy)
    }
}

/// A genome player that also marks, in a shared [`GeneUsage`], every gene
/// index its decisions read (for `--mutate used`).
pub struct RecordingPlayer<'u, T> {
    player: GenomePlayer<T>,
    usage: &'u GeneUsage,
}

impl<'u, T: AsRef<[u8]>> RecordingPlayer<'u, T> {
    pub fn new(genes: T, policy: IllegalPolicy, usage: &'u GeneUsage) -> Self {
        RecordingPlayer {
            player: GenomePlayer::new(genes, policy),
            usage,
        }
    }
}

impl<G: Genotype, T: AsRef<[u8]> + Send> Player<G> for RecordingPlayer<'_, T> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        let GenomePlayer { genes, policy } = &self.player;
        let reason = game.explain(genes.as_ref(), pos, *policy);
        reason.consulted().for_each(|i| self.usage.mark(i));
        reason.chosen()
    }
}
