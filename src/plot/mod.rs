//! Fitness curves: one figure, panels sharing the generation axis.
//!
//! Panels: round-robin points (best, mean, worst); the benchmark curves
//! (score share against each fixed opponent, and the audit's optimal-move
//! rate); diversity. Several runs overlay, each labelled by the parameters
//! that set it apart. Text is drawn with the DejaVu Sans font compiled into
//! the binary, so rendering needs no system fonts or libraries.

use crate::evolve::stats::Column;
use crate::evolve::stats::StatsTable;
use crate::store::run_files;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("{path}: {reason}", path = .path.display())]
    Run { path: PathBuf, reason: String },
    #[error("drawing {path}: {reason}", path = .path.display())]
    Draw { path: PathBuf, reason: String },
}

/// One run's `stats.csv` (and the parameters from its `run.toml`).
#[derive(Clone, Debug)]
pub struct RunStats {
    pub name: String,
    pub params: toml::Table,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Option<f64>>>,
    /// The generation whose champion met the run's `--target`, when it did
    /// (from `ended.toml`): marked on the fitness panel.
    pub reached: Option<u64>,
    /// What the first column holds, the x of every curve: the generation
    /// as read, or what [`RunStats::on_axis`] put there.
    pub x: XAxis,
    /// Where the target was met on `x` (the generation, or its x).
    pub reached_at: Option<f64>,
    /// Runs merged by [`banded`]: per row and column the lowest and highest
    /// of the seeds (the rows then hold their means); empty otherwise.
    pub spread: Vec<Vec<Option<(f64, f64)>>>,
}

/// What a plot's x axis counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum XAxis {
    /// Generations (the default).
    #[default]
    Generation,
    /// Games played, fitness and self-play, summed from the start.
    Games,
    /// Seconds evaluating, breeding and writing, summed from the start.
    Time,
}

impl XAxis {
    /// The axis' words under the panels.
    fn words(self) -> &'static str {
        match self {
            XAxis::Generation => "generation",
            XAxis::Games => "games played before the generation (fitness and self-play)",
            XAxis::Time => "seconds (evaluating, breeding, writing)",
        }
    }
}

impl std::str::FromStr for XAxis {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "generation" | "generations" => Ok(XAxis::Generation),
            "games" => Ok(XAxis::Games),
            "time" | "seconds" => Ok(XAxis::Time),
            other => Err(format!("generation, games or time, not '{other}'")),
        }
    }
}

/// How runs are drawn: the x axis, and whether runs that differ only by
/// their seed are drawn as one mean curve in a band.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlotOptions {
    pub x: XAxis,
    pub band: bool,
}

/// Parameters that never tell runs apart in a legend.
const IGNORED_PARAMS: [&str; 4] = ["bebete_version", "threads", "checkpoint_every", "keep"];

impl RunStats {
    /// Reads `dir/stats.csv` and `dir/run.toml`.
    pub fn load(dir: &Path) -> Result<RunStats, PlotError> {
        let table = StatsTable::read(&StatsTable::path_in(dir)).map_err(|e| PlotError::Run {
            path: dir.to_path_buf(),
            reason: e.to_string(),
        })?;
        let params = std::fs::read_to_string(dir.join(run_files::RUN_TOML))
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
            .unwrap_or_default();
        let mut run = RunStats::of(dir, table, params)?;
        run.reached = std::fs::read_to_string(dir.join(run_files::ENDED_TOML))
            .ok()
            .and_then(|text| toml::from_str::<crate::evolve::RunEnded>(&text).ok())
            .and_then(|ended| {
                ended
                    .reason
                    .starts_with("target reached")
                    .then_some(ended.generation)
            });
        Ok(run)
    }

