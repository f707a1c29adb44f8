//! `bebete move`: answer positions with moves, for people and for programs.
//!
//! With `--position` one move is printed. Without it, positions are read one
//! per line from stdin and each gets one line back (flushed at once), so a
//! GUI or a tournament manager can drive bebete as an engine. A bad line gets
//! `error: …` on its own line and the stream goes on.

use super::explain::parse_policy;
use super::{GameArgs, draw_seed};
use crate::dispatch::{BuiltInGame, Dispatch, GameVisitor};
use crate::encoding::{IllegalPolicy, TableGame};
use crate::games::GameSpec;
use crate::players::{Player, PlayerSpec};
use clap::Args;
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete move genomes/tictactoe.genome --position 519
  printf '4453\\n44\\n' | bebete move genomes/connect4.genome
  bebete move --player random --game c4 --seed 3 --position 44")]
pub struct MoveArgs {
    /// The genome file that answers (or name a player with --player)
    pub genome: Option<PathBuf>,
    /// The player that answers: random, rules, mc:N, alphabeta:D, perfect or a genome file
    #[arg(long, value_name = "SPEC", conflicts_with = "genome")]
    pub player: Option<String>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of a random player [default: drawn]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Answer this one position (the moves so far) instead of reading stdin
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// What an illegal gene does: repair or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
}

struct Answer<'a> {
    player: PlayerSpec,
    seed: u64,
    policy: IllegalPolicy,
    position: Option<&'a str>,
}

/// One position in, one move (in the notation) out.
pub(super) fn answer<G: TableGame>(
    game: &G,
    player: &mut dyn Player<G>,
    text: &str,
) -> anyhow::Result<String> {
    let pos = super::output::position_in_play(game, text)?;
    match player.choose(game, &pos) {
        Some(mv) => Ok(game.format_move(mv)),
        None => anyhow::bail!(
            "position '{}': the genome's gene names an illegal move and --illegal is forfeit",
            crate::typed::shown(text)
        ),
    }
}

/// Two opening moves of `game` (the first legal move twice), for an example.
fn first_moves<G: TableGame>(game: &G) -> Vec<G::Move> {
    let mut pos = game.start();
    let mut line = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..2 {
        legal.clear();
        game.legal_moves(&pos, &mut legal);
        let Some(&mv) = legal.first() else { break };
        line.push(mv);
        pos = game.play(&pos, mv);
    }
    line
}

impl GameVisitor for Answer<'_> {
    type Output = anyhow::Result<ExitCode>;

    fn visit<G: BuiltInGame>(self, game: G) -> anyhow::Result<ExitCode> {
        let mut player = self.player.build(&game, self.seed, self.policy)?;
        let mut out = std::io::stdout().lock();
        if let Some(text) = self.position {
            writeln!(out, "{}", answer(&game, player.as_mut(), text.trim())?)?;
            return Ok(ExitCode::SUCCESS);
        }
        let mut failed = false;
        if std::io::stdin().is_terminal() {
            // A person at the keyboard: say what is awaited (on stderr,
            // so the answers alone stay on stdout).
            let example = game.format_line(&first_moves(&game));
            errln!(
                "bebete move: type a {} position as the moves so far (e.g. {example}), one per line, and get bebete's move; Ctrl-D ends (or pass --position)",
                game.spec().game()
            );
        }
        let mut input = std::io::stdin().lock();
        while let Some(line) = crate::typed::read_input_line(&mut input)? {
            let answered = line
                .map_err(anyhow::Error::msg)
                .and_then(|line| answer(&game, player.as_mut(), line.trim()));
            match answered {
                Ok(mv) => writeln!(out, "{mv}")?,
                Err(e) => {
                    failed = true;
                    writeln!(out, "error: {e:#}")?;
                }
            }
            out.flush()?;
        }
        Ok(if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        })
    }
}

/// The game a `move` command plays: the genome's, checked against `--game`.
fn resolve(args: &MoveArgs) -> anyhow::Result<(PlayerSpec, GameSpec)> {
    let player = match (&args.genome, &args.player) {
        (Some(path), None) => PlayerSpec::Genome(path.clone()),
        (None, Some(spec)) => PlayerSpec::parse(spec)?,
        (None, None) => anyhow::bail!("name a genome file, or a player with --player"),
        (Some(_), Some(_)) => anyhow::bail!("give a genome file or --player, not both"),
    };
    let spec = args.game.game_of(&player)?;
    Ok((player, spec))
}

pub fn run(args: MoveArgs) -> anyhow::Result<ExitCode> {
    let (player, spec) = resolve(&args)?;
    spec.visit(Answer {
        player,
        seed: args.seed.unwrap_or_else(draw_seed),
        policy: args.illegal,
        position: args.position.as_deref(),
    })
}
