//! `bebete resume`: continue a run from its newest valid checkpoint.

use super::evolution_run::{Control, Drive, Origin};
use super::evolve::thread_count;
use crate::dispatch::Dispatch;
use crate::evolve::RunDir;
use crate::evolve::checkpoint::{self, Checkpoint};
use crate::evolve::exchange;
use crate::store::{FileError, FileProblem, RunLock};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete resume runs/tictactoe-42                    finish the planned generations
  bebete resume runs/tictactoe-42 --generations 100  100 more")]
pub struct ResumeArgs {
    /// The run directory
    pub run: PathBuf,
    /// Generations to add from the checkpoint (the planned total grows to at
    /// least the new end and never shrinks) [default: up to the planned total]
    #[arg(long)]
    pub generations: Option<u64>,
    /// Worker threads [default: all cores]; results do not depend on it
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress bar and no summary
    #[arg(long, short)]
    pub quiet: bool,
    /// (Refused: a run's seed is in its run.toml; a new seed is a new run.)
    #[arg(long, hide = true)]
    pub seed: Option<u64>,
}

pub fn run(args: ResumeArgs) -> anyhow::Result<ExitCode> {
    run_with(args, Control::default())
}

/// [`run`], stopped and heard by `control` (see [`Control`]).
pub fn run_with(args: ResumeArgs, control: Control) -> anyhow::Result<ExitCode> {
    if let Some(seed) = args.seed {
        anyhow::bail!(
            "--seed {seed}: resume goes on with the run's own seed (in {}); for another seed start a new run: bebete evolve --seed {seed} …",
            args.run.join("run.toml").display()
        );
    }
    let run = RunDir::new(&args.run);
    // Under MPI each rank reads its own checkpoints, and only the first
    // takes the lock and speaks.
    let launched = exchange::launched();
    let root = exchange::is_first_process();
    let dir = launched.map_or_else(
        || run.checkpoints(),
        |(rank, size)| checkpoint::dir_of_rank(&run, rank, size),
    );
    let found = checkpoint::list(&dir);
    let ranks = checkpoint::rank_dirs(&run);
    let processes = launched.map_or(1, |(_, size)| size);
    if ranks > 0 && ranks != processes {
        anyhow::bail!(
            "{}: a run of {ranks} MPI processes (one island each); resume it with `mpirun -n {ranks} bebete resume …`, not with {processes} process(es)",
            run.root().display()
        );
    }
    if found.is_empty() {
        if !run.root().is_dir() {
            anyhow::bail!(
                "{}: no such run directory (runs are under runs/ unless --run named another)",
                run.root().display()
            );
        }
        if let Some((game, _)) = run.recorded_identity()
            && game.starts_with("openspiel:")
        {
            anyhow::bail!(
                "{}: a run of {game}, a game bebete was not built for: resume it from Python, bebete.resume({:?})",
                run.root().display(),
                run.root().display().to_string()
            );
        }
        anyhow::bail!(
            "{}: no checkpoints/gen-NNNNNN.ckpt here; is it a run directory written by `bebete evolve`?",
            run.root().display()
        );
    }
    // The lock first: checkpoints are set aside below, and no other
    // process may be writing them meanwhile.
    let lock = root.then(|| RunLock::acquire(run.root())).transpose()?;
    let ckpt = newest_of_this_run(&run, &found)?;
    let Some(game) = ckpt.config.game.built_in() else {
        let problem = FileProblem::Outside {
            game: ckpt.config.game.to_string(),
            file: "checkpoint",
        };
        return Err(FileError::new(run.root(), problem).into());
    };
    // How far the run had got: the generations stats.csv records, which
    // may run past the checkpoint (a run stopped between checkpoints, or
    // newer ones set aside); a stray checkpoint's number counts for nothing.
    let islands = ckpt.config.islands.max(1) as u64;
    let recorded = run.stats_row_count().unwrap_or(0) / islands;
    let reached = recorded.max(ckpt.generation);
    if reached > ckpt.generation && root {
        errln!(
            "note: stats.csv records generations {}-{} past the checkpoint of generation {}; they run again first, with the same results, and their rows are written again as they do",
            ckpt.generation,
            reached - 1,
            ckpt.generation
        );
    }
    let until = match args.generations {
        Some(more) => reached + more,
        None => ckpt.config.generations.max(reached),
    };
    if until <= ckpt.generation {
        let (dir, done, planned) = (
            run.root().display(),
            ckpt.generation,
            ckpt.config.generations,
        );
        if done >= planned {
            outln!(
                "{dir} has run its {planned} planned generations (0-{}); `bebete resume {dir} --generations N` runs N more",
                done.saturating_sub(1)
            );
        } else {
            outln!(
                "{dir} stands after generation {} of the {planned} planned, and --generations 0 runs none; `bebete resume {dir}` runs the rest, --generations N runs N more",
                done.saturating_sub(1)
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    game.visit(Drive {
        origin: Origin::Resumed {
            checkpoint: ckpt,
            more: args.generations,
            reached,
        },
        run,
        lock,
        threads: thread_count(args.threads),
        quiet: args.quiet,
        control,
    })
}

/// The newest checkpoint of `found` that belongs to this run: readable, of
/// the generation its name says, and of the game and seed `run.toml`
/// records. Each newer one is set aside (renamed `….refused`, kept for a
/// look, never read again) with a warning naming it and why: a damaged
/// file, a copy from elsewhere or another run's is never resumed from.
fn newest_of_this_run(run: &RunDir, found: &[(u64, PathBuf)]) -> anyhow::Result<Checkpoint> {
    let identity = run.recorded_identity();
    for (generation, path) in found.iter().rev() {
        let why = match Checkpoint::load(path) {
            // This run's, of an older bebete: not set aside, refused.
            Err(e) if matches!(e.problem, FileProblem::OlderCheckpoint { .. }) => {
                return Err(e.into());
            }
            Err(e) => e.problem.to_string(),
            Ok(ckpt) if ckpt.generation != *generation => format!(
                "it holds generation {}, not the {generation} its name says (a copy from elsewhere)",
                ckpt.generation
            ),
            Ok(ckpt) => match &identity {
                Some((game, seed))
                    if *game != ckpt.config.game.name() || *seed != ckpt.config.seed =>
                {
                    format!(
                        "another run's ({} seed {}), where run.toml records {game} seed {seed}",
                        ckpt.config.game.name(),
                        ckpt.config.seed
                    )
                }
                _ => return Ok(ckpt),
            },
        };
        let mut aside = path.clone().into_os_string();
        aside.push(".refused");
        let aside = PathBuf::from(aside);
        std::fs::rename(path, &aside).map_err(|e| FileError::new(path, e))?;
        errln!(
            "warning: {}: {why}; set aside as {}",
            path.display(),
            aside.display()
        );
    }
    anyhow::bail!(
        "{}: no checkpoint of this run is left to resume from (each was set aside, see the warnings above); start it again with `bebete evolve … --run` and another folder, or delete this one to reuse its name",
        run.root().display()
    )
}
