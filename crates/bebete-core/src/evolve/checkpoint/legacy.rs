//! Readers of checkpoint formats 1 to 5, frozen.
//!
//! These formats wrote the configuration by position (postcard), so each
//! option added a format: 2 added `init`, sampled tournaments and the hall
//! of fame; 3 the shell's lookahead after the header's other fields; 4 the
//! bank fitness term, the bank's operators and the islands; 5 the `solo`
//! term. The structs below are the layouts as they were written, kept apart
//! from today's [`EvolveConfig`] so that today's can grow freely; each
//! format has a fixture under `tests/fixtures/` that must still load and
//! resume exactly.

use super::Header;
use crate::encoding::IllegalPolicy;
use crate::evolve::{
    BankMetric, BenchConfig, Crossover, EvolveConfig, Fitness, Init, Islands, Mutation,
    MutationScope, Selection, StatsRow, StopRule, Tutoring,
};
use crate::games::GameSpec;
use crate::players::PlayerSpec;
use serde::{Deserialize, Serialize};

/// Reads the header of a format-`version` file (1 to 5).
pub(super) fn read(version: u16, bytes: &[u8]) -> postcard::Result<Header> {
    Ok(match version {
        1 => postcard::from_bytes::<HeaderV1>(bytes)?.into(),
        2 => postcard::from_bytes::<HeaderV2>(bytes)?.into(),
        3 => postcard::from_bytes::<HeaderV3>(bytes)?.into(),
        4 => postcard::from_bytes::<HeaderV4>(bytes)?.into_header(false),
        _ => postcard::from_bytes::<HeaderV5>(bytes)?.into(),
    })
}

/// The fitness terms of formats 2 to 5 (the bank and solo terms sat in the
/// header, not here).
#[derive(Serialize, Deserialize)]
pub(super) struct FitnessV2 {
    round_robin: bool,
    opponents: Vec<(PlayerSpec, u64)>,
    exhaustive: bool,
    sampled: u32,
    hall: u32,
}

/// The configuration of formats 2 to 5, by position.
#[derive(Serialize, Deserialize)]
pub(super) struct ConfigV2 {
    game: GameSpec,
    population: usize,
    elite: usize,
    parents: usize,
    mutation: Mutation,
    mutate: MutationScope,
    generations: u64,
    seed: u64,
    checkpoint_every: u64,
    keep: usize,
    illegal: IllegalPolicy,
    selection: Selection,
    fitness: FitnessV2,
    init: Init,
    crossover: Crossover,
    bench: BenchConfig,
    stop: StopRule,
}

impl ConfigV2 {
    /// Today's configuration, the settings later formats added at their
    /// values in `extra`.
    fn into_config(self, extra: Extra) -> EvolveConfig {
        let f = self.fitness;
        EvolveConfig {
            game: self.game,
            population: self.population,
            elite: self.elite,
            parents: self.parents,
            mutation: self.mutation,
            mutate: self.mutate,
            generations: self.generations,
            seed: self.seed,
            checkpoint_every: self.checkpoint_every,
            keep: self.keep,
            illegal: self.illegal,
            selection: self.selection,
            fitness: Fitness {
                round_robin: f.round_robin,
                opponents: f.opponents,
                exhaustive: f.exhaustive,
                sampled: f.sampled,
                hall: f.hall,
                bank: extra.bank_fitness,
                solo: extra.solo_fitness,
            },
            init: self.init,
            crossover: self.crossover,
            bench: self.bench,
            stop: self.stop,
            lookahead: extra.lookahead,
            tutor: extra.learn,
            islands: extra.islands,
            // Formats 1–5 predate value genomes.
            self_play: 0,
        }
    }
}

/// What formats 3 to 5 stored beside the positional configuration.
#[derive(Default)]
struct Extra {
    lookahead: u8,
    bank_fitness: Option<BankMetric>,
    solo_fitness: bool,
    learn: Tutoring,
    islands: Islands,
}

#[derive(Serialize, Deserialize)]
pub(super) struct HeaderV2 {
    config: ConfigV2,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    hall: u64,
}

impl From<HeaderV2> for Header {
    fn from(old: HeaderV2) -> Header {
        HeaderV3 {
            config: old.config,
            generation: old.generation,
            gene_count: old.gene_count,
            rows: old.rows,
            hall: old.hall,
            lookahead: 0,
        }
        .into()
    }
}

/// Format 3: format 2's header and the lookahead.
#[derive(Serialize, Deserialize)]
pub(super) struct HeaderV3 {
    config: ConfigV2,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    hall: u64,
    lookahead: u8,
}

