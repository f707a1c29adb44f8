//! Fixed opponents inside a run: the benchmark columns of `stats.csv` and
//! the fitness games of `--fitness round-robin+SPEC:N` / `vs:SPEC:N`.
//!
//! Points inside one population say who beats whom there, not whether
//! anyone got better; a champion's score against fixed opponents (and, for
//! the small games, its exact audit) does. Every game is seeded from (run
//! seed, generation, stream), so benchmarks are as reproducible as the run.

use super::fitness::{RunTables, solo};
use super::stats::Column;
use super::tutor::Tutor;
use super::{EvolveConfig, Target};
use crate::audit::{AuditReport, audit_with, keeps_value_everywhere};
use crate::dispatch::Abilities;
use crate::encoding::IllegalPolicy;
use crate::eval::{MatchConfig, play_against};
use crate::players::Playable;
use crate::players::{GenomePlayer, Player, PlayerError, PlayerFactory, PlayerSpec};
use crate::seed::derive_seed;
use std::sync::Arc;

/// Seed stream of the benchmark games, apart from the fitness games'.
const BENCH_STREAM: u64 = 0xbe4c;

/// Audit columns, for the games that can be audited exactly.
pub(crate) const AUDIT_COLUMNS: [Column; 3] = [
    Column::OptimalRate,
    Column::UnbeatableFirst,
    Column::UnbeatableSecond,
];

/// The column name of a benchmark opponent.
pub(crate) fn column_name(spec: &PlayerSpec) -> String {
    let name = match spec {
        PlayerSpec::Genome(path) => path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.to_string()),
        _ => spec.to_string(),
    };
    Column::Versus(name.replace(',', "_")).name()
}

/// The benchmark opponents of a run: `--bench-against`, plus the target's
/// opponent when it is not among them.
fn opponents(cfg: &EvolveConfig) -> Vec<PlayerSpec> {
    let mut specs = if cfg.bench_every > 0 {
        cfg.bench_against.clone()
    } else {
        Vec::new()
    };
    if let Some(Target::Score { opponent, .. }) = &cfg.target
        && !specs.contains(opponent)
    {
        specs.push(opponent.clone());
    }
    specs
}

/// Whether the benchmark includes the audit (exact games only).
fn audited(cfg: &EvolveConfig, abilities: &Abilities) -> bool {
    abilities.solvable && cfg.bench_every > 0
}

/// Whether the benchmark includes the optimal-move rate on the held-out
/// positions of the run's bank (Connect-Four).
fn banked(cfg: &EvolveConfig, abilities: &Abilities) -> bool {
    abilities.banked && cfg.bench_every > 0
}

/// One-player games: the benchmark's columns (the champion's pieces left,
/// and, on boards small enough to read whole, the share of positions where
/// its move keeps the best achievable count).
fn solo_columns(cfg: &EvolveConfig, abilities: &Abilities) -> Vec<String> {
    if abilities.players != 1 || cfg.bench_every == 0 {
        return Vec::new();
    }
    let mut cols = vec![Column::Pegs.name()];
    if abilities.too_large_to_read.is_none() {
        cols.push(Column::OptimalRate.name());
    }
    cols
}

/// The benchmark columns of `stats.csv`, in order, for a run of a game
/// with `abilities`.
pub fn columns(cfg: &EvolveConfig, abilities: &Abilities) -> Vec<String> {
    let mut cols: Vec<String> = opponents(cfg).iter().map(column_name).collect();
    cols.extend(solo_columns(cfg, abilities));
    if audited(cfg, abilities) {
        cols.extend(AUDIT_COLUMNS.iter().map(Column::name));
    }
    if banked(cfg, abilities) {
        cols.push(Column::OptimalRate.name());
    }
    cols
}

/// Whether generation `generation` is measured: every `bench_every`
/// generations, or every generation when a score target needs it and
/// `bench_every` is 0.
pub(crate) fn due(cfg: &EvolveConfig, generation: u64) -> bool {
    match cfg.bench_every {
        0 => matches!(cfg.target, Some(Target::Score { .. })),
        k => generation.is_multiple_of(k),
    }
}

