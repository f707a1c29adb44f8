//! `bebete evolve`: start a run.

use super::evolution_run::{Claim, Control, Drive, Origin};
use super::explain::parse_policy;
use super::{GameArgs, draw_seed};
use crate::bank::BankSource;
use crate::dispatch::Dispatch;
use crate::encoding::IllegalPolicy;
use crate::evolve::RunDir;
use crate::evolve::exchange;
use crate::evolve::{Crossover, EvolveConfig, Fitness, Init, Islands, Mutation, Selection, Target};

use crate::games::{GameKind, GameOptions, GameSpec};
use crate::players::PlayerSpec;
use crate::store::RunLock;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete evolve                                   an unbeatable tic-tac-toe genome
  bebete evolve --fitness round-robin             the plain method, for comparison
  bebete evolve --game c4 --seed 1 --run runs/c4-first
  bebete evolve --game nim --rule double --sticks 100
  bebete evolve --fitness round-robin+random:20 --selection tournament:4
  bebete evolve --game c4 --population 1000 --fitness vs:sample:10+random:10 --init zero
  bebete evolve --game c4 --encoder mirror --fitness vs:hof:10+random:10+rules:20
  bebete evolve --game c4 --bench-against random,rules,mc:100 --patience 100
  bebete evolve --game c4 --encoder subgrid --islands 4 --migrate-every 10 --migrants 2
  bebete evolve --game checkers --dry-run           check the settings, print the plan")]
