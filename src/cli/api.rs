//! The commands as functions, for programs that embed bebete (the Python
//! package, `crates/bebete-py`): the command line's own words are parsed
//! by the command line's own parser, so every flag, default, check and
//! message is the command line's; what differs is who stops a run (the
//! caller's flag instead of signals), who hears of its generations (the
//! caller's function instead of a progress bar) and what comes back
//! (values instead of printed tables).

use super::eval::EvalArgs;
use super::evolve::EvolveArgs;
use super::explain::ExplainArgs;
use super::resume::ResumeArgs;
use super::{Cli, Command};
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::IllegalPolicy;
use crate::eval::{Tally, Watch};
use crate::games::GameName;
use crate::players::{Player, PlayerSpec};
use clap::Parser;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use super::evolution_run::{Control, EachGeneration};
pub use crate::evolve::GenerationReport;

/// A command line's words after `bebete` (`["evolve", "--game", "c4"]`),
/// parsed as the command line parses them; a refusal is clap's message,
/// as the command line prints it (its tip included), without the usage
/// lines.
pub fn parse(words: &[String]) -> Result<Command, String> {
    let all = std::iter::once("bebete".to_string()).chain(words.iter().cloned());
    match Cli::try_parse_from(all) {
        Ok(cli) => Ok(cli.command),
        Err(e) => {
            let text = e.render().to_string();
            let kept: Vec<&str> = text
                .split("\n\n")
                .map(str::trim)
                .filter(|p| !p.is_empty() && !p.starts_with("Usage:") && !p.starts_with("For more"))
                .collect();
            Err(kept.join("\n").trim_start_matches("error: ").to_string())
        }
    }
}

/// The settings `command` (`evolve`, `resume`, `eval`) takes: its flags'
/// long names with underscores (`self_play`), as Python keywords name
/// them; `None` for a command that does not exist.
pub fn settings(command: &str) -> Option<Vec<String>> {
    use clap::CommandFactory;
    let cli = Cli::command();
    let sub = cli.find_subcommand(command)?;
    Some(
        sub.get_arguments()
            .filter_map(|arg| arg.get_long())
            .filter(|long| *long != "help")
            .map(|long| long.replace('-', "_"))
            .collect(),
    )
}

/// The names of a run's settings (`run.toml`'s keys, `--set`'s names),
/// as Python keywords name them.
pub fn run_settings() -> Vec<String> {
    crate::evolve::EvolveConfig::method(crate::games::GameSpec::registered()[0], 0).keys()
}

/// The names of the registered games, as `--game` takes them.
pub fn games() -> Vec<String> {
    GameName::ALL
        .iter()
        .map(|kind| kind.name().to_string())
        .collect()
}

/// How a run given to [`evolve`] or [`resume`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Its generations ran (or its stopping rule was met).
    Done,
    /// The caller's stop flag ended it; its checkpoint is written.
    Stopped,
}

/// `bebete evolve` with `args` (quiet: no bar, no summary), under
/// `control`; the run's directory and how it ended. With `start_over`, a
/// run already in that directory is deleted first (its files, not the
/// folder or anything else in it), unless it is running.
pub fn evolve(
    mut args: EvolveArgs,
    control: Control,
    start_over: bool,
) -> anyhow::Result<(PathBuf, Ended)> {
    let seed = args.seed.unwrap_or_else(super::draw_seed);
    args.seed = Some(seed);
    let dir = super::evolve::run_dir(&args, seed)?;
    if start_over && !args.dry_run {
        delete_run(&dir)?;
    }
    args.run = Some(dir.clone());
    args.quiet = true;
    let stop = control.stop.clone();
    super::evolve::run_with(args, control)?;
    Ok((dir, ended(stop)))
}

