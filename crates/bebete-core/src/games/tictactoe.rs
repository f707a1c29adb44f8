//! Tic-tac-toe on a 3×3 board, cells 0–8 row-major from the top left.
//!
//! A position is two 9-bit masks (X's and O's stones); whose turn it is
//! follows from the stone counts, so one genome can play either side.

use super::{
    BoardView, Game, GameOptions, GenomeGame, GenomeKinds, InvalidRules, Kind, KindOf, MoveError,
    NTuple, Notation, Outcome, Pair, Registered, Side, ValueGenome, plain_number,
};
use crate::games::OptionError;

/// The eight lines of three, as cell masks.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// How a tic-tac-toe vote table indexes boards (the rules are the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TicTacToeEncoder {
    /// The board in base 3: one gene per board (the basic encoding).
    #[default]
    Base3,
    /// The 8 rotations and reflections of a board share one gene: the gene
    /// of the smallest base-3 index among them, its cell read in that frame.
    Symmetric,
}

impl TicTacToeEncoder {
    /// The encoder's name, as `--encoder` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TicTacToeEncoder::Base3 => "base3",
            TicTacToeEncoder::Symmetric => "symmetric",
        }
    }
}

/// Tic-tac-toe's rules (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe;

impl TicTacToe {
    /// Tic-tac-toe played by a vote table with the base-3 encoder (one
    /// gene per board).
    pub const BASE3: Pair<TicTacToe, TicTacToeEncoder> =
        Pair::new(TicTacToe, TicTacToeEncoder::Base3);

    /// The value genome's default shape: 40 tuples of 5 cells (every seed
    /// tried learns an unbeatable player within seconds; see
    /// docs/experiments.md).
    pub(crate) const NTUPLE: NTuple = NTuple {
        tuples: 40,
        length: 5,
    };
}

/// Tic-tac-toe with its genome kind as files store it: one tag per vote
/// encoder, then the value genome. Append only.
#[derive(serde::Serialize, serde::Deserialize)]
pub enum Stored {
    Base3,
    Symmetric,
    NTuple(NTuple),
}

impl GenomeKinds for TicTacToe {
    type Votes = TicTacToeEncoder;
    type Values = ValueGenome;
    type Stored = Stored;

    fn store(game: &GenomeGame<TicTacToe>) -> Stored {
        match game.kind {
            Kind::Votes(TicTacToeEncoder::Base3) => Stored::Base3,
            Kind::Votes(TicTacToeEncoder::Symmetric) => Stored::Symmetric,
            Kind::Value(genome) => Stored::NTuple(genome.shape),
        }
    }

    fn load(stored: Stored) -> Result<GenomeGame<TicTacToe>, String> {
        Ok(match stored {
            Stored::Base3 => GenomeGame::votes(TicTacToe, TicTacToeEncoder::Base3),
            Stored::Symmetric => GenomeGame::votes(TicTacToe, TicTacToeEncoder::Symmetric),
            Stored::NTuple(shape) => GenomeGame::value(TicTacToe, ValueGenome::drawn(shape)),
        })
    }
}

/// The vote table is TicTacToe's votes kind.
impl KindOf<TicTacToe> for TicTacToeEncoder {
    fn of(self) -> Kind<TicTacToe> {
        Kind::Votes(self)
    }
}

/// Stones of X (the first player) and O, bit k = cell k.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToePosition {
    pub(crate) x: u16,
    pub(crate) o: u16,
}

impl TicTacToePosition {
    /// The stones of `side`.
    pub(crate) fn stones(&self, side: Side) -> u16 {
        match side {
            Side::First => self.x,
            Side::Second => self.o,
        }
    }

    /// Empty cells as a mask.
    pub(crate) fn empty(&self) -> u16 {
        FULL & !(self.x | self.o)
    }
}

/// Whether the stones in `mask` complete a line.
pub fn has_line(mask: u16) -> bool {
    LINES.iter().any(|&line| (mask & line) ^ line == 0)
}

impl Registered for GenomeGame<TicTacToe> {
    const NAME: &'static str = "tictactoe";
    const TITLE: &'static str = "Tic-tac-toe";
    const ALIASES: &'static [&'static str] = &["ttt"];
    fn variants() -> Vec<Self> {
        vec![
            TicTacToe::BASE3.registered(),
            GenomeGame::votes(TicTacToe, TicTacToeEncoder::Symmetric),
            GenomeGame::value(TicTacToe, ValueGenome::drawn(TicTacToe::NTUPLE)),
        ]
    }

    fn from_options(options: &GameOptions) -> Result<Self, OptionError> {
        let default = if options.recommended {
            "symmetric"
        } else {
            "base3"
        };
        Ok(match options.encoder.as_deref().unwrap_or(default) {
            "base3" => TicTacToe::BASE3.registered(),
            "symmetric" => GenomeGame::votes(TicTacToe, TicTacToeEncoder::Symmetric),
            "ntuple" => GenomeGame::value(
                TicTacToe,
                ValueGenome::drawn(options.value_shape(TicTacToe::NTUPLE, 9)?),
            ),
            _ => {
                return Err(options.unknown_encoder(
                    Self::NAME,
                    &["base3", "symmetric", "ntuple"],
                    default,
                ));
            }
        })
    }

    fn encoder_name(&self) -> &'static str {
        self.encoder().map_or("ntuple", TicTacToeEncoder::name)
    }

    fn describe(&self) -> String {
        match self.kind {
            Kind::Votes(TicTacToeEncoder::Base3) => Self::NAME.to_string(),
            Kind::Votes(TicTacToeEncoder::Symmetric) => "tictactoe (symmetric encoder)".to_string(),
            Kind::Value(genome) => {
                format!("tictactoe (value genome, {} tuples)", genome.shape)
            }
        }
    }

    fn validate(&self) -> Result<(), InvalidRules> {
        match self.value_genome() {
            Some(shape) => shape.check(9).map_err(InvalidRules::from),
            None => Ok(()),
        }
    }

    fn value_genome(&self) -> Option<NTuple> {
        self.value_kind().map(|genome| genome.shape)
    }
}

