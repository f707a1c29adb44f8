//! A game played by genomes of one kind: a game's rules apart from the
//! kind of genome that plays them ([`Kind`]), and the genome kinds each
//! game has ([`GenomeKinds`]).
//!
//! A game's rules type (`Connect4`, `Othello`, …) knows nothing of
//! genomes: the solver, the fixed players, perft and the page need only
//! it. A genome kind is how a gene table reads a position and plays a
//! move: the game's vote table (its encoders: tic-tac-toe's base 3,
//! Connect-Four's sub-grid windows, …) or the value genome
//! ([`ValueGenome`], written once in `encoding::ntuple` over the board
//! view a game gives). [`GenomeGame`] is the rules with a kind chosen among
//! the game's, as the command line and files name it; [`Pair`] is the
//! rules with one kind as a type, what the engine evolves and plays (each
//! kind's `encoding::TableGame` for its pairs says how it reads the rules).

use super::{BoardView, Game, MoveError, NTuple, Notation, NotationError, Outcome, Side};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;
use std::hash::Hash;

/// No genome of this kind: the value of a kind a game does not have (no
/// vote table for Othello, no value genome for a game without a board
/// view). It has no values, so a [`GenomeGame`] of it cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoGenome {}

/// The genome kinds a game's rules have, and how files store the game
/// with its kind.
pub trait GenomeKinds: Game + Copy + Debug + PartialEq + Eq + Hash {
    /// Its vote-table genome (its encoders), or [`NoGenome`].
    type Votes: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// Its value genome ([`ValueGenome`], over its board view), or
    /// [`NoGenome`].
    type Values: Copy + Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// The game with its kind as files store it: a frozen form whose tags
    /// are pinned (`stored_tags_are_pinned`: append only).
    type Stored: Serialize + DeserializeOwned;

    /// The stored form of `game`.
    fn store(game: &GenomeGame<Self>) -> Self::Stored;
    /// The game a stored form names; an error for a retired kind (what
    /// reading the file says).
    fn load(stored: Self::Stored) -> Result<GenomeGame<Self>, String>;
}

/// Which kind of genome plays a game, with that kind's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind<R: GenomeKinds> {
    /// The text's vote table, read through one of the game's encoders.
    Votes(R::Votes),
    /// The value genome: tuples of cells learning by self-play.
    Value(R::Values),
}

/// A game's rules with the kind of genome that plays it: what the engine
/// evolves, stores in files and plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenomeGame<R: GenomeKinds> {
    /// The game's rules.
    pub rules: R,
    pub(crate) kind: Kind<R>,
}

impl<R: GenomeKinds> GenomeGame<R> {
    /// The rules played by a vote table read through `encoder`.
    pub(crate) const fn votes(rules: R, encoder: R::Votes) -> Self {
        GenomeGame {
            rules,
            kind: Kind::Votes(encoder),
        }
    }

    /// The rules played by a value genome.
    pub const fn value(rules: R, genome: R::Values) -> Self {
        GenomeGame {
            rules,
            kind: Kind::Value(genome),
        }
    }

    /// The vote table's encoder, when the genome is a vote table.
    pub(crate) fn encoder(&self) -> Option<R::Votes> {
        match self.kind {
            Kind::Votes(encoder) => Some(encoder),
            Kind::Value(_) => None,
        }
    }

    /// The value genome, when the genome is one.
    pub(crate) fn value_kind(&self) -> Option<R::Values> {
        match self.kind {
            Kind::Value(genome) => Some(genome),
            Kind::Votes(_) => None,
        }
    }
}

impl<R: GenomeKinds> Serialize for GenomeGame<R> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        R::store(self).serialize(serializer)
    }
}

impl<'de, R: GenomeKinds> Deserialize<'de> for GenomeGame<R> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        R::load(R::Stored::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

/// A game's rules with the one genome kind that plays them: the engine's
/// generic unit. Each kind implements the genome trait, `TableGame` (in
/// the `encoding` layer above), for its pairs once (a vote
/// table's encoder for its game, the value genome for every game with a
/// board view), and the command line's choice among a game's kinds
/// ([`GenomeGame`]) becomes one of these when the engine runs it.
///
/// ```
/// use bebete_core::encoding::{Learns, TableGame};
/// use rand::SeedableRng;
/// use bebete_core::games::{BuiltIn, Connect4, GenomeGame, NTuple, Pair, ValueGenome};
///
/// let game = Pair::new(Connect4, ValueGenome::drawn(NTuple { tuples: 70, length: 8 }));
/// assert!(game.as_learner().is_some()); // the value genome learns
/// let mut genes = vec![0; game.gene_count()];
/// game.fill_random(&mut genes, &mut rand_pcg::Pcg64Mcg::seed_from_u64(1));
/// assert_eq!(game.learning(&genes).params.games, 0); // `Learns`: its schedule
/// assert_eq!(game.registered(), GenomeGame::value(Connect4, game.kind));
/// assert_eq!(game.spec().encoder_name(), "ntuple");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair<R, K> {
    /// The game's rules.
    pub rules: R,
    /// The genome kind that reads them.
    pub kind: K,
}

impl<R, K> Pair<R, K> {
    /// `rules` played by a genome of `kind`.
    pub const fn new(rules: R, kind: K) -> Self {
        Pair { rules, kind }
    }
}

/// A genome kind of the rules `R`: which of its [`Kind`]s it is (a kind's
/// type is a value a pair holds across threads).
pub trait KindOf<R: GenomeKinds>: Copy + Send + Sync + 'static {
    /// The kind as a value of the rules' choice of kinds.
    fn of(self) -> Kind<R>;
}

