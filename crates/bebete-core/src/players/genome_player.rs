//! A genome as a player: one table lookup per move, inside its tactical
//! shell when it has one.

use super::Player;
use crate::encoding::shell::PlayStyle;
use crate::encoding::{IllegalPolicy, TableGame};
use std::sync::Arc;

/// Plays the moves its gene table dictates. The table may be owned and
/// shared (`Arc<[u8]>`, the default) or borrowed from a population.
pub struct GenomePlayer<T = Arc<[u8]>> {
    genes: T,
    rules: PlayStyle,
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
    pub(crate) fn with_rules(genes: T, rules: PlayStyle) -> Self {
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