pub struct EvolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Genomes per generation, 2-100000 (1 for plain self-play learning)
    /// [default: per game, listed below]
    #[arg(long, allow_negative_numbers = true,
          value_parser = |t: &str| count(t, "1-100000"))]
    pub population: Option<usize>,
    /// Genomes that survive unchanged, 1 to population-1 [default: per
    /// game, listed below]
    #[arg(long, allow_negative_numbers = true,
          value_parser = |t: &str| count(t, "1 to population-1"))]
    pub elite: Option<usize>,
    /// Parents per child, 1 to elite [default: per game, listed below]
    #[arg(long, allow_negative_numbers = true,
          value_parser = |t: &str| count(t, "1 to elite"))]
    pub parents: Option<usize>,
    /// Per-gene probability of being redrawn in a child, 0-1, or a range
    /// LO..HI from which each child draws its own rate [default: per game,
    /// listed below]
    #[arg(long, value_parser = str::parse::<Mutation>)]
    pub mutation: Option<Mutation>,
    /// Generations to run [default: per game, listed below]
    #[arg(long)]
    pub generations: Option<u64>,
    /// Seed of every random draw, a whole number 0-18446744073709551615
    /// [default: drawn, printed and stored]
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Run directory [default: runs/<game>-<seed>]
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Write a checkpoint every K generations (and at the end) [default: per
    /// game, listed below]
    #[arg(long)]
    pub checkpoint_every: Option<u64>,
    /// Checkpoints kept on disk
    #[arg(long, default_value_t = 2)]
    pub keep: usize,
    /// Worker threads [default: all cores]; results do not depend on it
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// What an illegal gene does: repair (play the next legal move) or forfeit
    #[arg(long, value_parser = parse_policy, default_value = "repair")]
    pub illegal: IllegalPolicy,
    /// Parent selection: elite (uniform among the elite) or tournament:K
    #[arg(long, value_parser = str::parse::<Selection>, default_value = "elite")]
    pub selection: Selection,
    /// Fitness: round-robin (the method) or vs:TERM[+TERM…] (the terms are
    /// listed by --help, from the engine's table of terms)
    #[arg(long, value_parser = str::parse::<Fitness>)]
    pub fitness: Option<Fitness>,
    /// Crossover: uniform (each gene from a random parent) or block:B (each
    /// run of B consecutive genes from one parent)
    #[arg(long, value_parser = str::parse::<Crossover>, default_value = "uniform")]
    pub crossover: Crossover,
    /// Genes of generation 0: random, or zero (connect4: every vote has
    /// weight 0, so genomes start by playing the centre-first tie order)
    /// [default: random; zero where listed below]
    #[arg(long, value_parser = str::parse::<Init>)]
    pub init: Option<Init>,
    /// Measure the champion every K generations, 0 = never [default: per
    /// game, listed below]
    #[arg(long)]
    pub bench_every: Option<u64>,
    /// Benchmark opponents (columns vs_SPEC in stats.csv), comma separated
    /// [default: random,rules; none for solitaire, whose benchmark is the
    /// champion's pegs]
    #[arg(long, value_name = "SPEC,…")]
    pub bench_against: Option<String>,
    /// Games per benchmark opponent, half with each side first
    #[arg(long, default_value_t = 100)]
    pub bench_games: u64,
    /// Stop early: unbeatable (a game solved whole: the audit finds no
    /// move that gives away the game's value), score:SPEC:X (score share ≥
    /// X) or pegs:N (a puzzle: the champion's game leaves N pegs or fewer)
    #[arg(long, value_parser = str::parse::<Target>)]
    pub target: Option<Target>,
    /// Stop after N generations without a better benchmark
    #[arg(long, value_name = "N")]
    pub patience: Option<u64>,
    /// Play every genome inside a tactical shell searching D plies (0-6):
    /// win at once, never leave an immediate win, and from D = 2 take forced
    /// wins and avoid forced losses; a value genome (--encoder ntuple)
    /// instead searches D plies (0-12) by alpha-beta over its own values.
    /// Stored in the champion's file
    #[arg(long, value_name = "D", default_value_t = 0)]
    pub lookahead: u8,
    /// Connect-Four: the solver-labelled position bank for the bank fitness
    /// and the optimal_rate column (made by `bebete bank`) [default:
    /// builtin, the bank shipped in the binary]
    #[arg(long, value_name = "FILE")]
    pub bank: Option<String>,
    /// Value genomes (--encoder ntuple): self-play games each genome learns
    /// from between generations (TD(λ) at its own rate, λ and exploration;
    /// what it learns is inherited), 0-1000000; with --population 1 this is
    /// plain TD learning [default: 0, or the recommended setting]
    #[arg(long, value_name = "N")]
    pub self_play: Option<u32>,
    /// Value genomes: play the --self-play games against this fixed player
    /// instead of against itself (any player spec: wpc@0.1, alphabeta:2, a
    /// genome file…), learning from the genome's own moves; `self` for
    /// self-play [default: self, or the recommended setting]
    #[arg(long, value_name = "SPEC")]
    pub learn_against: Option<String>,
    /// Island model: N populations of --population genomes each, evolving
    /// side by side (each with its own seed derived from --seed), 1-1024;
    /// the champion is the best of all islands
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub islands: usize,
    /// With --islands: every K generations each island sends its best
    /// genomes to the next (a ring)
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub migrate_every: u64,
    /// With --islands: genomes sent per migration (an island's best; they
    /// replace the receiving island's last children), 1 to elite
    /// [default: 2, or the elite when it is smaller]
    #[arg(long, value_name = "M")]
    pub migrants: Option<usize>,
    /// No progress bar and no summary
    #[arg(long, short)]
    pub quiet: bool,
    /// Check every setting (the game, the players, the files, the bank)
    /// and print what would run and the run.toml it would write; run
    /// nothing and write nothing
    #[arg(long)]
    pub dry_run: bool,
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
        cfg.islands.migrants = cfg.islands.migrants.min(cfg.elite);
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
        .spec_with_encoders(GameKind::TicTacToe, args.fitness.is_none())?;
    Ok(PathBuf::from("runs").join(default_run_name(game, seed)))
}

