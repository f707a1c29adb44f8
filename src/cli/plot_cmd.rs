//! `bebete plot`: draw the fitness curves of one or more runs.

use crate::plot::{PlotOptions, XAxis, render_with};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete plot runs/tictactoe-1                      writes plots/tictactoe-1.png
  bebete plot /tmp/trial                            writes /tmp/trial/trial.png
  bebete plot runs/a runs/b --out plots/a-vs-b.svg  two runs overlaid, as SVG
  bebete plot runs/c4-value --x games               against games played
  bebete plot runs/ttt-1 runs/ttt-2 runs/ttt-3 --band  the seeds' mean in a band")]
pub struct PlotArgs {
    /// Run directories (several overlay, labelled by what sets them apart)
    #[arg(required = true)]
    pub runs: Vec<PathBuf>,
    /// Output file, .png or .svg [default: plots/<first run's name>.png]
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// The x axis: generation, games (played, fitness and self-play, summed)
    /// or time (seconds evaluating, breeding and writing, summed)
    #[arg(long, value_name = "AXIS", default_value = "generation", value_parser = str::parse::<XAxis>)]
    pub x: XAxis,
    /// Runs that differ only by their seed as one curve, their mean, in a
    /// band from the lowest to the highest seed (over the generations all
    /// of them reached)
    #[arg(long)]
    pub band: bool,
}

/// Whether `run` sits directly in the project's `runs/` (the directory the
/// command runs in): its plot and champion copy then go to `plots/` and
/// `genomes/`; a run anywhere else keeps them inside its own directory.
pub fn in_project_runs(run: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    match (
        run.parent().and_then(canonical),
        canonical(Path::new("runs")),
    ) {
        (Some(parent), Some(runs)) => parent == runs,
        _ => false,
    }
}

/// The default plot of a run: `plots/<name>.png` for a run under the
/// project's `runs/`, else [`plot_in_run`].
pub fn default_plot(run: &Path) -> PathBuf {
    if in_project_runs(run) {
        PathBuf::from("plots").join(plot_name(run))
    } else {
        plot_in_run(run)
    }
}

/// A run's plot in its own folder: `<run>/<name>.png`.
pub fn plot_in_run(run: &Path) -> PathBuf {
    run.join(plot_name(run))
}

fn plot_name(run: &Path) -> String {
    let name = run
        .file_name()
        .map_or_else(|| "run".into(), |n| n.to_string_lossy().into_owned());
    format!("{name}.png")
}

pub fn run(args: PlotArgs) -> anyhow::Result<ExitCode> {
    if let Some(file) = args.runs.iter().find(|run| run.is_file()) {
        anyhow::bail!(
            "{}: a file, not a run directory; plot takes run folders (runs/NAME, as evolve writes them)",
            file.display()
        );
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_plot(&args.runs[0]));
    super::output::check_out_path("--out", &out, Some("plot.png"))?;
    let kind = out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if !matches!(kind.as_deref(), Some("png" | "svg")) {
        anyhow::bail!(
            "--out {}: bebete writes PNG or SVG; end the name in .png or .svg",
            out.display()
        );
    }
    render_with(
        &args.runs,
        &out,
        PlotOptions {
            x: args.x,
            band: args.band,
        },
    )?;
    writeln!(std::io::stdout(), "wrote {}", out.display())?;
    Ok(ExitCode::SUCCESS)
}
