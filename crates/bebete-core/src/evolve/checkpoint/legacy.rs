//! Readers of checkpoint formats 1 to 6, frozen.
//!
//! Formats 1 to 5 wrote the configuration by position (postcard), so each
//! option added a format: 2 added `init`, sampled tournaments and the hall
//! of fame; 3 the shell's lookahead after the header's other fields; 4 the
//! bank fitness term, the bank's operators and the islands; 5 the `solo`
//! term. Format 6 wrote the configuration as JSON, by name, its fitness
//! field by field, and the stats rows still by position.
//!
//! The types below are the layouts as they were written, copied here with
//! their variants in their order of then, so that today's types (the game
//! specification, operators, players, stats rows) can change freely
//! without changing how an old file decodes: each is turned into today's
//! value by name. A player was already stored as its text then, read with
//! today's grammar, which only grows. Each format has a fixture under
//! `tests/fixtures/` that must still load and resume exactly.

use super::Header;
use crate::bank::BankSource;
use crate::encoding::IllegalPolicy;
use crate::evolve::fitness::{
    AnyTerm, bank::Bank, exhaustive::Exhaustive, hall_of_fame::HallOfFame, round_robin::RoundRobin,
    sampled::Sampled, solo::Solo, versus::Versus,
};
use crate::evolve::{
    BankMetric, BenchConfig, Crossover, EvolveConfig, Fitness, Init, Islands, Mutation,
    MutationScope, Selection, StatsRow, StopRule, Target, Tutoring,
};
use crate::games::PegBits;
use crate::games::{
    Connect4, Connect4Encoder, GameSpec, GenomeGame, Matchsticks, MatchsticksEncoder,
    MatchsticksRules, Solitaire, SolitaireRules, TakeRule, TicTacToe, TicTacToeEncoder,
};
use crate::players::PlayerSpec;
use crate::store::FileProblem;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Reads the header of a format-`version` file (1 to 6); a format-6
/// configuration that does not read is `Err`.
pub(super) fn read(version: u16, bytes: &[u8]) -> postcard::Result<Result<Header, FileProblem>> {
    Ok(Ok(match version {
        1 => postcard::from_bytes::<HeaderV1>(bytes)?.into(),
        2 => postcard::from_bytes::<HeaderV2>(bytes)?.into(),
        3 => postcard::from_bytes::<HeaderV3>(bytes)?.into(),
        4 => postcard::from_bytes::<HeaderV4>(bytes)?.into_header(false),
        5 => postcard::from_bytes::<HeaderV5>(bytes)?.into(),
        _ => return Ok(postcard::from_bytes::<HeaderV6>(bytes)?.read()),
    }))
}

/// A player, stored as its text (`rules`, `mc:200`, a genome's path).
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub(super) struct PlayerText(PlayerSpec);

impl TryFrom<String> for PlayerText {
    type Error = String;
    fn try_from(text: String) -> Result<PlayerText, String> {
        PlayerSpec::parse(&text)
            .map(PlayerText)
            .map_err(|e| e.to_string())
    }
}

impl From<PlayerText> for String {
    fn from(player: PlayerText) -> String {
        player.0.to_string()
    }
}

/// The game as formats 1 to 5 stored it: the four games of then, each with
/// its encoders of then.
#[derive(Serialize, Deserialize)]
pub(super) enum GameV1 {
    TicTacToe(TicTacToeEncoderV1),
    Matchsticks(MatchsticksRulesV1, MatchsticksEncoderV1),
    Connect4(Connect4EncoderV1),
    Solitaire(SolitaireRulesV1),
}

#[derive(Serialize, Deserialize)]
pub(super) enum TicTacToeEncoderV1 {
    Base3,
    Symmetric,
}

#[derive(Serialize, Deserialize)]
pub(super) struct MatchsticksRulesV1 {
    sticks: u8,
    rule: TakeRuleV1,
}

#[derive(Serialize, Deserialize)]
pub(super) enum TakeRuleV1 {
    Subtract { max_take: u8, last_loses: bool },
    Double,
}

#[derive(Serialize, Deserialize)]
pub(super) enum MatchsticksEncoderV1 {
    State,
    Sticks,
}

#[derive(Serialize, Deserialize)]
pub(super) enum Connect4EncoderV1 {
    Subgrid,
    Playable,
    Mirror,
    PlayableMirror,
}

