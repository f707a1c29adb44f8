//! The rules of the games (five for two players: tic-tac-toe, matchsticks,
//! Connect-Four, checkers and Othello; peg solitaire for one), behind one
//! [`Game`] trait.
//!
//! The trait is deliberately small — start, turn, legal moves, play, outcome and
//! the position notation — so that every consumer (the evolution loop, the
//! players, the solver, the command line) is written once, generically. Each
//! game lives in its own file, holding its rules and nothing of genomes.
//! [`GenomeGame`] pairs a game's rules with the kind of genome that plays
//! them ([`Kind`]: its vote table, or a [`ValueGenome`]); each game is
//! registered once as that pair (`spec.rs`, see [`Registered`]); a
//! serialisable [`GameSpec`] names a game, its rules and its genome kind as
//! data, and the layers above run generic code with the concrete type
//! (`encoding::visit_table_game`, `dispatch`).

mod checkers;
mod connect4;
mod kind;
mod matchsticks;
mod othello;
mod registry;
mod solitaire;
mod spec;
mod tictactoe;
mod tuples;
mod view;
pub mod walk;

mod invariants;
pub use invariants::{BrokenInvariant, check_moves};

pub use checkers::{
    Checkers, CheckersEncoder, CheckersMove, CheckersPosition, FenError,
    square_at as checkers_square_at,
};
pub use connect4::{
    Connect4, Connect4Encoder, Connect4Position, HEIGHT as CONNECT4_HEIGHT,
    STRIDE as CONNECT4_STRIDE, WIDTH as CONNECT4_WIDTH, bottom_mask as connect4_bottom_mask,
    has_four as connect4_has_four,
};
pub use kind::{GenomeGame, GenomeKinds, Kind, KindOf, NoGenome, Pair, Placement, ValueGenome};
pub use matchsticks::{
    Matchsticks, MatchsticksEncoder, MatchsticksPosition, MatchsticksRules, TakeRule, TakeRuleName,
};
#[cfg(test)]
pub(crate) use othello::ending_by_minimax as othello_ending_by_minimax;
pub use othello::{Othello, OthelloPosition, PASS as OTHELLO_PASS};
pub(crate) use othello::{
    pattern_tuples, straight_tuples, symmetric_square as othello_symmetric_square,
};
pub use registry::{Fault, GameOptions, OptionError, Registered, RuleObject, Spelling};
pub use solitaire::{
    Jump, MAX_ROWS as SOLITAIRE_MAX_ROWS, MIN_ROWS as SOLITAIRE_MIN_ROWS, PegBits, Solitaire,
    SolitairePosition, SolitaireRules, SolitaireRulesError, jumps as solitaire_jumps,
};
pub use spec::{BuiltIn, GameId, GameName, GameSpec, Identified, InvalidRules, UnknownGame};
pub(crate) use spec::{with_game, with_pair};
pub use tictactoe::{
    LINES as TICTACTOE_LINES, TicTacToe, TicTacToeEncoder, TicTacToePosition,
    has_line as tictactoe_has_line,
};
pub use tuples::{MAX_STAGES, MAX_TUPLE_LENGTH, MAX_TUPLES, NTuple, ShapeError};
pub use view::BoardView;

use std::fmt::Debug;
use std::hash::Hash;

/// One of the two players. `First` moves first (X in tic-tac-toe).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// The side that moves at `ply` (0-based count of moves already played).
    pub(crate) fn at_ply(ply: u32) -> Side {
        if ply.is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// Points for `side` under the round-robin scoring: win 2, draw 1, loss 0.
    pub fn points(self, side: Side) -> u32 {
        match self {
            Outcome::Win(winner) if winner == side => 2,
            Outcome::Win(_) => 0,
            Outcome::Draw => 1,
        }
    }
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move of this game; says what a move looks like.
    #[error("{expected}")]
    /// The text is not a move in the notation.
    Syntax {
        /// What the notation expects, in words.
        expected: &'static str,
    },
    /// The game is over: no move is legal.
    #[error("the game is already over")]
    GameOver,
    /// A move of this game, but not legal here; why, in words.
    #[error("{0}")]
    Illegal(String),
}

