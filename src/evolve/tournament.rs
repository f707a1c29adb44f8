//! The round-robin: every ordered pair (a, b), a ≠ b, plays one game with a
//! moving first. Win 2 points, draw 1, loss 0.
//!
//! Rows (all games with a given first player) run in parallel; each game is
//! deterministic and points are integers summed in index order, so the
//! result does not depend on the number of threads.

use super::Population;
use crate::encoding::{Genotype, IllegalPolicy};
use crate::games::{Outcome, Side};
use rayon::prelude::*;

/// One game between two gene tables; a forfeit loses. Allocates nothing.
#[inline]
pub fn genome_game<G: Genotype>(
    game: &G,
    first: &[u8],
    second: &[u8],
    policy: IllegalPolicy,
) -> Outcome {
    let mut pos = game.start();
    loop {
        if let Some(outcome) = game.outcome(&pos) {
            return outcome;
        }
        let side = game.turn(&pos);
        let genes = match side {
            Side::First => first,
            Side::Second => second,
        };
        match game.decide(genes, &pos, policy) {
            Some(mv) => pos = game.play(&pos, mv),
            None => return Outcome::Win(side.other()),
        }
    }
}

/// Points of every genome after a full round-robin (on the current rayon pool).
pub fn round_robin<G: Genotype>(game: &G, pop: &Population, policy: IllegalPolicy) -> Vec<u32> {
    let n = pop.size();
    let rows: Vec<Vec<Outcome>> = (0..n)
        .into_par_iter()
        .map(|a| {
            (0..n)
                .map(|b| {
                    if a == b {
                        Outcome::Draw
                    } else {
                        genome_game(game, pop.genome(a), pop.genome(b), policy)
                    }
                })
                .collect()
        })
        .collect();
    let mut points = vec![0u32; n];
    for (a, row) in rows.iter().enumerate() {
        for (b, outcome) in row.iter().enumerate() {
            if a != b {
                points[a] += outcome.points(Side::First);
                points[b] += outcome.points(Side::Second);
            }
        }
    }
    points
}

/// Genome indices from best to worst: by points, ties to the lower index.
pub fn rank(points: &[u32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::TicTacToe;

    #[test]
    fn points_sum_to_two_per_game_and_ranks_break_ties_by_index() {
        let pop = Population::random(&TicTacToe::BASE3, 12, 3);
        let points = round_robin(&TicTacToe::BASE3, &pop, IllegalPolicy::Repair);
        assert_eq!(points.iter().sum::<u32>(), 2 * 12 * 11);
        assert_eq!(rank(&[3, 5, 5, 1]), vec![1, 2, 0, 3]);
    }

    #[test]
    fn the_same_population_scores_the_same_on_one_thread_or_two() {
        let pop = Population::random(&TicTacToe::BASE3, 30, 9);
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| round_robin(&TicTacToe::BASE3, &pop, IllegalPolicy::Repair))
        };
        assert_eq!(on(1), on(2));
    }
}
