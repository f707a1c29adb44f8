//! TD(λ) learning: how a value genome learns from every move it plays, by
//! self-play or against a fixed opponent.

use super::*;
use crate::encoding::Opponent;

/// One afterstate remembered for the traces: the weights it read and the
/// slope of tanh there.
struct Visited {
    offsets: Vec<u32>,
    slope: f32,
}

/// A learner: TD(λ) self-play on one genome, with its own random stream.
pub struct Learner<'g, G: CellBoard, R> {
    game: G,
    genes: &'g mut [u8],
    eval: Evaluator<G>,
    rng: R,
    /// Stochastic rounding's own fast stream (seeded from `rng`).
    noise: u64,
    trace: Vec<Visited>,
    /// Trace entries not in use, kept with their buffers: a game's
    /// learning allocates nothing once the first game has run.
    spare: Vec<Visited>,
    /// The legal moves of the position being played, kept likewise.
    moves: Vec<G::Move>,
    /// The slot indices of the position to move from, when the learner's
    /// own move made it (its afterstate's, known without reading the
    /// board again); `known` says whether they are.
    indices: Vec<u32>,
    known: bool,
}

impl<'g, G: CellBoard, R: Rng> Learner<'g, G, R> {
    /// A learner of `genes` (a value genome of `shape`), drawing its exploration from `rng`.
    pub fn new(game: G, shape: NTuple, genes: &'g mut [u8], mut rng: R) -> Self {
        let noise = rng.next_u64() | 1;
        Learner {
            eval: Evaluator::new(shape, genes),
            game,
            genes,
            rng,
            noise,
            trace: Vec::with_capacity(TRACE),
            spare: Vec::with_capacity(TRACE),
            moves: Vec::new(),
            indices: Vec::new(),
            known: false,
        }
    }

    /// Plays `games` self-play games, learning after every move, and adds
    /// them to the genome's clock. Returns the moves played.
    pub(crate) fn learn(&mut self, games: u32) -> u64 {
        self.learn_with::<false>(games, None)
    }

    /// Plays `games` games against `opponent` (a move for each position
    /// it is to move in; the learner takes the first side in even games
    /// and the second in odd ones), learning from its own moves only: the
    /// TD error runs from one of its afterstates to its next, or to the
    /// game's end. Adds them to the genome's clock; returns the moves
    /// played, the opponent's included.
    pub(crate) fn learn_against(&mut self, games: u32, opponent: &mut Opponent<'_, G>) -> u64 {
        self.learn_with::<true>(games, Some(opponent))
    }

    /// Both: `AGAINST` is whether an opponent is given, a constant so that
    /// self-play's loop is compiled without the opponent's branch.
    fn learn_with<const AGAINST: bool>(
        &mut self,
        games: u32,
        mut opponent: Option<&mut Opponent<'_, G>>,
    ) -> u64 {
        let params = Params::read(self.genes);
        let mut moves = 0;
        for g in 0..games {
            let clock = Params {
                games: params.games.saturating_add(g),
                ..params
            };
            let (alpha, epsilon) = clock.scheduled(G::HORIZON);
            let against = opponent.as_mut().map(|o| {
                let side = if g % 2 == 0 {
                    Side::Second
                } else {
                    Side::First
                };
                (&mut **o, side)
            });
            moves += self.game_of::<AGAINST>(
                alpha,
                params.lambda,
                epsilon,
                params.from_exploration,
                against,
            );
        }
        let p = self.genes.len() - PARAM_BYTES;
        let total = params.games.saturating_add(games);
        self.genes[p + 4..p + 8].copy_from_slice(&total.to_le_bytes());
        moves
    }

