//! Connect-Four: twelve 4×4 windows each vote for a column.
//!
//! A window sits at column offset 0..=3 and row offset 0..=2. Inside it each
//! of its 4 columns holds 0..=4 stones stacked from the window's bottom, so a
//! window column has 31 fillings: `code = (2^k − 1) + colour bits`, bit i set
//! when the stone at window row i belongs to the opponent of the side to move.
//! Window index = `((c0·31 + c1)·31 + c2)·31 + c3`, c0 the leftmost column.
//!
//! With the bitboard layout this is cheap: under gravity the window's
//! occupied cells of a column are exactly the bits `2^k − 1` of the mask slice,
//! and the colour bits are the opponent's slice, so `code = mask slice +
//! opponent slice`. One shift, two ANDs and an add give the codes of all 7
//! columns at a row offset at once (each 7-bit field holds at most 30).
//!
//! A gene byte: high 2 bits = column inside the window (0..=3), low 6 bits =
//! weight. The legal column with the largest vote sum is played; ties go to
//! the column nearest the centre, then to the left.

use super::{Genotype, IllegalPolicy, Reason};
use crate::games::{Connect4, Connect4Position};
use rand::{Rng, RngExt};

/// Windows per board.
pub const WINDOWS: usize = 12;
/// Genes in a Connect-Four genome: 31^4.
pub const CONNECT4_GENES: usize = 923_521;

/// The low 4 bits of each of the 7 column fields.
const NIBBLES: u64 = {
    let mut m = 0u64;
    let mut col = 0;
    while col < 7 {
        m |= 0xf << (7 * col);
        col += 1;
    }
    m
};

/// Columns in tie-break order: nearest the centre first, then the left.
pub const CENTRE_OUT: [usize; 7] = [3, 2, 4, 1, 5, 0, 6];

/// Tie priority per column (higher wins): 6 for the centre … 0 for column 7.
const TIE_PRIORITY: [u32; 7] = [1, 3, 5, 6, 4, 2, 0];

/// The column of each tie priority (the inverse of `TIE_PRIORITY`).
const PRIORITY_COLUMN: [u8; 8] = [6, 0, 5, 1, 4, 2, 3, 0];

/// One window's vote, as shown by `bebete explain`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowVote {
    pub column_offset: u8,
    pub row_offset: u8,
    pub index: u32,
    pub gene: u8,
    /// Board column voted for, 0-based.
    pub column: u8,
    pub weight: u8,
}

/// Turns a position into its 12 window indices (row offset major, then
/// column offset).
#[derive(Clone, Copy, Debug, Default)]
pub struct SubgridEncoder;

impl SubgridEncoder {
    /// The gene index of every window, in the order `row_offset * 4 + column_offset`.
    #[inline]
    pub fn window_indices(pos: &Connect4Position) -> [u32; WINDOWS] {
        let opponent = pos.opponent();
        let mut out = [0u32; WINDOWS];
        for row in 0..3 {
            let codes = ((pos.mask >> row) & NIBBLES) + ((opponent >> row) & NIBBLES);
            let code = |col: usize| ((codes >> (7 * col)) & 0x7f) as u32;
            let c = [
                code(0),
                code(1),
                code(2),
                code(3),
                code(4),
                code(5),
                code(6),
            ];
            for col in 0..4 {
                out[row * 4 + col] =
                    ((c[col] * 31 + c[col + 1]) * 31 + c[col + 2]) * 31 + c[col + 3];
            }
        }
        out
    }

    /// The code (0..=30) of one window column: `k` stones, `opponent_bits` colours.
    pub fn column_code(stones: u32, opponent_bits: u32) -> u32 {
        (1 << stones) - 1 + opponent_bits
    }
}

