//! Tests of the Connect-Four sub-grid encoders.

use super::*;
use crate::encoding::TableGame;
use crate::games::{Game, Notation, Pair};

/// Columns in tie-break order: nearest the centre first, then the left.
const CENTRE_OUT: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// The tie rule written plainly, as the reference for the fast choice.
fn centre_out_choice(sums: &[u32; WIDTH], legal: impl Fn(usize) -> bool) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for &col in &CENTRE_OUT {
        if legal(col) && best.is_none_or(|(_, sum)| sums[col] > sum) {
            best = Some((col, sums[col]));
        }
    }
    best.map(|(col, _)| col)
}

/// The index of a window given its four column codes, left to right.
fn index_of(codes: [u32; 4]) -> u32 {
    ((codes[0] * 31 + codes[1]) * 31 + codes[2]) * 31 + codes[3]
}

#[test]
fn the_empty_board_is_window_zero_everywhere() {
    assert_eq!(
        SubgridEncoder::window_indices(&Connect4::SUBGRID.start()),
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
    let pos = Connect4::SUBGRID.parse_position("1").unwrap();
    let w = SubgridEncoder::window_indices(&pos);
    assert_eq!(w[0], index_of([2, 0, 0, 0]));
    assert_eq!(w[1..], [0; 11]);
    // O answers in column 2. X to move: own stone (code 1) in column 1,
    // O's stone (code 2) in column 2.
    let pos = Connect4::SUBGRID.parse_position("12").unwrap();
    let w = SubgridEncoder::window_indices(&pos);
    assert_eq!(w[0], index_of([1, 2, 0, 0]));
    assert_eq!(w[1], index_of([2, 0, 0, 0])); // column offset 1 starts at column 2
}

#[test]
fn a_tall_column_is_cut_by_each_row_offset() {
    // Column 4 (index 3): X, O, X, O, X from the bottom; O to move, so
    // X stones (rows 0, 2, 4) are the opponent's.
    let pos = Connect4::SUBGRID.parse_position("44444").unwrap();
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
    let game = Connect4::SUBGRID;
    let pos = game.start();
    let mut genes = vec![0u8; CONNECT4_GENES];
    // All 12 windows are index 0: its gene votes for one column per offset.
    assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(3));
    genes[0] = (2 << 6) | 5; // column 2 of each window, weight 5
    // Windows at offsets 0..3 vote for board columns 2,3,4,5, three rows
    // each: every sum is 15, so the centre (column index 3) wins the tie.
    assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(3));
    let Votes { votes, .. } = game.explain(&genes, &pos, IllegalPolicy::Repair);
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
    let game = Connect4::SUBGRID;
    for seed in 0..200u64 {
        let genes =
            crate::genome::random_genes(&game, &mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
        let mut pos = game.start();
        while game.outcome(&pos).is_none() {
            let Votes { votes, .. } = game.explain(&genes, &pos, IllegalPolicy::Repair);
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
fn mirrored_windows_share_a_gene_and_vote_mirrored() {
    let game = Pair::new(Connect4, Connect4Encoder::Mirror);
    // X in column 1 and, mirrored, X in column 7: the two bottom corner
    // windows read the same gene.
    let left = game.parse_position("1").unwrap();
    let right = game.parse_position("7").unwrap();
    let wl = SubgridEncoder::windows(Connect4Encoder::Mirror, &left);
    let wr = SubgridEncoder::windows(Connect4Encoder::Mirror, &right);
    assert_eq!(wl[0].0, wr[3].0);
    assert_ne!(wl[0].1, wr[3].1);
    // A gene voting for its window's column 0 (the stone's side) votes
    // for board column 1 on the left and board column 7 on the right.
    let mut genes = vec![0u8; CONNECT4_GENES];
    genes[wl[0].0 as usize] = 40; // column 0 inside the window, weight 40
    let Votes { votes: vl, .. } = game.explain(&genes, &left, IllegalPolicy::Repair);
    let Votes { votes: vr, .. } = game.explain(&genes, &right, IllegalPolicy::Repair);
    let mirrored: Vec<u32> = vr.iter().rev().copied().collect();
    assert_eq!(vl.to_vec(), mirrored);
}

#[test]
fn centre_out_prefers_the_left_on_equal_distance() {
    assert_eq!(heaviest_legal_column(&[0; 7], |_| true), Some(3));
    assert_eq!(heaviest_legal_column(&[0; 7], |c| c != 3), Some(2));
    assert_eq!(
        heaviest_legal_column(&[1, 0, 0, 0, 0, 0, 1], |c| c != 3),
        Some(0)
    );
    assert_eq!(heaviest_legal_column(&[0; 7], |_| false), None);
}
