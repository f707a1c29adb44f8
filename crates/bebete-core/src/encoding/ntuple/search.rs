//! A value genome's own alpha-beta search (`--lookahead D`): the tables'
//! values at the leaves, wins and losses exact.

use super::*;

/// A won game's score in a search, from the winner's side: above every
/// value the tables can give (they stay within −1..1), and higher the
/// sooner the win.
const WIN: f32 = 2.0;

/// Positions a search remembers, at most (about 10 MB); past that, new
/// positions are searched without being stored.
const TABLE_LIMIT: usize = 1 << 18;

/// What a search learnt about a position `depth` plies from its leaves.
#[derive(Clone, Copy)]
pub(super) struct Known {
    depth: u8,
    score: f32,
    bound: Bound,
    /// The best move's place among the position's moves, best first by
    /// their one-ply values.
    best: u8,
}

/// Whether a stored score is the position's value or a bound on it.
#[derive(Clone, Copy)]
enum Bound {
    Exact,
    /// The value is at least the score (the search stopped at a cut).
    Lower,
    /// The value is at most the score (no move reached the window).
    Upper,
}

pub(super) type Table<P> = rustc_hash::FxHashMap<P, Known>;

/// One move of a searched position: where it leads and what it is worth to
/// the side that plays it.
struct Child<P, M> {
    mv: M,
    pos: P,
    /// The tables' value, or the exact score of a finished game.
    score: f32,
    finished: bool,
    /// Where the slots the move changed, with their new indices, lie in
    /// its parent's [`ChildIndices`].
    changes: std::ops::Range<usize>,
}

/// A position's moves, best first.
type Kids<G> = Vec<Child<<G as Game>::Position, <G as Game>::Move>>;

/// A searched position's slot indices, changed in place into each child's
/// (and back), so that a child is not read from scratch; and the changes
/// of all its children, back to back.
struct ChildIndices {
    base: Vec<u32>,
    at: Vec<u32>,
    changes: Vec<(u16, u32)>,
}

impl ChildIndices {
    /// The indices after `kid`'s move.
    fn after<P, M>(&mut self, kid: &Child<P, M>) -> &[u32] {
        for &(slot, index) in &self.changes[kid.changes.clone()] {
            self.at[slot as usize] = index;
        }
        &self.at
    }

    /// Back to the position's own indices.
    fn undo<P, M>(&mut self, kid: &Child<P, M>) {
        for &(slot, _) in &self.changes[kid.changes.clone()] {
            self.at[slot as usize] = self.base[slot as usize];
        }
    }
}

/// A move's one-ply score for the side that plays it (`value`, from its
/// side): a finished game's exact result, a win above every value (by
/// `bonus`, the higher the sooner), or the tables' value.
fn scored(value: f32, finished: bool, bonus: f32) -> f32 {
    match finished {
        true if value > 0.5 => WIN + bonus,
        true if value < -0.5 => -(WIN + bonus),
        _ => value,
    }
}

impl<G: CellBoard> Evaluator<G> {
    /// Loads `pos` for the side to move and lists its moves (in the buffer
    /// the caller gives back to `self.moves`): that side's sign and the moves.
    pub(super) fn open(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        indices: Option<&[u32]>,
    ) -> (f32, Vec<G::Move>) {
        self.load_indexed(game, genes, pos, game.turn(pos), indices);
        let mut moves = std::mem::take(&mut self.moves);
        game.legal_moves(pos, &mut moves);
        (sign(game.turn(pos)), moves)
    }

    /// Every legal move with its one-ply score for the side to move, best
    /// first (the order of the moves among equals); a win scores
    /// `WIN + bonus`; with the indices its children read.
    fn children(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        indices: Option<&[u32]>,
        bonus: f32,
    ) -> (Kids<G>, ChildIndices) {
        let (sign, moves) = self.open(game, genes, pos, indices);
        let mut changes = Vec::new();
        let mut kids: Kids<G> = moves
            .iter()
            .map(|&mv| {
                let after = self.afterstate(game, genes, pos, mv);
                let from = changes.len();
                changes.extend_from_slice(&self.changes);
                Child {
                    mv,
                    pos: after.pos,
                    score: scored(sign * after.value, after.finished, bonus),
                    finished: after.finished,
                    changes: from..changes.len(),
                }
            })
            .collect();
        self.moves = moves;
        kids.sort_by(|a, b| b.score.total_cmp(&a.score));
        let indices = ChildIndices {
            base: self.base.clone(),
            at: self.base.clone(),
            changes,
        };
        (kids, indices)
    }

