//! The text's sub-grid genome for checkers: every 4×4 window of the board
//! votes for a move that starts inside it.
//!
//! The board is read from the side to move (White's board is turned half
//! a turn, so that both sides move "down" and one genome plays either
//! side). Each of the 25 placements of a 4×4 window (row and column
//! offsets 0–4) holds 8 dark squares; each square is empty, an own man, an
//! own king, an opponent's man or an opponent's king (0–4), and the window
//! state `Σ state_k · 5^k` (k = the window's dark squares, row by row)
//! picks one of 5^8 = 390,625 genes, one table shared by every placement.
//!
//! A gene byte is a vote: bits 0–2 a dark square of the window (0–7),
//! bits 3–4 a direction from it (0 back-left, 1 back-right, 2
//! forward-left, 3 forward-right; left and right as the board is drawn
//! with the mover's side at the top, forward is down), bits 5–7 a weight
//! (0–7). The votes of the 25 windows are summed per
//! (square, direction); a legal move scores the sum of its first step's
//! square and direction, and the highest-scoring legal move is played.
//! Ties — among them the branches of one multi-jump, which share their
//! first jump — go to the first in the rules' move order (squares from 1
//! up, then the capturing line found first). A genome always plays a
//! legal move, so the illegal-move policy never applies.

use super::ntuple::{self, CellBoard};
use super::{Explanation, IllegalPolicy, TableGame};
use crate::games::{
    Checkers, CheckersEncoder, CheckersMove, CheckersPosition, Game, Notation, Pair, Side,
};
use rand::{Rng, RngExt};
use serde::Serialize;
use std::cell::RefCell;

/// Window placements: 5 row offsets × 5 column offsets.
pub(crate) const CHECKERS_WINDOWS: usize = 25;
/// Genes of the sub-grid genome: 5^8 window states.
pub const CHECKERS_GENES: usize = 390_625;
/// Directions as the side to move sees them (its forward is "down" on
/// Black's board): the board's directions for Black, turned half a turn
/// for White.
const DIRECTION_NAMES: [&str; 4] = ["back-left", "back-right", "forward-left", "forward-right"];

/// The 8 dark squares of each window, as squares of the mover's frame
/// (0-based; Black's numbering), row by row.
static WINDOW_SQUARES: [[u8; 8]; CHECKERS_WINDOWS] = window_squares();

const fn window_squares() -> [[u8; 8]; CHECKERS_WINDOWS] {
    let mut table = [[0u8; 8]; CHECKERS_WINDOWS];
    let mut w = 0;
    while w < CHECKERS_WINDOWS {
        let (r0, c0) = ((w / 5) as i32, (w % 5) as i32);
        let mut k = 0;
        let mut r = r0;
        while r < r0 + 4 {
            let mut c = c0;
            while c < c0 + 4 {
                if let Some(sq) = crate::games::checkers_square_at(r, c) {
                    table[w][k] = sq as u8;
                    k += 1;
                }
                c += 1;
            }
            r += 1;
        }
        w += 1;
    }
    table
}

/// A board square in the mover's frame, and back (the same map: half a
/// turn for White).
fn frame(side: Side, sq: usize) -> usize {
    match side {
        Side::First => sq,
        Side::Second => 31 - sq,
    }
}

/// A direction of the mover's frame on the board (half a turn swaps
/// up-left with down-right and up-right with down-left).
fn board_direction(side: Side, d: usize) -> usize {
    match side {
        Side::First => d,
        Side::Second => 3 - d,
    }
}

/// Each frame square's state for the side to move: 0 empty, 1 own man,
/// 2 own king, 3 opponent's man, 4 opponent's king.
fn frame_states(pos: &CheckersPosition) -> [u8; 32] {
    let side = pos.to_move;
    let own = pos.pieces(side);
    let theirs = pos.pieces(side.other());
    std::array::from_fn(|f| {
        let bit = 1u32 << frame(side, f);
        let king = (pos.kings & bit != 0) as u8;
        if own & bit != 0 {
            1 + king
        } else if theirs & bit != 0 {
            3 + king
        } else {
            0
        }
    })
}

