//! `solo`, the fitness of one-player games (peg solitaire), the analogue of
//! the exhaustive term for them, and the champion's measures.
//!
//! `solo`: each genome plays the game once from the start (deterministic:
//! one game is the whole evaluation) and earns 1,000 points per piece it
//! removes, plus a tie-break below 1,000: the jumps that were open along
//! its game, summed (capped at 999). Of two genomes that leave as many pegs,
//! the one whose game passed through positions with more ways on is
//! preferred: its game is easier for a mutation to redirect into a better
//! ending, where a game that ran into a dead end early offers fewer. The
//! tie-break uses the rules alone, no solver.
//!
//! `exhaustive` (the analogue of the two-player term): 1,000,000 × the
//! share of reachable unfinished positions whose gene plays a move that
//! keeps the best achievable count of pieces, read from the exact solver.

use super::{Evaluation, ExhaustiveScores, Round, RunTables, Term, TermType};
use crate::dispatch::Abilities;
use crate::encoding::shell::PlayStyle;
use crate::encoding::{IllegalPolicy, TableGame};
use crate::evolve::EvolveConfig;
use crate::evolve::OperatorError;
use crate::games::walk::reachable;
use crate::players::Playable;
use crate::players::PlayerError;
use std::sync::Arc;

/// `solo`: one game per genome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solo;

impl TermType for Solo {
    const SYNTAX: &'static str = "solo";
    const HELP: &'static str = "one game per genome from the start, 1,000 points a piece removed and a tie-break for the ways on along its game";
    const PLAYERS: Option<u8> = Some(1);

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        (word == Self::SYNTAX).then_some(Ok(Solo))
    }

    /// 1,000 a piece removed (all but one at best) and the tie-break below
    /// 1,000.
    fn max_points(&self, _: &EvolveConfig, abilities: &Abilities) -> u64 {
        let pieces = abilities.start_pieces;
        1000 * u64::from(pieces.saturating_sub(1)) + 999
    }

    fn build<G: Playable>(
        &self,
        _: &G,
        _: &EvolveConfig,
        _: &Arc<RunTables<G>>,
        _: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
        Ok(Some(Box::new(Solo)))
    }
}

impl std::fmt::Display for Solo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::SYNTAX)
    }
}

impl<G: Playable> Term<G> for Solo {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        eval.add_each(round.pop, |genes| {
            points(game, play(game, genes, round.rules))
        });
        eval.games += round.pop.size() as u64;
    }
}

/// Most positions the exhaustive analogue reads (the 21-hole board has
/// under 3 million reachable positions).
pub(crate) const MAX_POSITIONS: usize = 5_000_000;

/// One game of a one-player game, played by a genome from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SoloGame {
    /// Pieces left at the end.
    pub(crate) left: u32,
    /// Moves played.
    pub moves: u32,
    /// Legal moves open at each position of the game, summed.
    pub(crate) mobility: u32,
    /// The genome forfeited (an illegal gene under `--illegal forfeit`).
    pub(crate) forfeited: bool,
}

/// Plays `genes` once from the start of the one-player `game`.
pub(crate) fn play<G: TableGame>(game: &G, genes: &[u8], rules: PlayStyle) -> SoloGame {
    let mut pos = game.start();
    let mut moves = Vec::new();
    let mut result = SoloGame {
        left: 0,
        moves: 0,
        mobility: 0,
        forfeited: false,
    };
    while game.outcome(&pos).is_none() {
        game.legal_moves(&pos, &mut moves);
        result.mobility += moves.len() as u32;
        match rules.decide(game, genes, &pos) {
            Some(mv) if game.is_legal(&pos, mv) => {
                pos = game.play(&pos, mv);
                result.moves += 1;
            }
            _ => {
                result.forfeited = true;
                break;
            }
        }
    }
    result.left = game.pieces_left(&pos);
    result
}

/// The `solo` points of one game: 1,000 per piece removed, plus the
/// mobility tie-break (a forfeit earns nothing).
pub(crate) fn points<G: TableGame>(game: &G, played: SoloGame) -> u32 {
    if played.forfeited {
        return 0;
    }
    let removed = game.pieces_left(&game.start()).saturating_sub(played.left);
    1000 * removed + played.mobility.min(999)
}

/// The analogue of the exhaustive term for a one-player game: every
/// reachable unfinished position with the moves that keep the best
/// achievable count, tabulated per gene. `None` when the board has more
/// positions than [`MAX_POSITIONS`] or the game has no exact play.
pub(crate) fn exhaustive_scores<G: Playable>(
    game: &G,
    policy: IllegalPolicy,
) -> Option<ExhaustiveScores> {
    let positions = reachable(game, MAX_POSITIONS).ok()?;
    let mut solver = game.exact()?.solver(game);
    let unfinished: Vec<G::Position> = positions
        .into_iter()
        .filter(|p| game.outcome(p).is_none())
        .collect();
    Some(ExhaustiveScores::build_with(
        game,
        policy,
        unfinished.iter(),
        |pos| {
            let scores = solver.move_scores(game, pos);
            let best = scores.iter().map(|&(_, s)| s).max();
            scores
                .into_iter()
                .filter(|&(_, s)| Some(s) == best)
                .map(|(m, _)| m)
                .collect()
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Solitaire};
    use crate::puzzle::solitaire::{MAX_POSITIONS as SOLVE_LIMIT, SoloTable};

    #[test]
    fn a_perfect_table_leaves_one_peg_and_keeps_the_best_everywhere() {
        let game = Solitaire::bits(Solitaire::FIVE_ROWS.rules);
        let table = SoloTable::build(&game.rules, SOLVE_LIMIT).unwrap();
        // A genome that plays, in every reachable position, the first jump
        // keeping the best count.
        let mut genes = vec![0u8; game.gene_count()];
        let mut moves = Vec::new();
        for (pos, entry) in table.iter() {
            game.legal_moves(&pos, &mut moves);
            if let Some(&m) = moves
                .iter()
                .find(|&&m| table.get(&game.play(&pos, m)).unwrap().best == entry.best)
            {
                genes[pos.pegs as usize] = m;
            }
        }
        let rules = PlayStyle::from(IllegalPolicy::Repair);
        let played = play(&game, &genes, rules);
        assert_eq!(
            (played.left, played.moves, played.forfeited),
            (1, 13, false)
        );
        assert_eq!(points(&game, played) / 1000, 13);
        let scores = exhaustive_scores(&game, IllegalPolicy::Repair).unwrap();
        assert_eq!(scores.score(&genes), 1_000_000);
        // An all-zero table is far from it, and loses pegs' worth of points.
        let zero = vec![0u8; game.gene_count()];
        assert!(scores.score(&zero) < 1_000_000);
        assert!(points(&game, play(&game, &zero, rules)) < points(&game, played));
    }
}
