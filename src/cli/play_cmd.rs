//! `bebete play`: a game in the terminal against a genome or any player.

use super::explain::parse_policy;
use super::{GameArgs, draw_seed};
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::IllegalPolicy;
use crate::games::{GameName, GameSpec};
use crate::play::{Bot, First, Score, WrapAtWords, play, play_solo};
use crate::players::PlayerSpec;
use crate::players::{Puzzle, PuzzleVisitor};
use clap::{Args, ValueEnum};
use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

#[derive(Args, Debug)]
#[command(
    after_help = "With no genome, the shipped champion <game>.genome plays: from genomes/ here, else from the folder BEBETE_GENOMES names, else from the checkout bebete was built from (so an installed bebete plays from any folder).

Examples:
  bebete play                                    tic-tac-toe against the champion
  bebete play --game c4 --first bot --games 3
  bebete play runs/tictactoe-1                   that run's champion
  bebete play --game c4 --opponent alphabeta:4
  printf '5\\n1\\n9\\n' | bebete play            moves from a pipe
  bebete play --game solitaire                   peg solitaire alone; ? asks the genome"
)]
pub struct PlayArgs {
    /// A genome file or a run directory (its champion) [default: genomes/<game>.genome]
    pub genome: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Play against this player instead: random, rules, mc:N, alphabeta:D, perfect or a genome file
    #[arg(long, value_name = "SPEC", conflicts_with = "genome")]
    pub opponent: Option<String>,
    /// Who moves first in the first game; then sides alternate [default: human]
    #[arg(long, value_enum)]
    pub first: Option<FirstArg>,
    /// Games to play
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of a random or otherwise randomised opponent [default: drawn]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write each game to FILE as it ends, one line a game: the first
    /// player, the second, the result (1-0, 0-1 or 1/2-1/2) and the moves
    /// in the game's notation, tab-separated (as `eval --record` writes)
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// What an illegal gene does: repair or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FirstArg {
    Human,
    Bot,
}

/// A genome's file, genes and its shell's lookahead.
type GenomeBot = (PathBuf, Vec<u8>, u8);

/// The score so far, said when Ctrl-C (or SIGTERM, SIGHUP) ends the
/// session, which then exits with 128 + the signal.
fn score_on_interrupt() -> Arc<Mutex<Score>> {
    let score = Arc::new(Mutex::new(Score::default()));
    if let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        let shared = score.clone();
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let line = shared
                    .lock()
                    .map_or_else(|e| e.into_inner().line(), |s| s.line());
                // stderr: the session holds stdout's lock while it waits
                // for a move.
                errln!("\ninterrupted; {line}");
                std::process::exit(128 + sig);
            }
        });
    }
    score
}

struct Session<'a> {
    genes: Option<GenomeBot>,
    opponent: Option<PlayerSpec>,
    args: &'a PlayArgs,
}

impl GameVisitor for Session<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<ExitCode> {
        let (against, mut bot) = match (self.genes, self.opponent) {
            (Some((path, genes, lookahead)), _) => {
                let how = super::lookahead_note(game.spec(), lookahead);
                let bot = Bot::Genome {
                    genes: genes.into(),
                    policy: self.args.illegal,
                    lookahead,
                };
                (format!("{}{how}", path.display()), bot)
            }
            (None, Some(spec)) => {
                let player = spec.build(
                    &game,
                    self.args.seed.unwrap_or_else(draw_seed),
                    self.args.illegal,
                )?;
                let name = spec.to_string();
                (name.clone(), Bot::Player { name, player })
            }
            (None, None) => anyhow::bail!("no bot to play against"),
        };
        // Who bebete is, before the first board.
        let role = if G::PLAYERS == 1 {
            "advising"
        } else {
            "playing"
        };
        {
            let mut out = terminal_out();
            writeln!(out, "bebete {role}: {against} ({})", game.spec())?;
            out.flush()?;
        }
        if G::PLAYERS == 1 {
            if self.args.first.is_some() {
                anyhow::bail!(
                    "--first: {} is a one-player game: you make every move (? asks bebete)",
                    game.spec().game()
                );
            }
            if self.args.record.is_some() {
                anyhow::bail!(
                    "--record keeps two-player games; {} is a one-player game",
                    game.spec().game()
                );
            }
            let stdin = std::io::stdin();
            let mut out = terminal_out();
            // The fewest pieces that can be left, when the puzzle is small
            // enough to solve at once.
            let best = game.visit_puzzle(BestFromStart).ok().flatten();
            play_solo(
                &game,
                &mut bot,
                self.args.games,
                best,
                &mut stdin.lock(),
                &mut out,
            )?;
            out.flush()?;
            return Ok(ExitCode::SUCCESS);
        }
        let first = match self.args.first.unwrap_or(FirstArg::Human) {
            FirstArg::Human => First::Human,
            FirstArg::Bot => First::Bot,
        };
        let mut record = match &self.args.record {
            Some(path) => Some(start_record(path)?),
            None => None,
        };
        let stdin = std::io::stdin();
        let mut out = terminal_out();
        let score = score_on_interrupt();
        play(
            &game,
            &mut bot,
            first,
            self.args.games,
            &mut stdin.lock(),
            &mut out,
            &mut |s, played| {
                *score.lock().unwrap_or_else(|e| e.into_inner()) = s;
                let Some(file) = record.as_mut() else {
                    return Ok(());
                };
                file.write_all(played.line("you", &against).as_bytes())?;
                file.sync_data()
            },
        )?;
        out.flush()?;
        Ok(ExitCode::SUCCESS)
    }
}

