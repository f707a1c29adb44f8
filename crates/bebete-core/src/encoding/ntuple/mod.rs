//! The value genome: small tuples of cells, a weight per tuple state, a
//! position's value from the sum, and a move chosen by the value of the
//! position it leads to.
//!
//! A tuple is up to eight board cells drawn by a random walk (each cell next
//! to the one before, none twice). Each cell is in one of four states —
//! empty and not yet playable, empty and playable now, the first player's
//! stone, the second player's — so a tuple reads one of 4^length states and
//! its table holds one weight per state, twice: one table for positions left
//! by the first player, one for those left by the second. A tuple and its
//! left-right mirror image share the table (the mirrored cells are read too
//! and both weights are added). The value of a position is
//! `tanh(Σ weights)`, from the first player's side.
//!
//! The genome is still a byte table, laid out so that the engine's
//! operators keep a tuple whole:
//!
//! ```text
//! [tuple 0: 8 cell bytes | 2 × 4^length weights, i16 LE] … [tuple T−1] [8 parameter bytes]
//! ```
//!
//! Unused cell bytes hold [`NO_CELL`]. The parameter bytes are the genome's
//! own learning rate, λ and exploration (self-adapted by mutation), and the
//! number of self-play games it has learned from (the schedules' clock).
//!
//! Weights are `i16` in units of 1/[`SCALE`] (±4): half the memory of
//! `f32` (a 70-tuple, length-8 genome is 18 MB instead of 37 MB, and a
//! population holds many), with learning steps far below one unit kept
//! unbiased by stochastic rounding.

use super::Explanation;
use crate::games::{Game, Outcome, Side};
pub use crate::games::{MAX_TUPLE_LENGTH as MAX_LENGTH, NTuple};
use rand::{Rng, RngExt};
use serde::Serialize;
use std::cell::RefCell;
use std::sync::Arc;

mod explain;
mod learn;
mod search;
pub use explain::{Decision, TupleWeight, Values};
pub use learn::Learner;
pub use search::search;

/// Weight units per 1.0 of the sum.
pub const SCALE: f32 = 8192.0;
/// A cell byte that names no cell (tuples shorter than eight).
pub const NO_CELL: u8 = 0xff;
/// Cell bytes at the head of each tuple.
pub(crate) const SHAPE_BYTES: usize = 8;
/// Parameter bytes at the end of the genome.
pub(crate) const PARAM_BYTES: usize = 8;
/// Afterstates a TD error reaches back to (older trace entries are cut).
const TRACE: usize = 8;

/// Cell states.
const EMPTY_LATER: u8 = 0;
const EMPTY_NOW: u8 = 1;
const FIRST: u8 = 2;
const SECOND: u8 = 3;

/// A board of cells on a grid, as the value genome reads it. Cells are
/// numbered row by row from the bottom left: `row * WIDTH + column`.
pub trait CellBoard: Game {
    const WIDTH: usize;
    const HEIGHT: usize;
    /// Self-play games over which the learning rate falls to a quarter and
    /// exploration to a tenth.
    const HORIZON: u32;
    /// States a cell can be in (4: tic-tac-toe and Connect-Four; 5:
    /// checkers' empty square and the men and kings of both sides).
    const STATES: u32 = 4;
    /// Each cell's state, 0..STATES: for the stone games 0 empty and not
    /// yet playable, 1 empty and playable, 2 the first player's stone, 3
    /// the second player's.
    fn cell_states(&self, pos: &Self::Position, states: &mut [u8]);
    /// The cell a tuple's mirror image reads for `cell` (left-right for
    /// the stone games, whose rules are symmetric so; a board without
    /// such a symmetry returns `cell`, and a tuple is then read twice).
    fn mirror_cell(cell: usize) -> usize {
        let (row, col) = (cell / Self::WIDTH, cell % Self::WIDTH);
        row * Self::WIDTH + (Self::WIDTH - 1 - col)
    }
    /// A cell as `explain` writes it.
    fn cell_name(cell: usize) -> String;
    /// The value genome's shape, when the game's encoder is `ntuple`.
    fn value_shape(&self) -> Option<NTuple>;
}

