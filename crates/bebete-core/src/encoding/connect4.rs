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

use super::ntuple::{self, CellBoard};
use super::{Explanation, IllegalPolicy, TableGame};
use crate::games::{
    CONNECT4_HEIGHT, CONNECT4_STRIDE, CONNECT4_WIDTH, Connect4, Connect4Encoder, Connect4Position,
    Pair,
};
use crate::games::{Game, Side};
use rand::{Rng, RngExt};
use serde::Serialize;

/// Board columns.
const WIDTH: usize = CONNECT4_WIDTH as usize;
/// Bits per column of the bitboards.
const STRIDE: usize = CONNECT4_STRIDE as usize;

/// Windows per board.
pub const WINDOWS: usize = 12;
/// Genes in a Connect-Four genome: 31^4.
pub(crate) const CONNECT4_GENES: usize = 923_521;

/// The low 4 bits of each column field.
const NIBBLES: u64 = {
    let mut m = 0u64;
    let mut col = 0;
    while col < WIDTH {
        m |= 0xf << (STRIDE * col);
        col += 1;
    }
    m
};

/// Tie priority per column (higher wins): 6 for the centre … 0 for column 7.
const TIE_PRIORITY: [u32; WIDTH] = [1, 3, 5, 6, 4, 2, 0];

/// The column of each tie priority (the inverse of `TIE_PRIORITY`).
const PRIORITY_COLUMN: [u8; 8] = [6, 0, 5, 1, 4, 2, 3, 0];

/// One window's vote, as shown by `bebete explain`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WindowVote {
    pub(crate) column_offset: u8,
    pub(crate) row_offset: u8,
    /// The gene index the window read.
    pub index: u32,
    /// The gene found there.
    pub gene: u8,
    /// Board column voted for, 0-based (1-based when serialised, as the
    /// position notation writes columns).
    #[serde(serialize_with = "one_based")]
    pub(crate) column: u8,
    pub(crate) weight: u8,
}

fn one_based<S: serde::Serializer>(column: &u8, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u8(column + 1)
}

/// A Connect-Four decision: twelve windows voted. Serialises as the fields
/// `explain --json` shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Votes {
    pub(crate) windows: [WindowVote; WINDOWS],
    /// Vote sums per board column, full columns included.
    pub(crate) votes: [u32; WIDTH],
    #[serde(skip)]
    /// The column played, 0-based.
    pub chosen: u8,
    /// Columns that are full (their votes do not count).
    #[serde(skip)]
    pub(crate) full: [bool; WIDTH],
}

impl Explanation<u8> for Votes {
    fn consulted(&self) -> impl Iterator<Item = usize> + '_ {
        self.windows.iter().map(|w| w.index as usize)
    }

    fn chosen(&self) -> Option<u8> {
        Some(self.chosen)
    }

    fn summary(&self) -> String {
        format!(
            "(the column its 12 windows voted for most; votes per column {})",
            column_sums(&self.votes, &self.full).join(" ")
        )
    }

    fn details(&self, played: &str) -> String {
        let mut out = String::from("window (col+row offset)    index  gene  votes for column\n");
        for w in &self.windows {
            out.push_str(&format!(
                "  +{} +{}                  {:>7}  {:>4}  {} with weight {}\n",
                w.column_offset,
                w.row_offset,
                w.index,
                w.gene,
                w.column + 1,
                w.weight
            ));
        }
        out.push_str(&format!(
            "column sums  {}\n",
            column_sums(&self.votes, &self.full).join("  ")
        ));
        out.push_str(&format!(
            "move {played} (the heaviest legal column; ties to the centre, then the left)\n"
        ));
        out
    }
}

