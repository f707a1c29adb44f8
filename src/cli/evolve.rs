//! `bebete evolve`: start a run.

use super::evolution_run::{Claim, Control, Drive, Origin};
use super::explain::parse_policy;
use super::{GameArgs, draw_seed};
use crate::dispatch::Dispatch;
use crate::encoding::IllegalPolicy;
use crate::evolve::RunDir;
use crate::evolve::exchange;
use crate::evolve::{
    EvolveConfig, Fitness, Init, Mutation, Preset, Selection, SettingError, Target,
};

use crate::games::{GameName, GameOptions, GameSpec};
use crate::store::RunLock;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_long_help = "Examples:
  bebete evolve                                   an unbeatable tic-tac-toe genome
  bebete evolve --preset method                   the plain method, for comparison
  bebete evolve --game c4 --seed 1 --run runs/c4-first
  bebete evolve --game nim --rule double --sticks 100
  bebete evolve --preset method --fitness round-robin+random:20 --set selection=tournament:4
  bebete evolve --game c4 --preset method --population 1000 --fitness vs:sample:10+random:10 --set init=zero
  bebete evolve --game c4 --preset method --encoder mirror --fitness vs:hof:10+random:10+rules:20
  bebete evolve --game c4 --preset method --bench-against random,rules,mc:100 --set patience=100
  bebete evolve --game c4 --preset method --islands 4 --set migrate_every=10 --set migrants=2
  bebete evolve --game checkers --dry-run           check the settings, print the plan")]