/// A new game record at `path` (`--record`), its first line naming the
/// columns; an existing file is refused, not added to.
fn start_record(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => anyhow::anyhow!(
                "{} exists: choose another --record (games are not added to an old record)",
                path.display()
            ),
            _ => anyhow::anyhow!("{}: {e}", path.display()),
        })?;
    file.write_all(crate::eval::GameRecord::HEADER.as_bytes())?;
    Ok(file)
}

/// Standard output; on a terminal, long lines (the bot's notes) wrapped at
/// words to its width.
fn terminal_out() -> Box<dyn Write> {
    let stdout = std::io::stdout();
    let terminal = console::Term::stdout();
    if terminal.is_term() {
        let width = usize::from(terminal.size().1);
        Box::new(WrapAtWords::new(stdout.lock(), width))
    } else {
        Box::new(stdout.lock())
    }
}

/// Where the shipped champion `name` is found, in order: `genomes/` of the
/// folder `play` runs in (a project of one's own), the folder named by
/// `BEBETE_GENOMES`, then `genomes/` of the checkout this binary was built
/// from (what `cargo install --path .` or `--git` leaves in place), so
/// that an installed `bebete play` works from any folder.
fn shipped_champion(name: &str) -> anyhow::Result<PathBuf> {
    let mut places = vec![PathBuf::from("genomes")];
    if let Some(dir) = std::env::var_os("BEBETE_GENOMES") {
        let dir = PathBuf::from(dir);
        if !dir.is_dir() {
            anyhow::bail!(
                "BEBETE_GENOMES={}: no such folder; name the folder that holds the shipped genomes, or unset it",
                dir.display()
            );
        }
        places.push(dir);
    }
    places.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("genomes"));
    if let Some(found) = places.iter().map(|p| p.join(name)).find(|p| p.is_file()) {
        return Ok(found);
    }
    let looked: Vec<String> = places
        .iter()
        .map(|p| p.join(name).display().to_string())
        .collect();
    anyhow::bail!(
        "no genome given and the shipped {name} is not in {}: pass a genome file or run directory, or name a folder of genomes with BEBETE_GENOMES",
        looked.join(", ")
    )
}

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let (spec, genes, opponent): (GameSpec, Option<GenomeBot>, Option<PlayerSpec>) =
        match (&args.genome, &args.opponent) {
            (_, Some(text)) => {
                let opponent = PlayerSpec::parse(text)?;
                let spec = match &opponent {
                    PlayerSpec::Genome(_) => args.game.game_of(&opponent)?,
                    _ => args.game.spec(GameName::TicTacToe)?,
                };
                (spec, None, Some(opponent))
            }
            (given, None) => {
                let wanted = args.game.spec(GameName::TicTacToe)?;
                let path = match given {
                    Some(p) => p.clone(),
                    None => shipped_champion(&format!("{}.genome", wanted.game()))?,
                };
                let genome = super::game_args::load_genome(&path)?;
                // --game picks the game; its encoder and rules come from the
                // genome unless they were given explicitly.
                if args.game.game.is_some() {
                    genome.expect_game(&path, wanted.game())?;
                }
                args.game.check_encoder(&path, &genome)?;
                let explicit = args.game.encoder.is_some()
                    || args.game.rule.is_some()
                    || args.game.sticks.is_some();
                if explicit && genome.game != wanted {
                    anyhow::bail!(
                        "{}: {} genome, but {wanted} was asked for",
                        path.display(),
                        crate::store::with_article(&genome.game.to_string())
                    );
                }
                (
                    genome.game,
                    Some((path, genome.genes, genome.lookahead)),
                    None,
                )
            }
        };
    spec.visit(Session {
        genes,
        opponent,
        args: &args,
    })
}

/// A puzzle's best result from the start ([`Puzzle::best_from_start`]).
struct BestFromStart;

impl PuzzleVisitor for BestFromStart {
    type Output = Option<u32>;

    fn visit<P: Puzzle>(self, puzzle: &P) -> Option<u32> {
        puzzle.best_from_start()
    }
}
