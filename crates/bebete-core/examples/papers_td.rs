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
//! `othello_lab::classes`), STAGES (tables by the discs on the board, 1 by default),
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

#[path = "shared/othello_lab.rs"]
mod othello_lab;
use othello_lab::{Net, Pos, Rng, yardstick};

/// The learner's score on the yardstick (`othello_lab::yardstick`), its
/// moves chosen `plies` deep over `net`'s values.
fn measure(net: &Net, seed: u64, plies: u32, opening: usize) -> f64 {
    let (mut scratch, mut replies) = (Vec::new(), Vec::new());
    yardstick(1000, seed, opening, &mut |pos, moves| {
        net.choose(pos, moves, plies, &mut scratch, &mut replies)
    })
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
    let mut net = Net::new(network, stages, colours, margin).unwrap_or_else(|e| refuse(&e));
    // Temporal coherence's sums per weight: of the steps (N) and of their
    // sizes (A); empty unless STEP is tc.
    let (mut net_steps, mut step_sizes) = if coherence {
        (vec![0f32; net.weights.len()], vec![0f32; net.weights.len()])
    } else {
        (Vec::new(), Vec::new())
    };
    const EPSILON: f64 = 0.1;
    let mut averaged = Net::new(network, stages, colours, margin).unwrap_or_else(|e| refuse(&e));
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
            let one = measure(&net, g as u64, 1, 0);
            let two = measure(&net, g as u64, 2, 0);
            let opened = measure(&net, g as u64, 1, 4);
            if average {
                let mean = measure(&averaged, g as u64, 1, 0);
                println!("{g} {one:.3} {two:.3} {opened:.3} {mean:.3}");
            } else {
                println!("{g} {one:.3} {two:.3} {opened:.3}");
            }
        }
    }
}