pub struct EvolveArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// The defaults, before any flag given: recommended or method
    ///
    /// recommended: each game's recommended run (the list below; docs/experiments.md
    /// says why). method: the method as first described (round-robin fitness, elite
    /// selection, one mutation rate, random initial genes, each game's first
    /// encoder). Any flag given wins over the preset; run.toml names the preset.
    #[arg(long, value_parser = str::parse::<Preset>, default_value = "recommended",
          help_heading = "Run")]
    pub preset: Preset,
    /// Seed of every random draw, 0-18446744073709551615 [default: drawn]
    ///
    /// A run without --seed draws one, prints it and stores it in run.toml.
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse_seed,
          help_heading = "Run")]
    pub seed: Option<u64>,
    /// Generations to run [default: per game and preset]
    #[arg(long, value_name = "N", help_heading = "Run")]
    pub generations: Option<u64>,
    /// Run directory [default: runs/<game>-<seed>]
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub run: Option<PathBuf>,
    /// Worker threads [default: all cores]; results do not depend on it
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..),
          help_heading = "Run")]
    pub threads: Option<u16>,
    /// No progress bar and no summary
    #[arg(long, short, help_heading = "Output")]
    pub quiet: bool,
    /// Check every setting, print the plan and its run.toml; run nothing
    ///
    /// Checks the game, the players, the files and the bank, and prints what
    /// would run and the run.toml it would write; runs nothing and writes
    /// nothing.
    #[arg(long, help_heading = "Run")]
    pub dry_run: bool,

    /// Genomes per generation, 2-100000 (1: plain self-play learning)
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = "Population",
          value_parser = |t: &str| count(t, "1-100000"))]
    pub population: Option<usize>,
    /// Genomes that survive unchanged, 1 to population-1
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = "Population",
          value_parser = |t: &str| count(t, "1 to population-1"))]
    pub elite: Option<usize>,
    /// Parents per child, 1 to elite
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = "Population",
          value_parser = |t: &str| count(t, "1 to elite"))]
    pub parents: Option<usize>,
    /// Per-gene mutation rate, 0-1, or a range LO..HI
    ///
    /// The probability that a child's gene is redrawn; with a range LO..HI each
    /// child draws its own rate from it.
    #[arg(long, value_parser = str::parse::<Mutation>, help_heading = "Population")]
    pub mutation: Option<Mutation>,
    /// What an illegal gene does: repair or forfeit
    ///
    /// repair: play the next legal move; forfeit: the game is lost.
    #[arg(long, value_parser = parse_policy, default_value = "repair",
          help_heading = "Population")]
    pub illegal: IllegalPolicy,

    /// Fitness: round-robin or vs:TERM[+TERM…] (terms in --help)
    #[arg(long, value_parser = str::parse::<Fitness>, help_heading = "Fitness")]
    pub fitness: Option<Fitness>,
    /// Plies every genome looks ahead, in a tactical shell or a search
    ///
    /// A vote table plays inside a tactical shell searching D plies (0-6): win at
    /// once, never leave an immediate win, and from D = 2 take forced wins and
    /// avoid forced losses; a value genome (--encoder ntuple) searches D plies
    /// (0-12) by alpha-beta over its own values. Stored in the champion's file.
    #[arg(long, value_name = "D", default_value_t = 0, help_heading = "Fitness")]
    pub lookahead: u8,
    /// Value genomes: self-play games each learns from between generations
    ///
    /// 0-1000000 games of TD(λ) at the genome's own rate, λ and exploration;
    /// what it learns is inherited. With --population 1 this is plain TD
    /// learning.
    #[arg(long, value_name = "N", help_heading = "Learning")]
    pub self_play: Option<u32>,
    /// Value genomes: play the --self-play games against SPEC, or self
    ///
    /// Any player spec (wpc@0.1, alphabeta:2, a genome file…): the genome learns
    /// from its own moves against it; `self` for self-play.
    #[arg(long, value_name = "SPEC", help_heading = "Learning")]
    pub learn_against: Option<String>,

    /// Measure the champion every K generations, 0 = never
    #[arg(long, value_name = "K", help_heading = "Benchmark and stopping")]
    pub bench_every: Option<u64>,
    /// Benchmark opponents, comma separated [default: random,rules]
    ///
    /// Each is a column vs_SPEC in stats.csv. Solitaire has none: its benchmark
    /// is the champion's pegs.
    #[arg(long, value_name = "SPEC,…", help_heading = "Benchmark and stopping")]
    pub bench_against: Option<String>,
    /// Stop early: unbeatable, score:SPEC:X or pegs:N
    ///
    /// unbeatable: a game solved whole, the audit finds no move that gives away
    /// the game's value; score:SPEC:X: a score share ≥ X against SPEC; pegs:N
    /// (a puzzle): the champion's game leaves N pegs or fewer.
    #[arg(long, value_parser = str::parse::<Target>, help_heading = "Benchmark and stopping")]
    pub target: Option<Target>,
    /// Write a checkpoint every K generations (and at the end)
    #[arg(long, value_name = "K", help_heading = "Output")]
    pub checkpoint_every: Option<u64>,
    /// Islands: N populations evolving side by side, 1-1024
    ///
    /// Each island has --population genomes and its own seed derived from
    /// --seed; the champion is the best of all islands.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        help_heading = "Population"
    )]
    pub islands: usize,
    /// Any setting by its run.toml name: KEY=VALUE, repeatable
    ///
    /// Every setting of a run has a name, the key run.toml writes it under
    /// (`evolve --dry-run` prints them all), and takes the command line's words:
    /// --set keep=5, --set selection=tournament:4, --set crossover=block:64,
    /// --set init=zero, --set patience=100, --set bench_games=200,
    /// --set migrate_every=5, --set migrants=1, --set bank=FILE. Given after the
    /// flags above, it wins over them.
    #[arg(long, value_name = "KEY=VALUE", help_heading = "Run")]
    pub set: Vec<String>,
    /// Settings by name with typed values, after `set` (a program's, such
    /// as the Python package's keywords; no flag).
    #[arg(skip)]
    pub values: Vec<(String, serde_json::Value)>,
}

/// A count flag: a whole number, else a message with its range (the range
/// itself is checked with the rest of the configuration).
fn count(text: &str, range: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .map_err(|_| format!("must be a whole number, {range}"))
}

