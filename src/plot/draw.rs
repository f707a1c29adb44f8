//! Drawing the figure: the panels (fitness, benchmark, diversity), their
//! curves, axes and legends.

use super::{RunStats, XAxis, labels};
use crate::evolve::stats::Column;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

type Panel<'a, DB> = DrawingArea<DB, Shift>;

/// One curve: its run (index), column name, points and shade (0-1).
pub(super) struct Curve {
    run: usize,
    column: String,
    points: Vec<(f64, f64)>,
    shade: f64,
    /// A colour of its own (the palette's index), instead of its run's.
    hue: Option<usize>,
    /// What the legend calls it, instead of its run's label and column.
    name: Option<String>,
    /// Measured now and then (the benchmark): each point marked, so that a
    /// line between two measures does not read as a trend.
    marked: bool,
    /// The line's pattern: 0 solid, then ever shorter dashes (several runs'
    /// benchmarks: a colour per run, a pattern per opponent).
    dash: usize,
    /// Several seeds merged: (x, lowest, highest), drawn as a band.
    spread: Vec<(f64, f64, f64)>,
}

/// Colours that read on white (no yellow): a curve each for one run, a run
/// each for several.
const COLOURS: [RGBColor; 10] = [
    RGBColor(200, 30, 50),
    RGBColor(30, 90, 200),
    RGBColor(80, 80, 80),
    RGBColor(220, 120, 0),
    RGBColor(30, 140, 60),
    RGBColor(140, 50, 170),
    RGBColor(0, 160, 170),
    RGBColor(140, 90, 40),
    RGBColor(230, 90, 170),
    RGBColor(150, 150, 20),
];

/// The dash patterns after the solid line: (dash, gap) in pixels.
const DASHES: [(u32, u32); 3] = [(8, 5), (3, 4), (12, 3)];

/// A legend's sample of a line drawn with pattern `dash` (0: solid, one
/// dash the sample's whole width).
fn legend_line(
    (x, y): (i32, i32),
    dash: usize,
    style: ShapeStyle,
) -> DashedPathElement<std::vec::IntoIter<(i32, i32)>, u32> {
    let (size, gap) = match dash {
        0 => (20, 0),
        d => DASHES[(d - 1) % DASHES.len()],
    };
    DashedPathElement::new(vec![(x, y), (x + 20, y)], size, gap, style)
}

/// Above this many points a curve is drawn binned: per bin a band from the
/// lowest to the highest value and a line through the means.
const MAX_POINTS: usize = 1_500;

/// Up to this many points a benchmark curve marks each.
const MAX_MARKS: usize = 200;

/// The outline of a band through `(x, low, high)` points: along the highs,
/// then back along the lows.
fn band(points: impl DoubleEndedIterator<Item = (f64, f64, f64)> + Clone) -> Vec<(f64, f64)> {
    points
        .clone()
        .map(|(x, _, high)| (x, high))
        .chain(points.rev().map(|(x, low, _)| (x, low)))
        .collect()
}

/// (x, min, mean, max) of each of `bins` equal runs of `points`.
pub(super) fn binned(points: &[(f64, f64)], bins: usize) -> Vec<(f64, f64, f64, f64)> {
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

pub(super) fn draw<DB: DrawingBackend>(root: Panel<'_, DB>, runs: &[RunStats]) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let mut heading = title(runs);
    if runs.iter().any(|r| !r.spread.is_empty()) {
        heading.push_str("; bands: lowest to highest of the seeds");
    }
    let root = root.titled(&heading, ("sans-serif", 30)).map_err(err)?;
    let labels = labels(runs);
    let max_gen = runs
        .iter()
        .flat_map(|r| r.rows.iter().filter_map(|row| row[0]))
        .fold(1.0f64, f64::max);
    // Fitness, the benchmark when any run has one, diversity: one panel
    // each, top to bottom. A population of one (a lone learner) has no
    // round-robin to score and nothing to differ from: its benchmark is
    // the whole picture.
    let has_bench = runs.iter().any(|r| !r.bench_columns().is_empty());
    let lone = runs.iter().all(|r| r.param("population") == "1");
    let mut contents = Vec::new();
    if !(lone && has_bench) {
        contents.push(fitness_panel(runs, &labels));
    }
    if has_bench {
        contents.push(bench_panel(runs));
    }
    if !lone {
        contents.push(diversity_panel(runs));
    }
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
        line_panel(panel, spec, max_gen, &series, &labels, runs[0].x)?;
    }
    root.present().map_err(err)
}

