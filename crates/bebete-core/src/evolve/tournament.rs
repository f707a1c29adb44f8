//! The round-robin: every ordered pair (a, b), a ≠ b, plays one game with a
//! moving first. Win 2 points, draw 1, loss 0.
//!
//! Rows (all games with a given first player) run in parallel; each game is
//! deterministic and points are integers summed in index order, so the
//! result does not depend on the number of threads.
//!
//! A sampled tournament (`--fitness vs:sample:K`) is the affordable version
//! for large populations: each genome meets K opponents drawn from its own
//! stream, so it too does not depend on the thread count.

use super::Population;
use crate::encoding::TableGame;
use crate::encoding::shell::PlayStyle;
use crate::games::{Outcome, Side};
use crate::seed::derive_seed;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

/// Stream of the opponent draws of a sampled tournament (apart from the
/// children's streams, which are numbered from 0).
const SAMPLE_STREAM: u64 = 0x5a3e_0000_0000;

/// One game between two gene tables; a forfeit loses. Allocates nothing.
#[inline]
pub fn genome_game<G: TableGame>(
    game: &G,
    first: &[u8],
    second: &[u8],
    rules: impl Into<PlayStyle>,
) -> Outcome {
    let rules = rules.into();
    if rules.lookahead == 0
        && let Some(outcome) = game.whole_game(first, second, rules.policy)
    {
        return outcome;
    }
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
        match rules.decide(game, genes, &pos) {
            Some(mv) => pos = game.play(&pos, mv),
            None => return Outcome::Win(side.other()),
        }
    }
}

/// Points of every genome after a full round-robin (on the current rayon pool).
pub fn round_robin<G: TableGame>(
    game: &G,
    pop: &Population,
    rules: impl Into<PlayStyle>,
) -> Vec<u32> {
    let rules = rules.into();
    let n = pop.size();
    // One row a piece of work (99 games: a few microseconds of tic-tac-toe),
    // so that the threads end within a row of each other. A row keeps its
    // first player's points and the second player's of each game.
    let rows: Vec<(u32, Vec<u8>)> = (0..n)
        .into_par_iter()
        .with_max_len(1)
        .map(|a| {
            let mut first = 0;
            let second = (0..n)
                .map(|b| {
                    if a == b {
                        return 0;
                    }
                    let outcome = genome_game(game, pop.genome(a), pop.genome(b), rules);
                    first += outcome.points(Side::First);
                    outcome.points(Side::Second) as u8
                })
                .collect();
            (first, second)
        })
        .collect();
    // The second players' points, column by column: whole rows of bytes
    // added at once (the compiler vectorises it), where a game-by-game
    // walk was serial work the second thread could not share.
    let mut second = vec![0u32; n];
    for (_, row) in &rows {
        for (sum, &p) in second.iter_mut().zip(row) {
            *sum += u32::from(p);
        }
    }
    rows.iter()
        .zip(second)
        .map(|((first, _), second)| first + second)
        .collect()
}

/// Points of `me` from two games against `other`, one on each side (0-4).
pub(crate) fn pair_points<G: TableGame>(
    game: &G,
    me: &[u8],
    other: &[u8],
    rules: impl Into<PlayStyle>,
) -> u32 {
    let rules = rules.into();
    genome_game(game, me, other, rules).points(Side::First)
        + genome_game(game, other, me, rules).points(Side::Second)
}

/// Points of every genome after it met `k` distinct opponents (never
/// itself), drawn afresh each generation, once with each side first. Only
/// the drawing genome's points count, so every genome plays exactly `2k`
/// games and earns at most `4k` points.
pub(crate) fn sampled<G: TableGame>(
    game: &G,
    pop: &Population,
    k: usize,
    rules: impl Into<PlayStyle>,
    seed: u64,
    generation: u64,
) -> Vec<u32> {
    let rules = rules.into();
    let n = pop.size();
    let k = k.min(n - 1);
    (0..n)
        .into_par_iter()
        .map(|a| {
            let stream = derive_seed(seed, generation, SAMPLE_STREAM + a as u64);
            let mut rng = Pcg64Mcg::seed_from_u64(stream);
            rand::seq::index::sample(&mut rng, n - 1, k)
                .into_iter()
                .map(|j| if j >= a { j + 1 } else { j })
                .map(|b| pair_points(game, pop.genome(a), pop.genome(b), rules))
                .sum()
        })
        .collect()
}

/// Genome indices from best to worst: by points, ties to the lower index.
pub(crate) fn rank(points: &[u32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::IllegalPolicy;
    use crate::games::TicTacToe;

    #[test]
    fn a_sampled_tournament_meets_k_others_on_both_sides_whatever_the_threads() {
        let pop = Population::random(&TicTacToe::BASE3, 20, 4);
        let policy = IllegalPolicy::Repair;
        let points = sampled(&TicTacToe::BASE3, &pop, 5, policy, 7, 3);
        // 2 games of 2 points at most per opponent.
        assert!(points.iter().all(|&p| p <= 20));
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(
            one.install(|| sampled(&TicTacToe::BASE3, &pop, 5, policy, 7, 3)),
            points
        );
        assert_ne!(sampled(&TicTacToe::BASE3, &pop, 5, policy, 7, 4), points);
        // Meeting everyone is the round-robin, seen from each genome's side.
        let everyone = sampled(&TicTacToe::BASE3, &pop, 19, policy, 7, 3);
        let n = pop.size();
        for (a, &p) in everyone.iter().enumerate() {
            let expected: u32 = (0..n)
                .filter(|&b| b != a)
                .map(|b| pair_points(&TicTacToe::BASE3, pop.genome(a), pop.genome(b), policy))
                .sum();
            assert_eq!(p, expected, "genome {a}");
        }
        assert_eq!(everyone, round_robin(&TicTacToe::BASE3, &pop, policy));
    }

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