/// The fixed opponents of a run's benchmark, ready to play, and its
/// audit.
pub(crate) struct Bench<G: Playable> {
    opponents: Vec<PlayerFactory<G>>,
    audit: bool,
    /// The run's solved game and exhaustive table, shared with the fitness.
    tables: Arc<RunTables<G>>,
    /// The run's bank, for the held-out optimal-move rate (Connect-Four).
    tutor: Option<Arc<Tutor<G>>>,
    /// One-player games: the columns measured.
    solo: Vec<String>,
}

impl<G: Playable> Bench<G> {
    /// Resolves the benchmark opponents of `cfg` for `game` (loading genome
    /// files), on the run's shared `tables`; which columns it measures
    /// follow the game's `abilities`.
    pub(crate) fn new(
        game: &G,
        cfg: &EvolveConfig,
        tables: &Arc<RunTables<G>>,
        abilities: &Abilities,
    ) -> Result<Self, PlayerError> {
        let opponents = opponents(cfg)
            .iter()
            .map(|spec| spec.factory(game, cfg.illegal))
            .collect::<Result<_, _>>()?;
        Ok(Bench {
            opponents,
            audit: audited(cfg, abilities),
            tables: tables.clone(),
            tutor: tables.tutor.clone().filter(|_| banked(cfg, abilities)),
            solo: solo_columns(cfg, abilities),
        })
    }

    /// Whether `genes` keep the game's value everywhere they can reach (the
    /// `--target unbeatable` test).
    pub(crate) fn keeps_value_everywhere(
        &self,
        game: &G,
        genes: &[u8],
        policy: IllegalPolicy,
    ) -> bool {
        keeps_value_everywhere(game, genes, policy, self.tables.solved.get(game))
    }

    /// The side that loses from the start against perfect play, if one
    /// does ("first" or "second"): a genome cannot be unbeatable there.
    pub(crate) fn lost_side(&self, game: &G) -> Option<&'static str> {
        match self.tables.solved.get(game).get(&game.start())? {
            crate::solve::Value::Win => Some("second"),
            crate::solve::Value::Loss => Some("first"),
            crate::solve::Value::Draw => None,
        }
    }

    /// The exact audit of `genes`.
    pub(crate) fn audit(&self, game: &G, genes: &[u8], policy: IllegalPolicy) -> AuditReport {
        audit_with(game, genes, policy, self.tables.solved.get(game))
    }

    /// The champion's benchmark values, in [`columns`] order.
    pub(crate) fn measure(
        &self,
        game: &G,
        champion: &[u8],
        cfg: &EvolveConfig,
        generation: u64,
    ) -> Vec<f64> {
        let match_cfg = MatchConfig {
            games: cfg.bench_games,
            seed: derive_seed(cfg.seed, generation, BENCH_STREAM),
            openings: G::DEFAULT_OPENINGS,
            record: false,
        };
        let me = || {
            let player = GenomePlayer::with_rules(champion, cfg.play_style());
            Box::new(player) as Box<dyn Player<G> + '_>
        };
        let mut values: Vec<f64> = self
            .opponents
            .iter()
            .enumerate()
            .map(|(i, opponent)| play_against(game, &me, opponent, i as u64, match_cfg).score())
            .collect();
        if self.audit {
            let report = self.audit(game, champion, cfg.illegal);
            values.push(report.optimal_rate());
            values.push(report.unbeatable_first as u8 as f64);
            values.push(report.unbeatable_second as u8 as f64);
        }
        if let Some(tutor) = &self.tutor {
            values.push(tutor.held_out_rate(game, champion).share());
        }
        if !self.solo.is_empty() {
            let played = solo::play(game, champion, cfg.play_style());
            values.push(played.left as f64);
        }
        if self.solo.len() > 1 {
            let share = self
                .tables
                .exhaustive(game, cfg.illegal)
                .map_or(0.0, |s| s.score(champion) as f64 / 1e6);
            values.push(share);
        }
        values
    }
}
