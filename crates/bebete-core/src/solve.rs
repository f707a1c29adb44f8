//! Exact game values for the small games, by backward induction.
//!
//! A position is won for the side to move if some move leads to a position
//! lost for the opponent, lost if every move leads to a position won for the
//! opponent, drawn otherwise. The solver also keeps how soon: the fastest
//! win, the slowest loss ([`Score`]). Scores are memoised, so each position
//! and move is visited once: linear in positions + moves. Tic-tac-toe (5,478
//! positions) and matchsticks (at most 256² states) are solved in
//! milliseconds; Connect-Four is far too large for this.

use crate::games::walk::{DEFAULT_NODE_LIMIT, WalkError, reachable};
use crate::games::{Game, Outcome};
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, OnceLock};

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins.
    Win,
    /// Neither side can win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Value {
    /// The value for the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }

    /// The value in words (`win`, `draw`, `loss`).
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }
}

/// An exact score for the side to move: higher is better. Its sign is the
/// value (win, draw, loss); among wins, a faster one scores higher, among
/// losses a slower one. Scores compare only within one game: the small
/// games count plies (`Score::win_in`); Connect-Four uses its solver's own
/// scale (`Score::raw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

/// Plies beyond any game here: a win in p plies scores `HORIZON − p`.
const HORIZON: i32 = 1 << 16;

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);

    /// A win for the side to move after `plies` more plies (its own winning
    /// move included).
    pub(crate) fn win_in(plies: u32) -> Score {
        Score(HORIZON - plies as i32)
    }

    /// A loss for the side to move after `plies` more plies.
    pub(crate) fn loss_in(plies: u32) -> Score {
        Score(-(HORIZON - plies as i32))
    }

    /// A score on another solver's scale (positive: win, sooner is higher).
    pub(crate) fn raw(score: i32) -> Score {
        Score(score)
    }

    /// The number behind the score.
    pub fn get(self) -> i32 {
        self.0
    }

    /// The value, without the distance.
    pub fn value(self) -> Value {
        match self.0.signum() {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }

    /// Plies to the end with best play, for a win or loss counted in plies.
    pub fn plies(self) -> Option<u32> {
        (self.0 != 0).then(|| (HORIZON - self.0.abs()) as u32)
    }

    /// The score, for the side that moved, of a move into a position whose
    /// side to move has `self` (counted in plies).
    pub(crate) fn before(self) -> Score {
        match self.plies() {
            None => Score::DRAW,
            Some(p) if self.0 > 0 => Score::loss_in(p + 1),
            Some(p) => Score::win_in(p + 1),
        }
    }
}

/// A memoising solver for one game.
///
/// ```
/// use bebete_core::games::{Game, Notation, TicTacToe};
/// use bebete_core::solve::{Solver, Value};
///
/// let game = TicTacToe;
/// let mut solver = Solver::new(&game);
/// // Perfect play draws; X in the centre, O on an edge: X wins.
/// assert_eq!(solver.value(&game.start()), Value::Draw);
/// let mut pos = game.start();
/// for cell in ["5", "2"] {
///     pos = game.play(&pos, game.parse_move(cell).unwrap());
/// }
/// assert_eq!(solver.value(&pos), Value::Win);
/// ```
pub struct Solver<G: Game> {
    game: G,
    scores: HashMap<G::Position, Score>,
}

impl<G: Game> Solver<G> {
    /// A solver of `game` with an empty table.
    pub fn new(game: &G) -> Self {
        Solver {
            game: game.clone(),
            scores: HashMap::default(),
        }
    }

    /// The value of `pos` for the side to move.
    pub fn value(&mut self, pos: &G::Position) -> Value {
        self.score(pos).value()
    }

    /// The exact score of `pos` for the side to move.
    pub fn score(&mut self, pos: &G::Position) -> Score {
        if let Some(&s) = self.scores.get(pos) {
            return s;
        }
        if crate::budget::spent() {
            // Cut short (see `crate::budget`): the caller drops the result.
            return Score::DRAW;
        }
        let score = match self.game.outcome(pos) {
            Some(Outcome::Draw) => Score::DRAW,
            Some(Outcome::Win(side)) if side == self.game.turn(pos) => Score::win_in(0),
            Some(Outcome::Win(_)) => Score::loss_in(0),
            None => {
                let mut moves = Vec::new();
                self.game.legal_moves(pos, &mut moves);
                moves
                    .into_iter()
                    .map(|mv| self.score(&self.game.play(pos, mv)).before())
                    .max()
                    .unwrap_or(Score::DRAW)
            }
        };
        if !crate::budget::spent() {
            self.scores.insert(*pos, score);
        }
        score
    }

    /// The moves of `pos` that keep its value.
    #[cfg(test)]
    pub(crate) fn best_moves(&mut self, pos: &G::Position) -> Vec<G::Move> {
        let target = self.value(pos);
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        moves.retain(|&mv| self.value(&self.game.play(pos, mv)).flip() == target);
        moves
    }
}

/// The value of every position reachable from the start (the small games).
pub struct SolvedTable<P> {
    scores: HashMap<P, Score>,
}

