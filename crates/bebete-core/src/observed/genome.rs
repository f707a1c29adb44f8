//! The value genome of an observed game: tuples of cells, tables of
//! weights, the moves it chooses, how it learns, and its file.

use super::{After, Layout, LayoutV1, Observed, Unfit};
use crate::store::{FileError, Framed, decode_framed_versions, write_framed};
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The champion file of an observed game: its layout and genome.
pub const OBSERVED_GENOME_FORMAT: Framed = Framed {
    magic: *b"BBTOBSG\0",
    version: 3,
    file: "observed-game genome",
};

/// Self-play games over which the learning rate falls to √½ of its start
/// ([`TensorGenome::learning_rate`]).
const RATE_GAMES: f64 = 20_000.0;
/// The least the learning rate falls to, a share of its start.
const RATE_FLOOR: f64 = 0.25;

/// What a fresh genome of a one-player game values every position: nearly
/// the best end, so that its learner tries what it has not seen before it
/// settles for an end it has (optimistic initial values). A two-player
/// game's fresh values are a draw.
pub(crate) const HOPE: f32 = 0.9;

/// The most cells in a tuple.
pub(crate) const MAX_TUPLE_CELLS: u8 = 12;

/// The most weights a table of the whole board may have for the default
/// shape to be that one table.
pub(crate) const WHOLE_BOARD: u64 = 1 << 18;
/// The most weights in one tuple's table (per side): 2^22.
pub(crate) const MAX_TABLE: u64 = 1 << 22;

/// Tuples and cells per tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    /// Tuples.
    pub tuples: u16,
    /// Cells per tuple.
    pub length: u8,
}

impl Shape {
    /// The default for a layout. A board small enough to be one table of
    /// at most 2^18 weights (262,144) is one tuple of every cell: the
    /// genome is then the lookup table of the game's positions. Any other:
    /// as many tuples as cells (16 to 48), each as long as a table of at
    /// most 4,096 weights allows (2 to 6 cells, and at most half the
    /// board's). Measured on tic-tac-toe and Connect-Four (docs/python.md):
    /// the whole board beat 16 tuples of 4 cells on the small board, 42 of
    /// 6 beat 32 or 64 of 4 on the larger one.
    pub fn default_for(layout: &Layout) -> Shape {
        let states = layout.states() as u64;
        let cells = layout.cells();
        if cells <= MAX_TUPLE_CELLS as usize
            && states
                .checked_pow(cells as u32)
                .is_some_and(|t| t <= WHOLE_BOARD)
        {
            return Shape {
                tuples: 1,
                length: cells as u8,
            };
        }
        Shape::many(layout)
    }

    /// Many short tuples: as many as cells (16 to 48), each as long as a
    /// table of 4,096 weights allows (2 to 6 cells, at most half the
    /// board's).
    fn many(layout: &Layout) -> Shape {
        let (states, cells) = (layout.states() as u64, layout.cells());
        let most = (cells / 2).clamp(1, 6) as u8;
        let length = (2..=6u8)
            .rev()
            .find(|&l| states.pow(l as u32) <= 4096)
            .unwrap_or(2)
            .min(most);
        Shape {
            tuples: cells.clamp(16, 48) as u16,
            length,
        }
    }

    /// The shape of `tuples` and `length` where given, the default's
    /// where not; tuples asked for without a length are each as long as
    /// the default for many tuples (the whole board is one tuple's).
    pub(crate) fn chosen(layout: &Layout, tuples: Option<u16>, length: Option<u8>) -> Shape {
        let default = Shape::default_for(layout);
        let many = Shape::many(layout);
        let tuples = tuples.unwrap_or(default.tuples);
        Shape {
            tuples,
            length: length.unwrap_or(if tuples == default.tuples {
                default.length
            } else {
                many.length
            }),
        }
    }

