//! The Othello pieces of the papers' learners, apart from the engine's
//! learner: the position on bitboards (the engine's move and flip
//! functions), the tuple networks the papers and Othello programs read,
//! the weighted piece counter and the papers' yardstick. Shared by
//! `papers_td.rs` (TD learning) and `papers_cel.rs` (coevolution of the
//! weights), each of which uses a part.
#![allow(dead_code)]

use bebete_core::games::{
    othello_flips, othello_moves, othello_symmetric_square, pattern_tuples, straight_tuples,
};
use bebete_core::players::knowledge::WPC;

/// xorshift64: the learner's and the yardstick's random moves.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position: each side's discs and whether Black is to move (a side
/// without a move passes at once).
#[derive(Clone, Copy)]
pub struct Pos {
    pub black: u64,
    pub white: u64,
    pub black_to_move: bool,
}

impl Pos {
    pub fn start() -> Pos {
        Pos {
            black: (1 << 28) | (1 << 35),
            white: (1 << 27) | (1 << 36),
            black_to_move: true,
        }
    }
    pub fn sides(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }
    pub fn moves(&self, out: &mut Vec<u8>) {
        let (me, them) = self.sides();
        let mut bits = othello_moves(me, them);
        out.clear();
        while bits != 0 {
            out.push(bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
    }
    pub fn play(&self, square: u8) -> Pos {
        let (me, them) = self.sides();
        let flipped = othello_flips(me, them, square);
        let (me, them) = (me | flipped | (1 << square), them & !flipped);
        let mut next = if self.black_to_move {
            Pos {
                black: me,
                white: them,
                black_to_move: false,
            }
        } else {
            Pos {
                black: them,
                white: me,
                black_to_move: true,
            }
        };
        let (a, b) = next.sides();
        if othello_moves(a, b) == 0 && othello_moves(b, a) != 0 {
            next.black_to_move = !next.black_to_move;
        }
        next
    }
    pub fn over(&self) -> bool {
        let (a, b) = self.sides();
        othello_moves(a, b) == 0 && othello_moves(b, a) == 0
    }
    /// Black's discs less White's.
    pub fn margin(&self) -> i32 {
        self.black.count_ones() as i32 - self.white.count_ones() as i32
    }
    /// The result from Black's side: 1, 0 or −1 (a draw 0: `f32::signum`
    /// would make it 1).
    pub fn result(&self) -> f32 {
        self.margin().signum() as f32
    }
    /// The learning target of a finished game from Black's side: its
    /// result, or with `margin` half the result and half the disc
    /// difference over 64.
    pub fn reward(&self, margin: bool) -> f32 {
        if margin {
            0.5 * self.result() + 0.5 * self.margin() as f32 / 64.0
        } else {
            self.result()
        }
    }
}

/// The tuple classes a network reads, each as its squares (`row * 8 +
/// column`): `pairs`, `straight3` and `straight4` are every straight line
/// of that many squares (the papers' systematic networks); `patterns` is
/// the classic hand-placed set of Othello programs (the four rows and the
/// diagonals of four or more squares, an edge with its two X-squares, a
/// corner's 3×3 and 2×5 blocks); `patterns8` the same cut to eight squares
/// a tuple (the edge alone, the 3×3 block less its far corner, a 2×4
/// block), the longest tuple the engine's value genome stores;
/// `patterns7` those less the diagonals shorter than 8: the engine's own
/// `pattern_tuples` (7 tuples of exactly 8 squares).
pub fn classes(name: &str) -> Result<Vec<Vec<u8>>, String> {
    let at = |cells: &[(u8, u8)]| cells.iter().map(|&(r, c)| r * 8 + c).collect::<Vec<u8>>();
    Ok(match name {
        "pairs" => straight_tuples(2),
        "straight3" => straight_tuples(3),
        "straight4" => straight_tuples(4),
        "patterns7" => pattern_tuples(),
        "patterns" | "patterns8" => {
            let short = name == "patterns8";
            let mut out = Vec::new();
            for row in 1..4 {
                out.push(at(&(0..8).map(|c| (row, c)).collect::<Vec<_>>()));
            }
            for shift in 0..5 {
                out.push(at(&(0..8 - shift)
                    .map(|i| (i, i + shift))
                    .collect::<Vec<_>>()));
            }
            let mut edge: Vec<(u8, u8)> = (0..8).map(|c| (0, c)).collect();
            if !short {
                edge.extend([(1, 1), (1, 6)]);
            }
            out.push(at(&edge));
            let (block, wide) = if short { (8, 4) } else { (9, 5) };
            out.push(at(&(0..block).map(|i| (i / 3, i % 3)).collect::<Vec<_>>()));
            out.push(at(&(0..2 * wide)
                .map(|i| (i / wide, i % wide))
                .collect::<Vec<_>>()));
            out
        }
        other => {
            return Err(format!(
                "unknown NETWORK {other:?}: pairs, straight3, straight4, patterns, patterns8 or patterns7"
            ));
        }
    })
}

/// The network: a slot per tuple image (its table's first weight and its
/// squares), a table of 3^n weights per class.
pub struct Net {
    pub slots: Vec<(usize, Vec<usize>)>,
    /// Weights of one stage of the game; `stages` tables in all.
    pub stage_size: usize,
    pub stages: usize,
    pub weights: Vec<f32>,
    /// The board read from the side to move (its discs as Black's), the
    /// sum negated when White is to move: a position with White to move is
    /// worth to Black minus what the same position with the colours and
    /// the side to move exchanged is worth, as Othello's rules make it.
    pub colours: bool,
    /// A finished game is worth its result and its disc margin
    /// ([`Pos::reward`]), not its result alone.
    pub margin: bool,
}

impl Net {
    pub fn new(network: &str, stages: usize, colours: bool, margin: bool) -> Result<Net, String> {
        let mut slots = Vec::new();
        let mut size = 0;
        for line in classes(network)? {
            for s in 0..8 {
                let squares = line
                    .iter()
                    .map(|&q| othello_symmetric_square(s, q as usize))
                    .collect();
                slots.push((size, squares));
            }
            size += 3usize.pow(line.len() as u32);
        }
        Ok(Net {
            slots,
            stage_size: size,
            stages,
            weights: vec![0.0; size * stages],
            colours,
            margin,
        })
    }
    pub fn features(&self, pos: &Pos, out: &mut Vec<usize>) {
        let cell = |q: usize| {
            if pos.black >> q & 1 == 1 {
                1
            } else if pos.white >> q & 1 == 1 {
                2
            } else {
                0
            }
        };
        // The stage by discs on the board: 4 at the start, 64 at most.
        let discs = (pos.black | pos.white).count_ones() as usize;
        let stage = (discs - 4) * self.stages / 61 * self.stage_size;
        // Read from White's side, Black and White swapped.
        let swap = self.read_from_white(pos) as usize;
        out.clear();
        out.extend(self.slots.iter().map(|(base, squares)| {
            stage
                + base
                + squares
                    .iter()
                    .fold(0, |i, &q| i * 3 + [[0, 1, 2], [0, 2, 1]][swap][cell(q)])
        }));
    }
    /// Whether `pos` is read from White's side (both colours, White to
    /// move).
    pub fn read_from_white(&self, pos: &Pos) -> bool {
        self.colours && !pos.black_to_move
    }
    /// The sign the sum of the weights enters the value with: −1 when the
    /// board is read from White's side.
    pub fn sign(&self, pos: &Pos) -> f32 {
        if self.read_from_white(pos) { -1.0 } else { 1.0 }
    }
    /// The weights' sum over `features` of `pos`, from Black's side.
    pub fn sum(&self, pos: &Pos, features: &[usize]) -> f32 {
        self.sign(pos) * features.iter().map(|&i| self.weights[i]).sum::<f32>()
    }
    /// From Black's side; exact when the game is over.
    pub fn value(&self, pos: &Pos, scratch: &mut Vec<usize>) -> f32 {
        if pos.over() {
            return pos.reward(self.margin);
        }
        self.features(pos, scratch);
        self.sum(pos, scratch).tanh()
    }
    pub fn greedy(&self, pos: &Pos, moves: &[u8], scratch: &mut Vec<usize>) -> u8 {
        let sign = if pos.black_to_move { 1.0 } else { -1.0 };
        let mut best = (f32::MIN, moves[0]);
        for &m in moves {
            let v = sign * self.value(&pos.play(m), scratch);
            if v > best.0 {
                best = (v, m);
            }
        }
        best.1
    }
    /// The move whose worst reply leaves the best value for the side to
    /// move, with that value from the mover's side (a two-ply search over
    /// the same values; a reply that passes or ends the game is valued at
    /// once).
    pub fn two_ply(
        &self,
        pos: &Pos,
        moves: &[u8],
        scratch: &mut Vec<usize>,
        replies: &mut Vec<u8>,
    ) -> (f32, u8) {
        let sign = if pos.black_to_move { 1.0 } else { -1.0 };
        let mut best = (f32::MIN, moves[0]);
        for &m in moves {
            let after = pos.play(m);
            let v = if after.over() || after.black_to_move == pos.black_to_move {
                sign * self.value(&after, scratch)
            } else {
                after.moves(replies);
                replies
                    .iter()
                    .map(|&r| sign * self.value(&after.play(r), scratch))
                    .fold(f32::MAX, f32::min)
            };
            if v > best.0 {
                best = (v, m);
            }
        }
        best
    }
    /// The two-ply search value of `pos` from Black's side (exact when the
    /// game is over).
    pub fn searched(
        &self,
        pos: &Pos,
        scratch: &mut Vec<usize>,
        moves: &mut Vec<u8>,
        replies: &mut Vec<u8>,
    ) -> f32 {
        if pos.over() {
            return pos.reward(self.margin);
        }
        let sign = if pos.black_to_move { 1.0 } else { -1.0 };
        pos.moves(moves);
        sign * self.two_ply(pos, moves, scratch, replies).0
    }
    /// The move `plies` deep (1 or 2) by the values.
    pub fn choose(
        &self,
        pos: &Pos,
        moves: &[u8],
        plies: u32,
        scratch: &mut Vec<usize>,
        replies: &mut Vec<u8>,
    ) -> u8 {
        if plies == 2 {
            self.two_ply(pos, moves, scratch, replies).1
        } else {
            self.greedy(pos, moves, scratch)
        }
    }
}

/// The weighted piece counter's move: the highest Σ weights of own discs
/// less the opponent's after it.
pub fn wpc_move(pos: &Pos, moves: &[u8]) -> u8 {
    let weighted = |discs: u64| -> i32 {
        (0..64)
            .filter(|q| discs >> q & 1 == 1)
            .map(|q| WPC[q])
            .sum()
    };
    let mut best = (i32::MIN, moves[0]);
    for &m in moves {
        let next = pos.play(m);
        let (mine, theirs) = if pos.black_to_move {
            (next.black, next.white)
        } else {
            (next.white, next.black)
        };
        let score = weighted(mine) - weighted(theirs);
        if score > best.0 {
            best = (score, m);
        }
    }
    best.1
}

/// The yardstick: the learner's share of points in `games` games against
/// the weighted piece counter, both sides 10% random moves; `learner`
/// chooses the learner's moves.
///
/// With `opening` > 0, the first `opening` plies of every game are random
/// (a measure over many openings, not the papers').
pub fn yardstick(
    games: usize,
    seed: u64,
    opening: usize,
    learner: &mut dyn FnMut(&Pos, &[u8]) -> u8,
) -> f64 {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut points = 0.0;
    for g in 0..games {
        let learner_black = g % 2 == 0;
        let mut pos = Pos::start();
        let mut ply = 0;
        while !pos.over() {
            pos.moves(&mut moves);
            ply += 1;
            let m = if ply <= opening || rng.unit() < 0.1 {
                moves[rng.below(moves.len())]
            } else if pos.black_to_move == learner_black {
                learner(&pos, &moves)
            } else {
                wpc_move(&pos, &moves)
            };
            pos = pos.play(m);
        }
        let result = if learner_black {
            pos.result()
        } else {
            -pos.result()
        };
        points += (result as f64 + 1.0) / 2.0;
    }
    points / games as f64
}
