//! What the fixed opponents know about each game: preferred moves, immediate
//! threats, a static evaluation, and an exact solver.
//!
//! Kept apart from the rules ([`crate::games`]) so that the rules stay the
//! small core every module needs, and apart from the players so that each
//! player is written once, generically.

use crate::bank::{Bank, BankSource};
use crate::games::BuiltIn;
use crate::games::{
    Connect4, Connect4Position, Game, Matchsticks, MatchsticksPosition, Solitaire,
    SolitairePosition, TicTacToe, TicTacToePosition,
};
use crate::puzzle::{MAX_POSITIONS, SoloTable};
use crate::solve::{Score, SolvedTable, Solver, Value};
use crate::store::FileError;

/// The Connect-Four board, as the line table and the solver's board string use it.
const WIDTH: i32 = crate::games::CONNECT4_WIDTH as i32;
const HEIGHT: i32 = crate::games::CONNECT4_HEIGHT as i32;
const STRIDE: i32 = crate::games::CONNECT4_STRIDE as i32;
use std::sync::Arc;

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
pub type GameBank<G> = Bank<<G as Game>::Position, <G as Game>::Move>;

/// Game knowledge for the fixed opponents.
pub trait Knowledge: BuiltIn {
    /// What every exact solver of a match or run shares, built once (a
    /// solved table for the small games; nothing for Connect-Four, whose
    /// solvers each keep their own transposition table).
    type Oracle: Send + Sync + 'static;
    /// Whether every position can be solved in memory by backward
    /// induction (exact audits, the exhaustive fitness); `perfect` works
    /// either way.
    const SOLVABLE: bool;
    /// Whether [`Knowledge::bank`] gives positions (Connect-Four).
    const BANKED: bool = false;

    /// Moves in preference order, in classes of equal preference (the `rules`
    /// player); empty when no move is preferred.
    fn preference_classes(&self) -> Vec<Vec<Self::Move>>;
    /// Whether the opponent of the side to move would win at once by playing
    /// `mv` here (a threat to block).
    fn opponent_wins_by(&self, pos: &Self::Position, mv: Self::Move) -> bool;
    /// A static evaluation for the side to move: positive is good.
    fn heuristic(&self, pos: &Self::Position) -> i32;
    /// The shared part of the exact solver, built once (it may be costly).
    fn exact_oracle(&self) -> Arc<Self::Oracle>;
    /// A solver that knows the exact value of every move, using `oracle`
    /// from [`Knowledge::exact_oracle`].
    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>>;
    /// The solver-labelled position bank `source` names, for a game that
    /// has banks (Connect-Four); `None` for the small games, which are
    /// solved whole (`exhaustive`).
    fn bank(&self, _source: &BankSource) -> Result<Option<GameBank<Self>>, FileError> {
        Ok(None)
    }
}

/// Reads move values from a shared [`SolvedTable`]; positions outside it
/// (none, in play from the start) fall back to a private solver.
pub struct TableSolver<G: Game> {
    table: Arc<SolvedTable<G::Position>>,
    fallback: Solver<G>,
}

impl<G: Game> TableSolver<G> {
    pub fn new(game: &G, table: &Arc<SolvedTable<G::Position>>) -> Self {
        TableSolver {
            table: table.clone(),
            fallback: Solver::new(game),
        }
    }
}

impl<G: Game> ExactSolver<G> for TableSolver<G> {
    fn move_scores(&mut self, game: &G, pos: &G::Position) -> Vec<(G::Move, Score)> {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                let next = game.play(pos, m);
                let score = self
                    .table
                    .score(&next)
                    .unwrap_or_else(|| self.fallback.score(&next));
                (m, score.before())
            })
            .collect()
    }
}

/// Points of a line by the number of stones in it (open lines only).
const LINE_WEIGHT: [i32; 5] = [0, 1, 10, 100, 1000];

