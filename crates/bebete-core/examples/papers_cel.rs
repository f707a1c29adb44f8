//! Coevolution of an Othello network's weights, with no temporal-difference
//! learning: the "coevolutionary learning" (CEL) the papers compare with
//! TD and hybridise with it (Lucas and Runarsson 2006; Szubert, Jaśkowski
//! and Krawiec 2009, 2013), and the method Jaśkowski's ICGA abstract names
//! for its network of straight pairs. The engine's value genome never
//! mutates a weight (its weights are learning's to write), so this is the
//! one method of the papers its learners do not cover; it is measured here,
//! apart from the engine, on the same networks and yardstick as
//! `papers_td.rs` (`shared/othello_lab.rs`).
//!
//! A population of POP networks, all weights drawn from N(0, SIGMA²), plays
//! a round-robin each generation (GAMES games a pair, sides alternating,
//! both sides playing a random move one time in ten as the yardstick's
//! players do; a win 1, a draw ½); the better half is kept and each kept
//! network breeds one child, every weight moved by N(0, SIGMA²): a (μ + λ)
//! evolution strategy with fitness by play among its own members, no fixed
//! player anywhere. Every EVERY generations the round-robin's best network
//! is measured on the papers' yardstick (one ply, 1,000 games against the
//! weighted piece counter, both sides 10% random moves) and from 4 random
//! opening plies.
//!
//! ```sh
//! cargo run --release --example papers_cel -- NETWORK POP GENERATIONS EVERY SEED SIGMA GAMES
//! cargo run --release --example papers_cel -- pairs 20 2000 200 1 0.05 2
//! ```

#[path = "shared/othello_lab.rs"]
mod othello_lab;
use othello_lab::{Net, Pos, Rng, yardstick};
use rayon::prelude::*;

/// A standard normal draw (Box–Muller).
fn gauss(rng: &mut Rng) -> f32 {
    let (u, v) = (rng.unit().max(1e-12), rng.unit());
    ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32
}

/// One game, `black` against `white`, both 10% random moves: Black's
/// points, 1, ½ or 0.
fn game(black: &Net, white: &Net, rng: &mut Rng) -> f64 {
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let mut pos = Pos::start();
    while !pos.over() {
        pos.moves(&mut moves);
        let m = if rng.unit() < 0.1 {
            moves[rng.below(moves.len())]
        } else if pos.black_to_move {
            black.greedy(&pos, &moves, &mut scratch)
        } else {
            white.greedy(&pos, &moves, &mut scratch)
        };
        pos = pos.play(m);
    }
    (pos.result() as f64 + 1.0) / 2.0
}

/// A wrong argument: says which and what it takes, and exits with 2.
fn refuse(message: &str) -> ! {
    eprintln!("papers_cel: {message}");
    eprintln!("usage: papers_cel NETWORK POP GENERATIONS EVERY SEED SIGMA GAMES");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 7 {
        refuse(&format!("{} arguments, 7 wanted", args.len()));
    }
    let number = |i: usize| -> f64 {
        args[i].parse().unwrap_or_else(|_| {
            refuse(&format!(
                "argument {} is {:?}, not a number",
                i + 1,
                args[i]
            ))
        })
    };
    let network = args[0].as_str();
    let pop = (number(1) as usize).max(2);
    let (generations, every, seed) = (
        number(2) as usize,
        (number(3) as usize).max(1),
        number(4) as u64,
    );
    let (sigma, games) = (number(5) as f32, (number(6) as usize).max(1));
    let fresh = || Net::new(network, 1, false, false).unwrap_or_else(|e| refuse(&e));
    let mut rng = Rng::new(seed);
    let mut population: Vec<Net> = (0..pop)
        .map(|_| {
            let mut net = fresh();
            net.weights
                .iter_mut()
                .for_each(|w| *w = sigma * gauss(&mut rng));
            net
        })
        .collect();
    println!(
        "# coevolution (mu + lambda), network {network} ({} weights), {pop} networks, sigma {sigma}, {games} games a pair, seed {seed}: generation, the best one's score against wpc@0.1 at one ply, at one ply from 4 random opening plies",
        population[0].weights.len()
    );
    for generation in 1..=generations {
        // Every ordered pair plays games / 2 games (each side once per
        // pair of games), each game its own random stream.
        let base = rng.next();
        let pairs: Vec<(usize, usize, u64)> = (0..pop)
            .flat_map(|i| (0..pop).filter(move |&j| j != i).map(move |j| (i, j)))
            .flat_map(|(i, j)| (0..games.div_ceil(2) as u64).map(move |k| (i, j, k)))
            .collect();
        let results: Vec<(usize, usize, f64)> = pairs
            .par_iter()
            .map(|&(i, j, k)| {
                let mut rng = Rng::new(base ^ (((i * pop + j) as u64) << 16 | k));
                (i, j, game(&population[i], &population[j], &mut rng))
            })
            .collect();
        let mut points = vec![0.0; pop];
        for (i, j, black) in results {
            points[i] += black;
            points[j] += 1.0 - black;
        }
        let mut order: Vec<usize> = (0..pop).collect();
        order.sort_by(|&a, &b| points[b].total_cmp(&points[a]).then(a.cmp(&b)));
        if generation % every == 0 || generation == 1 {
            let (mut scratch, best) = (Vec::new(), &population[order[0]]);
            let mut choose = |pos: &Pos, moves: &[u8]| best.greedy(pos, moves, &mut scratch);
            let one = yardstick(1000, generation as u64, 0, &mut choose);
            let opened = yardstick(1000, generation as u64, 4, &mut choose);
            println!("{generation} {one:.3} {opened:.3}");
        }
        // The better half stays; each breeds one child.
        let kept: Vec<Vec<f32>> = order[..pop / 2]
            .iter()
            .map(|&i| population[i].weights.clone())
            .collect();
        for (slot, net) in population.iter_mut().enumerate() {
            let parent = &kept[slot % kept.len()];
            net.weights.copy_from_slice(parent);
            if slot >= kept.len() {
                net.weights
                    .iter_mut()
                    .for_each(|w| *w += sigma * gauss(&mut rng));
            }
        }
    }
}
