//! Matchsticks: the state picks the gene; the gene is how many sticks to take.
//!
//! Subtract rule: index = sticks left (N+1 genes). Double rule: index =
//! sticks left × (N+1) + the most that may be taken now ((N+1)² genes), or
//! with the `sticks` encoder sticks left alone (N+1 genes).

use super::{GeneLookup, IllegalPolicy, TableGame};
use crate::games::{Matchsticks, MatchsticksEncoder, MatchsticksPosition, Pair, TakeRule};
use rand::{Rng, RngExt};

impl MatchsticksEncoder {
    /// The gene index of a position of `game`.
    #[inline]
    pub(crate) fn gene_index(self, game: &Matchsticks, pos: &MatchsticksPosition) -> usize {
        match (game.rules.rule, self) {
            (TakeRule::Double, MatchsticksEncoder::State) => {
                pos.left as usize * (game.rules.sticks as usize + 1) + pos.limit as usize
            }
            _ => pos.left as usize,
        }
    }

    #[inline]
    fn lookup(
        self,
        game: &Matchsticks,
        genes: &[u8],
        pos: &MatchsticksPosition,
        policy: IllegalPolicy,
    ) -> GeneLookup<u8> {
        let index = self.gene_index(game, pos);
        let gene = genes[index];
        // Legal takes are 1..=limit, so scanning upward from an illegal gene
        // (0, or above the limit, wrapping past 255) always lands on 1.
        let legal = gene >= 1 && gene <= pos.limit;
        let (chosen, repaired) = match (legal, policy) {
            (true, _) => (Some(gene), false),
            (false, IllegalPolicy::Repair) => (Some(1), true),
            (false, IllegalPolicy::Forfeit) => (None, false),
        };
        GeneLookup {
            index,
            gene,
            chosen,
            repaired,
            names: None,
            symmetric: false,
        }
    }
}

/// The text's genome: one gene per state, the sticks to take.
impl TableGame for Pair<Matchsticks, MatchsticksEncoder> {
    type Reason = GeneLookup<u8>;

    fn gene_count(&self) -> usize {
        let game = &self.rules;
        let states = game.rules.sticks as usize + 1;
        match (game.rules.rule, self.kind) {
            (TakeRule::Double, MatchsticksEncoder::State) => states * states,
            _ => states,
        }
    }

    fn random_gene<R: Rng + ?Sized>(&self, index: usize, rng: &mut R) -> u8 {
        let game = &self.rules;
        let most = match (game.rules.rule, self.kind) {
            (TakeRule::Subtract { max_take, .. }, _) => max_take,
            (TakeRule::Double, MatchsticksEncoder::State) => {
                (index % (game.rules.sticks as usize + 1)) as u8
            }
            // Sticks left only: any take up to the whole heap.
            (TakeRule::Double, MatchsticksEncoder::Sticks) => index.min(255) as u8,
        }
        .max(1);
        // Log-uniform over 1..=most: small takes are drawn more often than
        // large ones (P(t) ≈ ln(1 + 1/t) / ln(most + 1)), as a heap of N
        // sticks mostly calls for small takes.
        let u: f64 = rng.random();
        let t = ((most as f64 + 1.0).ln() * u).exp().floor() as u8;
        t.clamp(1, most)
    }

    #[inline]
    fn decide(&self, genes: &[u8], pos: &MatchsticksPosition, policy: IllegalPolicy) -> Option<u8> {
        let game = &self.rules;
        self.kind.lookup(game, genes, pos, policy).chosen
    }

    fn explain(
        &self,
        genes: &[u8],
        pos: &MatchsticksPosition,
        policy: IllegalPolicy,
    ) -> GeneLookup<u8> {
        let game = &self.rules;
        self.kind.lookup(game, genes, pos, policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::TableGame;
    use crate::games::{Game, MatchsticksRules, Notation};

    #[test]
    fn subtract_index_is_sticks_left_and_takes_are_repaired() {
        let game = Matchsticks::state(MatchsticksRules::default());
        assert_eq!(game.gene_count(), 22);
        let pos = game.parse_position("3,3,3,3,3,3").unwrap(); // 3 left
        assert_eq!(MatchsticksEncoder::State.gene_index(&game.rules, &pos), 3);
        let mut genes = vec![1u8; 22];
        genes[3] = 2;
        assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Forfeit), Some(2));
        let two_left = game.parse_position("3,3,3,3,3,3,1").unwrap();
        genes[2] = 3;
        assert_eq!(
            game.decide(&genes, &two_left, IllegalPolicy::Repair),
            Some(1)
        );
        assert_eq!(game.decide(&genes, &two_left, IllegalPolicy::Forfeit), None);
    }

    #[test]
    fn double_index_pairs_sticks_left_with_the_current_limit() {
        let game = Matchsticks::state(MatchsticksRules {
            sticks: 10,
            rule: TakeRule::Double,
        });
        assert_eq!(game.gene_count(), 121);
        assert_eq!(
            MatchsticksEncoder::State.gene_index(&game.rules, &game.start()),
            10 * 11 + 9
        );
        let pos = game.parse_position("2").unwrap(); // 8 left, limit 4
        assert_eq!(
            MatchsticksEncoder::State.gene_index(&game.rules, &pos),
            8 * 11 + 4
        );
    }
}
