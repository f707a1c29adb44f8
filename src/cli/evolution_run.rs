//! Running an evolution from the command line: thread pool, progress bar,
//! Ctrl-C, the closing summary and the champion's copy in `genomes/`.
//! Shared by `evolve` and `resume`.

use super::plot_cmd::{default_plot, in_project_runs};
use crate::dispatch::{Abilities, BuiltInGame, GameVisitor};
use crate::evolve::RunDir;
use crate::evolve::checkpoint::Checkpoint;
use crate::evolve::exchange;
use crate::evolve::run_toml_text;
use crate::evolve::{
    Evolution, EvolveConfig, GenerationReport, Observer, Prepared, RunEnd, RunEnded,
};
use crate::plot::render;
use crate::store::RunLock;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Instant;

use super::summary::{Summary, generations, grouped};

/// Takes a new run's directory once its configuration is checked and
/// built: the lock, the refusal of a directory that holds a run, the first
/// line printed. Returns the lock (the first process's, under MPI).
pub type Claim = Box<dyn FnOnce(&EvolveConfig) -> anyhow::Result<Option<RunLock>> + Send>;

/// How a run begins.
pub enum Origin {
    /// A new run: checked and built (once), then the directory claimed,
    /// then started.
    Fresh { cfg: EvolveConfig, claim: Claim },
    /// From this process's newest valid checkpoint, for `more` generations
    /// (or up to the plan); under MPI the ranks first agree on the newest
    /// generation every one of them has.
    Resumed {
        checkpoint: Checkpoint,
        more: Option<u64>,
        /// How far the run had got by its `stats.csv`: past the checkpoint
        /// when it stopped between checkpoints or newer ones were set
        /// aside (those generations run again first, with the same
        /// results).
        reached: u64,
    },
    /// A new run checked and built as `Fresh` is (players, files, bank),
    /// then only described: `evolve --dry-run`.
    Planned { cfg: EvolveConfig },
}

/// How to resume this run: under the same launcher with as many processes
/// when an MPI launcher started it.
pub(super) fn resume_command() -> String {
    match exchange::launched() {
        Some((_, size)) => format!("mpirun -n {size} bebete resume"),
        None => "bebete resume".to_string(),
    }
}

/// Everything `evolve`/`resume` decided before the work starts.
pub struct Drive {
    pub origin: Origin,
    pub run: RunDir,
    /// The run's one-writer lock, taken before anything was printed (by
    /// the first process only, under MPI); a fresh run's is taken by its
    /// claim.
    pub lock: Option<RunLock>,
    pub threads: usize,
    pub quiet: bool,
    pub control: Control,
}

/// A caller's function, called after each generation.
pub type EachGeneration = Box<dyn FnMut(&GenerationReport) + Send>;

/// Who stops a run and hears of its generations. The command line's
/// default: SIGINT, SIGTERM and SIGHUP stop it, and a progress bar shows
/// it. A caller that embeds the command (the Python package) gives its
/// own stop flag and a function called after each generation instead.
#[derive(Default)]
pub struct Control {
    /// Raised by the caller: the run finishes the generation under way,
    /// writes its checkpoint and ends as Ctrl-C ends it (exit code 130).
    /// `None`: the signals raise it.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called after each generation with its report (stats row included).
    pub each: Option<EachGeneration>,
    /// Set by a caller that embeds the command: how it continues a stopped
    /// run, given the run's folder (Python: `bebete.resume('runs/x')`).
    /// Its runs keep every file in their own folder (the plot there, no
    /// copy of the champion in the project's `genomes/`), wherever the
    /// caller's working folder is.
    pub continue_with: Option<fn(&std::path::Path) -> String>,
}

/// A file-size limit (`ulimit -f`) must fail the write that exceeds it,
/// which the run reports and survives, not kill the process: SIGXFSZ is
/// caught by a handler that does nothing, so the write fails with EFBIG.
fn survive_file_size_limits() {
    // SAFETY: the handler is empty, so it is async-signal-safe.
    let _ = unsafe { signal_hook::low_level::register(signal_hook::consts::SIGXFSZ, || {}) };
}

/// A stop request: the flag the generation loop polls, and the signal that
/// raised it (SIGINT from Ctrl-C, SIGTERM, SIGHUP).
struct Stop {
    flag: Arc<AtomicBool>,
    signal: Arc<AtomicI32>,
}

