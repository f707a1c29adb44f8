//! The generation loop and its bookkeeping on disk.
//!
//! Per generation, [`Evolution::step`] reads as three steps: evaluate (the
//! fitness terms, [`super::fitness`]), record (rank, stats, benchmark, the
//! champion and `best.genome` when its genes changed) and breed (the next
//! population into the spare buffer, then swap). Then a `stats.csv` row is
//! appended, and every `checkpoint_every` generations (and at the end, or
//! when stopped) a checkpoint of the population about to be evaluated is
//! written, with `best.genome` rewritten beside it (so its provenance names
//! the last generation, and a resumed run ends with the same file).

use super::RunDir;
use super::bench::{self, Bench};
use super::checkpoint::{self, Checkpoint};
use super::fitness::{Evaluation, FitnessTerms};
use super::hall::HALL_SIZE;
use super::learn::Tutor;
use super::stats::diversity;
use super::tournament::rank;
use super::{ConfigError, EvolveConfig, Hall, Population, StatsRow, Target, breeding};
use crate::encoding::TableGame;
use crate::genome::{Genome, Provenance};
use crate::players::{Knowledge, PlayerError};
use crate::solve::SolvedOnce;
use crate::store::FileError;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What one generation produced.
#[derive(Clone, Debug)]
pub struct GenerationReport {
    pub row: StatsRow,
    /// Games played in the generation's evaluation.
    pub games: u64,
}

/// How [`Evolution::run`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// All requested generations are done.
    Finished,
    /// A `--target` or `--patience` rule was met; the reason in words.
    Reached(String),
    /// The stop flag was raised; a checkpoint was written first.
    Stopped,
}

/// Why a run cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Player(#[from] PlayerError),
    #[error(
        "--population {population}: {needed:.1} GB of genes ({population} genomes of {genes} genes, twice: the generation and the next), but {available:.1} GB of memory is available; choose a smaller --population"
    )]
    Memory {
        population: usize,
        genes: usize,
        needed: f64,
        available: f64,
    },
}

/// Memory available to a new process, in bytes (`MemAvailable` of
/// /proc/meminfo), if the system says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses a run whose two populations (and hall of fame) would not fit in
/// the memory available, before anything is allocated.
fn check_memory(gene_count: usize, cfg: &EvolveConfig) -> Result<(), EvolveError> {
    let hall = if cfg.fitness.hall > 0 { HALL_SIZE } else { 0 };
    let needed = ((2 * cfg.population + hall) * gene_count) as u64;
    match available_memory() {
        Some(available) if needed > available => Err(EvolveError::Memory {
            population: cfg.population,
            genes: gene_count,
            needed: needed as f64 / 1e9,
            available: available as f64 / 1e9,
        }),
        _ => Ok(()),
    }
}

