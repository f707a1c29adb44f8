//! Othello's genomes: value genomes only, read over the board's 64 squares
//! in its 8 symmetries.
//!
//! A square is empty, black or white (three cell states); cell `c` is the
//! square of bit `c` (`a1` = 0, rows from the top). The `ntuple` encoder
//! draws its tuples as random walks; `straight` places one tuple on every
//! class of straight lines of a length, as Jaśkowski's systematic networks
//! do, and keeps them fixed; `patterns` (the default) places the 7
//! hand-placed tables of 8 squares that Othello programs learn, fixed too.
//!
//! The text's vote-table genome is not offered: a 4×4 window of three
//! states has 3^16 = 43,046,721 states, a 43 MB genome whose genes are
//! almost never met twice (docs/experiments.md measures how few window
//! states a thousand games revisit).

use super::ntuple::{self, CellBoard};
use crate::games::{
    Notation, Othello, OthelloPosition, Placement, othello_symmetric_square, pattern_tuples,
    straight_tuples,
};

/// Cell states: empty, a black disc, a white disc.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

impl CellBoard for Othello {
    const WIDTH: usize = 8;
    const HEIGHT: usize = 8;
    /// Long: exploration stays near 0.1 (a deterministic self-play
    /// replays the same few games).
    const HORIZON: u32 = 2_000_000;
    const STATES: u32 = 3;
    const SYMMETRIES: usize = 8;
    /// α 0.0003: TD self-play from the other games' 0.004 scored 0.51
    /// against `wpc` after 50,000 games and swung widely after; from
    /// 0.0003 it held 0.63–0.66 (docs/experiments.md).
    const ALPHA_CODE: u8 = 32;

    fn cell_states(&self, pos: &OthelloPosition, states: &mut [u8]) {
        for (cell, state) in states.iter_mut().enumerate() {
            let bit = 1u64 << cell;
            *state = if pos.black & bit != 0 {
                BLACK
            } else if pos.white & bit != 0 {
                WHITE
            } else {
                EMPTY
            };
        }
    }

    fn symmetric_cell(symmetry: usize, cell: usize) -> usize {
        othello_symmetric_square(symmetry, cell)
    }

    /// The squares a move changes: the disc put down and the discs it
    /// flips (none for a pass).
    fn changed_cells(
        &self,
        pos: &OthelloPosition,
        _states: &[u8],
        next: &OthelloPosition,
        _scratch: &mut [u8],
        out: &mut Vec<(usize, u8)>,
    ) {
        out.clear();
        let (mut black, mut white) = (pos.black ^ next.black, pos.white ^ next.white);
        // A flipped disc changes in both masks; its new state is its
        // colour in `next`.
        while black != 0 {
            let cell = black.trailing_zeros() as usize;
            let state = if next.black & (1 << cell) != 0 {
                BLACK
            } else {
                WHITE
            };
            out.push((cell, state));
            white &= !(1 << cell);
            black &= black - 1;
        }
        while white != 0 {
            let cell = white.trailing_zeros() as usize;
            out.push((cell, WHITE));
            white &= white - 1;
        }
    }

    fn cell_name(cell: usize) -> String {
        Othello.format_move(cell as u8)
    }

    /// Up to 16 stages: Othello programs split their pattern tables by the
    /// discs on the board (docs/experiments.md, "Tables by game stage").
    const MAX_STAGES: usize = ntuple::MAX_STAGES;

    /// By the discs on the board, 4 at the start and 64 at most: equal
    /// ranges of the 61 counts.
    fn stage(&self, pos: &OthelloPosition, stages: usize) -> usize {
        let discs = (pos.black | pos.white).count_ones() as usize;
        discs.saturating_sub(4) * stages / 61
    }

    fn straight_tuples(length: u8) -> Option<Vec<Vec<u8>>> {
        Some(straight_tuples(length))
    }

    fn pattern_tuples() -> Option<Vec<Vec<u8>>> {
        Some(pattern_tuples())
    }

    /// The patterns learn as the papers' TD(0) learns, measured on a lone
    /// learner (docs/experiments.md, "Patterns"): α 0.003 (they read 56
    /// images where the straight quadruples read 168, each seeing far more
    /// of the board), λ 0, from every move, exploratory ones included, and
    /// one table for both sides (their large tables learn from twice the
    /// positions). In game stages, the long runs' recipe, their settings
    /// are fixed for life: over millions of games a drifting schedule
    /// decays (docs/experiments.md, "Tables by game stage in the engine").
    fn learning_codes(placement: Placement, stages: usize) -> ntuple::LearningCodes {
        let fixed = match stages {
            1 => 0,
            _ => ntuple::FIXED_SCHEDULE,
        };
        match placement {
            Placement::Patterns => ntuple::LearningCodes {
                alpha: 95,
                lambda: 0,
                flags: ntuple::FROM_EXPLORATION | ntuple::ONE_TABLE | fixed,
            },
            _ => ntuple::LearningCodes::default_for::<Self>(),
        }
    }

