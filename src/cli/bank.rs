//! `bebete bank`: build (or finish) a solver-labelled Connect-Four position
//! bank, or describe one.

use super::evolve::thread_count;
use crate::bank::{BankFile, BankSource, HELD_OUT_EVERY};
use crate::dispatch::{abilities, games_with};
use crate::games::GameName;
use crate::labelling::{self, DEFAULT_PLAYERS, Plan, Speed};
use crate::players::PlayerSpec;
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  bebete bank --game c4 --positions 2000 --seed 1 --out banks/my.bank
  bebete bank --game c4 --positions 30000 --seed 1 --out banks/connect4.bank
  bebete bank --info banks/connect4.bank
  bebete bank --game c4 --players genomes/connect4.genome,rules,mc:200 --positions 5000 --out banks/mine.bank
  bebete bank --merge builtin,banks/mine.bank --out banks/both.bank

Positions come from games between the --players (two drawn per game, a
random opening of 0-4 plies, and in some games a share of random moves);
a position and its mirror image count once. Every tenth game's positions are
held out: evolution never trains on them, and the optimal_rate column of a
Connect-Four run is measured on them. The solver's cost grows steeply with
fewer stones (per thread: about 0.5 positions/s at 8 stones, 4 at 12-13,
150 at 16-19, thousands beyond 20): --min-stones bounds it.

