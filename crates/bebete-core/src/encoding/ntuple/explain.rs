//! Why a value genome plays its move: each move's value or searched score,
//! and the tuples that weighed most.

use super::*;

/// A value genome's decision: each legal move's value and the tuples that
/// weighed most in the chosen move's position. Serialises as the fields
/// `explain --json` shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(bound = "")]
pub struct Values<M = u8> {
    /// Each legal move (as written) with the value of the position it
    /// leads to, from the mover's side (−1 lost … +1 won).
    pub(crate) values: Vec<(String, f32)>,
    /// The tuples that weighed most after the chosen move: their cells (as
    /// the game writes them) and weight.
    pub tuples: Vec<TupleWeight>,
    #[serde(skip)]
    /// The move played (`None`: no legal move).
    pub chosen: Option<M>,
    /// The chosen move as written.
    #[serde(skip)]
    pub played: String,
    /// Plies searched (1: the move's own position valued).
    pub(crate) depth: u8,
}

/// One tuple's part in a value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TupleWeight {
    pub(crate) tuple: usize,
    pub(crate) cells: Vec<String>,
    /// Its weight summed over its images (the board's symmetries), from
    /// the mover's side.
    pub(crate) weight: f32,
}

/// The heaviest tuples `explain` lists.
const LISTED_TUPLES: usize = 5;

impl<M: Copy + PartialEq> Values<M> {
    /// The decision of `genes` in `pos` after a search of `depth` plies
    /// (1: the one-ply decision), explained.
    pub(crate) fn of<G: CellBoard<Move = M>>(
        game: &G,
        shape: NTuple,
        genes: &[u8],
        pos: &G::Position,
        depth: u8,
    ) -> Values<M> {
        let mut eval = Evaluator::<G>::new(shape, genes);
        let (values, chosen) = if depth <= 1 {
            // The first of the highest values: the move `best` plays (a win
            // is exact, +1, and no value exceeds it).
            let values = eval.move_values(game, genes, pos);
            let chosen = values
                .iter()
                .fold(None, |best: Option<(M, f32)>, &(m, v)| match best {
                    Some((_, b)) if b >= v => best,
                    _ => Some((m, v)),
                })
                .map(|(m, _)| m);
            (values, chosen)
        } else {
            let searched = eval.searched(game, genes, pos, depth, true);
            let chosen = searched.first().map(|&(m, _)| m);
            // Back in the order of the legal moves.
            let mut moves = Vec::new();
            game.legal_moves(pos, &mut moves);
            let values = moves
                .iter()
                .filter_map(|m| searched.iter().find(|(s, _)| s == m).copied())
                .collect();
            (values, chosen)
        };
        let mover = game.turn(pos);
        let tuples = match chosen {
            Some(mv) => {
                let after = game.play(pos, mv);
                eval.heaviest(game, genes, &after, mover, LISTED_TUPLES)
                    .into_iter()
                    .map(|(t, w)| TupleWeight {
                        tuple: t,
                        cells: eval
                            .cells(t)
                            .iter()
                            .map(|&c| G::cell_name(c as usize))
                            .collect(),
                        weight: sign(mover) * w,
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        Values {
            values: values
                .into_iter()
                .map(|(m, v)| (game.format_move(m), v))
                .collect(),
            tuples,
            chosen,
            played: chosen.map(|m| game.format_move(m)).unwrap_or_default(),
            depth: depth.max(1),
        }
    }
}

impl<M: Copy> Explanation<M> for Values<M> {
    fn consulted(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::empty()
    }

    fn chosen(&self) -> Option<M> {
        self.chosen
    }

    fn summary(&self) -> String {
        let best = self
            .values
            .iter()
            .find(|(m, _)| *m == self.played)
            .map_or(0.0, |(_, v)| *v);
        // What the number means, said where it is shown (`play`, the page).
        let meaning = if best > 1.0 {
            "above +1: a forced win"
        } else if best < -1.0 {
            "below -1: a forced loss"
        } else {
            "from -1 lost to +1 won"
        };
        // Whose: the side that played the move (bebete's, in `play` and on
        // the page).
        match self.depth {
            1 => format!("(value {best:+.2} for bebete, {meaning})"),
            d => format!("(score {best:+.2} for bebete after {d} plies, {meaning})"),
        }
    }

    fn details(&self, played: &str) -> String {
        let mut out = match self.depth {
            1 => String::from("move  value (after it, for the mover: -1 lost, +1 won)\n"),
            d => format!(
                "move  score (searched {d} plies, for the mover: above +1 a forced win, below -1 a forced loss)\n"
            ),
        };
        for (mv, value) in &self.values {
            let mark = if *mv == self.played {
                "  <- played"
            } else {
                ""
            };
            out.push_str(&format!("{mv:>4}  {value:+.3}{mark}\n"));
        }
        out.push_str("heaviest tuples after the move (cells, weight for the mover)\n");
        for t in &self.tuples {
            out.push_str(&format!(
                "  tuple {:>3}  [{}]  {:+.3}\n",
                t.tuple,
                t.cells.join(" "),
                t.weight
            ));
        }
        out.push_str(&match self.depth {
            1 => format!("move {played} (the highest value; a winning move is always taken)\n"),
            _ => format!("move {played} (the highest score)\n"),
        });
        out
    }
}
