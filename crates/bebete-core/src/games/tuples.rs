//! The shape of a value genome (see `encoding::ntuple`): rules-side data,
//! recorded in a game's spec.

use serde::{Deserialize, Serialize};

/// The longest tuple (4^8 states per table).
pub const MAX_TUPLE_LENGTH: u8 = 8;
/// The most tuples one value genome holds.
pub const MAX_TUPLES: u16 = 1000;
/// The most game stages a value genome may split its tuples into, each
/// stage reading its own equal group.
pub const MAX_STAGES: usize = 16;

/// The shape of a value genome: how many tuples, of how many cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NTuple {
    /// Tuples in the genome.
    pub tuples: u16,
    /// Cells per tuple.
    pub length: u8,
}

impl NTuple {
    /// Weights per table (one side) with `base` cell states: base^length.
    pub(crate) fn states_in(self, base: u32) -> usize {
        (base as usize).pow(self.length as u32)
    }

    /// Bytes of one tuple with `base` cell states: its 8 cell bytes and its
    /// two tables of i16.
    pub fn block_in(self, base: u32) -> usize {
        8 + 2 * 2 * self.states_in(base)
    }

    /// Bytes of a genome with `base` cell states: the tuples, then 8
    /// parameter bytes.
    pub(crate) fn gene_count_in(self, base: u32) -> usize {
        self.tuples as usize * self.block_in(base) + 8
    }

    /// Checks the shape against a board of `cells` cells; says what is wrong.
    pub(crate) fn check(self, cells: usize) -> Result<(), ShapeError> {
        if self.tuples == 0 || self.tuples > MAX_TUPLES {
            return Err(ShapeError::Tuples(self.tuples));
        }
        let longest = (MAX_TUPLE_LENGTH as usize).min(cells) as u8;
        if self.length < 2 || self.length > longest {
            return Err(ShapeError::Length {
                length: self.length,
                longest,
            });
        }
        Ok(())
    }
}

/// A value genome's shape that a board cannot take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Not 1 to [`MAX_TUPLES`] tuples.
    #[error("{0} tuples (1 to {MAX_TUPLES})")]
    Tuples(u16),
    /// Tuples shorter than 2 cells, or longer than the board or 8 cells.
    #[error("tuples of {length} cells (2 to {longest} on this board)")]
    /// Tuples longer than the board allows.
    Length {
        /// Cells per tuple asked for.
        length: u8,
        /// The most allowed.
        longest: u8,
    },
}

impl ShapeError {
    /// The value given to that flag.
    pub fn value(self) -> String {
        match self {
            ShapeError::Tuples(tuples) => tuples.to_string(),
            ShapeError::Length { length, .. } => format!("x{length}"),
        }
    }
}

impl From<ShapeError> for super::InvalidRules {
    fn from(e: ShapeError) -> Self {
        super::InvalidRules(e.to_string())
    }
}

impl std::fmt::Display for NTuple {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}×{}", self.tuples, self.length)
    }
}