impl From<HeaderV3> for Header {
    fn from(old: HeaderV3) -> Header {
        let extra = Extra {
            lookahead: old.lookahead,
            ..Extra::default()
        };
        Header {
            config: old.config.into_config(extra),
            generation: old.generation,
            gene_count: old.gene_count,
            rows: old.rows,
            hall: old.hall,
            first_island: 0,
            held_islands: 1,
        }
    }
}

/// Format 4: format 3's header, the bank and the islands.
#[derive(Deserialize)]
struct HeaderV4 {
    config: ConfigV2,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
    hall: u64,
    lookahead: u8,
    bank_fitness: Option<BankMetric>,
    learn: Tutoring,
    islands: Islands,
    first_island: u32,
    held_islands: u32,
}

impl HeaderV4 {
    fn into_header(self, solo_fitness: bool) -> Header {
        let extra = Extra {
            lookahead: self.lookahead,
            bank_fitness: self.bank_fitness,
            solo_fitness,
            learn: self.learn,
            islands: self.islands,
        };
        Header {
            config: self.config.into_config(extra),
            generation: self.generation,
            gene_count: self.gene_count,
            rows: self.rows,
            hall: self.hall,
            first_island: self.first_island,
            held_islands: self.held_islands,
        }
    }
}

/// Format 5: format 4's header and the `solo` term.
#[derive(Deserialize)]
struct HeaderV5 {
    v4: HeaderV4,
    solo_fitness: bool,
}

impl From<HeaderV5> for Header {
    fn from(old: HeaderV5) -> Header {
        old.v4.into_header(old.solo_fitness)
    }
}

/// Format 1: the configuration before `init`, sampled tournaments and the
/// hall of fame existed (all take their defaults).
#[derive(Deserialize)]
struct HeaderV1 {
    config: ConfigV1,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRow>,
}

#[derive(Deserialize)]
struct FitnessV1 {
    round_robin: bool,
    opponents: Vec<(PlayerSpec, u64)>,
    exhaustive: bool,
}

#[derive(Deserialize)]
struct ConfigV1 {
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
    fitness: FitnessV1,
    bench: BenchConfig,
    stop: StopRule,
}

impl From<HeaderV1> for Header {
    fn from(old: HeaderV1) -> Header {
        let c = old.config;
        HeaderV2 {
            config: ConfigV2 {
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
                fitness: FitnessV2 {
                    round_robin: c.fitness.round_robin,
                    opponents: c.fitness.opponents,
                    exhaustive: c.fitness.exhaustive,
                    sampled: 0,
                    hall: 0,
                },
                init: Init::Random,
                crossover: Crossover::Uniform,
                bench: c.bench,
                stop: c.stop,
            },
            generation: old.generation,
            gene_count: old.gene_count,
            rows: old.rows,
            hall: 0,
        }
        .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::Hall;
    use crate::evolve::checkpoint::{CHECKPOINT_FORMAT, Checkpoint};
    use crate::store::{Framed, write_framed_parts};

    /// Format 3 as written then: the positional configuration (format 2's
    /// fields) and the lookahead last.
    #[test]
    fn a_format_3_checkpoint_loads_with_its_lookahead_and_no_bank() {
        let dir = tempfile::tempdir().unwrap();
        let (cfg, pop) = crate::evolve::checkpoint::tests::small_connect4_run();
        let header = HeaderV3 {
            config: ConfigV2 {
                game: cfg.game,
                population: 2,
                elite: 1,
                parents: 1,
                mutation: cfg.mutation,
                mutate: cfg.mutate,
                generations: cfg.generations,
                seed: cfg.seed,
                checkpoint_every: cfg.checkpoint_every,
                keep: cfg.keep,
                illegal: cfg.illegal,
                selection: cfg.selection,
                fitness: FitnessV2 {
                    round_robin: cfg.fitness.round_robin,
                    opponents: cfg.fitness.opponents.clone(),
                    exhaustive: cfg.fitness.exhaustive,
                    sampled: cfg.fitness.sampled,
                    hall: cfg.fitness.hall,
                },
                init: cfg.init,
                crossover: cfg.crossover,
                bench: cfg.bench.clone(),
                stop: cfg.stop.clone(),
            },
            generation: 0,
            gene_count: pop.gene_count() as u64,
            rows: Vec::new(),
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
        assert_eq!(loaded.config.fitness.bank, None);
        assert_eq!(loaded.population, pop);
        assert_eq!(loaded.hall, Hall::default());
    }
}