#[derive(Serialize, Deserialize)]
pub(super) struct SolitaireRulesV1 {
    rows: u8,
    empty: u8,
}

impl From<GameV1> for GameSpec {
    fn from(old: GameV1) -> GameSpec {
        match old {
            GameV1::TicTacToe(encoder) => GameSpec::TicTacToe(GenomeGame::votes(
                TicTacToe,
                match encoder {
                    TicTacToeEncoderV1::Base3 => TicTacToeEncoder::Base3,
                    TicTacToeEncoderV1::Symmetric => TicTacToeEncoder::Symmetric,
                },
            )),
            GameV1::Matchsticks(rules, encoder) => GameSpec::Matchsticks(GenomeGame::votes(
                Matchsticks::new(MatchsticksRules {
                    sticks: rules.sticks,
                    rule: match rules.rule {
                        TakeRuleV1::Subtract {
                            max_take,
                            last_loses,
                        } => TakeRule::Subtract {
                            max_take,
                            last_loses,
                        },
                        TakeRuleV1::Double => TakeRule::Double,
                    },
                }),
                match encoder {
                    MatchsticksEncoderV1::State => MatchsticksEncoder::State,
                    MatchsticksEncoderV1::Sticks => MatchsticksEncoder::Sticks,
                },
            )),
            GameV1::Connect4(encoder) => GameSpec::Connect4(GenomeGame::votes(
                Connect4,
                match encoder {
                    Connect4EncoderV1::Subgrid => Connect4Encoder::Subgrid,
                    Connect4EncoderV1::Playable => Connect4Encoder::Playable,
                    Connect4EncoderV1::Mirror => Connect4Encoder::Mirror,
                    Connect4EncoderV1::PlayableMirror => Connect4Encoder::PlayableMirror,
                },
            )),
            GameV1::Solitaire(rules) => GameSpec::Solitaire(GenomeGame::votes(
                Solitaire::new(SolitaireRules {
                    rows: rules.rows,
                    empty: rules.empty,
                }),
                PegBits,
            )),
        }
    }
}

/// The operators of formats 1 to 5, in their order of then.
#[derive(Serialize, Deserialize)]
pub(super) struct MutationV1 {
    low: f64,
    high: f64,
}

#[derive(Serialize, Deserialize)]
pub(super) enum MutationScopeV2 {
    All,
    Used,
}

#[derive(Serialize, Deserialize)]
pub(super) enum IllegalPolicyV1 {
    Repair,
    Forfeit,
}

#[derive(Serialize, Deserialize)]
pub(super) enum SelectionV1 {
    Elite,
    Tournament(u32),
}

#[derive(Serialize, Deserialize)]
pub(super) enum InitV2 {
    Random,
    Zero,
}

#[derive(Serialize, Deserialize)]
pub(super) enum CrossoverV2 {
    Uniform,
    Block(u32),
}

#[derive(Serialize, Deserialize)]
pub(super) struct BenchV1 {
    every: u64,
    against: Vec<PlayerText>,
    games: u64,
}

#[derive(Serialize, Deserialize)]
pub(super) struct StopV1 {
    target: Option<TargetV1>,
    patience: Option<u64>,
}

#[derive(Serialize, Deserialize)]
pub(super) enum TargetV1 {
    Unbeatable,
    Score { opponent: PlayerText, share: f64 },
    Pegs(u32),
}

#[derive(Serialize, Deserialize, Clone, Copy)]
pub(super) enum BankMetricV4 {
    Keep,
    Score,
}

#[derive(Serialize, Deserialize)]
pub(super) enum BankSourceV4 {
    Builtin,
    File(PathBuf),
}

/// The bank's operators (`learn` then, the tutor today).
#[derive(Serialize, Deserialize)]
pub(super) struct TutoringV4 {
    bank: BankSourceV4,
    guided: u32,
    local_search: u32,
}

#[derive(Serialize, Deserialize)]
pub(super) struct IslandsV4 {
    count: usize,
    every: u64,
    migrants: usize,
}

/// A stats row as formats 1 to 6 stored it, by position.
#[derive(Serialize, Deserialize)]
pub(super) struct StatsRowV1 {
    generation: u64,
    best: u32,
    mean: f64,
    worst: u32,
    diversity: f64,
    tournament_s: f64,
    breeding_s: f64,
    io_s: f64,
    bench: Vec<f64>,
}

