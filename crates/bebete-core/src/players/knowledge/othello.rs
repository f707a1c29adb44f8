//! What the fixed opponents know of Othello: the standard weighted piece
//! counter (WPC) and, for `rules`, the squares it prizes. There is no
//! exact solver.

use super::Knowledge;
use crate::games::{Othello, OthelloPosition};

/// The weighted piece counter of the Othello papers (Yoshioka et al.'s
/// weights, as Lucas and Runarsson and Szubert et al. use them), in
/// hundredths, row by row from a1: corners 1.00, the squares next to a
/// corner −0.25, and so on.
#[rustfmt::skip]
pub const WPC: [i32; 64] = [
    100, -25, 10,  5,  5, 10, -25, 100,
    -25, -25,  1,  1,  1,  1, -25, -25,
     10,   1,  5,  2,  2,  5,   1,  10,
      5,   1,  2,  1,  1,  2,   1,   5,
      5,   1,  2,  1,  1,  2,   1,   5,
     10,   1,  5,  2,  2,  5,   1,  10,
    -25, -25,  1,  1,  1,  1, -25, -25,
    100, -25, 10,  5,  5, 10, -25, 100,
];

/// Σ of the weights of the squares in `discs`.
fn weighted(discs: u64) -> i32 {
    let mut sum = 0;
    let mut rest = discs;
    while rest != 0 {
        sum += WPC[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    sum
}

impl Knowledge for Othello {
    const RULES_PLAYER: &'static str = "win at once, corners first, never next to one";
    const SOLVABLE: bool = false;
    const WEIGHTED_PIECES: bool = true;

    /// `rules`: the squares from the highest weight down (corners first,
    /// the squares next to a corner last), each weight a class.
    fn preference_classes(&self) -> Vec<Vec<u8>> {
        let mut weights: Vec<i32> = WPC.to_vec();
        weights.sort_unstable_by(|a, b| b.cmp(a));
        weights.dedup();
        weights
            .into_iter()
            .map(|w| (0..64u8).filter(|&s| WPC[s as usize] == w).collect())
            .collect()
    }

    fn opponent_wins_by(&self, _pos: &OthelloPosition, _mv: u8) -> bool {
        false
    }

    /// The WPC for the side to move: its discs' weights minus the
    /// opponent's.
    fn heuristic(&self, pos: &OthelloPosition) -> i32 {
        let (me, them) = pos.sides();
        weighted(me) - weighted(them)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Notation};

    #[test]
    fn the_counter_is_symmetric_and_zero_at_the_start() {
        for s in 0..8 {
            for q in 0..64 {
                assert_eq!(
                    WPC[q],
                    WPC[crate::games::othello_symmetric_square(s, q)],
                    "square {q}"
                );
            }
        }
        let game = Othello::STRAIGHT;
        assert_eq!(game.heuristic(&game.start()), 0);
        // Black on a1 and h8, White on b2: 100 + 100 - (-25) for Black.
        let board = format!("X{}.O{}X X", ".".repeat(7), ".".repeat(53));
        let pos = game.parse_position(&board).unwrap();
        assert_eq!(game.heuristic(&pos), 225);
    }
}
