//! What the fixed opponents know about each game: preferred moves, immediate
//! threats, a static evaluation, and an exact solver.
//!
//! Kept apart from the rules ([`crate::games`]) so that the rules stay the
//! small core every module needs, and apart from the players so that each
//! player is written once, generically. One file per game.

mod checkers;
mod connect4;
mod connect4_search;
mod matchsticks;
mod othello;
mod solitaire;
mod tictactoe;

pub use connect4::Connect4Solver;
pub use othello::WPC;

use crate::bank::{Bank, BankSource};
use crate::encoding::{IllegalPolicy, TableGame};
use crate::games::{BuiltIn, Game, GenomeKinds, KindOf, Pair};
use crate::puzzle::PuzzleError;
use crate::solve::{Score, SolvedTable, Solver, Value};
use crate::store::FileError;
use std::sync::{Arc, OnceLock};

/// An exact oracle: the score each legal move achieves.
pub trait ExactSolver<G: Game>: Send {
    /// For every legal move of the unfinished `pos`, the exact score of
    /// playing it, for the side to move (higher is better: the fastest win,
    /// the slowest loss).
    fn move_scores(&mut self, game: &G, pos: &G::Position) -> Vec<(G::Move, Score)>;

    /// For every legal move, its game-theoretic value (a move into a
    /// position lost for the opponent is a `Win`).
    fn move_values(&mut self, game: &G, pos: &G::Position) -> Vec<(G::Move, Value)> {
        self.move_scores(game, pos)
            .into_iter()
            .map(|(m, s)| (m, s.value()))
            .collect()
    }
}

/// A bank of `G`'s positions.
pub(crate) type GameBank<G> = Bank<<G as Game>::Position, <G as Game>::Move>;

/// Game knowledge for the fixed opponents: written on a game's rules,
/// and read the same through a [`Pair`] of them and a genome kind.
pub trait Knowledge: Game {
    /// Whether every position can be solved in memory by backward
    /// induction (exact audits, the exhaustive fitness); `perfect` works
    /// either way.
    const SOLVABLE: bool;
    /// Whether [`Knowledge::bank`] gives positions (Connect-Four).
    const BANKED: bool = false;
    /// Whether [`Knowledge::heuristic`] is a weighted piece counter (the
    /// `wpc` player: Othello's standard heuristic player).
    const WEIGHTED_PIECES: bool = false;
    /// What the `rules` player does here, in words for a menu
    /// (`win, block, the column nearest the centre`).
    const RULES_PLAYER: &'static str;

    /// Moves in preference order, in classes of equal preference (the `rules`
    /// player); empty when no move is preferred.
    fn preference_classes(&self) -> Vec<Vec<Self::Move>>;
    /// Whether the opponent of the side to move would win at once by playing
    /// `mv` here (a threat to block).
    fn opponent_wins_by(&self, pos: &Self::Position, mv: Self::Move) -> bool;
    /// A static evaluation for the side to move: positive is good.
    fn heuristic(&self, pos: &Self::Position) -> i32;
    /// The moves the `rules` player chooses among when it cannot win at
    /// once, for a game whose rules of thumb are not "block, then the
    /// preferred moves" (checkers); `None` for those that are.
    fn rule_moves(&self, _pos: &Self::Position, _moves: &[Self::Move]) -> Option<Vec<Self::Move>> {
        None
    }
    /// Exact play (the `perfect` player, exact scores in `eval`, `solve
    /// --position`), for a game that has it; `None` for one that has none
    /// (checkers, Othello), which each place that needs it refuses, naming
    /// the game. Cheap to make: what it needs is built on first use.
    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        None
    }
    /// The solver-labelled position bank `source` names, for a game that
    /// has banks (Connect-Four); `None` for the small games, which are
    /// solved whole (`exhaustive`).
    fn bank(&self, _source: &BankSource) -> Result<Option<GameBank<Self>>, FileError> {
        Ok(None)
    }
    /// `Some(the boards that are)` when this board has too many reachable
    /// positions to read them all (the exhaustive fitness, the benchmark's
    /// optimal-move rate); `None` for a board that can be read whole.
    fn too_large_to_read(&self) -> Option<&'static str> {
        None
    }
    /// Runs `visitor` with this game as a [`Puzzle`], when it is one (a
    /// one-player game solved whole, with the genome that plays it);
    /// games that are not refuse with [`NotAPuzzle`]. A game's rules
    /// answer through [`Knowledge::puzzle_of`].
    fn visit_puzzle<V: PuzzleVisitor>(&self, _visitor: V) -> Result<V::Output, NotAPuzzle> {
        Err(NotAPuzzle)
    }
    /// [`Knowledge::visit_puzzle`] of `game`, these rules played by a
    /// genome: a one-player game's rules make it a [`Puzzle`].
    fn puzzle_of<K: KindOf<Self>, V: PuzzleVisitor>(
        _game: &Pair<Self, K>,
        _visitor: V,
    ) -> Result<V::Output, NotAPuzzle>
    where
        Self: GenomeKinds,
    {
        Err(NotAPuzzle)
    }
}