/// The `TableGame` methods of a game whose genome may be a value genome,
/// written once: each asks [`CellBoard::value_shape`] and hands the work
/// to this module, or answers as the trait's default does for the game's
/// other encoders.
macro_rules! value_genome_methods {
    () => {
        fn crossover_unit(&self) -> Option<usize> {
            self.value_shape()
                .map(|s| s.block_in(<Self as $crate::encoding::ntuple::CellBoard>::STATES))
        }

        fn mutate_own<R: rand::Rng + ?Sized>(
            &self,
            genes: &mut [u8],
            rate: f64,
            rng: &mut R,
        ) -> Option<usize> {
            self.value_shape()
                .map(|s| $crate::encoding::ntuple::mutate::<Self, R>(s, genes, rate, rng))
        }

        fn learns(&self) -> bool {
            self.value_shape().is_some()
        }

        fn learn(&self, genes: &mut [u8], games: u32, rng: rand_pcg::Pcg64Mcg) -> u64 {
            self.value_shape().map_or(0, |s| {
                $crate::encoding::ntuple::Learner::new(self.clone(), s, genes, rng).learn(games)
            })
        }

        fn search(
            &self,
            genes: &[u8],
            pos: &Self::Position,
            depth: u8,
        ) -> Option<Option<Self::Move>> {
            self.value_shape()
                .map(|s| $crate::encoding::ntuple::search(self, s, genes, pos, depth))
        }

        fn explain_search(
            &self,
            genes: &[u8],
            pos: &Self::Position,
            depth: u8,
        ) -> Option<Self::Reason> {
            self.value_shape().map(|s| {
                $crate::encoding::ntuple::Decision::Values($crate::encoding::ntuple::Values::of(
                    self, s, genes, pos, depth,
                ))
            })
        }

        fn genes_problem(&self, genes: &[u8]) -> Option<String> {
            self.value_shape()
                .and_then(|s| $crate::encoding::ntuple::problem::<Self>(s, genes))
        }
    };
}
pub(crate) use value_genome_methods;

/// The genome's own learning settings, stored in its last bytes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Params {
    /// Learning rate at the start of the schedule.
    pub alpha: f32,
    pub lambda: f32,
    /// Exploration at the start of the schedule.
    pub epsilon: f32,
    /// Self-play games learned from so far.
    pub games: u32,
}

/// Parameter codes of a fresh genome: α 0.004, λ 0.5, ε 0.1 (the settings
/// measured in the prototype).
const DEFAULT_CODES: [u8; 3] = [102, 128, 100];

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
            games: u32::from_le_bytes([p[4], p[5], p[6], p[7]]),
        }
    }

    /// The learning rate and exploration after `games`: α falls
    /// exponentially to a quarter over the horizon, ε linearly to a tenth.
    fn scheduled(self, horizon: u32) -> (f32, f32) {
        let t = (self.games as f32 / horizon as f32).min(1.0);
        (self.alpha * 0.25f32.powf(t), self.epsilon * (1.0 - 0.9 * t))
    }
}

/// The tuples of a genome, read once: each tuple's cells and mirrored
/// cells, where its tables start, and for each cell the tuple slots that
/// read it (so that a move updates only the indices it changes).
pub struct Tuples {
    shape: NTuple,
    /// Cell states: the base of the table indices.
    base: u32,
    cells: Vec<[u8; MAX_LENGTH as usize]>,
    mirrored: Vec<[u8; MAX_LENGTH as usize]>,
    /// Per cell: (slot, base^i) for each slot that reads it at place i; slot
    /// 2t is tuple t, 2t + 1 its mirror image.
    readers: Vec<Vec<(u16, u32)>>,
    /// Per slot: the byte offset of its tuple's first table.
    tables: Vec<u32>,
}

