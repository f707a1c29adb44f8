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
use crate::store::run_files;
use crate::store::{FileError, write_atomic};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Paths and writers of one run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

/// `run.toml`: the version and threads that ran it, then the settings,
/// written whole.
#[derive(Serialize)]
struct RunToml<'a> {
    bebete_version: &'a str,
    threads: usize,
    #[serde(flatten)]
    settings: &'a EvolveConfig,
}

impl RunDir {
    /// The run directory at `root`.
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

    /// `run.toml`: every setting.
    pub fn run_toml(&self) -> PathBuf {
        self.root.join(run_files::RUN_TOML)
    }

    /// The settings of `run.toml` that differ from the run's own (`cfg`),
    /// as `key = value` in the file: edits a resume does not read (a run's
    /// settings are fixed when it starts). The version, the threads and
    /// the planned generations, which a resume may change, are not
    /// compared; nor is anything when `run.toml` is missing or unreadable.
    pub(crate) fn edited_settings(&self, cfg: &EvolveConfig, threads: usize) -> Vec<String> {
        let Some(found) = crate::store::read_regular(&self.run_toml())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| text.parse::<toml::Table>().ok())
        else {
            return Vec::new();
        };
        let Ok(own) = run_toml_text(cfg, threads).parse::<toml::Table>() else {
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
        // A seed beyond TOML's integers is written as a string.
        let seed = match doc.get("seed")? {
            toml::Value::Integer(n) => u64::try_from(*n).ok()?,
            toml::Value::String(text) => text.parse().ok()?,
            _ => return None,
        };
        Some((game, seed))
    }

    /// `stats.csv`: one row per generation.
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

    /// The folder of checkpoints.
    pub fn checkpoints(&self) -> PathBuf {
        self.root.join(run_files::CHECKPOINTS)
    }

    /// `best.genome`: the champion.
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
    pub(crate) fn write_run_toml(
        &self,
        cfg: &EvolveConfig,
        threads: usize,
    ) -> Result<(), FileError> {
        write_atomic(&self.run_toml(), run_toml_text(cfg, threads).as_bytes())
    }

    /// Rewrites `stats.csv` with exactly `rows`.
    pub(crate) fn write_stats(
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
            .chain(rows.iter().map(|row| row.record(columns, cfg.islands > 1)))
            .collect();
        let mut text = Vec::new();
        write_records(&mut text, records.iter().map(Vec::as_slice))
            .expect("writing to memory cannot fail");
        write_atomic(&self.stats_csv(), &text)
    }

    /// Appends one row to `stats.csv`.
    pub(crate) fn append_stats(
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
        let record = row.record(bench::columns(cfg, abilities).len(), cfg.islands > 1);
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
/// included (`evolve --dry-run` prints it).
pub fn run_toml_text(cfg: &EvolveConfig, threads: usize) -> String {
    let doc = RunToml {
        bebete_version: env!("CARGO_PKG_VERSION"),
        threads,
        settings: cfg,
    };
    toml::to_string(&doc).expect("run.toml fields are plain values")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameSpec;

    /// Every registered game's `run.toml` is its settings whole: read
    /// back, they are the run's own, the game's rules and encoder
    /// included.
    #[test]
    fn run_toml_reads_back_as_the_settings_of_every_game() {
        for spec in GameSpec::registered() {
            for cfg in [
                EvolveConfig::method(spec, u64::MAX),
                EvolveConfig::recommended(spec, 3),
            ] {
                let text = run_toml_text(&cfg, 2);
                let doc: toml::Table = text.parse().unwrap();
                assert_eq!(doc["game"].as_str(), Some(spec.game().name()), "{spec}");
                let read: EvolveConfig = toml::from_str(&text).unwrap();
                assert_eq!(read, cfg, "{spec}: {text}");
            }
        }
    }
}
