//! The generation loop and its bookkeeping on disk.
//!
//! Per generation, [`Evolution::step`] reads as three steps: evaluate (the
//! fitness terms, [`super::fitness`]), record (rank, stats, benchmark, the
//! champion) and breed (the next population into the spare buffer, then
//! swap). Then a `stats.csv` row is appended — all a generation writes —
//! and every `checkpoint_every` generations (and at the end, or when
//! stopped) a checkpoint of the population about to be evaluated is
//! written, with `best.genome` beside it (so its provenance names the last
//! generation, and a resumed run ends with the same file).

mod champion;
mod offspring;
mod saving;
mod stopping;

use super::RunDir;
use super::bench::{self, Bench};
use super::checkpoint::{self, Checkpoint};
use super::exchange::Exchange;
use super::fitness::{Evaluation, FitnessTerms};
pub use super::prepare::{EvolveError, Prepared};
use super::stats::diversity;
use super::tournament::rank;
use super::{EvolveConfig, Hall, Population, StatsRow, breeding};
use crate::dispatch::Abilities;
use crate::games::GameId;
use crate::genome::Genome;
use crate::players::Playable;
use crate::players::PlayerFactory;
use crate::seed::derive_seed;
use crate::store::FileError;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The stream the self-play seeds are drawn from (apart from breeding's,
/// which are numbered by generation).
const SELF_PLAY_STREAM: u64 = u64::MAX - 1;

/// What one generation produced.
#[derive(Clone, Debug)]
pub struct GenerationReport {
    /// The generation's row of `stats.csv`.
    pub row: StatsRow,
    /// Games played in the generation's evaluation.
    pub games: u64,
    /// Self-play games the genomes learned from after it.
    pub learned: u64,
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

/// Receives a report after each generation (progress bars, logs) and a
/// call after each checkpoint (plots).
pub trait Observer {
    /// Called after each generation.
    fn generation_done(&mut self, report: &GenerationReport);
    /// Called after each checkpoint written.
    fn checkpoint_written(&mut self, _generation: u64) {}
}

/// The islands a process holds: all of them alone, one per rank under MPI.
fn held_islands(
    cfg: &EvolveConfig,
    exchange: &dyn Exchange,
) -> Result<std::ops::Range<usize>, EvolveError> {
    match exchange.ranks() {
        1 => Ok(0..cfg.islands),
        ranks if ranks == cfg.islands => Ok(exchange.rank()..exchange.rank() + 1),
        ranks => Err(EvolveError::Ranks {
            islands: cfg.islands,
            ranks,
        }),
    }
}

/// Seed stream of the islands after the first.
const ISLAND_STREAM: u64 = 0x151a;

/// The seed of island `island` of a run seeded `seed`: the run's own for
/// island 0 (so a run of one island is the run without islands), a derived
/// one for the others.
pub(crate) fn island_seed(seed: u64, island: usize) -> u64 {
    match island {
        0 => seed,
        i => derive_seed(seed, ISLAND_STREAM, i as u64),
    }
}

/// One island: its generation, the spare buffer the next is bred into, its
/// hall of fame and its seed.
struct Island {
    population: Population,
    spare: Population,
    hall: Hall,
    seed: u64,
}

/// A run in progress.
///
/// A run of a few generations in a directory of its own, then resumed from
/// its last checkpoint for a few more: the same result as running them all
/// at once, byte for byte.
///
/// ```
/// use bebete_core::evolve::checkpoint::{self, Checkpoint};
/// use bebete_core::evolve::exchange::Alone;
/// use bebete_core::evolve::{Evolution, EvolveConfig, Observer, GenerationReport, Prepared, RunDir, RunEnd};
/// use bebete_core::games::{GameSpec, TicTacToe};
/// use std::sync::atomic::AtomicBool;
///
/// struct Quiet;
/// impl Observer for Quiet {
///     fn generation_done(&mut self, _: &GenerationReport) {}
/// }
///
/// let game = TicTacToe::BASE3;
/// let mut cfg = EvolveConfig::recommended(GameSpec::from(game), 5);
/// cfg.population = 20;
/// cfg.elite = 4;
/// let dir = tempfile::tempdir().unwrap();
/// let run = RunDir::new(dir.path().join("run"));
/// let prepared = Prepared::new(game, cfg).unwrap();
/// let mut evolution = Evolution::start(prepared, run.clone(), 1, Box::new(Alone)).unwrap();
/// let never = AtomicBool::new(false);
/// assert_eq!(evolution.run(3, &never, &mut Quiet).unwrap(), RunEnd::Finished);
/// assert_eq!(evolution.generation(), 3);
/// assert_eq!(evolution.rows().len(), 3);
///
/// // Resumed from its newest checkpoint (the state before generation 3).
/// let (generation, path) = checkpoint::list(&run.checkpoints()).pop().unwrap();
/// assert_eq!(generation, 3);
/// let ckpt = Checkpoint::load(&path).unwrap();
/// let mut resumed = Evolution::resume(game, ckpt, run, 5, 1, Box::new(Alone)).unwrap();
/// resumed.continue_run_files().unwrap();
/// resumed.run(5, &never, &mut Quiet).unwrap();
/// assert_eq!(resumed.rows().len(), 5);
/// ```
pub struct Evolution<G: Playable> {
    game: G,
    /// What the game can do: the benchmark's columns, `run.toml`.
    abilities: Abilities,
    cfg: EvolveConfig,
    run: RunDir,
    /// The islands this process holds (all of them in one process, one
    /// per rank under MPI), from island `first` on.
    islands: Vec<Island>,
    first: usize,
    /// How the processes of the run talk ([`Alone`] in one process).
    exchange: Box<dyn Exchange>,
    generation: u64,
    rows: Vec<StatsRow>,
    pending_io: f64,
    last_checkpoint: Option<u64>,
    fitness: FitnessTerms<G>,
    bench: Bench<G>,
    /// `--learn-against`'s player (none: the genomes learn by self-play).
    learner_opponent: Option<PlayerFactory<G>>,
    /// With `--target unbeatable`: whether the last champion's audit is
    /// perfect.
    champion_perfect: bool,
    /// One-player games: the pieces the champion's game leaves.
    champion_left: Option<u32>,
    /// The champion of the last evaluated generation, and whether
    /// `best.genome` holds it already.
    champion: Option<Genome<GameId>>,
    champion_saved: bool,
    /// The champion's genes as gathered from the islands (reused).
    champion_buffer: Vec<u8>,
    /// Whether `--target` and `--patience` may stop the run.
    stop_rules: bool,
    /// Threads, as `run.toml` records them.
    threads: usize,
}

/// One island's figures in a generation's stats row.
struct Figures {
    best: u32,
    mean: f64,
    worst: u32,
    diversity: f64,
    /// Fitness games played.
    games: u64,
}

impl<G: Playable> Evolution<G> {
    /// Starts a new run in `run` (which must not hold one): writes the
    /// checkpoint of generation 0, `run.toml` and an empty `stats.csv`.
    pub fn start(
        prepared: Prepared<G>,
        run: RunDir,
        threads: usize,
        exchange: Box<dyn Exchange>,
    ) -> Result<Self, EvolveError> {
        let (game, cfg) = (&prepared.game, &prepared.cfg);
        let held = held_islands(cfg, exchange.as_ref())?;
        let populations = held
            .clone()
            .map(|i| Population::initial(game, cfg.population, island_seed(cfg.seed, i), cfg.init))
            .collect();
        let mut evolution = Self::assemble(
            prepared,
            run,
            populations,
            held.start,
            0,
            Vec::new(),
            exchange,
        );
        evolution.remove_leftovers();
        // The checkpoint first: a run killed before run.toml exists is
        // resumed from it (resume rewrites run.toml and stats.csv from the
        // checkpoint), and `evolve` refuses its folder until then.
        evolution.checkpoint()?;
        if evolution.exchange.is_root() {
            evolution.run.write_run_toml(&evolution.cfg, threads)?;
            evolution
                .run
                .write_stats(&evolution.cfg, &evolution.abilities, &[])?;
        }
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
        exchange: Box<dyn Exchange>,
    ) -> Result<Self, EvolveError> {
        // A plan grown past the checkpoint's is not in any checkpoint yet:
        // the next one is written even at this generation (a stop before
        // the first generation here must keep the plan the resume asked).
        let grown = generations != ckpt.config.generations;
        let mut cfg = ckpt.config;
        cfg.generations = generations;
        if ckpt.population.gene_count() != game.gene_count() {
            return Err(EvolveError::GeneCount {
                game: game.id().to_string(),
                found: ckpt.population.gene_count(),
                expected: game.gene_count(),
            });
        }
        let prepared = Prepared::new(game, cfg)?;
        let cfg = &prepared.cfg;
        let held = held_islands(cfg, exchange.as_ref())?;
        let populations = ckpt.population.split(held.len());
        if held.start != ckpt.first_island || populations.len() != held.len() {
            return Err(EvolveError::Ranks {
                islands: cfg.islands,
                ranks: exchange.ranks(),
            });
        }
        let mut evolution = Self::assemble(
            prepared,
            run,
            populations,
            held.start,
            ckpt.generation,
            ckpt.rows,
            exchange,
        );
        evolution.islands[0].hall = ckpt.hall;
        evolution.last_checkpoint = (!grown).then_some(ckpt.generation);
        evolution.threads = threads;
        evolution.restore_champion();
        evolution.remove_leftovers();
        Ok(evolution)
    }

    /// Removes the temporary files of writes killed in an earlier process
    /// (the run's lock is held): each process from its own checkpoints, the
    /// first from the run's folder too.
    fn remove_leftovers(&self) {
        let own = checkpoint::dir_of_rank(&self.run, self.exchange.rank(), self.exchange.ranks());
        crate::store::remove_temporaries(&own);
        if self.exchange.is_root() {
            crate::store::remove_temporaries(self.run.root());
        }
    }

    /// Before running on from a resumed state: the benchmark a previous end
    /// put on the last row is taken off unless it was due there (the run
    /// continues as if it had never ended), and `run.toml` and `stats.csv`
    /// are rewritten (a crash may have left rows past the checkpoint). Not
    /// done by [`Evolution::resume`], so that resuming a finished run
    /// changes nothing. Returns the settings someone edited in `run.toml`
    /// (`key = edited` each), which the rewrite puts back: a run's settings
    /// are its checkpoint's.
    pub fn continue_run_files(&mut self) -> Result<Vec<String>, FileError> {
        if let Some(at) = self.last_bench_row()
            && !bench::due(&self.cfg, self.rows[at].generation)
        {
            self.rows[at].bench.clear();
        }
        let mut edited = Vec::new();
        if self.exchange.is_root() {
            edited = self.run.edited_settings(&self.cfg, self.threads);
            self.run.write_run_toml(&self.cfg, self.threads)?;
            self.run
                .write_stats(&self.cfg, &self.abilities, &self.rows)?;
        }
        Ok(edited)
    }

    /// Turns the `--target` and `--patience` rules off for the rest of this
    /// process (a finished run resumed for more generations).
    pub fn ignore_stop_rules(&mut self) {
        self.stop_rules = false;
    }

    fn assemble(
        prepared: Prepared<G>,
        run: RunDir,
        populations: Vec<Population>,
        first: usize,
        generation: u64,
        rows: Vec<StatsRow>,
        exchange: Box<dyn Exchange>,
    ) -> Self {
        let Prepared {
            game,
            cfg,
            fitness,
            bench,
            abilities,
            learner_opponent,
        } = prepared;
        let islands = populations
            .into_iter()
            .enumerate()
            .map(|(i, population)| Island {
                spare: Population::zeroed(population.size(), population.gene_count()),
                population,
                hall: Hall::default(),
                seed: island_seed(cfg.seed, first + i),
            })
            .collect();
        Evolution {
            game,
            abilities,
            cfg,
            run,
            islands,
            first,
            exchange,
            generation,
            rows,
            pending_io: 0.0,
            last_checkpoint: None,
            fitness,
            bench,
            learner_opponent,
            champion_perfect: false,
            champion_left: None,
            champion: None,
            champion_saved: false,
            champion_buffer: Vec::new(),
            stop_rules: true,
            threads: 0,
        }
    }

    /// The next generation to evaluate (= generations completed).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The run's settings.
    pub fn config(&self) -> &EvolveConfig {
        &self.cfg
    }

    /// What the run's game can do (its benchmark's columns follow).
    pub fn abilities(&self) -> &Abilities {
        &self.abilities
    }

    /// The run's directory.
    pub fn run_dir(&self) -> &RunDir {
        &self.run
    }

    /// Stats of every completed generation.
    pub fn rows(&self) -> &[StatsRow] {
        &self.rows
    }

    /// Evaluates the current generation of every island, records it and
    /// breeds the next (then migrates, when due).
    pub(crate) fn step(&mut self) -> Result<GenerationReport, FileError> {
        let started = Instant::now();
        let rules = self.cfg.play_style();
        // Each island's games and its diversity figure in one parallel
        // region: the figure's comparisons keep a thread busy while the
        // other starts on the games, and the pool is not woken twice.
        let (evals, diversities): (Vec<Evaluation>, Vec<f64>) = self
            .islands
            .iter()
            .map(|island| {
                rayon::join(
                    || {
                        self.fitness.evaluate(
                            &self.game,
                            &island.population,
                            &island.hall,
                            rules,
                            island.seed,
                            self.generation,
                        )
                    },
                    || diversity(&island.population, self.game.active_genes()),
                )
            })
            .unzip();
        let rankings: Vec<Vec<usize>> = evals.iter().map(|e| rank(&e.points)).collect();
        let figures: Vec<Figures> = evals
            .iter()
            .zip(&rankings)
            .zip(diversities)
            .map(|((eval, ranking), diversity)| {
                let points = &eval.points;
                let n = points.len();
                Figures {
                    best: points[ranking[0]],
                    mean: points.iter().map(|&p| p as f64).sum::<f64>() / n as f64,
                    worst: points[ranking[n - 1]],
                    diversity,
                    games: eval.games,
                }
            })
            .collect();
        // Every island's figures, on every process.
        let figures = self.gather(&figures);
        // The run's champion: the best of the islands' (ties to the first),
        // its genes from the process that holds it.
        let champion = (0..figures.len())
            .max_by_key(|&i| (figures[i].best, std::cmp::Reverse(i)))
            .expect("at least one island");
        // Into a buffer kept from generation to generation (a Connect-Four
        // genome is 0.9 MB).
        let held = self.islands.len();
        let mut genes = std::mem::take(&mut self.champion_buffer);
        genes.resize(self.game.gene_count(), 0);
        if let Some(local) = champion.checked_sub(self.first).filter(|&l| l < held) {
            genes.copy_from_slice(self.islands[local].population.genome(rankings[local][0]));
        }
        self.exchange.broadcast(champion / held, &mut genes);
        let bench = self.record(&genes, figures[champion].best);
        self.champion_buffer = genes;
        let tournament_s = started.elapsed().as_secs_f64();

        // The champion is written with the next checkpoint (or the run's
        // end), not here: between checkpoints a generation writes only its
        // stats line. A kill before then resumes from that checkpoint and
        // runs the same generations again, so nothing is lost.
        self.champion_saved = false;
        let io_s = self.pending_io;

        let games = evals.iter().map(|e| e.games).sum();
        let bred = Instant::now();
        self.breed(&rankings);
        let learned = self.self_play();
        let breeding_s = bred.elapsed().as_secs_f64();
        // Every island's genomes learn from as many games (one population
        // size for all).
        let learned_each = learned / held as u64;

        let mut bench = Some(bench);
        let rows = figures
            .into_iter()
            .enumerate()
            .map(|(i, f)| StatsRow {
                generation: self.generation,
                best: f.best,
                mean: f.mean,
                worst: f.worst,
                diversity: f.diversity,
                tournament_s,
                breeding_s,
                io_s,
                games: f.games + learned_each,
                bench: bench.take().unwrap_or_default(),
                island: i as u32,
            })
            .collect();
        self.finish(rows, games, learned)
    }

    /// Every island's figures from the islands held here, in island order.
    fn gather(&self, held: &[Figures]) -> Vec<Figures> {
        let flat: Vec<f64> = held
            .iter()
            .flat_map(|f| {
                [
                    f64::from(f.best),
                    f.mean,
                    f64::from(f.worst),
                    f.diversity,
                    // Exact: a generation's games are far below 2^53.
                    f.games as f64,
                ]
            })
            .collect();
        self.exchange
            .all_gather(&flat)
            .chunks(5)
            .map(|c| Figures {
                best: c[0] as u32,
                mean: c[1],
                worst: c[2] as u32,
                diversity: c[3],
                games: c[4] as u64,
            })
            .collect()
    }

    /// Appends the generation's rows (one per island) and checkpoints when
    /// due.
    fn finish(
        &mut self,
        rows: Vec<StatsRow>,
        games: u64,
        learned: u64,
    ) -> Result<GenerationReport, FileError> {
        if self.exchange.is_root() {
            for row in &rows {
                self.run.append_stats(&self.cfg, &self.abilities, row)?;
            }
        }
        let row = rows[0].clone();
        self.rows.extend(rows);
        self.generation += 1;
        self.pending_io = 0.0;
        if self.generation.is_multiple_of(self.cfg.checkpoint_every)
            || self.generation == self.cfg.generations
        {
            self.checkpoint()?;
        }
        Ok(GenerationReport {
            row,
            games,
            learned,
        })
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
            // Every process stops at the same generation.
            if self.exchange.any(stop.load(Ordering::SeqCst)) {
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
                self.bench_last_generation()?;
                self.checkpoint()?;
                return Ok(RunEnd::Reached(reason));
            }
        }
        self.bench_last_generation()?;
        self.checkpoint()?;
        Ok(RunEnd::Finished)
    }
}
