//! A league's ratings: every pair of players has played a match; a
//! Bradley–Terry model fitted to the results ranks them on the Elo scale.
//!
//! Player *i*'s strength is `p_i`; it beats *j* with probability
//! `p_i / (p_i + p_j)`. A draw counts as half a win for each side, and
//! every pair gets one virtual draw, so that a player who wins every game
//! still has a finite rating (the prior BayesElo uses too). The strengths
//! are fitted by Hunter's minorisation–maximisation iteration (Hunter 2004,
//! "MM algorithms for generalized Bradley–Terry models"); a rating is
//! `400 · log10(p_i)` with the ratings' mean at 0, so a difference of 400
//! means odds of 10 to 1. A rating's 95% interval is ±1.96 standard errors
//! from the fit's Fisher information (the inverse of the log-likelihood's
//! curvature, with the mean held at 0).

/// One pair's results, from the first player's side: `i` against `j`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairResult {
    /// The first player's index.
    pub i: usize,
    /// The second player's index.
    pub j: usize,
    /// Games the first player won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first player lost.
    pub losses: u64,
}

/// A player's place in the league.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo-scale rating, the league's mean at 0.
    pub rating: f64,
    /// The 95% interval's ends.
    pub low: f64,
    /// The 95% interval's upper end.
    pub high: f64,
    /// Games played, and the share of points won (a draw half).
    pub games: u64,
    /// The share of points won, a draw half.
    pub score: f64,
}

/// Elo points per unit of natural log strength: 400 / ln 10.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The ratings of `players` players from their pairs' results (each pair
/// at most once; a player in no pair gets a rating from the virtual draws
/// alone).
pub fn ratings(players: usize, pairs: &[PairResult]) -> Vec<Rating> {
    let n = players;
    if n == 0 {
        return Vec::new();
    }
    // points[i][j]: i's points against j, virtual draw included;
    // games[i][j]: games between them, virtual one included.
    let mut points = vec![vec![0.0f64; n]; n];
    let mut games = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                points[i][j] = 0.5;
                games[i][j] = 1.0;
            }
        }
    }
    let (mut played, mut scored) = (vec![0u64; n], vec![0.0f64; n]);
    for r in pairs {
        let total = r.wins + r.draws + r.losses;
        let half = r.draws as f64 / 2.0;
        points[r.i][r.j] += r.wins as f64 + half;
        points[r.j][r.i] += r.losses as f64 + half;
        games[r.i][r.j] += total as f64;
        games[r.j][r.i] += total as f64;
        played[r.i] += total;
        played[r.j] += total;
        scored[r.i] += r.wins as f64 + half;
        scored[r.j] += r.losses as f64 + half;
    }
    let won: Vec<f64> = (0..n).map(|i| points[i].iter().sum()).collect();
    let mut p = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut next: Vec<f64> = (0..n)
            .map(|i| {
                let denominator: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| games[i][j] / (p[i] + p[j]))
                    .sum();
                if denominator > 0.0 {
                    won[i] / denominator
                } else {
                    1.0
                }
            })
            .collect();
        // Geometric mean 1: the ratings' mean is 0.
        let mean_log = next.iter().map(|x| x.ln()).sum::<f64>() / n as f64;
        for x in &mut next {
            *x /= mean_log.exp();
        }
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    let spread = standard_errors(&p, &games);
    (0..n)
        .map(|i| {
            let rating = ELO * p[i].ln();
            let half = 1.96 * ELO * spread[i];
            Rating {
                rating,
                low: rating - half,
                high: rating + half,
                games: played[i],
                score: if played[i] == 0 {
                    0.0
                } else {
                    scored[i] / played[i] as f64
                },
            }
        })
        .collect()
}

/// The standard errors of the log strengths: the diagonal of the inverse
/// of the Fisher information, a graph Laplacian with weights
/// `n_ij π_ij (1 − π_ij)`, taken with the mean held at 0 (its
/// pseudo-inverse: `(L + J/n)⁻¹ − J/n`).
fn standard_errors(p: &[f64], games: &[Vec<f64>]) -> Vec<f64> {
    let n = p.len();
    let mut m = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let pi = p[i] / (p[i] + p[j]);
                let w = games[i][j] * pi * (1.0 - pi);
                m[i][j] -= w;
                m[i][i] += w;
            }
        }
    }
    let share = 1.0 / n as f64;
    for row in &mut m {
        for x in row.iter_mut() {
            *x += share;
        }
    }
    match inverse(m) {
        Some(inv) => (0..n)
            .map(|i| (inv[i][i] - share).max(0.0).sqrt())
            .collect(),
        None => vec![f64::INFINITY; n],
    }
}

/// Gauss–Jordan inversion with partial pivoting; `None` when singular.
fn inverse(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..n {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(i: usize, j: usize, wins: u64, draws: u64, losses: u64) -> PairResult {
        PairResult {
            i,
            j,
            wins,
            draws,
            losses,
        }
    }

    /// Two players: the fit is the closed form, the odds of the points
    /// won (virtual draw included) on the Elo scale, split around 0.
    #[test]
    fn two_players_rate_as_their_odds() {
        let r = ratings(2, &[pair(0, 1, 75, 0, 25)]);
        // Points 75.5 to 25.5 over 101 games.
        let gap = 400.0 * (75.5f64 / 25.5).log10();
        assert!((r[0].rating - r[1].rating - gap).abs() < 1e-6, "{r:?}");
        assert!((r[0].rating + r[1].rating).abs() < 1e-9);
        assert_eq!((r[0].games, r[1].games), (100, 100));
        assert!((r[0].score - 0.75).abs() < 1e-12);
        // The interval: the log-odds' standard error 1/sqrt(n p (1-p)),
        // shared by the two (each carries half of the gap's variance).
        let pi: f64 = 75.5 / 101.0;
        let se_gap = 1.0 / (101.0 * pi * (1.0 - pi)).sqrt();
        let half = 1.96 * ELO * se_gap / 2.0;
        assert!(
            (r[0].high - r[0].rating - half).abs() < 1e-6,
            "{r:?} {half}"
        );
    }

    /// Equal results rate equal; a clean sweep stays finite; more games
    /// narrow the interval.
    #[test]
    fn draws_sweeps_and_more_games() {
        let even = ratings(
            3,
            &[
                pair(0, 1, 0, 10, 0),
                pair(1, 2, 5, 0, 5),
                pair(0, 2, 3, 4, 3),
            ],
        );
        for r in &even {
            assert!(r.rating.abs() < 1e-6, "{even:?}");
        }
        let sweep = ratings(2, &[pair(0, 1, 100, 0, 0)]);
        assert!(
            sweep[0].rating.is_finite() && sweep[0].rating > 300.0,
            "{sweep:?}"
        );
        let few = ratings(2, &[pair(0, 1, 6, 0, 4)]);
        let many = ratings(2, &[pair(0, 1, 600, 0, 400)]);
        assert!(many[0].high - many[0].low < (few[0].high - few[0].low) / 5.0);
    }

    /// A transitive league ranks in order: A beats B beats C.
    #[test]
    fn a_transitive_league_ranks_in_order() {
        let r = ratings(
            3,
            &[
                pair(0, 1, 70, 0, 30),
                pair(1, 2, 70, 0, 30),
                pair(0, 2, 85, 0, 15),
            ],
        );
        assert!(
            r[0].rating > r[1].rating && r[1].rating > r[2].rating,
            "{r:?}"
        );
    }
}
