//! Peg solitaire: the pegs as bits pick the gene; the gene names a jump.
//!
//! Index = the peg mask (hole k weighs 2^(k−1)), so a board of H holes has
//! 2^H genes (15 holes: 32,768; 21: 2,097,152). A gene is the index of a
//! jump in the board's list of every jump ([`crate::games::solitaire_jumps`],
//! sorted by from and to hole); a gene naming a jump that cannot be made
//! here is repaired to the next jump in the list that can (wrapping), as
//! elsewhere, or forfeits the game under `--illegal forfeit`.

use super::{GeneLookup, IllegalPolicy, TableGame, lookup_move};
use crate::games::{Game, Pair, PegBits, Solitaire, SolitairePosition};
use rand::{Rng, RngExt};

impl PegBits {
    #[inline]
    fn lookup(
        self,
        game: &Solitaire,
        genes: &[u8],
        pos: &SolitairePosition,
        policy: IllegalPolicy,
    ) -> GeneLookup<u8> {
        let index = pos.pegs as usize;
        let gene = genes[index];
        let space = game.jumps().len() as u8;
        let (chosen, repaired) = lookup_move(gene, space, |m| game.is_legal(pos, m), policy);
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

/// The puzzle's genome: one gene per peg mask, naming a jump.
impl TableGame for Pair<Solitaire, PegBits> {
    type Reason = GeneLookup<u8>;

    fn gene_count(&self) -> usize {
        let game = &self.rules;
        1 << game.holes()
    }

    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        let game = &self.rules;
        rng.random_range(0..game.jumps().len() as u8)
    }

    fn gene_is_valid(&self, gene: u8) -> bool {
        let game = &self.rules;
        (gene as usize) < game.jumps().len()
    }

    #[inline]
    fn decide(&self, genes: &[u8], pos: &SolitairePosition, policy: IllegalPolicy) -> Option<u8> {
        let game = &self.rules;
        self.kind.lookup(game, genes, pos, policy).chosen
    }

    fn explain(
        &self,
        genes: &[u8],
        pos: &SolitairePosition,
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
    use crate::games::Notation;

    #[test]
    fn the_index_is_the_peg_mask_and_a_gene_names_a_jump() {
        let game = Solitaire::bits(Solitaire::FIVE_ROWS.rules);
        assert_eq!(game.gene_count(), 32_768);
        let start = game.start();
        // Every hole but hole 1: 2^15 − 1 − 1.
        let mut genes = vec![0u8; game.gene_count()];
        let six_one = game.parse_move("6-1").unwrap();
        genes[32_766] = six_one;
        let why = PegBits.lookup(&game.rules, &genes, &start, IllegalPolicy::Repair);
        assert_eq!(
            (why.index, why.chosen, why.repaired),
            (32_766, Some(six_one), false)
        );
        // Gene 0 (jump 1-4) cannot be made: repaired to the next jump that
        // can, 4-1; forfeit under the other policy.
        genes[32_766] = 0;
        let why = PegBits.lookup(&game.rules, &genes, &start, IllegalPolicy::Repair);
        assert_eq!(
            why.chosen.map(|m| game.format_move(m)).as_deref(),
            Some("4-1")
        );
        assert!(why.repaired);
        assert_eq!(game.decide(&genes, &start, IllegalPolicy::Forfeit), None);
    }
}
