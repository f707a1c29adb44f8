//! From a game named as data ([`GameSpec`]) to generic code run with the
//! concrete game type: the one place where the whole program chooses a game
//! at run time.
//!
//! It sits above the players because the code it runs (evolution, matches,
//! audits, the commands) needs both the genome side of a game
//! ([`TableGame`](crate::encoding::TableGame)) and what the fixed opponents know about it
//! ([`Knowledge`]). Code below the players that needs only genomes uses
//! [`crate::encoding::visit_table_game`].

use crate::games::{BuiltIn, GameSpec, with_pair};
use crate::players::Playable;
use crate::players::{Knowledge, NotAPuzzle, PuzzleVisitor};

/// A built-in game ready to play: [`Playable`], and named as data by a
/// [`GameSpec`] ([`BuiltIn`]). The games [`Dispatch::visit`] runs code
/// with; the name stands for the bound.
pub trait BuiltInGame: Playable + BuiltIn {}

impl<G: Playable + BuiltIn> BuiltInGame for G {}

/// Something to do with a concrete game type; see [`Dispatch::visit`].
pub trait GameVisitor {
    /// What the visit gives back.
    type Output;
    /// Does the work with the concrete game.
    fn visit<G: BuiltInGame>(self, game: G) -> Self::Output;
}

/// Runs a [`GameVisitor`] with the concrete game of a spec.
pub trait Dispatch {
    /// Runs `visitor` with this spec's concrete game.
    fn visit<V: GameVisitor>(self, visitor: V) -> V::Output;
}

impl Dispatch for GameSpec {
    fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        with_pair!(self, game => visitor.visit(game))
    }
}

/// Runs a [`PuzzleVisitor`] with the game of `spec`, when it is a puzzle
/// ([`Knowledge::visit_puzzle`]).
pub fn visit_puzzle<V: PuzzleVisitor>(spec: GameSpec, visitor: V) -> Result<V::Output, NotAPuzzle> {
    with_pair!(spec, game => game.visit_puzzle(visitor))
}

/// What a game can do, read off its traits: for the code that holds only
/// a [`GameSpec`] (validating a configuration before any game value
/// exists), and for the run of a game from outside this crate
/// (`Abilities::of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abilities {
    /// The whole game can be solved in memory ([`Knowledge::SOLVABLE`]):
    /// exact audits, the exhaustive fitness, `--target unbeatable`.
    pub solvable: bool,
    /// Genes carry a weight ([`TableGame::WEIGHTED_GENES`](crate::encoding::TableGame::WEIGHTED_GENES)): `--init zero`.
    pub(crate) weighted_genes: bool,
    /// Random plies before measured games ([`crate::games::Game::DEFAULT_OPENINGS`]).
    pub(crate) default_openings: u32,
    /// Learns from a solver-labelled position bank ([`Knowledge::BANKED`]):
    /// the `bank` fitness, the `optimal_rate` benchmark, `genome polish`.
    pub banked: bool,
    /// Players: 2, or 1 for a puzzle ([`crate::games::Game::PLAYERS`]).
    pub players: u8,
    /// The genome is a value genome that learns by self-play
    /// ([`TableGame::as_learner`](crate::encoding::TableGame::as_learner)): `--self-play`, a population of one.
    pub(crate) learns: bool,
    /// `Some(the boards that are)` when every reachable position cannot
    /// be read in memory ([`Knowledge::too_large_to_read`]).
    pub(crate) too_large_to_read: Option<&'static str>,
    /// Pieces on the board at the start ([`crate::games::Game::pieces_left`]):
    /// what a one-player game can remove.
    pub(crate) start_pieces: u32,
    /// The most plies its genomes may look ahead
    /// (`crate::encoding::shell::lookahead_limit`).
    pub(crate) max_lookahead: u8,
}

impl Abilities {
    /// The abilities of the game type `G`.
    pub(crate) fn of<G: Playable>(game: &G) -> Abilities {
        Abilities {
            learns: game.as_learner().is_some(),
            solvable: G::SOLVABLE,
            weighted_genes: G::WEIGHTED_GENES,
            default_openings: G::DEFAULT_OPENINGS,
            banked: G::BANKED,
            players: G::PLAYERS,
            too_large_to_read: game.too_large_to_read(),
            start_pieces: game.pieces_left(&game.start()),
            max_lookahead: crate::encoding::shell::lookahead_limit(game),
        }
    }
}