fn rows(old: Vec<StatsRowV1>) -> Vec<StatsRow> {
    old.into_iter()
        .map(|r| StatsRow {
            generation: r.generation,
            best: r.best,
            mean: r.mean,
            worst: r.worst,
            diversity: r.diversity,
            tournament_s: r.tournament_s,
            breeding_s: r.breeding_s,
            io_s: r.io_s,
            bench: r.bench,
            island: 0,
        })
        .collect()
}

impl From<MutationV1> for Mutation {
    fn from(m: MutationV1) -> Mutation {
        Mutation {
            low: m.low,
            high: m.high,
        }
    }
}

impl From<MutationScopeV2> for MutationScope {
    fn from(m: MutationScopeV2) -> MutationScope {
        match m {
            MutationScopeV2::All => MutationScope::All,
            MutationScopeV2::Used => MutationScope::Used,
        }
    }
}

impl From<IllegalPolicyV1> for IllegalPolicy {
    fn from(p: IllegalPolicyV1) -> IllegalPolicy {
        match p {
            IllegalPolicyV1::Repair => IllegalPolicy::Repair,
            IllegalPolicyV1::Forfeit => IllegalPolicy::Forfeit,
        }
    }
}

impl From<SelectionV1> for Selection {
    fn from(s: SelectionV1) -> Selection {
        match s {
            SelectionV1::Elite => Selection::Elite,
            SelectionV1::Tournament(k) => Selection::Tournament(k),
        }
    }
}

impl From<InitV2> for Init {
    fn from(i: InitV2) -> Init {
        match i {
            InitV2::Random => Init::Random,
            InitV2::Zero => Init::Zero,
        }
    }
}

impl From<CrossoverV2> for Crossover {
    fn from(c: CrossoverV2) -> Crossover {
        match c {
            CrossoverV2::Uniform => Crossover::Uniform,
            CrossoverV2::Block(b) => Crossover::Block(b),
        }
    }
}

impl From<BenchV1> for BenchConfig {
    fn from(b: BenchV1) -> BenchConfig {
        BenchConfig {
            every: b.every,
            against: b.against.into_iter().map(|p| p.0).collect(),
            games: b.games,
        }
    }
}

impl From<StopV1> for StopRule {
    fn from(s: StopV1) -> StopRule {
        StopRule {
            target: s.target.map(|t| match t {
                TargetV1::Unbeatable => Target::Unbeatable,
                TargetV1::Score { opponent, share } => Target::Score {
                    opponent: opponent.0,
                    share,
                },
                TargetV1::Pegs(n) => Target::Pegs(n),
            }),
            patience: s.patience,
        }
    }
}

impl From<BankMetricV4> for BankMetric {
    fn from(m: BankMetricV4) -> BankMetric {
        match m {
            BankMetricV4::Keep => BankMetric::Keep,
            BankMetricV4::Score => BankMetric::Score,
        }
    }
}

impl From<TutoringV4> for Tutoring {
    fn from(t: TutoringV4) -> Tutoring {
        Tutoring {
            bank: match t.bank {
                BankSourceV4::Builtin => BankSource::Builtin,
                BankSourceV4::File(path) => BankSource::File(path),
            },
            guided: t.guided,
            local_search: t.local_search,
        }
    }
}

impl From<IslandsV4> for Islands {
    fn from(i: IslandsV4) -> Islands {
        Islands {
            count: i.count,
            every: i.every,
            migrants: i.migrants,
        }
    }
}

/// The fitness of formats 1 to 6, field by field: today's terms.
#[derive(Default)]
struct OldFitness {
    round_robin: bool,
    opponents: Vec<(PlayerText, u64)>,
    exhaustive: bool,
    sampled: u32,
    hall: u32,
    bank: Option<BankMetric>,
    solo: bool,
}

impl From<OldFitness> for Fitness {
    fn from(f: OldFitness) -> Fitness {
        let mut terms = Vec::new();
        if f.round_robin {
            terms.push(AnyTerm::RoundRobin(RoundRobin));
        }
        if f.solo {
            terms.push(AnyTerm::Solo(Solo));
        }
        if f.sampled > 0 {
            terms.push(AnyTerm::Sampled(Sampled(f.sampled)));
        }
        if f.hall > 0 {
            terms.push(AnyTerm::HallOfFame(HallOfFame(f.hall)));
        }
        terms.extend(f.opponents.into_iter().map(|(player, games)| {
            AnyTerm::Versus(Versus {
                player: player.0,
                games,
            })
        }));
        if f.exhaustive {
            terms.push(AnyTerm::Exhaustive(Exhaustive));
        }
        if let Some(metric) = f.bank {
            terms.push(AnyTerm::Bank(Bank(metric)));
        }
        Fitness::of_terms(terms)
    }
}

