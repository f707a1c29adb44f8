//! Tic-tac-toe: the whole board, base 3, picks the gene; the gene is a cell.
//!
//! Empty = 0, X = 1, O = 2, cell k weighs 3^k. The sum is computed from the
//! two stone masks with a 512-entry table, so encoding is two loads and an add.
//! The symmetric encoder maps the board through its 8 rotations and
//! reflections (table lookups too) and uses the smallest index: 627 genes
//! then cover all 4,520 unfinished boards.

use super::ntuple::{self, CellBoard};
use super::{CellName, GeneLookup, IllegalPolicy, TableGame, lookup_move};
use crate::games::TICTACTOE_LINES as LINES;
use crate::games::walk::{DEFAULT_NODE_LIMIT, reachable};
use crate::games::{Game, Outcome, Pair, Side, TicTacToe, TicTacToeEncoder, TicTacToePosition};
use rand::{Rng, RngExt};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Genes in a tic-tac-toe genome: 3^9.
pub(crate) const TICTACTOE_GENES: usize = 19_683;

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

/// 3^k: what a stone of X on cell k adds to the base-3 index (O adds twice).
const POWERS: [u16; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The lines through each cell, as masks (two to four of them).
static LINES_THROUGH: [[u16; 4]; 9] = {
    let mut table = [[0u16; 4]; 9];
    let mut cell = 0;
    while cell < 9 {
        let (mut line, mut n) = (0, 0);
        while line < 8 {
            if LINES[line] & (1 << cell) != 0 {
                table[cell][n] = LINES[line];
                n += 1;
            }
            line += 1;
        }
        cell += 1;
    }
    table
};

/// One game between two base-3 genomes, `first` playing X.
#[inline]
fn base3_game(first: &[u8], second: &[u8], policy: IllegalPolicy) -> Outcome {
    let mut stones = [0u16; 2];
    let mut index = 0usize;
    for ply in 0..9 {
        let (genes, me) = if ply % 2 == 0 {
            (first, 0)
        } else {
            (second, 1)
        };
        let empty = !(stones[0] | stones[1]) & 511;
        let (cell, _) = lookup_move(genes[index] % 9, 9, |c| empty & (1 << c) != 0, policy);
        let Some(cell) = cell else {
            return Outcome::Win(if me == 0 { Side::Second } else { Side::First });
        };
        stones[me] |= 1 << cell;
        index += POWERS[cell as usize] as usize * (me + 1);
        let mine = stones[me];
        if LINES_THROUGH[cell as usize]
            .iter()
            .any(|&line| line != 0 && mine & line == line)
        {
            return Outcome::Win(if me == 0 { Side::First } else { Side::Second });
        }
    }
    Outcome::Draw
}

/// The 8 symmetries of the board as cell permutations: `SYMMETRIES[t][c]`
/// is where cell c goes (identity, three rotations, four reflections).
const SYMMETRIES: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// `MASK_MAP[t][mask]`: a 9-bit cell mask under symmetry t.
static MASK_MAP: [[u16; 512]; 8] = {
    let mut table = [[0u16; 512]; 8];
    let mut t = 0;
    while t < 8 {
        let mut mask = 0;
        while mask < 512 {
            let mut out = 0u16;
            let mut c = 0;
            while c < 9 {
                if mask & (1 << c) != 0 {
                    out |= 1 << SYMMETRIES[t][c];
                }
                c += 1;
            }
            table[t][mask] = out;
            mask += 1;
        }
        t += 1;
    }
    table
};

/// `INVERSE[t][g]`: the cell that symmetry t sends to g.
static INVERSE: [[u8; 9]; 8] = {
    let mut table = [[0u8; 9]; 8];
    let mut t = 0;
    while t < 8 {
        let mut c = 0;
        while c < 9 {
            table[t][SYMMETRIES[t][c] as usize] = c as u8;
            c += 1;
        }
        t += 1;
    }
    table
};

/// The canonical index of a board (the smallest base-3 index among its 8
/// images) and the symmetry that produces it (the first, on ties).
pub(crate) fn canonical_index(pos: &TicTacToePosition) -> (usize, usize) {
    let (x, o) = (pos.x as usize & 511, pos.o as usize & 511);
    (0..8)
        .map(|t| {
            let index = TERNARY[MASK_MAP[t][x] as usize] as usize
                + 2 * TERNARY[MASK_MAP[t][o] as usize] as usize;
            (index, t)
        })
        .min()
        .expect("eight symmetries")
}

/// [`canonical_index`] for every base-3 index, computed once: the symmetric
/// encoder's hot path is then one more table load. Entry = index << 3 | t.
fn canonical_table() -> &'static [u32] {
    static TABLE: OnceLock<Vec<u32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![0u32; TICTACTOE_GENES];
        for x in 0..512u16 {
            for o in (0..512u16).filter(|o| o & x == 0) {
                let pos = TicTacToePosition { x, o };
                let (index, t) = canonical_index(&pos);
                table[ternary_index(&pos)] = (index as u32) << 3 | t as u32;
            }
        }
        table
    })
}

