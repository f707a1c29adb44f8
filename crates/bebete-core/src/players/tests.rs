//! Tests of the fixed opponents against each other.

use super::*;
use crate::dispatch::BuiltInGame;
use crate::encoding::Learns;
use crate::games::{Connect4, Matchsticks, MatchsticksRules, TakeRule, TicTacToe};
use crate::players::Playable;

fn spec(text: &str) -> PlayerSpec {
    PlayerSpec::parse(text).unwrap()
}

/// Outcomes of `games` games of `a` against `b`, sides alternating.
fn results<G: Playable>(game: &G, a: &str, b: &str, games: u64) -> Vec<(Side, Outcome)> {
    let fa = spec(a).factory(game, IllegalPolicy::Repair).unwrap();
    let fb = spec(b).factory(game, IllegalPolicy::Repair).unwrap();
    (0..games)
        .map(|g| {
            let mut pa = fa.make(game, g);
            let mut pb = fb.make(game, 1000 + g);
            if g % 2 == 0 {
                (
                    Side::First,
                    play_game(game, game.start(), pa.as_mut(), pb.as_mut()),
                )
            } else {
                (
                    Side::Second,
                    play_game(game, game.start(), pb.as_mut(), pa.as_mut()),
                )
            }
        })
        .collect()
}

fn losses(results: &[(Side, Outcome)]) -> usize {
    results
        .iter()
        .filter(|(side, outcome)| *outcome == Outcome::Win(side.other()))
        .count()
}

#[test]
fn perfect_never_loses_at_tictactoe() {
    for opponent in ["random", "rules", "mc:20", "alphabeta:2", "perfect"] {
        let r = results(&TicTacToe::BASE3, "perfect", opponent, 60);
        assert_eq!(losses(&r), 0, "perfect lost to {opponent}");
    }
    // Against itself every game is drawn.
    let r = results(&TicTacToe::BASE3, "perfect", "perfect", 20);
    assert!(r.iter().all(|(_, o)| *o == Outcome::Draw));
}

#[test]
fn perfect_wins_every_matchsticks_game_from_the_winning_side() {
    use crate::solve::{Solver, Value};
    for rules in [
        MatchsticksRules::default(),
        MatchsticksRules {
            sticks: 30,
            rule: TakeRule::Double,
        },
    ] {
        let game = Matchsticks::state(rules);
        // The side the start position is won for.
        let winner = match Solver::new(&game).value(&game.start()) {
            Value::Win => Side::First,
            _ => Side::Second,
        };
        for opponent in ["random", "rules", "mc:10", "alphabeta:3", "perfect"] {
            let r = results(&game, "perfect", opponent, 40);
            for (side, outcome) in r {
                if side == winner {
                    assert_eq!(
                        outcome,
                        Outcome::Win(side),
                        "perfect lost a won game to {opponent} at {rules}"
                    );
                }
            }
        }
    }
}

