//! An Othello TD learner written apart from the engine's, as the papers
//! describe theirs, to test the engine's learner against: every straight
//! pair of squares (32 classes under the board's 8 symmetries, each read
//! in all 8 images, 9 weights a class: the papers' 288), one table of `f32`
//! weights valued from Black's side, `tanh` of the sum, TD(0) between
//! consecutive positions of self-play with ε-greedy moves (learning from
//! every move, exploratory ones included). Of the engine it uses only the
//! rules' bitboard functions and the weighted piece counter's weights.
//!
//! Every `EVERY` games it prints the learner's score on the papers'
//! yardstick: 1,000 games against the weighted piece counter, both sides
//! playing a random move one time in ten, sides alternating, from the
//! standard start; then the same with the learner searching two plies
//! over its values, and at one ply from 4 random opening plies.
//!
//! ```sh
//! cargo run --release --example papers_td -- ALPHA GAMES EVERY SEED [PLIES]
//! cargo run --release --example papers_td -- 0.001 200000 25000 1
//! ```
//!
//! With PLIES 2 the learner chooses its self-play moves by a two-ply
//! search over its own values (the TD updates still run between the
//! positions actually played):
//!
//! ```sh
//! cargo run --release --example papers_td -- 0.0003 100000 25000 1 2
//! ```
//!
//! Further arguments, in order: NETWORK (`pairs`, the default;
//! `straight3`, `straight4`, `patterns`, `patterns8`, `patterns7`: see
//! [`classes`]), STAGES (tables by the discs on the board, 1 by default),
//! FALL (α falls exponentially to this fraction of itself over the run, 1
//! by default), AVERAGE (1: also measure a moving average of the
//! weights) and TARGET (1, the default: each position learns toward the
//! next one's value, TD(0); 2: toward its own two-ply search value over
//! the same weights, bootstrapping from a search as TD-Leaf and RootStrap
//! do), STEP (`plain`, the default: every weight moves by α times the
//! error; `tc`: temporal coherence, Beal and Smith's per-weight rate,
//! α times |Σ steps| / Σ |steps| of that weight so far, so that a weight
//! whose updates keep cancelling learns ever slower), COLOURS (`one`, the
//! default; `both`: the board read from the side to move, its discs as
//! Black's, the value negated when White is to move, so that one table
//! values both sides' positions, as Othello's symmetry of colours and
//! turn allows), REWARD (`win`, the default: a finished game teaches its
//! result, 1, 0 or −1; `margin`: half its result and half its disc
//! difference over 64, so that a larger win is worth more). Each
//! checkpoint also reports the score from 4 random opening plies, a
//! measure over many openings:
//!
//! ```sh
//! cargo run --release --example papers_td -- 0.003 200000 25000 3 1 patterns7 1 1 1
//! cargo run --release --example papers_td -- 0.003 100000 25000 1 1 patterns7 1 0.1 0 2
//! cargo run --release --example papers_td -- 0.01 200000 50000 1 1 patterns7 1 1 0 1 tc
//! cargo run --release --example papers_td -- 0.003 200000 25000 1 1 patterns7 1 1 0 1 plain both
//! ```

use bebete_core::games::{
    othello_flips, othello_moves, othello_symmetric_square, pattern_tuples, straight_tuples,
};
use bebete_core::players::knowledge::WPC;

/// xorshift64: the learner's and the yardstick's random moves.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position: each side's discs and whether Black is to move (a side
/// without a move passes at once).
#[derive(Clone, Copy)]
struct Pos {
    black: u64,
    white: u64,
    black_to_move: bool,
}