impl Tuples {
    pub fn read<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Tuples {
        let len = shape.length as usize;
        let block = shape.block_in(G::STATES);
        let board = G::WIDTH * G::HEIGHT;
        let mut cells = Vec::with_capacity(shape.tuples as usize);
        let mut mirrored = Vec::with_capacity(shape.tuples as usize);
        let mut readers = vec![Vec::new(); board];
        let mut tables = Vec::with_capacity(2 * shape.tuples as usize);
        for t in 0..shape.tuples as usize {
            let head = &genes[t * block..];
            let mut c = [0u8; MAX_LENGTH as usize];
            let mut m = [0u8; MAX_LENGTH as usize];
            for i in 0..len {
                let cell = (head[i] as usize).min(board - 1);
                c[i] = cell as u8;
                m[i] = G::mirror_cell(cell) as u8;
                let place = G::STATES.pow(i as u32);
                readers[c[i] as usize].push(((2 * t) as u16, place));
                readers[m[i] as usize].push(((2 * t + 1) as u16, place));
            }
            cells.push(c);
            mirrored.push(m);
            let table = (t * block + SHAPE_BYTES) as u32;
            tables.extend([table, table]);
        }
        Tuples {
            shape,
            base: G::STATES,
            cells,
            mirrored,
            readers,
            tables,
        }
    }

    /// The tuples of `genes`, from this thread's cache of the last few
    /// genomes read (a genome plays many moves in a row, and reading its
    /// tuples costs more than a move), keyed by the cell bytes themselves.
    fn cached<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Arc<Tuples> {
        thread_local! {
            static CACHE: RefCell<Vec<(Vec<u8>, Arc<Tuples>)>> = const { RefCell::new(Vec::new()) };
        }
        let mut key = Vec::with_capacity(3 + shape.tuples as usize * SHAPE_BYTES);
        key.extend([G::WIDTH as u8, G::HEIGHT as u8, G::STATES as u8]);
        let block = shape.block_in(G::STATES);
        for t in 0..shape.tuples as usize {
            key.extend_from_slice(&genes[t * block..t * block + SHAPE_BYTES]);
        }
        CACHE.with_borrow_mut(|cache| {
            if let Some(i) = cache.iter().position(|(k, _)| *k == key) {
                let entry = cache.remove(i);
                let tuples = entry.1.clone();
                cache.push(entry);
                return tuples;
            }
            let tuples = Arc::new(Tuples::read::<G>(shape, genes));
            if cache.len() == 8 {
                cache.remove(0);
            }
            cache.push((key, tuples.clone()));
            tuples
        })
    }

    /// The state index each slot reads in a position.
    fn indices(&self, states: &[u8], out: &mut Vec<u32>) {
        out.clear();
        let len = self.shape.length as usize;
        for (cells, mirrored) in self.cells.iter().zip(&self.mirrored) {
            let (mut a, mut b) = (0u32, 0u32);
            for i in (0..len).rev() {
                a = a * self.base + states[cells[i] as usize] as u32;
                b = b * self.base + states[mirrored[i] as usize] as u32;
            }
            out.extend([a, b]);
        }
    }

    /// The byte offset where the tables of `mover` (the side that left the
    /// position) start, past a tuple's first table.
    fn side(&self, mover: Side) -> u32 {
        match mover {
            Side::First => 0,
            Side::Second => 2 * self.shape.states_in(self.base) as u32,
        }
    }

    /// The byte offsets of the weights the indices read.
    fn offsets(&self, indices: &[u32], mover: Side, out: &mut Vec<u32>) {
        let side = self.side(mover);
        out.clear();
        out.extend(
            indices
                .iter()
                .zip(&self.tables)
                .map(|(&i, &table)| table + side + 2 * i),
        );
    }
}

#[inline]
fn weight(genes: &[u8], offset: u32) -> i32 {
    let o = offset as usize;
    i16::from_le_bytes([genes[o], genes[o + 1]]) as i32
}

/// The value genome's view of one position and the positions its moves
/// lead to. A move changes a cell or two, so most tuples read the same
/// weight in every afterstate: the position's weights are read once
/// (`base_weights`), and each afterstate reads again only the slots whose
/// cells it changed.
pub struct Evaluator<G: CellBoard> {
    tuples: Arc<Tuples>,
    /// The loaded position: cell states, slot indices, and the weights
    /// those indices read in the tables of the side its moves are valued for.
    states: Vec<u8>,
    base: Vec<u32>,
    base_weights: Vec<i32>,
    base_sum: i32,
    side: Side,
    /// The afterstate being valued: its cell states and the slots it
    /// changed, with their new indices.
    next_states: Vec<u8>,
    changes: Vec<(u16, u32)>,
    /// Per slot: 1 + its place in `changes`, or 0.
    marks: Vec<u16>,
    /// The changes of the best afterstate so far.
    kept: Vec<(u16, u32)>,
    moves: Vec<G::Move>,
    _game: std::marker::PhantomData<G>,
}