/// The game, the population (each one, when the runs differ in it), and
/// how many runs or islands are drawn.
pub(super) fn title(runs: &[RunStats]) -> String {
    let first = &runs[0];
    let mut populations: Vec<String> = Vec::new();
    for run in runs {
        let population = run.param("population");
        if !populations.contains(&population) {
            populations.push(population);
        }
    }
    let population = match populations.as_slice() {
        [one] => format!("population {one}"),
        [before @ .., last] => format!("populations {} and {last}", before.join(", ")),
        [] => unreachable!("a plot draws one run at least"),
    };
    format!(
        "{}, {}{}",
        first.param("game"),
        population,
        match runs.len() {
            1 if !first.spread.is_empty() => format!(" ({})", first.name),
            1 => format!(" (run {}, seed {})", first.name, first.param("seed")),
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
pub(super) fn fitness_panel(
    runs: &[RunStats],
    labels: &[String],
) -> (PanelSpec<'static>, Vec<Curve>) {
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
                name: None,
                marked: false,
                dash: 0,
                spread: run
                    .spread_series(&col.name())
                    .into_iter()
                    .map(|(x, lo, hi)| (x, lo / scale, hi / scale))
                    .collect(),
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
            marks: target_marks(runs, labels),
        },
        series,
    )
}

/// Where each run met its target: one mark per run (islands share their
/// run's), in the run's colour when there are several.
fn target_marks(runs: &[RunStats], labels: &[String]) -> Vec<Mark> {
    runs.iter()
        .enumerate()
        .filter_map(|(i, run)| {
            let generation = run.reached?;
            let at = run.reached_at.unwrap_or(generation as f64);
            let words = format!("target reached (generation {generation})");
            Some(match runs.len() {
                1 => Mark {
                    at,
                    words,
                    run: None,
                },
                _ => Mark {
                    at,
                    words: format!("{}: {words}", labels[i]),
                    run: Some(i),
                },
            })
        })
        .collect()
}

/// A dashed vertical line across a panel: where a run met its target.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Mark {
    /// The generation.
    pub(super) at: f64,
    /// The legend's words.
    pub(super) words: String,
    /// Whose it is, when the figure shows several runs (its colour).
    pub(super) run: Option<usize>,
}