/// `column:sum` for each board column, 1-based; `column:full` for a full
/// column, whose votes do not count.
fn column_sums(votes: &[u32; WIDTH], full: &[bool; WIDTH]) -> Vec<String> {
    votes
        .iter()
        .zip(full)
        .enumerate()
        .map(|(c, (v, &full))| match full {
            true => format!("{}:full", c + 1),
            false => format!("{}:{v}", c + 1),
        })
        .collect()
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
            let code = |col: usize| ((codes >> (STRIDE * col)) & 0x7f) as u32;
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

    /// The gene index of every window under `encoder`, and whether the
    /// window was read mirrored (then the gene's column counts from the right).
    #[inline]
    pub(crate) fn windows(
        encoder: Connect4Encoder,
        pos: &Connect4Position,
    ) -> [(u32, bool); WINDOWS] {
        if encoder == Connect4Encoder::Subgrid {
            return Self::window_indices(pos).map(|i| (i, false));
        }
        let opponent = pos.opponent();
        let mut out = [(0u32, false); WINDOWS];
        for row in 0..3 {
            let codes = ((pos.mask >> row) & NIBBLES) + ((opponent >> row) & NIBBLES);
            let c: [u32; WIDTH] =
                std::array::from_fn(|col| ((codes >> (STRIDE * col)) & 0x7f) as u32);
            let index = |a: u32, b: u32, x: u32, d: u32| ((a * 31 + b) * 31 + x) * 31 + d;
            for col in 0..4 {
                let forward = index(c[col], c[col + 1], c[col + 2], c[col + 3]);
                out[row * 4 + col] = if encoder.mirror() {
                    let mirrored = index(c[col + 3], c[col + 2], c[col + 1], c[col]);
                    if mirrored < forward {
                        (mirrored, true)
                    } else {
                        (forward, false)
                    }
                } else {
                    (forward, false)
                };
            }
        }
        out
    }

    /// The code (0..=30) of one window column: `k` stones, `opponent_bits` colours.
    #[cfg(test)]
    pub(crate) fn column_code(stones: u32, opponent_bits: u32) -> u32 {
        (1 << stones) - 1 + opponent_bits
    }
}

/// The board column a window's gene votes for.
#[inline]
fn voted_column(column_offset: usize, gene: u8, mirrored: bool) -> usize {
    let inside = (gene >> 6) as usize;
    column_offset + if mirrored { 3 - inside } else { inside }
}

/// Picks the legal column with the largest sum, ties to the column nearest
/// the centre, then the left; `None` when no column is legal.
///
/// Branch-free: key = sum·8 + tie priority + 1 for legal columns (0 for full
/// ones), and the largest key wins.
#[inline]
pub fn heaviest_legal_column(sums: &[u32; WIDTH], legal: impl Fn(usize) -> bool) -> Option<usize> {
    let mut best = 0u32;
    for (col, &sum) in sums.iter().enumerate() {
        best = best.max(legal(col) as u32 * (sum * 8 + TIE_PRIORITY[col] + 1));
    }
    (best > 0).then(|| PRIORITY_COLUMN[(best - 1) as usize % 8] as usize)
}

