//! `stats.csv`, both ways: one row per generation written as the run goes,
//! and the whole table read back (by `plot`, and anything else that watches
//! a run); and the diversity measure.
//!
//! Both directions go through the `csv` crate: rows are written as records
//! of fixed-precision fields and read as records of optional numbers (an
//! empty cell is a generation the benchmark did not measure).

use super::{EvolveConfig, Population, bench};
use crate::dispatch::Abilities;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The fixed columns of `stats.csv` (contract: the first four), as
/// [`Column::FIXED`] names them.
pub(crate) const STATS_HEADER: &str =
    "generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s,games";

/// A column of `stats.csv`, typed: what writes the table (this module, the
/// benchmark) and what reads it (the plots, the server) name columns
/// through it, not by string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// `generation`.
    Generation,
    /// `best`: the best fitness.
    Best,
    /// `mean`: the mean fitness.
    Mean,
    /// `worst`: the worst fitness.
    Worst,
    /// `diversity`: the mean share of differing genes.
    Diversity,
    /// `tournament_s`: seconds evaluating.
    TournamentSeconds,
    /// `breeding_s`: seconds breeding.
    BreedingSeconds,
    /// `io_s`: seconds writing files.
    IoSeconds,
    /// Games the island played in the generation: its fitness games and
    /// the self-play games its genomes learned from.
    Games,
    /// The champion's score against a fixed opponent, named as in
    /// `--bench-against` (`vs_random`, `vs_mc:50`, a genome file's stem).
    Versus(String),
    /// The share of positions where the champion keeps the value (the
    /// exact audit, the bank's held-out positions, or solitaire's best
    /// count).
    OptimalRate,
    /// `unbeatable_first`: the audit finds no loss moving first.
    UnbeatableFirst,
    /// `unbeatable_second`: the audit finds no loss moving second.
    UnbeatableSecond,
    /// One-player games: the pieces the champion leaves.
    Pegs,
    /// With `--islands`: the island of the row.
    Island,
}

impl Column {
    /// The columns every run has, in order.
    pub(crate) const FIXED: [Column; 9] = [
        Column::Generation,
        Column::Best,
        Column::Mean,
        Column::Worst,
        Column::Diversity,
        Column::TournamentSeconds,
        Column::BreedingSeconds,
        Column::IoSeconds,
        Column::Games,
    ];

    /// The name in the header.
    pub fn name(&self) -> String {
        let fixed = match self {
            Column::Generation => "generation",
            Column::Best => "best",
            Column::Mean => "mean",
            Column::Worst => "worst",
            Column::Diversity => "diversity",
            Column::TournamentSeconds => "tournament_s",
            Column::BreedingSeconds => "breeding_s",
            Column::IoSeconds => "io_s",
            Column::Games => "games",
            Column::Versus(opponent) => return format!("vs_{opponent}"),
            Column::OptimalRate => "optimal_rate",
            Column::UnbeatableFirst => "unbeatable_first",
            Column::UnbeatableSecond => "unbeatable_second",
            Column::Pegs => "pegs",
            Column::Island => "island",
        };
        fixed.to_string()
    }

    /// The column a header names (`None` for a name no run writes).
    pub fn parse(name: &str) -> Option<Column> {
        if let Some(opponent) = name.strip_prefix("vs_") {
            return Some(Column::Versus(opponent.to_string()));
        }
        let named = [
            Column::OptimalRate,
            Column::UnbeatableFirst,
            Column::UnbeatableSecond,
            Column::Pegs,
            Column::Island,
        ];
        Column::FIXED
            .into_iter()
            .chain(named)
            .find(|c| c.name() == name)
    }

    /// A share from 0 to 1 measured against fixed opponents or the solver:
    /// what the plots draw in the benchmark panel.
    pub fn is_share(&self) -> bool {
        matches!(self, Column::Versus(_) | Column::OptimalRate)
    }
}

