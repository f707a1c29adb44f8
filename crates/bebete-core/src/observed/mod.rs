//! Games the engine was not compiled for, seen through their observation
//! tensor: OpenSpiel's games (and games written with OpenSpiel's Python
//! API), driven from the Python package.
//!
//! Such a game is an [`Observed`]: a start, whose turn it is, a result,
//! and every legal child of a state with the tensor a player observes
//! there. The tensor is read as cells on a grid ([`Layout`], found by
//! [`Layout::probe`] from positions of random games): a tensor of planes
//! (`[planes, rows, cols]`) gives each cell the first of its planes that
//! is set there (planes that are the same over the whole board in every
//! probed position, such as whose turn it is, are not read); a tensor of
//! values (one or two dimensions) gives each entry the level of its value,
//! or, where its entries are flags that come in groups with exactly one
//! set (a board's planes laid end to end, a heap's size as one flag of
//! eight), each group is a cell whose state is which of its flags is set.
//!
//! The genome is the value genome's method on those cells
//! ([`TensorGenome`]): tuples of adjacent cells drawn by random walks, a
//! weight per tuple state and per side, a position's value
//! `tanh(Σ weights)` from the first player's side, learned by TD self-play
//! between generations; [`ObservedRun`] evolves a population of them as
//! evolution does a built-in game's (a round-robin, the elite kept,
//! children bred by uniform crossover of whole tuples and mutation), with
//! the same settings ([`crate::evolve::EvolveConfig`]), `run.toml`,
//! `stats.csv`, checkpoints and exact resume, and a champion file of its
//! own ([`OBSERVED_GENOME_FORMAT`]).

mod genome;
mod run;

pub use genome::{OBSERVED_GENOME_FORMAT, ObservedGenomeFile, Shape, TensorGenome};
pub use run::{Failure, MAX_PLIES, ObservedRun, ObservedSettings, Planned, choose};

use serde::{Deserialize, Serialize};

/// A game seen through its observation tensor, as an outside program
/// (the Python package, over OpenSpiel) plays it. Every call may fail
/// with the outside program's own error, which the engine passes on.
pub trait Observed {
    /// A state of the game (an OpenSpiel state, for the Python package).
    type State;
    /// The outside program's error (a Python exception).
    type Error;
    /// The game's name, as files and `run.toml` write it
    /// (`openspiel:connect_four`).
    fn name(&self) -> String;
    /// Players: 2, or 1 for a puzzle.
    fn players(&self) -> u8;
    /// The shape of its observation tensor.
    fn tensor_shape(&self) -> Vec<usize>;
    /// The starting state.
    fn start(&mut self) -> Result<Self::State, Self::Error>;
    /// The player to move in `state` (0 or 1), `None` once it is over.
    fn to_move(&mut self, state: &Self::State) -> Result<Option<u8>, Self::Error>;
    /// Every legal child of `state`, in the order of the game's legal
    /// moves, into `children`; for each, in `afters`, what follows it
    /// (the game's result, or the player to move: the mover again, where
    /// the game gives a second move), and in `tensors` the first player's
    /// observation tensor of the child, appended whole (the tensor of a
    /// finished child may be left zero).
    fn children(
        &mut self,
        state: &Self::State,
        children: &mut Vec<Self::State>,
        afters: &mut Vec<After>,
        tensors: &mut Vec<f32>,
    ) -> Result<(), Self::Error>;
    /// The number of legal moves of `state`.
    fn moves(&mut self, state: &Self::State) -> Result<usize, Self::Error>;
    /// The child of `state` by its `k`-th legal move (as
    /// [`Observed::children`] orders them), its result for the first
    /// player when it is over, and, when it is not, its tensor into
    /// `tensor` (emptied first): one child
    /// where reading every child's tensor would be wasted (the layout's
    /// probe plays random games).
    fn child(
        &mut self,
        state: &Self::State,
        k: usize,
        tensor: &mut Vec<f32>,
    ) -> Result<(Self::State, Option<f32>), Self::Error>;
    /// Told after each self-play game of a generation: the games done
    /// and the games the generation plays. Nothing by default; a door
    /// shows progress through a long generation with it.
    fn played(&mut self, _done: u64, _planned: u64) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// What follows a move in an [`Observed`] game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum After {
    /// The game is over: its result for the first player, −1..=1.
    Over(f32),
    /// The game goes on with this player (0 or 1) to move.
    ToMove(u8),
}