    ntuple::evaluator_pool!(Othello);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{Learns, TableGame};
    use crate::games::Game;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn changed_cells_are_the_disc_put_down_and_the_flipped() {
        let game = Othello;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let (mut states, mut next_states, mut scratch) = ([0u8; 64], [0u8; 64], [0u8; 64]);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        let mut pos = game.start();
        for _ in 0..200 {
            if game.outcome(&pos).is_some() {
                pos = game.start();
            }
            game.legal_moves(&pos, &mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            let next = game.play(&pos, mv);
            game.cell_states(&pos, &mut states);
            game.cell_states(&next, &mut next_states);
            game.changed_cells(&pos, &states, &next, &mut scratch, &mut out);
            let mut expected: Vec<(usize, u8)> = (0..64)
                .filter(|&c| states[c] != next_states[c])
                .map(|c| (c, next_states[c]))
                .collect();
            out.sort_unstable();
            expected.sort_unstable();
            assert_eq!(out, expected);
            pos = next;
        }
    }

    #[test]
    fn straight_genomes_keep_their_tuples_through_mutation() {
        let game = Othello::STRAIGHT;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
        let mut genes = vec![0u8; game.gene_count()];
        game.fill_random(&mut genes, &mut rng);
        assert_eq!(game.genes_problem(&genes), None);
        let before = genes.clone();
        assert_eq!(game.mutate_own(&mut genes, 1.0, &mut rng), Some(0));
        let params = genes.len() - 8;
        assert_eq!(genes[..params], before[..params]);
        // Snakes are redrawn.
        let snakes = Othello::NTUPLE;
        let mut genes = vec![0u8; snakes.gene_count()];
        snakes.fill_random(&mut genes, &mut rng);
        assert_eq!(snakes.mutate_own(&mut genes, 1.0, &mut rng), Some(12));
        assert_eq!(snakes.genes_problem(&genes), None);
    }

    /// A fresh `patterns` genome learns as the papers' TD(0) does (α
    /// 0.003, λ 0, from every move, one table for both sides), keeps its
    /// flags through mutation, and never writes its second tables; in
    /// stages its settings are fixed; a straight genome keeps the old
    /// settings; an unknown flag is corrupt.
    #[test]
    fn pattern_genomes_carry_their_learning_flags() {
        let game = Othello::PATTERNS;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let mut genes = vec![0u8; game.gene_count()];
        game.fill_random(&mut genes, &mut rng);
        assert_eq!(game.genes_problem(&genes), None);
        let params = ntuple::Params::read(&genes);
        assert!(params.from_exploration && params.one_table && !params.fixed_schedule);
        let staged = Othello::patterns_in_stages(2);
        let mut in_stages = vec![0u8; staged.gene_count()];
        staged.fill_random(&mut in_stages, &mut rng);
        let settings = in_stages[in_stages.len() - 8..in_stages.len() - 4].to_vec();
        for _ in 0..20 {
            staged.mutate_own(&mut in_stages, 1.0, &mut rng);
        }
        let n = in_stages.len();
        assert_eq!(in_stages[n - 8..n - 4], settings[..], "fixed in stages");
        assert_eq!(ntuple::stages(&in_stages), 2);
        assert!(ntuple::Params::read(&in_stages).fixed_schedule);
        assert_eq!(params.lambda, 0.0);
        assert!((params.alpha - 0.003).abs() < 0.0001, "{}", params.alpha);
        // Mutation drifts α, λ and ε but never the flags.
        for _ in 0..20 {
            game.mutate_own(&mut genes, 1.0, &mut rng);
        }
        assert_eq!(
            genes[genes.len() - 5],
            ntuple::FROM_EXPLORATION | ntuple::ONE_TABLE
        );
        game.learn(&mut genes, 20, rand_pcg::Pcg64Mcg::seed_from_u64(6));
        let block = Othello::PATTERN_SHAPE.block_in(3);
        let table = 3usize.pow(8) * 2;
        let (mut first, mut second) = (0, 0);
        for t in 0..Othello::PATTERN_SHAPE.tuples as usize {
            let start = t * block + 8;
            first += genes[start..start + table]
                .iter()
                .filter(|&&b| b != 0)
                .count();
            second += genes[start + table..start + 2 * table]
                .iter()
                .filter(|&&b| b != 0)
                .count();
        }
        assert!(first > 0, "learning wrote the first tables");
        assert_eq!(second, 0, "one table: the second stays zero");
        let straight = Othello::STRAIGHT;
        let mut plain = vec![0u8; straight.gene_count()];
        straight.fill_random(&mut plain, &mut rng);
        let params = ntuple::Params::read(&plain);
        assert!(!params.from_exploration && !params.one_table && !params.fixed_schedule);
        assert_eq!(plain[plain.len() - 7], 128, "λ 0.5");
        let n = genes.len();
        genes[n - 5] |= 8;
        let problem = game
            .genes_problem(&genes)
            .expect("an unknown flag is refused");
        assert!(problem.starts_with("learning flags 0x0b"), "{problem}");
    }
}