/// The header of a run's `stats.csv`: the fixed columns, then one per
/// benchmark opponent (`vs_random`, …), for tic-tac-toe and matchsticks the
/// audit's `optimal_rate,unbeatable_first,unbeatable_second` (Connect-Four:
/// the bank's `optimal_rate`), and with `--islands` an `island` column last
/// (a row per island and generation; the benchmark, of the champion of all
/// islands, on island 0's row).
pub(crate) fn header(cfg: &EvolveConfig, abilities: &Abilities) -> String {
    let mut header = STATS_HEADER.to_string();
    for column in bench::columns(cfg, abilities) {
        header.push(',');
        header.push_str(&column);
    }
    if cfg.islands > 1 {
        header.push(',');
        header.push_str(&Column::Island.name());
    }
    header
}

/// What one generation looked like. Checkpoints store rows as JSON, every
/// column by name: a column added later is read from an older file as its
/// default (give it `#[serde(default)]`), so a new column needs no new
/// format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsRow {
    /// The generation.
    pub generation: u64,
    /// Round-robin points of the champion, the mean and the last.
    pub best: u32,
    #[serde(with = "any_float")]
    /// The mean fitness.
    pub mean: f64,
    /// The worst fitness.
    pub worst: u32,
    /// Mean share of differing genes between pairs of a sample of genomes.
    #[serde(with = "any_float")]
    pub diversity: f64,
    /// Seconds in the round-robin.
    #[serde(with = "any_float")]
    pub(crate) tournament_s: f64,
    /// Seconds breeding the next generation.
    #[serde(with = "any_float")]
    pub(crate) breeding_s: f64,
    /// Seconds writing files since the previous row (the checkpoint written
    /// after the previous generation included).
    #[serde(with = "any_float")]
    pub(crate) io_s: f64,
    /// Games the island played in the generation, fitness and self-play
    /// (0 in a row of a run written before the column was).
    #[serde(default)]
    pub games: u64,
    /// Benchmark values in header order; empty when not measured.
    #[serde(with = "any_floats")]
    pub bench: Vec<f64>,
    /// The island the row describes (0 without islands). Not stored in
    /// checkpoints: their rows go island by island within each generation.
    #[serde(skip)]
    pub island: u32,
}

/// A float as JSON holds it, a value JSON has no number for (NaN, ±∞)
/// as its name, so that every row reads back as it was written.
mod any_float {
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(serde::Serialize, Deserialize)]
    #[serde(untagged)]
    pub(super) enum Stored {
        Number(f64),
        Named(String),
    }

    pub(super) fn store(x: f64) -> Stored {
        if x.is_finite() {
            Stored::Number(x)
        } else {
            Stored::Named(x.to_string())
        }
    }

    pub(super) fn read<E: serde::de::Error>(stored: Stored) -> Result<f64, E> {
        match stored {
            Stored::Number(x) => Ok(x),
            Stored::Named(name) => name
                .parse()
                .map_err(|_| E::custom(format!("'{name}' is not a number"))),
        }
    }

    pub(crate) fn serialize<S: Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&store(*x), serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
        read(Stored::deserialize(deserializer)?)
    }
}

/// [`any_float`] for each float of a list.
mod any_floats {
    use super::any_float::{Stored, read, store};
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(xs: &[f64], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(xs.iter().map(|&x| store(x)))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<f64>, D::Error> {
        Vec::<Stored>::deserialize(deserializer)?
            .into_iter()
            .map(read)
            .collect()
    }
}

impl StatsRow {
    /// The row's cells, with `columns` benchmark cells (left empty when
    /// this generation was not measured) and, when `island`, the island.
    pub(crate) fn record(&self, columns: usize, island: bool) -> Vec<String> {
        let mut cells = vec![
            self.generation.to_string(),
            self.best.to_string(),
            format!("{:.3}", self.mean),
            self.worst.to_string(),
            format!("{:.5}", self.diversity),
            format!("{:.6}", self.tournament_s),
            format!("{:.6}", self.breeding_s),
            format!("{:.6}", self.io_s),
            self.games.to_string(),
        ];
        cells.extend((0..columns).map(|i| {
            self.bench
                .get(i)
                .map_or_else(String::new, |v| format!("{v:.4}"))
        }));
        if island {
            cells.push(self.island.to_string());
        }
        cells
    }
}

/// Writes records to `out` as CSV lines.
pub(crate) fn write_records<'a, W: std::io::Write>(
    out: W,
    records: impl IntoIterator<Item = &'a [String]>,
) -> std::io::Result<()> {
    let mut writer = csv::WriterBuilder::new().flexible(true).from_writer(out);
    for record in records {
        writer.write_record(record)?;
    }
    writer.flush()
}