/// The fitness terms of formats 2 to 5 (the bank and solo terms sat in the
/// header, not here).
#[derive(Serialize, Deserialize)]
pub(super) struct FitnessV2 {
    round_robin: bool,
    opponents: Vec<(PlayerText, u64)>,
    exhaustive: bool,
    sampled: u32,
    hall: u32,
}

/// The configuration of formats 2 to 5, by position.
#[derive(Serialize, Deserialize)]
pub(super) struct ConfigV2 {
    game: GameV1,
    population: usize,
    elite: usize,
    parents: usize,
    mutation: MutationV1,
    mutate: MutationScopeV2,
    generations: u64,
    seed: u64,
    checkpoint_every: u64,
    keep: usize,
    illegal: IllegalPolicyV1,
    selection: SelectionV1,
    fitness: FitnessV2,
    init: InitV2,
    crossover: CrossoverV2,
    bench: BenchV1,
    stop: StopV1,
}

impl ConfigV2 {
    /// Today's configuration, the settings later formats added at their
    /// values in `extra`.
    fn into_config(self, extra: Extra) -> EvolveConfig {
        let f = self.fitness;
        EvolveConfig {
            game: GameSpec::from(self.game).into(),
            population: self.population,
            elite: self.elite,
            parents: self.parents,
            mutation: self.mutation.into(),
            mutate: self.mutate.into(),
            generations: self.generations,
            seed: self.seed,
            checkpoint_every: self.checkpoint_every,
            keep: self.keep,
            illegal: self.illegal.into(),
            selection: self.selection.into(),
            fitness: OldFitness {
                round_robin: f.round_robin,
                opponents: f.opponents,
                exhaustive: f.exhaustive,
                sampled: f.sampled,
                hall: f.hall,
                bank: extra.bank_fitness,
                solo: extra.solo_fitness,
            }
            .into(),
            init: self.init.into(),
            crossover: self.crossover.into(),
            bench: self.bench.into(),
            stop: self.stop.into(),
            lookahead: extra.lookahead,
            tutor: extra.learn,
            islands: extra.islands,
            // Formats 1–5 predate value genomes.
            self_play: 0,
            learn_against: None,
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
    rows: Vec<StatsRowV1>,
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
    rows: Vec<StatsRowV1>,
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
            rows: rows(old.rows),
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
    rows: Vec<StatsRowV1>,
    hall: u64,
    lookahead: u8,
    bank_fitness: Option<BankMetricV4>,
    learn: TutoringV4,
    islands: IslandsV4,
    first_island: u32,
    held_islands: u32,
}

impl HeaderV4 {
    fn into_header(self, solo_fitness: bool) -> Header {
        let extra = Extra {
            lookahead: self.lookahead,
            bank_fitness: self.bank_fitness.map(Into::into),
            solo_fitness,
            learn: self.learn.into(),
            islands: self.islands.into(),
        };
        Header {
            config: self.config.into_config(extra),
            generation: self.generation,
            gene_count: self.gene_count,
            rows: rows(self.rows),
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
    rows: Vec<StatsRowV1>,
}

#[derive(Deserialize)]
struct FitnessV1 {
    round_robin: bool,
    opponents: Vec<(PlayerText, u64)>,
    exhaustive: bool,
}

#[derive(Deserialize)]
struct ConfigV1 {
    game: GameV1,
    population: usize,
    elite: usize,
    parents: usize,
    mutation: MutationV1,
    generations: u64,
    seed: u64,
    checkpoint_every: u64,
    keep: usize,
    illegal: IllegalPolicyV1,
    selection: SelectionV1,
    fitness: FitnessV1,
    bench: BenchV1,
    stop: StopV1,
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
                mutate: MutationScopeV2::All,
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
                init: InitV2::Random,
                crossover: CrossoverV2::Uniform,
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

/// Format 6: the configuration as JSON, every field by name, the fitness
/// a map of its fields; the rest by position.
#[derive(Serialize, Deserialize)]
pub(super) struct HeaderV6 {
    config: String,
    generation: u64,
    gene_count: u64,
    rows: Vec<StatsRowV1>,
    hall: u64,
    first_island: u32,
    held_islands: u32,
}

/// Format 6's fitness, as its JSON map.
#[derive(Deserialize)]
struct FitnessV6 {
    round_robin: bool,
    opponents: Vec<(PlayerText, u64)>,
    exhaustive: bool,
    #[serde(default)]
    sampled: u32,
    #[serde(default)]
    hall: u32,
    #[serde(default)]
    bank: Option<BankMetricV4>,
    #[serde(default)]
    solo: bool,
}

impl HeaderV6 {
    /// The header, its configuration read from the stored JSON with the
    /// fitness map turned into today's terms.
    fn read(self) -> Result<Header, FileProblem> {
        let malformed = |e: String| {
            FileProblem::Malformed(format!("the stored configuration does not read: {e}"))
        };
        let mut json: serde_json::Value =
            serde_json::from_str(&self.config).map_err(|e| malformed(e.to_string()))?;
        if let Some(fitness) = json.get_mut("fitness") {
            let old: FitnessV6 =
                serde_json::from_value(fitness.take()).map_err(|e| malformed(e.to_string()))?;
            let text = Fitness::from(OldFitness {
                round_robin: old.round_robin,
                opponents: old.opponents,
                exhaustive: old.exhaustive,
                sampled: old.sampled,
                hall: old.hall,
                bank: old.bank.map(Into::into),
                solo: old.solo,
            })
            .to_string();
            *fitness = serde_json::Value::String(text);
        }
        let config = serde_json::from_value(json).map_err(|e| malformed(e.to_string()))?;
        Ok(Header {
            config,
            generation: self.generation,
            gene_count: self.gene_count,
            rows: rows(self.rows),
            hall: self.hall,
            first_island: self.first_island,
            held_islands: self.held_islands,
        })
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
                game: GameV1::Connect4(Connect4EncoderV1::Subgrid),
                population: 2,
                elite: 1,
                parents: 1,
                mutation: MutationV1 {
                    low: cfg.mutation.low,
                    high: cfg.mutation.high,
                },
                mutate: MutationScopeV2::All,
                generations: cfg.generations,
                seed: cfg.seed,
                checkpoint_every: cfg.checkpoint_every,
                keep: cfg.keep,
                illegal: IllegalPolicyV1::Repair,
                selection: SelectionV1::Elite,
                fitness: FitnessV2 {
                    round_robin: true,
                    opponents: Vec::new(),
                    exhaustive: false,
                    sampled: 0,
                    hall: 0,
                },
                init: InitV2::Zero,
                crossover: CrossoverV2::Uniform,
                bench: BenchV1 {
                    every: cfg.bench.every,
                    against: cfg.bench.against.iter().cloned().map(PlayerText).collect(),
                    games: cfg.bench.games,
                },
                stop: StopV1 {
                    target: None,
                    patience: None,
                },
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
        let mut expected = cfg;
        expected.init = Init::Zero;
        assert_eq!(loaded.config, expected);
        assert!(!loaded.config.fitness.has::<Bank>());
        assert_eq!(loaded.population, pop);
        assert_eq!(loaded.hall, Hall::default());
    }

    /// Format 6's fitness map, every field of then, reads as today's terms.
    #[test]
    fn a_format_6_fitness_map_reads_as_terms() {
        let cfg = EvolveConfig::method(GameSpec::TICTACTOE, 1);
        let mut json = serde_json::to_value(&cfg).unwrap();
        json["fitness"] = serde_json::json!({
            "round_robin": false,
            "opponents": [["rules", 4], ["mc:20", 2]],
            "exhaustive": true,
            "sampled": 0,
            "hall": 3,
            "bank": null,
            "solo": false
        });
        let header = HeaderV6 {
            config: json.to_string(),
            generation: 0,
            gene_count: 0,
            rows: Vec::new(),
            hall: 0,
            first_island: 0,
            held_islands: 1,
        };
        let read = header.read().unwrap();
        assert_eq!(
            read.config.fitness.to_string(),
            "vs:hof:3+rules:4+mc:20:2+exhaustive"
        );
    }
}