Labelling saves the bank every few seconds; after an interruption (Ctrl-C,
a kill) the same command continues where it stopped.")]
pub struct BankArgs {
    /// The game: connect4 (c4), the one game a bank is built for (the
    /// others are solved whole)
    #[arg(long, short = 'g', value_parser = super::game_args::parse_game_kind, value_name = "GAME")]
    pub game: Option<GameName>,
    /// Positions to gather and label, 10-10000000
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    pub positions: u64,
    /// Seed of the gathering games
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip positions with fewer stones, 0-41
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u8).range(0..=41))]
    pub min_stones: u8,
    /// Players whose games are gathered, comma separated
    #[arg(long, value_name = "SPEC,…", default_value = DEFAULT_PLAYERS)]
    pub players: String,
    /// Where to write the bank (an unfinished bank there is continued)
    #[arg(long, required_unless_present = "info")]
    pub out: Option<PathBuf>,
    /// Describe a bank file instead of building one
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub info: Option<PathBuf>,
    /// Merge banks into --out instead of building one (a position met twice
    /// is kept once); `builtin` names the bank shipped in the binary
    #[arg(long, value_name = "FILE,…", requires = "out")]
    pub merge: Option<String>,
    /// Worker threads [default: all cores]; the bank does not depend on it
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Seconds between two saves of the unfinished bank (0: after every
    /// block of positions)
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub save_every: f64,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
    /// Check the players (genome files read) and --out (a complete bank,
    /// or an unfinished one made with other settings, is refused), print
    /// what would be built; gather, label and write nothing
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(args: BankArgs) -> anyhow::Result<ExitCode> {
    if args.dry_run && (args.info.is_some() || args.merge.is_some()) {
        bail!(
            "--dry-run plans a bank to build; --info and --merge only read banks, in seconds: run them as they are"
        );
    }
    if let Some(path) = &args.info {
        show_info(path)?;
        return Ok(ExitCode::SUCCESS);
    }
    let out = args
        .out
        .clone()
        .expect("clap requires --out without --info");
    super::output::check_out_path("--out", &out, Some("my.bank"))?;
    if !(0.0..=86_400.0).contains(&args.save_every) {
        bail!("--save-every {}: must be 0-86400 seconds", args.save_every);
    }
    if let Some(list) = &args.merge {
        merge(list, &out)?;
        return Ok(ExitCode::SUCCESS);
    }
    check_build_flags(&args)?;
    let plan = Plan {
        seed: args.seed,
        positions: args.positions,
        min_stones: args.min_stones,
        players: PlayerSpec::parse_list(&args.players).context("--players")?,
    };
    if args.dry_run {
        return dry_run(&args, &plan, &out);
    }
    build(&args, &plan, &out)
}

/// `bank --dry-run`: the players and `--out` checked, the plan said.
fn dry_run(args: &BankArgs, plan: &Plan, out: &Path) -> anyhow::Result<ExitCode> {
    labelling::players(plan).context("--players")?;
    let continues = match BankFile::load(out) {
        Ok(old) => {
            refuse_to_continue(
                out,
                &old,
                &labelling::new_bank(plan, &Default::default()),
                None,
            )?;
            format!(
                "continues the unfinished bank there ({} of {} positions labelled)",
                old.header.labelled, old.header.gathered
            )
        }
        Err(_) if !out.exists() => "a new file".to_string(),
        Err(e) => return Err(e.into()),
    };
    outln!(
        "would gather {} positions of at least {} stones from games between {} (seed {}) and label them with the exact solver into {}: {continues}",
        plan.positions,
        plan.min_stones,
        args.players,
        plan.seed,
        out.display()
    );
    outln!("dry run: the players and --out checked; nothing gathered, labelled or written");
    Ok(ExitCode::SUCCESS)
}

/// Gathers the plan's positions and labels them into `out`, continuing
/// an unfinished bank there; stopped by a signal, saves what is labelled.
fn build(args: &BankArgs, plan: &Plan, out: &Path) -> anyhow::Result<ExitCode> {
    let threads = thread_count(args.threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the thread pool")?;
    let visible = !args.quiet && std::io::stderr().is_terminal();
    let bar = |len: u64, template: &str| {
        let bar = ProgressBar::new(len);
        if !visible {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        bar
    };

    // Ctrl-C, SIGTERM or SIGHUP stop the work at the next batch of games
    // or block of positions; what is labelled by then is saved.
    let stop = Arc::new(AtomicBool::new(false));
    super::eval::stop_on_signals(&stop);
    let gathering = bar(plan.positions, "gathering {pos}/{len} positions {wide_bar}");
    let gathered = pool.install(|| {
        labelling::gather(plan, |n| {
            gathering.set_position(n);
            !stop.load(Ordering::SeqCst)
        })
    })?;
    gathering.finish_and_clear();
    if stop.load(Ordering::SeqCst) {
        // Positions are gathered again from the seed on every run (they are
        // checked against the bank's), so nothing labelled is lost here.
        errln!(
            "interrupted while gathering positions ({} of {} from {} games), before any was labelled: {}; run the same command to start again",
            gathered.positions.len(),
            plan.positions,
            gathered.games,
            if out.exists() {
                format!("{} keeps what earlier runs labelled", out.display())
            } else {
                "nothing to save yet".to_string()
            }
        );
        return Ok(ExitCode::from(130));
    }
    if (gathered.positions.len() as u64) < plan.positions {
        errln!(
            "note: only {} distinct positions in {} games",
            gathered.positions.len(),
            gathered.games
        );
    }
    let mut bank = fresh_or_continued(out, plan, &gathered)?;
    let total = bank.header.gathered;
    let labelling = bar(
        total,
        "labelling {pos}/{len} {wide_bar} {per_sec} eta {eta}",
    );
    let speed = label_all(
        &mut bank,
        &gathered,
        out,
        threads,
        args.save_every,
        &labelling,
        &stop,
    )?;
    labelling.finish_and_clear();
    bank.save(out)?;
    if bank.header.labelled < total {
        errln!(
            "interrupted: {} of {} positions labelled and saved in {}; run the same command to continue",
            bank.header.labelled,
            total,
            out.display()
        );
        return Ok(ExitCode::from(130));
    }
    let held = bank.entries.iter().filter(|e| e.held_out).count();
    outln!(
        "{}: {} positions ({} held out) from {} games, labelled in {:.0} s on {threads} threads",
        out.display(),
        bank.header.labelled,
        held,
        bank.header.games,
        bank.header.seconds
    );
    if speed.by_stones.iter().any(|&(n, _)| n > 0) {
        outln!(
            "labelling speed this session:\n{}",
            speed.table().trim_end()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `bank --info`: what a bank file holds.
fn show_info(path: &Path) -> anyhow::Result<()> {
    let bank = BankFile::load(path)?;
    let held = bank.entries.iter().filter(|e| e.held_out).count();
    let h = &bank.header;
    outln!("{}", path.display());
    outln!(
        "  positions  {} labelled of {} gathered{}",
        h.labelled,
        h.gathered,
        if h.complete() { "" } else { " (unfinished)" }
    );
    outln!("  held out   {held} (every {HELD_OUT_EVERY}th game's positions)");
    outln!("  games      {} (seed {})", h.games, h.seed);
    outln!("  players    {}", h.players.join(","));
    outln!("  stones     at least {}", h.min_stones);
    outln!("  labelling  {:.0} s", h.seconds);
    Ok(())
}

/// `bank --merge A,B,…`: one bank of several, written to `out`.
fn merge(list: &str, out: &Path) -> anyhow::Result<()> {
    if out.exists() {
        bail!("{} exists: choose another --out", out.display());
    }
    let banks = list
        .split(',')
        .map(|name| BankSource::parse(name.trim()).load())
        .collect::<Result<Vec<_>, _>>()?;
    let merged = BankFile::merge(&banks).map_err(|p| crate::store::FileError::new(out, p))?;
    merged.save(out)?;
    let held = merged.entries.iter().filter(|e| e.held_out).count();
    outln!(
        "{}: {} positions ({held} held out) merged from {} banks",
        out.display(),
        merged.header.labelled,
        banks.len()
    );
    Ok(())
}

/// Building a bank: only for the games that learn from one.
fn check_build_flags(args: &BankArgs) -> anyhow::Result<()> {
    let banked = || games_with(|a| a.banked, "and");
    match args.game {
        Some(kind)
            if kind
                .variants()
                .into_iter()
                .any(|spec| abilities(spec).banked) => {}
        Some(other) => bail!(
            "--game {}: a bank labels {} positions; {} are solved whole (evolve --fitness vs:exhaustive)",
            other.name(),
            banked(),
            games_with(|a| a.solvable, "and")
        ),
        None => bail!(
            "--game: name the game, {} (the games a bank is built for)",
            banked()
        ),
    }
    Ok(())
}

/// Refuses to label into `old`, the bank at `out`, when it is complete or
/// was made with settings other than `fresh`'s (and, once they are
/// gathered, other positions than `gathered`).
fn refuse_to_continue(
    out: &Path,
    old: &BankFile,
    fresh: &BankFile,
    gathered: Option<&labelling::Gathered>,
) -> anyhow::Result<()> {
    if old.header.complete() && old.header.labelled > 0 {
        bail!(
            "{}: already a complete bank of {} positions; choose another --out, or remove it",
            out.display(),
            old.header.labelled
        )
    }
    let (a, b) = (&old.header, &fresh.header);
    let same_settings = (a.seed, a.wanted, a.min_stones, &a.players)
        == (b.seed, b.wanted, b.min_stones, &b.players);
    let same_positions = gathered.is_none_or(|gathered| {
        a.gathered == b.gathered
            && old
                .entries
                .iter()
                .zip(&gathered.positions)
                .all(|(e, (p, _))| e.pos == *p)
    });
    if !(same_settings && same_positions) {
        bail!(
            "{}: an unfinished bank made with other settings (seed {}, {} positions, min-stones {}, players {}); give those to continue it, or choose another --out",
            out.display(),
            a.seed,
            a.wanted,
            a.min_stones,
            a.players.join(",")
        );
    }
    Ok(())
}

/// The bank to label into: an unfinished one at `out` made with the same
/// settings (continued), else a fresh one; a complete bank, or one made
/// otherwise, is refused.
fn fresh_or_continued(
    out: &Path,
    plan: &Plan,
    gathered: &labelling::Gathered,
) -> anyhow::Result<BankFile> {
    let fresh = labelling::new_bank(plan, gathered);
    Ok(match BankFile::load(out) {
        Ok(old) => {
            refuse_to_continue(out, &old, &fresh, Some(gathered))?;
            errln!(
                "continuing {}: {} of {} positions labelled",
                out.display(),
                old.header.labelled,
                old.header.gathered
            );
            old
        }
        Err(e) if out.exists() => return Err(e.into()),
        Err(_) => fresh,
    })
}

/// Labels the gathered positions not yet in `bank`, block by block on
/// `threads` solvers, saving every `save_every` seconds, until done or
/// `stop` (a signal); returns the speed by stones.
fn label_all(
    bank: &mut BankFile,
    gathered: &labelling::Gathered,
    out: &Path,
    threads: usize,
    save_every: f64,
    labelling: &ProgressBar,
    stop: &AtomicBool,
) -> anyhow::Result<Speed> {
    let total = bank.header.gathered;
    labelling.set_position(bank.header.labelled);
    labelling.reset_eta();
    let mut speed = Speed::default();
    let mut saved = Instant::now();
    let block = (threads * 16).max(16);
    let mut solvers = labelling::solvers(threads);
    while bank.header.labelled < total && !stop.load(Ordering::SeqCst) {
        let from = bank.header.labelled as usize;
        let to = (from + block).min(total as usize);
        let started = Instant::now();
        let done = labelling::label(&gathered.positions[from..to], &mut solvers);
        bank.header.seconds += started.elapsed().as_secs_f64();
        for d in done {
            speed.add(d.entry.pos.moves, d.seconds);
            bank.entries.push(d.entry);
        }
        bank.header.labelled = bank.entries.len() as u64;
        labelling.set_position(bank.header.labelled);
        if saved.elapsed().as_secs_f64() >= save_every {
            bank.save(out)?;
            saved = Instant::now();
        }
    }
    Ok(speed)
}