/// The rules' knowledge, read through the game they are played in: the
/// fixed players, the solver and the bank see only the rules.
impl<R: GenomeKinds + Knowledge, K: KindOf<R>> Knowledge for Pair<R, K> {
    const SOLVABLE: bool = R::SOLVABLE;
    const BANKED: bool = R::BANKED;
    const WEIGHTED_PIECES: bool = R::WEIGHTED_PIECES;
    const RULES_PLAYER: &'static str = R::RULES_PLAYER;

    fn preference_classes(&self) -> Vec<Vec<R::Move>> {
        self.rules.preference_classes()
    }
    fn opponent_wins_by(&self, pos: &R::Position, mv: R::Move) -> bool {
        self.rules.opponent_wins_by(pos, mv)
    }
    fn heuristic(&self, pos: &R::Position) -> i32 {
        self.rules.heuristic(pos)
    }
    fn rule_moves(&self, pos: &R::Position, moves: &[R::Move]) -> Option<Vec<R::Move>> {
        self.rules.rule_moves(pos, moves)
    }
    fn exact(&self) -> Option<Arc<dyn Exact<Self>>> {
        let exact = self.rules.exact()?;
        Some(Arc::new(OnRules(exact)))
    }
    fn bank(&self, source: &BankSource) -> Result<Option<GameBank<Self>>, FileError> {
        self.rules.bank(source)
    }
    fn too_large_to_read(&self) -> Option<&'static str> {
        self.rules.too_large_to_read()
    }
    fn visit_puzzle<V: PuzzleVisitor>(&self, visitor: V) -> Result<V::Output, NotAPuzzle> {
        R::puzzle_of(self, visitor)
    }
}

/// The rules' exact play, for the game they are played in.
struct OnRules<R>(Arc<dyn Exact<R>>);

impl<R: GenomeKinds, K: KindOf<R>> Exact<Pair<R, K>> for OnRules<R> {
    fn solver(&self, game: &Pair<R, K>) -> Box<dyn ExactSolver<Pair<R, K>>> {
        Box::new(SolverOnRules(self.0.solver(&game.rules)))
    }
}

/// The rules' exact solver, for the game they are played in.
struct SolverOnRules<R: Game>(Box<dyn ExactSolver<R>>);

impl<R: GenomeKinds, K: KindOf<R>> ExactSolver<Pair<R, K>> for SolverOnRules<R> {
    fn move_scores(&mut self, game: &Pair<R, K>, pos: &R::Position) -> Vec<(R::Move, Score)> {
        self.0.move_scores(&game.rules, pos)
    }

    fn move_values(&mut self, game: &Pair<R, K>, pos: &R::Position) -> Vec<(R::Move, Value)> {
        self.0.move_values(&game.rules, pos)
    }
}

/// A one-player game solved whole: what `solve`, `audit` and `play` ask of
/// it. Each answer is the game's own type, shown as text (`Display`) or as
/// JSON (`Serialize`), so the command line needs no word of the game.
pub trait Puzzle: Knowledge + TableGame + BuiltIn {
    /// The figures of the whole puzzle (`solve`).
    type Survey: serde::Serialize + std::fmt::Display;
    /// The moves of one position and what each can still reach (`solve
    /// --position`).
    type Moves: serde::Serialize + std::fmt::Display;
    /// How a genome plays the puzzle (`audit`).
    type Audit: serde::Serialize + std::fmt::Display;