/// What one afterstate is worth.
struct Afterstate<P> {
    pos: P,
    /// From the first player's side, in −1..1; exact for a finished game.
    value: f32,
    finished: bool,
}

impl<G: CellBoard> Evaluator<G> {
    pub fn new(shape: NTuple, genes: &[u8]) -> Self {
        let cells = G::WIDTH * G::HEIGHT;
        let slots = 2 * shape.tuples as usize;
        Evaluator {
            tuples: Tuples::cached::<G>(shape, genes),
            states: vec![0; cells],
            base: Vec::with_capacity(slots),
            base_weights: Vec::with_capacity(slots),
            base_sum: 0,
            side: Side::First,
            next_states: vec![0; cells],
            changes: Vec::with_capacity(slots),
            marks: vec![0; slots],
            kept: Vec::with_capacity(slots),
            moves: Vec::with_capacity(cells),
            _game: std::marker::PhantomData,
        }
    }

    /// Reads `pos` and the weights it reads in the tables of `side`.
    fn load(&mut self, game: &G, genes: &[u8], pos: &G::Position, side: Side) {
        game.cell_states(pos, &mut self.states);
        self.tuples.indices(&self.states, &mut self.base);
        self.side = side;
        let offset = self.tuples.side(side);
        self.base_weights.clear();
        self.base_weights.extend(
            self.base
                .iter()
                .zip(&self.tuples.tables)
                .map(|(&i, &table)| weight(genes, table + offset + 2 * i)),
        );
        self.base_sum = self.base_weights.iter().sum();
    }

    /// The value of `pos`, left by `mover`, from the first player's side:
    /// exact when the game is over, else tanh of the weights' sum.
    pub fn value(&mut self, game: &G, genes: &[u8], pos: &G::Position, mover: Side) -> f32 {
        match game.outcome(pos) {
            Some(outcome) => exact(outcome),
            None => {
                self.load(game, genes, pos, mover);
                (self.base_sum as f32 / SCALE).tanh()
            }
        }
    }

    /// The position `mv` leads to from the loaded position `pos` (loaded
    /// for the side to move there), valued; the slots it changed left in
    /// `changes`.
    fn afterstate(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        mv: G::Move,
    ) -> Afterstate<G::Position> {
        let next = game.play(pos, mv);
        self.changes.clear();
        if let Some(outcome) = game.outcome(&next) {
            return Afterstate {
                pos: next,
                value: exact(outcome),
                finished: true,
            };
        }
        game.cell_states(&next, &mut self.next_states);
        for (cell, (&new, &old)) in self.next_states.iter().zip(&self.states).enumerate() {
            if new == old {
                continue;
            }
            let change = new as i32 - old as i32;
            for &(slot, place) in &self.tuples.readers[cell] {
                let step = (change * place as i32) as u32;
                match self.marks[slot as usize] {
                    0 => {
                        let index = self.base[slot as usize].wrapping_add(step);
                        self.changes.push((slot, index));
                        self.marks[slot as usize] = self.changes.len() as u16;
                    }
                    at => {
                        let entry = &mut self.changes[at as usize - 1].1;
                        *entry = entry.wrapping_add(step);
                    }
                }
            }
        }
        let offset = self.tuples.side(self.side);
        let mut sum = self.base_sum;
        for &(slot, index) in &self.changes {
            self.marks[slot as usize] = 0;
            let table = self.tuples.tables[slot as usize];
            sum += weight(genes, table + offset + 2 * index) - self.base_weights[slot as usize];
        }
        Afterstate {
            pos: next,
            value: (sum as f32 / SCALE).tanh(),
            finished: false,
        }
    }

    /// The byte offsets of the weights the kept afterstate reads.
    fn kept_offsets(&self, out: &mut Vec<u32>) {
        let mut indices = self.base.clone();
        for &(slot, index) in &self.kept {
            indices[slot as usize] = index;
        }
        self.tuples.offsets(&indices, self.side, out);
    }