/// A `stats.csv` read back: its columns and, per generation, a number or
/// nothing in each.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsTable {
    /// The header's column names.
    pub columns: Vec<String>,
    /// Each row's cells (`None`: not measured that generation).
    pub rows: Vec<Vec<Option<f64>>>,
}

/// Why a `stats.csv` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    #[error("cannot read stats.csv ({0}); is this a run directory?")]
    /// The file could not be read.
    Unreadable(std::io::Error),
    #[error("stats.csv is empty")]
    /// The file has no header.
    Empty,
    #[error("stats.csv does not start with a generation column")]
    /// The first column is not `generation`.
    NoGeneration,
    #[error("stats.csv line {line}: {found} cells, expected {expected}")]
    /// A row has another number of cells than the header.
    Cells {
        /// The line, 1-based.
        line: u64,
        /// Cells found.
        found: usize,
        /// Cells in the header.
        expected: usize,
    },
    #[error("stats.csv line {line}: {error}")]
    /// A row that does not read as CSV.
    Malformed {
        /// The line, 1-based.
        line: u64,
        /// What is wrong.
        error: csv::Error,
    },
}

impl StatsTable {
    /// Generations recorded: one more than the last row's generation (a run
    /// of islands has a row per island and generation), 0 without rows.
    pub fn generations(&self) -> usize {
        self.rows
            .last()
            .and_then(|r| r[0])
            .map_or(0, |g| g as usize + 1)
    }

    /// Reads `path`.
    pub fn read(path: &Path) -> Result<StatsTable, StatsError> {
        let file = crate::store::open_regular(path)
            .map_err(|e| StatsError::Unreadable(std::io::Error::other(e.problem)))?;
        StatsTable::from_reader(file)
    }

    /// Reads a `stats.csv` from `source` (a file the caller opened and
    /// bounded as it needs).
    pub(crate) fn from_reader(source: impl std::io::Read) -> Result<StatsTable, StatsError> {
        StatsTable::thinned(source, usize::MAX)
    }

    /// `StatsTable::from_reader`, keeping at most about `most` rows
    /// while it reads (never more than twice that in memory): the rows of
    /// every `stride`-th generation, the stride doubling whenever the rows
    /// kept pass `2 × most`, and the rows of the last generation. A run of
    /// islands keeps all islands of each generation it keeps. The rows'
    /// generation cells say which were kept.
    pub fn thinned(source: impl std::io::Read, most: usize) -> Result<StatsTable, StatsError> {
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(source);
        let columns: Vec<String> = match reader.headers() {
            Ok(h) if h.is_empty() => return Err(StatsError::Empty),
            Ok(h) => h.iter().map(str::to_string).collect(),
            Err(e) => return Err(StatsError::Malformed { line: 1, error: e }),
        };
        if columns.first().map(String::as_str) != Some(&*Column::Generation.name()) {
            return Err(StatsError::NoGeneration);
        }
        let mut rows: Vec<Vec<Option<f64>>> = Vec::new();
        // The rows of the newest generation read, kept apart until the end
        // (the last generation is always kept), and the stride.
        let mut newest: Vec<Vec<Option<f64>>> = Vec::new();
        let mut stride = 1u64;
        let generation = |row: &[Option<f64>]| row[0].map_or(0, |g| g as u64);
        for record in reader.records() {
            if crate::budget::spent() {
                // Cut short (the server's client left): the caller's
                // `budget::within` drops this partial table.
                break;
            }
            let record = record.map_err(|e| StatsError::Malformed {
                line: e.position().map_or(0, |p| p.line()),
                error: e,
            })?;
            let line = record.position().map_or(0, |p| p.line());
            let cells: Vec<Option<f64>> = record.iter().map(|c| c.parse().ok()).collect();
            if cells.len() != columns.len() || cells[0].is_none() {
                return Err(StatsError::Cells {
                    line,
                    found: cells.len(),
                    expected: columns.len(),
                });
            }
            if newest
                .first()
                .is_some_and(|n| generation(n) != generation(&cells))
            {
                rows.extend(
                    newest
                        .drain(..)
                        .filter(|r| generation(r).is_multiple_of(stride)),
                );
                while rows.len() > most.saturating_mul(2) && stride < 1 << 40 {
                    stride *= 2;
                    rows.retain(|r| generation(r).is_multiple_of(stride));
                }
            }
            newest.push(cells);
        }
        rows.append(&mut newest);
        Ok(StatsTable { columns, rows })
    }