    /// The figures of the whole puzzle (`solve`).
    fn survey(&self) -> Result<Self::Survey, PuzzleError>;
    /// Every move of `pos` with the best result after it.
    fn moves(&self, pos: &Self::Position) -> Result<Self::Moves, PuzzleError>;
    /// Audits a genome's `genes` playing the puzzle under `policy`.
    fn audit(&self, genes: &[u8], policy: IllegalPolicy) -> Result<Self::Audit, PuzzleError>;
    /// The best result from the start (the fewest pieces left), when the
    /// puzzle is small enough to solve at once.
    fn best_from_start(&self) -> Option<u32>;
}

/// Something to do with a puzzle; see [`Knowledge::visit_puzzle`].
pub trait PuzzleVisitor {
    /// What the visit gives back.
    type Output;
    /// Does the work with the concrete puzzle.
    fn visit<P: Puzzle>(self, puzzle: &P) -> Self::Output;
}

/// The game is not a puzzle: it has no exact solution of every position
/// for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("it is not a one-player game solved whole (a puzzle)")]
pub struct NotAPuzzle;

/// Exact play of a game that has it ([`Knowledge::exact`]): made once per
/// match or run and shared by every solver it makes; what those share (a
/// solved table) is built when the first solver asks for it.
pub trait Exact<G: Game>: Send + Sync {
    /// A solver that knows the exact value of every move.
    fn solver(&self, game: &G) -> Box<dyn ExactSolver<G>>;
}

/// Exact play from the whole game solved in memory (tic-tac-toe,
/// matchsticks): the table built on first use, then shared.
pub struct SolvedExact<G: Game> {
    table: OnceLock<Arc<SolvedTable<G::Position>>>,
}

impl<G: Game> Default for SolvedExact<G> {
    fn default() -> Self {
        SolvedExact {
            table: OnceLock::new(),
        }
    }
}

impl<G: Game + Send + Sync> Exact<G> for SolvedExact<G>
where
    G::Position: Send + Sync,
{
    fn solver(&self, game: &G) -> Box<dyn ExactSolver<G>> {
        let table = self
            .table
            .get_or_init(|| Arc::new(SolvedTable::build(game)));
        Box::new(TableSolver::new(game, table))
    }
}

/// Reads move values from a shared [`SolvedTable`]; positions outside it
/// (none, in play from the start) fall back to a private solver.
pub struct TableSolver<G: Game> {
    table: Arc<SolvedTable<G::Position>>,
    fallback: Solver<G>,
}

impl<G: Game> TableSolver<G> {
    /// Perfect play read from `table`.
    pub fn new(game: &G, table: &Arc<SolvedTable<G::Position>>) -> Self {
        TableSolver {
            table: table.clone(),
            fallback: Solver::new(game),
        }
    }
}

impl<G: Game> ExactSolver<G> for TableSolver<G> {
    fn move_scores(&mut self, game: &G, pos: &G::Position) -> Vec<(G::Move, Score)> {
        score_moves(game, pos, |next| {
            let score = self
                .table
                .score(next)
                .unwrap_or_else(|| self.fallback.score(next));
            score.before()
        })
    }
}

/// Every legal move of `pos` with `score` of the position it leads to.
fn score_moves<G: Game>(
    game: &G,
    pos: &G::Position,
    mut score: impl FnMut(&G::Position) -> Score,
) -> Vec<(G::Move, Score)> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .into_iter()
        .map(|m| (m, score(&game.play(pos, m))))
        .collect()
}

/// Points of a line by the number of stones in it (open lines only).
const LINE_WEIGHT: [i32; 5] = [0, 1, 10, 100, 1000];

/// Σ over lines: weight of my stones in lines free of theirs, minus the same
/// for them.
fn open_lines<L: Copy + Into<u64>>(lines: &[L], me: u64, them: u64) -> i32 {
    lines
        .iter()
        .map(|&line| {
            let line: u64 = line.into();
            let mine = (line & me).count_ones() as usize;
            let theirs = (line & them).count_ones() as usize;
            match (mine, theirs) {
                (m, 0) => LINE_WEIGHT[m],
                (0, t) => -LINE_WEIGHT[t],
                _ => 0,
            }
        })
        .sum()
}