/// The gene index of each window.
pub(crate) fn window_indices(pos: &CheckersPosition) -> [u32; CHECKERS_WINDOWS] {
    let states = frame_states(pos);
    std::array::from_fn(|w| {
        WINDOW_SQUARES[w]
            .iter()
            .rev()
            .fold(0u32, |index, &f| index * 5 + states[f as usize] as u32)
    })
}

/// The board square and direction a gene of window `w` votes for.
fn voted(side: Side, w: usize, gene: u8) -> (usize, usize) {
    let f = WINDOW_SQUARES[w][(gene & 7) as usize] as usize;
    (
        frame(side, f),
        board_direction(side, (gene >> 3 & 3) as usize),
    )
}

/// Sums of the votes per (board square, board direction).
fn vote_sums(genes: &[u8], pos: &CheckersPosition) -> [[u32; 4]; 32] {
    let mut sums = [[0u32; 4]; 32];
    for (w, &index) in window_indices(pos).iter().enumerate() {
        let gene = genes[index as usize];
        let (sq, d) = voted(pos.to_move, w, gene);
        sums[sq][d] += (gene >> 5) as u32;
    }
    sums
}

/// The highest-scoring legal move `allowed` accepts; ties to the first.
fn best_move(
    game: &Checkers,
    pos: &CheckersPosition,
    sums: &[[u32; 4]; 32],
    allowed: &dyn Fn(CheckersMove) -> bool,
) -> Option<CheckersMove> {
    // This thread's move list, kept between decisions: a decision in a
    // tournament game allocates nothing (a fresh list only when the kept
    // one is in use further up the stack).
    thread_local! {
        static MOVES: RefCell<Vec<CheckersMove>> = const { RefCell::new(Vec::new()) };
    }
    let choose = |moves: &mut Vec<CheckersMove>| {
        game.legal_moves(pos, moves);
        let mut best: Option<(u32, CheckersMove)> = None;
        for &mv in moves.iter().filter(|&&m| allowed(m)) {
            let score = sums[mv.from as usize][mv.direction()];
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, mv));
            }
        }
        best.map(|(_, mv)| mv)
    };
    MOVES.with(|kept| match kept.try_borrow_mut() {
        Ok(mut moves) => choose(&mut moves),
        Err(_) => choose(&mut Vec::new()),
    })
}

/// One window's vote, as `explain` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SquareVote {
    pub(crate) row_offset: u8,
    pub(crate) column_offset: u8,
    /// The gene index the window read.
    pub index: u32,
    /// The gene found there.
    pub gene: u8,
    /// The board square voted for, 1-based.
    pub(crate) square: u8,
    /// The direction as the side to move sees it.
    pub(crate) direction: &'static str,
    pub(crate) weight: u8,
}

/// A checkers decision: 25 windows voted; each legal move's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ballot {
    pub(crate) windows: Vec<SquareVote>,
    /// Each legal move, as written, with its score.
    pub moves: Vec<(String, u32)>,
    #[serde(skip)]
    /// The move played (`None`: an illegal gene under forfeit).
    pub chosen: Option<CheckersMove>,
}

impl Explanation<CheckersMove> for Ballot {
    fn consulted(&self) -> impl Iterator<Item = usize> + '_ {
        self.windows.iter().map(|w| w.index as usize)
    }

    fn chosen(&self) -> Option<CheckersMove> {
        self.chosen
    }

    fn summary(&self) -> String {
        let scores: Vec<String> = self.moves.iter().map(|(m, s)| format!("{m}:{s}")).collect();
        format!(
            "(the move its windows voted for most; votes per move {})",
            scores.join(" ")
        )
    }

    fn details(&self, played: &str) -> String {
        let mut out = String::from("window (row+col offset)  index  gene  votes for\n");
        for w in self.windows.iter().filter(|w| w.weight > 0) {
            out.push_str(&format!(
                "  +{} +{}                {:>7}  {:>4}  square {} {} with weight {}\n",
                w.row_offset, w.column_offset, w.index, w.gene, w.square, w.direction, w.weight
            ));
        }
        let silent = self.windows.iter().filter(|w| w.weight == 0).count();
        if silent > 0 {
            out.push_str(&format!("  ({silent} windows vote with weight 0)\n"));
        }
        let scores: Vec<String> = self.moves.iter().map(|(m, s)| format!("{m}:{s}")).collect();
        out.push_str(&format!("move scores  {}\n", scores.join("  ")));
        out.push_str(&format!(
            "move {played} (the highest-scoring legal move; ties to the first in move order)\n"
        ));
        out
    }
}