    /// The run in `dir` from its statistics and parameters as already read
    /// (the server reads them from handles it has checked).
    pub fn of(dir: &Path, table: StatsTable, params: toml::Table) -> Result<RunStats, PlotError> {
        let StatsTable { columns, rows } = table;
        if rows.is_empty() {
            return Err(PlotError::Run {
                path: dir.to_path_buf(),
                reason: "stats.csv has no generations yet".into(),
            });
        }
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(RunStats {
            name,
            params,
            columns,
            rows,
            reached: None,
            x: XAxis::Generation,
            reached_at: None,
            spread: Vec::new(),
        })
    }

    /// A run of several islands as one run per island (its rows, named
    /// `NAME island K`, with `island = K` among its parameters, so legends
    /// tell them apart); any other run as it is.
    pub fn by_island(self) -> Vec<RunStats> {
        let island = Column::Island.name();
        let Some(c) = self.columns.iter().position(|x| *x == island) else {
            return vec![self];
        };
        let mut islands: Vec<u64> = self
            .rows
            .iter()
            .filter_map(|r| r[c].map(|v| v as u64))
            .collect();
        islands.sort_unstable();
        islands.dedup();
        islands
            .into_iter()
            .map(|k| {
                let mut params = self.params.clone();
                params.insert(island.clone(), toml::Value::Integer(k as i64));
                RunStats {
                    name: format!("{} island {k}", self.name),
                    reached: self.reached,
                    x: self.x,
                    reached_at: self.reached_at,
                    spread: Vec::new(),
                    params,
                    columns: self.columns.clone(),
                    rows: self
                        .rows
                        .iter()
                        .filter(|r| r[c] == Some(k as f64))
                        .cloned()
                        .collect(),
                }
            })
            .collect()
    }

    /// The run with `x` in its first column: generations stay; games or
    /// seconds are summed row by row from the start (one island's rows).
    pub fn on_axis(mut self, x: XAxis) -> Result<RunStats, PlotError> {
        self.reached_at = self.reached.map(|g| g as f64);
        let summed: Vec<String> = match x {
            XAxis::Generation => return Ok(self),
            XAxis::Games => vec![Column::Games.name()],
            XAxis::Time => [
                Column::TournamentSeconds,
                Column::BreedingSeconds,
                Column::IoSeconds,
            ]
            .iter()
            .map(Column::name)
            .collect(),
        };
        let cells: Vec<usize> = summed
            .iter()
            .filter_map(|name| self.columns.iter().position(|c| c == name))
            .collect();
        if cells.len() < summed.len() {
            return Err(PlotError::Run {
                path: PathBuf::from(&self.name),
                reason: format!(
                    "stats.csv records no {} (a run written by an older bebete): plot it with --x generation",
                    summed.join(", ")
                ),
            });
        }
        let recorded = |row: &Vec<Option<f64>>| cells.iter().any(|&c| row[c].unwrap_or(0.0) > 0.0);
        if !self.rows.iter().any(recorded) {
            return Err(PlotError::Run {
                path: PathBuf::from(&self.name),
                reason: format!(
                    "stats.csv records no {}: this run plays none (its fitness reads positions rather than playing games, and it learns by no self-play); plot it with --x generation or --x time",
                    summed.join(", ")
                ),
            });
        }
        // Games: those played before the row's figures (its genomes learn
        // after their evaluation); seconds: up to the row's end.
        let mut total = 0.0;
        for row in &mut self.rows {
            let own = cells.iter().map(|&c| row[c].unwrap_or(0.0)).sum::<f64>();
            let at = match x {
                XAxis::Games => total,
                _ => total + own,
            };
            total += own;
            if self.reached.is_some_and(|g| row[0] == Some(g as f64)) {
                self.reached_at = Some(at);
            }
            row[0] = Some(at);
        }
        self.x = x;
        Ok(self)
    }

    /// The (x, lowest, highest) of a column over the seeds of a banded
    /// run, where the cell has them; empty for a run of one seed.
    pub fn spread_series(&self, column: &str) -> Vec<(f64, f64, f64)> {
        let Some(c) = self.columns.iter().position(|x| x == column) else {
            return Vec::new();
        };
        self.rows
            .iter()
            .zip(&self.spread)
            .filter_map(|(r, s)| {
                let (lo, hi) = s[c]?;
                Some((r[0]?, lo, hi))
            })
            .collect()
    }