impl Knowledge for TicTacToe {
    type Oracle = SolvedTable<TicTacToePosition>;
    const SOLVABLE: bool = true;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        vec![vec![4], vec![0, 2, 6, 8], vec![1, 3, 5, 7]]
    }

    fn opponent_wins_by(&self, pos: &TicTacToePosition, cell: u8) -> bool {
        let opponent = pos.stones(self.turn(pos).other());
        pos.empty() & (1 << cell) != 0 && crate::games::tictactoe_has_line(opponent | 1 << cell)
    }

    fn heuristic(&self, pos: &TicTacToePosition) -> i32 {
        let me = pos.stones(self.turn(pos));
        let them = pos.stones(self.turn(pos).other());
        open_lines(&crate::games::TICTACTOE_LINES, me as u64, them as u64)
    }

    fn exact_oracle(&self) -> Arc<Self::Oracle> {
        Arc::new(SolvedTable::build(self))
    }

    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>> {
        Box::new(TableSolver::new(self, oracle))
    }
}

impl Knowledge for Matchsticks {
    type Oracle = SolvedTable<MatchsticksPosition>;
    const SOLVABLE: bool = true;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        Vec::new()
    }

    fn opponent_wins_by(&self, _pos: &MatchsticksPosition, _take: u8) -> bool {
        false
    }

    fn heuristic(&self, _pos: &MatchsticksPosition) -> i32 {
        0
    }

    fn exact_oracle(&self) -> Arc<Self::Oracle> {
        Arc::new(SolvedTable::build(self))
    }

    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>> {
        Box::new(TableSolver::new(self, oracle))
    }
}

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

/// The 69 four-cell lines of the Connect-Four board, as bitboard masks.
static CONNECT4_LINES: [u64; 69] = {
    let mut lines = [0u64; 69];
    let mut n = 0;
    let mut col = 0;
    while col < WIDTH {
        let mut row = 0;
        while row < HEIGHT {
            // (dcol, drow): horizontal, vertical, diagonal up, diagonal down
            let dirs: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
            let mut d = 0;
            while d < 4 {
                let (dc, dr) = dirs[d];
                let (end_c, end_r) = (col + 3 * dc, row + 3 * dr);
                if end_c >= 0 && end_c < WIDTH && end_r >= 0 && end_r < HEIGHT {
                    let mut mask = 0u64;
                    let mut k = 0;
                    while k < 4 {
                        let c = col + k * dc;
                        let r = row + k * dr;
                        mask |= 1 << (c * STRIDE + r);
                        k += 1;
                    }
                    lines[n] = mask;
                    n += 1;
                }
                d += 1;
            }
            row += 1;
        }
        col += 1;
    }
    lines
};

impl Knowledge for Connect4 {
    type Oracle = ();
    const SOLVABLE: bool = false;
    const BANKED: bool = true;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        vec![vec![3], vec![2, 4], vec![1, 5], vec![0, 6]]
    }

    fn opponent_wins_by(&self, pos: &Connect4Position, col: u8) -> bool {
        let col = col as u32;
        if !pos.can_play(col) {
            return false;
        }
        let column = ((1u64 << HEIGHT) - 1) << (STRIDE as u32 * col);
        let drop = (pos.mask + crate::games::connect4_bottom_mask(col)) & column;
        crate::games::connect4_has_four(pos.opponent() | drop)
    }

    fn heuristic(&self, pos: &Connect4Position) -> i32 {
        open_lines(&CONNECT4_LINES, pos.current, pos.opponent())
    }

    fn exact_oracle(&self) -> Arc<()> {
        Arc::new(())
    }

    fn exact_solver(&self, _oracle: &Arc<()>) -> Box<dyn ExactSolver<Self>> {
        Box::new(Connect4Solver::new())
    }

    fn bank(&self, source: &BankSource) -> Result<Option<GameBank<Self>>, FileError> {
        source.connect4().map(Some)
    }
}

/// Peg solitaire: one player, so no preferences, threats or opponents; its
/// exact solver reads the fewest pegs each jump can still end with from a
/// table of every reachable position ([`SoloTable`]).
impl Knowledge for Solitaire {
    /// The solved table; `None` when the board is too large to solve.
    type Oracle = Option<SoloTable>;
    const SOLVABLE: bool = false;

    fn preference_classes(&self) -> Vec<Vec<u8>> {
        Vec::new()
    }

    fn opponent_wins_by(&self, _pos: &SolitairePosition, _mv: u8) -> bool {
        false
    }

    fn heuristic(&self, pos: &SolitairePosition) -> i32 {
        -(pos.pegs_left() as i32)
    }

    fn exact_oracle(&self) -> Arc<Self::Oracle> {
        Arc::new(SoloTable::build(self, MAX_POSITIONS).ok())
    }