struct AbilitiesOf;

impl GameVisitor for AbilitiesOf {
    type Output = Abilities;
    fn visit<G: BuiltInGame>(self, game: G) -> Abilities {
        Abilities::of(&game)
    }
}

/// The abilities of the game `spec` names.
pub fn abilities(spec: GameSpec) -> Abilities {
    spec.visit(AbilitiesOf)
}

struct FixedPlayersOf;

impl GameVisitor for FixedPlayersOf {
    type Output = Vec<crate::players::FixedPlayer>;
    fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
        crate::players::fixed_players(&game)
    }
}

/// The fixed players the game `spec` names can face
/// (`crate::players::fixed_players`).
pub fn fixed_players(spec: GameSpec) -> Vec<crate::players::FixedPlayer> {
    spec.visit(FixedPlayersOf)
}

struct Builds<'a>(&'a crate::players::PlayerSpec);

impl GameVisitor for Builds<'_> {
    type Output = Result<(), crate::players::PlayerError>;
    fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
        let policy = crate::encoding::IllegalPolicy::Repair;
        self.0.factory(&game, policy).map(drop)
    }
}

/// Whether `player` can play the game `spec` names: `Err` says why not
/// (`perfect` where the game has no exact solver, say), as the command
/// line says it. A genome's file is read to check its game.
pub fn check_player(
    spec: GameSpec,
    player: &crate::players::PlayerSpec,
) -> Result<(), crate::players::PlayerError> {
    spec.visit(Builds(player))
}

/// The built-in games of which some variant (an encoder, a rule) has what
/// `has` asks, by their command-line names in the registry's order,
/// joined for a sentence with `last` before the last
/// (`tictactoe, connect4, checkers or othello`): messages and help name
/// the games that can do a thing from the registry, never from a list
/// typed by hand.
pub fn games_with(has: impl Fn(&Abilities) -> bool, last: &str) -> String {
    let names: Vec<&str> = crate::games::GameName::ALL
        .iter()
        .filter(|kind| {
            kind.variants()
                .into_iter()
                .any(|spec| has(&abilities(spec)))
        })
        .map(|kind| kind.name())
        .collect();
    if names.is_empty() {
        return "none".to_string();
    }
    crate::store::listed(&names, last)
}

#[cfg(test)]
mod tests {
    #[test]
    fn games_are_listed_by_what_they_can_do() {
        use super::games_with;
        assert_eq!(games_with(|a| a.solvable, "or"), "tictactoe or matchsticks");
        assert_eq!(
            games_with(|a| a.learns, "or"),
            "tictactoe, connect4, checkers or othello"
        );
        assert_eq!(games_with(|a| a.banked, "and"), "connect4");
        assert_eq!(games_with(|a| a.players == 1, "or"), "solitaire");
        assert_eq!(games_with(|a| a.players == 3, "or"), "none");
    }

    use super::*;
    use crate::players::Puzzle;

    /// The moves of a puzzle's start, counted through the ability.
    struct StartMoves;

    impl PuzzleVisitor for StartMoves {
        type Output = usize;
        fn visit<P: Puzzle>(self, puzzle: &P) -> usize {
            let mut moves = Vec::new();
            puzzle.legal_moves(&puzzle.start(), &mut moves);
            moves.len()
        }
    }

    /// Every registered one-player game is a puzzle (the command line's
    /// one-player path needs it), and no two-player game claims to be one.
    #[test]
    fn one_player_games_and_only_they_are_puzzles() {
        for spec in GameSpec::registered() {
            let puzzle = visit_puzzle(spec, StartMoves);
            if abilities(spec).players == 1 {
                assert!(puzzle.is_ok_and(|n| n > 0), "{spec}");
            } else {
                assert_eq!(puzzle, Err(NotAPuzzle), "{spec}");
            }
        }
    }
}
