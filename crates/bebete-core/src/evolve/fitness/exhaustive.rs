//! `exhaustive`: 1,000,000 × the share of every unfinished position of a
//! solved game where the genome's move keeps the game's value (tic-tac-toe,
//! matchsticks); for a one-player game, the share whose move keeps the best
//! achievable count of pieces (`super::solo::exhaustive_scores`). The
//! score table is the run's, built once ([`RunTables::exhaustive`]) and
//! shared with the benchmark.

use super::{Evaluation, Round, RunTables, Term, TermType};
use crate::dispatch::{Abilities, games_with};
use crate::encoding::{Explanation, IllegalPolicy, TableGame};
use crate::evolve::OperatorError;
use crate::evolve::{ConfigError, EvolveConfig};
use crate::players::Playable;
use crate::players::PlayerError;
use crate::solve::{SolvedTable, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `exhaustive`: every position of a solved game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhaustive;

impl TermType for Exhaustive {
    const SYNTAX: &'static str = "exhaustive";
    const HELP: &'static str = "1,000,000 × the share of every position of the solved game (a game solved whole; a puzzle: the best count of pieces left) where the genome's move keeps the game's value";
    const PLAYERS: Option<u8> = None;

    fn parse(word: &str) -> Option<Result<Self, OperatorError>> {
        (word == Self::SYNTAX).then_some(Ok(Exhaustive))
    }

    /// The term reads every position: a game solved exactly, a one-player
    /// board small enough, and pure genomes (the audit does not search).
    fn check(&self, cfg: &EvolveConfig, abilities: Abilities) -> Result<(), ConfigError> {
        let err = |flag, value: String, allowed: &str| {
            Err(ConfigError {
                flag,
                value,
                allowed: allowed.to_string(),
            })
        };
        if cfg.lookahead > 0 {
            return err("lookahead", cfg.lookahead.to_string(), SHELL_VS_AUDIT);
        }
        if abilities.players == 2 && !abilities.solvable {
            let audited = games_with(|a| a.solvable || a.players == 1, "or");
            return err(
                "fitness",
                cfg.fitness.to_string(),
                &format!("exhaustive needs an exact audit: {audited}"),
            );
        }
        if let Some(boards) = abilities.too_large_to_read {
            return err(
                "fitness",
                cfg.fitness.to_string(),
                &format!("exhaustive reads every reachable position: {boards}"),
            );
        }
        Ok(())
    }

    /// 1,000,000 × a share.
    fn max_points(&self, _: &EvolveConfig, _: &Abilities) -> u64 {
        1_000_000
    }

    /// On the run's score table.
    fn build<G: Playable>(
        &self,
        _: &G,
        _: &EvolveConfig,
        tables: &Arc<RunTables<G>>,
        _: usize,
    ) -> Result<Option<Box<dyn Term<G>>>, PlayerError> {
        Ok(Some(Box::new(Scored(tables.clone()))))
    }
}

impl std::fmt::Display for Exhaustive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::SYNTAX)
    }
}

/// Why a shell and the exact audit do not mix.
pub(crate) const SHELL_VS_AUDIT: &str = "scores the genome inside its shell, which the exact audit (exhaustive fitness, --target unbeatable) does not: use --lookahead 0 with them";

/// The term built, on the run's tables.
struct Scored<G: Playable>(Arc<RunTables<G>>);

impl<G: Playable> Term<G> for Scored<G> {
    fn evaluate(&self, game: &G, round: &Round, eval: &mut Evaluation) {
        if game.as_learner().is_some() && G::PLAYERS == 2 {
            // A value genome reads every gene in every decision: no table of
            // gene values, each position is decided.
            let solved = self.0.solved.get(game);
            let policy = round.rules.policy;
            eval.add_each(round.pop, |genes| {
                decided_share(game, genes, policy, solved)
            });
            return;
        }
        let scores = self
            .0
            .exhaustive(game, round.rules.policy)
            .expect("the configuration checked the board is small enough");
        eval.add_each(round.pop, |genes| scores.score(genes));
    }
}

/// 1,000,000 × the share of the unfinished positions of `solved` where the
/// genome's move keeps the value, each position decided.
fn decided_share<G: TableGame>(
    game: &G,
    genes: &[u8],
    policy: IllegalPolicy,
    solved: &SolvedTable<G::Position>,
) -> u32 {
    let (mut total, mut kept) = (0u64, 0u64);
    for pos in solved.positions().filter(|p| game.outcome(p).is_none()) {
        total += 1;
        let target = solved.get(pos).unwrap_or(Value::Draw);
        let keeps = game
            .decide(genes, pos, policy)
            .is_some_and(|m| solved.get(&game.play(pos, m)).map(Value::flip) == Some(target));
        kept += u64::from(keeps);
    }
    (kept * 1_000_000).checked_div(total).unwrap_or(1_000_000) as u32
}

