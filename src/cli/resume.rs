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
        anyhow::bail!(
            "{}: no checkpoints/gen-NNNNNN.ckpt here; is it a run directory written by `bebete evolve`?",
            run.root().display()
        );
    }
    let mut chosen = None;
    let mut skipped = 0;
    for (_, path) in found.iter().rev() {
        match Checkpoint::load(path) {
            Ok(ckpt) => {
                chosen = Some(ckpt);
                break;
            }
            Err(e) => {
                skipped += 1;
                eprintln!("warning: skipping {e}");
            }
        }
    }
    let Some(ckpt) = chosen else {
        anyhow::bail!(
            "{}: every checkpoint is unreadable (see the warnings above)",
            run.root().display()
        );
    };
    let Some(game) = ckpt.config.game.built_in() else {
        let problem = FileProblem::Outside {
            game: ckpt.config.game.to_string(),
            kind: "checkpoint",
        };
        return Err(FileError::new(run.root(), problem).into());
    };
    // How far the run had got: its newest checkpoint, damaged or not (the
    // list is sorted, and holds the one chosen).
    let reached = found
        .last()
        .map_or(ckpt.generation, |&(generation, _)| generation);
    if skipped > 0 {
        eprintln!(
            "warning: going back to the checkpoint of generation {}, the newest valid one; generations {}-{} run again first, as they ran (a run is deterministic), while stats.csv and best.genome keep what they hold",
            ckpt.generation,
            ckpt.generation,
            reached.saturating_sub(1)
        );
    }
    let until = match args.generations {
        Some(more) => reached + more,
        None => ckpt.config.generations.max(reached),
    };
    if until <= ckpt.generation {
        outln!(
            "{} is complete at generation {} of {}; add --generations N to run N more",
            run.root().display(),
            ckpt.generation,
            ckpt.config.generations
        );
        return Ok(ExitCode::SUCCESS);
    }
    let lock = root.then(|| RunLock::acquire(run.root())).transpose()?;
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
