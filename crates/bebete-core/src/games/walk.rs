//! One walk over a game's positions, used wherever positions are
//! enumerated: solved tables, audits, an encoder's active genes, the
//! published-count tests.
//!
//! Every walk carries a node limit, so a walk started on a game too large
//! to enumerate (Connect-Four) ends with an error instead of exhausting
//! memory.

use super::Game;
use rustc_hash::FxHashSet as HashSet;
use std::hash::Hash;
use std::ops::ControlFlow;

/// Most positions any walk visits unless told otherwise: far above the
/// small games (tic-tac-toe 5,478; matchsticks at most 65,536) and far
/// below what would exhaust memory.
pub(crate) const DEFAULT_NODE_LIMIT: usize = 20_000_000;

/// Why a walk stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum WalkError {
    /// More distinct positions than the limit.
    #[error("more than {limit} positions: the game is too large to enumerate")]
    TooLarge { limit: usize },
    /// The caller's `expand` asked to stop, or this thread's budget
    /// ([`crate::budget`]) ran out.
    #[error("the walk was stopped")]
    Stopped,
}

/// Visits each position reachable from `start` once, depth first. `expand`
/// sees each new position and pushes the successors to follow onto `next`
/// (all of them, some, or none); returning `Break` stops the walk, and so
/// does a spent budget ([`crate::budget`]: the server's time for a move).
/// Returns the visited positions.
pub(crate) fn walk<P, F>(start: P, limit: usize, mut expand: F) -> Result<HashSet<P>, WalkError>
where
    P: Copy + Eq + Hash,
    F: FnMut(&P, &mut Vec<P>) -> ControlFlow<()>,
{
    let mut seen = HashSet::default();
    let mut stack = vec![start];
    while let Some(pos) = stack.pop() {
        if !seen.insert(pos) {
            continue;
        }
        if seen.len() > limit {
            return Err(WalkError::TooLarge { limit });
        }
        if expand(&pos, &mut stack).is_break() || crate::budget::spent() {
            return Err(WalkError::Stopped);
        }
    }
    Ok(seen)
}

/// Pushes every position one legal move away from `pos` onto `next`.
pub(crate) fn push_successors<G: Game>(
    game: &G,
    pos: &G::Position,
    moves: &mut Vec<G::Move>,
    next: &mut Vec<G::Position>,
) {
    game.legal_moves(pos, moves);
    next.extend(moves.iter().map(|&m| game.play(pos, m)));
}

/// Every position reachable from the start, finished ones included.
pub(crate) fn reachable<G: Game>(
    game: &G,
    limit: usize,
) -> Result<HashSet<G::Position>, WalkError> {
    let mut moves = Vec::new();
    walk(game.start(), limit, |pos, next| {
        push_successors(game, pos, &mut moves, next);
        ControlFlow::Continue(())
    })
}

/// Move sequences of exactly `depth` plies from `pos` (a finished game has
/// no further moves): the perft count.
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft(game, &game.play(pos, m), depth - 1))
        .sum()
}

/// Distinct positions after 0, 1, …, `plies` moves from the start (stopping
/// early when no position is left), or an error past `limit` in one layer.
#[cfg(test)]
fn positions_by_ply<G: Game>(game: &G, plies: u32, limit: usize) -> Result<Vec<usize>, WalkError> {
    let mut layer = HashSet::from_iter([game.start()]);
    let mut counts = vec![1];
    let (mut moves, mut next) = (Vec::new(), Vec::new());
    for _ in 0..plies {
        let mut following = HashSet::default();
        for pos in &layer {
            next.clear();
            push_successors(game, pos, &mut moves, &mut next);
            following.extend(next.iter().copied());
            if following.len() > limit {
                return Err(WalkError::TooLarge { limit });
            }
        }
        if following.is_empty() {
            break;
        }
        counts.push(following.len());
        layer = following;
    }
    Ok(counts)
}

