//! The value genome: small tuples of cells, a weight per tuple state, a
//! position's value from the sum, and a move chosen by the value of the
//! position it leads to.
//!
//! A tuple is up to eight board cells drawn by a random walk (each cell next
//! to the one before, none twice). Each cell is in one of the game's cell
//! states ([`CellBoard::STATES`]: four for tic-tac-toe and Connect-Four —
//! empty and not yet playable, empty and playable now, the first player's
//! stone, the second player's; five for checkers — an empty square and the
//! men and kings of both sides; three for Othello — empty, black, white), so a tuple reads one of STATES^length states and
//! its table holds one weight per state, twice: one table for positions left
//! by the first player, one for those left by the second. A tuple and its
//! images under the board's symmetries share the table (every image's
//! cells are read and the weights added: the tuple and its left-right
//! mirror for the stone games; checkers, with no such symmetry, reads the
//! tuple twice; Othello's square board reads it in all 8 of its
//! symmetries). The value of a position is `tanh(Σ weights)`, from the
//! first player's side.
//!
//! The genome is still a byte table, laid out so that the engine's
//! operators keep a tuple whole:
//!
//! ```text
//! [tuple 0: 8 cell bytes | 2 × STATES^length weights, i16 LE] … [tuple T−1] [8 parameter bytes]
//! ```
//!
//! Unused cell bytes hold `NO_CELL`. The parameter bytes are the genome's
//! own learning rate, λ and exploration (self-adapted by mutation, unless
//! `FIXED_SCHEDULE`), its learning flags (`FROM_EXPLORATION`,
//! `ONE_TABLE`, `FIXED_SCHEDULE`) and game stages
//! ([`stages`]; flags and stages fixed for its life, 0 in genomes written
//! before them), and the number of self-play games it has learned from
//! (the schedules' clock).
//!
//! With S game stages the tuples are S equal groups, and a position reads
//! only the group of its stage ([`CellBoard::stage`]: Othello's by the
//! discs on the board), as Othello programs split their pattern tables:
//! a pattern's worth changes as the board fills.
//!
//! Weights are `i16` in units of 1/`SCALE` (±4): half the memory of
//! `f32` (a 70-tuple, length-8 genome is 18 MB instead of 37 MB, and a
//! population holds many), with learning steps far below one unit kept
//! unbiased by stochastic rounding.

use super::{Explanation, IllegalPolicy};
use super::{Learns, Opponent, TableGame};
use crate::games::{Game, Notation, Outcome, Pair, Side};
pub use crate::games::{MAX_STAGES, MAX_TUPLE_LENGTH as MAX_LENGTH, NTuple};
use crate::games::{Placement, ValueGenome};
use rand::{Rng, RngExt};
use serde::Serialize;
use std::cell::RefCell;
use std::sync::Arc;

mod evaluator;
mod explain;
mod genes;
mod learn;
mod search;
mod tuples;
pub use evaluator::{Evaluator, decide};
use evaluator::{exact, sign};
pub use explain::{TupleWeight, Values};
pub use genes::{fill_given, fill_random, mutate, problem};
pub use learn::Learner;
pub use search::search;
pub use tuples::Tuples;

/// Weight units per 1.0 of the sum.
pub(crate) const SCALE: f32 = 8192.0;
/// A cell byte that names no cell (tuples shorter than eight).
pub(crate) const NO_CELL: u8 = 0xff;
/// Cell bytes at the head of each tuple.
pub(crate) const SHAPE_BYTES: usize = 8;
/// Parameter bytes at the end of the genome.
pub(crate) const PARAM_BYTES: usize = 8;
/// Learning flag: the genome learns from its exploratory moves too (the
/// TD error runs through them and the trace is kept, as the papers' TD(0)
/// learns), instead of cutting its trace at each.
pub(crate) const FROM_EXPLORATION: u8 = 1;
/// Learning flag: both sides read and learn one table per tuple (the
/// first), the value of a position whoever left it; the second table stays
/// zero.
pub(crate) const ONE_TABLE: u8 = 2;
/// Learning flag: the genome's α, λ and ε stay as they were set (mutation
/// does not drift them), exploration holds at ε, and α falls to a tenth
/// over [`CellBoard::HORIZON`], as the papers' protocol learns.
pub(crate) const FIXED_SCHEDULE: u8 = 4;
/// The learning flags a genome may carry (below the stage count's bits).
pub(crate) const KNOWN_FLAGS: u8 = FROM_EXPLORATION | ONE_TABLE | FIXED_SCHEDULE;
/// Where the stage count starts in the flag byte: its high four bits hold
/// the number of stage tables less one (0 in genomes written before them).
const STAGE_SHIFT: u8 = 4;

