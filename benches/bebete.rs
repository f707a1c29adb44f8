//! Criterion benchmarks of bebete's hot paths (`cargo bench`).
//!
//! Each group names what it measures; the figures and their ratios are in
//! docs/performance.md. Inputs are seeded, so runs compare like with like.

use bebete::encoding::{IllegalPolicy, Learns, SubgridEncoder, TableGame};
use bebete::evolve::checkpoint::Checkpoint;
use bebete::evolve::stats::diversity;
use bebete::evolve::tournament::{genome_game, round_robin};
use bebete::evolve::tutor::Tutor;
use bebete::evolve::{EvolveConfig, Hall, Population, breeding};
use bebete::games::{
    BuiltIn, Checkers, Connect4, Game, GameSpec, Matchsticks, MatchsticksRules, NTuple, Pair,
    TicTacToe, ValueGenome,
};
use bebete::genome::random_genes;
use bebete::players::{GreedyPlayer, NoisyPlayer, Player, RandomPlayer};
use bebete_core::games::Notation;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// Unfinished positions from random games: a realistic mix of openings,
/// middle games and endings.
fn positions<G: Game>(game: &G, count: usize) -> Vec<G::Position> {
    let mut player = RandomPlayer::new(7);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = game.start();
        while game.outcome(&pos).is_none() && out.len() < count {
            out.push(pos);
            let mv = player.choose(game, &pos).expect("a legal move");
            pos = game.play(&pos, mv);
        }
    }
    out
}

fn decision<G: TableGame>(c: &mut Criterion, name: &str, game: G) {
    let genes = random_genes(&game, &mut Pcg64Mcg::seed_from_u64(1));
    let mix = positions(&game, 4096);
    let mut group = c.benchmark_group("decision");
    group.throughput(Throughput::Elements(mix.len() as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            for pos in &mix {
                black_box(game.decide(black_box(&genes), pos, IllegalPolicy::Repair));
            }
        })
    });
    group.finish();
}

fn decisions(c: &mut Criterion) {
    decision(c, "tictactoe (encode + lookup + repair)", TicTacToe::BASE3);
    decision(
        c,
        "matchsticks (index + lookup + repair)",
        Matchsticks::state(MatchsticksRules::default()),
    );
    decision(
        c,
        "connect4 (12 window codes + 12 lookups + vote)",
        Connect4::SUBGRID,
    );

    // The memory floor of a Connect-Four decision: 12 random byte loads
    // from a 923,521-byte table, measured beside it.
    let table = random_genes(&Connect4::SUBGRID, &mut Pcg64Mcg::seed_from_u64(1));
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let loads: Vec<[u32; 12]> = (0..4096)
        .map(|_| std::array::from_fn(|_| rng.random_range(0..table.len() as u32)))
        .collect();
    let mut group = c.benchmark_group("decision");
    group.throughput(Throughput::Elements(loads.len() as u64));
    group.bench_function("connect4 baseline: 12 random loads", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for set in &loads {
                for &i in set {
                    sum += black_box(&table)[i as usize] as u32;
                }
            }
            sum
        })
    });
    // The encoder alone (no table loads).
    let mix = positions(&Connect4::SUBGRID, 4096);
    group.bench_function("connect4 window codes only", |b| {
        b.iter(|| {
            mix.iter()
                .map(|p| SubgridEncoder::window_indices(black_box(p))[7])
                .sum::<u32>()
        })
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("game between two genomes");
    fn pair<G: TableGame>(
        group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        name: &str,
        game: G,
    ) {
        let a = random_genes(&game, &mut Pcg64Mcg::seed_from_u64(1));
        let b = random_genes(&game, &mut Pcg64Mcg::seed_from_u64(2));
        group.bench_function(name, |bench| {
            bench.iter(|| genome_game(&game, black_box(&a), black_box(&b), IllegalPolicy::Repair))
        });
    }
    pair(&mut group, "tictactoe", TicTacToe::BASE3);
    pair(
        &mut group,
        "matchsticks",
        Matchsticks::state(MatchsticksRules::default()),
    );
    pair(&mut group, "connect4", Connect4::SUBGRID);
    group.finish();
}

fn tournaments(c: &mut Criterion) {
    let mut group = c.benchmark_group("round-robin of 100 random genomes");
    group.sample_size(20);
    let ttt = Population::random(&TicTacToe::BASE3, 100, 1);
    let c4 = Population::random(&Connect4::SUBGRID, 100, 1);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        group.bench_function(format!("tictactoe, {threads} thread(s)"), |b| {
            b.iter(|| pool.install(|| round_robin(&TicTacToe::BASE3, &ttt, IllegalPolicy::Repair)))
        });
        group.bench_function(format!("connect4, {threads} thread(s)"), |b| {
            b.iter(|| pool.install(|| round_robin(&Connect4::SUBGRID, &c4, IllegalPolicy::Repair)))
        });
    }
    group.finish();
    // The stats row's diversity figure (28 pairs of 8 sampled genomes), on
    // one thread: a generation computes it beside its games.
    let mut group = c.benchmark_group("diversity of 100 random genomes, 1 thread");
    group.sample_size(20);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    group.bench_function("tictactoe", |b| {
        b.iter(|| one.install(|| diversity(&ttt, TicTacToe::BASE3.active_genes())))
    });
    group.bench_function("connect4", |b| {
        b.iter(|| one.install(|| diversity(&c4, Connect4::SUBGRID.active_genes())))
    });
    group.finish();
}