impl Pos {
    fn start() -> Pos {
        Pos {
            black: (1 << 28) | (1 << 35),
            white: (1 << 27) | (1 << 36),
            black_to_move: true,
        }
    }
    fn sides(&self) -> (u64, u64) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }
    fn moves(&self, out: &mut Vec<u8>) {
        let (me, them) = self.sides();
        let mut bits = othello_moves(me, them);
        out.clear();
        while bits != 0 {
            out.push(bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
    }
    fn play(&self, square: u8) -> Pos {
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
    fn over(&self) -> bool {
        let (a, b) = self.sides();
        othello_moves(a, b) == 0 && othello_moves(b, a) == 0
    }
    /// Black's discs less White's.
    fn margin(&self) -> i32 {
        self.black.count_ones() as i32 - self.white.count_ones() as i32
    }
    /// The result from Black's side: 1, 0 or −1 (a draw 0: `f32::signum`
    /// would make it 1).
    fn result(&self) -> f32 {
        self.margin().signum() as f32
    }
    /// The learning target of a finished game from Black's side: its
    /// result, or with `margin` half the result and half the disc
    /// difference over 64.
    fn reward(&self, margin: bool) -> f32 {
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
fn classes(name: &str) -> Vec<Vec<u8>> {
    let at = |cells: &[(u8, u8)]| cells.iter().map(|&(r, c)| r * 8 + c).collect::<Vec<u8>>();
    match name {
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
        other => refuse(&format!(
            "unknown NETWORK {other:?}: pairs, straight3, straight4, patterns, patterns8 or patterns7"
        )),
    }
}

/// The network: a slot per tuple image (its table's first weight and its
/// squares), a table of 3^n weights per class.
struct Net {
    slots: Vec<(usize, Vec<usize>)>,
    /// Weights of one stage of the game; `stages` tables in all.
    stage_size: usize,
    stages: usize,
    weights: Vec<f32>,
    /// The board read from the side to move (its discs as Black's), the
    /// sum negated when White is to move: a position with White to move is
    /// worth to Black minus what the same position with the colours and
    /// the side to move exchanged is worth, as Othello's rules make it.
    colours: bool,
    /// A finished game is worth its result and its disc margin
    /// ([`Pos::reward`]), not its result alone.
    margin: bool,
}

impl Net {
    fn new(network: &str, stages: usize, colours: bool, margin: bool) -> Net {
        let mut slots = Vec::new();
        let mut size = 0;
        for line in classes(network) {
            for s in 0..8 {
                let squares = line
                    .iter()
                    .map(|&q| othello_symmetric_square(s, q as usize))
                    .collect();
                slots.push((size, squares));
            }
            size += 3usize.pow(line.len() as u32);
        }
        Net {
            slots,
            stage_size: size,
            stages,
            weights: vec![0.0; size * stages],
            colours,
            margin,
        }
    }
    fn features(&self, pos: &Pos, out: &mut Vec<usize>) {
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
    fn read_from_white(&self, pos: &Pos) -> bool {
        self.colours && !pos.black_to_move
    }
    /// The sign the sum of the weights enters the value with: −1 when the
    /// board is read from White's side.
    fn sign(&self, pos: &Pos) -> f32 {
        if self.read_from_white(pos) { -1.0 } else { 1.0 }
    }
    /// The weights' sum over `features` of `pos`, from Black's side.
    fn sum(&self, pos: &Pos, features: &[usize]) -> f32 {
        self.sign(pos) * features.iter().map(|&i| self.weights[i]).sum::<f32>()
    }
    /// From Black's side; exact when the game is over.
    fn value(&self, pos: &Pos, scratch: &mut Vec<usize>) -> f32 {
        if pos.over() {
            return pos.reward(self.margin);
        }
        self.features(pos, scratch);
        self.sum(pos, scratch).tanh()
    }
    fn greedy(&self, pos: &Pos, moves: &[u8], scratch: &mut Vec<usize>) -> u8 {
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
    fn two_ply(
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
    fn searched(
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
    fn choose(
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
fn wpc_move(pos: &Pos, moves: &[u8]) -> u8 {
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
/// the weighted piece counter, both sides 10% random moves.
///
/// With `opening` > 0, the first `opening` plies of every game are random
/// (a measure over many openings, not the papers').
fn yardstick(net: &Net, games: usize, seed: u64, plies: u32, opening: usize) -> f64 {
    let mut rng = Rng::new(seed);
    let (mut moves, mut scratch, mut replies) = (Vec::new(), Vec::new(), Vec::new());
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
                net.choose(&pos, &moves, plies, &mut scratch, &mut replies)
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

/// A wrong argument: says which and what it takes, and exits with 2.
fn refuse(message: &str) -> ! {
    eprintln!("papers_td: {message}");
    eprintln!(
        "usage: papers_td ALPHA GAMES EVERY SEED [PLIES [NETWORK [STAGES [FALL [AVERAGE [TARGET [STEP [COLOURS [REWARD]]]]]]]]]"
    );
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: f64| -> f64 {
        args.get(i)
            .map(|a| {
                a.parse().unwrap_or_else(|_| {
                    refuse(&format!(
                        "argument {} is {a:?}: ALPHA GAMES EVERY SEED PLIES STAGES FALL AVERAGE TARGET are numbers",
                        i + 1
                    ))
                })
            })
            .unwrap_or(default)
    };
    let alpha = number(0, 0.001) as f32;
    let games = number(1, 200_000.0) as usize;
    let every = (number(2, 25_000.0) as usize).max(1);
    let seed = number(3, 1.0) as u64;
    let plies = number(4, 1.0) as u32;
    let network = args.get(5).map_or("pairs", String::as_str);
    let stages = (number(6, 1.0) as usize).max(1);
    // α falls exponentially to `fall` of itself over the run (1: constant).
    let fall = number(7, 1.0) as f32;
    // With AVERAGE 1, also the score of the weights' moving average.
    let average = number(8, 0.0) == 1.0;
    // With TARGET 2, each position learns toward its two-ply search value.
    let searched_target = number(9, 1.0) == 2.0;
    // A word argument of two values: false for the first (the default),
    // true for the second.
    let switch = |i: usize, name: &str, [off, on]: [&str; 2]| -> bool {
        match args.get(i).map_or(off, String::as_str) {
            word if word == off => false,
            word if word == on => true,
            other => refuse(&format!("unknown {name} {other:?}: {off} or {on}")),
        }
    };
    // With STEP tc, each weight's rate is α |N| / A (temporal coherence).
    let coherence = switch(10, "STEP", ["plain", "tc"]);
    // With COLOURS both, the board is read from the side to move.
    let colours = switch(11, "COLOURS", ["one", "both"]);
    // With REWARD margin, a finished game teaches its disc margin too.
    let margin = switch(12, "REWARD", ["win", "margin"]);
    let mut net = Net::new(network, stages, colours, margin);
    // Temporal coherence's sums per weight: of the steps (N) and of their
    // sizes (A); empty unless STEP is tc.
    let (mut net_steps, mut step_sizes) = if coherence {
        (vec![0f32; net.weights.len()], vec![0f32; net.weights.len()])
    } else {
        (Vec::new(), Vec::new())
    };
    const EPSILON: f64 = 0.1;
    let mut averaged = Net::new(network, stages, colours, margin);
    let mut rng = Rng::new(seed);
    let (mut moves, mut features, mut scratch, mut replies, mut searched) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    println!(
        "# network {network} ({} weights, {stages} stages, {}), {}alpha {alpha} falling to {fall} of it, epsilon {EPSILON}, seed {seed}, moves chosen {plies} plies deep while learning, {}, a finished game teaching {}: games, score against wpc@0.1 at one ply, at two, at one ply from 4 random opening plies{}",
        net.weights.len(),
        if colours {
            "the board read from the side to move"
        } else {
            "one colour"
        },
        if coherence {
            "temporal coherence, "
        } else {
            ""
        },
        if searched_target {
            "each position learning toward its two-ply search value"
        } else {
            "TD(0) between consecutive positions"
        },
        if margin {
            "its result and its disc margin"
        } else {
            "its result"
        },
        if average {
            ", and the weights' moving average at one ply"
        } else {
            ""
        }
    );
    for g in 1..=games {
        let alpha = alpha * fall.powf((g - 1) as f32 / games as f32);
        let mut pos = Pos::start();
        let mut previous: Option<Pos> = None;
        while !pos.over() {
            pos.moves(&mut moves);
            let m = if rng.unit() < EPSILON {
                moves[rng.below(moves.len())]
            } else {
                net.choose(&pos, &moves, plies, &mut scratch, &mut replies)
            };
            let next = pos.play(m);
            if let Some(before) = previous {
                let target = if searched_target {
                    net.searched(&before, &mut scratch, &mut searched, &mut replies)
                } else {
                    net.value(&next, &mut scratch)
                };
                net.features(&before, &mut features);
                let v = net.sum(&before, &features).tanh();
                let step = net.sign(&before) * (target - v) * (1.0 - v * v);
                if coherence {
                    for &i in &features {
                        let rate = if step_sizes[i] > 0.0 {
                            net_steps[i].abs() / step_sizes[i]
                        } else {
                            1.0
                        };
                        net.weights[i] += alpha * rate * step;
                        net_steps[i] += step;
                        step_sizes[i] += step.abs();
                    }
                } else {
                    for &i in &features {
                        net.weights[i] += alpha * step;
                    }
                }
            }
            previous = Some(next);
            pos = next;
        }
        if average && g % 500 == 0 {
            // A moving average of the weights, a snapshot blended in
            // every 500 games (about the last 25,000 games' weights).
            for (a, w) in averaged.weights.iter_mut().zip(&net.weights) {
                *a += 0.02 * (w - *a);
            }
        }
        if g % every == 0 {
            let one = yardstick(&net, 1000, g as u64, 1, 0);
            let two = yardstick(&net, 1000, g as u64, 2, 0);
            let opened = yardstick(&net, 1000, g as u64, 1, 4);
            if average {
                let mean = yardstick(&averaged, 1000, g as u64, 1, 0);
                println!("{g} {one:.3} {two:.3} {opened:.3} {mean:.3}");
            } else {
                println!("{g} {one:.3} {two:.3} {opened:.3}");
            }
        }
    }
}
