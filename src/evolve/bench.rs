//! Fixed opponents inside a run: the benchmark columns of `stats.csv` and
//! the fitness games of `--fitness round-robin+SPEC:N` / `vs:SPEC:N`.
//!
//! Points inside one population say who beats whom there, not whether
//! anyone got better; a champion's score against fixed opponents (and, for
//! the small games, its exact audit) does. Every game is seeded from (run
//! seed, generation, stream), so benchmarks are as reproducible as the run.

use super::{EvolveConfig, Population, Target, derive_seed};
use crate::audit::audit;
use crate::encoding::{Genotype, IllegalPolicy};
use crate::eval::{MatchConfig, default_openings, play_with};
use crate::games::GameKind;
use crate::players::{GenomePlayer, Player, PlayerError, PlayerFactory, PlayerSpec};
use rayon::prelude::*;

/// Seed streams, so benchmark and fitness games never share draws.
const BENCH_STREAM: u64 = 0xbe4c;
const FITNESS_STREAM: u64 = 0xf17e;

/// Audit columns, for the games that can be audited exactly.
pub const AUDIT_COLUMNS: [&str; 3] = ["optimal_rate", "unbeatable_first", "unbeatable_second"];

/// The column name of a benchmark opponent.
pub fn column_name(spec: &str) -> String {
    let name = match PlayerSpec::parse(spec) {
        Ok(PlayerSpec::Genome(path)) => path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.to_string()),
        _ => spec.to_string(),
    };
    format!("vs_{}", name.replace(',', "_"))
}

/// The benchmark opponents of a run: `--bench-against`, plus the target's
/// opponent when it is not among them.
fn opponents(cfg: &EvolveConfig) -> Vec<String> {
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

/// Whether the champion is audited (exact games, when benchmarking or
/// aiming at an unbeatable genome).
fn audited(cfg: &EvolveConfig) -> bool {
    cfg.game.kind() != GameKind::Connect4 && (cfg.bench_every > 0 || cfg.target.is_some())
}

/// The benchmark columns of `stats.csv`, in order.
pub fn columns(cfg: &EvolveConfig) -> Vec<String> {
    let mut cols: Vec<String> = opponents(cfg).iter().map(|s| column_name(s)).collect();
    if audited(cfg) {
        cols.extend(AUDIT_COLUMNS.iter().map(|c| c.to_string()));
    }
    cols
}

/// Whether generation `generation` is measured.
pub fn due(cfg: &EvolveConfig, generation: u64) -> bool {
    (cfg.bench_every > 0 && generation.is_multiple_of(cfg.bench_every)) || cfg.target.is_some()
}

/// The fixed opponents of a run, ready to play.
pub struct Bench {
    opponents: Vec<PlayerFactory>,
    audit: bool,
    fitness: Option<(PlayerFactory, u64)>,
}

impl Bench {
    /// Resolves every player spec of `cfg` for `game` (loading genome files).
    pub fn new<G: Genotype>(game: &G, cfg: &EvolveConfig) -> Result<Bench, PlayerError> {
        let resolve = |spec: &str| PlayerSpec::parse(spec)?.factory(game, cfg.illegal);
        let opponents = opponents(cfg)
            .iter()
            .map(|s| resolve(s))
            .collect::<Result<_, _>>()?;
        let fitness = match cfg.fitness.opponent() {
            Some((spec, games)) => Some((resolve(spec)?, games)),
            None => None,
        };
        Ok(Bench {
            opponents,
            audit: audited(cfg),
            fitness,
        })
    }

    /// The champion's benchmark values, in [`columns`] order.
    pub fn measure<G: Genotype>(
        &self,
        game: &G,
        champion: &[u8],
        cfg: &EvolveConfig,
        generation: u64,
    ) -> Vec<f64> {
        let match_cfg = MatchConfig {
            games: cfg.bench_games,
            seed: derive_seed(cfg.seed, generation, BENCH_STREAM),
            openings: default_openings(game.spec().kind()),
        };
        let me = || Box::new(GenomePlayer::new(champion, cfg.illegal)) as Box<dyn Player<G> + '_>;
        let mut values: Vec<f64> = self
            .opponents
            .iter()
            .enumerate()
            .map(|(i, opponent)| {
                play_with(game, &me, &|| opponent.make(game, 0), i as u64, match_cfg).score()
            })
            .collect();
        if self.audit {
            let report = audit(game, champion, cfg.illegal);
            values.push(report.optimal_rate());
            values.push(report.unbeatable_first as u8 as f64);
            values.push(report.unbeatable_second as u8 as f64);
        }
        values
    }

    /// Fitness points from games against the fixed opponent (2 a win, 1 a
    /// draw), per genome; `None` without such an opponent.
    pub fn fitness_points<G: Genotype>(
        &self,
        game: &G,
        pop: &Population,
        policy: IllegalPolicy,
        seed: u64,
        generation: u64,
    ) -> Option<(Vec<u32>, u64)> {
        let (opponent, games) = self.fitness.as_ref()?;
        let match_cfg = MatchConfig {
            games: *games,
            seed: derive_seed(seed, generation, FITNESS_STREAM),
            openings: default_openings(game.spec().kind()),
        };
        let points = (0..pop.size())
            .into_par_iter()
            .map(|i| {
                let me = || {
                    Box::new(GenomePlayer::new(pop.genome(i), policy)) as Box<dyn Player<G> + '_>
                };
                let t = play_with(game, &me, &|| opponent.make(game, 0), i as u64, match_cfg);
                (2 * t.wins + t.draws) as u32
            })
            .collect();
        Some((points, games.div_ceil(2) * 2 * pop.size() as u64))
    }
}
