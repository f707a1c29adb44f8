//! Exact results of one-player games (puzzles), game by game: for every
//! position reachable from the start, the best ending it can still reach.
//!
//! Each puzzle's solver is its own file here. What the rest of the program
//! asks of a puzzle (the figures of `solve`, the moves of a position, the
//! audit of a genome) is the `Puzzle` ability of the players' knowledge,
//! which a one-player game gives; the command line reaches it through
//! `dispatch::visit_puzzle` and never names the game.

pub(crate) mod solitaire;

/// The board has more reachable positions than a solver keeps in memory.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "more than {limit} positions are reachable on this board: too many to solve in memory ({solved} are solved)"
)]
pub struct TooLarge {
    /// The most positions the solver keeps.
    pub(crate) limit: usize,
    /// The boards it does solve, in words (`solitaire boards of up to 6
    /// rows`).
    pub(crate) solved: &'static str,
}

/// Why a puzzle question has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error(transparent)]
    /// The puzzle has too many positions to walk.
    TooLarge(#[from] TooLarge),
    /// The position asked about is an ending (the words say why: `no jump
    /// left`).
    #[error("the game is over ({0})")]
    Over(&'static str),
}