    /// The `stats.csv` of a run directory.
    pub fn path_in(run: &Path) -> PathBuf {
        run.join(crate::store::run_files::STATS_CSV)
    }
}

/// Genomes sampled for the diversity measure.
const SAMPLE_GENOMES: usize = 8;
/// Gene positions compared at most per pair.
const SAMPLE_GENES: usize = 65_536;

/// How many of the bytes at the same place in `a` and `b` differ: counted
/// in runs of 255 into a byte (which the compiler turns into byte-wide
/// vector compares and adds), then widened.
fn differing_bytes(a: &[u8], b: &[u8]) -> usize {
    a.chunks(255)
        .zip(b.chunks(255))
        .map(|(a, b)| a.iter().zip(b).fold(0u8, |n, (x, y)| n + u8::from(x != y)) as usize)
        .sum()
}

/// Mean pairwise share of differing genes over up to 8 evenly spaced genomes,
/// on the genes play can consult (`active`, all when `None`) sampled evenly
/// to at most 65,536: 0 when all are equal.
pub fn diversity(pop: &Population, active: Option<&[u32]>) -> f64 {
    let n = pop.size();
    let picks: Vec<usize> = (0..SAMPLE_GENOMES.min(n))
        .map(|k| k * n / SAMPLE_GENOMES.min(n))
        .collect();
    let positions: Vec<usize> = match active {
        Some(a) => {
            let stride = a.len().div_ceil(SAMPLE_GENES).max(1);
            a.iter().step_by(stride).map(|&i| i as usize).collect()
        }
        None => {
            let stride = pop.gene_count().div_ceil(SAMPLE_GENES).max(1);
            (0..pop.gene_count()).step_by(stride).collect()
        }
    };
    let pairs: Vec<(usize, usize)> = (0..picks.len())
        .flat_map(|i| (i + 1..picks.len()).map(move |j| (i, j)))
        .collect();
    if pairs.is_empty() {
        return 0.0;
    }
    // Each sampled genome's compared genes gathered once into a row of
    // their own, so that a pair's comparison runs over two contiguous
    // rows (the compiler vectorises it) instead of gathering both
    // genomes' genes again for each of the pairs a genome is in.
    let rows: Vec<Vec<u8>> = picks
        .par_iter()
        .map(|&g| {
            let genes = pop.genome(g);
            positions.iter().map(|&k| genes[k]).collect()
        })
        .collect();
    // The pairs are compared in parallel and summed in pair order, so the
    // figure does not depend on the thread count.
    let differing: Vec<usize> = pairs
        .par_iter()
        .map(|&(a, b)| differing_bytes(&rows[a], &rows[b]))
        .collect();
    let total: f64 = differing.iter().fold(0.0, |total, &d| {
        total + d as f64 / positions.len().max(1) as f64
    });
    total / pairs.len() as f64
}

#[cfg(test)]
mod tests {
    #[test]
    fn differing_bytes_counts_past_a_byte_s_range() {
        use super::differing_bytes;
        // Runs of 255 and a remainder, every byte differing, none, and
        // one in three.
        let a = vec![1u8; 1_000];
        assert_eq!(differing_bytes(&a, &vec![2u8; 1_000]), 1_000);
        assert_eq!(differing_bytes(&a, &a), 0);
        let b: Vec<u8> = (0..1_000).map(|i| if i % 3 == 0 { 9 } else { 1 }).collect();
        assert_eq!(differing_bytes(&a, &b), 334);
        assert_eq!(differing_bytes(&[], &[]), 0);
    }