/// The text's genome: 4×4 windows voting for moves that start in them.
impl TableGame for Pair<Checkers, CheckersEncoder> {
    type Reason = Ballot;
    const WEIGHTED_GENES: bool = true;

    fn gene_count(&self) -> usize {
        CHECKERS_GENES
    }

    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random()
    }

    fn fill_random<R: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut R) {
        rng.fill_bytes(genes)
    }

    fn without_weight(&self, gene: u8) -> u8 {
        gene & 31
    }

    #[inline]
    fn decide(
        &self,
        genes: &[u8],
        pos: &CheckersPosition,
        _policy: IllegalPolicy,
    ) -> Option<CheckersMove> {
        let game = &self.rules;
        best_move(game, pos, &vote_sums(genes, pos), &|_| true)
    }

    fn decide_among(
        &self,
        genes: &[u8],
        pos: &CheckersPosition,
        _policy: IllegalPolicy,
        allowed: &dyn Fn(CheckersMove) -> bool,
    ) -> Option<CheckersMove> {
        let game = &self.rules;
        best_move(game, pos, &vote_sums(genes, pos), allowed)
    }

    fn explain(&self, genes: &[u8], pos: &CheckersPosition, _policy: IllegalPolicy) -> Ballot {
        let game = &self.rules;
        game.ballot(genes, pos)
    }
}

/// The value genome reads the 32 squares (cell = square − 1, four to a
/// row), each empty, a black man or king, or a white man or king.
impl CellBoard for Checkers {
    const WIDTH: usize = 4;
    const HEIGHT: usize = 8;
    const HORIZON: u32 = 200_000;
    const STATES: u32 = 5;

    fn cell_states(&self, pos: &CheckersPosition, states: &mut [u8]) {
        for (sq, state) in states.iter_mut().enumerate() {
            let bit = 1u32 << sq;
            let king = (pos.kings & bit != 0) as u8;
            *state = if pos.black & bit != 0 {
                1 + king
            } else if pos.white & bit != 0 {
                3 + king
            } else {
                0
            };
        }
    }

    /// No left-right symmetry: the dark squares do not map onto dark
    /// squares.
    fn mirror_cell(cell: usize) -> usize {
        cell
    }

    fn cell_name(cell: usize) -> String {
        (cell + 1).to_string()
    }

    /// The default α and λ, with the settings fixed for life
    /// (`ntuple::FIXED_SCHEDULE`: mutation leaves them, ε holds, α falls
    /// to a tenth over the horizon). With settings that drift, the
    /// recommended run's 6-ply champion fell from 84.2% against
    /// `alphabeta:6` at 40 generations to 74.5% at 200 (seed 2); fixed, it
    /// scores 86.0% and 89.2% (seed 1: 80.5% and 83.5%, against 74.0% and
    /// 81.5%; docs/experiments.md, "A fixed schedule").
    fn learning_codes(_: crate::games::Placement, _: usize) -> ntuple::LearningCodes {
        ntuple::LearningCodes {
            flags: ntuple::FIXED_SCHEDULE,
            ..ntuple::LearningCodes::default_for::<Self>()
        }
    }

    ntuple::evaluator_pool!(Checkers);
}