/// [`run`], stopped and heard by `control` (see [`Control`]).
pub fn run_with(args: EvolveArgs, control: Control) -> anyhow::Result<ExitCode> {
    // Without --fitness, the recommended settings; with it, the method's.
    let recommended = args.fitness.is_none();
    let game = args
        .game
        .spec_with_encoders(GameKind::TicTacToe, recommended)?;
    if args.seed.is_none() && exchange::launched().is_some() {
        anyhow::bail!("--seed: under MPI give the seed, so that every process runs the same run");
    }
    let seed = args.seed.unwrap_or_else(draw_seed);
    let dir = run_dir(&args, seed)?;
    let mut cfg = if recommended {
        EvolveConfig::recommended(game, seed)
    } else {
        EvolveConfig::method(game, seed)
    };
    cfg.population = args.population.unwrap_or(cfg.population);
    cfg.elite = args.elite.unwrap_or(cfg.elite);
    cfg.parents = args.parents.unwrap_or(cfg.parents);
    cfg.mutation = args.mutation.unwrap_or(cfg.mutation);
    cfg.generations = args.generations.unwrap_or(cfg.generations);
    cfg.checkpoint_every = args.checkpoint_every.unwrap_or(cfg.checkpoint_every);
    cfg.keep = args.keep;
    cfg.illegal = args.illegal;
    cfg.selection = args.selection;
    cfg.fitness = args.fitness.unwrap_or(cfg.fitness);
    cfg.init = args.init.unwrap_or(cfg.init);
    cfg.crossover = args.crossover;
    cfg.bench.every = args.bench_every.unwrap_or(cfg.bench.every);
    if let Some(against) = &args.bench_against {
        cfg.bench.against = against
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(PlayerSpec::parse)
            .collect::<Result<_, _>>()
            .context("--bench-against")?;
    }
    cfg.bench.games = args.bench_games;
    cfg.stop.target = args.target.or(cfg.stop.target);
    cfg.stop.patience = args.patience;
    cfg.lookahead = args.lookahead;
    if let Some(bank) = &args.bank {
        cfg.tutor.bank = BankSource::parse(bank);
        if let BankSource::File(path) = &cfg.tutor.bank
            && !path.is_file()
        {
            anyhow::bail!(
                "--bank {}: no such file; build one with `bebete bank --game c4 --out {}`, or leave --bank out for the bank built into bebete (builtin)",
                path.display(),
                path.display()
            );
        }
    }
    cfg.islands = Islands {
        count: args.islands,
        every: args.migrate_every,
        migrants: args.migrants.unwrap_or(Islands::default().migrants),
    };
    cfg.self_play = args.self_play.unwrap_or(cfg.self_play);
    match args.learn_against.as_deref().map(str::trim) {
        None => {}
        Some("self") => cfg.learn_against = None,
        Some(text) => {
            cfg.learn_against = Some(PlayerSpec::parse(text).context("--learn-against")?);
        }
    }
    let given = Given {
        elite: args.elite.is_some(),
        parents: args.parents.is_some(),
        migrants: args.migrants.is_some(),
    };
    follow_population(&mut cfg, given);
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

/// The run directory's name when `--run` is not given: the game and the
/// seed (`tictactoe-1`), with any rule that differs from the game's
/// default between them (`matchsticks-double-100-1`), so that runs of one
/// game under other rules do not take each other's name.
fn default_run_name(game: GameSpec, seed: u64) -> String {
    let plain = game
        .kind()
        .from_options(&GameOptions::default())
        .map(|g| g.rules_json())
        .unwrap_or_default();
    let mut name = game.kind().to_string();
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
        "Defaults per game and encoder: the recommended settings, used when --fitness is not given\n\
         (any flag given wins; the first encoder of a game is its default):\n",
    );
    for &kind in GameKind::ALL {
        for spec in recommended_specs(kind) {
            let cfg = EvolveConfig::recommended(spec, 0);
            out.push_str(&format!(
                "  --game {kind} --encoder {}\n      {}\n",
                spec.encoder_name(),
                settings_as_flags(&cfg)
            ));
        }
    }
    out.push_str("Giving --fitness selects the method's settings instead (the first encoder listed for the\nmethod, random initial genes, no bank operators, one mutation rate):\n");
    for &kind in GameKind::ALL {
        let m = kind.method();
        out.push_str(&format!(
            "  --game {kind}  --mutation {} --generations {} --checkpoint-every {} --bench-every {}\n",
            m.mutation, m.generations, m.checkpoint_every, m.bench_every
        ));
    }
    out
}

/// Each encoder of `kind` under the recommended settings, its default
/// first: what `evolve --game KIND [--encoder E]` runs.
pub fn recommended_specs(kind: GameKind) -> Vec<GameSpec> {
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
        flags.push_str(" --init zero");
    }
    if cfg.self_play > 0 {
        flags.push_str(&format!(" --self-play {}", cfg.self_play));
    }
    if let Some(spec) = &cfg.learn_against {
        flags.push_str(&format!(" --learn-against {spec}"));
    }
    flags.push_str(&format!(" --generations {}", cfg.generations));
    if let Some(target) = &cfg.stop.target {
        flags.push_str(&format!(" --target {target}"));
    }
    flags.push_str(&format!(" --bench-every {}", cfg.bench.every));
    let against: Vec<String> = cfg.bench.against.iter().map(|s| s.to_string()).collect();
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
    let population = match cfg.islands.count {
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