    /// Checks the shape against a layout; `game` names it in the refusal.
    pub fn check(self, game: &str, layout: &Layout) -> Result<(), Unfit> {
        let unfit = |reason: String| {
            Err(Unfit {
                game: game.to_string(),
                reason,
            })
        };
        if !(1..=1024).contains(&self.tuples) {
            return unfit(format!("tuples={}: must be 1-1024", self.tuples));
        }
        let most = (MAX_TUPLE_CELLS as usize).min(layout.cells());
        if !(1..=most).contains(&(self.length as usize)) {
            return unfit(format!(
                "tuple_length={}: must be 1-{most} (its board has {} cells)",
                self.length,
                layout.cells()
            ));
        }
        let table = (layout.states() as u64).saturating_pow(self.length as u32);
        if table > MAX_TABLE {
            return unfit(format!(
                "tuple_length={}: a tuple of {} cells of {} states has {table} weights, more than {MAX_TABLE}; ask for shorter tuples",
                self.length,
                self.length,
                layout.states()
            ));
        }
        Ok(())
    }
}

/// A value genome over cells: `tuples` (each a list of cells), and for
/// each a table of weights per side, one per tuple state.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorGenome {
    pub(crate) head: Head,
    /// Tuple-major, then side, then state.
    pub(crate) weights: Vec<f32>,
}

/// A genome's tuples and learning parameters: what its file and a
/// checkpoint store beside the weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Head {
    pub(crate) states: u32,
    pub(crate) tuples: Vec<Vec<u16>>,
    /// Learning rate.
    pub(crate) alpha: f32,
    /// Exploration.
    pub(crate) epsilon: f32,
    /// Self-play games learned from.
    pub(crate) games: u64,
    /// Where the rules are the same in the board's mirror image (its
    /// columns reversed): the cell each cell's image is, and every tuple
    /// also reads the image with the same weights. Empty when not.
    pub(crate) mirror: Vec<u16>,
}

/// A head of format 1, before the mirror (tests write one).
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
pub(crate) struct HeadV1 {
    pub(crate) states: u32,
    pub(crate) tuples: Vec<Vec<u16>>,
    pub(crate) alpha: f32,
    pub(crate) epsilon: f32,
    pub(crate) games: u64,
}

/// A file's header of format 1 (`H` = [`HeadV1`]) or 2 (`H` = [`Head`]):
/// format 3's before a layout had groups.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
pub(crate) struct OldFileHead<H> {
    pub(crate) game: String,
    pub(crate) layout: LayoutV1,
    pub(crate) history: String,
    pub(crate) head: H,
}

/// A child of a position as a genome sees it: its value for the first
/// player (exact when the child is over) and the genome's own reading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChildValue {
    /// The value, −1..=1, from the first player's side.
    pub(crate) value: f32,
    /// Whether the child ends the game (the value is its result).
    pub(crate) over: bool,
    /// The player to move in the child (its mover's, once it is over).
    pub(crate) next: u8,
    /// The side whose tables valued it: the player not to move there.
    pub(crate) waiting: u8,
}

/// The file of an observed game's genome: its game, layout and genome.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedGenomeFile {
    /// The game's name (`openspiel:connect_four`).
    pub game: String,
    /// How its tensor is read.
    pub layout: Layout,
    /// How it learned, in words (the run, its generation).
    pub history: String,
    /// The genome.
    pub genome: TensorGenome,
}

#[derive(Serialize, Deserialize)]
struct FileHead {
    game: String,
    layout: Layout,
    history: String,
    head: Head,
}

impl TensorGenome {
    /// A fresh genome for a game of `players`: `shape.tuples` random
    /// walks of `shape.length` adjacent cells, α 0.01 and ε 0.1; with
    /// `mirror`, each tuple reads the board and its mirror image (columns
    /// reversed) with the same weights. Its weights are zero, so a fresh
    /// table values every position a draw; a one-player game's start
    /// hopeful instead (0.9, nearly its best end), or its learner would
    /// prefer any end it has seen to the positions it has not.
    pub fn random<R: Rng + ?Sized>(
        layout: &Layout,
        shape: Shape,
        mirror: bool,
        players: u8,
        rng: &mut R,
    ) -> TensorGenome {
        let tuples = (0..shape.tuples)
            .map(|_| walk(layout, shape.length, rng))
            .collect();
        let head = Head {
            states: layout.states(),
            tuples,
            alpha: 0.01,
            epsilon: 0.1,
            games: 0,
            mirror: if mirror { layout.mirror() } else { Vec::new() },
        };
        let weights = vec![head.fresh_weight(players); head.tuples.len() * 2 * head.table()];
        TensorGenome { head, weights }
    }

    /// Tuples.
    pub fn tuples(&self) -> usize {
        self.head.tuples.len()
    }

