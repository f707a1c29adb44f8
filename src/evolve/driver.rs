//! The generation loop and its bookkeeping on disk.
//!
//! Per generation: round-robin, rank, write `best.genome`, breed the next
//! population into the spare buffer and swap, append a `stats.csv` row, and
//! every `checkpoint_every` generations (and at the end, or when stopped)
//! write a checkpoint of the population about to be evaluated.

use super::checkpoint::{self, Checkpoint};
use super::stats::diversity;
use super::tournament::{rank, round_robin};
use super::{EvolveConfig, Population, StatsRow, breeding};
use crate::encoding::Genotype;
use crate::genome::{Genome, Provenance};
use crate::store::{FileError, RunDir};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What one generation produced.
#[derive(Clone, Debug)]
pub struct GenerationReport {
    pub row: StatsRow,
    /// Games played in the round-robin.
    pub games: u64,
}

/// How [`Evolution::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// All requested generations are done.
    Finished,
    /// The stop flag was raised; a checkpoint was written first.
    Stopped,
}

/// Receives a report after each generation (progress bars, logs).
pub trait Observer {
    fn generation_done(&mut self, report: &GenerationReport);
}

impl<F: FnMut(&GenerationReport)> Observer for F {
    fn generation_done(&mut self, report: &GenerationReport) {
        self(report)
    }
}

/// A run in progress.
pub struct Evolution<G: Genotype> {
    game: G,
    cfg: EvolveConfig,
    run: RunDir,
    population: Population,
    spare: Population,
    generation: u64,
    rows: Vec<StatsRow>,
    pending_io: f64,
    last_checkpoint: Option<u64>,
}

impl<G: Genotype> Evolution<G> {
    /// Starts a new run in `run` (which must not hold one): writes
    /// `run.toml`, an empty `stats.csv` and the checkpoint of generation 0.
    pub fn start(
        game: G,
        cfg: EvolveConfig,
        run: RunDir,
        threads: usize,
    ) -> Result<Self, FileError> {
        run.write_run_toml(&cfg, threads)?;
        run.write_stats(&[])?;
        let population = Population::random(&game, cfg.population, cfg.seed);
        let mut evolution = Self::assemble(game, cfg, run, population, 0, Vec::new());
        evolution.checkpoint()?;
        Ok(evolution)
    }

    /// Continues from a checkpoint, planning `generations` in total; rewrites
    /// `stats.csv` with the checkpoint's rows (dropping any later ones).
    pub fn resume(
        game: G,
        ckpt: Checkpoint,
        run: RunDir,
        generations: u64,
        threads: usize,
    ) -> Result<Self, FileError> {
        let mut cfg = ckpt.config;
        cfg.generations = generations;
        run.write_run_toml(&cfg, threads)?;
        run.write_stats(&ckpt.rows)?;
        let mut evolution =
            Self::assemble(game, cfg, run, ckpt.population, ckpt.generation, ckpt.rows);
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
    ) -> Self {
        let spare = Population::zeroed(population.size(), population.gene_count());
        Evolution {
            game,
            cfg,
            run,
            population,
            spare,
            generation,
            rows,
            pending_io: 0.0,
            last_checkpoint: None,
        }
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

    /// Stats of every completed generation.
    pub fn rows(&self) -> &[StatsRow] {
        &self.rows
    }

    /// Evaluates the current generation and breeds the next.
    pub fn step(&mut self) -> Result<GenerationReport, FileError> {
        let started = Instant::now();
        let points = round_robin(&self.game, &self.population, self.cfg.illegal);
        let ranking = rank(&points);
        let n = points.len();
        let best = points[ranking[0]];
        let worst = points[ranking[n - 1]];
        let mean = points.iter().map(|&p| p as f64).sum::<f64>() / n as f64;
        let diversity = diversity(&self.population);
        let tournament_s = started.elapsed().as_secs_f64();

        let io_started = Instant::now();
        let champion = Genome {
            game: self.game.spec(),
            provenance: Provenance {
                run: Some(self.run.name()),
                generation: Some(self.generation),
                fitness: Some(best as f64),
                seed: Some(self.cfg.seed),
            },
            genes: self.population.genome(ranking[0]).to_vec(),
        };
        champion.save(&self.run.best_genome())?;
        let io_s = self.pending_io + io_started.elapsed().as_secs_f64();

        let bred = Instant::now();
        breeding::breed(
            &self.game,
            &self.cfg,
            &self.population,
            &ranking,
            self.generation,
            &mut self.spare,
        );
        std::mem::swap(&mut self.population, &mut self.spare);
        let breeding_s = bred.elapsed().as_secs_f64();

        let row = StatsRow {
            generation: self.generation,
            best,
            mean,
            worst,
            diversity,
            tournament_s,
            breeding_s,
            io_s,
        };
        self.run.append_stats(&row)?;
        self.rows.push(row.clone());
        self.generation += 1;
        self.pending_io = 0.0;
        if self.generation.is_multiple_of(self.cfg.checkpoint_every)
            || self.generation == self.cfg.generations
        {
            self.checkpoint()?;
        }
        Ok(GenerationReport {
            row,
            games: (n * (n - 1)) as u64,
        })
    }

    /// Writes the checkpoint of the current state (once per generation) and
    /// removes the oldest beyond `keep`.
    pub fn checkpoint(&mut self) -> Result<(), FileError> {
        if self.last_checkpoint == Some(self.generation) {
            return Ok(());
        }
        let started = Instant::now();
        let dir = self.run.checkpoints();
        let ckpt = Checkpoint {
            config: self.cfg.clone(),
            generation: self.generation,
            rows: self.rows.clone(),
            population: std::mem::replace(&mut self.population, Population::zeroed(0, 1)),
        };
        let saved = ckpt.save(&dir.join(checkpoint::file_name(self.generation)));
        self.population = ckpt.population;
        saved?;
        checkpoint::prune(&dir, self.cfg.keep).map_err(|e| FileError::new(&dir, e))?;
        self.last_checkpoint = Some(self.generation);
        self.pending_io += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Runs generations until `until` have been completed or `stop` is
    /// raised; either way the state is checkpointed before returning.
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
            let report = self.step()?;
            observer.generation_done(&report);
        }
        self.checkpoint()?;
        Ok(RunEnd::Finished)
    }
}