/// Perfect play keeps the solver's value against random replies: from
/// midgame positions (14 random plies: the solver answers in milliseconds
/// there, where the first plies past its opening book take seconds) it
/// wins every won position and loses no drawn one.
#[test]
fn perfect_keeps_the_value_at_connect4_against_random() {
    use crate::solve::Value;
    let game = Connect4::SUBGRID;
    let perfect = spec("perfect")
        .factory(&game, IllegalPolicy::Repair)
        .unwrap();
    let mut solver = crate::players::knowledge::Connect4Solver::new();
    let mut opening = RandomPlayer::new(5);
    let mut checked = 0;
    for seed in 0..40 {
        Player::<Connect4>::reseed(&mut opening, seed);
        let mut pos = game.start();
        for _ in 0..14 {
            if game.outcome(&pos).is_some() {
                break;
            }
            pos = game.play(&pos, opening.choose(&game, &pos).unwrap());
        }
        if game.outcome(&pos).is_some() {
            continue;
        }
        let best = solver
            .move_values(&game.rules, &pos)
            .into_iter()
            .map(|(_, v)| v);
        let value = if best.clone().any(|v| v == Value::Win) {
            Value::Win
        } else if best.clone().any(|v| v == Value::Draw) {
            Value::Draw
        } else {
            continue;
        };
        let side = game.turn(&pos);
        let mut me = perfect.make(&game, seed);
        let mut other = RandomPlayer::new(100 + seed);
        let outcome = match side {
            Side::First => play_game(&game, pos, me.as_mut(), &mut other),
            Side::Second => play_game(&game, pos, &mut other, me.as_mut()),
        };
        match value {
            Value::Win => assert_eq!(outcome, Outcome::Win(side), "seed {seed}"),
            _ => assert_ne!(outcome, Outcome::Win(side.other()), "seed {seed}"),
        }
        checked += 1;
        if checked == 6 {
            break;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn rules_takes_an_immediate_win_and_blocks_a_single_threat() {
    let ttt = TicTacToe::BASE3;
    let mut rules = spec("rules").build(&ttt, 1, IllegalPolicy::Repair).unwrap();
    // X: 1, 2 (cells 0, 1); O: 5, 9. X to move wins at cell 3 (index 2).
    let pos = ttt.parse_position("1529").unwrap();
    for seed in 0..20 {
        rules.reseed(seed);
        assert_eq!(rules.choose(&ttt, &pos), Some(2));
    }
    // X: 1, 2; O: 5. O to move must block at cell 3.
    let pos = ttt.parse_position("152").unwrap();
    for seed in 0..20 {
        rules.reseed(seed);
        assert_eq!(rules.choose(&ttt, &pos), Some(2));
    }
    let c4 = Connect4::SUBGRID;
    let mut rules = spec("rules").build(&c4, 1, IllegalPolicy::Repair).unwrap();
    // X threatens four in column 1; O blocks there.
    let pos = c4.parse_position("12121").unwrap();
    assert_eq!(rules.choose(&c4, &pos), Some(0));
    // X to move with three in column 1 wins there.
    let pos = c4.parse_position("121212").unwrap();
    assert_eq!(rules.choose(&c4, &pos), Some(0));
    // Nothing to win or block: the centre.
    assert_eq!(rules.choose(&c4, &c4.start()), Some(3));
}

#[test]
fn alphabeta_and_mc_beat_random_most_of_the_time() {
    for player in ["alphabeta:3", "mc:30"] {
        let r = results(&TicTacToe::BASE3, player, "random", 40);
        assert!(
            losses(&r) <= 4,
            "{player} lost {} of 40 to random",
            losses(&r)
        );
    }
}

#[test]
fn player_specs_parse_and_name_their_ranges() {
    assert_eq!(spec("mc:200"), PlayerSpec::MonteCarlo(200));
    assert_eq!(spec("alphabeta:4"), PlayerSpec::AlphaBeta(4));
    assert_eq!(spec("alphabeta:4").to_string(), "alphabeta:4");
    let err = PlayerSpec::parse("mc:0").unwrap_err().to_string();
    assert!(err.contains("1-100000"), "{err}");
    // Parsing is pure; a name that is no player and no genome file is
    // refused when the player is built.
    assert_eq!(
        spec("chess-engine"),
        PlayerSpec::Genome("chess-engine".into())
    );
    let err = spec("chess-engine")
        .factory(&TicTacToe::BASE3, IllegalPolicy::Repair)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("unknown player 'chess-engine'"), "{err}");
}

#[test]
fn a_forfeiting_genome_loses() {
    let game = TicTacToe::BASE3;
    // Every gene says cell 0: legal once, then a forfeit.
    let mut forfeiter = GenomePlayer::new(vec![0u8; 19_683], IllegalPolicy::Forfeit);
    let mut random = RandomPlayer::new(3);
    let outcome = play_game(&game, game.start(), &mut forfeiter, &mut random);
    assert_eq!(outcome, Outcome::Win(Side::Second));
}

#[test]
fn perfect_takes_the_fastest_win_and_the_slowest_loss() {
    let game = TicTacToe::BASE3;
    let perfect = spec("perfect")
        .factory(&game, IllegalPolicy::Repair)
        .unwrap();
    // X on cells 0, 1, 4 and O on 6, 8, O to move: O wins at once at cell 7.
    let pos = game.parse_position("17295").unwrap();
    for seed in 0..10 {
        assert_eq!(perfect.make(&game, seed).choose(&game, &pos), Some(7));
    }
    // Matchsticks, 9 sticks, take 1-3, last loses: the mover is lost (9 ≡ 1
    // mod 4); its take must be one that loses as late as best play allows.
    let sticks = Matchsticks::state(MatchsticksRules {
        sticks: 9,
        rule: TakeRule::Subtract {
            max_take: 3,
            last_loses: true,
        },
    });
    let mut solver = crate::solve::Solver::new(&sticks);
    let start = sticks.start();
    let slowest = solver.score(&start);
    let p = spec("perfect")
        .factory(&sticks, IllegalPolicy::Repair)
        .unwrap();
    for seed in 0..10 {
        let take = p.make(&sticks, seed).choose(&sticks, &start).unwrap();
        let after = solver.score(&sticks.play(&start, take)).before();
        assert_eq!(after, slowest, "take {take}");
    }
}

#[test]
fn a_lost_perfect_player_resists_at_connect4() {
    // "4453": the mover is lost; the solver scores columns 3, 6 and 7 at -2
    // and the others lower. Perfect plays only the slowest losses.
    let game = Connect4::SUBGRID;
    let perfect = spec("perfect")
        .factory(&game, IllegalPolicy::Repair)
        .unwrap();
    let pos = game.parse_position("4453").unwrap();
    for seed in 0..12 {
        let col = perfect.make(&game, seed).choose(&game, &pos).unwrap();
        assert!([2, 5, 6].contains(&col), "column {}", col + 1);
    }
}

/// Misère matchsticks ends with a win for the side to move (its opponent
/// took the last stick): alphabeta scores such an end as a win for it, not
/// a loss, and so plays the winning take where one ply sees the end.
#[test]
fn alphabeta_reads_a_finished_game_won_by_the_side_to_move() {
    let game = Matchsticks::state(MatchsticksRules {
        sticks: 2,
        rule: TakeRule::Subtract {
            max_take: 3,
            last_loses: true,
        },
    });
    // Two sticks: take one (the opponent must take the last and loses),
    // never both.
    for seed in 0..10 {
        let mut player = spec("alphabeta:2")
            .build(&game, seed, IllegalPolicy::Repair)
            .unwrap();
        assert_eq!(player.choose(&game, &game.start()), Some(1));
    }
}

#[test]
fn wpc_and_random_move_rates_parse_and_play() {
    use crate::games::Othello;
    assert_eq!(spec("wpc"), PlayerSpec::Wpc);
    let noisy = spec("wpc@0.1");
    assert_eq!(noisy, PlayerSpec::Noisy(Box::new(PlayerSpec::Wpc), 100));
    assert_eq!(noisy.to_string(), "wpc@0.1");
    assert_eq!(noisy.plain(), &PlayerSpec::Wpc);
    assert_eq!(spec("alphabeta:4@0.05").to_string(), "alphabeta:4@0.05");
    assert_eq!(
        spec("genomes/o.genome@1"),
        PlayerSpec::Noisy(
            Box::new(PlayerSpec::Genome("genomes/o.genome".into())),
            1000
        )
    );
    for bad in [
        "wpc@",
        "wpc@1.5",
        "wpc@-0.1",
        "wpc@0.0001",
        "wpc@x",
        "wpc@0.1@0.1",
    ] {
        let err = PlayerSpec::parse(bad).unwrap_err().to_string();
        assert!(err.starts_with(&format!("player '{bad}'")), "{err}");
    }
    // Only a game whose heuristic is a weighted piece counter has wpc.
    let err = spec("wpc")
        .factory(&TicTacToe::BASE3, IllegalPolicy::Repair)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("tictactoe has no weighted piece counter"),
        "{err}"
    );
    // wpc beats random at Othello; with every move random (@1) it is
    // random, and loses half its games to random.
    let game = Othello::STRAIGHT;
    let won = |r: &[(Side, Outcome)]| r.iter().filter(|(s, o)| *o == Outcome::Win(*s)).count();
    assert!(won(&results(&game, "wpc", "random", 40)) >= 30);
    let all_random = won(&results(&game, "wpc@1", "random", 40));
    assert!((8..=32).contains(&all_random), "{all_random}");
    // The same seed plays the same game.
    let again = |seed| {
        let mut a = spec("wpc@0.1")
            .build(&game, seed, IllegalPolicy::Repair)
            .unwrap();
        let mut b = spec("wpc@0.1")
            .build(&game, seed + 1, IllegalPolicy::Repair)
            .unwrap();
        let mut pos = game.start();
        let mut line = Vec::new();
        while game.outcome(&pos).is_none() {
            let player = if game.turn(&pos) == Side::First {
                &mut a
            } else {
                &mut b
            };
            let mv = player.choose(&game, &pos).unwrap();
            line.push(mv);
            pos = game.play(&pos, mv);
        }
        line
    };
    assert_eq!(again(5), again(5));
    assert_ne!(again(5), again(6));
}

/// Exact play is an ability a game has or not: where it has it, `perfect`
/// plays a whole game; where it has none (checkers, Othello), `perfect` is
/// refused naming the game, and nothing stands in for the solver.
#[test]
fn perfect_is_refused_by_name_where_a_game_has_no_exact_play() {
    use crate::dispatch::{Dispatch, GameVisitor};
    struct Perfect;
    impl GameVisitor for Perfect {
        type Output = (bool, Result<(), String>);
        fn visit<G: BuiltInGame>(self, game: G) -> Self::Output {
            let has = game.exact().is_some();
            let made = PlayerSpec::Perfect
                .factory(&game, IllegalPolicy::Repair)
                .map(|factory| {
                    let mut player = factory.make(&game, 1);
                    // One move from the start, when the game is small
                    // enough to solve at once.
                    if G::SOLVABLE || G::PLAYERS == 1 {
                        assert!(player.choose(&game, &game.start()).is_some());
                    }
                })
                .map_err(|e| e.to_string());
            (has, made)
        }
    }
    let mut without = Vec::new();
    for spec in crate::games::GameSpec::registered() {
        let (has, made) = spec.visit(Perfect);
        match made {
            Ok(()) => assert!(has, "{spec}"),
            Err(e) => {
                assert!(!has, "{spec}: {e}");
                let name = spec.game().name();
                let counts = if name == "othello" {
                    "with the weighted piece counter (wpc)"
                } else {
                    "with a material count"
                };
                assert_eq!(
                    e,
                    format!(
                        "player 'perfect': {name} has no exact solver; alphabeta:D searches D plies {counts}"
                    )
                );
                without.push(name);
            }
        }
    }
    without.dedup();
    assert_eq!(without, ["checkers", "othello"]);
}

/// Othello's last empty squares are searched exactly: `alphabeta:1` and a
/// value genome searching 2 plies, however weak their evaluation (fresh
/// random genes), play a move with the best final result there.
#[test]
fn othello_endings_are_played_exactly() {
    use crate::games::{Othello, OthelloPosition};
    use rand::{RngExt, SeedableRng};
    let minimax = |_: &Othello, pos: &OthelloPosition| crate::games::othello_ending_by_minimax(pos);
    let game = Othello::STRAIGHT;
    let genes = crate::genome::random_genes(&game, &mut rand_pcg::Pcg64Mcg::seed_from_u64(2));
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    let mut alphabeta = AlphaBetaPlayer::new(1, 9);
    for round in 0..30 {
        let mut pos = game.start();
        let mut moves = Vec::new();
        while game.outcome(&pos).is_none() && pos.empty().count_ones() > 3 + round % 6 {
            game.legal_moves(&pos, &mut moves);
            pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome(&pos).is_some() {
            continue;
        }
        let best = minimax(&game.rules, &pos);
        let value_of = |mv| -minimax(&game.rules, &game.play(&pos, mv));
        let played = alphabeta.choose(&game, &pos).unwrap();
        assert_eq!(value_of(played), best, "alphabeta:1\n{}", game.render(&pos));
        let searched = game.search(&genes, &pos, 2).unwrap();
        assert_eq!(value_of(searched), best, "2 plies\n{}", game.render(&pos));
    }
}

/// The fixed players, exact play and perft take a game's rules alone: no
/// genome kind is needed to build or play them (a game is its rules).
#[test]
fn the_fixed_players_and_exact_play_need_only_the_rules() {
    use crate::games::{Checkers, Othello};
    let exact = TicTacToe.exact().expect("tic-tac-toe is solved whole");
    let mut perfect = PerfectPlayer::new(&TicTacToe, exact.as_ref(), 1);
    let mut other = PerfectPlayer::new(&TicTacToe, exact.as_ref(), 2);
    assert_eq!(
        play_game(&TicTacToe, TicTacToe.start(), &mut perfect, &mut other),
        Outcome::Draw
    );
    // Two plies of search against random moves, and the weighted piece
    // counter against random moves, each moving first.
    for (g, seed) in (0..4).map(|g| (g, 10 + g)) {
        let mut searcher = AlphaBetaPlayer::new(2, seed);
        let mut random = RandomPlayer::new(seed);
        let c4 = play_game(&Connect4, Connect4.start(), &mut searcher, &mut random);
        assert_eq!(c4, Outcome::Win(Side::First), "connect4 game {g}");
    }
    let mut monte_carlo = MonteCarloPlayer::new(8, 7);
    let checkers = play_game(
        &Checkers,
        Checkers.start(),
        &mut monte_carlo,
        &mut RandomPlayer::new(8),
    );
    assert_ne!(checkers, Outcome::Win(Side::Second));
    assert_eq!(Othello.perft(&Othello.start(), 4), 244);
    assert!(Othello.exact_ending(&Othello.start()).is_none());
}

/// A game's menu of fixed players ([`fixed_players`]) lists exactly the
/// plain players that build for it (`perfect` only with exact play,
/// `wpc` only with a weighted piece counter, a puzzle only `perfect` and
/// `random`), each with a count in the range its spec reads, and a rules
/// player saying what it does.
#[test]
fn the_menu_of_fixed_players_is_what_builds() {
    use crate::dispatch::{Dispatch, GameVisitor};
    struct Menu;
    impl GameVisitor for Menu {
        type Output = ();
        fn visit<G: BuiltInGame>(self, game: G) {
            let menu = fixed_players(&game);
            let spec_of = |p: &FixedPlayer| match p.count {
                Some(c) => {
                    assert!(c.least <= c.usual && c.usual <= c.most, "{}", p.name);
                    // The count's ends parse; one past either does not.
                    let with = |n: u32| PlayerSpec::parse(&format!("{}:{n}", p.name));
                    assert!(with(c.least).is_ok() && with(c.most).is_ok(), "{}", p.name);
                    assert!(with(c.least - 1).is_err() && with(c.most + 1).is_err());
                    format!("{}:{}", p.name, c.usual)
                }
                None => p.name.to_string(),
            };
            for name in ["perfect", "wpc", "alphabeta:2", "mc:2", "rules", "random"] {
                let builds = spec(name).factory(&game, IllegalPolicy::Repair).is_ok();
                let plain = name.split(':').next().unwrap();
                let listed = menu.iter().find(|p| p.name == plain);
                assert_eq!(builds, listed.is_some(), "{}: {name}", game.spec());
                if let Some(p) = listed {
                    assert!(!p.about.is_empty());
                    assert!(
                        spec(&spec_of(p))
                            .factory(&game, IllegalPolicy::Repair)
                            .is_ok()
                    );
                }
            }
            assert_eq!(menu.last().map(|p| p.name), Some("random"));
        }
    }
    for spec in crate::games::GameSpec::registered() {
        spec.visit(Menu);
    }
    let names = |kind: crate::games::GameName| -> Vec<&str> {
        crate::dispatch::fixed_players(kind.variants()[0])
            .iter()
            .map(|p| p.name)
            .collect()
    };
    use crate::games::GameName::{Checkers, Othello, Solitaire, TicTacToe};
    assert_eq!(
        names(TicTacToe),
        ["perfect", "alphabeta", "mc", "rules", "random"]
    );
    assert_eq!(names(Checkers), ["alphabeta", "mc", "rules", "random"]);
    assert_eq!(
        names(Othello),
        ["wpc", "alphabeta", "mc", "rules", "random"]
    );
    assert_eq!(names(Solitaire), ["perfect", "random"]);
    let c4 = crate::dispatch::fixed_players(crate::games::GameName::Connect4.variants()[0]);
    let rules = c4.iter().find(|p| p.name == "rules").unwrap();
    assert_eq!(rules.about, "win, block, the column nearest the centre");
}
