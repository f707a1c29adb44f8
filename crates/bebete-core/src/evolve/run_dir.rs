//! The run directory (contract):
//!
//! ```text
//! runs/NAME/run.toml                    every parameter, the seed included
//! runs/NAME/stats.csv                   one row per generation, header first
//! runs/NAME/checkpoints/gen-NNNNNN.ckpt the state before generation NNNNNN
//! runs/NAME/best.genome                 the current champion
//! ```

use super::bench;
use super::stats::{header, write_records};
use super::{EvolveConfig, StatsRow};
use crate::dispatch::Abilities;
use crate::games::TakeRuleName;
use crate::store::run_files;
use crate::store::{FileError, write_atomic};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Paths and writers of one run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

/// `run.toml`: the parameters, flat and readable.
#[derive(Serialize)]
struct RunToml<'a> {
    bebete_version: &'a str,
    game: &'a str,
    /// A built-in game's encoder (a game from outside has its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    encoder: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sticks: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_take: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_loses: Option<bool>,
    /// Peg solitaire's board.
    #[serde(skip_serializing_if = "Option::is_none")]
    rows: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    empty: Option<u8>,
    /// The value genome's shape (`--encoder ntuple` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    tuples: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tuple_length: Option<u8>,
    seed: u64,
    /// The defaults the run started from, before the flags given.
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<&'a str>,
    population: usize,
    elite: usize,
    parents: usize,
    mutation: toml::Value,
    generations: u64,
    selection: String,
    illegal: &'a str,
    checkpoint_every: u64,
    keep: usize,
    threads: usize,
    fitness: String,
    init: String,
    crossover: String,
    bench_every: u64,
    bench_against: Vec<String>,
    bench_games: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patience: Option<u64>,
    #[serde(skip_serializing_if = "is_zero")]
    lookahead: u8,
    /// The bank (Connect-Four runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    bank: Option<String>,
    #[serde(skip_serializing_if = "is_zero")]
    self_play: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    learn_against: Option<String>,
    /// The island model (runs with more than one island only).
    #[serde(skip_serializing_if = "Option::is_none")]
    islands: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    migrate_every: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    migrants: Option<usize>,
}

fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
    *n == N::default()
}

impl RunDir {
    pub fn new(root: impl Into<PathBuf>) -> RunDir {
        RunDir { root: root.into() }
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The run's name: the directory's last component.
    pub fn name(&self) -> String {
        self.root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".to_string())
    }

    pub fn run_toml(&self) -> PathBuf {
        self.root.join(run_files::RUN_TOML)
    }

    /// The settings of `run.toml` that differ from the run's own (`cfg`),
    /// as `key = value` in the file: edits a resume does not read (a run's
    /// settings are fixed when it starts). The version, the threads and
    /// the planned generations, which a resume may change, are not
    /// compared; nor is anything when `run.toml` is missing or unreadable.
    pub fn edited_settings(
        &self,
        cfg: &EvolveConfig,
        abilities: &Abilities,
        threads: usize,
    ) -> Vec<String> {
        let Some(found) = crate::store::read_regular(&self.run_toml())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| text.parse::<toml::Table>().ok())
        else {
            return Vec::new();
        };
        let Ok(own) = run_toml_text(cfg, abilities, threads).parse::<toml::Table>() else {
            return Vec::new();
        };
        let free = ["bebete_version", "threads", "generations"];
        let mut keys: Vec<&String> = found.keys().chain(own.keys()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .filter(|key| !free.contains(&key.as_str()) && found.get(*key) != own.get(*key))
            .map(|key| match found.get(key) {
                Some(value) => format!("{key} = {value}"),
                None => format!("{key} removed"),
            })
            .collect()
    }

    /// The game and seed `run.toml` records: the run's identity, which
    /// each of its checkpoints carries too. `None` when `run.toml` is
    /// missing or unreadable (a resume writes it anew).
    pub fn recorded_identity(&self) -> Option<(String, u64)> {
        let bytes = crate::store::read_regular(&self.run_toml()).ok()?;
        let doc: toml::Table = std::str::from_utf8(&bytes).ok()?.parse().ok()?;
        let game = doc.get("game")?.as_str()?.to_string();
        let seed = u64::try_from(doc.get("seed")?.as_integer()?).ok()?;
        Some((game, seed))
    }

    pub fn stats_csv(&self) -> PathBuf {
        self.root.join(run_files::STATS_CSV)
    }

    /// The complete rows of `stats.csv` (lines ended by a newline, less the
    /// header), or `None` when it cannot be read.
    pub fn stats_row_count(&self) -> Option<u64> {
        let bytes = std::fs::read(self.stats_csv()).ok()?;
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
        lines.checked_sub(1)
    }

    pub fn checkpoints(&self) -> PathBuf {
        self.root.join(run_files::CHECKPOINTS)
    }

    pub fn best_genome(&self) -> PathBuf {
        self.root.join(run_files::BEST_GENOME)
    }

    /// Records how the run ended (`ended.toml`), for those who read the
    /// directory later (the server's run page).
    pub fn write_ended(&self, ended: &RunEnded) -> Result<(), FileError> {
        let text = toml::to_string(ended).expect("plain fields");
        write_atomic(&self.root.join(run_files::ENDED_TOML), text.as_bytes())
    }

    /// Forgets how the run ended: it is running again (a resume).
    pub fn clear_ended(&self) -> Result<(), FileError> {
        let path = self.root.join(run_files::ENDED_TOML);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(FileError::new(&path, e)),
            _ => Ok(()),
        }
    }