fn window_votes(
    encoder: Connect4Encoder,
    genes: &[u8],
    pos: &Connect4Position,
) -> ([WindowVote; WINDOWS], [u32; WIDTH]) {
    let indices = SubgridEncoder::windows(encoder, pos);
    let mut windows = [WindowVote::default(); WINDOWS];
    let mut sums = [0u32; WIDTH];
    for (w, &(index, mirrored)) in indices.iter().enumerate() {
        let gene = genes[index as usize];
        let (row_offset, column_offset) = ((w / 4) as u8, (w % 4) as u8);
        let column = voted_column(column_offset as usize, gene, mirrored) as u8;
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

/// The text's genome: twelve windows, each a gene voting a column with a
/// weight.
impl TableGame for Pair<Connect4, Connect4Encoder> {
    type Reason = Votes;
    const WEIGHTED_GENES: bool = true;

    fn gene_count(&self) -> usize {
        CONNECT4_GENES
    }

    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random()
    }

    /// Every byte is a valid gene: fill whole words at a time.
    fn fill_random<R: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut R) {
        rng.fill_bytes(genes)
    }

    fn without_weight(&self, gene: u8) -> u8 {
        gene & !63
    }

    #[inline]
    fn decide(&self, genes: &[u8], pos: &Connect4Position, _policy: IllegalPolicy) -> Option<u8> {
        let mut sums = [0u32; WIDTH];
        if self.kind == Connect4Encoder::Subgrid {
            for (w, &index) in SubgridEncoder::window_indices(pos).iter().enumerate() {
                let gene = genes[index as usize];
                sums[w % 4 + (gene >> 6) as usize] += (gene & 63) as u32;
            }
        } else {
            for (w, &(index, mirrored)) in
                SubgridEncoder::windows(self.kind, pos).iter().enumerate()
            {
                let gene = genes[index as usize];
                sums[voted_column(w % 4, gene, mirrored)] += (gene & 63) as u32;
            }
        }
        heaviest_legal_column(&sums, |c| pos.can_play(c as u32)).map(|c| c as u8)
    }

    /// Four columns × eight weights (0, 9, …, 63): a local search's step
    /// needs the column and the rough weight, not every byte.
    fn candidate_genes(&self) -> Vec<u8> {
        (0..4u8)
            .flat_map(|inside| (0..8u8).map(move |w| inside << 6 | (w * 9)))
            .collect()
    }

    /// The votes rank every column: the heaviest allowed one.
    fn decide_among(
        &self,
        genes: &[u8],
        pos: &Connect4Position,
        _policy: IllegalPolicy,
        allowed: &dyn Fn(u8) -> bool,
    ) -> Option<u8> {
        let (_, votes) = window_votes(self.kind, genes, pos);
        heaviest_legal_column(&votes, |c| pos.can_play(c as u32) && allowed(c as u8))
            .map(|c| c as u8)
    }

    fn explain(&self, genes: &[u8], pos: &Connect4Position, _policy: IllegalPolicy) -> Votes {
        let (windows, votes) = window_votes(self.kind, genes, pos);
        let chosen = heaviest_legal_column(&votes, |c| pos.can_play(c as u32)).unwrap_or(0) as u8;
        Votes {
            windows,
            votes,
            chosen,
            full: std::array::from_fn(|c| !pos.can_play(c as u32)),
        }
    }
}

/// The value genome reads the board as 42 cells, row by row from the
/// bottom left; the lowest empty cell of each column is the playable one.
impl CellBoard for Connect4 {
    const WIDTH: usize = WIDTH;
    const HEIGHT: usize = CONNECT4_HEIGHT as usize;
    const HORIZON: u32 = 2_000_000;

    fn cell_states(&self, pos: &Connect4Position, states: &mut [u8]) {
        let (x, o) = match self.turn(pos) {
            Side::First => (pos.current, pos.opponent()),
            Side::Second => (pos.opponent(), pos.current),
        };
        let (mut first, mut second, mut now) = (0u64, 0u64, 0u64);
        for col in 0..WIDTH {
            let height = pos.height(col as u32) as usize;
            if height < Self::HEIGHT {
                now |= 1 << (height * WIDTH + col);
            }
            for row in 0..height {
                let bit = 1u64 << (col * CONNECT4_STRIDE as usize + row);
                let cell = 1u64 << (row * WIDTH + col);
                if x & bit != 0 {
                    first |= cell;
                } else if o & bit != 0 {
                    second |= cell;
                }
            }
        }
        ntuple::states_from(first, second, now, states);
    }

    /// A move changes two cells at most: the one its stone lands in, and
    /// the one above, now playable.
    fn changed_cells(
        &self,
        pos: &Connect4Position,
        _states: &[u8],
        next: &Connect4Position,
        _scratch: &mut [u8],
        out: &mut Vec<(usize, u8)>,
    ) {
        out.clear();
        let landed = (next.mask ^ pos.mask).trailing_zeros();
        let (col, row) = (
            (landed / CONNECT4_STRIDE) as usize,
            (landed % CONNECT4_STRIDE) as usize,
        );
        let stone = match self.turn(pos) {
            Side::First => ntuple::FIRST,
            Side::Second => ntuple::SECOND,
        };
        out.push((row * WIDTH + col, stone));
        if row + 1 < Self::HEIGHT {
            out.push(((row + 1) * WIDTH + col, ntuple::EMPTY_NOW));
        }
    }

    /// `c4r1`: column 4, bottom row.
    fn cell_name(cell: usize) -> String {
        format!("c{}r{}", cell % WIDTH + 1, cell / WIDTH + 1)
    }

    ntuple::evaluator_pool!(Connect4);
}

#[cfg(test)]
mod tests;