/// Picks the legal column with the largest sum, ties to the centre then the
/// left; `None` when no column is legal.
pub fn centre_out_choice(sums: &[u32; 7], legal: impl Fn(usize) -> bool) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for &col in &CENTRE_OUT {
        if legal(col) && best.is_none_or(|(_, sum)| sums[col] > sum) {
            best = Some((col, sums[col]));
        }
    }
    best.map(|(col, _)| col)
}

fn window_votes(genes: &[u8], pos: &Connect4Position) -> ([WindowVote; WINDOWS], [u32; 7]) {
    let indices = SubgridEncoder::window_indices(pos);
    let mut windows = [WindowVote::default(); WINDOWS];
    let mut sums = [0u32; 7];
    for (w, &index) in indices.iter().enumerate() {
        let gene = genes[index as usize];
        let (row_offset, column_offset) = ((w / 4) as u8, (w % 4) as u8);
        let column = column_offset + (gene >> 6);
        let weight = gene & 63;
        sums[column as usize] += weight as u32;
        windows[w] = WindowVote {
            column_offset,
            row_offset,
            index,
            gene,
            column,
            weight,
        };
    }
    (windows, sums)
}

impl Genotype for Connect4 {
    fn gene_count(&self) -> usize {
        CONNECT4_GENES
    }

    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random()
    }

    fn fill_random<R: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut R) {
        // Every byte is a valid gene: fill whole words at a time.
        rng.fill_bytes(genes);
    }

    #[inline]
    fn decide(&self, genes: &[u8], pos: &Connect4Position, _policy: IllegalPolicy) -> Option<u8> {
        let indices = SubgridEncoder::window_indices(pos);
        let mut sums = [0u32; 7];
        for (w, &index) in indices.iter().enumerate() {
            let gene = genes[index as usize];
            sums[w % 4 + (gene >> 6) as usize] += (gene & 63) as u32;
        }
        // Branch-free choice: key = sum·8 + tie priority + 1 for legal
        // columns (0 for full ones); the largest key wins. Same order as
        // `centre_out_choice`: the sum, then the centre, then the left.
        let mut best = 0u32;
        for (col, &sum) in sums.iter().enumerate() {
            let legal = pos.can_play(col as u32) as u32;
            best = best.max(legal * (sum * 8 + TIE_PRIORITY[col] + 1));
        }
        (best > 0).then(|| PRIORITY_COLUMN[(best - 1) as usize % 8])
    }

    fn explain(&self, genes: &[u8], pos: &Connect4Position, _policy: IllegalPolicy) -> Reason<u8> {
        let (windows, votes) = window_votes(genes, pos);
        let chosen = centre_out_choice(&votes, |c| pos.can_play(c as u32)).unwrap_or(0) as u8;
        Reason::Votes {
            windows,
            votes,
            chosen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    /// The index of a window given its four column codes, left to right.
    fn index_of(codes: [u32; 4]) -> u32 {
        ((codes[0] * 31 + codes[1]) * 31 + codes[2]) * 31 + codes[3]
    }

    #[test]
    fn the_empty_board_is_window_zero_everywhere() {
        assert_eq!(
            SubgridEncoder::window_indices(&Connect4.start()),
            [0; WINDOWS]
        );
    }

    #[test]
    fn column_codes_cover_0_to_30() {
        assert_eq!(SubgridEncoder::column_code(0, 0), 0);
        assert_eq!(SubgridEncoder::column_code(1, 0), 1);
        assert_eq!(SubgridEncoder::column_code(1, 1), 2);
        assert_eq!(SubgridEncoder::column_code(4, 15), 30);
        assert_eq!(index_of([30; 4]) as usize, CONNECT4_GENES - 1);
    }

    #[test]
    fn colours_are_relative_to_the_side_to_move() {
        // X plays column 1. O to move: X's stone is the opponent's (code 2).
        let pos = Connect4.parse_position("1").unwrap();
        let w = SubgridEncoder::window_indices(&pos);
        assert_eq!(w[0], index_of([2, 0, 0, 0]));
        assert_eq!(w[1..], [0; 11]);
        // O answers in column 2. X to move: own stone (code 1) in column 1,
        // O's stone (code 2) in column 2.
        let pos = Connect4.parse_position("12").unwrap();
        let w = SubgridEncoder::window_indices(&pos);
        assert_eq!(w[0], index_of([1, 2, 0, 0]));
        assert_eq!(w[1], index_of([2, 0, 0, 0])); // column offset 1 starts at column 2
    }

    #[test]
    fn a_tall_column_is_cut_by_each_row_offset() {
        // Column 4 (index 3): X, O, X, O, X from the bottom; O to move, so
        // X stones (rows 0, 2, 4) are the opponent's.
        let pos = Connect4.parse_position("44444").unwrap();
        let w = SubgridEncoder::window_indices(&pos);
        // Row offset 0: rows 0..3 = X O X O -> 4 stones, bits 0 and 2.
        assert_eq!(
            w[0],
            index_of([0, 0, 0, SubgridEncoder::column_code(4, 0b0101)])
        );
        // Row offset 1: rows 1..4 = O X O X -> bits 1 and 3.
        assert_eq!(
            w[4],
            index_of([0, 0, 0, SubgridEncoder::column_code(4, 0b1010)])
        );
        // Row offset 2: rows 2..4 = X O X -> 3 stones, bits 0 and 2.
        assert_eq!(
            w[8 + 3],
            index_of([SubgridEncoder::column_code(3, 0b101), 0, 0, 0])
        );
    }

    #[test]
    fn votes_pick_the_heaviest_legal_column_and_ties_go_to_the_centre() {
        let game = Connect4;
        let pos = game.start();
        let mut genes = vec![0u8; CONNECT4_GENES];
        // All 12 windows are index 0: its gene votes for one column per offset.
        assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(3));
        genes[0] = (2 << 6) | 5; // column 2 of each window, weight 5
        // Windows at offsets 0..3 vote for board columns 2,3,4,5, three rows
        // each: every sum is 15, so the centre (column index 3) wins the tie.
        assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(3));
        let Reason::Votes { votes, .. } = game.explain(&genes, &pos, IllegalPolicy::Repair) else {
            panic!("connect-four explains by votes");
        };
        assert_eq!(votes, [0, 0, 15, 15, 15, 15, 0]);
        // A full column is skipped even when it has the most votes.
        let full = game.parse_position("444444").unwrap();
        assert!(!full.can_play(3));
        let choice = game.decide(&genes, &full, IllegalPolicy::Repair).unwrap();
        assert_ne!(choice, 3);
    }

    #[test]
    fn the_fast_choice_agrees_with_centre_out_choice() {
        use crate::games::Game;
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
        let game = Connect4;
        for seed in 0..200u64 {
            let genes =
                crate::genome::random_genes(&game, &mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
            let mut pos = game.start();
            while game.outcome(&pos).is_none() {
                let Reason::Votes { votes, .. } = game.explain(&genes, &pos, IllegalPolicy::Repair)
                else {
                    unreachable!()
                };
                let slow = centre_out_choice(&votes, |c| pos.can_play(c as u32)).map(|c| c as u8);
                assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), slow);
                let mut moves = Vec::new();
                game.legal_moves(&pos, &mut moves);
                pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
            }
        }
        for col in 0..7 {
            assert_eq!(PRIORITY_COLUMN[TIE_PRIORITY[col] as usize] as usize, col);
        }
    }

    #[test]
    fn centre_out_prefers_the_left_on_equal_distance() {
        assert_eq!(centre_out_choice(&[0; 7], |_| true), Some(3));
        assert_eq!(centre_out_choice(&[0; 7], |c| c != 3), Some(2));
        assert_eq!(
            centre_out_choice(&[1, 0, 0, 0, 0, 0, 1], |c| c != 3),
            Some(0)
        );
        assert_eq!(centre_out_choice(&[0; 7], |_| false), None);
    }
}
