//! When a run stops: its `--target` and `--patience` rules, and the
//! benchmark its end puts on the last row.

use super::Evolution;
use crate::evolve::bench;
use crate::evolve::{StatsRow, Target};
use crate::players::Playable;
use crate::store::FileError;

/// The best (generation, value) of a benchmark series when it is older than
/// `patience` generations at generation `now` (the first of equal values
/// counts: only a strictly better value resets the wait).
fn out_of_patience(
    values: impl Iterator<Item = (u64, f64)>,
    now: u64,
    patience: u64,
) -> Option<(u64, f64)> {
    let mut best: Option<(u64, f64)> = None;
    for (generation, v) in values {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((generation, v));
        }
    }
    best.filter(|&(generation, _)| now.saturating_sub(generation) >= patience)
}

impl<G: Playable> Evolution<G> {
    /// The first island's row of the last generation, if there is one.
    pub(super) fn last_bench_row(&self) -> Option<usize> {
        self.rows.len().checked_sub(self.cfg.islands)
    }

    /// At the end of a run (its plan, or a stopping rule): the benchmark of
    /// the last generation's champion on its row of `stats.csv` if it was
    /// not due there, so that the curve ends where the run ended.
    pub(super) fn bench_last_generation(&mut self) -> Result<(), FileError> {
        let columns = bench::columns(&self.cfg, &self.abilities).len();
        let Some(at) = self.last_bench_row() else {
            return Ok(());
        };
        if columns == 0 || !self.rows[at].bench.is_empty() {
            return Ok(());
        }
        let Some(champion) = &self.champion else {
            return Ok(());
        };
        let generation = self.rows[at].generation;
        let mut values = if self.exchange.is_root() {
            self.bench
                .measure(&self.game, &champion.genes, &self.cfg, generation)
        } else {
            vec![0.0; columns]
        };
        self.exchange.broadcast_f64(0, &mut values);
        self.rows[at].bench = values;
        if self.exchange.is_root() {
            self.run
                .write_stats(&self.cfg, &self.abilities, &self.rows)?;
        }
        // The checkpoint holds the rows: written again.
        self.last_checkpoint = None;
        Ok(())
    }

    /// Whether `--target` or `--patience` says to stop after the last
    /// generation (decided from the stats rows alone, so a resumed run
    /// decides alike).
    pub fn stop_reason(&self) -> Option<String> {
        if !self.stop_rules {
            return None;
        }
        let cfg = &self.cfg;
        let g = self.rows.last()?.generation;
        // The benchmark is on the first island's row of a generation.
        let first_of_last = self.rows.len() - cfg.islands;
        if let (Some(Target::Pegs(n)), Some(left)) = (&cfg.target, self.champion_left)
            && left <= *n
        {
            return Some(format!(
                "target reached: the champion of generation {g} leaves {left} peg{} from the start",
                if left == 1 { "" } else { "s" }
            ));
        }
        if self.champion_perfect {
            let sides = match self.bench.lost_side(&self.game) {
                Some(lost) => format!(
                    "; it cannot lose as the {} player, and the {lost} player loses from the start against perfect play, so unbeatable_{lost} stays 0",
                    if lost == "first" { "second" } else { "first" }
                ),
                None => String::new(),
            };
            return Some(format!(
                "target reached: the champion of generation {g} keeps the game's value in every position it can reach (unbeatable){sides}"
            ));
        }
        let last = self
            .rows
            .get(first_of_last)
            .filter(|r| !r.bench.is_empty())?;
        let columns = bench::columns(cfg, &self.abilities);
        let value = |row: &StatsRow, column: usize| row.bench.get(column).copied();
        if let Some(Target::Score { opponent, share }) = &cfg.target {
            let name = bench::column_name(opponent);
            let column = columns.iter().position(|c| *c == name);
            if column
                .and_then(|c| value(last, c))
                .is_some_and(|v| v >= *share)
            {
                return Some(format!(
                    "target reached: the champion of generation {g} scores {:.1}% or more against {opponent}",
                    100.0 * share
                ));
            }
        }
        let patience = cfg.patience?;
        let column = columns
            .iter()
            .position(|c| c == "optimal_rate")
            .or((!columns.is_empty()).then_some(0))?;
        let metric = &columns[column];
        let values = self
            .rows
            .iter()
            .filter_map(|r| value(r, column).map(|v| (r.generation, v)));
        let (best_gen, best) = out_of_patience(values, g, patience)?;
        Some(format!(
            "patience: {metric} has not beaten {best:.4} (generation {best_gen}) for {patience} generations"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::out_of_patience;

    #[test]
    fn patience_counts_from_the_last_strict_improvement() {
        let series = [(0, 0.5), (10, 0.7), (20, 0.7), (30, 0.6)];
        assert_eq!(out_of_patience(series.into_iter(), 30, 20), Some((10, 0.7)));
        assert_eq!(out_of_patience(series.into_iter(), 30, 21), None);
        assert_eq!(out_of_patience(std::iter::empty(), 30, 1), None);
    }
}
