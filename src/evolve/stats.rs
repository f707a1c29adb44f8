//! One row of `stats.csv` per generation, and the diversity measure.

use super::{EvolveConfig, Population, bench};
use serde::{Deserialize, Serialize};

/// The fixed columns of `stats.csv` (contract: the first four).
pub const STATS_HEADER: &str = "generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s";

/// The header of a run's `stats.csv`: the fixed columns, then one per
/// benchmark opponent (`vs_random`, …) and, for tic-tac-toe and matchsticks,
/// the audit's `optimal_rate,unbeatable_first,unbeatable_second`.
pub fn header(cfg: &EvolveConfig) -> String {
    let mut header = STATS_HEADER.to_string();
    for column in bench::columns(cfg) {
        header.push(',');
        header.push_str(&column);
    }
    header
}

/// What one generation looked like.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsRow {
    pub generation: u64,
    /// Round-robin points of the champion, the mean and the last.
    pub best: u32,
    pub mean: f64,
    pub worst: u32,
    /// Mean share of differing genes between pairs of a sample of genomes.
    pub diversity: f64,
    /// Seconds in the round-robin.
    pub tournament_s: f64,
    /// Seconds breeding the next generation.
    pub breeding_s: f64,
    /// Seconds writing files since the previous row (the checkpoint written
    /// after the previous generation included).
    pub io_s: f64,
    /// Benchmark values in header order; empty when not measured.
    pub bench: Vec<f64>,
}

impl StatsRow {
    /// The row as a CSV line (no newline) with `columns` benchmark cells
    /// (left empty when this generation was not measured).
    pub fn csv_line(&self, columns: usize) -> String {
        let mut line = format!(
            "{},{},{:.3},{},{:.5},{:.6},{:.6},{:.6}",
            self.generation,
            self.best,
            self.mean,
            self.worst,
            self.diversity,
            self.tournament_s,
            self.breeding_s,
            self.io_s
        );
        for i in 0..columns {
            line.push(',');
            if let Some(v) = self.bench.get(i) {
                line.push_str(&format!("{v:.4}"));
            }
        }
        line
    }
}

/// Genomes sampled for the diversity measure.
const SAMPLE_GENOMES: usize = 8;
/// Gene positions compared at most per pair.
const SAMPLE_GENES: usize = 65_536;

/// Mean pairwise share of differing genes over up to 8 evenly spaced genomes,
/// on the genes play can consult (`active`, all when `None`) sampled evenly
/// to at most 65,536: 0 when all are equal.
pub fn diversity(pop: &Population, active: Option<&[u32]>) -> f64 {
    let n = pop.size();
    let picks: Vec<usize> = (0..SAMPLE_GENOMES.min(n))
        .map(|k| k * n / SAMPLE_GENOMES.min(n))
        .collect();
    let positions: Vec<usize> = match active {
        Some(a) => {
            let stride = a.len().div_ceil(SAMPLE_GENES).max(1);
            a.iter().step_by(stride).map(|&i| i as usize).collect()
        }
        None => {
            let stride = pop.gene_count().div_ceil(SAMPLE_GENES).max(1);
            (0..pop.gene_count()).step_by(stride).collect()
        }
    };
    let mut total = 0.0;
    let mut pairs = 0usize;
    for (i, &a) in picks.iter().enumerate() {
        for &b in &picks[i + 1..] {
            let (ga, gb) = (pop.genome(a), pop.genome(b));
            let differing = positions.iter().filter(|&&k| ga[k] != gb[k]).count();
            total += differing as f64 / positions.len().max(1) as f64;
            pairs += 1;
        }
    }
    if pairs == 0 {
        0.0
    } else {
        total / pairs as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_genomes_have_no_diversity_and_disjoint_ones_full() {
        let same = Population::from_genes(vec![3u8; 40], 10);
        assert_eq!(diversity(&same, None), 0.0);
        let genes: Vec<u8> = (0..4u8).flat_map(|g| vec![g; 10]).collect();
        let pop = Population::from_genes(genes, 10);
        assert_eq!(diversity(&pop, None), 1.0);
        assert_eq!(diversity(&pop, Some(&[2, 5])), 1.0);
    }
}