impl TicTacToeEncoder {
    /// The gene index, its gene and the move in board cells, with repair.
    fn lookup(
        self,
        genes: &[u8],
        pos: &TicTacToePosition,
        policy: IllegalPolicy,
    ) -> GeneLookup<u8> {
        let (index, t) = match self {
            TicTacToeEncoder::Base3 => (ternary_index(pos), 0),
            TicTacToeEncoder::Symmetric => {
                let entry = canonical_table()[ternary_index(pos)];
                ((entry >> 3) as usize, (entry & 7) as usize)
            }
        };
        let gene = genes[index];
        // Repair scans in the gene's own frame, so symmetric boards repair alike.
        let empty = MASK_MAP[t][pos.empty() as usize & 511];
        let (chosen, repaired) = lookup_move(gene % 9, 9, |c| empty & (1 << c) != 0, policy);
        let here = INVERSE[t][(gene % 9) as usize];
        GeneLookup {
            index,
            gene,
            chosen: chosen.map(|c| INVERSE[t][c as usize]),
            repaired,
            // Gene g is cell g + 1 (mod 9) in the frame it is read in: said
            // in the board's own frame, the cells a person sees.
            names: Some(CellName(here + 1)),
            symmetric: self == TicTacToeEncoder::Symmetric,
        }
    }
}

/// The gene indices an encoder consults on unfinished reachable boards.
fn active_indices(encoder: TicTacToeEncoder) -> Vec<u32> {
    let positions =
        reachable(&TicTacToe, DEFAULT_NODE_LIMIT).expect("tic-tac-toe has 5,478 positions");
    let indices: BTreeSet<u32> = positions
        .iter()
        .filter(|pos| TicTacToe.outcome(pos).is_none())
        .map(|pos| {
            encoder
                .lookup(&[0; TICTACTOE_GENES], pos, IllegalPolicy::Repair)
                .index as u32
        })
        .collect();
    indices.into_iter().collect()
}

/// The text's genome: one gene per board (or per class of symmetric
/// boards), naming a cell.
impl TableGame for Pair<TicTacToe, TicTacToeEncoder> {
    type Reason = GeneLookup<u8>;

    fn gene_count(&self) -> usize {
        TICTACTOE_GENES
    }

    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random_range(0..9)
    }

    fn fill_random<R: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut R) {
        genes.iter_mut().for_each(|g| *g = rng.random_range(0..9));
    }

    fn active_genes(&self) -> Option<&'static [u32]> {
        static BASE3: OnceLock<Vec<u32>> = OnceLock::new();
        static SYMMETRIC: OnceLock<Vec<u32>> = OnceLock::new();
        let cell = match self.kind {
            TicTacToeEncoder::Base3 => &BASE3,
            TicTacToeEncoder::Symmetric => &SYMMETRIC,
        };
        Some(cell.get_or_init(|| active_indices(self.kind)))
    }

    fn gene_is_valid(&self, gene: u8) -> bool {
        gene < 9
    }

    fn decide(&self, genes: &[u8], pos: &TicTacToePosition, policy: IllegalPolicy) -> Option<u8> {
        self.kind.lookup(genes, pos, policy).chosen
    }

    /// The base-3 encoder's games in a loop of their own: the index kept
    /// up to date move by move, a win looked for only on the lines through
    /// the cell just played. The same outcome as the engine's loop (a test
    /// plays both on random genomes).
    fn whole_game(&self, first: &[u8], second: &[u8], policy: IllegalPolicy) -> Option<Outcome> {
        (self.kind == TicTacToeEncoder::Base3).then(|| base3_game(first, second, policy))
    }

    fn explain(
        &self,
        genes: &[u8],
        pos: &TicTacToePosition,
        policy: IllegalPolicy,
    ) -> GeneLookup<u8> {
        self.kind.lookup(genes, pos, policy)
    }
}

/// The value genome reads the board's nine cells as they are numbered
/// (row by row); every empty cell is playable.
impl CellBoard for TicTacToe {
    const WIDTH: usize = 3;
    const HEIGHT: usize = 3;
    const HORIZON: u32 = 20_000;

