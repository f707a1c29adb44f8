//! The value genome's evaluator: a position's weights read once, each
//! afterstate valued by the slots its move changed, and the pool that
//! keeps a thread's evaluators.

use super::*;

#[inline]
pub(super) fn weight(genes: &[u8], offset: u32) -> i32 {
    let o = offset as usize;
    i16::from_le_bytes([genes[o], genes[o + 1]]) as i32
}

/// The value genome's view of one position and the positions its moves
/// lead to. A move changes a cell or two, so most tuples read the same
/// weight in every afterstate: the position's weights are read once
/// (`base_weights`), and each afterstate reads again only the slots whose
/// cells it changed.
pub struct Evaluator<G: CellBoard> {
    pub(super) tuples: Arc<Tuples>,
    /// The loaded position: cell states, slot indices, and the weights
    /// those indices read in the tables of the side its moves are valued for.
    pub(super) states: Vec<u8>,
    pub(super) base: Vec<u32>,
    pub(super) base_weights: Vec<i32>,
    pub(super) base_sum: i32,
    pub(super) side: Side,
    /// The loaded position's game stage, whose group of tuples it reads,
    /// and the genome's stages (copied from `tuples`: read before every
    /// afterstate, a field of its own is measurably cheaper than through
    /// the `Arc`, docs/performance.md).
    pub(super) stage: usize,
    stages: usize,
    /// The afterstate being valued: its cell states and the slots it
    /// changed, with their new indices.
    pub(super) next_states: Vec<u8>,
    pub(super) changes: Vec<(u16, u32)>,
    /// The cells the afterstate changed, with their new states.
    pub(super) changed: Vec<(usize, u8)>,
    /// Per slot: 1 + its place in `changes`, or 0.
    pub(super) marks: Vec<u16>,
    /// The afterstate's stage: when it is not the loaded position's,
    /// `changes` holds every slot of its own group.
    pub(super) changes_stage: usize,
    /// A crossing afterstate's slot indices, read whole.
    pub(super) crossing: Vec<u32>,
    /// The changes of the best afterstate so far, and its stage.
    pub(super) kept: Vec<(u16, u32)>,
    pub(super) kept_stage: usize,
    pub(super) moves: Vec<G::Move>,
    /// The move that last refuted a position one ply from a search's
    /// leaves: tried first at the next such position.
    pub(super) killer: Option<G::Move>,
    /// What a search has learnt of the positions it met (emptied at the
    /// start of each search).
    pub(super) table: search::Table<G::Position>,
    pub(super) _game: std::marker::PhantomData<G>,
}

/// What one afterstate is worth.
pub(super) struct Afterstate<P> {
    pub(super) pos: P,
    /// From the first player's side, in −1..1; exact for a finished game.
    pub(super) value: f32,
    pub(super) finished: bool,
}

impl<G: CellBoard> Evaluator<G> {
    /// An evaluator for genomes of `shape`, its running sums started from `genes`.
    pub fn new(shape: NTuple, genes: &[u8]) -> Self {
        let cells = G::WIDTH * G::HEIGHT;
        let tuples = Tuples::cached::<G>(shape, genes);
        let slots = tuples.group;
        let stages = tuples.stages;
        Evaluator {
            tuples,
            states: vec![0; cells],
            base: Vec::with_capacity(slots),
            base_weights: Vec::with_capacity(slots),
            base_sum: 0,
            side: Side::First,
            stage: 0,
            stages,
            next_states: vec![0; cells],
            changes: Vec::with_capacity(slots),
            changed: Vec::with_capacity(cells),
            marks: vec![0; slots],
            changes_stage: 0,
            crossing: Vec::with_capacity(slots),
            kept: Vec::with_capacity(slots),
            kept_stage: 0,
            moves: Vec::with_capacity(cells),
            killer: None,
            table: Default::default(),
            _game: std::marker::PhantomData,
        }
    }

    /// Reads `pos` and the weights it reads in the tables of `side`.
    pub(super) fn load(&mut self, game: &G, genes: &[u8], pos: &G::Position, side: Side) {
        self.load_indexed(game, genes, pos, side, None);
    }

    /// [`Evaluator::load`], given the slot indices of `pos` when they are
    /// already known (a search's child: its parent's, changed by the move;
    /// they are always those of `pos`'s own stage).
    pub(super) fn load_indexed(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        side: Side,
        indices: Option<&[u32]>,
    ) {
        game.cell_states(pos, &mut self.states);
        self.stage = self.stage_of(game, pos);
        match indices {
            Some(known) => {
                self.base.clear();
                self.base.extend_from_slice(known);
            }
            None => self
                .tuples
                .indices(&self.states, self.stage, &mut self.base),
        }
        self.side = side;
        let offset = self.tuples.side(side);
        self.base_weights.clear();
        self.base_weights.extend(
            self.base
                .iter()
                .zip(self.tuples.tables(self.stage))
                .map(|(&i, &table)| weight(genes, table + offset + 2 * i)),
        );
        self.base_sum = self.base_weights.iter().sum();
    }