/// The learning flags of `genes`, its fourth parameter byte.
pub(crate) fn learning_flags(genes: &[u8]) -> u8 {
    genes[genes.len() - PARAM_BYTES + 3] & ((1 << STAGE_SHIFT) - 1)
}

/// The game stages `genes` splits its tuples into, 1..=[`MAX_STAGES`]:
/// with S stages the tuples are S equal groups, the k-th read in the
/// positions of stage k ([`CellBoard::stage`]).
pub fn stages(genes: &[u8]) -> usize {
    (genes[genes.len() - PARAM_BYTES + 3] >> STAGE_SHIFT) as usize + 1
}

/// The flag byte's stage bits for `stages` (1..=[`MAX_STAGES`]).
pub(crate) fn stage_bits(stages: usize) -> u8 {
    ((stages.clamp(1, MAX_STAGES) - 1) as u8) << STAGE_SHIFT
}
/// Afterstates a TD error reaches back to (older trace entries are cut).
const TRACE: usize = 8;

/// Cell states.
const EMPTY_LATER: u8 = 0;
pub(crate) const EMPTY_NOW: u8 = 1;
pub(crate) const FIRST: u8 = 2;
pub(crate) const SECOND: u8 = 3;

/// A board of cells on a grid, as the value genome reads it. Cells are
/// numbered row by row from the bottom left: `row * WIDTH + column`.
pub trait CellBoard: Notation {
    /// Columns of the grid.
    const WIDTH: usize;
    /// Rows of the grid.
    const HEIGHT: usize;
    /// Self-play games over which the learning rate falls to a quarter and
    /// exploration to a tenth.
    const HORIZON: u32;
    /// States a cell can be in (4: tic-tac-toe and Connect-Four; 5:
    /// checkers' empty square and the men and kings of both sides).
    const STATES: u32 = 4;
    /// A fresh genome's learning-rate code: α = 10^(−4 + code/64) at the
    /// start of the schedule (102: 0.004; Othello's 48: 0.00056, measured
    /// in docs/experiments.md). Evolution drifts it from there.
    const ALPHA_CODE: u8 = DEFAULT_CODES[0];
    /// Each cell's state, 0..STATES: for the stone games 0 empty and not
    /// yet playable, 1 empty and playable, 2 the first player's stone, 3
    /// the second player's.
    fn cell_states(&self, pos: &Self::Position, states: &mut [u8]);
    /// The images a tuple is read in, itself included: the board's
    /// symmetries under which the rules do not change, sharing one table
    /// (2: the tuple and its left-right mirror image; Othello's square
    /// board has 8).
    const SYMMETRIES: usize = 2;
    /// The cell image `symmetry` (0..SYMMETRIES; 0 is the identity) reads
    /// for `cell`. By default image 1 is the left-right mirror
    /// ([`CellBoard::mirror_cell`]).
    fn symmetric_cell(symmetry: usize, cell: usize) -> usize {
        match symmetry {
            0 => cell,
            _ => Self::mirror_cell(cell),
        }
    }
    /// The cell a tuple's mirror image reads for `cell` (left-right for
    /// the stone games, whose rules are symmetric so; a board without
    /// such a symmetry returns `cell`, and a tuple is then read twice).
    fn mirror_cell(cell: usize) -> usize {
        let (row, col) = (cell / Self::WIDTH, cell % Self::WIDTH);
        row * Self::WIDTH + (Self::WIDTH - 1 - col)
    }
    /// The cells whose state differs between `pos`, whose states are
    /// `states`, and `next`, one move on: each with its state in `next`.
    /// By default every cell of `next` is read (into `scratch`, a board of
    /// states) and compared; a game whose moves change known cells says
    /// which.
    fn changed_cells(
        &self,
        pos: &Self::Position,
        states: &[u8],
        next: &Self::Position,
        scratch: &mut [u8],
        out: &mut Vec<(usize, u8)>,
    ) {
        let _ = pos;
        self.cell_states(next, scratch);
        out.clear();
        out.extend(
            scratch
                .iter()
                .zip(states)
                .enumerate()
                .filter(|(_, (new, old))| new != old)
                .map(|(cell, (&new, _))| (cell, new)),
        );
    }
    /// A cell as `explain` writes it.
    fn cell_name(cell: usize) -> String;
    /// One tuple on every class of straight lines of `length` cells
    /// under the board's symmetries, for a board that places tuples so
    /// ([`Placement::Straight`]: Othello); `None` for one that does not.
    fn straight_tuples(_length: u8) -> Option<Vec<Vec<u8>>> {
        None
    }
    /// The board's hand-placed patterns, one tuple per class under the
    /// symmetries, each of at most [`MAX_LENGTH`] cells
    /// ([`Placement::Patterns`]: Othello); `None` for a board without.
    fn pattern_tuples() -> Option<Vec<Vec<u8>>> {
        None
    }
    /// A fresh genome's learning codes for tuples placed so, in `stages`
    /// game stages: α code, λ code (λ = code/255) and learning flags. By
    /// default [`CellBoard::ALPHA_CODE`], λ 0.5 and no flags, for every
    /// placement.
    fn learning_codes(placement: Placement, stages: usize) -> LearningCodes {
        let _ = (placement, stages);
        LearningCodes::default_for::<Self>()
    }
    /// The most game stages a genome of this board may split its tuples
    /// into ([`stages`]); 1, none, by default.
    const MAX_STAGES: usize = 1;
    /// The stage of `pos` among `stages` (0..stages; 0 when `stages` is 1):
    /// how far the game has gone. Only a board with
    /// [`CellBoard::MAX_STAGES`] above 1 needs to say.
    fn stage(&self, pos: &Self::Position, stages: usize) -> usize {
        let _ = (pos, stages);
        0
    }
    /// This thread's evaluators of the game, kept between decisions so
    /// that a decision allocates nothing (see [`decide`]). A game names its
    /// own thread-local with `evaluator_pool!(Game)`: a generic function
    /// cannot hold a thread-local per type.
    fn evaluator_pool() -> &'static std::thread::LocalKey<EvaluatorPool<Self>>;
}