/// A move's number as the notation writes it: decimal digits only, with no
/// sign and no leading zero (`4`, not `+4` or `04`), so that each move has
/// one spelling.
pub(crate) fn plain_number(text: &str) -> Option<u32> {
    let digits = text.bytes().all(|b| b.is_ascii_digit());
    let canonical = !text.starts_with('0') || text == "0";
    if text.is_empty() || text.len() > 9 || !digits || !canonical {
        return None;
    }
    text.parse().ok()
}

/// Why a move in a position-notation string was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ('{text}'): {reason}")]
pub struct NotationError {
    /// 1-based number of the offending move in the sequence.
    pub number: usize,
    /// The move as written.
    pub(crate) text: String,
    /// What is wrong with it.
    pub reason: MoveError,
}

/// The rules of one game.
///
/// Positions are small `Copy` values; playing a move returns a new position.
/// Implementations must be cheap to clone (they carry only rule parameters).
///
/// ```
/// use bebete_core::games::{Game, Notation, Outcome, Side, TicTacToe};
///
/// let game = TicTacToe;
/// let mut pos = game.start();
/// let mut moves = Vec::new();
/// game.legal_moves(&pos, &mut moves);
/// assert_eq!(moves.len(), 9);
/// // X takes the top row while O plays the middle one.
/// for cell in ["1", "4", "2", "5", "3"] {
///     let mv = game.parse_move(cell).unwrap();
///     assert!(game.is_legal(&pos, mv));
///     pos = game.play(&pos, mv);
/// }
/// assert_eq!(game.outcome(&pos), Some(Outcome::Win(Side::First)));
/// assert!(game.parse_move("10").is_err());
/// ```
pub trait Game: Clone + Send + Sync + 'static {
    /// A board state, including whose turn it is.
    type Position: Copy + Eq + Hash + Debug + Send + Sync;
    /// A move: a cell, a column or a number of sticks.
    type Move: Copy + Eq + Debug + Send + Sync;

    /// Random plies played before each pair of measured games: games whose
    /// deterministic players would otherwise repeat one game use some.
    const DEFAULT_OPENINGS: u32 = 0;
    /// Players of the game: 2, or 1 for a puzzle (peg solitaire), where
    /// the one player is always [`Side::First`] and a win means the best
    /// ending (one peg).
    const PLAYERS: u8 = 2;

    /// The starting position.
    fn start(&self) -> Self::Position;
    /// The side to move.
    fn turn(&self, pos: &Self::Position) -> Side;
    /// `Some` once the game is over.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome>;
    /// Appends the legal moves of `pos` to `moves` (after clearing it), in a
    /// fixed order. A finished position has none.
    fn legal_moves(&self, pos: &Self::Position, moves: &mut Vec<Self::Move>);
    /// Whether `mv` may be played in `pos` (false once the game is over).
    fn is_legal(&self, pos: &Self::Position, mv: Self::Move) -> bool;
    /// Plays a legal move. Playing an illegal move is a logic error: the
    /// result is unspecified (but memory-safe).
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// One-player games: the pieces left (fewer is better; pegs in
    /// solitaire). Two-player games have none to count: 0.
    fn pieces_left(&self, _pos: &Self::Position) -> u32 {
        0
    }
    /// Every legal move of `pos` with its exact final result for the side
    /// that plays it, when the game can search the rest of the game from
    /// there quickly (Othello's last 12 empty squares: the disc
    /// difference); the best moves are those with the highest score.
    /// `None` elsewhere, and for a game without such a search (the
    /// default). `alphabeta:D` and a value genome's search of 2 plies or
    /// more play such an ending exactly.
    fn exact_ending(&self, _pos: &Self::Position) -> Option<Vec<(Self::Move, i32)>> {
        None
    }
    /// Move sequences of exactly `depth` plies from `pos`: the perft count
    /// ([`walk::perft`]); a game with a faster count of its own (Othello's
    /// bitboards) gives it.
    fn perft(&self, pos: &Self::Position, depth: u32) -> u64 {
        walk::perft(self, pos, depth)
    }
    /// Whether `mv` is a pass: the move of a side with nothing else to
    /// play (Othello's), which `play` offers with Enter. None by default.
    fn is_pass(&self, _mv: Self::Move) -> bool {
        false
    }
}