/// Why a game cannot be read as cells, or a genome of it cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{game}: {reason}")]
pub struct Unfit {
    /// The game.
    pub game: String,
    /// What it lacks, in words.
    pub reason: String,
}

/// The most planes a tensor of planes may read as cell states.
pub(crate) const MAX_PLANES: usize = 63;
/// The most levels a tensor of values is read in: beyond, its range is
/// cut in this many equal steps.
pub(crate) const MAX_LEVELS: usize = 16;
/// The most cells a board may have.
pub(crate) const MAX_CELLS: usize = 1 << 16;

/// How a game's observation tensor is read as cells on a grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// The tensor's shape.
    pub shape: Vec<u32>,
    /// Rows of the grid.
    pub rows: u32,
    /// Columns of the grid.
    pub cols: u32,
    /// A tensor of planes: the planes read, in order (a cell's state is 1
    /// plus the place of the first of them set there, 0 when none is;
    /// where one plane of every cell is set, the first such plane is left
    /// out and read as 0).
    /// Empty for a tensor of values.
    pub planes: Vec<u32>,
    /// A tensor of values: the levels a cell's value is read as (its
    /// state is the nearest level's place), ascending. Empty where the
    /// tensor is read in groups.
    pub levels: Vec<f32>,
    /// A tensor of flags read in groups: each cell's entries of the
    /// tensor (its state is the place of the one set, 0 when none is; a
    /// cell of one entry is 1 where it is set). A cell of none is a place
    /// on the grid no entry fills. Empty for any other tensor.
    pub groups: Vec<Vec<u32>>,
}

/// A [`Layout`] as files of the first formats wrote it, before groups.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
pub(crate) struct LayoutV1 {
    pub(crate) shape: Vec<u32>,
    pub(crate) rows: u32,
    pub(crate) cols: u32,
    pub(crate) planes: Vec<u32>,
    pub(crate) levels: Vec<f32>,
}

impl From<LayoutV1> for Layout {
    fn from(old: LayoutV1) -> Layout {
        Layout {
            shape: old.shape,
            rows: old.rows,
            cols: old.cols,
            planes: old.planes,
            levels: old.levels,
            groups: Vec::new(),
        }
    }
}

/// The most flags one group of a tensor of flags may hold.
const MAX_GROUP: usize = 64;

/// The groups of a tensor of flags (every entry 0 or 1 in every probed
/// tensor of `samples`) in which exactly one flag is set in every probed
/// position, so that reading which one loses nothing: first planes laid
/// end to end (entry `c` and those a stride `s`, `2s`, … on: OpenSpiel's
/// `[planes × cells]` flattened), the flags after them each a cell; or,
/// where there is no such stride, runs of neighbouring entries, an entry
/// in no such run a group of its own. With the stride of a
/// square board (`s` a square), the groups are laid on its grid, what
/// follows in rows of its width. `None` where no group holds two flags.
fn flag_groups(samples: &[f32], size: usize) -> Option<(Vec<Vec<u32>>, usize)> {
    if !samples.iter().all(|&v| v == 0.0 || v == 1.0) {
        return None;
    }
    let tensors = || samples.chunks_exact(size);
    let set =
        |tensor: &[f32], entries: &[usize]| entries.iter().filter(|&&e| tensor[e] != 0.0).count();
    let one_hot = |entries: &[usize]| tensors().all(|t| set(t, entries) == 1);
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut width = 0;
    let stride = (2..=size / 2).find(|&s| {
        let planes = size / s;
        planes <= MAX_GROUP
            && (0..s).all(|c| one_hot(&(0..planes).map(|p| c + p * s).collect::<Vec<_>>()))
    });
    let mut i = 0;
    if let Some(s) = stride {
        let planes = size / s;
        groups.extend((0..s).map(|c| (0..planes).map(|p| (c + p * s) as u32).collect()));
        i = planes * s;
        let side = (s as f64).sqrt().round() as usize;
        if side * side == s {
            width = side;
        }
    }
    while i < size {
        let mut run = 1;
        let mut entries = vec![i];
        // After a board's planes, the flags left are cells of their own:
        // a run of them as one cell would raise every cell's states.
        while stride.is_none() && i + entries.len() < size && entries.len() < MAX_GROUP {
            entries.push(i + entries.len());
            if !tensors().all(|t| set(t, &entries) <= 1) {
                break;
            }
            if one_hot(&entries) {
                run = entries.len();
            }
        }
        groups.push((i..i + run).map(|e| e as u32).collect());
        i += run;
    }
    if groups.iter().all(|g| g.len() < 2) {
        return None;
    }
    if width > 0 {
        while !groups.len().is_multiple_of(width) {
            groups.push(Vec::new());
        }
    } else {
        width = groups.len();
    }
    Some((groups, width))
}

