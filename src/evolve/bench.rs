//! Fixed opponents inside a run: the benchmark columns of `stats.csv` and
//! the fitness games of `--fitness round-robin+SPEC:N` / `vs:SPEC:N`.
//!
//! Points inside one population say who beats whom there, not whether
//! anyone got better; a champion's score against fixed opponents (and, for
//! the small games, its exact audit) does. Every game is seeded from (run
//! seed, generation, stream), so benchmarks are as reproducible as the run.

use super::{EvolveConfig, Population, Target, derive_seed};
use crate::audit::{AuditReport, audit_with, keeps_value_everywhere};
use crate::encoding::{GeneUsage, Genotype, IllegalPolicy};
use crate::eval::{MatchConfig, default_openings, play_with};
use crate::games::GameKind;
use crate::players::knowledge::SolvedTable;
use crate::players::{
    GenomePlayer, Player, PlayerError, PlayerFactory, PlayerSpec, RecordingPlayer,
};
use crate::solve::Value;
use rayon::prelude::*;
use std::any::Any;
use std::sync::{Arc, OnceLock};

/// The value in a run-wide cache `cell`, built by `build` on first use. A
/// bench serves one game type, so the stored type always matches; were it
/// ever not to, a fresh value is built rather than trusting the cell.
fn shared<T: Any + Send + Sync>(
    cell: &OnceLock<Arc<dyn Any + Send + Sync>>,
    build: impl Fn() -> T,
) -> Arc<T> {
    cell.get_or_init(|| Arc::new(build()) as Arc<dyn Any + Send + Sync>)
        .clone()
        .downcast::<T>()
        .unwrap_or_else(|_| Arc::new(build()))
}

/// Seed streams, so benchmark and fitness games never share draws.
const BENCH_STREAM: u64 = 0xbe4c;
const FITNESS_STREAM: u64 = 0xf17e;

/// Audit columns, for the games that can be audited exactly.
pub const AUDIT_COLUMNS: [&str; 3] = ["optimal_rate", "unbeatable_first", "unbeatable_second"];

/// The column name of a benchmark opponent.
pub fn column_name(spec: &str) -> String {
    let name = match PlayerSpec::parse(spec) {
        Ok(PlayerSpec::Genome(path)) => path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.to_string()),
        _ => spec.to_string(),
    };
    format!("vs_{}", name.replace(',', "_"))
}

/// The benchmark opponents of a run: `--bench-against`, plus the target's
/// opponent when it is not among them.
fn opponents(cfg: &EvolveConfig) -> Vec<String> {
    let mut specs = if cfg.bench_every > 0 {
        cfg.bench_against.clone()
    } else {
        Vec::new()
    };
    if let Some(Target::Score { opponent, .. }) = &cfg.target
        && !specs.contains(opponent)
    {
        specs.push(opponent.clone());
    }
    specs
}

/// Whether the benchmark includes the audit (exact games only).
fn audited(cfg: &EvolveConfig) -> bool {
    cfg.game.kind() != GameKind::Connect4 && cfg.bench_every > 0
}

/// The benchmark columns of `stats.csv`, in order.
pub fn columns(cfg: &EvolveConfig) -> Vec<String> {
    let mut cols: Vec<String> = opponents(cfg).iter().map(|s| column_name(s)).collect();
    if audited(cfg) {
        cols.extend(AUDIT_COLUMNS.iter().map(|c| c.to_string()));
    }
    cols
}

/// Whether generation `generation` is measured: every `bench_every`
/// generations, or every generation when a score target needs it and
/// `bench_every` is 0.
pub fn due(cfg: &EvolveConfig, generation: u64) -> bool {
    match cfg.bench_every {
        0 => matches!(cfg.target, Some(Target::Score { .. })),
        k => generation.is_multiple_of(k),
    }
}

/// The fixed opponents of a run, ready to play.
pub struct Bench {
    opponents: Vec<PlayerFactory>,
    audit: bool,
    fitness: Vec<(PlayerFactory, u64)>,
    exhaustive: bool,
    /// The solved positions of the exhaustive fitness, built on first use.
    lessons: OnceLock<Arc<dyn Any + Send + Sync>>,
    /// The solved game for audits, built on first use.
    table: OnceLock<Arc<dyn Any + Send + Sync>>,
}

