//! A run checked and built before it starts ([`Prepared`]), and why a run
//! cannot start or go on ([`EvolveError`]): the configuration validated,
//! the memory it needs compared with what the machine has, its players,
//! tables and bank built, once.

use super::bench::Bench;
use super::fitness::hall_of_fame::HallOfFame;
use super::fitness::{FitnessTerms, RunTables};
use super::hall::HALL_SIZE;
use super::{ConfigError, EvolveConfig};
use crate::dispatch::Abilities;
use crate::players::Playable;
use crate::players::{PlayerError, PlayerFactory};
use crate::store::FileError;
use std::sync::Arc;

/// Why a run cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    #[error(transparent)]
    /// A setting out of range.
    Config(#[from] ConfigError),
    #[error(transparent)]
    /// A file that could not be read or written.
    File(#[from] FileError),
    #[error(transparent)]
    /// A player of the fitness or the benchmark that cannot play.
    Player(#[from] PlayerError),
    #[error("--learn-against: {0}")]
    /// The `learn_against` player cannot play.
    LearnAgainst(PlayerError),
    #[error(
        "the checkpoint holds genomes of {found} genes, but {game} has {expected}: it is another version of the game"
    )]
    /// A checkpoint's genomes have another gene count than the game's.
    GeneCount {
        /// The game.
        game: String,
        /// Genes in the checkpoint's genomes.
        found: usize,
        /// Genes the game's genome has.
        expected: usize,
    },
    #[error(
        "--islands {islands}: under MPI each rank holds one island, but {ranks} ranks were started; launch with -n {islands}"
    )]
    /// More islands than MPI ranks to hold them.
    Ranks {
        /// Islands asked for.
        islands: usize,
        /// Ranks started.
        ranks: usize,
    },
    #[error(
        "--population {population}: {needed:.1} GB of genes ({population} genomes of {genes} genes, twice: the generation and the next), but {available:.1} GB of memory is available; choose a smaller --population"
    )]
    /// The populations would not fit in memory.
    Memory {
        /// Genomes asked for.
        population: usize,
        /// Genes per genome.
        genes: usize,
        /// Gigabytes needed.
        needed: f64,
        /// Gigabytes available.
        available: f64,
    },
}

/// Memory available to a new process, in bytes (`MemAvailable` of
/// /proc/meminfo), if the system says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Refuses a run whose two populations (and hall of fame) would not fit in
/// the memory available, before anything is allocated.
fn check_memory(gene_count: usize, cfg: &EvolveConfig) -> Result<(), EvolveError> {
    let hall = if cfg.fitness.has::<HallOfFame>() {
        HALL_SIZE
    } else {
        0
    };
    let needed = ((2 * cfg.population * cfg.islands + hall) * gene_count) as u64;
    match available_memory() {
        Some(available) if needed > available => Err(EvolveError::Memory {
            population: cfg.population,
            genes: gene_count,
            needed: needed as f64 / 1e9,
            available: available as f64 / 1e9,
        }),
        _ => Ok(()),
    }
}

/// A run checked and built, not started: the configuration validated, the
/// memory it needs checked, its players resolved (genome files loaded), its
/// tables and bank ready. What `Evolution::start` would refuse is refused
/// here, before anything is printed or written, and nothing is checked or
/// built twice.
pub struct Prepared<G: Playable> {
    pub(super) game: G,
    pub(super) cfg: EvolveConfig,
    pub(super) fitness: FitnessTerms<G>,
    pub(super) bench: Bench<G>,
    /// What the game can do, read off it once.
    pub(super) abilities: Abilities,
    /// `--learn-against`'s player, resolved once.
    pub(super) learner_opponent: Option<PlayerFactory<G>>,
}

impl<G: Playable> Prepared<G> {
    /// Checks `cfg` for `game` and builds what the run needs.
    pub fn new(game: G, cfg: EvolveConfig) -> Result<Self, EvolveError> {
        let abilities = Abilities::of(&game);
        cfg.validate_as(&game.id(), abilities)?;
        check_memory(game.gene_count(), &cfg)?;
        let tables = Arc::new(RunTables::for_run(&game, &cfg)?);
        let fitness = FitnessTerms::new(&game, &cfg, &tables)?;
        let bench = Bench::new(&game, &cfg, &tables, &abilities)?;
        let learner_opponent = cfg
            .learn_against
            .as_ref()
            .map(|spec| spec.factory(&game, cfg.illegal))
            .transpose()
            .map_err(EvolveError::LearnAgainst)?;
        Ok(Prepared {
            game,
            cfg,
            fitness,
            bench,
            abilities,
            learner_opponent,
        })
    }

    /// The run's settings.
    pub fn config(&self) -> &EvolveConfig {
        &self.cfg
    }
}