impl Layout {
    /// The layout of a tensor of `shape`, from `samples`: tensors of
    /// positions met in play, concatenated.
    pub fn probe(game: &str, shape: &[usize], samples: &[f32]) -> Result<Layout, Unfit> {
        let unfit = |reason: String| Unfit {
            game: game.to_string(),
            reason,
        };
        let size: usize = shape.iter().product();
        if size == 0 || !samples.len().is_multiple_of(size) || samples.is_empty() {
            return Err(unfit("its observation tensor is empty".into()));
        }
        let (planes, rows, cols) = match *shape {
            [planes, rows, cols] => (planes, rows, cols),
            [rows, cols] => (0, rows, cols),
            [n] => (0, 1, n),
            _ => {
                return Err(unfit(format!(
                    "its observation tensor has {} dimensions ({shape:?}); bebete reads planes over a board ([planes, rows, cols]) or values (one or two dimensions)",
                    shape.len()
                )));
            }
        };
        if rows * cols > MAX_CELLS {
            return Err(unfit(format!(
                "its board has {} cells; at most {MAX_CELLS}",
                rows * cols
            )));
        }
        let mut layout = Layout {
            shape: shape.iter().map(|&d| d as u32).collect(),
            rows: rows as u32,
            cols: cols as u32,
            planes: Vec::new(),
            levels: Vec::new(),
            groups: Vec::new(),
        };
        let cells = rows * cols;
        if planes > 0 {
            // A plane is read when, in some probed position, it differs
            // from one cell to another.
            for p in 0..planes {
                let varies = samples.chunks_exact(size).any(|tensor| {
                    let plane = &tensor[p * cells..(p + 1) * cells];
                    plane.iter().any(|&v| v != plane[0])
                });
                if varies {
                    layout.planes.push(p as u32);
                }
            }
            if layout.planes.is_empty() {
                return Err(unfit(
                    "no plane of its observation tensor differs across the board in play".into(),
                ));
            }
            if layout.planes.len() > MAX_PLANES {
                return Err(unfit(format!(
                    "{} planes of its observation tensor differ across the board; a cell reads at most {MAX_PLANES}",
                    layout.planes.len()
                )));
            }
            // Where every cell of every probed position has exactly one of
            // the planes read set (Connect-Four's empty, first, second),
            // the first is what no other being set means: a state fewer,
            // the same positions told apart, tables a fraction the size
            // (3^6 weights a tuple of 6 cells where 4^6 were, 4^6 of them
            // never read).
            let one_hot = samples.chunks_exact(size).all(|tensor| {
                (0..cells).all(|c| {
                    layout
                        .planes
                        .iter()
                        .filter(|&&p| tensor[p as usize * cells + c] != 0.0)
                        .count()
                        == 1
                })
            });
            if one_hot && layout.planes.len() > 1 {
                layout.planes.remove(0);
            }
        } else if let Some((groups, width)) = flag_groups(samples, size) {
            layout.cols = width as u32;
            layout.rows = (groups.len() / width) as u32;
            layout.groups = groups;
        } else {
            let mut values: Vec<f32> = samples.iter().map(|&v| v + 0.0).collect();
            values.sort_by(f32::total_cmp);
            values.dedup();
            if values.len() < 2 {
                return Err(unfit(
                    "its observation tensor holds one value in every probed position".into(),
                ));
            }
            if values.len() > MAX_LEVELS {
                let (low, high) = (values[0], values[values.len() - 1]);
                let step = (high - low) / (MAX_LEVELS - 1) as f32;
                values = (0..MAX_LEVELS).map(|k| low + step * k as f32).collect();
            }
            layout.levels = values;
        }
        Ok(layout)
    }