impl Checkers {
    /// The sub-grid genome's decision, explained.
    fn ballot(&self, genes: &[u8], pos: &CheckersPosition) -> Ballot {
        let side = pos.to_move;
        let windows = window_indices(pos)
            .iter()
            .enumerate()
            .map(|(w, &index)| {
                let gene = genes[index as usize];
                let (sq, _) = voted(side, w, gene);
                SquareVote {
                    row_offset: (w / 5) as u8,
                    column_offset: (w % 5) as u8,
                    index,
                    gene,
                    square: sq as u8 + 1,
                    direction: DIRECTION_NAMES[(gene >> 3 & 3) as usize],
                    weight: gene >> 5,
                }
            })
            .collect();
        let sums = vote_sums(genes, pos);
        let mut moves = Vec::new();
        self.legal_moves(pos, &mut moves);
        Ballot {
            windows,
            moves: moves
                .iter()
                .map(|&m| (self.format_move(m), sums[m.from as usize][m.direction()]))
                .collect(),
            chosen: best_move(self, pos, &sums, &|_| true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::TableGame;
    use crate::games::NTuple;

    /// A fresh value genome's settings are fixed for life: mutation
    /// redraws tuples but leaves α, λ and ε as they were drawn.
    #[test]
    fn a_value_genome_keeps_its_settings_for_life() {
        use rand::SeedableRng;
        let game = Checkers::value_genome(NTuple {
            tuples: 4,
            length: 3,
        });
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let mut genes = vec![0u8; game.gene_count()];
        game.fill_random(&mut genes, &mut rng);
        assert!(ntuple::Params::read(&genes).fixed_schedule);
        let n = genes.len();
        let settings = genes[n - 8..n - 4].to_vec();
        for _ in 0..20 {
            game.mutate_own(&mut genes, 1.0, &mut rng);
        }
        assert_eq!(genes[n - 8..n - 4], settings[..]);
    }

    #[test]
    fn every_window_holds_eight_distinct_dark_squares() {
        for squares in WINDOW_SQUARES {
            let mut seen = squares.to_vec();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 8);
        }
        // Windows at the corners: the top left holds 1, 2, 5, 6, 9, 10,
        // 13, 14 (0-based 0, 1, 4, 5, 8, 9, 12, 13).
        assert_eq!(WINDOW_SQUARES[0], [0, 1, 4, 5, 8, 9, 12, 13]);
    }

    #[test]
    fn the_start_reads_the_same_for_both_sides() {
        let game = Checkers::SUBGRID;
        let start = game.start();
        let black = window_indices(&start);
        let mut white_to_move = start;
        white_to_move.to_move = Side::Second;
        // The start is symmetric under half a turn with colours swapped.
        assert_eq!(window_indices(&white_to_move), black);
        // The top-left window holds six own men, then two empty squares.
        assert!(black.iter().all(|&i| (i as usize) < CHECKERS_GENES));
        assert_eq!(black[0], (0..6).map(|k| 5u32.pow(k)).sum::<u32>());
    }

    #[test]
    fn the_heaviest_vote_is_played_and_votes_are_in_the_movers_frame() {
        let game = Checkers::SUBGRID;
        let start = game.start();
        let mut genes = vec![0u8; CHECKERS_GENES];
        // Window 10 (rows 2-5, columns 0-3) holds Black's 9 (frame square
        // 8, the window's square 0, bits 0-2 = 0); forward-right is
        // direction 3: 9-14.
        let index = window_indices(&start)[10] as usize;
        assert_eq!(WINDOW_SQUARES[10][0], 8);
        genes[index] = 7 << 5 | 3 << 3;
        let mv = game.decide(&genes, &start, IllegalPolicy::Repair).unwrap();
        assert_eq!(game.format_move(mv), "9-14");
        // White to move, the same gene: frame square 8 is board square
        // 24 (31 - 8 + 1), and forward-right for White is up-left: 24-19.
        let pos = game.parse_position("9-13").unwrap();
        let mut genes = vec![0u8; CHECKERS_GENES];
        genes[window_indices(&pos)[10] as usize] = 7 << 5 | 3 << 3;
        let mv = game.decide(&genes, &pos, IllegalPolicy::Repair).unwrap();
        assert_eq!(game.format_move(mv), "24-19");
        // No votes at all: the first legal move.
        let none = vec![0u8; CHECKERS_GENES];
        let mv = game.decide(&none, &start, IllegalPolicy::Repair).unwrap();
        assert_eq!(game.format_move(mv), "9-13");
    }
}