    fn cell_states(&self, pos: &TicTacToePosition, states: &mut [u8]) {
        ntuple::states_from(pos.x as u64, pos.o as u64, pos.empty() as u64, states);
    }

    /// The cell as moves name it, 1-9.
    fn cell_name(cell: usize) -> String {
        (cell + 1).to_string()
    }

    ntuple::evaluator_pool!(TicTacToe);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::TableGame;
    use crate::games::Pair;

    /// The engine's own loop: decide, play, look at the outcome.
    fn engine_game(
        game: &Pair<TicTacToe, TicTacToeEncoder>,
        first: &[u8],
        second: &[u8],
        policy: IllegalPolicy,
    ) -> Outcome {
        let mut pos = game.start();
        loop {
            if let Some(outcome) = game.outcome(&pos) {
                return outcome;
            }
            let side = game.turn(&pos);
            let genes = if side == Side::First { first } else { second };
            match game.decide(genes, &pos, policy) {
                Some(mv) => pos = game.play(&pos, mv),
                None => return Outcome::Win(side.other()),
            }
        }
    }

    #[test]
    fn the_base3_loop_gives_the_engines_outcome_game_for_game() {
        use rand::SeedableRng;
        let game = TicTacToe::BASE3;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let mut seen = [0usize; 3];
        for _ in 0..300 {
            // Any byte: genes of 9 and more are read modulo 9, and
            // illegal cells are repaired or forfeited.
            let genomes: Vec<Vec<u8>> = (0..2)
                .map(|_| (0..TICTACTOE_GENES).map(|_| rng.random()).collect())
                .collect();
            for policy in [IllegalPolicy::Repair, IllegalPolicy::Forfeit] {
                let fast = game.whole_game(&genomes[0], &genomes[1], policy);
                let engine = engine_game(&game, &genomes[0], &genomes[1], policy);
                assert_eq!(fast, Some(engine));
                seen[match engine {
                    Outcome::Win(Side::First) => 0,
                    Outcome::Win(Side::Second) => 1,
                    Outcome::Draw => 2,
                }] += 1;
            }
        }
        // Every outcome was met.
        assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
        // The symmetric encoder has no loop of its own.
        let symmetric = Pair::new(TicTacToe, TicTacToeEncoder::Symmetric);
        assert_eq!(
            symmetric.whole_game(&[0; 19_683], &[0; 19_683], IllegalPolicy::Repair),
            None
        );
    }

    fn board(x: &[u8], o: &[u8]) -> TicTacToePosition {
        let mask = |cells: &[u8]| cells.iter().fold(0u16, |m, &c| m | 1 << c);
        TicTacToePosition {
            x: mask(x),
            o: mask(o),
        }
    }

    #[test]
    fn the_worked_examples_hold() {
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
            TicTacToe::BASE3.decide(&genes, &pos, IllegalPolicy::Repair),
            Some(1)
        );
        assert_eq!(
            TicTacToe::BASE3.decide(&genes, &pos, IllegalPolicy::Forfeit),
            None
        );
        genes[index] = 4;
        assert_eq!(
            TicTacToe::BASE3.decide(&genes, &pos, IllegalPolicy::Forfeit),
            Some(4)
        );
    }

    #[test]
    fn symmetric_boards_share_a_gene_and_move_alike() {
        let sym = Pair::new(TicTacToe, TicTacToeEncoder::Symmetric);
        assert_eq!(sym.active_genes().unwrap().len(), 627);
        assert_eq!(TicTacToe::BASE3.active_genes().unwrap().len(), 4_520);
        // X in each corner: one canonical board.
        let corners: Vec<usize> = [0u8, 2, 6, 8]
            .iter()
            .map(|&c| canonical_index(&board(&[c], &[])).0)
            .collect();
        assert!(corners.iter().all(|&i| i == corners[0]));
        // A gene saying "the cell next to X along the top row" in the
        // canonical frame answers each corner with its own neighbour.
        let mut genes = vec![4u8; TICTACTOE_GENES];
        let (index, t) = canonical_index(&board(&[0], &[]));
        genes[index] = SYMMETRIES[t][1];
        let answer = sym
            .decide(&genes, &board(&[0], &[]), IllegalPolicy::Forfeit)
            .unwrap();
        assert_eq!(answer, 1);
        for corner in [2u8, 6, 8] {
            let pos = board(&[corner], &[]);
            let mv = sym.decide(&genes, &pos, IllegalPolicy::Forfeit).unwrap();
            assert!(pos.empty() & (1 << mv) != 0);
            // The answer is an edge cell adjacent to the corner.
            assert!([1u8, 3, 5, 7].contains(&mv), "corner {corner}: {mv}");
        }
    }
}
