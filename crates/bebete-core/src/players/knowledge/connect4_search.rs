//! The exact Connect-Four search, stoppable: the algorithm of the
//! `connect-four-ai` crate's solver (Pascal Pons' negamax), run over that
//! crate's board, transposition table and opening book, with one addition:
//! every node asks [`budget::spent`], and a search that must stop unwinds
//! at once without storing anything in the table, so a later search from
//! the same table stays exact.
//!
//! Without a budget (labelling a bank, `eval`, the tests) it computes
//! exactly what the crate's own `get_all_move_scores` computes, at the same
//! speed (a test compares the two).

use crate::budget;
use connect_four_ai::{MoveSorter, Position, Solver, TTFlag};

const CELLS: i8 = Position::BOARD_SIZE as i8;

/// The score of each playable column of `pos` for the side to move: a win
/// scores the winner's stones left unplayed plus one, a loss the negative.
pub(crate) fn move_scores(solver: &mut Solver, pos: &Position) -> [Option<i8>; Position::WIDTH] {
    let mut scores = [None; Position::WIDTH];
    if pos.is_won_position() || pos.get_moves() == Position::BOARD_SIZE {
        return scores;
    }
    for &column in Solver::COLUMNS.iter() {
        if !pos.is_playable(column) {
            continue;
        }
        scores[column] = Some(if pos.is_winning_move(column) {
            (CELLS - pos.get_moves() as i8 + 1) / 2
        } else {
            let mut next = *pos;
            next.play(column);
            -solve(solver, &next)
        });
        if budget::spent() {
            break;
        }
    }
    scores
}

/// The exact score of `pos` (not won, not full) for the side to move.
fn solve(solver: &mut Solver, pos: &Position) -> i8 {
    if let Some(score) = solver.opening_book.as_ref().and_then(|book| book.get(pos)) {
        return score;
    }
    let played = pos.get_moves() as i8;
    if pos.can_win_next() {
        return (CELLS + 1 - played) / 2;
    }
    let (mut min, mut max) = (-(CELLS - played) / 2, (CELLS + 1 - played) / 2);
    while min < max {
        // A null-window search around the middle, nearer to zero first.
        let mut mid = min + (max - min) / 2;
        if mid <= 0 && min / 2 < mid {
            mid = min / 2;
        } else if mid >= 0 && max / 2 > mid {
            mid = max / 2;
        }
        let score = negamax(solver, pos, (CELLS - played) as u8, mid, mid + 1);
        if budget::spent() {
            return 0;
        }
        if score <= mid {
            max = score;
        } else {
            min = score;
        }
    }
    min
}

fn negamax(solver: &mut Solver, pos: &Position, depth: u8, mut alpha: i8, mut beta: i8) -> i8 {
    if depth == 0 || budget::spent() {
        return 0;
    }
    let original_alpha = alpha;
    let key = pos.get_key();
    if let Some(entry) = solver.transposition_table.get(key)
        && entry.depth >= depth
    {
        match entry.flag {
            TTFlag::Exact => return entry.value,
            TTFlag::LowerBound if entry.value >= beta => return entry.value,
            TTFlag::UpperBound if entry.value <= alpha => return entry.value,
            _ => {}
        }
    }
    let played = pos.get_moves() as i8;
    let possible = pos.possible_non_losing_moves();
    if possible == 0 {
        return -(CELLS - played) / 2;
    }
    // The opponent cannot win at once, and neither can we.
    let min = -(CELLS - played - 2) / 2;
    if alpha < min {
        if min >= beta {
            return min;
        }
        alpha = min;
    }
    let max = (CELLS - played - 1) / 2;
    if beta > max {
        if alpha >= max {
            return max;
        }
        beta = max;
    }
    let mut moves = MoveSorter::new();
    for &column in Solver::COLUMNS.iter().rev() {
        let bit = possible & Position::column_mask(column);
        if bit > 0 {
            moves.add(column, pos.score_move(bit));
        }
    }
    for column in moves {
        let mut next = *pos;
        next.play(column);
        let score = -negamax(solver, &next, depth - 1, -beta, -alpha);
        if budget::spent() {
            // Cut short: nothing below is exact, so nothing is stored.
            return 0;
        }
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    let flag = if alpha <= original_alpha {
        TTFlag::UpperBound
    } else if alpha >= beta {
        TTFlag::LowerBound
    } else {
        TTFlag::Exact
    };
    solver.transposition_table.put(key, alpha, flag, depth);
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::{Budget, within};
    use rand::{Rng, RngExt, SeedableRng};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    /// A position `plies` random moves in that nobody has won yet.
    fn random_position(rng: &mut impl Rng, plies: usize) -> Option<Position> {
        let mut pos = Position::new();
        for _ in 0..plies {
            let playable: Vec<usize> = (0..Position::WIDTH)
                .filter(|&c| pos.is_playable(c) && !pos.is_winning_move(c))
                .collect();
            if playable.is_empty() {
                return None;
            }
            pos.play(playable[rng.random_range(0..playable.len())]);
        }
        Some(pos)
    }

    #[test]
    fn it_scores_as_the_crates_solver_does() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let (mut ours, mut theirs) = (Solver::new(), Solver::new());
        let mut compared = 0;
        while compared < 40 {
            // From the book's edge (8 plies) to the last moves.
            let plies = rng.random_range(20..40);
            let Some(pos) = random_position(&mut rng, plies) else {
                continue;
            };
            assert_eq!(
                move_scores(&mut ours, &pos),
                theirs.get_all_move_scores(&pos),
                "after {plies} plies"
            );
            compared += 1;
        }
    }

    /// The slow reply (65215516 then 7: 98.6 s) stops at its
    /// deadline and at a cancel, and a cut search leaves the table exact.
    #[test]
    fn a_long_search_stops_at_its_deadline_and_at_a_cancel() {
        let pos = Position::from_moves("652155167").unwrap();
        let mut solver = Solver::new();
        let started = Instant::now();
        let cut = within(
            &Budget::unlimited().until(Instant::now() + Duration::from_millis(50)),
            || move_scores(&mut solver, &pos),
        );
        assert_eq!(cut, None);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );

        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let flag = flag.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                flag.store(true, Ordering::Relaxed);
                Instant::now()
            })
        };
        let cancelled = within(&Budget::unlimited().cancelled_by(flag), || {
            move_scores(&mut solver, &pos)
        });
        let set_at = setter.join().unwrap();
        assert_eq!(cancelled, None);
        assert!(
            set_at.elapsed() < Duration::from_millis(100),
            "{:?}",
            set_at.elapsed()
        );

        // The same table then solves later positions exactly.
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(9);
        let mut theirs = Solver::new();
        let mut compared = 0;
        while compared < 10 {
            if let Some(pos) = random_position(&mut rng, 24) {
                assert_eq!(
                    move_scores(&mut solver, &pos),
                    theirs.get_all_move_scores(&pos)
                );
                compared += 1;
            }
        }
    }
}