    /// Every legal move with the value of the position it leads to, from
    /// the side to move's view (higher is better for it), in move order.
    pub fn move_values(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
    ) -> Vec<(G::Move, f32)> {
        let sign = sign(game.turn(pos));
        self.load(game, genes, pos, game.turn(pos));
        let mut moves = std::mem::take(&mut self.moves);
        game.legal_moves(pos, &mut moves);
        let values = moves
            .iter()
            .map(|&mv| (mv, sign * self.afterstate(game, genes, pos, mv).value))
            .collect();
        self.moves = moves;
        values
    }

    /// The move whose afterstate the genome values most (the first of
    /// equals); a winning move is always taken. `None` when the game is over.
    pub fn best(&mut self, game: &G, genes: &[u8], pos: &G::Position) -> Option<G::Move> {
        self.best_afterstate(game, genes, pos).map(|(mv, _)| mv)
    }

    /// [`Evaluator::best`] with its afterstate, whose changes are left in
    /// `kept`.
    fn best_afterstate(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
    ) -> Option<(G::Move, Afterstate<G::Position>)> {
        let sign = sign(game.turn(pos));
        self.load(game, genes, pos, game.turn(pos));
        let mut moves = std::mem::take(&mut self.moves);
        game.legal_moves(pos, &mut moves);
        let mut best: Option<(G::Move, Afterstate<G::Position>)> = None;
        for &mv in &moves {
            let after = self.afterstate(game, genes, pos, mv);
            let better = best
                .as_ref()
                .is_none_or(|(_, b)| sign * after.value > sign * b.value);
            let won = after.finished && sign * after.value > 0.5;
            if better {
                std::mem::swap(&mut self.kept, &mut self.changes);
                best = Some((mv, after));
            }
            if won {
                break;
            }
        }
        self.moves = moves;
        best
    }

    /// The tuples that weigh most in the position `pos` left by `mover`:
    /// (tuple, its weight plus its mirror's, in sum units), largest
    /// magnitude first, `count` of them.
    pub fn heaviest(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        mover: Side,
        count: usize,
    ) -> Vec<(usize, f32)> {
        self.load(game, genes, pos, mover);
        let mut parts: Vec<(usize, f32)> = self
            .base_weights
            .chunks(2)
            .enumerate()
            .map(|(t, pair)| (t, pair.iter().sum::<i32>() as f32 / SCALE))
            .collect();
        parts.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
        parts.truncate(count);
        parts
    }

    /// The cells of tuple `t`.
    pub fn cells(&self, t: usize) -> &[u8] {
        &self.tuples.cells[t][..self.tuples.shape.length as usize]
    }
}

/// The value genome's move in `pos` among the legal moves `allowed`
/// accepts (all of them when `None`): the highest afterstate value, the
/// first of equals; a winning move is always taken.
pub fn decide<G: CellBoard>(
    game: &G,
    shape: NTuple,
    genes: &[u8],
    pos: &G::Position,
    allowed: Option<&dyn Fn(G::Move) -> bool>,
) -> Option<G::Move> {
    let mut eval = Evaluator::<G>::new(shape, genes);
    match allowed {
        None => eval.best(game, genes, pos),
        Some(allowed) => eval
            .move_values(game, genes, pos)
            .into_iter()
            .filter(|&(m, _)| allowed(m))
            .fold(None, |best: Option<(G::Move, f32)>, (m, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((m, v)),
            })
            .map(|(m, _)| m),
    }
}

/// +1 for the first player, −1 for the second: values are from the first
/// player's side.
fn sign(side: Side) -> f32 {
    match side {
        Side::First => 1.0,
        Side::Second => -1.0,
    }
}

/// A finished game's value from the first player's side.
fn exact(outcome: Outcome) -> f32 {
    match outcome {
        Outcome::Win(side) => sign(side),
        Outcome::Draw => 0.0,
    }
}

