//! Checkpoints: the whole state needed to continue a run exactly.
//!
//! A checkpoint is a framed file of kind `CK` (see [`crate::store`]): the
//! header holds the run's configuration, the next generation to evaluate,
//! every stats row so far and the size of the hall of fame; the payload is
//! the population's genes, raw, then the hall's.
//! Because all randomness is derived from (seed, generation, child), nothing
//! else is needed to continue.

use super::hall::{self, Hall};
use super::{BankMetric, EvolveConfig, Islands, Learn, Population, StatsRow};
use crate::encoding::TableGame;
use crate::encoding::{TableGameVisitor, visit_table_game};
use crate::games::BuiltIn;
use crate::store::{FileError, FileProblem, Framed, decode_framed_versions, write_framed_parts};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Magic tag and version of checkpoint files. Version 2 added `init` and
/// sampled tournaments and the hall of fame to the configuration (and the
/// hall to the payload); version 3 the shell's lookahead after the header's
/// other fields; version 4 the bank fitness term and the bank's operators
/// after the lookahead; version 5 the one-player `solo` fitness term last.
/// Versions 1 to 4 still load (as pure-genome runs without a bank, for 1
/// and 2).
pub const CHECKPOINT_FORMAT: Framed = Framed {
    magic: *b"BEBETECK",
    version: 5,
    kind: "checkpoint",
};

#[derive(Deserialize)]
struct CheckpointHeader {
    config: EvolveConfig,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    /// Genomes of the hall of fame after the population in the payload.
    hall: u64,
    /// The configuration's `lookahead`.
    lookahead: u8,
    /// The fitness's `bank` term.
    bank_fitness: Option<BankMetric>,
    /// The configuration's `learn`.
    learn: Learn,
    /// The configuration's `islands`.
    islands: Islands,
    /// The islands in this file: the first one's index and how many (all
    /// of them in one process; one per rank under MPI).
    first_island: u32,
    held_islands: u32,
    /// The fitness's `solo` term.
    solo_fitness: bool,
}

/// The version-4 header: version 5's without the `solo` term.
#[derive(Deserialize)]
struct CheckpointHeaderV4 {
    config: EvolveConfig,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    hall: u64,
    lookahead: u8,
    bank_fitness: Option<BankMetric>,
    learn: Learn,
    islands: Islands,
    first_island: u32,
    held_islands: u32,
}

impl From<CheckpointHeaderV4> for CheckpointHeader {
    fn from(old: CheckpointHeaderV4) -> Self {
        CheckpointHeader {
            config: old.config,
            generation: old.generation,
            gene_count: old.gene_count,
            rows: old.rows,
            hall: old.hall,
            lookahead: old.lookahead,
            bank_fitness: old.bank_fitness,
            learn: old.learn,
            islands: old.islands,
            first_island: old.first_island,
            held_islands: old.held_islands,
            solo_fitness: false,
        }
    }
}

/// The version-3 header: version 4's without the bank.
#[derive(Deserialize)]
struct CheckpointHeaderV3 {
    config: EvolveConfig,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    hall: u64,
    lookahead: u8,
}

impl From<CheckpointHeaderV3> for CheckpointHeader {
    fn from(old: CheckpointHeaderV3) -> Self {
        CheckpointHeader {
            config: old.config,
            generation: old.generation,
            gene_count: old.gene_count,
            rows: old.rows,
            hall: old.hall,
            lookahead: old.lookahead,
            bank_fitness: None,
            learn: Learn::default(),
            islands: Islands::default(),
            first_island: 0,
            held_islands: 1,
            solo_fitness: false,
        }
    }
}

/// The version-2 header: version 3's without the lookahead.
#[derive(Deserialize)]
struct CheckpointHeaderV2 {
    config: EvolveConfig,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    hall: u64,
}

impl From<CheckpointHeaderV2> for CheckpointHeaderV3 {
    fn from(old: CheckpointHeaderV2) -> Self {
        CheckpointHeaderV3 {
            config: old.config,
            generation: old.generation,
            gene_count: old.gene_count,
            rows: old.rows,
            hall: old.hall,
            lookahead: 0,
        }
    }
}

