//! `bebete eval`: a player's score against fixed opponents.

use super::GameArgs;
use super::evolve::thread_count;
use super::explain::parse_policy;
use crate::dispatch::{Dispatch, GameVisitor};
use crate::encoding::{IllegalPolicy, TableGame};
use crate::eval::{MatchConfig, Tally, play_match};
use crate::games::BuiltIn;
use crate::games::GameSpec;
use crate::players::Knowledge;
use crate::players::PlayerSpec;
use anyhow::Context;
use clap::Args;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(
    after_help = "Players: random, rules, mc:N (N playouts per move), alphabeta:D (depth D),
perfect (exact; Connect-Four through an embedded solver), or a genome file.

Examples:
  bebete eval genomes/tictactoe.genome --against random,rules,perfect
  bebete eval genomes/connect4.genome --against random,rules,mc:200 --games 1000 --json
  bebete eval rules --game c4 --against random"
)]
pub struct EvalArgs {
    /// The player measured: a genome file or a player spec
    pub player: String,
    /// Opponents, comma separated
    #[arg(long, value_name = "SPEC,…", default_value = "random,rules")]
    pub against: String,
    #[command(flatten)]
    pub game: GameArgs,
    /// Games per opponent, half with each side first (an odd number is rounded up)
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Seed of the openings and of the players' random choices
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies before each pair of games [default: 0; 2 for connect4]
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub openings: Option<u32>,
    /// What an illegal gene does: repair or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
    /// Worker threads [default: all cores]; results do not depend on it
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
    /// Check the player and every opponent (files read, specs built) and
    /// print the table's first line; play nothing
    #[arg(long)]
    pub dry_run: bool,
}

struct Evaluate<'a> {
    player: PlayerSpec,
    opponents: Vec<PlayerSpec>,
    args: &'a EvalArgs,
}

impl GameVisitor for Evaluate<'_> {
    type Output = anyhow::Result<Vec<Tally>>;

    fn visit<G: TableGame + Knowledge + BuiltIn>(self, game: G) -> anyhow::Result<Vec<Tally>> {
        let cfg = MatchConfig {
            games: self.args.games,
            seed: self.args.seed,
            openings: self.args.openings.unwrap_or(G::DEFAULT_OPENINGS),
        };
        let player = self.player.factory(&game, self.args.illegal)?;
        let mut tallies = Vec::new();
        for (i, spec) in self.opponents.iter().enumerate() {
            let opponent = spec.factory(&game, self.args.illegal)?;
            if !self.args.dry_run {
                tallies.push(play_match(&game, &player, &opponent, i as u64, cfg));
            }
        }
        Ok(tallies)
    }
}

fn table(player: &str, spec: &GameSpec, games: u64, tallies: &[Tally]) -> String {
    let mut out = format!("{player} ({spec}), {games} games per opponent, sides alternating\n");
    out.push_str(&format!(
        "{:<16} {:>7} {:>7} {:>7} {:>7} {:>7}  95% interval\n",
        "against", "games", "wins", "draws", "losses", "score"
    ));
    for t in tallies {
        let (lo, hi) = t.interval95();
        out.push_str(&format!(
            "{:<16} {:>7} {:>7} {:>7} {:>7} {:>6.1}%  {:.1}-{:.1}%\n",
            t.against,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score(),
            100.0 * lo,
            100.0 * hi
        ));
    }
    out
}

pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    let player = PlayerSpec::parse(&args.player)?;
    let opponents = PlayerSpec::parse_list(&args.against)?;
    let spec = args.game.game_of(&player)?;
    let player_shown = player.clone();
    if crate::dispatch::abilities(spec).players == 1 {
        anyhow::bail!(
            "eval scores against opponents, and {} is a one-player game: `bebete audit GENOME` gives what it leaves and how it plays from every position",
            spec.kind()
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(args.threads))
        .build()
        .context("starting the thread pool")?;
    let tallies = pool.install(|| {
        spec.visit(Evaluate {
            player,
            opponents,
            args: &args,
        })
    })?;
    let shell = match player_shown.plain() {
        PlayerSpec::Genome(path) => crate::genome::Genome::peek(path)
            .map_or(String::new(), |(_, lookahead)| {
                super::lookahead_note(spec, lookahead)
            }),
        _ => String::new(),
    };
    let player_named = format!("{}{shell}", args.player);
    let text = if args.dry_run {
        // An odd count is rounded up, as the match plays it.
        let games = args.games + args.games % 2;
        let mut text = table(&player_named, &spec, games, &[]);
        text.truncate(text.find('\n').map_or(text.len(), |n| n + 1));
        text + &format!(
            "dry run: the player and {} checked; nothing played\n",
            args.against
        )
    } else if args.json {
        serde_json::to_string_pretty(&tallies)? + "\n"
    } else {
        table(
            &player_named,
            &spec,
            tallies.first().map_or(0, |t| t.games),
            &tallies,
        )
    };
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
