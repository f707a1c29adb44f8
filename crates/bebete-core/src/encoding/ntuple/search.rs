//! A value genome's own alpha-beta search (`--lookahead D`): the tables'
//! values at the leaves, wins and losses exact.

use super::*;

/// A won game's score in a search, from the winner's side: above every
/// value the tables can give (they stay within −1..1), and higher the
/// sooner the win.
const WIN: f32 = 2.0;

/// One move of a searched position: where it leads and what it is worth to
/// the side that plays it.
struct Child<P, M> {
    mv: M,
    pos: P,
    /// The tables' value, or the exact score of a finished game.
    score: f32,
    finished: bool,
}

impl<G: CellBoard> Evaluator<G> {
    /// Every legal move with its one-ply score for the side to move, best
    /// first (the order of the moves among equals); a win scores
    /// `WIN + bonus`.
    fn children(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        bonus: f32,
    ) -> Vec<Child<G::Position, G::Move>> {
        let sign = sign(game.turn(pos));
        self.load(game, genes, pos, game.turn(pos));
        let mut moves = std::mem::take(&mut self.moves);
        game.legal_moves(pos, &mut moves);
        let mut kids: Vec<Child<G::Position, G::Move>> = moves
            .iter()
            .map(|&mv| {
                let after = self.afterstate(game, genes, pos, mv);
                let value = sign * after.value;
                Child {
                    mv,
                    pos: after.pos,
                    score: match after.finished {
                        true if value > 0.5 => WIN + bonus,
                        true if value < -0.5 => -(WIN + bonus),
                        _ => value,
                    },
                    finished: after.finished,
                }
            })
            .collect();
        self.moves = moves;
        kids.sort_by(|a, b| b.score.total_cmp(&a.score));
        kids
    }

    /// Negamax with alpha-beta over `depth` plies, the tables' values at
    /// the leaves: the score of `pos` for the side to move.
    fn negamax(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        depth: u8,
        mut alpha: f32,
        beta: f32,
    ) -> f32 {
        if depth >= 2 && crate::budget::spent() {
            return 0.0;
        }
        let kids = self.children(game, genes, pos, depth as f32 * 0.01);
        if depth <= 1 {
            return kids.first().map_or(0.0, |k| k.score);
        }
        let mut best = f32::NEG_INFINITY;
        for kid in &kids {
            let score = if kid.finished {
                kid.score
            } else {
                -self.negamax(game, genes, &kid.pos, depth - 1, -beta, -alpha)
            };
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The moves of `pos` with their scores after a search of `depth`
    /// plies, best first. With `exact` every move's score is its minimax
    /// value; without, only the best move's is (the others are bounds), which
    /// is all that choosing a move needs.
    pub(super) fn searched(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        depth: u8,
        exact: bool,
    ) -> Vec<(G::Move, f32)> {
        let kids = self.children(game, genes, pos, depth as f32 * 0.01);
        let mut alpha = f32::NEG_INFINITY;
        let mut scored: Vec<(G::Move, f32)> = Vec::with_capacity(kids.len());
        for kid in &kids {
            let score = if kid.finished || depth <= 1 {
                kid.score
            } else {
                let floor = if exact { f32::NEG_INFINITY } else { alpha };
                -self.negamax(game, genes, &kid.pos, depth - 1, f32::NEG_INFINITY, -floor)
            };
            alpha = alpha.max(score);
            scored.push((kid.mv, score));
        }
        // The first of the best in the searched order.
        let best = scored
            .iter()
            .enumerate()
            .fold(0, |b, (i, s)| if s.1 > scored[b].1 { i } else { b });
        let top = scored.remove(best);
        scored.insert(0, top);
        scored
    }
}

/// The value genome's move after a search of `depth` plies (alpha-beta,
/// the genome's values at the leaves, wins and losses exact).
pub fn search<G: CellBoard>(
    game: &G,
    shape: NTuple,
    genes: &[u8],
    pos: &G::Position,
    depth: u8,
) -> Option<G::Move> {
    let mut eval = Evaluator::<G>::new(shape, genes);
    eval.searched(game, genes, pos, depth.max(1), false)
        .first()
        .map(|&(mv, _)| mv)
}