/// A fresh genome: random-walk tuples, all distinct as cell sets, zero
/// weights, the default learning settings.
pub fn fill_random<G: CellBoard, R: Rng + ?Sized>(shape: NTuple, genes: &mut [u8], rng: &mut R) {
    genes.fill(0);
    let mut seen: Vec<u64> = Vec::new();
    for t in 0..shape.tuples as usize {
        // Distinct when the board allows it (a few hundred draws at most).
        let mut cells = random_walk::<G, R>(shape.length, rng);
        for _ in 0..200 {
            if !seen.contains(&cell_set(&cells)) {
                break;
            }
            cells = random_walk::<G, R>(shape.length, rng);
        }
        seen.push(cell_set(&cells));
        write_shape::<G>(shape, genes, t, &cells);
    }
    let p = genes.len() - PARAM_BYTES;
    genes[p..p + 3].copy_from_slice(&DEFAULT_CODES);
}

fn cell_set(cells: &[u8]) -> u64 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

fn write_shape<G: CellBoard>(shape: NTuple, genes: &mut [u8], t: usize, cells: &[u8]) {
    let block = shape.block_in(G::STATES);
    let head = &mut genes[t * block..t * block + SHAPE_BYTES];
    head.fill(NO_CELL);
    head[..cells.len()].copy_from_slice(cells);
}

/// `length` distinct cells, each a neighbour (8 directions) of the one
/// before; a walk that gets stuck starts again.
fn random_walk<G: CellBoard, R: Rng + ?Sized>(length: u8, rng: &mut R) -> Vec<u8> {
    let (w, h) = (G::WIDTH as i32, G::HEIGHT as i32);
    'walk: loop {
        let mut cells = vec![rng.random_range(0..w * h) as u8];
        while cells.len() < length as usize {
            let last = *cells.last().expect("one cell") as i32;
            let (r, c) = (last / w, last % w);
            let next: Vec<u8> = (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |dc| (r + dr, c + dc)))
                .filter(|&(nr, nc)| (0..h).contains(&nr) && (0..w).contains(&nc))
                .map(|(nr, nc)| (nr * w + nc) as u8)
                .filter(|n| !cells.contains(n))
                .collect();
            if next.is_empty() {
                continue 'walk;
            }
            cells.push(next[rng.random_range(0..next.len())]);
        }
        return cells;
    }
}

/// What is wrong with a stored value genome, if anything: every tuple's
/// cells on the board, distinct, and unused bytes empty.
pub fn problem<G: CellBoard>(shape: NTuple, genes: &[u8]) -> Option<String> {
    if genes.len() != shape.gene_count_in(G::STATES) {
        return Some(format!(
            "{} bytes, but a {shape} value genome has {}",
            genes.len(),
            shape.gene_count_in(G::STATES)
        ));
    }
    let block = shape.block_in(G::STATES);
    let board = G::WIDTH * G::HEIGHT;
    let len = shape.length as usize;
    for t in 0..shape.tuples as usize {
        let head = &genes[t * block..t * block + SHAPE_BYTES];
        let (cells, rest) = head.split_at(len);
        if let Some(&c) = cells.iter().find(|&&c| c as usize >= board) {
            return Some(format!(
                "tuple {t} names cell {c}, off the {board}-cell board"
            ));
        }
        if cell_set(cells).count_ones() as usize != len {
            return Some(format!("tuple {t} names a cell twice"));
        }
        if rest.iter().any(|&b| b != NO_CELL) {
            return Some(format!("tuple {t} has stray bytes after its cells"));
        }
    }
    None
}

/// The value genome's mutation: each tuple with probability `rate` gets a
/// new random-walk shape and empty tables; the learning settings drift
/// (each code by −8..=8 with probability 1/2). Returns the tuples redrawn.
pub fn mutate<G: CellBoard, R: Rng + ?Sized>(
    shape: NTuple,
    genes: &mut [u8],
    rate: f64,
    rng: &mut R,
) -> usize {
    let mut redrawn = 0;
    for t in 0..shape.tuples as usize {
        if rng.random::<f64>() < rate {
            let cells = random_walk::<G, R>(shape.length, rng);
            write_shape::<G>(shape, genes, t, &cells);
            let block = shape.block_in(G::STATES);
            let start = t * block + SHAPE_BYTES;
            genes[start..(t + 1) * block].fill(0);
            redrawn += 1;
        }
    }
    let p = genes.len() - PARAM_BYTES;
    for code in &mut genes[p..p + 3] {
        if rng.random::<bool>() {
            *code = (*code as i32 + rng.random_range(-8..=8)).clamp(0, 255) as u8;
        }
    }
    redrawn
}