/// The value genome is the value kind of every game whose rules have it.
impl<R: GenomeKinds<Values = ValueGenome>> KindOf<R> for ValueGenome {
    fn of(self) -> Kind<R> {
        Kind::Value(self)
    }
}

impl<R: GenomeKinds, K: KindOf<R>> Pair<R, K> {
    /// The choice of kind this pair is, as files and the command line
    /// name it.
    pub fn registered(&self) -> GenomeGame<R> {
        GenomeGame {
            rules: self.rules,
            kind: self.kind.of(),
        }
    }
}

/// The rules are the game's: every method is the rules', written once for
/// every pair.
impl<R: Game, K: Copy + Send + Sync + 'static> Game for Pair<R, K> {
    type Position = R::Position;
    type Move = R::Move;

    const DEFAULT_OPENINGS: u32 = R::DEFAULT_OPENINGS;
    const PLAYERS: u8 = R::PLAYERS;

    fn start(&self) -> R::Position {
        self.rules.start()
    }
    fn turn(&self, pos: &R::Position) -> Side {
        self.rules.turn(pos)
    }
    fn outcome(&self, pos: &R::Position) -> Option<Outcome> {
        self.rules.outcome(pos)
    }
    fn legal_moves(&self, pos: &R::Position, moves: &mut Vec<R::Move>) {
        self.rules.legal_moves(pos, moves)
    }
    fn is_legal(&self, pos: &R::Position, mv: R::Move) -> bool {
        self.rules.is_legal(pos, mv)
    }
    fn play(&self, pos: &R::Position, mv: R::Move) -> R::Position {
        self.rules.play(pos, mv)
    }
    fn pieces_left(&self, pos: &R::Position) -> u32 {
        self.rules.pieces_left(pos)
    }
    fn exact_ending(&self, pos: &R::Position) -> Option<Vec<(R::Move, i32)>> {
        self.rules.exact_ending(pos)
    }
    fn perft(&self, pos: &R::Position, depth: u32) -> u64 {
        self.rules.perft(pos, depth)
    }
    fn is_pass(&self, mv: R::Move) -> bool {
        self.rules.is_pass(mv)
    }
}

impl<R: Notation, K: Copy + Send + Sync + 'static> Notation for Pair<R, K> {
    const MOVE_PROMPT: &'static str = R::MOVE_PROMPT;

    const SIDE_NAMES: [&'static str; 2] = R::SIDE_NAMES;

    fn parse_move(&self, text: &str) -> Result<R::Move, MoveError> {
        self.rules.parse_move(text)
    }

    fn format_move(&self, mv: R::Move) -> String {
        self.rules.format_move(mv)
    }

    fn notation_separator(&self) -> &'static str {
        self.rules.notation_separator()
    }

    fn render(&self, pos: &R::Position) -> String {
        self.rules.render(pos)
    }

    fn render_play(&self, pos: &R::Position, last: Option<R::Move>) -> String {
        self.rules.render_play(pos, last)
    }

    fn view(&self, pos: &R::Position) -> BoardView {
        self.rules.view(pos)
    }

    fn why_illegal(&self, pos: &R::Position, mv: R::Move) -> String {
        self.rules.why_illegal(pos, mv)
    }

    fn try_play(&self, pos: &R::Position, mv: R::Move) -> Result<R::Position, MoveError> {
        self.rules.try_play(pos, mv)
    }

    fn parse_position(&self, text: &str) -> Result<R::Position, NotationError> {
        self.rules.parse_position(text)
    }

    fn parse_moves(&self, text: &str) -> Result<R::Position, NotationError> {
        self.rules.parse_moves(text)
    }

    fn split_notation<'a>(&self, text: &'a str) -> Vec<&'a str> {
        self.rules.split_notation(text)
    }

    fn format_line(&self, moves: &[R::Move]) -> String {
        self.rules.format_line(moves)
    }
}

/// Where a value genome's tuples come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Random walks over the board, redrawn by mutation.
    Drawn,
    /// One tuple on every class of straight lines of the tuples' length
    /// (the board view's straight tuples: Othello's), kept fixed: mutation
    /// changes only the weights and the learning settings.
    Straight,
    /// The board view's hand-placed patterns (Othello's: rows, diagonals,
    /// edges and corner blocks, the classic tables of Othello programs),
    /// kept fixed like the straight tuples.
    Patterns,
}

/// The value genome: tuples of cells with a weight per tuple state, a
/// position's value from their sum, learning by TD(λ) self-play
/// (`encoding::ntuple`, written once for every game that gives a board
/// view).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueGenome {
    /// How many tuples, of how many cells.
    pub(crate) shape: NTuple,
    pub(crate) placement: Placement,
}

impl ValueGenome {
    /// Tuples drawn as random walks.
    pub const fn drawn(shape: NTuple) -> Self {
        ValueGenome {
            shape,
            placement: Placement::Drawn,
        }
    }

    /// Tuples on every class of straight lines ([`Placement::Straight`]).
    pub(crate) const fn straight(shape: NTuple) -> Self {
        ValueGenome {
            shape,
            placement: Placement::Straight,
        }
    }

    /// The board view's patterns ([`Placement::Patterns`]).
    pub(crate) const fn patterns(shape: NTuple) -> Self {
        ValueGenome {
            shape,
            placement: Placement::Patterns,
        }
    }
}