impl<P: Copy + Eq + std::hash::Hash> SolvedTable<P> {
    /// Solves every reachable position of `game`.
    ///
    /// # Panics
    /// When the game has more than `DEFAULT_NODE_LIMIT` positions
    /// (Connect-Four): use `SolvedTable::try_build` where that can happen.
    pub fn build<G: Game<Position = P>>(game: &G) -> Self {
        match Self::try_build(game, DEFAULT_NODE_LIMIT) {
            Ok(table) => table,
            // Cut short by this thread's budget (`crate::budget`): the
            // caller's `within` drops whatever is made of it.
            Err(WalkError::Stopped) => SolvedTable {
                scores: Default::default(),
            },
            Err(e) => panic!("a game small enough to solve: {e}"),
        }
    }

    /// Solves every reachable position of `game`, or says it has more
    /// than `limit`.
    pub(crate) fn try_build<G: Game<Position = P>>(
        game: &G,
        limit: usize,
    ) -> Result<Self, WalkError> {
        let mut solver = Solver::new(game);
        let scores = reachable(game, limit)?
            .into_iter()
            .map(|p| (p, solver.score(&p)))
            .collect();
        Ok(SolvedTable { scores })
    }

    /// How many positions are reachable from the start.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether the table is empty (never, for a built table).
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// Every reachable position.
    pub fn positions(&self) -> impl Iterator<Item = &P> {
        self.scores.keys()
    }

    /// The value of `pos` for the side to move, if reachable.
    pub fn get(&self, pos: &P) -> Option<Value> {
        self.score(pos).map(Score::value)
    }

    /// The exact score of `pos` for the side to move, if reachable.
    pub fn score(&self, pos: &P) -> Option<Score> {
        self.scores.get(pos).copied()
    }
}

/// A [`SolvedTable`] built on first use and shared from then on: one per
/// run, read by the exhaustive fitness and every audit.
pub struct SolvedOnce<P> {
    cell: OnceLock<Arc<SolvedTable<P>>>,
}

impl<P> Default for SolvedOnce<P> {
    fn default() -> Self {
        SolvedOnce {
            cell: OnceLock::new(),
        }
    }
}

impl<P: Copy + Eq + std::hash::Hash> SolvedOnce<P> {
    /// The table of `game`, solved now if this is the first request.
    pub(crate) fn get<G: Game<Position = P>>(&self, game: &G) -> &Arc<SolvedTable<P>> {
        self.cell.get_or_init(|| Arc::new(SolvedTable::build(game)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Matchsticks, MatchsticksRules, Notation, TakeRule, TicTacToe};

    #[test]
    fn tictactoe_is_a_draw_and_every_first_move_keeps_it() {
        let game = TicTacToe::BASE3;
        let mut solver = Solver::new(&game);
        assert_eq!(solver.value(&game.start()), Value::Draw);
        assert_eq!(solver.best_moves(&game.start()).len(), 9);
        // After X in a corner, O must take the centre.
        let pos = game.parse_position("1").unwrap();
        assert_eq!(solver.best_moves(&pos), vec![4]);
    }

    #[test]
    fn scores_count_plies_to_the_fastest_win_and_the_slowest_loss() {
        let game = TicTacToe::BASE3;
        let mut solver = Solver::new(&game);
        // X on cells 0, 1, 4 and O on 6, 8: O to move completes the bottom
        // row at cell 7.
        let pos = game.parse_position("17295").unwrap();
        assert_eq!(solver.score(&pos), Score::win_in(1));
        assert_eq!(Score::win_in(1).before(), Score::loss_in(2));
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::loss_in(4) > Score::loss_in(2));
        assert!(Score::loss_in(99) < Score::DRAW);
        // A finished game scores its outcome now.
        let won = game.parse_position("172958").unwrap();
        assert_eq!(solver.score(&won), Score::loss_in(0));
        assert_eq!(solver.score(&game.start()), Score::DRAW);
        // Matchsticks, 5 sticks, take 1-3, last stick loses: the mover is
        // lost (5 ≡ 1 mod 4), and whatever it takes, the winner leaves one
        // stick: the loser takes it on the third ply.
        let sticks = Matchsticks::new(MatchsticksRules {
            sticks: 5,
            rule: TakeRule::Subtract {
                max_take: 3,
                last_loses: true,
            },
        });
        assert_eq!(
            Solver::new(&sticks).score(&sticks.start()),
            Score::loss_in(3)
        );
    }

    fn subtract(sticks: u8, last_loses: bool) -> Matchsticks {
        Matchsticks::new(MatchsticksRules {
            sticks,
            rule: TakeRule::Subtract {
                max_take: 3,
                last_loses,
            },
        })
    }

    #[test]
    fn misere_max3_loses_for_the_mover_exactly_at_1_mod_4() {
        for n in 1..=100u8 {
            let game = subtract(n, true);
            let value = Solver::new(&game).value(&game.start());
            assert_eq!(value == Value::Loss, n % 4 == 1, "{n} sticks");
        }
    }

    #[test]
    fn normal_play_max3_loses_for_the_mover_exactly_at_0_mod_4() {
        for n in 1..=100u8 {
            let game = subtract(n, false);
            let value = Solver::new(&game).value(&game.start());
            assert_eq!(value == Value::Loss, n % 4 == 0, "{n} sticks");
        }
    }

    #[test]
    fn double_loses_for_the_first_player_exactly_at_fibonacci_numbers() {
        let fibonacci = [2u8, 3, 5, 8, 13, 21, 34, 55, 89];
        for n in 2..=100u8 {
            let game = Matchsticks::new(MatchsticksRules {
                sticks: n,
                rule: TakeRule::Double,
            });
            let value = Solver::new(&game).value(&game.start());
            assert_eq!(value == Value::Loss, fibonacci.contains(&n), "{n} sticks");
        }
    }
}