    /// The game stage of `pos` among the genome's stages (0 without).
    #[inline]
    fn stage_of(&self, game: &G, pos: &G::Position) -> usize {
        match self.stages {
            1 => 0,
            stages => game.stage(pos, stages).min(stages - 1),
        }
    }

    /// Keeps the afterstate just valued as the best so far (its changes
    /// and stage in `kept`).
    pub(super) fn keep(&mut self) {
        std::mem::swap(&mut self.kept, &mut self.changes);
        self.kept_stage = self.changes_stage;
    }

    /// The value of `pos`, left by `mover`, from the first player's side:
    /// exact when the game is over, else tanh of the weights' sum.
    pub fn value(&mut self, game: &G, genes: &[u8], pos: &G::Position, mover: Side) -> f32 {
        match game.outcome(pos) {
            Some(outcome) => exact(outcome),
            None => {
                self.load(game, genes, pos, mover);
                (self.base_sum as f32 / SCALE).tanh()
            }
        }
    }

    /// The position `mv` leads to from the loaded position `pos` (loaded
    /// for the side to move there), valued; the slots it changed left in
    /// `changes`.
    pub(super) fn afterstate(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        mv: G::Move,
    ) -> Afterstate<G::Position> {
        let next = game.play(pos, mv);
        self.changes.clear();
        self.changes_stage = self.stage;
        if let Some(outcome) = game.outcome(&next) {
            return Afterstate {
                pos: next,
                value: exact(outcome),
                finished: true,
            };
        }
        if self.stages > 1 {
            let stage = self.stage_of(game, &next);
            if stage != self.stage {
                return self.afterstate_in(game, genes, next, stage);
            }
        }
        let mut changed = std::mem::take(&mut self.changed);
        game.changed_cells(
            pos,
            &self.states,
            &next,
            &mut self.next_states,
            &mut changed,
        );
        for &(cell, new) in &changed {
            let change = new as i32 - self.states[cell] as i32;
            for &(slot, place) in self.tuples.readers(self.stage, cell) {
                let step = (change * place as i32) as u32;
                match self.marks[slot as usize] {
                    0 => {
                        let index = self.base[slot as usize].wrapping_add(step);
                        self.changes.push((slot, index));
                        self.marks[slot as usize] = self.changes.len() as u16;
                    }
                    at => {
                        let entry = &mut self.changes[at as usize - 1].1;
                        *entry = entry.wrapping_add(step);
                    }
                }
            }
        }
        self.changed = changed;
        let offset = self.tuples.side(self.side);
        let mut sum = self.base_sum;
        for &(slot, index) in &self.changes {
            self.marks[slot as usize] = 0;
            let table = self.tuples.table(self.stage, slot as usize);
            sum += weight(genes, table + offset + 2 * index) - self.base_weights[slot as usize];
        }
        Afterstate {
            pos: next,
            value: (sum as f32 / SCALE).tanh(),
            finished: false,
        }
    }

    /// An afterstate in another stage than the loaded position (a move
    /// that crossed into the next): read whole, every slot of its stage's
    /// group left in `changes`. Once or a few times a game.
    #[cold]
    #[inline(never)]
    fn afterstate_in(
        &mut self,
        game: &G,
        genes: &[u8],
        next: G::Position,
        stage: usize,
    ) -> Afterstate<G::Position> {
        game.cell_states(&next, &mut self.next_states);
        let mut indices = std::mem::take(&mut self.crossing);
        self.tuples.indices(&self.next_states, stage, &mut indices);
        let offset = self.tuples.side(self.side);
        let mut sum = 0;
        for (slot, &index) in indices.iter().enumerate() {
            sum += weight(genes, self.tuples.table(stage, slot) + offset + 2 * index);
            self.changes.push((slot as u16, index));
        }
        self.crossing = indices;
        self.changes_stage = stage;
        Afterstate {
            pos: next,
            value: (sum as f32 / SCALE).tanh(),
            finished: false,
        }
    }

    /// The slot indices of the kept afterstate: the loaded position's, with
    /// the slots its move changed.
    pub(super) fn kept_indices(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(&self.base);
        for &(slot, index) in &self.kept {
            out[slot as usize] = index;
        }
    }

    /// The byte offsets of the weights the kept afterstate reads (in its
    /// own stage's tables: when that is not the loaded position's, `kept`
    /// holds every slot).
    pub(super) fn kept_offsets(&self, out: &mut Vec<u32>) {
        self.tuples.offsets(&self.base, self.stage, self.side, out);
        let side = self.tuples.side(self.side);
        for &(slot, index) in &self.kept {
            out[slot as usize] =
                self.tuples.table(self.kept_stage, slot as usize) + side + 2 * index;
        }
    }

    /// Every legal move with the value of the position it leads to, from
    /// the side to move's view (higher is better for it), in move order.
    pub(crate) fn move_values(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
    ) -> Vec<(G::Move, f32)> {
        let sign = sign(game.turn(pos));
        self.load(game, genes, pos, game.turn(pos));
        let mut moves = std::mem::take(&mut self.moves);
        game.legal_moves(pos, &mut moves);
        let values = moves
            .iter()
            .map(|&mv| (mv, sign * self.afterstate(game, genes, pos, mv).value))
            .collect();
        self.moves = moves;
        values
    }