/// A thread's evaluators of one game, the genome read most recently last
/// ([`CellBoard::evaluator_pool`]).
pub type EvaluatorPool<G> = RefCell<Vec<Evaluator<G>>>;

/// Evaluators a thread keeps per game: a round-robin row plays one genome
/// against each of the others in turn, so two are in use at a time.
const POOL_SIZE: usize = 8;

/// Writes [`CellBoard::evaluator_pool`] for the game `$game`, inside its
/// `impl CellBoard` (a game outside this crate too:
/// `bebete_core::evaluator_pool!(MyGame);`).
#[macro_export]
macro_rules! evaluator_pool {
    ($game:ty) => {
        fn evaluator_pool()
        -> &'static ::std::thread::LocalKey<$crate::encoding::ntuple::EvaluatorPool<$game>> {
            ::std::thread_local! {
                static POOL: $crate::encoding::ntuple::EvaluatorPool<$game> =
                    const { ::std::cell::RefCell::new(::std::vec::Vec::new()) };
            }
            &POOL
        }
    };
}
pub use crate::evaluator_pool;

/// The value genome is a genome kind of every game with a board view:
/// decided, searched, learned, explained, bred and checked here, once.
impl<G: CellBoard> TableGame for Pair<G, ValueGenome>
where
    G::Move: PartialEq,
{
    type Reason = Values<G::Move>;

    fn gene_count(&self) -> usize {
        self.kind.shape.gene_count_in(G::STATES)
    }

    /// Unused by the engine (a value genome is drawn whole and mutated by
    /// its own operator); a byte like any other.
    fn random_gene<R: Rng + ?Sized>(&self, _index: usize, rng: &mut R) -> u8 {
        rng.random()
    }

    fn fill_random<R: Rng + ?Sized>(&self, genes: &mut [u8], rng: &mut R) {
        let given = match self.kind.placement {
            Placement::Drawn => None,
            Placement::Straight => G::straight_tuples(self.kind.shape.length),
            Placement::Patterns => G::pattern_tuples(),
        };
        match given {
            Some(tuples) => fill_given::<G>(self.kind.shape, genes, &tuples, self.kind.placement),
            None => fill_random::<G, R>(self.kind.shape, genes, rng),
        }
    }

    /// Kept out of line: a value decision costs microseconds, and a vote
    /// table's decision beside it in a game's loop stays small.
    #[inline(never)]
    fn decide(&self, genes: &[u8], pos: &G::Position, _policy: IllegalPolicy) -> Option<G::Move> {
        let game = &self.rules;
        decide(game, self.kind.shape, genes, pos, None)
    }

    #[inline(never)]
    fn decide_among(
        &self,
        genes: &[u8],
        pos: &G::Position,
        _policy: IllegalPolicy,
        allowed: &dyn Fn(G::Move) -> bool,
    ) -> Option<G::Move> {
        let game = &self.rules;
        decide(game, self.kind.shape, genes, pos, Some(allowed))
    }

    fn explain(&self, genes: &[u8], pos: &G::Position, _policy: IllegalPolicy) -> Values<G::Move> {
        let game = &self.rules;
        Values::of(game, self.kind.shape, genes, pos, 1)
    }

    fn crossover_unit(&self) -> Option<usize> {
        Some(self.kind.shape.block_in(G::STATES))
    }

    fn mutate_own<R: Rng + ?Sized>(
        &self,
        genes: &mut [u8],
        rate: f64,
        rng: &mut R,
    ) -> Option<usize> {
        let redraw = self.kind.placement == Placement::Drawn;
        Some(mutate::<G, R>(self.kind.shape, genes, rate, redraw, rng))
    }

    fn as_learner(&self) -> Option<&dyn Learns<Self>> {
        Some(self)
    }

    fn genes_problem(&self, genes: &[u8]) -> Option<String> {
        problem::<G>(self.kind.shape, genes)
    }
}

