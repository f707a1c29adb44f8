//! Soak: many games between every pair of player kinds, in every
//! registered two-player game under each of its encoders, with every move
//! checked legal by the rules as it is played.
//!
//! The short soak runs with `cargo test`; the full one (100,000 games) is
//! `scripts/soak.sh`, whose figures are in docs/reliability.md.

use bebete_core::dispatch::BuiltInGame;
use bebete_core::dispatch::abilities;
use bebete_core::dispatch::{Dispatch, GameVisitor};
use bebete_core::encoding::IllegalPolicy;
use bebete_core::games::{Game, GameSpec, Outcome};
use bebete_core::genome::Genome;
use bebete_core::players::{GenomePlayer, Player, PlayerSpec};
use bebete_core::seed::derive_seed;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_pcg::Pcg64Mcg;
use std::sync::Arc;

/// What a soak saw.
#[derive(Debug, Default)]
struct Soak {
    games: u64,
    moves: u64,
    forfeits: u64,
    decisive: u64,
}

/// A player kind of the soak: a built-in spec, or a random genome under a
/// policy and shell.
#[derive(Clone, Debug)]
enum Kind {
    Spec(&'static str),
    Genome {
        policy: IllegalPolicy,
        lookahead: u8,
    },
}

fn kinds(exact: bool) -> Vec<Kind> {
    let mut kinds = vec![
        Kind::Spec("random"),
        Kind::Spec("rules"),
        Kind::Spec("mc:3"),
        Kind::Spec("alphabeta:2"),
        Kind::Genome {
            policy: IllegalPolicy::Repair,
            lookahead: 0,
        },
        Kind::Genome {
            policy: IllegalPolicy::Forfeit,
            lookahead: 0,
        },
        Kind::Genome {
            policy: IllegalPolicy::Repair,
            lookahead: 2,
        },
    ];
    // Perfect play from the first plies of Connect-Four takes the solver
    // seconds a move: it is soaked in the small games.
    if exact {
        kinds.push(Kind::Spec("perfect"));
    }
    kinds
}

struct Run {
    games_per_pair: u64,
    seed: u64,
}

impl GameVisitor for Run {
    type Output = Soak;

    fn visit<G: BuiltInGame>(self, game: G) -> Soak {
        let mut soak = Soak::default();
        let kinds = kinds(G::SOLVABLE);
        let genes: Arc<[u8]> = Genome::random(game.spec(), self.seed).genes.into();
        let make = |kind: &Kind, seed: u64| -> Box<dyn Player<G>> {
            match kind {
                Kind::Spec(text) => PlayerSpec::parse(text)
                    .unwrap()
                    .build(&game, seed, IllegalPolicy::Repair)
                    .unwrap(),
                Kind::Genome { policy, lookahead } => {
                    Box::new(GenomePlayer::new(genes.clone(), *policy).with_lookahead(*lookahead))
                }
            }
        };
        for (a, first) in kinds.iter().enumerate() {
            for (b, second) in kinds.iter().enumerate() {
                for g in 0..self.games_per_pair {
                    let seed = derive_seed(self.seed, (a * 16 + b) as u64, g);
                    let mut players = [make(first, seed), make(second, seed ^ 1)];
                    let forfeits = [first, second].map(|k| {
                        matches!(
                            k,
                            Kind::Genome {
                                policy: IllegalPolicy::Forfeit,
                                ..
                            }
                        )
                    });
                    play_checked(&game, &mut players, forfeits, seed, &mut soak);
                }
            }
        }
        soak
    }
}

/// One game from a random opening of 0-3 plies; every move must be legal,
/// and only a forfeiting genome may forfeit.
fn play_checked<G: Game>(
    game: &G,
    players: &mut [Box<dyn Player<G>>; 2],
    may_forfeit: [bool; 2],
    seed: u64,
    soak: &mut Soak,
) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = game.start();
    let mut moves = Vec::new();
    for _ in 0..seed % 4 {
        game.legal_moves(&pos, &mut moves);
        let Some(&mv) = moves.choose(&mut rng) else {
            break;
        };
        let next = game.play(&pos, mv);
        if game.outcome(&next).is_some() {
            break;
        }
        pos = next;
    }
    let mut turn = 0;
    let outcome = loop {
        if let Some(outcome) = game.outcome(&pos) {
            break outcome;
        }
        let side = game.turn(&pos);
        let who = turn % 2;
        match players[who].choose(game, &pos) {
            Some(mv) => {
                assert!(
                    game.is_legal(&pos, mv),
                    "{:?} played an illegal {mv:?} in {pos:?}",
                    who
                );
                pos = game.play(&pos, mv);
                soak.moves += 1;
            }
            None => {
                assert!(may_forfeit[who], "player {who} forfeited in {pos:?}");
                soak.forfeits += 1;
                break Outcome::Win(side.other());
            }
        }
        turn += 1;
    };
    soak.games += 1;
    soak.decisive += matches!(outcome, Outcome::Win(_)) as u64;
}

/// Every registered two-player game under each of its encoders and rule
/// variants (the registry's list: a new game is soaked at once); peg
/// solitaire, one player, has no pairs to soak.
fn specs() -> Vec<GameSpec> {
    GameSpec::registered()
        .into_iter()
        .filter(|spec| abilities(*spec).players == 2)
        .collect()
}

/// Plays `games_per_pair` games for every ordered pair of kinds in every
/// game; returns the totals.
fn soak(games_per_pair: u64, seed: u64) -> Soak {
    let mut total = Soak::default();
    for spec in specs() {
        let s = spec.visit(Run {
            games_per_pair,
            seed,
        });
        println!(
            "{spec}: {} games, {} moves, {} forfeits, {} decisive",
            s.games, s.moves, s.forfeits, s.decisive
        );
        total.games += s.games;
        total.moves += s.moves;
        total.forfeits += s.forfeits;
        total.decisive += s.decisive;
    }
    total
}

#[test]
fn a_short_soak_plays_only_legal_moves() {
    let total = soak(4, 1);
    assert!(total.games >= 1_000, "{total:?}");
    // Forfeiting genomes do forfeit (a random table names taken cells).
    assert!(total.forfeits > 0, "{total:?}");
}

/// The full soak: `scripts/soak.sh` (about 100,000 games).
#[test]
#[ignore]
fn the_full_soak() {
    let total = soak(350, 7);
    println!("total: {total:?}");
    assert!(total.games >= 100_000, "{total:?}");
}