/// Every unfinished position of a small game, solved, turned into a score
/// table: what the exhaustive fitness checks a genome against.
///
/// In these games a position's move depends on one gene only, so the score
/// is a sum over gene indices: `table[i][g]` counts the positions reading
/// gene index i where the gene value g plays a move that keeps the game's
/// value. Scoring a genome is then one load per index (627 for the symmetric
/// tic-tac-toe encoder, 101 for 100 sticks under the `sticks` encoder)
/// instead of one decision per position.
pub struct Lessons<G: Genotype> {
    table: Vec<(usize, Box<[u32; 256]>)>,
    total: u64,
    game: std::marker::PhantomData<G>,
}

impl<G: Genotype> Lessons<G> {
    /// Tabulates every gene value of every index `game` reads in its
    /// `solved` positions (tic-tac-toe: 4,520), under the illegal-gene `policy`.
    pub fn build(game: &G, policy: IllegalPolicy, solved: &SolvedTable<G::Position>) -> Self {
        let mut moves = Vec::new();
        let mut scratch = vec![0u8; game.gene_count()];
        let mut table: std::collections::BTreeMap<usize, Box<[u32; 256]>> =
            std::collections::BTreeMap::new();
        let mut total = 0u64;
        for pos in solved.positions().filter(|pos| game.outcome(pos).is_none()) {
            total += 1;
            let index = match game.explain(&scratch, pos, policy) {
                crate::encoding::Reason::Lookup { index, .. } => index,
                crate::encoding::Reason::Votes { .. } => continue,
            };
            let target = solved.get(pos).unwrap_or(Value::Draw);
            game.legal_moves(pos, &mut moves);
            let keep: Vec<G::Move> = moves
                .iter()
                .copied()
                .filter(|&m| solved.get(&game.play(pos, m)).map(Value::flip) == Some(target))
                .collect();
            let row = table.entry(index).or_insert_with(|| Box::new([0; 256]));
            for gene in 0..=255u8 {
                if !game.gene_is_valid(gene) {
                    continue;
                }
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
        Lessons {
            table: table.into_iter().collect(),
            total,
            game: std::marker::PhantomData,
        }
    }

    /// 1,000,000 × the share of positions where the genome's move keeps the
    /// value (fine enough that one position of a 100-stick game counts).
    pub fn score(&self, genes: &[u8]) -> u32 {
        let good: u64 = self
            .table
            .iter()
            .map(|(index, row)| row[genes[*index] as usize] as u64)
            .sum();
        (1_000_000 * good / self.total.max(1)) as u32
    }
}

impl Bench {
    /// Resolves every player spec of `cfg` for `game` (loading genome files).
    pub fn new<G: Genotype>(game: &G, cfg: &EvolveConfig) -> Result<Bench, PlayerError> {
        let resolve = |spec: &str| PlayerSpec::parse(spec)?.factory(game, cfg.illegal);
        let opponents = opponents(cfg)
            .iter()
            .map(|s| resolve(s))
            .collect::<Result<_, _>>()?;
        let fitness = cfg
            .fitness
            .opponents
            .iter()
            .map(|(spec, games)| Ok((resolve(spec)?, *games)))
            .collect::<Result<_, PlayerError>>()?;
        Ok(Bench {
            opponents,
            audit: audited(cfg),
            fitness,
            exhaustive: cfg.fitness.exhaustive,
            lessons: OnceLock::new(),
            table: OnceLock::new(),
        })
    }

    /// The solved game, built on first use and shared by the exhaustive
    /// fitness and every audit of the run.
    fn solved<G: Genotype>(&self, game: &G) -> Arc<SolvedTable<G::Position>> {
        shared(&self.table, || SolvedTable::build(game))
    }

    /// The exhaustive fitness's score table, built once per run.
    fn lessons<G: Genotype>(&self, game: &G, policy: IllegalPolicy) -> Arc<Lessons<G>> {
        shared(&self.lessons, || {
            Lessons::build(game, policy, &self.solved(game))
        })
    }

    /// Whether `genes` keep the game's value everywhere they can reach (the
    /// `--target unbeatable` test).
    pub fn keeps_value_everywhere<G: Genotype>(
        &self,
        game: &G,
        genes: &[u8],
        policy: IllegalPolicy,
    ) -> bool {
        keeps_value_everywhere(game, genes, policy, &self.solved(game))
    }

    /// The exact audit of `genes`.
    pub fn audit<G: Genotype>(&self, game: &G, genes: &[u8], policy: IllegalPolicy) -> AuditReport {
        audit_with(game, genes, policy, &self.solved(game))
    }

    /// The champion's benchmark values, in [`columns`] order.
    pub fn measure<G: Genotype>(
        &self,
        game: &G,
        champion: &[u8],
        cfg: &EvolveConfig,
        generation: u64,
    ) -> Vec<f64> {
        let match_cfg = MatchConfig {
            games: cfg.bench_games,
            seed: derive_seed(cfg.seed, generation, BENCH_STREAM),
            openings: default_openings(game.spec().kind()),
        };
        let me = || Box::new(GenomePlayer::new(champion, cfg.illegal)) as Box<dyn Player<G> + '_>;
        let mut values: Vec<f64> = self
            .opponents
            .iter()
            .enumerate()
            .map(|(i, opponent)| {
                play_with(game, &me, &|| opponent.make(game, 0), i as u64, match_cfg).score()
            })
            .collect();
        if self.audit {
            let report = self.audit(game, champion, cfg.illegal);
            values.push(report.optimal_rate());
            values.push(report.unbeatable_first as u8 as f64);
            values.push(report.unbeatable_second as u8 as f64);
        }
        values
    }

    /// Fitness points from games against the fixed opponents (2 a win, 1 a
    /// draw) per genome, and the games played; `None` without opponents.
    /// With `usage`, every gene index the genomes read in these games is
    /// marked there.
    pub fn fitness_points<G: Genotype>(
        &self,
        game: &G,
        pop: &Population,
        policy: IllegalPolicy,
        seed: u64,
        generation: u64,
        usage: Option<&GeneUsage>,
    ) -> Option<(Vec<u32>, u64)> {
        if self.fitness.is_empty() && !self.exhaustive {
            return None;
        }
        let mut points = vec![0u32; pop.size()];
        let mut played = 0;
        if self.exhaustive {
            let lessons = self.lessons(game, policy);
            let scores: Vec<u32> = (0..pop.size())
                .into_par_iter()
                .map(|i| lessons.score(pop.genome(i)))
                .collect();
            points.iter_mut().zip(scores).for_each(|(p, r)| *p += r);
        }
        for (k, (opponent, games)) in self.fitness.iter().enumerate() {
            let match_cfg = MatchConfig {
                games: *games,
                seed: derive_seed(seed, generation, FITNESS_STREAM + k as u64),
                openings: default_openings(game.spec().kind()),
            };
            let earned: Vec<u32> = (0..pop.size())
                .into_par_iter()
                .map(|i| {
                    let me = || match usage {
                        Some(usage) => Box::new(RecordingPlayer::new(pop.genome(i), policy, usage))
                            as Box<dyn Player<G> + '_>,
                        None => Box::new(GenomePlayer::new(pop.genome(i), policy)),
                    };
                    let t = play_with(game, &me, &|| opponent.make(game, 0), i as u64, match_cfg);
                    (2 * t.wins + t.draws) as u32
                })
                .collect();
            points.iter_mut().zip(earned).for_each(|(p, e)| *p += e);
            played += games.div_ceil(2) * 2 * pop.size() as u64;
        }
        Some((points, played))
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
        let game = Matchsticks {
            rules: MatchsticksRules {
                sticks: 60,
                rule: TakeRule::Double,
            },
            encoder: MatchsticksEncoder::Sticks,
        };
        let genes: Vec<u8> = (0..=60)
            .map(|n| zeckendorf_smallest(n.max(1)) as u8)
            .collect();
        let lessons = Lessons::build(&game, IllegalPolicy::Repair, &SolvedTable::build(&game));
        assert_eq!(lessons.score(&genes), 1_000_000);
        let mut wrong = genes.clone();
        wrong[50] = 7;
        assert!(lessons.score(&wrong) < 1_000_000);
    }
}
