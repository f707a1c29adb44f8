//! Tic-tac-toe: the whole board, base 3, picks the gene; the gene is a cell.
//!
//! Empty = 0, X = 1, O = 2, cell k weighs 3^k. The sum is computed from the
//! two stone masks with a 512-entry table, so encoding is two loads and an add.

use super::{Genotype, IllegalPolicy, Reason, lookup_move};
use crate::games::{Game, TicTacToe, TicTacToePosition};
use rand::{Rng, RngExt};
use std::sync::OnceLock;

/// Genes in a tic-tac-toe genome: 3^9.
pub const TICTACTOE_GENES: usize = 19_683;

/// `TERNARY[mask]` = Σ 3^k over the cells k in `mask`.
static TERNARY: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut sum = 0u16;
        let mut weight = 1u16;
        let mut k = 0;
        while k < 9 {
            if mask & (1 << k) != 0 {
                sum += weight;
            }
            weight *= 3;
            k += 1;
        }
        table[mask] = sum;
        mask += 1;
    }
    table
};

/// The base-3 index of a board.
pub fn ternary_index(pos: &TicTacToePosition) -> usize {
    TERNARY[pos.x as usize & 511] as usize + 2 * TERNARY[pos.o as usize & 511] as usize
}

impl Genotype for TicTacToe {
    fn gene_count(&self) -> usize {
        TICTACTOE_GENES
    }

    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random_range(0..9)
    }

    fn active_genes(&self) -> Option<&'static [u32]> {
        static ACTIVE: OnceLock<Vec<u32>> = OnceLock::new();
        Some(ACTIVE.get_or_init(|| {
            // Unfinished boards reachable from the start.
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![self.start()];
            let mut moves = Vec::new();
            while let Some(pos) = stack.pop() {
                if self.outcome(&pos).is_some() || !seen.insert(ternary_index(&pos) as u32) {
                    continue;
                }
                self.legal_moves(&pos, &mut moves);
                stack.extend(moves.iter().map(|&m| self.play(&pos, m)));
            }
            let mut active: Vec<u32> = seen.into_iter().collect();
            active.sort_unstable();
            active
        }))
    }

    fn gene_is_valid(&self, gene: u8) -> bool {
        gene < 9
    }

    fn decide(&self, genes: &[u8], pos: &TicTacToePosition, policy: IllegalPolicy) -> Option<u8> {
        let gene = genes[ternary_index(pos)];
        let empty = pos.empty();
        lookup_move(gene % 9, 9, |c| empty & (1 << c) != 0, policy).0
    }

    fn explain(&self, genes: &[u8], pos: &TicTacToePosition, policy: IllegalPolicy) -> Reason<u8> {
        let index = ternary_index(pos);
        let gene = genes[index];
        let empty = pos.empty();
        let (chosen, repaired) = lookup_move(gene % 9, 9, |c| empty & (1 << c) != 0, policy);
        Reason::Lookup {
            index,
            gene,
            chosen,
            repaired,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(x: &[u8], o: &[u8]) -> TicTacToePosition {
        let mask = |cells: &[u8]| cells.iter().fold(0u16, |m, &c| m | 1 << c);
        TicTacToePosition {
            x: mask(x),
            o: mask(o),
        }
    }

    #[test]
    fn the_design_worked_examples_hold() {
        assert_eq!(ternary_index(&board(&[], &[])), 0);
        assert_eq!(ternary_index(&board(&[4], &[])), 81);
        assert_eq!(ternary_index(&board(&[], &[0])), 2);
        assert_eq!(ternary_index(&board(&[1, 2], &[3])), 66);
        assert_eq!(ternary_index(&board(&[2, 4], &[5, 8])), 13_698);
    }

    #[test]
    fn the_full_board_of_o_is_the_last_gene() {
        assert_eq!(
            ternary_index(&board(&[], &[0, 1, 2, 3, 4, 5, 6, 7, 8])),
            TICTACTOE_GENES - 1
        );
    }

    #[test]
    fn an_occupied_cell_is_repaired_upward_or_forfeited() {
        let mut genes = vec![0u8; TICTACTOE_GENES];
        let pos = board(&[8], &[0]); // cells 0 and 8 taken
        let index = ternary_index(&pos);
        genes[index] = 8;
        assert_eq!(
            TicTacToe.decide(&genes, &pos, IllegalPolicy::Repair),
            Some(1)
        );
        assert_eq!(TicTacToe.decide(&genes, &pos, IllegalPolicy::Forfeit), None);
        genes[index] = 4;
        assert_eq!(
            TicTacToe.decide(&genes, &pos, IllegalPolicy::Forfeit),
            Some(4)
        );
    }
}