/// The value genome learns, and searches over its own values.
impl<G: CellBoard> Learns<Pair<G, ValueGenome>> for Pair<G, ValueGenome>
where
    G::Move: PartialEq,
{
    fn learning(&self, genes: &[u8]) -> Schedule {
        let params = Params::read(genes);
        let (alpha_now, epsilon_now) = params.scheduled(G::HORIZON);
        Schedule {
            params,
            horizon: G::HORIZON,
            alpha_now,
            epsilon_now,
        }
    }

    fn learn(&self, genes: &mut [u8], games: u32, rng: rand_pcg::Pcg64Mcg) -> u64 {
        let game = &self.rules;
        Learner::new(game.clone(), self.kind.shape, genes, rng).learn(games)
    }

    fn learn_against(
        &self,
        genes: &mut [u8],
        games: u32,
        rng: rand_pcg::Pcg64Mcg,
        opponent: &mut Opponent<'_, Self>,
    ) -> u64 {
        let game = &self.rules;
        Learner::new(game.clone(), self.kind.shape, genes, rng).learn_against(games, opponent)
    }

    fn search(&self, genes: &[u8], pos: &G::Position, depth: u8) -> Option<G::Move> {
        let game = &self.rules;
        search(game, self.kind.shape, genes, pos, depth)
    }

    fn explain_search(&self, genes: &[u8], pos: &G::Position, depth: u8) -> Values<G::Move> {
        let game = &self.rules;
        Values::of(game, self.kind.shape, genes, pos, depth)
    }
}

/// A fresh genome's learning codes ([`CellBoard::learning_codes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearningCodes {
    /// α = 10^(−4 + code/64) at the start of the schedule.
    pub alpha: u8,
    /// λ = code/255.
    pub lambda: u8,
    /// `FROM_EXPLORATION`, `ONE_TABLE` and `FIXED_SCHEDULE`, or 0.
    pub flags: u8,
}

impl LearningCodes {
    /// The default: [`CellBoard::ALPHA_CODE`], λ 0.5, no flags.
    pub(crate) fn default_for<G: CellBoard>() -> Self {
        LearningCodes {
            alpha: G::ALPHA_CODE,
            lambda: DEFAULT_CODES[1],
            flags: 0,
        }
    }
}