    /// The move whose afterstate the genome values most (the first of
    /// equals); a winning move is always taken. `None` when the game is over.
    pub(crate) fn best(&mut self, game: &G, genes: &[u8], pos: &G::Position) -> Option<G::Move> {
        self.best_afterstate(game, genes, pos).map(|(mv, _)| mv)
    }

    /// [`Evaluator::best`] with its afterstate, whose changes are left in
    /// `kept`.
    pub(super) fn best_afterstate(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
    ) -> Option<(G::Move, Afterstate<G::Position>)> {
        self.best_afterstate_indexed(game, genes, pos, None)
    }

    /// [`Evaluator::best_afterstate`], given the slot indices of `pos` when
    /// they are already known (the afterstate a learner just played).
    pub(super) fn best_afterstate_indexed(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        indices: Option<&[u32]>,
    ) -> Option<(G::Move, Afterstate<G::Position>)> {
        let (sign, moves) = self.open(game, genes, pos, indices);
        let mut best: Option<(G::Move, Afterstate<G::Position>)> = None;
        for &mv in &moves {
            let after = self.afterstate(game, genes, pos, mv);
            let better = best
                .as_ref()
                .is_none_or(|(_, b)| sign * after.value > sign * b.value);
            let won = after.finished && sign * after.value > 0.5;
            if better {
                self.keep();
                best = Some((mv, after));
            }
            if won {
                break;
            }
        }
        self.moves = moves;
        best
    }

    /// The tuples that weigh most in the position `pos` left by `mover`:
    /// (tuple, its weight summed over its images, in sum units), largest
    /// magnitude first, `count` of them.
    pub(crate) fn heaviest(
        &mut self,
        game: &G,
        genes: &[u8],
        pos: &G::Position,
        mover: Side,
        count: usize,
    ) -> Vec<(usize, f32)> {
        self.load(game, genes, pos, mover);
        // The stage's group starts at this tuple.
        let first = self.stage * self.tuples.group / G::SYMMETRIES;
        let mut parts: Vec<(usize, f32)> = self
            .base_weights
            .chunks(G::SYMMETRIES)
            .enumerate()
            .map(|(t, pair)| (first + t, pair.iter().sum::<i32>() as f32 / SCALE))
            .collect();
        parts.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()).then(a.0.cmp(&b.0)));
        parts.truncate(count);
        parts
    }

    /// The cells of tuple `t`.
    pub(crate) fn cells(&self, t: usize) -> &[u8] {
        &self.tuples.cells[t][..self.tuples.shape.length as usize]
    }
}

/// The value genome's move in `pos` among the legal moves `allowed`
/// accepts (all of them when `None`): the highest afterstate value, the
/// first of equals; a winning move is always taken.
pub fn decide<G: CellBoard>(
    game: &G,
    shape: NTuple,
    genes: &[u8],
    pos: &G::Position,
    allowed: Option<&dyn Fn(G::Move) -> bool>,
) -> Option<G::Move> {
    with_evaluator(shape, genes, |eval| match allowed {
        None => eval.best(game, genes, pos),
        Some(allowed) => eval
            .move_values(game, genes, pos)
            .into_iter()
            .filter(|&(m, _)| allowed(m))
            .fold(None, |best: Option<(G::Move, f32)>, (m, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((m, v)),
            })
            .map(|(m, _)| m),
    })
}

/// Runs `work` with an evaluator of `genes` from this thread's pool (made
/// and pooled when the genome's tuples are not there): after a genome's
/// first decision on a thread, its decisions allocate nothing.
pub(super) fn with_evaluator<G: CellBoard, T>(
    shape: NTuple,
    genes: &[u8],
    work: impl FnOnce(&mut Evaluator<G>) -> T,
) -> T {
    G::evaluator_pool().with(|pool| {
        let Ok(mut pool) = pool.try_borrow_mut() else {
            // Already in use further up this thread's stack: a fresh one.
            return work(&mut Evaluator::new(shape, genes));
        };
        let mut eval = match pool
            .iter()
            .position(|e| e.tuples.read_from::<G>(shape, genes))
        {
            Some(i) => pool.remove(i),
            None => Evaluator::new(shape, genes),
        };
        let out = work(&mut eval);
        if pool.len() == POOL_SIZE {
            pool.remove(0);
        }
        pool.push(eval);
        out
    })
}

/// +1 for the first player, −1 for the second: values are from the first
/// player's side.
pub(super) fn sign(side: Side) -> f32 {
    match side {
        Side::First => 1.0,
        Side::Second => -1.0,
    }
}

/// A finished game's value from the first player's side.
pub(super) fn exact(outcome: Outcome) -> f32 {
    match outcome {
        Outcome::Win(side) => sign(side),
        Outcome::Draw => 0.0,
    }
}