    /// Cells per tuple.
    pub fn length(&self) -> usize {
        self.head.tuples.first().map_or(0, Vec::len)
    }

    /// Self-play games learned from.
    pub fn games(&self) -> u64 {
        self.head.games
    }

    /// Whether each tuple also reads the board's mirror image.
    pub fn mirrored(&self) -> bool {
        !self.head.mirror.is_empty()
    }

    /// Its learning rate and exploration, as it started learning.
    pub fn rates(&self) -> (f32, f32) {
        (self.head.alpha, self.head.epsilon)
    }

    /// The learning rate it learns at now: its α, falling with the
    /// self-play games it has learned from as √(20,000 / (20,000 +
    /// games)), to a quarter at the least (after 300,000 games). With α
    /// held, learning swung on the games that play fast: checkers'
    /// champion scored 0.98 against random moves after 80,000 games and
    /// 0.805 after 334,400 (docs/python.md).
    pub fn learning_rate(&self) -> f32 {
        let games = self.head.games as f64;
        let fall = (RATE_GAMES / (RATE_GAMES + games)).sqrt().max(RATE_FLOOR);
        self.head.alpha * fall as f32
    }

    /// Its rates in words, as `describe()` and `genome info` say them:
    /// `α 0.0100 falling to 0.0091, ε 0.100`.
    pub fn rates_in_words(&self) -> String {
        let (alpha, epsilon) = self.rates();
        format!(
            "α {alpha:.4} falling to {:.4}, ε {epsilon:.3}",
            self.learning_rate()
        )
    }

    /// The value, for the first player (−1..1), of cell `states` with
    /// `waiting` (0 or 1) the player not to move: in a game of turns the
    /// one who just moved; where a move earns a second one, the mover's
    /// opponent (a side's table knows who moves next only this way, the
    /// tensor seldom says). A one-player game reads side 0.
    pub fn value(&self, states: &[u8], waiting: u8) -> f32 {
        let table = self.head.table();
        let mut sum = 0.0;
        let mirror = &self.head.mirror;
        for (t, cells) in self.head.tuples.iter().enumerate() {
            let base = (2 * t + waiting as usize) * table;
            let w = self.weights[base + self.head.index(cells, states)];
            sum += if mirror.is_empty() {
                w
            } else {
                // One sum a tuple: a board and its image add the same two
                // weights, so they are valued alike to the last bit.
                w + self.weights[base + self.head.index_mirrored(cells, states)]
            };
        }
        sum.tanh()
    }

    /// Adds `step` to every weight `states` (with `waiting` not to move)
    /// reads.
    pub(crate) fn nudge(&mut self, states: &[u8], waiting: u8, step: f32) {
        let table = self.head.table();
        let mirrored = !self.head.mirror.is_empty();
        for (t, cells) in self.head.tuples.iter().enumerate() {
            let base = (2 * t + waiting as usize) * table;
            self.weights[base + self.head.index(cells, states)] += step;
            if mirrored {
                self.weights[base + self.head.index_mirrored(cells, states)] += step;
            }
        }
    }