/// The champion's benchmark: scores against fixed opponents and the
/// optimal-move rate, shares from 0 to 1.
pub(super) fn bench_panel(runs: &[RunStats]) -> (PanelSpec<'static>, Vec<Curve>) {
    let mut series = Vec::new();
    let island = Column::Island.name();
    for (i, run) in runs.iter().enumerate() {
        let columns = run.bench_columns();
        let count = columns.len().max(1) as f64;
        for (j, col) in columns.into_iter().enumerate() {
            // One run: a colour per opponent. Several: the run's colour,
            // a line pattern per opponent.
            let alpha = if runs.len() > 1 {
                1.0
            } else {
                1.0 - 0.6 * j as f64 / count
            };
            let points = run.series(col);
            // An island run's benchmark is the whole run's champion's,
            // written on the first island's rows.
            let name = (run.params.contains_key(&island) && !points.is_empty())
                .then(|| format!("the run's champion: {col}"));
            series.push(Curve {
                run: i,
                column: col.to_string(),
                points,
                shade: alpha,
                hue: None,
                name,
                marked: true,
                dash: if runs.len() > 1 { j } else { 0 },
                spread: run.spread_series(col),
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
            marks: Vec::new(),
        },
        series,
    )
}

/// Diversity: the share of differing genes.
pub(super) fn diversity_panel(runs: &[RunStats]) -> (PanelSpec<'static>, Vec<Curve>) {
    let series: Vec<_> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| Curve {
            run: i,
            column: Column::Diversity.name(),
            points: run.series(&Column::Diversity.name()),
            shade: 1.0,
            hue: None,
            name: None,
            marked: false,
            dash: 0,
            spread: run.spread_series(&Column::Diversity.name()),
        })
        .collect();
    (
        PanelSpec {
            caption: "Diversity (share of differing genes)",
            y_desc: "diversity",
            y_range: 0.0..1.02,
            legend: SeriesLabelPosition::UpperRight,
            marks: Vec::new(),
        },
        series,
    )
}

/// An axis label: integers as such, thousands as `k`, shares with up to 2
/// decimals (a zoomed axis steps by 0.05).
/// A count or a number of seconds on an axis: 950, 2.4k, 12k, 1.5M.
pub(super) fn count_label(v: f64) -> String {
    let (scaled, unit) = match v.abs() {
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let text = if unit.is_empty() || scaled.abs() >= 10.0 {
        format!("{scaled:.0}")
    } else {
        format!("{scaled:.1}")
    };
    format!("{}{unit}", text.trim_end_matches(".0"))
}

pub(super) fn compact(v: f64) -> String {
    if v.abs() >= 10_000.0 {
        format!("{:.0}k", v / 1000.0)
    } else if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let text = format!("{v:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Pixels for a legend of its own beside the curves, the same in every
/// panel so that their x axes line up: the longest run label with a
/// column's name or a target's words (`target reached (generation 12)`)
/// at about 7 pixels a character, the line sample and margins.
fn legend_width(labels: &[String]) -> u32 {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    ((longest + 32) as u32 * 7 + 40).clamp(200, 460)
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
pub(super) struct PanelSpec<'a> {
    caption: &'a str,
    y_desc: &'a str,
    pub(super) y_range: std::ops::Range<f64>,
    legend: SeriesLabelPosition,
    /// Generations marked by a dashed vertical line: where a run met its
    /// target.
    pub(super) marks: Vec<Mark>,
}

/// One panel of curves.
fn line_panel<DB: DrawingBackend>(
    area: &Panel<'_, DB>,
    spec: PanelSpec<'_>,
    max_gen: f64,
    series: &[Curve],
    labels: &[String],
    x: XAxis,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let PanelSpec {
        caption,
        y_desc,
        y_range,
        legend,
        marks,
    } = spec;
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    // Several runs: the legend gets a column of its own at the right, so
    // that it never covers a curve; one run's legend sits in the corner
    // where it covers the fewest points.
    let single_run = labels.len() == 1;
    let (plot_area, legend_area) = if single_run {
        (area.clone(), None)
    } else {
        let width = area.dim_in_pixel().0;
        let (plot, side) = area.split_horizontally(width.saturating_sub(legend_width(labels)));
        (plot, Some(side))
    };
    let mut entries: Vec<(String, usize, ShapeStyle)> = Vec::new();
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(caption, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..max_gen.max(1.0), y_range.clone())
        .map_err(err)?;
    // Whole generations only: a short run gets one label per generation.
    let x_labels = match x {
        XAxis::Generation => (max_gen.max(1.0) as usize + 1).min(11),
        _ => 11,
    };
    let x_label = |v: &f64| match x {
        XAxis::Generation => format!("{v:.0}"),
        _ => count_label(*v),
    };
    chart
        .configure_mesh()
        .x_labels(x_labels)
        .x_desc(x.words())
        .x_label_formatter(&x_label)
        .y_label_formatter(&|v| compact(*v))
        // A short panel (diversity) gets fewer labels.
        .y_labels(if area.dim_in_pixel().1 < 300 { 5 } else { 10 })
        .y_desc(y_desc)
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    for (k, curve) in series.iter().enumerate() {
        let Curve {
            run,
            column,
            points,
            shade,
            hue,
            name,
            marked,
            dash,
            spread,
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
        let label = match name {
            Some(name) => name.clone(),
            None if single_run => column.clone(),
            None => format!("{}: {column}", labels[*run]),
        };
        if !spread.is_empty() {
            // The seeds' lowest to highest, under their mean.
            let band = band(spread.iter().copied());
            chart
                .draw_series(std::iter::once(Polygon::new(band, base.mix(0.15).filled())))
                .map_err(err)?;
        }
        let (line, label): (Vec<(f64, f64)>, String) = if points.len() > MAX_POINTS {
            let bins = binned(points, MAX_POINTS / 3);
            let per = points.len().div_ceil(MAX_POINTS / 3);
            let band = band(bins.iter().map(|&(x, low, _, high)| (x, low, high)));
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
        if line.len() < 3 || (*marked && line.len() <= MAX_MARKS) {
            // Too few points for a line to show, or measures taken now and
            // then: mark each one.
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(err)?;
        }
        let style = color.stroke_width(2);
        let drawn = match *dash {
            0 => chart.draw_series(LineSeries::new(line, style)),
            d => {
                let (size, gap) = DASHES[(d - 1) % DASHES.len()];
                chart.draw_series(DashedLineSeries::new(line, size, gap, style))
            }
        };
        let drawn = drawn.map_err(err)?;
        if legend_area.is_some() {
            entries.push((label, *dash, style));
        } else {
            drawn
                .label(label)
                .legend(move |(x, y)| legend_line((x, y), *dash, style));
        }
    }
    for Mark { at, words, run } in marks {
        // One run: green; several: the run's colour.
        let colour = run.map_or(COLOURS[4], |r| COLOURS[r % COLOURS.len()]);
        let style = colour.stroke_width(2);
        let dashes = DashedLineSeries::new([(at, y_range.start), (at, y_range.end)], 8, 6, style);
        let drawn = chart.draw_series(dashes).map_err(err)?;
        if legend_area.is_some() {
            entries.push((words, 1, style));
        } else {
            drawn
                .label(words)
                .legend(move |(x, y)| legend_line((x, y), 1, style));
        }
    }
    if let Some(side) = legend_area {
        // Level with the top of the plotting area, below the caption.
        for (i, (text, dash, style)) in entries.into_iter().enumerate() {
            let y = 48 + 17 * i as i32;
            side.draw(&legend_line((4, y), dash, style)).map_err(err)?;
            side.draw(&Text::new(
                text,
                (30, y - 7),
                ("sans-serif", 13).into_font().color(&BLACK),
            ))
            .map_err(err)?;
        }
        return Ok(());
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