/// Cell states from two stone masks and the playable cells, for boards
/// numbered as [`CellBoard`] numbers them.
pub fn states_from(first: u64, second: u64, playable: u64, states: &mut [u8]) {
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
mod tests {
    use super::*;
    use crate::encoding::{IllegalPolicy, TableGame};
    use crate::games::{Connect4, Connect4Encoder, TicTacToe, TicTacToeEncoder};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    const SMALL: NTuple = NTuple {
        tuples: 12,
        length: 6,
    };

    fn c4(shape: NTuple) -> Connect4 {
        Connect4 {
            encoder: Connect4Encoder::NTuple(shape),
        }
    }

    fn c4_position(moves: &str) -> <Connect4 as Game>::Position {
        let game = c4(SMALL);
        moves
            .bytes()
            .fold(game.start(), |pos, c| game.play(&pos, c - b'1'))
    }

    fn fresh<G: CellBoard + TableGame>(game: &G, seed: u64) -> Vec<u8> {
        let mut genes = vec![0; game.gene_count()];
        game.fill_random(&mut genes, &mut Pcg64Mcg::seed_from_u64(seed));
        genes
    }

    #[test]
    fn the_layout_is_tuples_then_settings() {
        let shape = Connect4Encoder::NTUPLE;
        assert_eq!(shape.states(), 65_536);
        assert_eq!(shape.block(), 8 + 4 * 65_536);
        assert_eq!(shape.gene_count(), 70 * 262_152 + 8);
        let genes = fresh(&c4(SMALL), 1);
        let p = Params::read(&genes);
        assert!((p.alpha - 0.004).abs() < 0.0002, "{p:?}");
        assert!((p.lambda - 0.5).abs() < 0.01 && (p.epsilon - 0.1).abs() < 1e-6);
        assert_eq!(p.games, 0);
        assert_eq!(problem::<Connect4>(SMALL, &genes), None);
    }

    /// The worked example: after 4 4 3 (columns, 1-based) X holds the bottom
    /// of columns 4 and 3, O the cell above X's first stone.
    #[test]
    fn connect4_cells_read_stones_and_playable_cells() {
        let mut states = vec![9; 42];
        c4(SMALL).cell_states(&c4_position(""), &mut states);
        assert_eq!(&states[..7], &[EMPTY_NOW; 7]);
        assert!(states[7..].iter().all(|&s| s == EMPTY_LATER));
        c4(SMALL).cell_states(&c4_position("443"), &mut states);
        assert_eq!(states[3], FIRST);
        assert_eq!(states[2], FIRST);
        assert_eq!(states[7 + 3], SECOND);
        assert_eq!(states[14 + 3], EMPTY_NOW);
        assert_eq!(states[7 + 2], EMPTY_NOW);
        assert_eq!(states[14 + 2], EMPTY_LATER);
        assert_eq!(states[0], EMPTY_NOW);
    }

    #[test]
    fn tuples_are_walks_of_distinct_neighbouring_cells() {
        let genes = fresh(&c4(Connect4Encoder::NTUPLE), 7);
        let shape = Connect4Encoder::NTUPLE;
        let mut sets = Vec::new();
        for t in 0..shape.tuples as usize {
            let cells = &genes[t * shape.block()..t * shape.block() + 8];
            for pair in cells.windows(2) {
                let (a, b) = (pair[0] as i32, pair[1] as i32);
                assert!((a / 7 - b / 7).abs() <= 1 && (a % 7 - b % 7).abs() <= 1);
            }
            sets.push(cell_set(cells));
        }
        sets.sort();
        sets.dedup();
        assert_eq!(sets.len(), 70, "the tuples are distinct cell sets");
    }

    #[test]
    fn a_damaged_genome_is_named_as_such() {
        let mut genes = fresh(&c4(SMALL), 2);
        genes[3] = 42;
        assert_eq!(
            problem::<Connect4>(SMALL, &genes).as_deref(),
            Some("tuple 0 names cell 42, off the 42-cell board")
        );
        genes[3] = genes[2];
        assert_eq!(
            problem::<Connect4>(SMALL, &genes).as_deref(),
            Some("tuple 0 names a cell twice")
        );
        assert!(problem::<Connect4>(SMALL, &genes[1..]).is_some());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The afterstate values read incrementally (only the slots a move
        /// changes) equal the values read from scratch, after learning has
        /// made the weights differ.
        #[test]
        fn incremental_values_equal_values_from_scratch(
            seed in any::<u64>(),
            moves in proptest::collection::vec(0u8..7, 0..20),
        ) {
            let game = c4(SMALL);
            let mut genes = fresh(&game, seed);
            game.learn(&mut genes, 30, Pcg64Mcg::seed_from_u64(seed));
            let mut pos = game.start();
            for m in moves {
                if game.is_legal(&pos, m) {
                    pos = game.play(&pos, m);
                }
            }
            prop_assume!(game.outcome(&pos).is_none());
            let mut eval = Evaluator::<Connect4>::new(SMALL, &genes);
            let mover = game.turn(&pos);
            let sign = sign(mover);
            for (mv, value) in eval.move_values(&game, &genes, &pos) {
                let next = game.play(&pos, mv);
                let mut scratch = Evaluator::<Connect4>::new(SMALL, &genes);
                let fresh = sign * scratch.value(&game, &genes, &next, mover);
                prop_assert!((value - fresh).abs() < 1e-6, "move {}: {} vs {}", mv, value, fresh);
            }
        }
    }

    #[test]
    fn learning_is_reproducible_and_changes_the_weights() {
        let game = c4(SMALL);
        let start = fresh(&game, 3);
        let learnt = |seed| {
            let mut genes = start.clone();
            game.learn(&mut genes, 50, Pcg64Mcg::seed_from_u64(seed));
            genes
        };
        let (a, b, c) = (learnt(1), learnt(1), learnt(2));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, start);
        assert_eq!(Params::read(&a).games, 50);
        assert_eq!(problem::<Connect4>(SMALL, &a), None, "shapes untouched");
    }

    #[test]
    fn a_winning_move_is_always_taken() {
        let game = c4(SMALL);
        let genes = fresh(&game, 4);
        // X has three in column 1 and is to move.
        let pos = c4_position("121212");
        assert_eq!(game.decide(&genes, &pos, IllegalPolicy::Repair), Some(0));
    }

    #[test]
    fn mutation_redraws_whole_tuples_and_keeps_the_genome_sound() {
        let game = c4(SMALL);
        let mut genes = fresh(&game, 5);
        game.learn(&mut genes, 20, Pcg64Mcg::seed_from_u64(5));
        let before = genes.clone();
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let redrawn = game
            .mutate_own(&mut genes, 0.5, &mut rng)
            .expect("its own mutation");
        assert!(redrawn > 0);
        assert_eq!(problem::<Connect4>(SMALL, &genes), None);
        let block = SMALL.block();
        for t in 0..SMALL.tuples as usize {
            let (old, new) = (
                &before[t * block..(t + 1) * block],
                &genes[t * block..(t + 1) * block],
            );
            if old[..8] != new[..8] {
                assert!(
                    new[8..].iter().all(|&w| w == 0),
                    "tuple {t}: a new shape starts empty"
                );
            }
        }
    }

    /// Plain TD (no evolution) on tic-tac-toe: the exact audit follows it.
    #[test]
    fn tictactoe_self_play_learns_most_positions() {
        let game = TicTacToe {
            encoder: TicTacToeEncoder::NTuple(TicTacToeEncoder::NTUPLE),
        };
        let mut genes = fresh(&game, 1);
        let before = crate::audit::audit(&game, &genes, IllegalPolicy::Repair).optimal_rate();
        game.learn(&mut genes, 5_000, Pcg64Mcg::seed_from_u64(1));
        let after = crate::audit::audit(&game, &genes, IllegalPolicy::Repair).optimal_rate();
        assert!(after > 0.95 && after > before, "{before} -> {after}");
    }
}