    /// The genome's bytes in a checkpoint: its head, then its weights.
    pub(crate) fn to_bytes(&self, out: &mut Vec<u8>) {
        let head = postcard::to_allocvec(&self.head).expect("a head serialises");
        out.extend_from_slice(&(head.len() as u32).to_le_bytes());
        out.extend_from_slice(&head);
        out.extend_from_slice(&(self.weights.len() as u64).to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }

    /// A genome read back from `bytes` at `at` (advanced past it).
    pub(crate) fn from_bytes(bytes: &[u8], at: &mut usize, layout: &Layout) -> Option<Self> {
        let take = |at: &mut usize, n: usize| -> Option<&[u8]> {
            let slice = bytes.get(*at..at.checked_add(n)?)?;
            *at += n;
            Some(slice)
        };
        let len = u32::from_le_bytes(take(at, 4)?.try_into().ok()?) as usize;
        let head: Head = postcard::from_bytes(take(at, len)?).ok()?;
        let count = u64::from_le_bytes(take(at, 8)?.try_into().ok()?);
        let count = usize::try_from(count).ok()?;
        let raw = take(at, count.checked_mul(4)?)?;
        let weights: Vec<f32> = raw
            .chunks_exact(4)
            .map(|w| f32::from_le_bytes(w.try_into().expect("4 bytes")))
            .collect();
        let genome = TensorGenome { head, weights };
        genome.fits(layout).then_some(genome)
    }

    /// Whether the genome reads `layout`'s cells, its tables whole.
    fn fits(&self, layout: &Layout) -> bool {
        let head = &self.head;
        let length = self.length();
        head.states == layout.states()
            && (1..=MAX_TUPLE_CELLS as usize).contains(&length)
            && (head.states as u64)
                .checked_pow(length as u32)
                .unwrap_or(u64::MAX)
                <= MAX_TABLE
            && head
                .tuples
                .iter()
                .all(|t| t.len() == length && t.iter().all(|&c| (c as usize) < layout.cells()))
            && (head.mirror.is_empty()
                || (head.mirror.len() == layout.cells()
                    && head.mirror.iter().all(|&c| (c as usize) < layout.cells())))
            && self.weights.len() == head.tuples.len() * 2 * head.table()
            && self.weights.iter().all(|w| w.is_finite())
    }

    /// Writes the genome, with its game, layout and `history`, to `path`.
    pub fn write(
        &self,
        path: &Path,
        game: &str,
        layout: &Layout,
        history: &str,
    ) -> Result<(), FileError> {
        let head = FileHead {
            game: game.to_string(),
            layout: layout.clone(),
            history: history.to_string(),
            head: self.head.clone(),
        };
        let mut payload = Vec::with_capacity(self.weights.len() * 4);
        for w in &self.weights {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        write_framed(path, OBSERVED_GENOME_FORMAT, &head, &payload)
    }

    /// Reads a genome file written by [`TensorGenome::write`].
    pub fn read(path: &Path) -> Result<ObservedGenomeFile, FileError> {
        let bytes = crate::store::read_regular(path)?;
        let (head, payload): (FileHead, Vec<u8>) =
            decode_framed_versions(bytes, OBSERVED_GENOME_FORMAT, |version, header| {
                if version >= 3 {
                    return postcard::from_bytes(header);
                }
                if version == 2 {
                    let old: OldFileHead<Head> = postcard::from_bytes(header)?;
                    return Ok(FileHead {
                        game: old.game,
                        layout: old.layout.into(),
                        history: old.history,
                        head: old.head,
                    });
                }
                let old: OldFileHead<HeadV1> = postcard::from_bytes(header)?;
                Ok(FileHead {
                    game: old.game,
                    layout: old.layout.into(),
                    history: old.history,
                    head: Head {
                        states: old.head.states,
                        tuples: old.head.tuples,
                        alpha: old.head.alpha,
                        epsilon: old.head.epsilon,
                        games: old.head.games,
                        mirror: Vec::new(),
                    },
                })
            })
            .map_err(|p| FileError::new(path, p))?;
        let damaged = || {
            FileError::new(
                path,
                crate::store::FileProblem::Malformed(
                    "its tuples, tables and layout do not agree".into(),
                ),
            )
        };
        if !payload.len().is_multiple_of(4) {
            return Err(damaged());
        }
        let genome = TensorGenome {
            head: head.head,
            weights: payload
                .chunks_exact(4)
                .map(|w| f32::from_le_bytes(w.try_into().expect("4 bytes")))
                .collect(),
        };
        if !genome.fits(&head.layout) {
            return Err(damaged());
        }
        Ok(ObservedGenomeFile {
            game: head.game,
            layout: head.layout,
            history: head.history,
            genome,
        })
    }

    /// A child of `a` and `b` (of one shape): each tuple, with its
    /// tables, from either, and the learning rates of one; then each
    /// tuple redrawn (fresh cells, fresh weights as [`TensorGenome::random`]
    /// draws them for a game of `players`) with probability `rate`, and the
    /// rates drifted.
    pub(crate) fn child<R: Rng + ?Sized>(
        a: &TensorGenome,
        b: &TensorGenome,
        layout: &Layout,
        players: u8,
        rate: f64,
        rng: &mut R,
    ) -> TensorGenome {
        let mut child = a.clone();
        let fresh = child.head.fresh_weight(players);
        let span = 2 * child.head.table();
        let length = child.length() as u8;
        for t in 0..child.tuples() {
            if rng.random::<bool>() {
                child.head.tuples[t].clone_from(&b.head.tuples[t]);
                child.weights[t * span..(t + 1) * span]
                    .copy_from_slice(&b.weights[t * span..(t + 1) * span]);
            }
            if rng.random::<f64>() < rate {
                child.head.tuples[t] = walk(layout, length, rng);
                child.weights[t * span..(t + 1) * span].fill(fresh);
            }
        }
        if rng.random::<bool>() {
            (child.head.alpha, child.head.epsilon) = (b.head.alpha, b.head.epsilon);
        }
        // Self-adapted rates: a log-normal drift, within bounds.
        let drift = |rng: &mut R| (0.2 * (rng.random::<f32>() - 0.5) * 2.0).exp();
        child.head.alpha = (child.head.alpha * drift(rng)).clamp(1e-4, 0.1);
        child.head.epsilon = (child.head.epsilon * drift(rng)).clamp(0.01, 0.3);
        child.head.games = a.head.games.max(b.head.games);
        child
    }

    /// The share of tuples (by place) whose cells differ between `self`
    /// and `other`.
    pub(crate) fn difference(&self, other: &TensorGenome) -> f64 {
        let n = self.tuples().min(other.tuples()).max(1);
        let differ = self
            .head
            .tuples
            .iter()
            .zip(&other.head.tuples)
            .filter(|(a, b)| a != b)
            .count();
        differ as f64 / n as f64
    }
}

impl Head {
    /// A fresh weight for a game of `players`: 0, or for one player the
    /// weight whose reads sum to [`HOPE`]'s value.
    fn fresh_weight(&self, players: u8) -> f32 {
        if players != 1 || self.tuples.is_empty() {
            return 0.0;
        }
        let reads = self.tuples.len() * if self.mirror.is_empty() { 1 } else { 2 };
        HOPE.atanh() / reads as f32
    }

    /// Weights in one table: states^length.
    fn table(&self) -> usize {
        let length = self.tuples.first().map_or(0, Vec::len);
        (self.states as usize).pow(length as u32)
    }

    /// The state of the tuple `cells` in `states`, as a table index.
    #[inline]
    fn index(&self, cells: &[u16], states: &[u8]) -> usize {
        cells.iter().rev().fold(0usize, |i, &c| {
            i * self.states as usize + states[c as usize] as usize
        })
    }

    /// The state of the tuple `cells` in the mirror image of `states`.
    #[inline]
    fn index_mirrored(&self, cells: &[u16], states: &[u8]) -> usize {
        cells.iter().rev().fold(0usize, |i, &c| {
            i * self.states as usize + states[self.mirror[c as usize] as usize] as usize
        })
    }
}

/// A tuple: a random walk of `length` distinct adjacent cells (started
/// again from a fresh cell when it runs into a corner).
fn walk<R: Rng + ?Sized>(layout: &Layout, length: u8, rng: &mut R) -> Vec<u16> {
    let mut around = Vec::with_capacity(8);
    loop {
        let mut tuple = vec![rng.random_range(0..layout.cells())];
        while tuple.len() < length as usize {
            let last = tuple[tuple.len() - 1];
            layout.neighbours(last, &mut around);
            around.retain(|c| !tuple.contains(c));
            if around.is_empty() {
                break;
            }
            tuple.push(around[rng.random_range(0..around.len())]);
        }
        if tuple.len() == length as usize {
            return tuple.into_iter().map(|c| c as u16).collect();
        }
    }
}

/// What one player of an observed game is: a genome, its reading of
/// cells, and buffers kept between decisions.
pub(crate) struct Chooser<G: Observed> {
    pub(crate) children: Vec<G::State>,
    pub(crate) afters: Vec<After>,
    pub(crate) tensors: Vec<f32>,
    /// Cell states of each child, `cells` apiece.
    pub(crate) states: Vec<u8>,
    pub(crate) values: Vec<ChildValue>,
    /// The afterstates a learner left in its game, for TD(λ).
    pub(crate) trace: Trace,
}

/// The last [`TRACE_DEPTH`] afterstates a learner left, newest last: the
/// cell states of each (`cells` apiece), the side waiting in it, and the
/// slope of its value (1 − v², the derivative of tanh).
#[derive(Default)]
pub(crate) struct Trace {
    states: Vec<u8>,
    waiting: Vec<u8>,
    slopes: Vec<f32>,
}

/// How many afterstates a TD error reaches back: λ^7 < 1/100.
const TRACE_DEPTH: usize = 7;

/// The TD(λ) decay: each afterstate further back takes half the step
/// (bebete's native Connect-Four genome learned at 0.51).
pub(crate) const LAMBDA: f32 = 0.5;

impl Trace {
    /// Forgets every afterstate, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.states.clear();
        self.waiting.clear();
        self.slopes.clear();
    }

    /// Adds the afterstate `states` (with `waiting` not to move and worth
    /// `value`), the oldest dropped past [`TRACE_DEPTH`].
    pub(crate) fn push(&mut self, states: &[u8], waiting: u8, value: f32) {
        if self.waiting.len() == TRACE_DEPTH {
            self.states.drain(..states.len());
            self.waiting.remove(0);
            self.slopes.remove(0);
        }
        self.states.extend_from_slice(states);
        self.waiting.push(waiting);
        self.slopes.push(1.0 - value * value);
    }

    /// Moves each afterstate's value by `alpha × error`, the newest by the
    /// whole, each one further back by [`LAMBDA`] times the one after it,
    /// each scaled by its slope.
    pub(crate) fn learn(&self, genome: &mut TensorGenome, alpha: f32, error: f32) {
        let cells = self.states.len() / self.waiting.len().max(1);
        let mut decay = 1.0;
        for k in (0..self.waiting.len()).rev() {
            let step = alpha * error * self.slopes[k] * decay;
            genome.nudge(
                &self.states[k * cells..(k + 1) * cells],
                self.waiting[k],
                step,
            );
            decay *= LAMBDA;
        }
    }
}

impl<G: Observed> Default for Chooser<G> {
    fn default() -> Self {
        Chooser {
            children: Vec::new(),
            afters: Vec::new(),
            tensors: Vec::new(),
            states: Vec::new(),
            values: Vec::new(),
            trace: Trace::default(),
        }
    }
}

impl<G: Observed> Chooser<G> {
    /// Lists the children of `state` and values each with `genome` for
    /// `mover`; false when it has none.
    pub(crate) fn value_children(
        &mut self,
        game: &mut G,
        layout: &Layout,
        genome: &TensorGenome,
        state: &G::State,
        mover: u8,
    ) -> Result<bool, G::Error> {
        self.children.clear();
        self.afters.clear();
        self.tensors.clear();
        game.children(
            state,
            &mut self.children,
            &mut self.afters,
            &mut self.tensors,
        )?;
        let (cells, len) = (layout.cells(), layout.tensor_len());
        let alone = game.players() == 1;
        self.states.resize(self.children.len() * cells, 0);
        self.values.clear();
        for (i, after) in self.afters.iter().enumerate() {
            let states = &mut self.states[i * cells..(i + 1) * cells];
            let value = match *after {
                After::Over(result) => ChildValue {
                    value: result.clamp(-1.0, 1.0),
                    over: true,
                    next: mover,
                    waiting: mover,
                },
                After::ToMove(next) => {
                    let tensor = self.tensors.get(i * len..(i + 1) * len);
                    layout.read(tensor.unwrap_or(&[]), states);
                    let waiting = if alone { 0 } else { 1 - next.min(1) };
                    ChildValue {
                        value: genome.value(states, waiting),
                        over: false,
                        next,
                        waiting,
                    }
                }
            };
            self.values.push(value);
        }
        Ok(!self.children.is_empty())
    }

    /// The best child for `mover` (the first player the highest value, the
    /// second the lowest; the first of equals).
    pub(crate) fn best(&self, mover: u8) -> usize {
        let sign = if mover == 0 { 1.0 } else { -1.0 };
        let mut best = 0;
        for (i, v) in self.values.iter().enumerate() {
            if sign * v.value > sign * self.values[best].value {
                best = i;
            }
        }
        best
    }

    /// [`Chooser::best`], equals drawn at random (a learner's fresh
    /// tables value every child alike: the first would always be played).
    pub(crate) fn best_drawn<R: Rng>(&self, mover: u8, rng: &mut R) -> usize {
        let top = self.values[self.best(mover)].value;
        let equal = self.values.iter().filter(|v| v.value == top).count();
        let k = rng.random_range(0..equal);
        (0..self.values.len())
            .filter(|&i| self.values[i].value == top)
            .nth(k)
            .unwrap_or(0)
    }
}
