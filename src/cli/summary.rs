//! The closing summary of a run that ended: its games, its speed, what it
//! wrote and where the champion went.

use super::evolution_run::{bench_summary, resume_command};
use crate::dispatch::BuiltInGame;
use crate::evolve::Evolution;
use std::path::PathBuf;

/// What the closing summary of a finished run says beyond the run itself.
pub(super) struct Summary {
    pub(super) first: u64,
    pub(super) games: u64,
    pub(super) learned: u64,
    pub(super) seconds: f64,
    pub(super) champion_copy: Option<PathBuf>,
    pub(super) plotted: Option<PathBuf>,
    /// The stopping rule that ended the run, if one did.
    pub(super) reached: Option<String>,
}

impl Summary {
    pub(super) fn print<G: BuiltInGame>(self, evolution: &Evolution<G>) -> anyhow::Result<()> {
        let (run, done) = (evolution.run_dir(), evolution.generation());
        let (cfg, abilities) = (evolution.config(), evolution.abilities());
        let (first, games, elapsed) = (self.first, self.games, self.seconds);
        let mut pace = if games > 0 {
            format!(
                " ({} games, {} games/s)",
                grouped(games as f64),
                grouped(games as f64 / elapsed.max(1e-9))
            )
        } else {
            String::new()
        };
        if self.learned > 0 {
            let against = match &cfg.learn_against {
                None => "self-play games".to_string(),
                Some(spec) => format!("games against {spec}"),
            };
            pace += &format!(
                " and {} {against} learned from ({}/s)",
                grouped(self.learned as f64),
                grouped(self.learned as f64 / elapsed.max(1e-9))
            );
        }
        let span = generations(first, done.saturating_sub(1));
        outln!("evolved {} for {span} in {elapsed:.1} s{pace}", cfg.game);
        if let Some(row) = evolution.rows().last() {
            outln!(
                "champion   {} of {} fitness points in generation {} (mean {:.1}, diversity {:.3})",
                row.best,
                crate::evolve::fitness::max_points(cfg, abilities),
                row.generation,
                row.mean,
                row.diversity
            );
        }
        let (bytes, checkpoints) = written(run.root());
        outln!(
            "run        {}  ({}: run.toml, stats.csv, best.genome and {checkpoints} checkpoint{})",
            run.root().display(),
            crate::store::size_in_words(bytes),
            if checkpoints == 1 { "" } else { "s" }
        );
        match &self.champion_copy {
            Some(copy) => outln!(
                "champion   {} and {}",
                run.best_genome().display(),
                copy.display()
            ),
            None => outln!("champion   {}", run.best_genome().display()),
        }
        if let Some(plot) = &self.plotted {
            outln!("plot       {}", plot.display());
        }
        if let Some(reason) = &self.reached {
            outln!("stopped    {reason}");
        }
        // The run's end put the final champion's benchmark on the last
        // generation's first row.
        let last = evolution
            .rows()
            .len()
            .checked_sub(cfg.islands)
            .and_then(|at| evolution.rows().get(at));
        if let Some(row) = last.filter(|r| !r.bench.is_empty()) {
            let columns = bench_summary(cfg, abilities, &row.bench);
            outln!(
                "benchmark  {columns} (the final champion, generation {})",
                row.generation
            );
        }
        outln!("seed       {}", cfg.seed);
        // After a stopping rule, resuming would stop again at once.
        if self.reached.is_none() {
            if done < cfg.generations {
                // Short of its plan (a resume asked for fewer): a plain
                // resume finishes it.
                outln!(
                    "continue   {} {}  (the rest of the plan: {})",
                    resume_command(),
                    run.root().display(),
                    generations(done, cfg.generations - 1)
                );
            } else {
                outln!(
                    "continue   {} {} --generations 100  (100 more)",
                    resume_command(),
                    run.root().display()
                );
            }
        }
        Ok(())
    }
}

/// What a run directory holds: its bytes, and its checkpoints (every
/// rank's under MPI). Links are not followed.
fn written(dir: &std::path::Path) -> (u64, usize) {
    let (mut bytes, mut checkpoints) = (0, 0);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    for entry in entries.filter_map(Result::ok) {
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if meta.is_dir() {
            let (b, c) = written(&entry.path());
            bytes += b;
            checkpoints += c;
        } else if meta.is_file() {
            bytes += meta.len();
            checkpoints += usize::from(entry.file_name().to_string_lossy().ends_with(".ckpt"));
        }
    }
    (bytes, checkpoints)
}

/// `generation 4` or `generations 4-9`: the generations `first` to `last`.
pub(super) fn generations(first: u64, last: u64) -> String {
    if first == last {
        format!("generation {first}")
    } else {
        format!("generations {first}-{last}")
    }
}

/// A count or rate rounded to a whole number, its thousands grouped:
/// `7,147,796`.
pub(super) fn grouped(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{generations, grouped};

    #[test]
    fn spans_of_generations_read_as_words() {
        assert_eq!(generations(4, 4), "generation 4");
        assert_eq!(generations(4, 9), "generations 4-9");
    }

    #[test]
    fn counts_group_their_thousands() {
        assert_eq!(grouped(0.0), "0");
        assert_eq!(grouped(999.4), "999");
        assert_eq!(grouped(1000.0), "1,000");
        assert_eq!(grouped(7_147_796.2), "7,147,796");
        assert_eq!(grouped(123_456.0), "123,456");
    }
}