/// Watches SIGINT, SIGTERM and SIGHUP on a thread of its own: the first
/// raises the stop flag (the run finishes its generation and checkpoints);
/// a second exits at once, saying so (files are written atomically, so
/// nothing is left half-written).
fn stop_on_signals() -> Stop {
    let stop = Stop {
        flag: Arc::new(AtomicBool::new(false)),
        signal: Arc::new(AtomicI32::new(0)),
    };
    if let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        let (flag, signal) = (stop.flag.clone(), stop.signal.clone());
        std::thread::spawn(move || {
            for sig in signals.forever() {
                if flag.swap(true, Ordering::SeqCst) {
                    errln!("\nstopping now: the last checkpoint is intact");
                    std::process::exit(128 + sig);
                }
                signal.store(sig, Ordering::SeqCst);
                errln!(
                    "\ninterrupted: finishing this generation and writing a checkpoint (again to quit now)"
                );
            }
        });
    }
    stop
}

fn progress_bar(quiet: bool, done: u64, until: u64) -> ProgressBar {
    let bar = ProgressBar::new(until);
    if quiet || !std::io::stdout().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    // The time left is this process's mean time a generation so far times
    // the generations left: steady, where indicatif's estimate of recent
    // steps swung with every slow generation (a benchmark's, a learner's)
    // from minutes to hours. None until a generation is done here (a
    // resumed run starts at `done`, which took no time in this process).
    let style = ProgressStyle::with_template("{pos}/{len} generations {wide_bar} {msg}{left}")
        .expect("a valid template")
        .with_key(
            "left",
            move |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                let (at, len) = (state.pos(), state.len().unwrap_or(0));
                if let Some(left) = time_left(done, at, len, state.elapsed().as_secs_f64()) {
                    let _ = write!(out, " | {} left", short_duration(left));
                }
            },
        );
    bar.set_style(style);
    bar.set_position(done);
    bar.reset_elapsed();
    bar
}

/// Seconds left when generations `done..at` of `len` took `elapsed`
/// seconds: their mean times the generations left; none before one is done.
fn time_left(done: u64, at: u64, len: u64, elapsed: f64) -> Option<f64> {
    let ran = at.saturating_sub(done);
    (ran > 0).then(|| elapsed / ran as f64 * len.saturating_sub(at) as f64)
}

/// Seconds as a person reads a time left: `45s`, `12m`, `3h 05m`.
fn short_duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s.div_ceil(60)),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The progress bar, and a fresh plot at every checkpoint.
struct Progress {
    bar: ProgressBar,
    /// The most fitness points a genome can earn: the scale of "best".
    max_points: u64,
    /// Whether every generation's mean is the same (round-robin points
    /// alone), so not worth showing.
    mean_is_fixed: bool,
    /// The caller's function, called after each generation.
    each: Option<EachGeneration>,
    /// Whether this process draws the plot (the first one under MPI).
    plots: bool,
    games: u64,
    /// Self-play games the value genomes learned from.
    learned: u64,
    started: Instant,
    run: RunDir,
    plot: PathBuf,
    /// When the plot was last drawn: redrawn at a checkpoint at most every
    /// few seconds (drawing takes tens of milliseconds, a generation of the
    /// small games under one).
    plotted: Option<Instant>,
}

/// The least time between two plots drawn at checkpoints.
const PLOT_INTERVAL_S: f64 = 2.0;

impl Observer for Progress {
    fn generation_done(&mut self, report: &GenerationReport) {
        self.games += report.games;
        self.learned += report.learned;
        let seconds = self.started.elapsed().as_secs_f64().max(1e-9);
        // Only the kinds of games the run plays (a learner's run may play
        // none for its fitness).
        let mut pace = Vec::new();
        if self.games > 0 {
            pace.push(format!("{} games/s", grouped(self.games as f64 / seconds)));
        }
        if self.learned > 0 {
            pace.push(format!(
                "{} learning games/s",
                grouped(self.learned as f64 / seconds)
            ));
        }
        // The generation the figures are of, and "best" on its scale; the
        // mean where it says something (a round-robin's is the same every
        // generation: each game gives out the same points).
        let mean = if self.mean_is_fixed {
            String::new()
        } else {
            format!(", mean {:.1}", report.row.mean)
        };
        self.bar.set_message(format!(
            "gen {}: best {} of {}{mean} | {}",
            report.row.generation,
            grouped(report.row.best as f64),
            grouped(self.max_points as f64),
            pace.join(" | ")
        ));
        self.bar.inc(1);
        if let Some(each) = self.each.as_mut() {
            each(report);
        }
    }