/// How a game is written and drawn for people, apart from its rules
/// ([`Game`]): the notation of moves and positions, the board as text
/// for the terminal and as data for the page, and the words `play`
/// prompts with. Search, evolution and the fixed players need only
/// [`Game`]; what reads or shows a position needs this too.
pub trait Notation: Game {
    /// What a person is asked for at their turn in `play`.
    const MOVE_PROMPT: &'static str;
    /// The two sides as `play` names them, the first mover first.
    const SIDE_NAMES: [&'static str; 2] = ["X", "O"];
    /// Parses one move of the position notation, without checking legality.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// Writes one move in the position notation.
    fn format_move(&self, mv: Self::Move) -> String;
    /// The separator between moves in the notation (`""` or `","`).
    fn notation_separator(&self) -> &'static str;
    /// A multi-line drawing of the board with its coordinates.
    fn render(&self, pos: &Self::Position) -> String;
    /// The board as `play` shows it, with `last` (the move just played)
    /// marked and a winning line shown, where the game draws them.
    fn render_play(&self, pos: &Self::Position, _last: Option<Self::Move>) -> String {
        self.render(pos)
    }
    /// The board as data, for drawing it elsewhere (the browser).
    fn view(&self, pos: &Self::Position) -> BoardView;
    /// Why `mv` is illegal in the unfinished position `pos`, in words.
    fn why_illegal(&self, _pos: &Self::Position, mv: Self::Move) -> String {
        format!("{} is not a legal move here", self.format_move(mv))
    }
    /// Plays `mv` if it is legal, or says why not.
    fn try_play(&self, pos: &Self::Position, mv: Self::Move) -> Result<Self::Position, MoveError> {
        if self.outcome(pos).is_some() {
            Err(MoveError::GameOver)
        } else if self.is_legal(pos, mv) {
            Ok(self.play(pos, mv))
        } else {
            Err(MoveError::Illegal(self.why_illegal(pos, mv)))
        }
    }
    /// Reads a whole position in the notation (the moves played from the
    /// start), naming the first bad move on failure.
    fn parse_position(&self, text: &str) -> Result<Self::Position, NotationError> {
        self.parse_moves(text)
    }
    /// Plays the moves of a notation string from the start, naming the
    /// first bad move on failure (what [`Notation::parse_position`] does unless
    /// a game also reads positions written otherwise).
    fn parse_moves(&self, text: &str) -> Result<Self::Position, NotationError> {
        let text = text.trim();
        let mut pos = self.start();
        for (i, token) in self.split_notation(text).into_iter().enumerate() {
            let fail = |reason: MoveError| NotationError {
                number: i + 1,
                text: token.to_string(),
                reason,
            };
            let mv = self.parse_move(token).map_err(fail)?;
            pos = self.try_play(&pos, mv).map_err(fail)?;
        }
        Ok(pos)
    }
    /// Splits a notation string into the text of each move.
    fn split_notation<'a>(&self, text: &'a str) -> Vec<&'a str> {
        if text.is_empty() {
            return Vec::new();
        }
        match self.notation_separator() {
            "" => text
                .char_indices()
                .map(|(i, c)| &text[i..i + c.len_utf8()])
                .collect(),
            sep => text.split(sep).map(str::trim).collect(),
        }
    }
    /// Writes a move sequence in the notation.
    fn format_line(&self, moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(|&m| self.format_move(m))
            .collect::<Vec<_>>()
            .join(self.notation_separator())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_number_has_one_spelling() {
        assert_eq!(plain_number("4"), Some(4));
        assert_eq!(plain_number("0"), Some(0));
        assert_eq!(plain_number("32"), Some(32));
        for text in [
            "+4",
            "04",
            "-4",
            " 4",
            "4 ",
            "",
            "4.0",
            "٤",
            "0x4",
            "1234567890",
        ] {
            assert_eq!(plain_number(text), None, "{text:?}");
        }
        // Every game's moves: a sign or a leading zero is refused.
        assert!(Connect4::SUBGRID.parse_move("+4").is_err());
        assert!(Connect4::SUBGRID.parse_move("04").is_err());
        assert!(TicTacToe::BASE3.parse_move("+5").is_err());
        assert!(TicTacToe::BASE3.parse_move("05").is_err());
        assert!(Checkers::SUBGRID.parse_move("+11-15").is_err());
        assert!(Checkers::SUBGRID.parse_move("011-15").is_err());
        assert!(Checkers::SUBGRID.parse_move("11-15").is_ok());
    }
}
