//! A board as data, for drawing it somewhere other than a terminal (the
//! browser page of `bebete serve`): which cell holds whose stone, which cells
//! make the winning line, or how many sticks are left. Each game fills it in
//! from its own position type ([`crate::games::Notation::view`]).

use serde::Serialize;

/// What a position looks like.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BoardView {
    /// A grid of cells, rows from the top: tic-tac-toe and Connect-Four.
    Grid {
        /// Rows of the grid.
        rows: u32,
        /// Columns of the grid.
        columns: u32,
        /// One character per cell, row-major from the top left: `X` (the
        /// first player), `O` (the second) or `.` (empty).
        cells: String,
        /// Cells of the winning line(s), as indices into `cells`; empty
        /// unless the game was won.
        winning: Vec<u32>,
    },
    /// A triangle of holes: peg solitaire.
    Triangle {
        /// Rows of the triangle.
        rows: u32,
        /// One character per hole, hole 1 first: `o` (a peg) or `.`.
        pegs: String,
    },
    /// The 32 dark squares of a draughts board: checkers.
    Draughts {
        /// One character per square, square 1 first: `b`/`B` a black
        /// man/king, `w`/`W` a white man/king, `.` empty.
        squares: String,
    },
    /// A heap of sticks: matchsticks.
    Heap {
        /// Sticks left.
        sticks: u32,
        /// The most sticks the side to move may take.
        most: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::BoardView;
    use crate::games::{Connect4, Matchsticks, MatchsticksRules, Notation, TicTacToe};

    fn grid(view: BoardView) -> (String, Vec<u32>) {
        match view {
            BoardView::Grid { cells, winning, .. } => (cells, winning),
            other => panic!("a grid game drew {other:?}"),
        }
    }

    #[test]
    fn tictactoe_cells_and_the_winning_line() {
        let game = TicTacToe::BASE3;
        // X: 1, 5, 9 (the diagonal); O: 2, 3.
        let (cells, winning) = grid(game.view(&game.parse_position("12539").unwrap()));
        assert_eq!(cells, "XOO.X...X");
        assert_eq!(winning, vec![0, 4, 8]);
        let (_, winning) = grid(game.view(&game.parse_position("1253").unwrap()));
        assert!(winning.is_empty());
    }

    #[test]
    fn connect4_rows_run_from_the_top_and_the_four_is_marked() {
        let game = Connect4::SUBGRID;
        // X stacks column 1 four high; O plays column 2 three times.
        let (cells, winning) = grid(game.view(&game.parse_position("1212121").unwrap()));
        assert_eq!(cells.len(), 42);
        let bottom = &cells[35..];
        assert_eq!(bottom, "XO.....");
        assert_eq!(&cells[14..21], "X......", "the fourth stone of column 1");
        assert_eq!(winning, vec![14, 21, 28, 35]);
    }

    #[test]
    fn matchsticks_shows_the_heap_and_the_most_to_take() {
        let game = Matchsticks::new(MatchsticksRules::default());
        let pos = game.parse_position("3,3,3,3,3,3,1").unwrap();
        assert_eq!(game.view(&pos), BoardView::Heap { sticks: 2, most: 2 });
    }
}