/// The thread count: `--threads`, or every core.
pub fn thread_count(threads: Option<u16>) -> usize {
    threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The defaults that depend on the population follow a `--population` too
/// small for them: an elite not given becomes a tenth of the population (at
/// least 1), parents not given at most the elite (with elite selection),
/// and migrants not given at most the elite. Every run these settings
/// allowed before is unchanged.
/// Which of those flags were given: elite, parents, migrants.
struct Given {
    elite: bool,
    parents: bool,
    migrants: bool,
}

fn follow_population(cfg: &mut EvolveConfig, given: Given) {
    if !given.elite && cfg.population > 1 && cfg.elite >= cfg.population {
        cfg.elite = (cfg.population / 10).max(1);
    }
    if !given.parents && cfg.selection == Selection::Elite {
        cfg.parents = cfg.parents.min(cfg.elite);
    }
    // Migrants are an island's best: at most its elite (a value genome's
    // is 1).
    if !given.migrants {
        cfg.migrants = cfg.migrants.min(cfg.elite);
    }
}

pub fn run(args: EvolveArgs) -> anyhow::Result<ExitCode> {
    run_with(args, Control::default())
}

/// The run's directory: `--run`, else `runs/` and the game's default
/// name for `seed`.
pub fn run_dir(args: &EvolveArgs, seed: u64) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &args.run {
        return Ok(dir.clone());
    }
    let game = args
        .game
        .spec_with_encoders(GameName::TicTacToe, args.preset == Preset::Recommended)?;
    Ok(PathBuf::from("runs").join(default_run_name(game, seed)))
}

/// [`run`], stopped and heard by `control` (see [`Control`]).
pub fn run_with(args: EvolveArgs, control: Control) -> anyhow::Result<ExitCode> {
    // The preset's settings (its encoders too), then every flag given.
    let game = args
        .game
        .spec_with_encoders(GameName::TicTacToe, args.preset == Preset::Recommended)?;
    if args.seed.is_none() && exchange::launched().is_some() {
        anyhow::bail!("--seed: under MPI give the seed, so that every process runs the same run");
    }
    let seed = args.seed.unwrap_or_else(draw_seed);
    let dir = run_dir(&args, seed)?;
    let mut cfg = EvolveConfig::preset(args.preset, game, seed);
    cfg.population = args.population.unwrap_or(cfg.population);
    cfg.elite = args.elite.unwrap_or(cfg.elite);
    cfg.parents = args.parents.unwrap_or(cfg.parents);
    cfg.mutation = args.mutation.unwrap_or(cfg.mutation);
    cfg.generations = args.generations.unwrap_or(cfg.generations);
    cfg.checkpoint_every = args.checkpoint_every.unwrap_or(cfg.checkpoint_every);
    cfg.illegal = args.illegal;
    cfg.fitness = args.fitness.unwrap_or(cfg.fitness);
    cfg.bench_every = args.bench_every.unwrap_or(cfg.bench_every);
    if let Some(against) = &args.bench_against {
        cfg.set("bench_against", against.as_str().into())
            .map_err(|e| anyhow::anyhow!("--bench-against {against}: {}", reason(e)))?;
    }
    cfg.target = args.target.or(cfg.target);
    cfg.lookahead = args.lookahead;
    cfg.islands = args.islands;
    cfg.self_play = args.self_play.unwrap_or(cfg.self_play);
    if let Some(text) = &args.learn_against {
        cfg.set("learn_against", text.as_str().into())
            .map_err(|e| anyhow::anyhow!("--learn-against {text}: {}", reason(e)))?;
    }
    for assignment in &args.set {
        cfg.set_text(assignment)
            .map_err(|e| anyhow::anyhow!("--set {e}"))?;
    }
    for (key, value) in &args.values {
        cfg.set(key, value.clone()).map_err(anyhow::Error::new)?;
    }
    let set = |key: &str| {
        args.values.iter().any(|(k, _)| k == key)
            || args.set.iter().any(|a| {
                a.split('=').next().map(|k| k.trim().replace('-', "_")) == Some(key.into())
            })
    };
    let given = Given {
        elite: args.elite.is_some() || set("elite"),
        parents: args.parents.is_some() || set("parents"),
        migrants: set("migrants"),
    };
    follow_population(&mut cfg, given);
    // A setting is named in errors as it was given: by a program's name
    // (`keep=0`), through --set, or by its own flag.
    let named = |flag: &str, value: &str| {
        let key = flag.replace('-', "_");
        let flagged = EvolveArgs::augment_args(clap::Command::new("evolve"))
            .get_arguments()
            .any(|arg| arg.get_long() == Some(flag));
        if args.values.iter().any(|(k, _)| *k == key) {
            format!("{key}={value}")
        } else if !flagged || set(&key) {
            format!("--set {key}={value}")
        } else {
            format!("--{flag} {value}")
        }
    };
    if let crate::bank::BankSource::File(path) = &cfg.bank
        && !path.is_file()
    {
        anyhow::bail!(
            "{}: no such file; build one with `bebete bank --game c4 --out {}`, or leave bank out for the bank built into bebete (builtin)",
            named("bank", &path.display().to_string()),
            path.display()
        );
    }
    if let Err(e) = cfg.validate() {
        anyhow::bail!("{}: {}", named(e.flag, &e.value), e.allowed);
    }
    super::output::check_out_path("--run", &dir, None)?;
    let run = RunDir::new(dir);
    if args.dry_run {
        refuse_a_run_in(&run)?;
        let planned = game.visit(Drive {
            origin: Origin::Planned { cfg },
            run,
            lock: None,
            threads: thread_count(args.threads),
            quiet: args.quiet,
            control: Control::default(),
        });
        if args.seed.is_none() && planned.is_ok() {
            // The seed shown was drawn for this plan alone.
            errln!(
                "note: no --seed given: this plan drew seed {seed}, and a run without --seed draws another; add --seed {seed} to run this plan as shown"
            );
        }
        return planned;
    }
    // Once the configuration is checked and built: the lock first (a run
    // in progress is named as such, not as one to resume). Under MPI the
    // first process takes the lock and checks the directory; the others
    // write only their own checkpoints.
    let claim: Claim = {
        let (run, quiet) = (run.clone(), args.quiet);
        Box::new(move |cfg: &EvolveConfig| {
            let root = exchange::is_first_process();
            let lock = root.then(|| RunLock::acquire(run.root())).transpose()?;
            if root {
                refuse_a_run_in(&run)?;
            }
            if !quiet && root {
                outln!("{}", plan_line("evolving", cfg, &run));
            }
            Ok(lock)
        })
    };
    game.visit(Drive {
        origin: Origin::Fresh { cfg, claim },
        run,
        lock: None,
        threads: thread_count(args.threads),
        quiet: args.quiet,
        control,
    })
}