/// Complete games (move sequences from the start to a finished position).
#[cfg(test)]
fn complete_games<G: Game>(game: &G, pos: &G::Position) -> u128 {
    if game.outcome(pos).is_some() {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves
        .iter()
        .map(|&m| complete_games(game, &game.play(pos, m)))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Connect4, Matchsticks, MatchsticksRules, TakeRule, TicTacToe};

    /// What a row of [`COUNTS`] measures.
    #[derive(Clone, Copy, Debug)]
    enum Count {
        /// Move sequences of each length 1, 2, …
        Perft,
        /// Distinct positions after 0, 1, … plies.
        Positions,
        /// Reachable positions in all, then the finished ones.
        Reachable,
        /// Complete games.
        Games,
    }

    /// Published counts (tic-tac-toe, Connect-Four: OEIS A008907 /
    /// A212693, and the counts of the Connect-Four literature), and for
    /// matchsticks a count derived a second way: games of 21 sticks taking
    /// 1-3 are the compositions of 21 into parts 1-3, tribonacci(21); a
    /// position is (sticks taken s, plies p) with ⌈s/3⌉ ≤ p ≤ s, so
    /// Σ_{s=0..21} (s − ⌈s/3⌉ + 1) = 169 of them, 15 with s = 21.
    const COUNTS: &[(&str, Count, &[u64])] = &[
        (
            "tictactoe",
            Count::Perft,
            &[9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872],
        ),
        (
            "tictactoe",
            Count::Positions,
            &[1, 9, 72, 252, 756, 1_260, 1_520, 1_140, 390, 78],
        ),
        ("tictactoe", Count::Reachable, &[5_478, 958]),
        ("tictactoe", Count::Games, &[255_168]),
        (
            "connect4",
            Count::Perft,
            &[7, 49, 343, 2_401, 16_807, 117_649, 823_536, 5_673_234],
        ),
        (
            "connect4",
            Count::Positions,
            &[1, 7, 49, 238, 1_120, 4_263, 16_422, 54_859],
        ),
        ("matchsticks", Count::Games, &[223_317]),
        ("matchsticks", Count::Reachable, &[169, 15]),
    ];

    fn check<G: Game>(game: &G, count: Count, expected: &[u64]) {
        let found: Vec<u64> = match count {
            Count::Perft => (1..=expected.len() as u32)
                .map(|d| perft(game, &game.start(), d))
                .collect(),
            Count::Positions => positions_by_ply(game, expected.len() as u32 - 1, 1 << 20)
                .unwrap()
                .into_iter()
                .map(|n| n as u64)
                .collect(),
            Count::Reachable => {
                let all = reachable(game, DEFAULT_NODE_LIMIT).unwrap();
                let finished = all.iter().filter(|p| game.outcome(p).is_some()).count();
                vec![all.len() as u64, finished as u64]
            }
            Count::Games => vec![complete_games(game, &game.start()) as u64],
        };
        assert_eq!(found, expected, "{count:?}");
    }

    #[test]
    fn every_game_matches_its_table_of_counts() {
        let sticks = Matchsticks::new(MatchsticksRules {
            sticks: 21,
            rule: TakeRule::Subtract {
                max_take: 3,
                last_loses: true,
            },
        });
        for &(name, count, expected) in COUNTS {
            match name {
                "tictactoe" => check(&TicTacToe::BASE3, count, expected),
                "connect4" => check(&Connect4::SUBGRID, count, expected),
                "matchsticks" => check(&sticks, count, expected),
                other => panic!("no game {other}"),
            }
        }
    }

    #[test]
    fn a_walk_past_its_limit_is_an_error_not_an_exhausted_machine() {
        assert_eq!(
            reachable(&Connect4::SUBGRID, 10_000).unwrap_err(),
            WalkError::TooLarge { limit: 10_000 }
        );
        let stopped = walk(0u32, 100, |&n, next| {
            next.push(n + 1);
            if n == 5 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(stopped, Err(WalkError::Stopped));
    }
}