    /// Writes `run.toml` ([`run_toml_text`]).
    pub fn write_run_toml(
        &self,
        cfg: &EvolveConfig,
        abilities: &Abilities,
        threads: usize,
    ) -> Result<(), FileError> {
        write_atomic(
            &self.run_toml(),
            run_toml_text(cfg, abilities, threads).as_bytes(),
        )
    }

    /// Rewrites `stats.csv` with exactly `rows`.
    pub fn write_stats(
        &self,
        cfg: &EvolveConfig,
        abilities: &Abilities,
        rows: &[StatsRow],
    ) -> Result<(), FileError> {
        let columns = bench::columns(cfg, abilities).len();
        let header: Vec<String> = header(cfg, abilities)
            .split(',')
            .map(str::to_string)
            .collect();
        let records: Vec<Vec<String>> = std::iter::once(header)
            .chain(
                rows.iter()
                    .map(|row| row.record(columns, cfg.islands.count > 1)),
            )
            .collect();
        let mut text = Vec::new();
        write_records(&mut text, records.iter().map(Vec::as_slice))
            .expect("writing to memory cannot fail");
        write_atomic(&self.stats_csv(), &text)
    }

    /// Appends one row to `stats.csv`.
    pub fn append_stats(
        &self,
        cfg: &EvolveConfig,
        abilities: &Abilities,
        row: &StatsRow,
    ) -> Result<(), FileError> {
        let path = self.stats_csv();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| FileError::new(&path, e))?;
        let record = row.record(bench::columns(cfg, abilities).len(), cfg.islands.count > 1);
        write_records(&mut file, [record.as_slice()]).map_err(|e| FileError::new(&path, e))
    }
}

/// How a run ended, as `ended.toml` records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RunEnded {
    /// The last generation run.
    pub generation: u64,
    /// Why it ended, in words: its plan done, or the stopping rule met.
    pub reason: String,
}