    /// Cells on the grid.
    pub fn cells(&self) -> usize {
        (self.rows * self.cols) as usize
    }

    /// States a cell can be in.
    pub fn states(&self) -> u32 {
        if !self.groups.is_empty() {
            self.groups.iter().map(Vec::len).max().unwrap_or(0).max(2) as u32
        } else if self.planes.is_empty() {
            self.levels.len() as u32
        } else {
            self.planes.len() as u32 + 1
        }
    }

    /// Floats in one tensor.
    pub fn tensor_len(&self) -> usize {
        self.shape.iter().map(|&d| d as usize).product()
    }

    /// The cell states of `tensor` into `states` (one per cell).
    pub fn read(&self, tensor: &[f32], states: &mut [u8]) {
        let cells = self.cells();
        if !self.groups.is_empty() {
            for (state, group) in states.iter_mut().zip(&self.groups) {
                *state = match group[..] {
                    [one] => u8::from(tensor[one as usize] != 0.0),
                    _ => group
                        .iter()
                        .position(|&e| tensor[e as usize] != 0.0)
                        .unwrap_or(0) as u8,
                };
            }
            return;
        }
        if self.planes.is_empty() {
            for (state, &v) in states.iter_mut().zip(tensor) {
                *state = self.level(v);
            }
            return;
        }
        states.fill(0);
        for (k, &p) in self.planes.iter().enumerate().rev() {
            let plane = &tensor[p as usize * cells..(p as usize + 1) * cells];
            for (state, &v) in states.iter_mut().zip(plane) {
                if v != 0.0 {
                    *state = k as u8 + 1;
                }
            }
        }
    }

    /// The place of the level nearest `v`.
    fn level(&self, v: f32) -> u8 {
        let at = self.levels.partition_point(|&l| l < v);
        let below = at.checked_sub(1);
        match (below, self.levels.get(at)) {
            (Some(b), Some(&above)) if v - self.levels[b] <= above - v => b as u8,
            (_, Some(_)) => at as u8,
            (Some(b), None) => b as u8,
            (None, None) => 0,
        }
    }

    /// Each cell's mirror image, its columns reversed: the cell it is.
    pub(crate) fn mirror(&self) -> Vec<u16> {
        let cols = self.cols as usize;
        (0..self.cells())
            .map(|c| ((c / cols) * cols + cols - 1 - c % cols) as u16)
            .collect()
    }

    /// The cells next to `cell` on the grid (the eight around it; along
    /// the line for a one-row board).
    pub(crate) fn neighbours(&self, cell: usize, out: &mut Vec<usize>) {
        out.clear();
        let (rows, cols) = (self.rows as i64, self.cols as i64);
        let (r, c) = ((cell as i64) / cols, (cell as i64) % cols);
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr, dc) != (0, 0) && (0..rows).contains(&nr) && (0..cols).contains(&nc) {
                    out.push((nr * cols + nc) as usize);
                }
            }
        }
    }

    /// The layout in words: `[3, 6, 7] read as 42 cells of 4 states`.
    pub fn describe(&self) -> String {
        let read = if !self.groups.is_empty() {
            format!(
                "its flags in {} groups (which one is set)",
                self.groups.iter().filter(|g| !g.is_empty()).count()
            )
        } else if self.planes.is_empty() {
            format!("{} levels of value", self.levels.len())
        } else {
            format!("planes {:?}", self.planes)
        };
        format!(
            "tensor {:?}, {read}: {} cells ({}×{}) of {} states",
            self.shape,
            self.cells(),
            self.rows,
            self.cols,
            self.states()
        )
    }
}

#[cfg(test)]
mod tests;
