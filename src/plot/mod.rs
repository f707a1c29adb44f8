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
    let by_params: Vec<String> = runs
        .iter()
        .map(|run| {
            differing
                .iter()
                .filter(|k| !(settings_differ && k.as_str() == "seed"))
                .filter(|k| runs.iter().any(|other| other.param(k) != run.param(k)))
                .map(|k| match run.param(k).as_str() {
                    "-" => format!("no {k}"),
                    value => format!("{k}={value}"),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    // The runs' own names when nothing short tells them all apart.
    let readable = by_params
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

/// The size of every plot, in pixels.
const SIZE: (u32, u32) = (1200, 1200);

/// Renders the runs in `dirs` to `out` (`.svg` for SVG, anything else PNG).
pub fn render(dirs: &[PathBuf], out: &Path) -> Result<(), PlotError> {
    let runs = load_runs(dirs)?;
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

    fn run_dir(dir: &Path, name: &str, seed: u64) -> PathBuf {
        let run = dir.join(name);
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(
            run.join("run.toml"),
            format!("game = \"tictactoe\"\nseed = {seed}\npopulation = 100\nthreads = 2\n"),
        )
        .unwrap();
        let mut csv = String::from(
            "generation,best,mean,worst,diversity,tournament_s,breeding_s,io_s,vs_random,optimal_rate\n",
        );
        for g in 0..20 {
            let bench = if g % 5 == 0 {
                format!("{:.2},{:.2}", 0.5 + g as f64 / 50.0, 0.6)
            } else {
                ",".into()
            };
            csv.push_str(&format!(
                "{g},{},198,{},0.5,0.01,0.01,0.01,{bench}\n",
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
        assert_eq!(labels(&[a.clone(), b]), ["no mutation", "mutation=0.01"]);
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

    #[test]
    fn a_directory_without_stats_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let err = render(&[dir.path().to_path_buf()], &dir.path().join("x.png"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("stats.csv"), "{err}");
    }
}