/// The text of `run.toml`: every setting of the run, the game's rules
/// included (`evolve --dry-run` prints it), for a game with `abilities`.
pub fn run_toml_text(cfg: &EvolveConfig, abilities: &Abilities, threads: usize) -> String {
    // A built-in game's own options: what `--game` with them chooses
    // again (a game from outside has only its name).
    let built_in = cfg.game.built_in();
    let options = built_in.map(|spec| spec.options()).unwrap_or_default();
    let doc = RunToml {
        bebete_version: env!("CARGO_PKG_VERSION"),
        game: cfg.game.name(),
        encoder: built_in.map(|spec| spec.encoder_name()),
        rule: options.rule.map(TakeRuleName::name),
        sticks: options.sticks,
        max_take: options.max_take,
        last_loses: (options.last_loses || options.last_wins).then_some(options.last_loses),
        rows: options.rows,
        empty: options.empty,
        tuples: options.tuples,
        tuple_length: options.tuple_length,
        seed: cfg.seed,
        preset: cfg.preset.map(|p| p.name()),
        population: cfg.population,
        elite: cfg.elite,
        parents: cfg.parents,
        mutation: if cfg.mutation.low >= cfg.mutation.high {
            toml::Value::Float(cfg.mutation.low)
        } else {
            toml::Value::String(cfg.mutation.to_string())
        },
        generations: cfg.generations,
        selection: cfg.selection.to_string(),
        illegal: cfg.illegal.name(),
        checkpoint_every: cfg.checkpoint_every,
        keep: cfg.keep,
        threads,
        fitness: cfg.fitness.to_string(),
        init: cfg.init.to_string(),
        crossover: cfg.crossover.to_string(),
        bench_every: cfg.bench.every,
        bench_against: cfg.bench.against.iter().map(|s| s.to_string()).collect(),
        bench_games: cfg.bench.games,
        target: cfg.stop.target.as_ref().map(|t| t.to_string()),
        patience: cfg.stop.patience,
        lookahead: cfg.lookahead,
        bank: abilities.banked.then(|| cfg.tutor.bank.to_string()),
        self_play: cfg.self_play,
        learn_against: cfg.learn_against.as_ref().map(|s| s.to_string()),
        islands: (cfg.islands.count > 1).then_some(cfg.islands.count),
        migrate_every: (cfg.islands.count > 1).then_some(cfg.islands.every),
        migrants: (cfg.islands.count > 1).then_some(cfg.islands.migrants),
    };
    toml::to_string(&doc).expect("run.toml fields are plain values")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::abilities;
    use crate::games::{GameOptions, GameSpec};

    /// The game's options, read back from a `run.toml`.
    fn options_in(doc: &toml::Table) -> GameOptions {
        let text = |key: &str| doc.get(key).and_then(|v| v.as_str()).map(str::to_string);
        let small = |key: &str| {
            doc.get(key)
                .and_then(|v| v.as_integer())
                .map(|n| u8::try_from(n).unwrap())
        };
        let last_loses = doc.get("last_loses").and_then(|v| v.as_bool());
        GameOptions {
            encoder: text("encoder"),
            tuples: doc
                .get("tuples")
                .and_then(|v| v.as_integer())
                .map(|n| u16::try_from(n).unwrap()),
            tuple_length: small("tuple_length"),
            rule: text("rule").map(|r| match r.as_str() {
                "double" => TakeRuleName::Double,
                _ => TakeRuleName::Subtract,
            }),
            sticks: small("sticks"),
            max_take: small("max_take"),
            last_loses: last_loses == Some(true),
            last_wins: last_loses == Some(false),
            rows: small("rows"),
            empty: small("empty"),
            ..GameOptions::default()
        }
    }

    /// Every registered game's `run.toml` records all its rules: the game
    /// and the options written there choose the same game again.
    #[test]
    fn run_toml_records_every_rule_of_every_game() {
        let dir = tempfile::tempdir().unwrap();
        for spec in GameSpec::registered() {
            let run = RunDir::new(dir.path());
            run.write_run_toml(&EvolveConfig::method(spec, 1), &abilities(spec), 1)
                .unwrap();
            let doc: toml::Table = std::fs::read_to_string(run.run_toml())
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(doc["game"].as_str(), Some(spec.kind().name()), "{spec}");
            assert_eq!(
                spec.kind().from_options(&options_in(&doc)),
                Ok(spec),
                "{spec}: {doc}"
            );
        }
    }
}