/// Deletes the files of the run in `dir`, if it holds one, under its lock
/// (a run going on there is refused): its `run.toml`, `stats.csv`,
/// champion, end, plot and checkpoints. A folder that holds no run is left
/// as it is.
fn delete_run(dir: &Path) -> anyhow::Result<()> {
    let run = crate::evolve::RunDir::new(dir);
    if !run.run_toml().exists() && !run.checkpoints().exists() {
        return Ok(());
    }
    let _lock = crate::store::RunLock::acquire(dir)?;
    let files = [
        run.run_toml(),
        run.stats_csv(),
        run.best_genome(),
        dir.join(crate::store::run_files::ENDED_TOML),
        super::plot_cmd::plot_in_run(dir),
    ];
    let gone = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    for file in files {
        if let Err(e) = std::fs::remove_file(&file)
            && !gone(&e)
        {
            anyhow::bail!("{}: cannot delete it to start over: {e}", file.display());
        }
    }
    if let Err(e) = std::fs::remove_dir_all(run.checkpoints())
        && !gone(&e)
    {
        anyhow::bail!(
            "{}: cannot delete it to start over: {e}",
            run.checkpoints().display()
        );
    }
    Ok(())
}

/// `bebete resume` with `args` (quiet), under `control`.
pub fn resume(mut args: ResumeArgs, control: Control) -> anyhow::Result<Ended> {
    args.quiet = true;
    let stop = control.stop.clone();
    super::resume::run_with(args, control)?;
    Ok(ended(stop))
}

fn ended(stop: Option<Arc<AtomicBool>>) -> Ended {
    match stop {
        Some(flag) if flag.load(Ordering::SeqCst) => Ended::Stopped,
        _ => Ended::Done,
    }
}

/// `bebete eval` with `args`: a tally per opponent, printing nothing (the
/// games played by then when `watch` is stopped).
pub fn eval(args: &EvalArgs, watch: &Watch) -> anyhow::Result<Vec<Tally>> {
    super::eval::tallies(args, watch)
}

/// What `bebete explain GENOME --position POSITION --json` prints.
pub fn explain_json(genome: &Path, position: &str) -> anyhow::Result<String> {
    super::explain::text(&ExplainArgs {
        genome: genome.to_path_buf(),
        position: position.to_string(),
        illegal: IllegalPolicy::Repair,
        json: true,
    })
}

/// A genome loaded once to answer positions as `bebete move` answers
/// them, without reading the file again for each.
pub struct Mover {
    game: String,
    answer: Answer,
}

/// A loaded genome's answer to a position.
type Answer = Box<dyn FnMut(&str) -> anyhow::Result<String> + Send>;

impl Mover {
    /// Loads the genome at `path` (its game and lookahead from the file).
    pub fn load(path: &Path) -> anyhow::Result<Mover> {
        let genome = super::game_args::load_genome(path)?;
        let game = genome.game.game().name().to_string();
        let answer = genome.game.visit(Answering {
            player: PlayerSpec::Genome(path.to_path_buf()),
        })?;
        Ok(Mover { game, answer })
    }

    /// The genome's game, as `--game` names it.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The move for `position` (the moves so far, in the game's notation),
    /// in the notation: `bebete move GENOME --position POSITION`.
    pub fn answer(&mut self, position: &str) -> anyhow::Result<String> {
        (self.answer)(position.trim())
    }
}

struct Answering {
    player: PlayerSpec,
}

impl GameVisitor for Answering {
    type Output = anyhow::Result<Answer>;

    fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
        let mut player: Box<dyn Player<G>> = self.player.build(&game, 1, IllegalPolicy::Repair)?;
        Ok(Box::new(move |text: &str| {
            super::move_cmd::answer(&game, player.as_mut(), text)
        }))
    }
}

/// The legal moves of `game` (as `--game` names it, default rules) in
/// `position` (the moves so far), in the notation; none when it is over.
pub fn legal_moves(game: &str, position: &str) -> anyhow::Result<Vec<String>> {
    let words: Vec<String> = ["move", "--player", "random", "--game", game]
        .map(String::from)
        .to_vec();
    let Command::Move(args) = parse(&words).map_err(anyhow::Error::msg)? else {
        anyhow::bail!("--game {game}: not a game");
    };
    let spec = args.game.game_of(&PlayerSpec::parse("random")?)?;
    spec.visit(Legal { position })
}

struct Legal<'a> {
    position: &'a str,
}

impl GameVisitor for Legal<'_> {
    type Output = anyhow::Result<Vec<String>>;

    fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
        let text = self.position.trim();
        let pos = super::output::position_of(&game, text)?;
        if game.outcome(&pos).is_some() {
            return Ok(Vec::new());
        }
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        Ok(moves.into_iter().map(|m| game.format_move(m)).collect())
    }
}