impl Game for TicTacToe {
    type Position = TicTacToePosition;
    type Move = u8;

    fn start(&self) -> TicTacToePosition {
        TicTacToePosition::default()
    }

    fn turn(&self, pos: &TicTacToePosition) -> Side {
        Side::at_ply((pos.x | pos.o).count_ones())
    }

    fn outcome(&self, pos: &TicTacToePosition) -> Option<Outcome> {
        if has_line(pos.x) {
            Some(Outcome::Win(Side::First))
        } else if has_line(pos.o) {
            Some(Outcome::Win(Side::Second))
        } else if pos.empty() == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn legal_moves(&self, pos: &TicTacToePosition, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome(pos).is_some() {
            return;
        }
        let mut empty = pos.empty();
        while empty != 0 {
            moves.push(empty.trailing_zeros() as u8);
            empty &= empty - 1;
        }
    }

    fn is_legal(&self, pos: &TicTacToePosition, cell: u8) -> bool {
        cell < 9 && pos.empty() & (1 << cell) != 0 && self.outcome(pos).is_none()
    }

    fn play(&self, pos: &TicTacToePosition, cell: u8) -> TicTacToePosition {
        let bit = 1u16 << (cell % 9);
        let mut next = *pos;
        match self.turn(pos) {
            Side::First => next.x |= bit,
            Side::Second => next.o |= bit,
        }
        next
    }
}

impl Notation for TicTacToe {
    const MOVE_PROMPT: &'static str = "your move (cell 1-9, q to quit): ";

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        match plain_number(text) {
            Some(n @ 1..=9) => Ok(n as u8 - 1),
            _ => Err(MoveError::Syntax {
                expected: "a cell is a digit 1–9 (row-major from the top left)",
            }),
        }
    }

    fn format_move(&self, cell: u8) -> String {
        (cell + 1).to_string()
    }

    fn notation_separator(&self) -> &'static str {
        ""
    }

    fn why_illegal(&self, _pos: &TicTacToePosition, cell: u8) -> String {
        format!("cell {} is already taken", cell + 1)
    }

    fn view(&self, pos: &TicTacToePosition) -> BoardView {
        let cells = (0..9)
            .map(|k| {
                if pos.x & (1 << k) != 0 {
                    'X'
                } else if pos.o & (1 << k) != 0 {
                    'O'
                } else {
                    '.'
                }
            })
            .collect();
        let won = LINES
            .iter()
            .filter(|&&line| pos.x & line == line || pos.o & line == line)
            .fold(0u16, |all, &line| all | line);
        BoardView::Grid {
            rows: 3,
            columns: 3,
            cells,
            winning: (0..9).filter(|k| won & (1 << k) != 0).collect(),
        }
    }

    fn render(&self, pos: &TicTacToePosition) -> String {
        let mut out = String::new();
        for row in 0..3 {
            let cells: Vec<String> = (0..3)
                .map(|col| {
                    let k = row * 3 + col;
                    if pos.x & (1 << k) != 0 {
                        "X".to_string()
                    } else if pos.o & (1 << k) != 0 {
                        "O".to_string()
                    } else {
                        (k + 1).to_string()
                    }
                })
                .collect();
            out.push_str(&format!(" {} \n", cells.join(" | ")));
            if row < 2 {
                out.push_str("---+---+---\n");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct GameCounts {
        games: u64,
        x_wins: u64,
        o_wins: u64,
        draws: u64,
    }

    fn count_games(pos: TicTacToePosition, counts: &mut GameCounts, moves: &mut Vec<Vec<u8>>) {
        let game = TicTacToe::BASE3;
        match game.outcome(&pos) {
            Some(Outcome::Win(Side::First)) => counts.x_wins += 1,
            Some(Outcome::Win(Side::Second)) => counts.o_wins += 1,
            Some(Outcome::Draw) => counts.draws += 1,
            None => {
                let depth = (pos.x | pos.o).count_ones() as usize;
                let mut list = std::mem::take(&mut moves[depth]);
                game.legal_moves(&pos, &mut list);
                for &m in &list {
                    count_games(game.play(&pos, m), counts, moves);
                }
                moves[depth] = list;
                return;
            }
        }
        counts.games += 1;
    }

    #[test]
    fn complete_games_match_the_published_counts() {
        let mut counts = GameCounts::default();
        count_games(
            TicTacToe::BASE3.start(),
            &mut counts,
            &mut vec![Vec::new(); 10],
        );
        assert_eq!(counts.games, 255_168);
        assert_eq!(counts.x_wins, 131_184);
        assert_eq!(counts.o_wins, 77_904);
        assert_eq!(counts.draws, 46_080);
    }

    #[test]
    fn notation_round_trips_and_names_the_first_bad_move() {
        let game = TicTacToe::BASE3;
        let pos = game.parse_position("519").unwrap();
        assert_eq!(pos.x, (1 << 4) | (1 << 8));
        assert_eq!(pos.o, 1 << 0);
        let err = game.parse_position("5155").unwrap_err();
        assert_eq!(err.number, 3);
        let err = game.parse_position("50").unwrap_err();
        assert_eq!((err.number, err.text.as_str()), (2, "0"));
        // X wins on the top row; a further move is refused.
        let err = game.parse_position("1425367").unwrap_err();
        assert_eq!(err.number, 6);
        assert_eq!(err.reason, MoveError::GameOver, "{err}");
    }
}