    #[test]
    fn a_thinned_table_keeps_whole_generations_and_the_last() {
        use super::StatsTable;
        // 1,001 generations of two islands.
        let mut csv = String::from("generation,island,best\n");
        for g in 0..=1000 {
            for i in 0..2 {
                csv.push_str(&format!("{g},{i},{}\n", g * 2 + i));
            }
        }
        let whole = StatsTable::from_reader(csv.as_bytes()).unwrap();
        assert_eq!(whole.rows.len(), 2002);
        let thin = StatsTable::thinned(csv.as_bytes(), 100).unwrap();
        assert!(thin.rows.len() <= 2 * 100 + 2, "{} rows", thin.rows.len());
        assert!(thin.rows.len() >= 100, "{} rows", thin.rows.len());
        assert_eq!(thin.generations(), 1001, "the last generation is kept");
        let gens: Vec<u64> = thin.rows.iter().map(|r| r[0].unwrap() as u64).collect();
        // Every generation kept has both islands, in order, and the kept
        // generations are evenly spaced (plus the last).
        for pair in thin.rows.chunks(2) {
            assert_eq!(pair[0][0], pair[1][0]);
            assert_eq!((pair[0][1], pair[1][1]), (Some(0.0), Some(1.0)));
        }
        let stride = gens[2] - gens[0];
        assert!(stride.is_power_of_two() && stride > 1, "stride {stride}");
        assert!(
            gens[..gens.len() - 2]
                .iter()
                .all(|g| g.is_multiple_of(stride))
        );
        assert_eq!(
            thin.rows,
            whole
                .rows
                .iter()
                .filter(|r| {
                    let g = r[0].unwrap() as u64;
                    g.is_multiple_of(stride) || g == 1000
                })
                .cloned()
                .collect::<Vec<_>>()
        );
    }

    use super::*;

    #[test]
    fn columns_are_named_and_read_back() {
        let fixed: Vec<String> = Column::FIXED.iter().map(Column::name).collect();
        assert_eq!(fixed.join(","), STATS_HEADER);
        for c in Column::FIXED.into_iter().chain([
            Column::Versus("mc:50".into()),
            Column::OptimalRate,
            Column::UnbeatableFirst,
            Column::UnbeatableSecond,
            Column::Pegs,
            Column::Island,
        ]) {
            assert_eq!(Column::parse(&c.name()), Some(c));
        }
        assert_eq!(
            Column::parse("vs_random"),
            Some(Column::Versus("random".into()))
        );
        assert_eq!(Column::parse("nonsense"), None);
        assert!(Column::OptimalRate.is_share() && !Column::Pegs.is_share());
    }

    #[test]
    fn rows_written_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.csv");
        let header: Vec<String> = format!("{STATS_HEADER},vs_random")
            .split(',')
            .map(str::to_string)
            .collect();
        let row = |generation, bench: Vec<f64>| StatsRow {
            generation,
            best: 7,
            mean: 3.25,
            worst: 1,
            diversity: 0.5,
            tournament_s: 0.001,
            breeding_s: 0.002,
            io_s: 0.0,
            games: 1200,
            bench,
            island: 0,
        };
        let rows = [row(0, vec![0.75]), row(1, Vec::new())];
        let records: Vec<Vec<String>> = std::iter::once(header.clone())
            .chain(rows.iter().map(|r| r.record(1, false)))
            .collect();
        let file = std::fs::File::create(&path).unwrap();
        write_records(file, records.iter().map(Vec::as_slice)).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.lines().nth(1),
            Some("0,7,3.250,1,0.50000,0.001000,0.002000,0.000000,1200,0.7500")
        );
        let table = StatsTable::read(&path).unwrap();
        assert_eq!(table.columns, header);
        assert_eq!(table.rows[0][8], Some(1200.0));
        assert_eq!(table.rows[0][9], Some(0.75));
        assert_eq!(table.rows[1][9], None);
        assert_eq!(table.rows[1][0], Some(1.0));
        std::fs::write(&path, format!("{}\n1,2\n", header.join(","))).unwrap();
        let err = StatsTable::read(&path).unwrap_err().to_string();
        assert_eq!(err, "stats.csv line 2: 2 cells, expected 10");
    }

    #[test]
    fn identical_genomes_have_no_diversity_and_disjoint_ones_full() {
        let same = Population::from_genes(vec![3u8; 40], 10);
        assert_eq!(diversity(&same, None), 0.0);
        let genes: Vec<u8> = (0..4u8).flat_map(|g| vec![g; 10]).collect();
        let pop = Population::from_genes(genes, 10);
        assert_eq!(diversity(&pop, None), 1.0);
        assert_eq!(diversity(&pop, Some(&[2, 5])), 1.0);
    }
}
