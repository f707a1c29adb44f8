//! Exact game values for the small games, by backward induction.
//!
//! A position is won for the side to move if some move leads to a position
//! lost for the opponent, lost if every move leads to a position won for the
//! opponent, drawn otherwise. Values are memoised, so each position and move
//! is visited once: linear in positions + moves. Tic-tac-toe (5,478
//! positions) and matchsticks (at most 256² states) are solved in
//! milliseconds; Connect-Four is far too large for this.

use crate::games::{Game, Outcome};
use rustc_hash::FxHashMap as HashMap;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

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
}