/// The state of a run between two generations.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub config: EvolveConfig,
    /// The next generation to evaluate (= generations completed).
    pub generation: u64,
    /// Stats of every completed generation.
    pub rows: Vec<StatsRow>,
    /// The population of generation `generation`: the islands this file
    /// holds, one after the other.
    pub population: Population,
    /// The index of the first island held (0 but under MPI).
    pub first_island: usize,
    /// Past champions (`--fitness hof:N`; empty otherwise).
    pub hall: Hall,
}

struct GeneCount;

impl TableGameVisitor for GeneCount {
    type Output = usize;
    fn visit<G: TableGame + BuiltIn>(self, game: G) -> usize {
        game.gene_count()
    }
}

/// The header as written: borrowed, so a running evolution checkpoints its
/// state without copying it (serialises exactly like [`CheckpointHeader`]).
#[derive(Serialize)]
struct CheckpointHeaderRef<'a> {
    config: &'a EvolveConfig,
    generation: u64,
    gene_count: u64,
    rows: &'a [StatsRow],
    hall: u64,
    lookahead: u8,
    bank_fitness: Option<BankMetric>,
    learn: &'a Learn,
    islands: Islands,
    first_island: u32,
    held_islands: u32,
    solo_fitness: bool,
}

/// Writes a checkpoint of the given state atomically: the populations of
/// the islands held (from `first_island` on, in island order; one island
/// without `--islands`), then the hall.
pub fn write(
    path: &Path,
    config: &EvolveConfig,
    generation: u64,
    rows: &[StatsRow],
    populations: &[&Population],
    first_island: usize,
    hall: &Hall,
) -> Result<(), FileError> {
    let header = CheckpointHeaderRef {
        config,
        generation,
        gene_count: populations.first().map_or(0, |p| p.gene_count()) as u64,
        rows,
        hall: hall.len() as u64,
        lookahead: config.lookahead,
        bank_fitness: config.fitness.bank,
        learn: &config.learn,
        islands: config.islands,
        first_island: first_island as u32,
        held_islands: populations.len() as u32,
        solo_fitness: config.fitness.solo,
    };
    let parts: Vec<&[u8]> = populations
        .iter()
        .map(|p| p.as_bytes())
        .chain(hall.parts())
        .collect();
    write_framed_parts(path, CHECKPOINT_FORMAT, &header, &parts)
}

/// Where the checkpoints of rank `rank` of `ranks` processes go: the run's
/// `checkpoints/` in one process, `checkpoints/rank-R/` under MPI (each
/// rank writes its own islands).
pub fn dir_of_rank(run: &super::RunDir, rank: usize, ranks: usize) -> PathBuf {
    match ranks {
        1 => run.checkpoints(),
        _ => run.checkpoints().join(format!("rank-{rank}")),
    }
}

/// How many ranks' checkpoint directories a run holds (0 for a run of one
/// process).
pub fn rank_dirs(run: &super::RunDir) -> usize {
    std::fs::read_dir(run.checkpoints()).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| e.path().is_dir() && e.file_name().to_string_lossy().starts_with("rank-"))
            .count()
    })
}

/// The file name of the checkpoint taken before `generation`.
pub fn file_name(generation: u64) -> String {
    format!("gen-{generation:06}.ckpt")
}