/// Why a flag's value does not read, without the setting's own name.
fn reason(e: SettingError) -> String {
    match e {
        SettingError::Value { reason, .. } => reason,
        other => other.to_string(),
    }
}

/// The run directory's name when `--run` is not given: the game and the
/// seed (`tictactoe-1`), with any rule that differs from the game's
/// default between them (`matchsticks-double-100-1`), so that runs of one
/// game under other rules do not take each other's name.
fn default_run_name(game: GameSpec, seed: u64) -> String {
    let plain = game
        .game()
        .from_options(&GameOptions::default())
        .map(|g| g.rules_json())
        .unwrap_or_default();
    let mut name = game.game().to_string();
    if let (serde_json::Value::Object(rules), serde_json::Value::Object(plain)) =
        (game.rules_json(), plain)
    {
        for (key, value) in rules {
            if plain.get(&key) != Some(&value) {
                let text = match value {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                name.push('-');
                name.extend(text.chars().filter(|c| c.is_ascii_alphanumeric()));
            }
        }
    }
    format!("{name}-{seed}")
}

/// The defaults `evolve --help` lists after its examples, one game and
/// encoder a line: built from the very settings a run starts from
/// ([`EvolveConfig::recommended`] and each game's method settings), so the
/// help cannot drift from what runs.
pub fn defaults_by_game() -> String {
    let mut out = String::from(
        "Defaults per game and encoder under --preset recommended, the default (any flag given\n\
         wins; the first encoder of a game is its default):\n",
    );
    for &kind in GameName::ALL {
        for spec in recommended_specs(kind) {
            let cfg = EvolveConfig::recommended(spec, 0);
            out.push_str(&format!(
                "  --game {kind} --encoder {}\n      {}\n",
                spec.encoder_name(),
                settings_as_flags(&cfg)
            ));
        }
    }
    out.push_str("Under --preset method (each game's first encoder, round-robin fitness, random initial\ngenes, one mutation rate):\n");
    for &kind in GameName::ALL {
        let Ok(spec) = kind.from_options(&GameOptions::default()) else {
            continue;
        };
        let m = EvolveConfig::method(spec, 0);
        out.push_str(&format!(
            "  --game {kind}  --mutation {} --generations {} --checkpoint-every {} --bench-every {}\n",
            m.mutation, m.generations, m.checkpoint_every, m.bench_every
        ));
    }
    out
}

/// Each encoder of `kind` under the recommended settings, its default
/// first: what `evolve --game KIND [--encoder E]` runs.
pub fn recommended_specs(kind: GameName) -> Vec<GameSpec> {
    kind.encoders(true)
        .into_iter()
        .filter_map(|name| {
            kind.from_options(&GameOptions {
                encoder: Some(name.to_string()),
                recommended: true,
                ..GameOptions::default()
            })
            .ok()
        })
        .collect()
}

/// The settings of `cfg` that differ between games, as the flags that set
/// them.
fn settings_as_flags(cfg: &EvolveConfig) -> String {
    let mut flags = format!(
        "--population {} --elite {} --parents {} --mutation {} --fitness {}",
        cfg.population, cfg.elite, cfg.parents, cfg.mutation, cfg.fitness
    );
    if cfg.init == Init::Zero {
        flags.push_str(" --set init=zero");
    }
    if cfg.self_play > 0 {
        flags.push_str(&format!(" --self-play {}", cfg.self_play));
    }
    if let Some(spec) = &cfg.learn_against {
        flags.push_str(&format!(" --learn-against {spec}"));
    }
    flags.push_str(&format!(" --generations {}", cfg.generations));
    if let Some(target) = &cfg.target {
        flags.push_str(&format!(" --target {target}"));
    }
    flags.push_str(&format!(" --bench-every {}", cfg.bench_every));
    let against: Vec<String> = cfg.bench_against.iter().map(|s| s.to_string()).collect();
    if against != ["random", "rules"] && !against.is_empty() {
        flags.push_str(&format!(" --bench-against {}", against.join(",")));
    }
    flags.push_str(&format!(" --checkpoint-every {}", cfg.checkpoint_every));
    flags
}

/// A new run's directory must not hold a run already.
fn refuse_a_run_in(run: &RunDir) -> anyhow::Result<()> {
    if run.run_toml().exists() {
        anyhow::bail!(
            "{} already holds a run: continue it with `bebete resume {}`, or choose another --run",
            run.root().display(),
            run.root().display()
        );
    }
    // A run killed as it started (its checkpoint written, not yet its
    // run.toml), or one whose run.toml was lost: its checkpoints would be
    // pruned for this run's, then resumed over it.
    let checkpoints = crate::evolve::checkpoint::list(&run.checkpoints());
    if !checkpoints.is_empty() || crate::evolve::checkpoint::rank_dirs(run) > 0 {
        anyhow::bail!(
            "{} holds checkpoints of a run but no run.toml: continue that run with `bebete resume {}` (it writes run.toml anew), or choose another --run",
            run.root().display(),
            run.root().display()
        );
    }
    Ok(())
}

/// `evolving GAME: population P, N generations, seed S, run DIR`, the
/// first line of a run (`verb` is `evolving`, or `would evolve` for a dry
/// run).
pub fn plan_line(verb: &str, cfg: &EvolveConfig, run: &RunDir) -> String {
    let population = match cfg.islands {
        1 => format!("population {}", cfg.population),
        n => format!("{n} islands of population {}", cfg.population),
    };
    format!(
        "{verb} {}: {population}, {} generations, seed {}, run {}",
        cfg.game,
        cfg.generations,
        cfg.seed,
        run.root().display()
    )
}

/// `--seed`: a whole number; a sign (`-1`) is named as such rather than
/// taken for another flag.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| format!("a seed is a whole number 0-{}, not '{text}'", u64::MAX))
}