    fn checkpoint_written(&mut self, _generation: u64) {
        if !self.plots
            || self
                .plotted
                .is_some_and(|t| t.elapsed().as_secs_f64() < PLOT_INTERVAL_S)
        {
            return;
        }
        self.plotted = Some(Instant::now());
        // A plot is a convenience: failing to draw one never stops a run.
        if let Err(e) = render(&[self.run.root().to_path_buf()], &self.plot) {
            self.bar.suspend(|| errln!("warning: no plot: {e}"));
        }
    }
}

/// Benchmark values, as `name value` pairs.
pub(super) fn bench_summary(
    cfg: &crate::evolve::EvolveConfig,
    abilities: &Abilities,
    values: &[f64],
) -> String {
    crate::evolve::bench::columns(cfg, abilities)
        .iter()
        .zip(values)
        .map(|(name, value)| format!("{name} {value:.3}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl GameVisitor for Drive {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<ExitCode> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .context("starting the thread pool")?;
        pool.install(|| self.drive(game))
    }
}

impl Drive {
    /// Starts or resumes the run, runs it with a progress bar until its
    /// end, then writes the plot and the champion's copy and sums up.
    fn drive<G: BuiltInGame>(self, game: G) -> anyhow::Result<ExitCode> {
        survive_file_size_limits();
        let started = Instant::now();
        let exchange = exchange::for_this_process()?;
        let root = exchange.is_root();
        let Drive {
            origin,
            run,
            lock,
            threads,
            quiet,
            control,
        } = self;
        let quiet = quiet || !root;
        // Before the first line is printed: a Ctrl-C as soon as a person
        // (or a test) sees the run start stops it at its next checkpoint.
        let stop = match control.stop {
            Some(flag) => Stop {
                flag,
                signal: Arc::new(AtomicI32::new(SIGINT)),
            },
            None => stop_on_signals(),
        };
        let continue_with = control.continue_with;
        let resumed = matches!(origin, Origin::Resumed { .. });
        let copy_allowed = champion_copy_allowed(&run, resumed);
        let (mut evolution, until, claimed) = match begin(game, origin, &run, threads, exchange)? {
            Begun::Run {
                evolution,
                until,
                lock,
            } => (evolution, until, lock),
            Begun::Planned(cfg) => {
                outln!("{}", super::evolve::plan_line("would evolve", &cfg, &run));
                outln!("dry run: every setting checked, nothing run or written; its run.toml:\n");
                outln!("{}", run_toml_text(&cfg, threads).trim_end());
                return Ok(ExitCode::SUCCESS);
            }
            Begun::Finished { reason } => {
                if root {
                    outln!(
                        "{} is finished: {reason}. Nothing was changed; `bebete resume {} --generations N` runs N more generations without its stop rule",
                        run.root().display(),
                        run.root().display()
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
        };
        if resumed && !quiet {
            let span = generations(evolution.generation(), until - 1);
            outln!("resuming {}: {span}", run.root().display());
        }
        // Held until the run ends, however it ends.
        let _lock = lock.or(claimed);
        let first = evolution.generation();
        let mut observer = Progress {
            max_points: crate::evolve::fitness::max_points(
                evolution.config(),
                evolution.abilities(),
            ),
            mean_is_fixed: evolution.config().fitness == crate::evolve::Fitness::round_robin(),
            each: control.each,
            bar: progress_bar(quiet, first, until),
            plots: root,
            games: 0,
            learned: 0,
            started,
            run: run.clone(),
            plot: match continue_with {
                Some(_) => super::plot_cmd::plot_in_run(run.root()),
                None => default_plot(run.root()),
            },
            plotted: None,
        };
        if root {
            // Running (again): no longer ended.
            run.clear_ended()?;
        }
        let end = evolution.run(until, &stop.flag, &mut observer)?;
        let (bar, games, learned, plot) = (
            observer.bar,
            observer.games,
            observer.learned,
            observer.plot,
        );
        bar.finish_and_clear();
        if !root {
            // The first process writes the plot, the champion's copy and
            // the summary.
            return Ok(match end {
                RunEnd::Stopped => ExitCode::from(130),
                _ => ExitCode::SUCCESS,
            });
        }
        let reason = match &end {
            RunEnd::Reached(reason) => Some(reason.clone()),
            RunEnd::Finished => Some(format!("its plan of {until} generations is done")),
            RunEnd::Stopped => None,
        };
        if let Some(reason) = reason {
            let generation = evolution.generation().saturating_sub(1);
            run.write_ended(&RunEnded { generation, reason })?;
        }
        let plotted = match render(&[run.root().to_path_buf()], &plot) {
            Ok(()) => Some(plot),
            Err(e) => {
                errln!("warning: no plot: {e}");
                None
            }
        };
        if end == RunEnd::Stopped {
            let dir = evolution.run_dir();
            let how = continue_with.map_or_else(
                || format!("{} {}", resume_command(), dir.root().display()),
                |how| how(dir.root()),
            );
            return Ok(stopped(evolution.generation(), &how, &stop));
        }
        let champion_copy = match continue_with {
            Some(_) => None,
            None => copy_champion(evolution.run_dir(), copy_allowed)?,
        };
        if !quiet {
            let summary = Summary {
                first,
                games,
                learned,
                seconds: started.elapsed().as_secs_f64(),
                champion_copy,
                plotted,
                reached: match end {
                    RunEnd::Reached(reason) => Some(reason),
                    _ => None,
                },
            };
            summary.print(&evolution)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// What [`begin`] found.
enum Begun<G: BuiltInGame> {
    /// The evolution to run, the generation to run it up to, and a fresh
    /// run's lock.
    Run {
        evolution: Box<Evolution<G>>,
        until: u64,
        lock: Option<RunLock>,
    },
    /// A resumed run that had met its stopping rule, asked for no more
    /// generations: nothing to do, nothing written.
    Finished { reason: String },
    /// A dry run's configuration, checked.
    Planned(Box<EvolveConfig>),
}

/// A fresh run checked, built, its directory claimed and started; or a
/// resumed one from the newest checkpoint every process has. A resumed run
/// that met its `--target` or `--patience` rule is finished, unless
/// `--generations N` asks for more: those run without the rule (it is met
/// already, and would stop the run after one generation).
fn begin<G: BuiltInGame>(
    game: G,
    origin: Origin,
    run: &RunDir,
    threads: usize,
    exchange: Box<dyn exchange::Exchange>,
) -> anyhow::Result<Begun<G>> {
    Ok(match origin {
        Origin::Fresh { cfg, claim } => {
            let until = cfg.generations;
            let prepared = Prepared::new(game, cfg)?;
            // Under MPI the first process checks the folder while the
            // others wait: none writes its first checkpoint before the check
            // (a checkpoint of another rank would read as a run left there),
            // and a refusal stops them all.
            let claimed = claim(prepared.config());
            if exchange.any(claimed.is_err()) {
                return Err(claimed.err().unwrap_or_else(|| {
                    anyhow::anyhow!(
                        "the first process refused the run's folder (its message says why)"
                    )
                }));
            }
            let lock = claimed?;
            let evolution = Evolution::start(prepared, run.clone(), threads, exchange)?;
            Begun::Run {
                evolution: Box::new(evolution),
                until,
                lock,
            }
        }
        Origin::Planned { cfg } => {
            let prepared = Prepared::new(game, cfg)?;
            Begun::Planned(Box::new(prepared.config().clone()))
        }
        Origin::Resumed {
            mut checkpoint,
            more,
            reached,
        } => {
            let root = exchange.is_root();
            // Under MPI: the newest generation every rank has, and the
            // furthest any had got.
            let agreed = exchange.min(checkpoint.generation);
            let reached = (u64::MAX - exchange.min(u64::MAX - reached)).max(agreed);
            if agreed < checkpoint.generation {
                let dir =
                    crate::evolve::checkpoint::dir_of_rank(run, exchange.rank(), exchange.ranks());
                let path = dir.join(crate::evolve::checkpoint::file_name(agreed));
                checkpoint = Checkpoint::load(&path)?;
            }
            let until = more.map_or(checkpoint.config.generations.max(reached), |m| reached + m);
            // Running past the plan extends it; running less never
            // shrinks it (a later plain resume still finishes the plan).
            let planned = checkpoint.config.generations.max(until);
            let mut evolution =
                Evolution::resume(game, checkpoint, run.clone(), planned, threads, exchange)?;
            if let Some(reason) = evolution.stop_reason() {
                if more.is_none() && reached == agreed {
                    return Ok(Begun::Finished { reason });
                }
                if root {
                    outln!("{reason}: the generations asked for run without the stop rule");
                }
                evolution.ignore_stop_rules();
            }
            // More asked of a run that had got past this checkpoint: it ran
            // those generations without stopping, and may have stopped
            // just after them.
            if more.is_some() && reached > agreed {
                evolution.ignore_stop_rules();
            }
            let edited = evolution.continue_run_files()?;
            if !edited.is_empty() {
                errln!(
                    "warning: {} was edited ({}): a run's settings are fixed when it starts and kept in its checkpoints, so resume runs on with its own and writes them back; to run other settings, start a new run with `bebete evolve` and their flags",
                    crate::typed::shown(&run.run_toml().display().to_string()),
                    crate::typed::shown(&edited.join(", "))
                );
            }
            Begun::Run {
                evolution: Box::new(evolution),
                until,
                lock: None,
            }
        }
    })
}

/// A run stopped by a signal: where to continue, and the shell's status
/// convention (128 + the signal: 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
fn stopped(done: u64, continue_with: &str, stop: &Stop) -> ExitCode {
    let at = match done {
        0 => "before the first generation".to_string(),
        d => format!("after generation {}", d - 1),
    };
    errln!("stopped {at} (checkpoint written); continue with: {continue_with}");
    let code = 128 + stop.signal.load(Ordering::SeqCst).clamp(1, 127);
    ExitCode::from(code as u8)
}

/// Where a run under the project's runs/ copies its champion:
/// `genomes/NAME.genome`.
fn champion_copy_path(run: &RunDir) -> Option<PathBuf> {
    in_project_runs(run.root()).then(|| copy_of(run))
}

fn copy_of(run: &RunDir) -> PathBuf {
    PathBuf::from("genomes").join(format!("{}.genome", run.name()))
}

/// Whether this run may write its champion's copy: nothing is there yet,
/// or — for a resumed run — what is there is this run's own earlier copy
/// (the same bytes as its `best.genome` before it went on). A new run never
/// overwrites a genome already there (a shipped one, another run's).
/// (Decided before a fresh run creates runs/, so by the path alone.)
fn champion_copy_allowed(run: &RunDir, resumed: bool) -> bool {
    match std::fs::read(copy_of(run)) {
        Err(_) => true,
        Ok(there) => resumed && std::fs::read(run.best_genome()).is_ok_and(|b| b == there),
    }
}

/// A run under the project's runs/ has its champion copied to genomes/
/// (when [`champion_copy_allowed`] said so at its start); one elsewhere
/// keeps it in its own directory only. Returns the copy.
fn copy_champion(run: &RunDir, allowed: bool) -> anyhow::Result<Option<PathBuf>> {
    let copy = champion_copy_path(run);
    if let Some(there) = &copy
        && !allowed
    {
        // A run that reproduces the genome already there (a shipped
        // genome's own command) says so rather than calling it another.
        let same = std::fs::read(there)
            .is_ok_and(|b| std::fs::read(run.best_genome()).is_ok_and(|c| b == c));
        if same {
            errln!(
                "note: {} already holds this run's champion, byte for byte",
                there.display()
            );
            return Ok(Some(there.clone()));
        }
        errln!(
            "note: {} is another genome, not this run's champion: left as it is (the champion is {})",
            there.display(),
            run.best_genome().display()
        );
        return Ok(None);
    }
    if let Some(copy) = &copy {
        std::fs::create_dir_all("genomes").context("creating genomes/")?;
        std::fs::copy(run.best_genome(), copy)
            .with_context(|| format!("copying the champion to {}", copy.display()))?;
    }
    Ok(copy)
}

#[cfg(test)]
mod tests {
    use super::{short_duration, time_left};

    /// A resumed run's bar starts at the generations already done; its time
    /// left comes from the generations run since, not the jump to the start
    /// counted as progress made in no time (issue 15: "1 s left" with 40 s
    /// to go); and one slow generation (a benchmark's) moves it by its share
    /// of the mean, not to its own pace (issue 73: "19m" then "3h").
    #[test]
    fn the_time_left_is_the_mean_generation_here_times_those_left() {
        assert_eq!(time_left(1000, 1000, 2000, 3.0), None);
        assert_eq!(time_left(1000, 1005, 2000, 0.1), Some(0.1 / 5.0 * 995.0));
        // Nine generations of a second, then one of 21 s: 3 s each.
        assert_eq!(time_left(0, 10, 60, 30.0), Some(150.0));
        assert_eq!(time_left(0, 60, 60, 30.0), Some(0.0));
        assert_eq!(short_duration(44.6), "45s");
        assert_eq!(short_duration(150.0), "3m");
        assert_eq!(short_duration(3.0 * 3600.0 + 5.0 * 60.0), "3h 05m");
    }
}