    /// One game of self-play: ε-greedy moves; after each greedy move the
    /// TD error between the new afterstate's value and the previous one's
    /// updates the last few afterstates (λ-decayed); an exploratory move is
    /// not learned from and cuts the traces, unless the genome learns
    /// `from_exploration`, when it is learned from like any other.
    ///
    /// With an opponent (and the side it plays), the opponent's moves are
    /// the environment's: they change the position between two of the
    /// learner's afterstates, and a game they end gives its outcome as the
    /// last afterstate's target.
    fn game_of<'o, const AGAINST: bool>(
        &mut self,
        alpha: f32,
        lambda: f32,
        epsilon: f32,
        from_exploration: bool,
        mut opponent: Option<(&mut Opponent<'o, G>, Side)>,
    ) -> u64 {
        let game = self.game.clone();
        let mut pos = game.start();
        let mut previous: Option<f32> = None;
        let mut plies = 0;
        self.cut_trace();
        let mut moves = std::mem::take(&mut self.moves);
        self.known = false;
        // The legal moves are listed once a ply: here for an exploratory
        // move, inside `best_afterstate` for a greedy one. (A position
        // without a move is finished, and the loop ends at a finished
        // afterstate before reaching one.)
        let plies = loop {
            if AGAINST
                && let Some((choose, side)) = opponent.as_mut()
                && game.turn(&pos) == *side
            {
                let Some(mv) = choose(&pos) else {
                    break plies;
                };
                pos = game.play(&pos, mv);
                self.known = false;
                plies += 1;
                if let Some(outcome) = game.outcome(&pos) {
                    if let Some(before) = previous {
                        self.update(alpha * (exact(outcome) - before), lambda);
                    }
                    break plies;
                }
                continue;
            }
            let explore = self.rng.random::<f32>() < epsilon;
            let after = if explore {
                game.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break plies;
                }
                let mv = moves[self.rng.random_range(0..moves.len())];
                let known = self.known.then_some(self.indices.as_slice());
                self.eval
                    .load_indexed(&game, self.genes, &pos, game.turn(&pos), known);
                let after = self.eval.afterstate(&game, self.genes, &pos, mv);
                self.eval.keep();
                after
            } else {
                let known = self.known.then_some(self.indices.as_slice());
                match self
                    .eval
                    .best_afterstate_indexed(&game, self.genes, &pos, known)
                {
                    Some((_, after)) => after,
                    None => break plies,
                }
            };
            plies += 1;
            if explore && !from_exploration {
                self.cut_trace();
            } else if let Some(before) = previous {
                self.update(alpha * (after.value - before), lambda);
            }
            if after.finished {
                break plies;
            }
            // The new afterstate's weights, for its trace entry.
            let mut entry = if self.trace.len() == TRACE {
                self.trace.remove(0)
            } else {
                self.spare.pop().unwrap_or(Visited {
                    offsets: Vec::new(),
                    slope: 0.0,
                })
            };
            self.eval.kept_offsets(&mut entry.offsets);
            // The next position's indices are this afterstate's.
            self.eval.kept_indices(&mut self.indices);
            self.known = true;
            entry.slope = 1.0 - after.value * after.value;
            self.trace.push(entry);
            previous = Some(after.value);
            pos = after.pos;
        };
        self.moves = moves;
        plies
    }

    /// Empties the trace, keeping its entries' buffers for later ones.
    fn cut_trace(&mut self) {
        self.spare.append(&mut self.trace);
    }

    /// Adds `step × λ^k × slope` to every weight of the k-th most recent
    /// afterstate, rounded stochastically to weight units: in 1/65,536ths
    /// of a unit, plus a uniform fraction, floored.
    fn update(&mut self, step: f32, lambda: f32) {
        let mut decay = 1.0;
        for visited in self.trace.iter().rev() {
            let delta = (step * decay * visited.slope * SCALE * 65_536.0) as i64;
            decay *= lambda;
            if delta == 0 {
                continue;
            }
            for &o in &visited.offsets {
                // xorshift64: a fresh uniform fraction for each rounding.
                self.noise ^= self.noise << 13;
                self.noise ^= self.noise >> 7;
                self.noise ^= self.noise << 17;
                let units = (delta + (self.noise >> 48) as i64) >> 16;
                if units != 0 {
                    let o = o as usize;
                    let old = i16::from_le_bytes([self.genes[o], self.genes[o + 1]]) as i64;
                    let new = (old + units).clamp(i16::MIN as i64, i16::MAX as i64) as i16;
                    self.genes[o..o + 2].copy_from_slice(&new.to_le_bytes());
                }
            }
        }
    }
}
