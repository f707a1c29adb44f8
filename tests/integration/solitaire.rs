//! Peg solitaire from the command line: `solve` against the published and
//! independently counted figures, evolution to a one-peg genome, an exact
//! resume, `audit`, `explain`, `move`, `play`, and the one-line refusals of
//! what needs two players.

use crate::common::{bebete, same_run, stats_without_times, stdout_of};
use predicates::str::contains;
use serde_json::Value;

#[test]
fn solve_gives_the_board_figures() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(bebete(dir.path()).args(["solve", "--game", "peg", "--json"]));
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["positions"], 3016);
    assert_eq!(json["best_pegs"], 1);
    assert_eq!(json["one_peg_sequences"], "29760");
    assert_eq!(json["one_peg_positions"], 769);
    assert_eq!(json["rules"]["rows"], 5);
    let four = stdout_of(bebete(dir.path()).args(["solve", "--game", "solitaire", "--rows", "4"]));
    assert!(four.contains("best        3 pegs left"), "{four}");
    let jumps = stdout_of(bebete(dir.path()).args(["solve", "--game", "peg", "--position", "4-1"]));
    assert!(
        jumps.contains("6-4  ends with 1 peg at best; 8824 sequences"),
        "{jumps}"
    );
}

#[test]
fn evolution_reaches_one_peg_and_the_champion_is_audited() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        bebete(dir.path()).args(["evolve", "--game", "peg", "--seed", "2", "--run", "runs/p"]),
    );
    assert!(out.contains("target reached"), "{out}");
    assert!(out.contains("leaves 1 peg from the start"), "{out}");
    let header = std::fs::read_to_string(dir.path().join("runs/p/stats.csv")).unwrap();
    assert!(
        header
            .lines()
            .next()
            .unwrap()
            .ends_with("pegs,optimal_rate"),
        "{header}"
    );
    let audit = stdout_of(bebete(dir.path()).args(["audit", "runs/p/best.genome"]));
    assert!(
        audit.contains("from the start  1 peg left (the board allows 1)"),
        "{audit}"
    );
    assert!(audit.contains("of 2894 reachable positions"), "{audit}");
    let moved =
        stdout_of(bebete(dir.path()).args(["move", "runs/p/best.genome", "--position", "4-1"]));
    assert!(moved.trim().contains('-'), "{moved}");
    let explained =
        stdout_of(bebete(dir.path()).args(["explain", "runs/p/best.genome", "--position", "4-1"]));
    assert!(explained.contains("index 32757, gene"), "{explained}");
    let played = bebete(dir.path())
        .args(["play", "runs/p"])
        .write_stdin("?\n4-1\nq\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let played = String::from_utf8(played).unwrap();
    assert!(played.contains("bebete suggests"), "{played}");
    assert!(played.contains("13 pegs left"), "{played}");
}

#[test]
fn a_resumed_solitaire_run_equals_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "--game",
        "peg",
        "--empty",
        "4",
        "--seed",
        "9",
        "--preset",
        "method",
        "--fitness",
        "solo",
    ];
    let flags2 = [
        "--population",
        "20",
        "--elite",
        "4",
        "--bench-every",
        "5",
        "--checkpoint-every",
        "5",
    ];
    // Two runs of the same name (it is in the champion's provenance).
    for folder in ["a", "b"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
    }
    bebete(dir.path())
        .args(["evolve", "--generations", "20", "--run", "a/run"])
        .args(flags)
        .args(flags2)
        .assert()
        .success();
    bebete(dir.path())
        .args(["evolve", "--generations", "10", "--run", "b/run"])
        .args(flags)
        .args(flags2)
        .assert()
        .success();
    bebete(dir.path())
        .args(["resume", "b/run", "--generations", "10"])
        .assert()
        .success();
    let (whole, split) = (dir.path().join("a/run"), dir.path().join("b/run"));
    assert_eq!(stats_without_times(&whole), stats_without_times(&split));
    same_run(&whole, &split);
}

#[test]
fn two_player_notions_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let fails = |args: &[&str], words: &str| {
        bebete(dir.path())
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(words));
    };
    fails(
        &[
            "evolve",
            "--game",
            "peg",
            "--preset",
            "method",
            "--fitness",
            "round-robin",
        ],
        "a one-player game has no opponents",
    );
    fails(
        &[
            "evolve",
            "--game",
            "peg",
            "--preset",
            "method",
            "--fitness",
            "vs:rules:10",
        ],
        "a one-player game has no opponents",
    );
    fails(
        &["evolve", "--game", "peg", "--target", "unbeatable"],
        "use pegs:N",
    );
    fails(
        &["evolve", "--game", "peg", "--lookahead", "2"],
        "a one-player game has none",
    );
    fails(
        &["evolve", "--game", "peg", "--bench-against", "random"],
        "no opponents to measure against",
    );
    fails(
        &[
            "evolve",
            "--game",
            "ttt",
            "--preset",
            "method",
            "--fitness",
            "solo",
        ],
        "solo is a fitness of one-player games",
    );
    fails(
        &["evolve", "--game", "ttt", "--target", "pegs:1"],
        "pegs:N is a target of one-player games",
    );
    fails(
        &[
            "evolve",
            "--game",
            "peg",
            "--rows",
            "7",
            "--preset",
            "method",
            "--fitness",
            "vs:exhaustive",
        ],
        "up to 6 rows",
    );
    fails(
        &["play", "--game", "peg", "--opponent", "rules"],
        "one-player game: only random, perfect and genomes",
    );
    fails(&["solve", "--game", "peg", "--rows", "9"], "--rows");
    fails(&["solve", "--game", "peg", "--empty", "16"], "--empty 16");
    fails(
        &["solve", "--game", "ttt", "--rows", "5"],
        "--rows and --empty apply only to --game solitaire",
    );
    fails(
        &["solve", "--game", "peg", "--position", "4-2"],
        "4-2 is not a jump",
    );
    bebete(dir.path())
        .args([
            "genome", "random", "--game", "peg", "--seed", "1", "--out", "p.genome",
        ])
        .assert()
        .success();
    fails(
        &["eval", "p.genome", "--against", "random"],
        "solitaire is a one-player game",
    );
}