impl Checkpoint {
    /// Writes the checkpoint atomically.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        write(
            path,
            &self.config,
            self.generation,
            &self.rows,
            &[&self.population],
            self.first_island,
            &self.hall,
        )
    }

    /// Reads and checks a checkpoint.
    pub fn load(path: &Path) -> Result<Checkpoint, FileError> {
        let bytes = std::fs::read(path).map_err(|e| FileError::new(path, e))?;
        Checkpoint::from_bytes(bytes).map_err(|problem| FileError::new(path, problem))
    }

    /// Decodes and checks the bytes of a checkpoint file.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Checkpoint, FileProblem> {
        let (header, genes) =
            decode_framed_versions(bytes, CHECKPOINT_FORMAT, |version, header| match version {
                1 => postcard::from_bytes::<v1::CheckpointHeader>(header).map(|h| {
                    CheckpointHeader::from(CheckpointHeaderV3::from(CheckpointHeaderV2::from(h)))
                }),
                2 => postcard::from_bytes::<CheckpointHeaderV2>(header)
                    .map(|h| CheckpointHeader::from(CheckpointHeaderV3::from(h))),
                3 => postcard::from_bytes::<CheckpointHeaderV3>(header).map(Into::into),
                4 => postcard::from_bytes::<CheckpointHeaderV4>(header).map(Into::into),
                _ => postcard::from_bytes::<CheckpointHeader>(header),
            })?;
        let malformed = FileProblem::Malformed;
        let mut header = header;
        header.config.lookahead = header.lookahead;
        header.config.fitness.bank = header.bank_fitness;
        header.config.fitness.solo = header.solo_fitness;
        header.config.learn = header.learn.clone();
        header.config.islands = header.islands;
        if header.config.game.validate().is_err() || header.config.validate().is_err() {
            return Err(malformed(
                "the stored configuration is out of range".to_string(),
            ));
        }
        let expected = visit_table_game(header.config.game, GeneCount);
        // The populations of the islands held, one after the other.
        let islands = header.config.islands.count;
        let held = header.held_islands as usize;
        if held == 0 || header.first_island as usize + held > islands {
            return Err(malformed(format!(
                "islands {}..{} of a run of {islands}",
                header.first_island,
                header.first_island as usize + held
            )));
        }
        let size = header.config.population * held;
        if header.hall > hall::HALL_SIZE as u64 {
            return Err(malformed(format!(
                "a hall of fame of {} genomes (at most {})",
                header.hall,
                hall::HALL_SIZE
            )));
        }
        let hall = header.hall as usize;
        if header.gene_count as usize != expected || genes.len() != (size + hall) * expected {
            return Err(malformed(format!(
                "{} bytes of genes, expected {size} genomes and {hall} of the hall of fame, of {expected} genes each",
                genes.len()
            )));
        }
        if header.rows.len() as u64 != header.generation * islands as u64 {
            return Err(malformed(format!(
                "{} stats rows for {} generations of {islands} island(s)",
                header.rows.len(),
                header.generation
            )));
        }
        for (i, row) in header.rows.iter_mut().enumerate() {
            row.island = (i % islands) as u32;
        }
        let mut genes = genes;
        let hall = Hall::from_genes(&genes[size * expected..], expected);
        genes.truncate(size * expected);
        Ok(Checkpoint {
            config: header.config,
            generation: header.generation,
            rows: header.rows,
            population: Population::from_genes(genes, expected),
            first_island: header.first_island as usize,
            hall,
        })
    }
}

/// The header of version-1 checkpoints: the configuration before `init`
/// and `sample:K` existed (both take their defaults).
mod v1 {
    use crate::encoding::IllegalPolicy;
    use crate::evolve::{
        BenchConfig, Crossover, EvolveConfig, Fitness as FitnessTerms, Init, Mutation,
        MutationScope, Selection, StatsRow, StopRule,
    };
    use crate::games::GameSpec;
    use crate::players::PlayerSpec;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct CheckpointHeader {
        config: Config,
        generation: u64,
        gene_count: u64,
        rows: Vec<StatsRow>,
    }

    #[derive(Deserialize)]
    struct Fitness {
        round_robin: bool,
        opponents: Vec<(PlayerSpec, u64)>,
        exhaustive: bool,
    }

    #[derive(Deserialize)]
    struct Config {
        game: GameSpec,
        population: usize,
        elite: usize,
        parents: usize,
        mutation: Mutation,
        generations: u64,
        seed: u64,
        checkpoint_every: u64,
        keep: usize,
        illegal: IllegalPolicy,
        selection: Selection,
        fitness: Fitness,
        bench: BenchConfig,
        stop: StopRule,
    }