/// The genome's own learning settings, stored in its last bytes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Params {
    /// Self-play games learned from so far (the schedule's clock).
    pub games: u32,
    /// Learning rate at the start of the schedule.
    pub alpha: f32,
    /// TD(λ)'s trace decay.
    pub lambda: f32,
    /// Exploration at the start of the schedule.
    pub epsilon: f32,
    /// Learns from its exploratory moves too (`FROM_EXPLORATION`).
    pub from_exploration: bool,
    /// One table per tuple for both sides (`ONE_TABLE`).
    pub one_table: bool,
    /// Settings fixed for life, ε held (`FIXED_SCHEDULE`).
    pub fixed_schedule: bool,
    /// Game stages, each with its own group of tuples ([`stages`]).
    pub stages: u8,
}

/// Where a value genome's learning stands, from its own bytes: its
/// settings ([`Params`]: the games it has learned from, its TD(λ) settings
/// at the schedule's start, its flags), and the rates they have fallen to
/// over `horizon` games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Schedule {
    #[serde(flatten)]
    /// The genome's settings, as its bytes hold them.
    pub params: Params,
    /// Self-play games over which the rates fall.
    pub horizon: u32,
    /// The learning rate now.
    pub alpha_now: f32,
    /// The exploration rate now.
    pub epsilon_now: f32,
}

/// Parameter codes of a fresh genome: α 0.004 (the game's
/// [`CellBoard::ALPHA_CODE`]), λ 0.5, ε 0.1 (the settings measured in the
/// prototype).
const DEFAULT_CODES: [u8; 3] = [102, 128, 100];

/// The parameter bytes a fresh genome of `G` with tuples placed so, in
/// `stages` game stages, starts with: α, λ and ε codes, then its learning
/// flags and stages.
pub(crate) fn fresh_codes<G: CellBoard>(placement: Placement, stages: usize) -> [u8; 4] {
    let codes = G::learning_codes(placement, stages);
    [
        codes.alpha,
        codes.lambda,
        DEFAULT_CODES[2],
        codes.flags | stage_bits(stages),
    ]
}

fn alpha_of(code: u8) -> f32 {
    10f32.powf(-4.0 + code as f32 / 64.0)
}

impl Params {
    /// Reads the parameter bytes of `genes`.
    pub fn read(genes: &[u8]) -> Params {
        let p = &genes[genes.len() - PARAM_BYTES..];
        Params {
            alpha: alpha_of(p[0]),
            lambda: p[1] as f32 / 255.0,
            epsilon: p[2] as f32 / 1000.0,
            from_exploration: learning_flags(genes) & FROM_EXPLORATION != 0,
            one_table: learning_flags(genes) & ONE_TABLE != 0,
            fixed_schedule: learning_flags(genes) & FIXED_SCHEDULE != 0,
            stages: stages(genes) as u8,
            games: u32::from_le_bytes([p[4], p[5], p[6], p[7]]),
        }
    }

    /// The learning rate and exploration after `games`: α falls
    /// exponentially to a quarter over the horizon, ε linearly to a tenth;
    /// with [`FIXED_SCHEDULE`], α to a tenth and ε holds.
    fn scheduled(self, horizon: u32) -> (f32, f32) {
        let t = (self.games as f32 / horizon as f32).min(1.0);
        match self.fixed_schedule {
            true => (self.alpha * 0.1f32.powf(t), self.epsilon),
            false => (self.alpha * 0.25f32.powf(t), self.epsilon * (1.0 - 0.9 * t)),
        }
    }
}

/// Cell states from two stone masks and the playable cells, for boards
/// numbered as [`CellBoard`] numbers them.
pub(crate) fn states_from(first: u64, second: u64, playable: u64, states: &mut [u8]) {
    for (cell, state) in states.iter_mut().enumerate() {
        let bit = 1u64 << cell;
        *state = if first & bit != 0 {
            FIRST
        } else if second & bit != 0 {
            SECOND
        } else if playable & bit != 0 {
            EMPTY_NOW
        } else {
            EMPTY_LATER
        };
    }
}

#[cfg(test)]
mod tests;