    fn exact_solver(&self, oracle: &Arc<Self::Oracle>) -> Box<dyn ExactSolver<Self>> {
        Box::new(SoloSolver(oracle.clone()))
    }
}

/// Scores a jump by the fewest pegs it can still end with: fewer is higher.
struct SoloSolver(Arc<Option<SoloTable>>);

impl ExactSolver<Solitaire> for SoloSolver {
    fn move_scores(&mut self, game: &Solitaire, pos: &SolitairePosition) -> Vec<(u8, Score)> {
        let mut moves = Vec::new();
        game.legal_moves(pos, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                let next = game.play(pos, m);
                let best = (*self.0)
                    .as_ref()
                    .and_then(|t| t.get(&next))
                    .map_or(next.pegs_left() as i32, |e| e.best as i32);
                (m, Score::raw(-best))
            })
            .collect()
    }
}

/// Connect-Four solved exactly by the `connect-four-ai` crate (negamax with
/// alpha-beta, a transposition table and an embedded opening book of depth
/// 8). Its board uses the same bit layout as ours.
pub struct Connect4Solver {
    solver: connect_four_ai::Solver,
}

impl Connect4Solver {
    pub fn new() -> Self {
        Connect4Solver {
            solver: connect_four_ai::Solver::new(),
        }
    }

    /// The external solver's view of our position.
    fn convert(pos: &Connect4Position) -> connect_four_ai::Position {
        let mut board = String::with_capacity((WIDTH as usize + 1) * HEIGHT as usize);
        for row in (0..HEIGHT).rev() {
            for col in 0..WIDTH {
                let bit = 1u64 << (col * STRIDE + row);
                board.push(if pos.current & bit != 0 {
                    'x'
                } else if pos.mask & bit != 0 {
                    'o'
                } else {
                    '.'
                });
            }
            board.push('\n');
        }
        connect_four_ai::Position::from_board_string(&board)
            .expect("a 42-cell board string is always well formed")
    }

    /// The exact score of each column (positive: the mover wins).
    pub fn scores(&mut self, pos: &Connect4Position) -> [Option<i8>; WIDTH as usize] {
        self.solver.get_all_move_scores(&Self::convert(pos))
    }
}

impl Default for Connect4Solver {
    fn default() -> Self {
        Self::new()
    }
}

/// The solver's scores (Pascal Pons' scale: a win scores the winner's
/// stones left unplayed, plus one; a loss the negative), already higher for
/// a faster win and a slower loss.
impl ExactSolver<Connect4> for Connect4Solver {
    fn move_scores(&mut self, _game: &Connect4, pos: &Connect4Position) -> Vec<(u8, Score)> {
        self.scores(pos)
            .iter()
            .enumerate()
            .filter_map(|(col, score)| score.map(|s| (col as u8, Score::raw(s.into()))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect4_has_69_lines_of_four() {
        assert!(CONNECT4_LINES.iter().all(|l| l.count_ones() == 4));
        let distinct: std::collections::HashSet<_> = CONNECT4_LINES.iter().collect();
        assert_eq!(distinct.len(), 69);
    }

    #[test]
    fn threats_are_seen() {
        let ttt = TicTacToe::BASE3;
        // "152": X on cells 0 and 1, O on cell 4; O to move, and X
        // threatens cell 2.
        let pos = ttt.parse_position("152").unwrap();
        assert!(ttt.opponent_wins_by(&pos, 2));
        assert!(!ttt.opponent_wins_by(&pos, 8));
        let c4 = Connect4::SUBGRID;
        // X has three in column 1; O to move must block column 1.
        let pos = c4.parse_position("12121").unwrap();
        assert!(c4.opponent_wins_by(&pos, 0));
        assert!(!c4.opponent_wins_by(&pos, 1));
    }

    #[test]
    fn the_connect4_solver_knows_the_opening() {
        let mut solver = Connect4Solver::new();
        let values = solver.move_values(&Connect4::SUBGRID, &Connect4::SUBGRID.start());
        // Only the centre column wins for the first player; 3 and 5 draw.
        let wins: Vec<u8> = values
            .iter()
            .filter(|(_, v)| *v == Value::Win)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(wins, vec![3]);
        let draws: Vec<u8> = values
            .iter()
            .filter(|(_, v)| *v == Value::Draw)
            .map(|(m, _)| *m)
            .collect();
        assert_eq!(draws, vec![2, 4]);
    }
}