/// Every unfinished position of a small game, solved, turned into a score
/// table: what the exhaustive fitness checks a genome against.
///
/// In these games a position's move depends on one gene only, so the score
/// is a sum over gene indices: `rows[i][g]` counts the positions reading
/// gene index i where the gene value g plays a move that keeps the game's
/// value. Scoring a genome is then one load per index (627 for the
/// symmetric tic-tac-toe encoder, 101 for 100 sticks under the `sticks`
/// encoder) instead of one decision per position.
pub struct ExhaustiveScores {
    rows: Vec<(usize, Box<[u32; 256]>)>,
    total: u64,
}

impl ExhaustiveScores {
    /// Tabulates every gene value of every index `game` reads in its
    /// `solved` positions (tic-tac-toe: 4,520), under the illegal-gene
    /// `policy`.
    pub fn build<G: TableGame>(
        game: &G,
        policy: IllegalPolicy,
        solved: &SolvedTable<G::Position>,
    ) -> Self {
        let mut moves = Vec::new();
        let unfinished = solved.positions().filter(|pos| game.outcome(pos).is_none());
        ExhaustiveScores::build_with(game, policy, unfinished, |pos| {
            let target = solved.get(pos).unwrap_or(Value::Draw);
            game.legal_moves(pos, &mut moves);
            moves
                .iter()
                .copied()
                .filter(|&m| solved.get(&game.play(pos, m)).map(Value::flip) == Some(target))
                .collect()
        })
    }

    /// Tabulates `positions` (unfinished), where `keep` names the moves
    /// that keep what the position is worth.
    pub(crate) fn build_with<'p, G: TableGame>(
        game: &G,
        policy: IllegalPolicy,
        positions: impl Iterator<Item = &'p G::Position>,
        mut keep: impl FnMut(&G::Position) -> Vec<G::Move>,
    ) -> Self {
        let mut scratch = vec![0u8; game.gene_count()];
        let mut rows: BTreeMap<usize, Box<[u32; 256]>> = BTreeMap::new();
        let mut total = 0u64;
        for pos in positions {
            total += 1;
            // Only games whose decision reads one gene can be tabulated.
            let reason = game.explain(&scratch, pos, policy);
            let mut read = reason.consulted();
            let (Some(index), None) = (read.next(), read.next()) else {
                continue;
            };
            let keep = keep(pos);
            let row = rows.entry(index).or_insert_with(|| Box::new([0; 256]));
            for gene in (0..=255u8).filter(|&g| game.gene_is_valid(g)) {
                scratch[index] = gene;
                if game
                    .decide(&scratch, pos, policy)
                    .is_some_and(|m| keep.contains(&m))
                {
                    row[gene as usize] += 1;
                }
            }
            scratch[index] = 0;
        }
        ExhaustiveScores {
            rows: rows.into_iter().collect(),
            total,
        }
    }

    /// 1,000,000 × the share of positions where the genome's move keeps the
    /// value (fine enough that one position of a 100-stick game counts).
    pub fn score(&self, genes: &[u8]) -> u32 {
        let good: u64 = self
            .rows
            .iter()
            .map(|(index, row)| row[genes[*index] as usize] as u64)
            .sum();
        (1_000_000 * good / self.total.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Matchsticks, MatchsticksEncoder, MatchsticksRules, TakeRule};

    /// The smallest term of n's Zeckendorf representation: Fibonacci nim's
    /// winning take whenever it is allowed.
    fn zeckendorf_smallest(mut n: usize) -> usize {
        let mut fib = vec![1usize, 2];
        while fib[fib.len() - 1] <= n {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let mut smallest = n;
        for &f in fib.iter().rev() {
            if f <= n {
                n -= f;
                smallest = f;
            }
        }
        smallest
    }

    #[test]
    fn the_zeckendorf_genome_scores_full_marks_with_the_sticks_encoder() {
        let game = crate::games::Pair::new(
            Matchsticks::new(MatchsticksRules {
                sticks: 60,
                rule: TakeRule::Double,
            }),
            MatchsticksEncoder::Sticks,
        );
        let genes: Vec<u8> = (0..=60)
            .map(|n| zeckendorf_smallest(n.max(1)) as u8)
            .collect();
        let scores =
            ExhaustiveScores::build(&game, IllegalPolicy::Repair, &SolvedTable::build(&game));
        assert_eq!(scores.score(&genes), 1_000_000);
        let mut wrong = genes.clone();
        wrong[50] = 7;
        assert!(scores.score(&wrong) < 1_000_000);
    }
}