    impl From<CheckpointHeader> for super::CheckpointHeaderV2 {
        fn from(old: CheckpointHeader) -> Self {
            let c = old.config;
            super::CheckpointHeaderV2 {
                config: EvolveConfig {
                    game: c.game,
                    population: c.population,
                    elite: c.elite,
                    parents: c.parents,
                    mutation: c.mutation,
                    mutate: MutationScope::All,
                    generations: c.generations,
                    seed: c.seed,
                    checkpoint_every: c.checkpoint_every,
                    keep: c.keep,
                    illegal: c.illegal,
                    selection: c.selection,
                    fitness: FitnessTerms {
                        round_robin: c.fitness.round_robin,
                        opponents: c.fitness.opponents,
                        exhaustive: c.fitness.exhaustive,
                        sampled: 0,
                        hall: 0,
                        bank: None,
                        solo: false,
                    },
                    init: Init::Random,
                    crossover: Crossover::Uniform,
                    bench: c.bench,
                    stop: c.stop,
                    lookahead: 0,
                    learn: Default::default(),
                    islands: Default::default(),
                },
                generation: old.generation,
                gene_count: old.gene_count,
                rows: old.rows,
                hall: 0,
            }
        }
    }
}

/// The checkpoints in `dir`, oldest first, as (generation, path).
pub fn list(dir: &Path) -> Vec<(u64, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(u64, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let generation = name
                .strip_prefix("gen-")?
                .strip_suffix(".ckpt")?
                .parse()
                .ok()?;
            Some((generation, e.path()))
        })
        .collect();
    found.sort();
    found
}

/// Removes the oldest checkpoints beyond `keep`.
pub fn prune(dir: &Path, keep: usize) -> std::io::Result<()> {
    let all = list(dir);
    for (_, path) in all.iter().take(all.len().saturating_sub(keep)) {
        std::fs::remove_file(path)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::Init;
    use crate::games::{Connect4, GameSpec};

    /// Version 3 wrote the lookahead last; version 4 adds the bank term and
    /// the bank's operators after it. A version-3 file loads without them.
    #[test]
    fn a_version_3_checkpoint_loads_without_a_bank() {
        #[derive(Serialize)]
        struct V3<'a> {
            config: &'a EvolveConfig,
            generation: u64,
            gene_count: u64,
            rows: &'a [StatsRow],
            hall: u64,
            lookahead: u8,
        }
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = EvolveConfig::method(GameSpec::CONNECT4, 3);
        cfg.population = 2;
        cfg.elite = 1;
        cfg.parents = 1;
        cfg.lookahead = 2;
        let game = Connect4::SUBGRID;
        let pop = Population::initial(&game, 2, 3, Init::Zero);
        let header = V3 {
            config: &cfg,
            generation: 0,
            gene_count: pop.gene_count() as u64,
            rows: &[],
            hall: 0,
            lookahead: 2,
        };
        let v3 = Framed {
            version: 3,
            ..CHECKPOINT_FORMAT
        };
        let path = dir.path().join("gen-000000.ckpt");
        write_framed_parts(&path, v3, &header, &[pop.as_bytes()]).unwrap();
        let loaded = Checkpoint::load(&path).unwrap();
        assert_eq!(loaded.config, cfg);
        assert_eq!(loaded.config.lookahead, 2);
        assert_eq!(loaded.config.fitness.bank, None);
        assert_eq!(loaded.population, pop);

        // Today's format keeps the bank settings.
        cfg.fitness = "round-robin+bank-score".parse().unwrap();
        cfg.learn.guided = 7;
        cfg.learn.local_search = 1;
        cfg.learn.bank = crate::bank::BankSource::File("my.bank".into());
        cfg.islands.migrants = 1;
        write(&path, &cfg, 0, &[], &[&pop], 0, &Hall::default()).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap().config, cfg);
    }
}
