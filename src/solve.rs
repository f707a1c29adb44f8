//! Exact game values for the small games, by backward induction.
//!
//! A position is won for the side to move if some move leads to a position
//! lost for the opponent, lost if every move leads to a position won for the
//! opponent, drawn otherwise. Values are memoised, so each position and move
//! is visited once: linear in positions + moves. Tic-tac-toe (5,478
//! positions) and matchsticks (at most 256² states) are solved in
//! milliseconds; Connect-Four is far too large for this.

use crate::games::walk::{DEFAULT_NODE_LIMIT, WalkError, reachable};
use crate::games::{Game, Outcome};
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, OnceLock};

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Draw,
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

    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }
}

/// A memoising solver for one game.
pub struct Solver<G: Game> {
    game: G,
    values: HashMap<G::Position, Value>,
}

impl<G: Game> Solver<G> {
    pub fn new(game: &G) -> Self {
        Solver {
            game: game.clone(),
            values: HashMap::default(),
        }
    }

    /// The value of `pos` for the side to move.
    pub fn value(&mut self, pos: &G::Position) -> Value {
        if let Some(&v) = self.values.get(pos) {
            return v;
        }
        let value = match self.game.outcome(pos) {
            Some(Outcome::Draw) => Value::Draw,
            Some(Outcome::Win(side)) if side == self.game.turn(pos) => Value::Win,
            Some(Outcome::Win(_)) => Value::Loss,
            None => {
                let mut moves = Vec::new();
                self.game.legal_moves(pos, &mut moves);
                let mut best = Value::Loss;
                for mv in moves {
                    let next = self.game.play(pos, mv);
                    match self.value(&next).flip() {
                        Value::Win => {
                            best = Value::Win;
                            break;
                        }
                        Value::Draw => best = Value::Draw,
                        Value::Loss => {}
                    }
                }
                best
            }
        };
        self.values.insert(*pos, value);
        value
    }

    /// The moves of `pos` that keep its value.
    pub fn best_moves(&mut self, pos: &G::Position) -> Vec<G::Move> {
        let target = self.value(pos);
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        moves.retain(|&mv| self.value(&self.game.play(pos, mv)).flip() == target);
        moves
    }
}

/// The value of every position reachable from the start (the small games).
pub struct SolvedTable<P> {
    values: HashMap<P, Value>,
}

impl<P: Copy + Eq + std::hash::Hash> SolvedTable<P> {
    /// Solves every reachable position of `game`.
    ///
    /// # Panics
    /// When the game has more than [`DEFAULT_NODE_LIMIT`] positions
    /// (Connect-Four): use [`SolvedTable::try_build`] where that can happen.
    pub fn build<G: Game<Position = P>>(game: &G) -> Self {
        Self::try_build(game, DEFAULT_NODE_LIMIT).expect("a game small enough to solve")
    }

    /// Solves every reachable position of `game`, or says it has more
    /// than `limit`.
    pub fn try_build<G: Game<Position = P>>(game: &G, limit: usize) -> Result<Self, WalkError> {
        let mut solver = Solver::new(game);
        let values = reachable(game, limit)?
            .into_iter()
            .map(|p| (p, solver.value(&p)))
            .collect();
        Ok(SolvedTable { values })
    }

    /// How many positions are reachable from the start.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table is empty (never, for a built table).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every reachable position.
    pub fn positions(&self) -> impl Iterator<Item = &P> {
        self.values.keys()
    }

    /// The value of `pos` for the side to move, if reachable.
    pub fn get(&self, pos: &P) -> Option<Value> {
        self.values.get(pos).copied()
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
    pub fn get<G: Game<Position = P>>(&self, game: &G) -> &Arc<SolvedTable<P>> {
        self.cell.get_or_init(|| Arc::new(SolvedTable::build(game)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Matchsticks, MatchsticksRules, TakeRule, TicTacToe};

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
