//! From a game named as data ([`GameSpec`]) to generic code run with the
//! concrete game type: the one place where the whole program chooses a game
//! at run time.
//!
//! It sits above the players because the code it runs (evolution, matches,
//! audits, the commands) needs both the genome side of a game
//! ([`TableGame`]) and what the fixed opponents know about it
//! ([`Knowledge`]). Code below the players that needs only genomes uses
//! [`crate::encoding::visit_table_game`].

use crate::encoding::TableGame;
use crate::games::{GameSpec, with_game};
use crate::players::Knowledge;

/// Something to do with a concrete game type; see [`Dispatch::visit`].
pub trait GameVisitor {
    type Output;
    fn visit<G: TableGame + Knowledge>(self, game: G) -> Self::Output;
}

/// Runs a [`GameVisitor`] with the concrete game of a spec.
pub trait Dispatch {
    fn visit<V: GameVisitor>(self, visitor: V) -> V::Output;
}

impl Dispatch for GameSpec {
    fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        with_game!(self, game => visitor.visit(game))
    }
}

/// What a game can do, read off its traits' associated constants: for the
/// code that holds only a [`GameSpec`] (validating a configuration before
/// any game value exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abilities {
    /// The whole game can be solved in memory ([`Knowledge::SOLVABLE`]):
    /// exact audits, the exhaustive fitness, `--target unbeatable`.
    pub solvable: bool,
    /// Genes carry a weight ([`TableGame::WEIGHTED_GENES`]): `--init zero`.
    pub weighted_genes: bool,
    /// Random plies before measured games ([`crate::games::Game::DEFAULT_OPENINGS`]).
    pub default_openings: u32,
    /// Learns from a solver-labelled position bank ([`Knowledge::BANKED`]):
    /// the `bank` fitness, `--guided`, `--local-search`.
    pub banked: bool,
    /// Players: 2, or 1 for a puzzle ([`crate::games::Game::PLAYERS`]).
    pub players: u8,
    /// The genome is a value genome that learns by self-play
    /// ([`TableGame::learns`]): `--self-play`, a population of one.
    pub learns: bool,
}

impl Abilities {
    /// The abilities of the game type `G`.
    pub fn of<G: TableGame + Knowledge>(game: &G) -> Abilities {
        Abilities {
            learns: game.learns(),
            solvable: G::SOLVABLE,
            weighted_genes: G::WEIGHTED_GENES,
            default_openings: G::DEFAULT_OPENINGS,
            banked: G::BANKED,
            players: G::PLAYERS,
        }
    }
}

struct AbilitiesOf;

impl GameVisitor for AbilitiesOf {
    type Output = Abilities;
    fn visit<G: TableGame + Knowledge>(self, game: G) -> Abilities {
        Abilities::of(&game)
    }
}

/// The abilities of the game `spec` names.
pub fn abilities(spec: GameSpec) -> Abilities {
    spec.visit(AbilitiesOf)
}