fn breed(c: &mut Criterion) {
    let mut group = c.benchmark_group("breeding 90 children from 10 elite (connect4)");
    group.sample_size(20);
    let current = Population::random(&Connect4::SUBGRID, 100, 1);
    let mut next = Population::zeroed(100, current.gene_count());
    let ranking: Vec<usize> = (0..100).collect();
    let cfg = EvolveConfig::method(GameSpec::CONNECT4, 1);
    group.throughput(Throughput::Bytes((90 * current.gene_count()) as u64));
    group.bench_function("crossover + mutation 0.002, 2 threads", |b| {
        b.iter(|| {
            breeding::breed(
                &Connect4::SUBGRID,
                &cfg,
                &current,
                &ranking,
                1,
                1,
                &mut next,
            )
        })
    });
    group.bench_function("plain copy of the same bytes", |b| {
        b.iter(|| {
            let bytes = next.as_bytes_mut();
            let half = 50 * current.gene_count();
            bytes[..half].copy_from_slice(&current.as_bytes()[half..]);
            bytes[half..].copy_from_slice(&current.as_bytes()[..half]);
        })
    });
    group.finish();
}

fn bank(c: &mut Criterion) {
    let mut group = c.benchmark_group("the built-in bank (connect4, one genome)");
    group.sample_size(10);
    let game = Connect4::SUBGRID;
    let genome = Population::random(&game, 1, 1);
    for lookahead in [0, 2] {
        let mut cfg = EvolveConfig::method(GameSpec::CONNECT4, 1);
        cfg.lookahead = lookahead;
        let tutor = Tutor::for_run(&game, &cfg)
            .expect("the built-in bank loads")
            .expect("connect4 has a bank");
        // Prepared once per run, outside the measurement.
        tutor.points(&game, genome.genome(0));
        group.throughput(Throughput::Elements(tutor.train_len() as u64));
        group.bench_function(format!("bank fitness, lookahead {lookahead}"), |b| {
            b.iter(|| tutor.points(&game, genome.genome(0)))
        });
        if lookahead == 0 {
            let mut genes = genome.genome(0).to_vec();
            tutor.polish(&game, &mut genes);
            group.bench_function("one local-search pass", |b| {
                b.iter(|| tutor.polish(&game, &mut genes))
            });
        }
    }
    group.finish();
}

fn migration(c: &mut Criterion) {
    let mut group = c.benchmark_group("migration between two connect4 islands of 100");
    let game = Connect4::SUBGRID;
    let from = Population::random(&game, 100, 1);
    let mut to = Population::random(&game, 100, 2);
    group.throughput(Throughput::Bytes((2 * from.gene_count()) as u64));
    // What `Evolution::breed` does for each island: copy the head of the
    // elite out, then over the receiver's last children.
    group.bench_function("2 migrants (copy out, copy in)", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(2 * from.gene_count());
            for k in 0..2 {
                out.extend_from_slice(from.genome(k));
            }
            for (k, genome) in out.chunks(from.gene_count()).enumerate() {
                to.genome_mut(98 + k).copy_from_slice(genome);
            }
        })
    });
    group.finish();
}