    /// The best one-ply score of `pos` for the side to move (a position one
    /// ply from the leaves), or the first score at least `beta`: past that,
    /// the position is refuted and no other move can matter. The move that
    /// refuted the last such position is tried first.
    fn frontier(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        indices: Option<&[u32]>,
        beta: f32,
    ) -> f32 {
        let (sign, mut moves) = self.open(game, genes, pos, indices);
        if let Some(at) = moves.iter().position(|&m| Some(m) == self.killer) {
            moves[..=at].rotate_right(1);
        }
        let mut best = if moves.is_empty() {
            0.0
        } else {
            f32::NEG_INFINITY
        };
        for &mv in &moves {
            let after = self.afterstate(game, genes, pos, mv);
            best = best.max(scored(sign * after.value, after.finished, 0.01));
            if best >= beta {
                self.killer = Some(mv);
                break;
            }
        }
        self.moves = moves;
        best
    }

    /// Negamax with alpha-beta over `depth` plies, the tables' values at
    /// the leaves: the score of `pos` for the side to move. Positions at
    /// two plies or more from the leaves go through `table`: a position met
    /// again at the same depth (another move order to it) is answered from
    /// its stored score when that settles the window, and otherwise its
    /// stored best move is tried first. Neither changes a score: the move a
    /// search chooses is the one plain alpha-beta chooses.
    fn negamax(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        indices: Option<&[u32]>,
        depth: u8,
        (mut alpha, beta): (f32, f32),
    ) -> f32 {
        if depth >= 2 && crate::budget::spent() {
            return 0.0;
        }
        let mut first = 0;
        if depth >= 2
            && let Some(known) = self.table.get(pos)
            && known.depth == depth
        {
            match known.bound {
                Bound::Exact => return known.score,
                Bound::Lower if known.score >= beta => return known.score,
                Bound::Upper if known.score <= alpha => return known.score,
                _ => first = known.best,
            }
        }
        if depth <= 1 {
            return self.frontier(game, genes, pos, indices, beta);
        }
        let (kids, mut child) = self.children(game, genes, pos, indices, depth as f32 * 0.01);
        let floor = alpha;
        let mut best = f32::NEG_INFINITY;
        let mut best_at = 0;
        let order = std::iter::once(first as usize)
            .filter(|&i| i < kids.len())
            .chain((0..kids.len()).filter(|&i| i != first as usize));
        for i in order {
            let kid = &kids[i];
            let score = if kid.finished {
                kid.score
            } else {
                let at = child.after(kid);
                let score =
                    -self.negamax(game, genes, &kid.pos, Some(at), depth - 1, (-beta, -alpha));
                child.undo(kid);
                score
            };
            if score > best {
                best = score;
                best_at = i;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        if self.table.len() < TABLE_LIMIT {
            let bound = if best <= floor {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.insert(
                *pos,
                Known {
                    depth,
                    score: best,
                    bound,
                    best: best_at as u8,
                },
            );
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
        self.table.clear();
        if depth >= 2
            && let Some(exact) = game.exact_ending(pos)
        {
            return ending_scored(exact);
        }
        let (kids, mut child) = self.children(game, genes, pos, None, depth as f32 * 0.01);
        let mut alpha = f32::NEG_INFINITY;
        let mut scored: Vec<(G::Move, f32)> = Vec::with_capacity(kids.len());
        for kid in &kids {
            let score = if kid.finished || depth <= 1 {
                kid.score
            } else {
                let floor = if exact { f32::NEG_INFINITY } else { alpha };
                let at = child.after(kid);
                let window = (f32::NEG_INFINITY, -floor);
                let score = -self.negamax(game, genes, &kid.pos, Some(at), depth - 1, window);
                child.undo(kid);
                score
            };
            alpha = alpha.max(score);
            scored.push((kid.mv, score));
        }
        best_first(scored)
    }
}

/// An exactly searched ending's moves as a search scores them, the best
/// first: a won or lost result beyond every value the tables give
/// (`WIN` and the disc difference in hundredths), a drawn one 0.
fn ending_scored<M: Copy>(exact: Vec<(M, i32)>) -> Vec<(M, f32)> {
    let scored: Vec<(M, f32)> = exact
        .into_iter()
        .map(|(mv, discs)| {
            let score = match discs.signum() {
                1 => WIN + discs as f32 * 0.01,
                -1 => -WIN + discs as f32 * 0.01,
                _ => 0.0,
            };
            (mv, score)
        })
        .collect();
    best_first(scored)
}

/// `scored` with the first of its best moves (in its order) moved first.
fn best_first<M>(mut scored: Vec<(M, f32)>) -> Vec<(M, f32)> {
    if scored.is_empty() {
        return scored;
    }
    let best = scored
        .iter()
        .enumerate()
        .fold(0, |b, (i, s)| if s.1 > scored[b].1 { i } else { b });
    let top = scored.remove(best);
    scored.insert(0, top);
    scored
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