/// The best (generation, value) of a benchmark series when it is older than
/// `patience` generations at generation `now` (the first of equal values
/// counts: only a strictly better value resets the wait).
pub fn out_of_patience(
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

/// Receives a report after each generation (progress bars, logs) and a
/// call after each checkpoint (plots).
pub trait Observer {
    fn generation_done(&mut self, report: &GenerationReport);
    fn checkpoint_written(&mut self, _generation: u64) {}
}

/// A run in progress.
pub struct Evolution<G: TableGame + Knowledge> {
    game: G,
    cfg: EvolveConfig,
    run: RunDir,
    population: Population,
    spare: Population,
    generation: u64,
    rows: Vec<StatsRow>,
    pending_io: f64,
    last_checkpoint: Option<u64>,
    fitness: FitnessTerms<G>,
    bench: Bench<G>,
    /// The bank, when the breeding operators use it.
    tutor: Option<Arc<Tutor<G>>>,
    /// With `--target unbeatable`: whether the last champion's audit is
    /// perfect.
    champion_perfect: bool,
    /// The champion of the last evaluated generation, and whether
    /// `best.genome` holds it already.
    champion: Option<Genome>,
    champion_saved: bool,
    hall: Hall,
}

/// The parts of a generation's stats row that [`Evolution::record`] fills.
struct Record {
    best: u32,
    mean: f64,
    worst: u32,
    diversity: f64,
    bench: Vec<f64>,
    /// The champion's genes differ from the last generation's.
    changed: bool,
}

impl<G: TableGame + Knowledge> Evolution<G> {
    /// Starts a new run in `run` (which must not hold one): checks `cfg`,
    /// then writes the checkpoint of generation 0, `run.toml` and an empty
    /// `stats.csv`.
    pub fn start(
        game: G,
        cfg: EvolveConfig,
        run: RunDir,
        threads: usize,
    ) -> Result<Self, EvolveError> {
        cfg.validate()?;
        check_memory(game.gene_count(), &cfg)?;
        let population = Population::initial(&game, cfg.population, cfg.seed, cfg.init);
        let mut evolution = Self::assemble(game, cfg, run, population, 0, Vec::new())?;
        // The checkpoint first: a run killed before run.toml exists can
        // simply be started again, and one killed after it can be resumed
        // (resume rewrites run.toml and stats.csv from the checkpoint).
        evolution.checkpoint()?;
        evolution.run.write_run_toml(&evolution.cfg, threads)?;
        evolution.run.write_stats(&evolution.cfg, &[])?;
        Ok(evolution)
    }

    /// Checks `cfg` and builds every player it names (loading genome files)
    /// without starting anything: what `start` would refuse, refused before
    /// anything is printed or written.
    pub fn check(game: &G, cfg: &EvolveConfig) -> Result<(), EvolveError> {
        cfg.validate()?;
        check_memory(game.gene_count(), cfg)?;
        let solved = Arc::new(SolvedOnce::default());
        let tutor = Tutor::for_run(game, cfg)?.map(Arc::new);
        FitnessTerms::new(game, cfg, solved.clone(), tutor.clone())?;
        Bench::new(game, cfg, solved, tutor)?;
        Ok(())
    }

    /// Continues from a checkpoint, planning `generations` in total; rewrites
    /// `stats.csv` with the checkpoint's rows (dropping any later ones).
    pub fn resume(
        game: G,
        ckpt: Checkpoint,
        run: RunDir,
        generations: u64,
        threads: usize,
    ) -> Result<Self, EvolveError> {
        let mut cfg = ckpt.config;
        cfg.generations = generations;
        cfg.validate()?;
        let mut evolution =
            Self::assemble(game, cfg, run, ckpt.population, ckpt.generation, ckpt.rows)?;
        evolution.run.write_run_toml(&evolution.cfg, threads)?;
        evolution.run.write_stats(&evolution.cfg, &evolution.rows)?;
        evolution.hall = ckpt.hall;
        evolution.last_checkpoint = Some(ckpt.generation);
        Ok(evolution)
    }

    fn assemble(
        game: G,
        cfg: EvolveConfig,
        run: RunDir,
        population: Population,
        generation: u64,
        rows: Vec<StatsRow>,
    ) -> Result<Self, EvolveError> {
        let solved = Arc::new(SolvedOnce::default());
        let tutor = Tutor::for_run(&game, &cfg)?.map(Arc::new);
        let fitness = FitnessTerms::new(&game, &cfg, solved.clone(), tutor.clone())?;
        let bench = Bench::new(&game, &cfg, solved, tutor.clone())?;
        let spare = Population::zeroed(population.size(), population.gene_count());
        let tutor = tutor.filter(|_| cfg.learn.operators());
        Ok(Evolution {
            game,
            cfg,
            run,
            population,
            spare,
            generation,
            rows,
            pending_io: 0.0,
            last_checkpoint: None,
            fitness,
            bench,
            tutor,
            champion_perfect: false,
            champion: None,
            champion_saved: false,
            hall: Hall::default(),
        })
    }

    /// The next generation to evaluate (= generations completed).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn config(&self) -> &EvolveConfig {
        &self.cfg
    }

    pub fn run_dir(&self) -> &RunDir {
        &self.run
    }

    /// The benchmark of the champion in `best.genome` (the last generation's),
    /// in the order of the benchmark columns; empty without a benchmark.
    pub fn measure_champion(&self) -> Result<Vec<f64>, FileError> {
        if bench::columns(&self.cfg).is_empty() {
            return Ok(Vec::new());
        }
        let champion = Genome::load(&self.run.best_genome())?;
        let generation = self.generation.saturating_sub(1);
        Ok(self
            .bench
            .measure(&self.game, &champion.genes, &self.cfg, generation))
    }

    /// Stats of every completed generation.
    pub fn rows(&self) -> &[StatsRow] {
        &self.rows
    }

    /// Evaluates the current generation, records it and breeds the next.
    pub fn step(&mut self) -> Result<GenerationReport, FileError> {
        let started = Instant::now();
        let eval = self.fitness.evaluate(
            &self.game,
            &self.population,
            &self.hall,
            self.cfg.genome_rules(),
            self.cfg.seed,
            self.generation,
        );
        let ranking = rank(&eval.points);
        let record = self.record(&eval, &ranking);
        let tournament_s = started.elapsed().as_secs_f64();

        let io_started = Instant::now();
        self.champion_saved = false;
        if record.changed {
            self.save_champion()?;
        }
        let io_s = self.pending_io + io_started.elapsed().as_secs_f64();

        let games = eval.games;
        let bred = Instant::now();
        self.breed(&ranking, eval);
        let breeding_s = bred.elapsed().as_secs_f64();

        let row = StatsRow {
            generation: self.generation,
            best: record.best,
            mean: record.mean,
            worst: record.worst,
            diversity: record.diversity,
            tournament_s,
            breeding_s,
            io_s,
            bench: record.bench,
        };
        self.finish(row, games)
    }

    /// Ranks the evaluation into the row's figures, measures the champion
    /// when due, and takes it as the run's champion (audited under
    /// `--target unbeatable`, marked unsaved when its genes changed).
    fn record(&mut self, eval: &Evaluation, ranking: &[usize]) -> Record {
        let points = &eval.points;
        let n = points.len();
        let best = points[ranking[0]];
        let champion_genes = self.population.genome(ranking[0]);
        if self.cfg.fitness.hall > 0 {
            self.hall.admit(self.generation, champion_genes);
        }
        let bench = if bench::due(&self.cfg, self.generation) {
            self.bench
                .measure(&self.game, champion_genes, &self.cfg, self.generation)
        } else {
            Vec::new()
        };
        // An elite champion is often the previous one: only new genes are
        // audited, and written (an atomic write costs an fsync; checkpoints
        // rewrite the file with fresh provenance).
        let changed = self
            .champion
            .as_ref()
            .is_none_or(|c| c.genes != champion_genes);
        if self.cfg.stop.target == Some(Target::Unbeatable) && changed {
            self.champion_perfect =
                self.bench
                    .keeps_value_everywhere(&self.game, champion_genes, self.cfg.illegal);
        }
        let provenance = Provenance {
            run: Some(self.run.name()),
            generation: Some(self.generation),
            fitness: Some(best as f64),
            seed: Some(self.cfg.seed),
        };
        match &mut self.champion {
            Some(champion) => {
                champion.provenance = provenance;
                if changed {
                    champion.genes.copy_from_slice(champion_genes);
                }
            }
            slot @ None => {
                *slot = Some(Genome {
                    game: self.game.spec(),
                    provenance,
                    genes: champion_genes.to_vec(),
                    lookahead: self.cfg.lookahead,
                });
            }
        }
        Record {
            best,
            mean: points.iter().map(|&p| p as f64).sum::<f64>() / n as f64,
            worst: points[ranking[n - 1]],
            diversity: diversity(&self.population, self.game.active_genes()),
            bench,
            changed,
        }
    }

    /// Breeds the next population from the ranked current one.
    fn breed(&mut self, ranking: &[usize], eval: Evaluation) {
        breeding::breed(
            &self.game,
            &self.cfg,
            &self.population,
            ranking,
            self.generation,
            eval.usage.map(|u| u.indices()).as_deref(),
            self.tutor.as_deref(),
            &mut self.spare,
        );
        std::mem::swap(&mut self.population, &mut self.spare);
    }

    /// Appends the generation's row and checkpoints when due.
    fn finish(&mut self, row: StatsRow, games: u64) -> Result<GenerationReport, FileError> {
        self.run.append_stats(&self.cfg, &row)?;
        self.rows.push(row.clone());
        self.generation += 1;
        self.pending_io = 0.0;
        if self.generation.is_multiple_of(self.cfg.checkpoint_every)
            || self.generation == self.cfg.generations
        {
            self.checkpoint()?;
        }
        Ok(GenerationReport { row, games })
    }

    /// Writes the checkpoint of the current state (once per generation) and
    /// removes the oldest beyond `keep`.
    pub fn checkpoint(&mut self) -> Result<(), FileError> {
        if self.last_checkpoint == Some(self.generation) {
            return Ok(());
        }
        let started = Instant::now();
        self.save_champion()?;
        let dir = self.run.checkpoints();
        let path = dir.join(checkpoint::file_name(self.generation));
        checkpoint::write(
            &path,
            &self.cfg,
            self.generation,
            &self.rows,
            &self.population,
            &self.hall,
        )?;
        checkpoint::prune(&dir, self.cfg.keep).map_err(|e| FileError::new(&dir, e))?;
        self.last_checkpoint = Some(self.generation);
        self.pending_io += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Writes the last generation's champion to `best.genome` unless it is
    /// there already.
    fn save_champion(&mut self) -> Result<(), FileError> {
        if let Some(champion) = self.champion.as_ref().filter(|_| !self.champion_saved) {
            champion.save(&self.run.best_genome())?;
            self.champion_saved = true;
        }
        Ok(())
    }

    /// Runs generations until `until` have been completed, a stopping rule
    /// is met or `stop` is raised; the state is checkpointed before returning.
    pub fn run(
        &mut self,
        until: u64,
        stop: &AtomicBool,
        observer: &mut dyn Observer,
    ) -> Result<RunEnd, FileError> {
        while self.generation < until {
            if stop.load(Ordering::SeqCst) {
                self.checkpoint()?;
                return Ok(RunEnd::Stopped);
            }
            let before = self.last_checkpoint;
            let report = self.step()?;
            observer.generation_done(&report);
            if self.last_checkpoint != before {
                observer.checkpoint_written(self.generation);
            }
            if let Some(reason) = self.stop_reason() {
                self.checkpoint()?;
                return Ok(RunEnd::Reached(reason));
            }
        }
        self.checkpoint()?;
        Ok(RunEnd::Finished)
    }

    /// Whether `--target` or `--patience` says to stop after the last
    /// generation (decided from the stats rows alone, so a resumed run
    /// decides alike).
    pub fn stop_reason(&self) -> Option<String> {
        let cfg = &self.cfg;
        let g = self.rows.last()?.generation;
        if self.champion_perfect {
            return Some(format!(
                "target reached: the champion of generation {g} keeps the game's value in every position it can reach (unbeatable)"
            ));
        }
        let last = self.rows.last().filter(|r| !r.bench.is_empty())?;
        let columns = bench::columns(cfg);
        let value = |row: &StatsRow, column: usize| row.bench.get(column).copied();
        if let Some(Target::Score { opponent, share }) = &cfg.stop.target {
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
        let patience = cfg.stop.patience?;
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
