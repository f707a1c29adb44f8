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
use plotters::coord::Shift;
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
}

/// Parameters that never tell runs apart in a legend.
const IGNORED_PARAMS: [&str; 4] = ["bebete_version", "threads", "checkpoint_every", "keep"];

impl RunStats {
    /// Reads `dir/stats.csv` and `dir/run.toml`.
    pub fn load(dir: &Path) -> Result<RunStats, PlotError> {
        let fail = |reason: String| PlotError::Run {
            path: dir.to_path_buf(),
            reason,
        };
        let table = StatsTable::read(&StatsTable::path_in(dir)).map_err(|e| fail(e.to_string()))?;
        let params = std::fs::read_to_string(dir.join(run_files::RUN_TOML))
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
            .unwrap_or_default();
        let StatsTable { columns, rows } = table;
        if rows.is_empty() {
            return Err(fail("stats.csv has no generations yet".into()));
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
const MAX_LABEL: usize = 32;

/// Legend labels: the parameters in which the runs differ (or the run name).
fn labels(runs: &[RunStats]) -> Vec<String> {
    // Every run's parameters: one that only some runs have tells them apart.
    let keys: std::collections::BTreeSet<&String> = runs
        .iter()
        .flat_map(|r| r.params.keys())
        .filter(|k| !IGNORED_PARAMS.contains(&k.as_str()))
        .collect();
    let by_params: Vec<String> = runs
        .iter()
        .map(|run| {
            keys.iter()
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
    let runs: Vec<RunStats> = dirs
        .iter()
        .map(|d| RunStats::load(d).map(RunStats::by_island))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    if let Some(other) = runs
        .iter()
        .find(|r| r.param("game") != runs[0].param("game"))
    {
        return Err(PlotError::Run {
            path: dirs[0].clone(),
            reason: format!(
                "a {} run, and {} is a {} run: overlay runs of one game",
                runs[0].param("game"),
                other.name,
                other.param("game")
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

/// The same panels as [`render`], as an SVG document in memory (the run
/// pages of `bebete serve`).
pub fn render_svg(dirs: &[PathBuf]) -> Result<String, PlotError> {
    let runs = load_runs(dirs)?;
    let mut svg = String::new();
    draw(
        SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(),
        &runs,
    )
    .map_err(|reason| PlotError::Draw {
        path: dirs[0].clone(),
        reason,
    })?;
    Ok(svg)
}

type Panel<'a, DB> = DrawingArea<DB, Shift>;

/// One curve: its run (index), column name, points and shade (0-1).
struct Curve {
    run: usize,
    column: String,
    points: Vec<(f64, f64)>,
    shade: f64,
    /// A colour of its own (the palette's index), instead of its run's.
    hue: Option<usize>,
}

/// Colours that read on white (no yellow): a curve each for one run, a run
/// each for several.
const COLOURS: [RGBColor; 6] = [
    RGBColor(200, 30, 50),
    RGBColor(30, 90, 200),
    RGBColor(80, 80, 80),
    RGBColor(220, 120, 0),
    RGBColor(30, 140, 60),
    RGBColor(140, 50, 170),
];

/// Above this many points a curve is drawn binned: per bin a band from the
/// lowest to the highest value and a line through the means.
const MAX_POINTS: usize = 1_500;

/// (x, min, mean, max) of each of `bins` equal runs of `points`.
fn binned(points: &[(f64, f64)], bins: usize) -> Vec<(f64, f64, f64, f64)> {
    let per = points.len().div_ceil(bins.max(1)).max(1);
    points
        .chunks(per)
        .map(|chunk| {
            let n = chunk.len() as f64;
            let x = chunk.iter().map(|p| p.0).sum::<f64>() / n;
            let ys = chunk.iter().map(|p| p.1);
            let min = ys.clone().fold(f64::INFINITY, f64::min);
            let max = ys.clone().fold(f64::NEG_INFINITY, f64::max);
            (x, min, ys.sum::<f64>() / n, max)
        })
        .collect()
}

fn draw<DB: DrawingBackend>(root: Panel<'_, DB>, runs: &[RunStats]) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(&title(runs), ("sans-serif", 30)).map_err(err)?;
    let labels = labels(runs);
    let max_gen = runs
        .iter()
        .flat_map(|r| r.rows.iter().filter_map(|row| row[0]))
        .fold(1.0f64, f64::max);
    // Fitness, the benchmark when any run has one, diversity: one panel
    // each, top to bottom.
    let has_bench = runs.iter().any(|r| !r.bench_columns().is_empty());
    let mut contents = vec![fitness_panel(runs)];
    if has_bench {
        contents.push(bench_panel(runs));
    }
    contents.push(diversity_panel(runs));
    // Diversity, usually a flat line near 0 after the first generations,
    // gets half the height of the others.
    let weights: Vec<u32> = contents
        .iter()
        .map(|(spec, _)| if spec.y_desc == "diversity" { 1 } else { 2 })
        .collect();
    let total: u32 = weights.iter().sum();
    let height = root.dim_in_pixel().1;
    let breaks: Vec<i32> = weights[..weights.len() - 1]
        .iter()
        .scan(0, |acc, w| {
            *acc += w;
            Some((height * *acc / total) as i32)
        })
        .collect();
    let panels = root.split_by_breakpoints([] as [i32; 0], breaks);
    for (panel, (spec, series)) in panels.iter().zip(contents) {
        line_panel(panel, spec, max_gen, &series, &labels)?;
    }
    root.present().map_err(err)
}

/// The game, the population, and how many runs or islands are drawn.
fn title(runs: &[RunStats]) -> String {
    let first = &runs[0];
    let population = first.param("population");
    format!(
        "{}, population {}{}",
        first.param("game"),
        population,
        match runs.len() {
            1 => String::new(),
            n if runs
                .iter()
                .all(|r| r.params.contains_key(&Column::Island.name())) =>
            {
                let per_run = runs
                    .iter()
                    .filter(|r| r.param(&Column::Island.name()) == "0")
                    .count();
                if per_run == 1 {
                    format!(" per island ({n} islands)")
                } else {
                    format!(" per island ({n} islands of {per_run} runs)")
                }
            }
            n => format!(" ({n} runs)"),
        }
    )
}

/// Points: best, mean, worst. Runs whose fitness differs (round-robin
/// points against a million for the exhaustive fitness, say) are each
/// scaled to their own highest best, and the axis says so. The
/// round-robin's mean is constant (every game gives out 2 points), so it
/// is left out.
fn fitness_panel(runs: &[RunStats]) -> (PanelSpec<'static>, Vec<Curve>) {
    let first = &runs[0];
    let scales: Vec<f64> = runs
        .iter()
        .map(|r| {
            r.series(&Column::Best.name())
                .iter()
                .map(|p| p.1)
                .fold(1.0f64, f64::max)
        })
        .collect();
    let rescale = runs
        .iter()
        .any(|r| r.param("fitness") != first.param("fitness"));
    let series: Vec<Curve> = runs
        .iter()
        .enumerate()
        .flat_map(|(i, run)| {
            let round_robin = run.param("fitness") == "round-robin";
            let scale = if rescale { scales[i] } else { 1.0 };
            [
                (Column::Best, 1.0),
                (Column::Mean, 0.6),
                (Column::Worst, 0.35),
            ]
            .into_iter()
            .filter(move |(col, _)| !(round_robin && *col == Column::Mean))
            .map(move |(col, shade)| Curve {
                run: i,
                column: col.name(),
                points: run
                    .series(&col.name())
                    .into_iter()
                    .map(|(x, y)| (x, y / scale))
                    .collect(),
                shade,
                hue: None,
            })
        })
        .collect();
    // The axis spans the data (best, mean and worst are close together
    // late in a run; from 0 they would share one thin band).
    let (low, high) = series
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
    let (low, high) = if low.is_finite() {
        (low, high)
    } else {
        (0.0, 1.0)
    };
    let pad = ((high - low) * 0.05).max(high.abs() * 1e-3).max(1e-9);
    (
        PanelSpec {
            caption: if rescale {
                "Fitness, each run scaled to its own highest best (the runs' fitness differs)"
            } else if first.param("fitness") == "round-robin" {
                "Fitness points (best, worst; the round-robin mean is constant)"
            } else {
                "Fitness points (best, mean, worst)"
            },
            y_desc: if rescale {
                "share of the run's best"
            } else {
                "points"
            },
            y_range: (low - pad).max(0.0)..high + pad,
            legend: SeriesLabelPosition::LowerRight,
        },
        series,
    )
}

/// The champion's benchmark: scores against fixed opponents and the
/// optimal-move rate, shares from 0 to 1.
fn bench_panel(runs: &[RunStats]) -> (PanelSpec<'static>, Vec<Curve>) {
    let mut series = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let columns = run.bench_columns();
        let count = columns.len().max(1) as f64;
        for (j, col) in columns.into_iter().enumerate() {
            let alpha = 1.0 - 0.6 * j as f64 / count;
            series.push(Curve {
                run: i,
                column: col.to_string(),
                points: run.series(col),
                shade: alpha,
                // Several runs: every curve a hue of its own (shades of
                // one hue are hard to tell apart).
                hue: (runs.len() > 1).then_some(series.len()),
            });
        }
    }
    // Shares from the tenth below the lowest value up to 1 (a plateau near
    // the top stays visible; a curve that starts at 0 keeps the full axis).
    let lowest = series
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.1))
        .fold(1.0f64, f64::min);
    let floor = ((lowest * 10.0).floor() / 10.0).clamp(0.0, 0.9);
    let kind = |c: &Curve| Column::parse(&c.column);
    let audited = series.iter().any(|c| kind(c) == Some(Column::OptimalRate));
    let opposed = series
        .iter()
        .any(|c| matches!(kind(c), Some(Column::Versus(_))));
    (
        PanelSpec {
            caption: match (opposed, audited) {
                (true, true) => {
                    "Champion against fixed opponents (score share) and optimal-move rate"
                }
                (true, false) => "Champion against fixed opponents (score share)",
                // One-player games: no opponents.
                _ => "Champion's optimal-move rate (share of reachable positions)",
            },
            y_desc: "share",
            y_range: floor..1.0 + 0.02 * (1.0 - floor),
            legend: SeriesLabelPosition::LowerRight,
        },
        series,
    )
}

/// Diversity: the share of differing genes.
fn diversity_panel(runs: &[RunStats]) -> (PanelSpec<'static>, Vec<Curve>) {
    let series: Vec<_> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| Curve {
            run: i,
            column: Column::Diversity.name(),
            points: run.series(&Column::Diversity.name()),
            shade: 1.0,
            hue: None,
        })
        .collect();
    (
        PanelSpec {
            caption: "Diversity (share of differing genes)",
            y_desc: "diversity",
            y_range: 0.0..1.02,
            legend: SeriesLabelPosition::UpperRight,
        },
        series,
    )
}

/// An axis label: integers as such, thousands as `k`, shares with up to 2
/// decimals (a zoomed axis steps by 0.05).
fn compact(v: f64) -> String {
    if v.abs() >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let text = format!("{v:.2}");
        text.trim_end_matches('0').to_string()
    }
}

/// The corner of the panel where the legend covers the fewest points (a
/// third of the width, two fifths of the height), `preferred` among equals.
fn quiet_corner(
    series: &[Curve],
    x_max: f64,
    y_range: &std::ops::Range<f64>,
    preferred: SeriesLabelPosition,
) -> SeriesLabelPosition {
    use SeriesLabelPosition::{LowerLeft, LowerRight, UpperLeft, UpperRight};
    let span = (y_range.end - y_range.start).max(1e-12);
    let covered = |corner: &SeriesLabelPosition| {
        let (right, upper) = match corner {
            UpperLeft => (false, true),
            UpperRight => (true, true),
            LowerLeft => (false, false),
            _ => (true, false),
        };
        series
            .iter()
            .flat_map(|c| c.points.iter())
            .filter(|&&(x, y)| {
                let fx = x / x_max;
                let fy = (y - y_range.start) / span;
                (if right { fx > 0.66 } else { fx < 0.34 })
                    && (if upper { fy > 0.6 } else { fy < 0.4 })
            })
            .count()
    };
    let preferred_count = covered(&preferred);
    [LowerRight, UpperRight, UpperLeft, LowerLeft]
        .into_iter()
        .map(|c| (covered(&c), c))
        .filter(|(n, _)| *n < preferred_count)
        .min_by_key(|(n, _)| *n)
        .map_or(preferred, |(_, c)| c)
}

/// What sets one panel apart: its caption, y axis and legend corner.
struct PanelSpec<'a> {
    caption: &'a str,
    y_desc: &'a str,
    y_range: std::ops::Range<f64>,
    legend: SeriesLabelPosition,
}

/// One panel of curves.
fn line_panel<DB: DrawingBackend>(
    area: &Panel<'_, DB>,
    spec: PanelSpec<'_>,
    max_gen: f64,
    series: &[Curve],
    labels: &[String],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let PanelSpec {
        caption,
        y_desc,
        y_range,
        legend,
    } = spec;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..max_gen.max(1.0), y_range.clone())
        .map_err(err)?;
    // Whole generations only: a short run gets one label per generation.
    let x_labels = (max_gen.max(1.0) as usize + 1).min(11);
    chart
        .configure_mesh()
        .x_labels(x_labels)
        .x_desc("generation")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| compact(*v))
        // A short panel (diversity) gets fewer labels.
        .y_labels(if area.dim_in_pixel().1 < 300 { 5 } else { 10 })
        .y_desc(y_desc)
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    let single_run = labels.len() == 1;
    for (k, curve) in series.iter().enumerate() {
        let Curve {
            run,
            column,
            points,
            shade,
            hue,
        } = curve;
        if points.is_empty() {
            continue;
        }
        // One run: a colour per curve. Several: a colour per run, curves shaded.
        let (base, shade) = match hue {
            Some(h) => (COLOURS[h % COLOURS.len()], 1.0),
            None if single_run => (COLOURS[k % COLOURS.len()], 1.0),
            None => (COLOURS[*run % COLOURS.len()], *shade),
        };
        let color = base.mix(shade);
        let label = if single_run {
            column.clone()
        } else {
            format!("{}: {column}", labels[*run])
        };
        let (line, label): (Vec<(f64, f64)>, String) = if points.len() > MAX_POINTS {
            let bins = binned(points, MAX_POINTS / 3);
            let per = points.len().div_ceil(MAX_POINTS / 3);
            let band: Vec<(f64, f64)> = bins
                .iter()
                .map(|b| (b.0, b.3))
                .chain(bins.iter().rev().map(|b| (b.0, b.1)))
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(band, base.mix(0.2).filled())))
                .map_err(err)?;
            (
                bins.iter().map(|b| (b.0, b.2)).collect(),
                format!("{label} (mean per {per} points; band: lowest to highest)"),
            )
        } else {
            (points.clone(), label)
        };
        if line.len() < 3 {
            // Too few points for a line to show: mark each one.
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(line, color.stroke_width(2)))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .position(quiet_corner(series, max_gen.max(1.0), &y_range, legend))
        .draw()
        .map_err(err)
}

#[cfg(test)]
mod tests {
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
    fn fitness_spans_its_data_and_a_high_plateau_of_shares_is_zoomed() {
        let dir = tempfile::tempdir().unwrap();
        let runs = [RunStats::load(&run_dir(dir.path(), "a", 1)).unwrap()];
        // best 250..269, worst 150..131: the axis spans 131..269, padded.
        let (spec, _) = fitness_panel(&runs);
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