fn checkpoints(c: &mut Criterion) {
    let mut group = c.benchmark_group("checkpoint of 100 connect4 genomes");
    group.sample_size(10);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("gen-000001.ckpt");
    let ckpt = Checkpoint {
        config: EvolveConfig::method(GameSpec::CONNECT4, 1),
        generation: 0,
        rows: Vec::new(),
        population: Population::random(&Connect4::SUBGRID, 100, 1),
        first_island: 0,
        hall: Hall::default(),
    };
    group.throughput(Throughput::Bytes(ckpt.population.as_bytes().len() as u64));
    group.bench_function("write (fsync included)", |b| {
        b.iter(|| ckpt.save(&path).expect("written"))
    });
    ckpt.save(&path).expect("written");
    group.bench_function("read and verify", |b| {
        b.iter_batched(
            || (),
            |()| Checkpoint::load(&path).expect("read"),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// The value genome (70 tuples of 8 cells): self-play learning, the
/// one-ply decision and an 8-ply search, on weights that have learned a
/// little (fresh zero weights would make every search cut at once).
fn value_genome(c: &mut Criterion) {
    let game = Connect4::value_genome(Connect4::NTUPLE);
    let genes = trained(&game);
    let mut group = c.benchmark_group("value genome (connect4, 70×8)");
    bench_learning(&mut group, &game, &genes);
    let positions = positions(&game, 100);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("one-ply decision", |b| {
        b.iter(|| {
            for pos in &positions {
                black_box(game.decide(&genes, pos, IllegalPolicy::Repair));
            }
        })
    });
    // The bank's positions, each one decision: a run's fitness with
    // `--fitness vs:bank` on a value genome.
    let cfg = EvolveConfig::method(game.spec(), 1);
    let tutor = Tutor::for_run(&game, &cfg)
        .expect("the built-in bank loads")
        .expect("connect4 has a bank");
    tutor.points(&game, &genes);
    group.throughput(Throughput::Elements(tutor.train_len() as u64));
    group.bench_function("bank fitness, one ply", |b| {
        b.iter(|| tutor.points(&game, &genes))
    });
    let few = &positions[..20];
    group.throughput(Throughput::Elements(few.len() as u64));
    group.bench_function("8-ply search", |b| {
        b.iter(|| {
            for pos in few {
                black_box(game.search(&genes, pos, 8));
            }
        })
    });
    group.finish();
    shipped_search(c, &game);
}

/// The shipped `connect4-ntuple.genome` searching its own games' positions
/// (self-play at one ply after two random plies): what a move of
/// `connect4.genome` costs in play, at the shipped depth and deeper.
fn shipped_search(c: &mut Criterion, game: &Pair<Connect4, ValueGenome>) {
    let path = std::path::Path::new("genomes/connect4-ntuple.genome");
    let genes = bebete::genome::Genome::load(path)
        .expect("the shipped Connect-Four value genome")
        .genes;
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut positions = Vec::new();
    for _ in 0..6 {
        let mut pos = game.start();
        for ply in 0.. {
            if game.outcome(&pos).is_some() {
                break;
            }
            positions.push(pos);
            let mv = if ply < 2 {
                let mut moves = Vec::new();
                game.legal_moves(&pos, &mut moves);
                moves[rng.random_range(0..moves.len())]
            } else {
                game.decide(&genes, &pos, IllegalPolicy::Repair)
                    .expect("a move")
            };
            pos = game.play(&pos, mv);
        }
    }
    let mut group = c.benchmark_group("connect4.genome, a move in its own games");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    for depth in [8, 9] {
        group.bench_function(format!("{depth}-ply search"), |b| {
            b.iter(|| {
                for pos in &positions {
                    black_box(game.search(&genes, pos, depth));
                }
            })
        });
    }
    group.finish();
}

/// A value genome that has learned from 2,000 self-play games.
fn trained<G: TableGame + Learns<G>>(game: &G) -> Vec<u8> {
    let mut genes = random_genes(game, &mut Pcg64Mcg::seed_from_u64(1));
    game.learn(&mut genes, 2_000, Pcg64Mcg::seed_from_u64(2));
    genes
}

/// 100 self-play games of learning, each batch from a fresh copy of `genes`.
fn bench_learning<G: TableGame + Learns<G>>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    game: &G,
    genes: &[u8],
) {
    group.sample_size(10);
    group.throughput(Throughput::Elements(100));
    group.bench_function("100 self-play games, learning", |b| {
        b.iter_batched_ref(
            || genes.to_vec(),
            |g| game.learn(g, 100, Pcg64Mcg::seed_from_u64(3)),
            BatchSize::LargeInput,
        )
    });
}

/// Checkers: the move generator (perft from the start, the count engine
/// writers compare), the sub-grid genome's decision, and the value
/// genome's self-play learning.
fn checkers(c: &mut Criterion) {
    use bebete::games::walk::perft;
    let game = Checkers::SUBGRID;
    let mut group = c.benchmark_group("checkers");
    group.sample_size(10);
    group.throughput(Throughput::Elements(845_931));
    group.bench_function("perft 8 from the start (845,931 leaves)", |b| {
        b.iter(|| perft(&game, &game.start(), black_box(8)))
    });
    group.finish();
    decision(
        c,
        "checkers (25 window codes + 25 lookups + vote)",
        Checkers::SUBGRID,
    );
    // The shape measured since the group was written (the default is
    // 128×6 now: the same code, twice the tables).
    let game = Checkers::value_genome(NTuple {
        tuples: 64,
        length: 6,
    });
    let genes = trained(&game);
    let mut group = c.benchmark_group("value genome (checkers, 64×6)");
    bench_learning(&mut group, &game, &genes);
    group.finish();
}

/// The exact Connect-Four search: the engine's own, which stops at the
/// server's deadline and at a hang-up (`players/knowledge/connect4_search.rs`),
/// against the `connect-four-ai` crate's, whose algorithm, table and book
/// it uses. Each iteration scores every column of 6 positions 14 plies into
/// random games, from an empty table.
fn exact_solver(c: &mut Criterion) {
    let game = Connect4::SUBGRID;
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut chosen = Vec::new();
    while chosen.len() < 6 {
        let mut pos = game.start();
        let mut moves = String::new();
        for _ in 0..14 {
            let mut legal = Vec::new();
            game.legal_moves(&pos, &mut legal);
            if game.outcome(&pos).is_some() || legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(0..legal.len())];
            moves.push_str(&game.format_move(mv));
            pos = game.play(&pos, mv);
        }
        if moves.len() == 14 && game.outcome(&pos).is_none() {
            chosen.push((pos, moves));
        }
    }
    let mut group = c.benchmark_group("connect4 exact solver, 6 positions at 14 plies");
    group.sample_size(10);
    group.bench_function("the engine's stoppable search", |b| {
        b.iter_batched(
            bebete::players::knowledge::Connect4Solver::new,
            |mut solver| {
                for (pos, _) in &chosen {
                    black_box(solver.scores(pos));
                }
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("connect-four-ai's own", |b| {
        b.iter_batched(
            connect_four_ai::Solver::new,
            |mut solver| {
                for (_, moves) in &chosen {
                    let pos = connect_four_ai::Position::from_moves(moves).expect("legal moves");
                    black_box(solver.get_all_move_scores(&pos));
                }
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// Othello: perft on bitboards, the exact ending, and the straight value
/// genomes' learning.
fn othello(c: &mut Criterion) {
    use bebete::games::Othello;
    let game = Othello::STRAIGHT;
    let mut group = c.benchmark_group("othello");
    group.sample_size(10);
    group.throughput(Throughput::Elements(3_005_288));
    group.bench_function("perft 9 from the start (3,005,288 leaves)", |b| {
        b.iter(|| game.perft(&game.start(), black_box(9)))
    });
    // The exact ending `alphabeta:D` and a genome's search play: every move
    // of 20 positions of random games with 10 and with 12 empty squares.
    for empties in [10, 12] {
        let endings: Vec<_> = positions(&game, 20_000)
            .into_iter()
            .filter(|p| p.empty().count_ones() == empties)
            .filter(|p| game.exact_ending(p).is_some())
            .take(20)
            .collect();
        group.throughput(Throughput::Elements(endings.len() as u64));
        group.bench_function(
            format!("exact ending, every move, {empties} empty squares"),
            |b| {
                b.iter(|| {
                    for pos in &endings {
                        black_box(game.exact_ending(pos));
                    }
                })
            },
        );
    }
    group.finish();
    // Self-play on one thread and on two (one learner a thread, as a
    // generation learns), for the straight pairs and quadruples and the
    // default patterns; and the quadruples learning against the
    // benchmark's player (`wpc@0.1`, the specialist recipe's).
    for (game, shape) in [
        (Othello::STRAIGHT_PAIRS, "32×2 straight"),
        (Othello::STRAIGHT, "21×4 straight"),
        (Othello::PATTERNS, "7×8 patterns"),
        (Othello::patterns_in_stages(6), "42×8 patterns in 6 stages"),
    ] {
        let genes = trained(&game);
        let mut group = c.benchmark_group(format!("value genome (othello, {shape})"));
        bench_learning(&mut group, &game, &genes);
        group.throughput(Throughput::Elements(200));
        // The same two learners one after the other: what the two threads'
        // time is a fraction of (each learner's games differ in length).
        group.bench_function("2 learners × 100 self-play games, one thread", |b| {
            b.iter_batched_ref(
                || (genes.to_vec(), genes.to_vec()),
                |(a, b)| {
                    game.learn(a, 100, Pcg64Mcg::seed_from_u64(3));
                    game.learn(b, 100, Pcg64Mcg::seed_from_u64(4));
                },
                BatchSize::LargeInput,
            )
        });
        group.bench_function("2 learners × 100 self-play games, 2 threads", |b| {
            b.iter_batched_ref(
                || (genes.to_vec(), genes.to_vec()),
                |(a, b)| {
                    std::thread::scope(|scope| {
                        scope.spawn(|| game.learn(a, 100, Pcg64Mcg::seed_from_u64(3)));
                        game.learn(b, 100, Pcg64Mcg::seed_from_u64(4));
                    })
                },
                BatchSize::LargeInput,
            )
        });
        if game == Othello::STRAIGHT {
            group.throughput(Throughput::Elements(100));
            group.bench_function("100 games against wpc@0.1, learning", |b| {
                b.iter_batched_ref(
                    || {
                        let wpc = GreedyPlayer::new(5);
                        (genes.to_vec(), NoisyPlayer::new(Box::new(wpc), 0.1, 6))
                    },
                    |(g, wpc)| {
                        let mut choose = |pos: &_| wpc.choose(&game, pos);
                        game.learn_against(g, 100, Pcg64Mcg::seed_from_u64(3), &mut choose)
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        group.finish();
    }
}

/// An observed game's child as the engine values it: a Connect-Four-sized
/// tensor of planes (`[3, 6, 7]`, OpenSpiel's) read as cells, then valued
/// by the default genome (42 tuples of 6 cells): the Rust part of each
/// legal child of each move of a learning game over OpenSpiel.
fn observed_child(c: &mut Criterion) {
    use bebete::observed::{Layout, Shape, TensorGenome};
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    // Tensors of random boards: each cell empty, the first's or the second's.
    let tensors: Vec<Vec<f32>> = (0..64)
        .map(|_| {
            let cells: Vec<usize> = (0..42).map(|_| rng.random_range(0..3)).collect();
            (0..3)
                .flat_map(|p| cells.iter().map(move |&c| f32::from(c == p)))
                .collect()
        })
        .collect();
    let layout = Layout::probe("connect_four", &[3, 6, 7], &tensors.concat()).expect("a layout");
    let mut states = vec![0u8; layout.cells()];
    let mut i = 0;
    for (name, mirror) in [("", false), ("_mirrored", true)] {
        let genome =
            TensorGenome::random(&layout, Shape::default_for(&layout), mirror, 2, &mut rng);
        c.bench_function(
            &format!("observed_child/connect_four_read_and_value{name}"),
            |b| {
                b.iter(|| {
                    i = (i + 1) % tensors.len();
                    layout.read(black_box(&tensors[i]), &mut states);
                    black_box(genome.value(&states, 0))
                })
            },
        );
    }
}

criterion_group!(
    benches,
    observed_child,
    exact_solver,
    checkers,
    othello,
    value_genome,
    decisions,
    games,
    tournaments,
    breed,
    bank,
    migration,
    checkpoints
);
criterion_main!(benches);
