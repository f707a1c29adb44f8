//! A genome as a player: one table lookup per move, inside its tactical
//! shell when it has one.

use super::Player;
use crate::encoding::shell::GenomeRules;
use crate::encoding::{Explanation, GeneUsage, IllegalPolicy, TableGame};
use std::sync::Arc;

/// Plays the moves its gene table dictates. The table may be owned and
/// shared (`Arc<[u8]>`, the default) or borrowed from a population.
pub struct GenomePlayer<T = Arc<[u8]>> {
    genes: T,
    rules: GenomeRules,
}

impl<T: AsRef<[u8]>> GenomePlayer<T> {
    /// The pure genome.
    pub fn new(genes: T, policy: IllegalPolicy) -> Self {
        GenomePlayer {
            genes,
            rules: policy.into(),
        }
    }

    /// The genome playing by `rules` (its policy and shell).
    pub fn with_rules(genes: T, rules: GenomeRules) -> Self {
        GenomePlayer { genes, rules }
    }

    /// The genome inside a tactical shell of `lookahead` plies (0: pure).
    pub fn with_lookahead(mut self, lookahead: u8) -> Self {
        self.rules.lookahead = lookahead;
        self
    }
}

impl<G: TableGame, T: AsRef<[u8]> + Send> Player<G> for GenomePlayer<T> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        self.rules.decide(game, self.genes.as_ref(), pos)
    }
}

/// A genome player that also marks, in a shared [`GeneUsage`], every gene
/// index its decisions read (for `--mutate used`).
pub struct RecordingPlayer<'u, T> {
    player: GenomePlayer<T>,
    usage: &'u GeneUsage,
}

impl<'u, T: AsRef<[u8]>> RecordingPlayer<'u, T> {
    /// Records the decisions of `player`.
    pub fn new(player: GenomePlayer<T>, usage: &'u GeneUsage) -> Self {
        RecordingPlayer { player, usage }
    }
}

impl<G: TableGame, T: AsRef<[u8]> + Send> Player<G> for RecordingPlayer<'_, T> {
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move> {
        let GenomePlayer { genes, rules } = &self.player;
        let reason = game.explain(genes.as_ref(), pos, rules.policy);
        reason.consulted().for_each(|i| self.usage.mark(i));
        match rules.lookahead {
            0 => reason.chosen(),
            _ => rules.decide(game, genes.as_ref(), pos),
        }
    }
}