    /// The (generation, value) points of a column, skipping empty cells.
    pub fn series(&self, column: &str) -> Vec<(f64, f64)> {
        let Some(c) = self.columns.iter().position(|x| x == column) else {
            return Vec::new();
        };
        self.rows
            .iter()
            .filter_map(|r| Some((r[0]?, r[c]?)))
            .collect()
    }

    /// The benchmark columns: scores against opponents and the optimal rate.
    fn bench_columns(&self) -> Vec<&str> {
        self.columns
            .iter()
            .map(String::as_str)
            .filter(|c| Column::parse(c).is_some_and(|c| c.is_share()))
            .collect()
    }

    fn param(&self, key: &str) -> String {
        self.params.get(key).map_or_else(
            || "-".to_string(),
            |v| match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            },
        )
    }
}

/// The longest legend label made of parameters; a longer one is replaced by
/// the run's name.
const MAX_LABEL: usize = 48;

/// Legend labels: the parameters in which the runs differ (or the run name).
fn labels(runs: &[RunStats]) -> Vec<String> {
    // Every run's parameters: one that only some runs have tells them apart.
    let keys: std::collections::BTreeSet<&String> = runs
        .iter()
        .flat_map(|r| r.params.keys())
        .filter(|k| !IGNORED_PARAMS.contains(&k.as_str()))
        .collect();
    // The keys in which the runs differ; the seed only when nothing else
    // does (runs of other settings are told apart by those).
    let differing: Vec<&&String> = keys
        .iter()
        .filter(|k| {
            runs.iter()
                .any(|a| runs.iter().any(|b| a.param(k) != b.param(k)))
        })
        .collect();
    let settings_differ = differing.iter().any(|k| k.as_str() != "seed");
    let by = |with_seed: bool| -> Vec<String> {
        runs.iter()
            .map(|run| {
                differing
                    .iter()
                    .filter(|k| with_seed || k.as_str() != "seed")
                    .filter(|k| runs.iter().any(|other| other.param(k) != run.param(k)))
                    .map(|k| match run.param(k).as_str() {
                        "-" => format!("no {k}"),
                        value => format!("{k}={value}"),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    // The seed as well where runs of the same settings would share a label.
    let mut by_params = by(!settings_differ);
    let unique = |labels: &[String]| {
        let mut seen = std::collections::HashSet::new();
        labels.iter().all(|l| seen.insert(l))
    };
    if !unique(&by_params) {
        by_params = by(true);
    }
    // The runs' own names when nothing short tells them all apart.
    let readable = unique(&by_params)
        && by_params
            .iter()
            .all(|l| !l.is_empty() && l.chars().count() <= MAX_LABEL);
    if runs.len() > 1 && readable {
        by_params
    } else {
        runs.iter().map(|r| r.name.clone()).collect()
    }
}

fn register_fonts() {
    static FONTS: Once = Once::new();
    FONTS.call_once(|| {
        // The bytes are a valid TrueType font shipped by the dejavu crate.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

/// The runs in `dirs`, split by island, all of one game.
fn load_runs(dirs: &[PathBuf]) -> Result<Vec<RunStats>, PlotError> {
    let runs = dirs
        .iter()
        .map(|d| RunStats::load(d))
        .collect::<Result<Vec<_>, _>>()?;
    one_game(runs)
}

/// Runs as read, split by island, all of one game (else an error naming
/// the first run's directory).
fn one_game(runs: Vec<RunStats>) -> Result<Vec<RunStats>, PlotError> {
    let first = runs
        .first()
        .map(|r| PathBuf::from(&r.name))
        .unwrap_or_default();
    let runs: Vec<RunStats> = runs.into_iter().flat_map(RunStats::by_island).collect();
    if let Some(other) = runs
        .iter()
        .find(|r| r.param("game") != runs[0].param("game"))
    {
        return Err(PlotError::Run {
            path: first,
            reason: format!(
                "{} run, and {} is {} run: overlay runs of one game",
                crate::store::with_article(&runs[0].param("game")),
                other.name,
                crate::store::with_article(&other.param("game"))
            ),
        });
    }
    register_fonts();
    Ok(runs)
}

/// Runs that differ only by their seed, merged into one run each: per
/// row (the generations all of them reached) the mean of every column,
/// and in `spread` the lowest and highest. Runs of other settings stay
/// apart; a run with no twin stays as it is.
pub fn banded(runs: Vec<RunStats>) -> Vec<RunStats> {
    let mut groups: Vec<Vec<RunStats>> = Vec::new();
    for run in runs {
        let key = |r: &RunStats| {
            let mut params = r.params.clone();
            for ignored in IGNORED_PARAMS.iter().chain(&["seed"]) {
                params.remove(*ignored);
            }
            (params, r.columns.clone())
        };
        match groups.iter_mut().find(|g| key(&g[0]) == key(&run)) {
            Some(group) => group.push(run),
            None => groups.push(vec![run]),
        }
    }
    groups
        .into_iter()
        .map(|mut group| {
            if group.len() == 1 {
                return group.remove(0);
            }
            let seeds: Vec<String> = group.iter().map(|r| r.param("seed")).collect();
            let len = group.iter().map(|r| r.rows.len()).min().unwrap_or(0);
            let width = group[0].columns.len();
            let mut rows = Vec::with_capacity(len);
            let mut spread = Vec::with_capacity(len);
            for i in 0..len {
                let mut row = Vec::with_capacity(width);
                let mut lows_highs = Vec::with_capacity(width);
                for c in 0..width {
                    let values: Vec<f64> = group.iter().filter_map(|r| r.rows[i][c]).collect();
                    if values.is_empty() {
                        row.push(None);
                        lows_highs.push(None);
                        continue;
                    }
                    let mean = values.iter().sum::<f64>() / values.len() as f64;
                    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
                    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    row.push(Some(mean));
                    lows_highs.push(Some((low, high)));
                }
                rows.push(row);
                spread.push(lows_highs);
            }
            let first = group.swap_remove(0);
            let mut params = first.params.clone();
            params.insert("seed".into(), toml::Value::String(seeds.join(",")));
            RunStats {
                name: format!("mean of {} seeds ({})", seeds.len(), seeds.join(", ")),
                params,
                columns: first.columns,
                rows,
                reached: None,
                x: first.x,
                reached_at: None,
                spread,
            }
        })
        .collect()
}

/// The size of every plot, in pixels.
const SIZE: (u32, u32) = (1200, 1200);

/// Renders the runs in `dirs` to `out` (`.svg` for SVG, anything else PNG).
pub fn render(dirs: &[PathBuf], out: &Path) -> Result<(), PlotError> {
    render_with(dirs, out, PlotOptions::default())
}

/// [`render`], with the x axis and the bands of `options`.
pub fn render_with(dirs: &[PathBuf], out: &Path, options: PlotOptions) -> Result<(), PlotError> {
    let runs = load_runs(dirs)?
        .into_iter()
        .map(|run| run.on_axis(options.x))
        .collect::<Result<Vec<_>, _>>()?;
    let runs = if options.band { banded(runs) } else { runs };
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| PlotError::Draw {
            path: out.to_path_buf(),
            reason: e.to_string(),
        })?;
    }
    let result = if out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
    {
        draw(SVGBackend::new(out, SIZE).into_drawing_area(), &runs)
    } else {
        draw(BitMapBackend::new(out, SIZE).into_drawing_area(), &runs)
    };
    result.map_err(|reason| PlotError::Draw {
        path: out.to_path_buf(),
        reason,
    })
}

/// The same panels as [`render`], as an SVG document in memory.
pub fn render_svg(dirs: &[PathBuf]) -> Result<String, PlotError> {
    svg_of(load_runs(dirs)?)
}

/// [`render_svg`] of runs already read (the run pages of `bebete serve`,
/// which read a run's files from handles it has checked).
pub fn render_svg_of(runs: Vec<RunStats>) -> Result<String, PlotError> {
    svg_of(one_game(runs)?)
}

fn svg_of(runs: Vec<RunStats>) -> Result<String, PlotError> {
    let mut svg = String::new();
    draw(
        SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &runs,
    )
    .map_err(|reason| PlotError::Draw {
        path: PathBuf::from(&runs[0].name),
        reason,
    })?;
    Ok(svg)
}

mod draw;
use draw::draw;

#[cfg(test)]
mod tests {
    use super::draw::{bench_panel, binned, compact, fitness_panel, title};
    use super::*;

    /// The x axis: games played before each generation's figures, or
    /// seconds to its end, summed; a run without the column is refused.
    #[test]
    fn curves_run_against_games_or_seconds() {
        let dir = tempfile::tempdir().unwrap();
        let run = RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap();
        let games = run.clone().on_axis(XAxis::Games).unwrap();
        let xs: Vec<f64> = games.series("best").iter().map(|p| p.0).collect();
        assert_eq!(xs[..3], [0.0, 100.0, 200.0]);
        let time = run.on_axis(XAxis::Time).unwrap();
        let last = time.series("best").last().unwrap().0;
        assert!((last - 20.0 * 0.03).abs() < 1e-9, "{last}");
        let old = dir.path().join("old");
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(
            old.join("stats.csv"),
            "generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s\n0,1,1,1,0.5,0.1,0.1,0.1\n",
        )
        .unwrap();
        let err = RunStats::load(&old)
            .unwrap()
            .on_axis(XAxis::Games)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("records no games") && err.contains("--x generation"),
            "{err}"
        );
    }

    /// Runs that differ only by their seed merge into one, its rows the
    /// seeds' means and its spread their lowest and highest; a run of
    /// other settings stays apart.
    #[test]
    fn seeds_merge_into_a_band_and_other_settings_stay_apart() {
        let dir = tempfile::tempdir().unwrap();
        let a = run_dir(dir.path(), "a", 1);
        let b = run_dir(dir.path(), "b", 2);
        let csv = std::fs::read_to_string(b.join("stats.csv")).unwrap();
        // Seed 2's best is 10 points higher in every generation.
        let shifted: String = csv
            .lines()
            .enumerate()
            .map(|(i, line)| {
                if i == 0 {
                    return format!("{line}\n");
                }
                let mut cells: Vec<String> = line.split(',').map(String::from).collect();
                cells[1] = (cells[1].parse::<u32>().unwrap() + 10).to_string();
                cells.join(",") + "\n"
            })
            .collect();
        std::fs::write(b.join("stats.csv"), shifted).unwrap();
        let c = run_dir(dir.path(), "c", 3);
        std::fs::write(
            c.join("run.toml"),
            "game = \"tictactoe\"\nseed = 3\npopulation = 50\nthreads = 2\n",
        )
        .unwrap();
        let runs: Vec<RunStats> = [a, b, c]
            .iter()
            .map(|d| RunStats::load(d).unwrap())
            .collect();
        let merged = banded(runs);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].name, "mean of 2 seeds (1, 2)");
        assert_eq!(merged[0].series("best")[0], (0.0, 255.0));
        assert_eq!(merged[0].spread_series("best")[0], (0.0, 250.0, 260.0));
        assert!(merged[1].spread.is_empty());
    }

    fn run_dir(dir: &Path, name: &str, seed: u64) -> PathBuf {
        let run = dir.join(name);
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(
            run.join("run.toml"),
            format!("game = \"tictactoe\"\nseed = {seed}\npopulation = 100\nthreads = 2\n"),
        )
        .unwrap();
        let mut csv = String::from(
            "generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s,games,vs_random,optimal_rate\n",
        );
        for g in 0..20 {
            let bench = if g % 5 == 0 {
                format!("{:.2},{:.2}", 0.5 + g as f64 / 50.0, 0.6)
            } else {
                ",".into()
            };
            csv.push_str(&format!(
                "{g},{},198,{},0.5,0.01,0.01,0.01,100,{bench}\n",
                250 + g,
                150 - g
            ));
        }
        std::fs::write(run.join("stats.csv"), csv).unwrap();
        run
    }

    #[test]
    fn png_and_svg_are_written_and_look_like_their_formats() {
        let dir = tempfile::tempdir().unwrap();
        let a = run_dir(dir.path(), "a", 1);
        let b = run_dir(dir.path(), "b", 2);
        let png = dir.path().join("out/plot.png");
        render(&[a.clone(), b.clone()], &png).unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let svg = dir.path().join("plot.svg");
        render(&[a, b], &svg).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.contains("seed=1") && text.contains("generation"));
    }

    #[test]
    fn long_series_are_binned_into_bands_around_the_means() {
        let points: Vec<(f64, f64)> = (0..1000).map(|g| (g as f64, (g % 10) as f64)).collect();
        let bins = binned(&points, 100);
        assert_eq!(bins.len(), 100);
        assert_eq!(bins[0], (4.5, 0.0, 4.5, 9.0));
        assert!(bins.iter().all(|b| b.1 <= b.2 && b.2 <= b.3));
    }

    #[test]
    fn runs_of_different_games_are_not_overlaid() {
        let dir = tempfile::tempdir().unwrap();
        let a = run_dir(dir.path(), "a", 1);
        let b = run_dir(dir.path(), "b", 2);
        let toml = std::fs::read_to_string(b.join("run.toml")).unwrap();
        std::fs::write(b.join("run.toml"), toml.replace("tictactoe", "connect4")).unwrap();
        let err = render(&[a, b], &dir.path().join("p.png"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("overlay runs of one game"), "{err}");
    }

    #[test]
    fn series_skip_unmeasured_generations_and_labels_name_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let runs = [
            RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap(),
            RunStats::load(&run_dir(dir.path(), "b", 2)).unwrap(),
        ];
        assert_eq!(runs[0].series("vs_random").len(), 4);
        assert_eq!(labels(&runs), ["seed=1", "seed=2"]);
        assert_eq!(labels(&runs[..1]), ["a"]);
        // A parameter one run lacks is "no KEY", not "KEY=-"; a label too
        // long to read is the run's name.
        let mut c = RunStats::load(&run_dir(dir.path(), "c", 1)).unwrap();
        c.params.insert("target".into(), "unbeatable".into());
        assert_eq!(
            labels(&[runs[0].clone(), c.clone()]),
            ["no target", "target=unbeatable"]
        );
        c.params.insert(
            "fitness".into(),
            "vs:random:10+rules:20+alphabeta:2:6".into(),
        );
        assert_eq!(labels(&[runs[0].clone(), c]), ["a", "c"]);
    }

    #[test]
    fn the_title_names_each_population_when_the_runs_differ_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let a = RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap();
        let mut b = RunStats::load(&run_dir(dir.path(), "b", 2)).unwrap();
        assert_eq!(
            title(&[a.clone(), b.clone()]),
            "tictactoe, population 100 (2 runs)"
        );
        b.params.insert("population".into(), 1.into());
        let mut c = b.clone();
        c.params.insert("population".into(), 16.into());
        assert_eq!(
            title(&[a, b, c]),
            "tictactoe, populations 100, 1 and 16 (3 runs)"
        );
    }

    #[test]
    fn fitness_spans_its_data_and_a_high_plateau_of_shares_is_zoomed() {
        let dir = tempfile::tempdir().unwrap();
        let runs = [RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap()];
        // best 250..269, worst 150..131: the axis spans 131..269, padded.
        let (spec, _) = fitness_panel(&runs, &labels(&runs));
        assert!(
            spec.y_range.start > 120.0 && spec.y_range.start < 131.0,
            "{:?}",
            spec.y_range
        );
        assert!(
            spec.y_range.end > 269.0 && spec.y_range.end < 280.0,
            "{:?}",
            spec.y_range
        );
        // Benchmark shares 0.5..0.8: from 0.5, not 0.
        let (spec, _) = bench_panel(&runs);
        assert_eq!(spec.y_range.start, 0.5);
        assert_eq!(compact(0.95), "0.95");
        assert_eq!(compact(0.9), "0.9");
        // A tick a hair off a whole number reads as one ("1", not "1.").
        assert_eq!(compact(0.999_999_9), "1");
    }

    /// Runs of other settings are told apart by those, not by their seeds;
    /// one run's title names it and its seed; a met target is marked.
    #[test]
    fn legends_name_settings_titles_name_the_run_and_a_met_target_is_marked() {
        let dir = tempfile::tempdir().unwrap();
        let a = RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap();
        let mut b = RunStats::load(&run_dir(dir.path(), "b", 2)).unwrap();
        b.params.insert("mutation".into(), 0.01.into());
        assert_eq!(
            labels(&[a.clone(), b.clone()]),
            ["no mutation", "mutation=0.01"]
        );
        // Two runs of the same settings beside another: each named, the
        // seed telling the two apart.
        let c = RunStats::load(&run_dir(dir.path(), "c", 5)).unwrap();
        assert_eq!(
            labels(&[a.clone(), c, b]),
            [
                "no mutation seed=1",
                "no mutation seed=5",
                "mutation=0.01 seed=2"
            ]
        );
        assert_eq!(title(&[a]), "tictactoe, population 100 (run a, seed 1)");
        let reached = run_dir(dir.path(), "r", 3);
        std::fs::write(
            reached.join("ended.toml"),
            "generation = 12\nreason = \"target reached: the champion of generation 12 is unbeatable\"\n",
        )
        .unwrap();
        let run = RunStats::load(&reached).unwrap();
        assert_eq!(run.reached, Some(12));
        let (spec, _) = fitness_panel(&[run], &["r".to_string()]);
        assert_eq!(
            spec.marks,
            [draw::Mark {
                at: 12.0,
                words: "target reached (generation 12)".to_string(),
                run: None
            }]
        );
        let plan = run_dir(dir.path(), "p", 4);
        std::fs::write(
            plan.join("ended.toml"),
            "generation = 19\nreason = \"its plan of 20 generations is done\"\n",
        )
        .unwrap();
        assert_eq!(RunStats::load(&plan).unwrap().reached, None);
    }

    /// A lone learner (population 1) is drawn by its benchmark alone: no
    /// round-robin to score, no population to differ; without a benchmark
    /// its fitness stays.
    #[test]
    fn a_lone_learner_is_drawn_by_its_benchmark() {
        let dir = tempfile::tempdir().unwrap();
        let mut run = RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap();
        let whole = render_svg_of(vec![run.clone()]).unwrap();
        assert!(whole.contains("Fitness points") && whole.contains("Diversity"));
        run.params.insert("population".into(), 1.into());
        let lone = render_svg_of(vec![run.clone()]).unwrap();
        assert!(lone.contains("Champion against fixed opponents"), "{lone}");
        assert!(!lone.contains("Fitness points") && !lone.contains("Diversity"));
        let keep: Vec<bool> = run
            .columns
            .iter()
            .map(|c| !Column::parse(c).is_some_and(|c| c.is_share()))
            .collect();
        let mut i = 0;
        run.columns.retain(|_| (keep[i], i += 1).0);
        for row in &mut run.rows {
            let mut i = 0;
            row.retain(|_| (keep[i], i += 1).0);
        }
        let unmeasured = render_svg_of(vec![run]).unwrap();
        assert!(unmeasured.contains("Fitness points") && !unmeasured.contains("Diversity"));
    }

    #[test]
    fn a_directory_without_stats_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = render(&[dir.path().to_path_buf()], &dir.path().join("x.png"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("stats.csv"), "{err}");
    }
}
