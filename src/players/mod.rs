//! Players: anything that picks a move in a position.
//!
//! Genomes are players, and so are the fixed opponents used to measure them.
//! A [`PlayerSpec`] is the textual form used on the command line (`random`,
//! or a genome file path); [`PlayerSpec::build`] turns it into a boxed
//! [`Player`] for a concrete game.

mod genome;
mod random;

pub use genome::GenomePlayer;
pub use random::RandomPlayer;

use crate::encoding::{Genotype, IllegalPolicy};
use crate::games::{Game, Outcome, Side};
use crate::genome::Genome;
use crate::store::{FileError, FileProblem};
use std::path::PathBuf;

/// Something that chooses moves.
pub trait Player<G: Game>: Send {
    /// The move to play in `pos` (which is not finished); `None` forfeits.
    fn choose(&mut self, game: &G, pos: &G::Position) -> Option<G::Move>;
}

/// Plays one game from `start`; `first` moves first. A forfeit loses.
pub fn play_game<G: Game>(
    game: &G,
    start: G::Position,
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
) -> Outcome {
    let mut pos = start;
    loop {
        if let Some(outcome) = game.outcome(&pos) {
            return outcome;
        }
        let side = game.turn(&pos);
        let player: &mut dyn Player<G> = match side {
            Side::First => first,
            Side::Second => second,
        };
        match player.choose(game, &pos) {
            Some(mv) if game.is_legal(&pos, mv) => pos = game.play(&pos, mv),
            _ => return Outcome::Win(side.other()),
        }
    }
}

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A uniformly random legal move.
    Random,
    /// A genome file.
    Genome(PathBuf),
}

/// A player specification that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error("unknown player '{0}': expected 'random' or the path of a genome file")]
    Unknown(String),
    #[error(transparent)]
    File(#[from] FileError),
}

impl PlayerSpec {
    /// Reads `random` or a genome path (which must exist).
    pub fn parse(text: &str) -> Result<PlayerSpec, PlayerError> {
        match text {
            "random" => Ok(PlayerSpec::Random),
            path if std::path::Path::new(path).is_file() => Ok(PlayerSpec::Genome(path.into())),
            other => Err(PlayerError::Unknown(other.to_string())),
        }
    }

    /// The player for `game`; `seed` drives any randomness it has.
    pub fn build<G: Genotype>(
        &self,
        game: &G,
        seed: u64,
        policy: IllegalPolicy,
    ) -> Result<Box<dyn Player<G>>, PlayerError> {
        match self {
            PlayerSpec::Random => Ok(Box::new(RandomPlayer::new(seed))),
            PlayerSpec::Genome(path) => {
                let genome = Genome::load(path)?;
                if genome.game != game.spec() {
                    let problem = FileProblem::OtherGame {
                        found: genome.game.to_string(),
                        expected: game.spec().to_string(),
                    };
                    return Err(FileError::new(path, problem).into());
                }
                Ok(Box::new(GenomePlayer::new(genome.genes, policy)))
            }
        }
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Genome(path) => write!(f, "{}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn random_players_finish_games_and_are_reproducible() {
        let game = TicTacToe;
        let outcome = |seed| {
            play_game(
                &game,
                game.start(),
                &mut RandomPlayer::new(seed),
                &mut RandomPlayer::new(seed + 100),
            )
        };
        for seed in 0..20 {
            assert_eq!(outcome(seed), outcome(seed));
        }
    }

    #[test]
    fn a_forfeiting_genome_loses() {
        let game = TicTacToe;
        // Every gene says cell 0: legal once, then forfeits.
        let genes = vec![0u8; 19_683];
        let mut forfeiter = GenomePlayer::new(genes, IllegalPolicy::Forfeit);
        let mut random = RandomPlayer::new(3);
        let outcome = play_game(&game, game.start(), &mut forfeiter, &mut random);
        assert_eq!(outcome, Outcome::Win(Side::Second));
    }
}
