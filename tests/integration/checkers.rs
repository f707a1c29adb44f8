//! Checkers from the command line: perft, positions in move lists and FEN,
//! a run that resumes exactly on any thread count, and every command that
//! plays or explains a genome.

use crate::common::{bebete, exact_on_threads_and_resume, perft_lists, score_of, stdout_of};

/// `solve --perft` prints the published counts; plain `solve` says that
/// checkers has no exact solver and what to use instead.
#[test]
fn perft_counts_and_no_solver() {
    let dir = tempfile::tempdir().unwrap();
    perft_lists(
        dir.path(),
        "checkers",
        &[
            "7", "49", "302", "1469", "7361", "36768", "179740", "845931",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_of(bebete(dir.path()).args([
        "solve",
        "--game",
        "draughts",
        "--perft",
        "2",
        "--position",
        "B:W18,24,27,K28:B12,16,20,K22",
        "--json",
    ])))
    .unwrap();
    assert_eq!(
        json["counts"][0]["sequences"], 1,
        "a forced capture: {json}"
    );
    let refused = bebete(dir.path())
        .args(["solve", "--game", "checkers"])
        .assert()
        .code(2);
    let text = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(
        text.contains("no exact solver") && text.contains("--perft"),
        "{text}"
    );
    // A bad position names what is wrong.
    let bad = bebete(dir.path())
        .args([
            "solve",
            "--game",
            "checkers",
            "--perft",
            "1",
            "--position",
            "11-15 9-13",
        ])
        .assert()
        .code(2);
    let text = String::from_utf8_lossy(&bad.get_output().stderr).to_string();
    assert!(text.contains("move 2 ('9-13')"), "{text}");
}

/// A short run: the same seed gives the same champion on 1 and 2 threads,
/// and a run cut in two by a resume equals the whole one.
#[test]
fn a_checkers_run_is_exact_on_any_thread_count_and_across_a_resume() {
    exact_on_threads_and_resume(
        &[
            "evolve",
            "--game",
            "checkers",
            "--encoder",
            "subgrid",
            "--population",
            "12",
            "--elite",
            "3",
            "--seed",
            "4",
            "--bench-every",
            "0",
            "--checkpoint-every",
            "2",
        ],
        3,
    );
}

/// A genome plays, moves, explains and is measured; `perfect` is refused
/// for checkers with the reason.
#[test]
fn a_checkers_genome_plays_explains_and_is_measured() {
    let dir = tempfile::tempdir().unwrap();
    let genome = crate::common::random_genome(dir.path(), "c.genome", &["--game", "checkers"]);
    let genome = genome.to_str().unwrap();
    let mv = stdout_of(bebete(dir.path()).args(["move", genome, "--position", "11-15 23-19"]));
    assert!(
        mv.trim().contains('-') || mv.trim().contains('x'),
        "a move in the notation: {mv}"
    );
    let explained = stdout_of(bebete(dir.path()).args([
        "explain",
        genome,
        "--position",
        "B:W18,24,27,K28:B12,16,20,K22",
    ]));
    assert!(explained.contains("move scores"), "{explained}");
    assert!(
        explained.contains("K"),
        "the board shows kings: {explained}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        bebete(dir.path()).args(["explain", genome, "--json"]),
    ))
    .unwrap();
    assert_eq!(json["moves"].as_array().unwrap().len(), 7, "{json}");
    assert_eq!(json["windows"].as_array().unwrap().len(), 25, "{json}");
    let eval = stdout_of(bebete(dir.path()).args([
        "eval",
        genome,
        "--against",
        "random,alphabeta:1",
        "--games",
        "20",
    ]));
    assert!(eval.contains("alphabeta:1"), "{eval}");
    let refused = bebete(dir.path())
        .args(["eval", genome, "--against", "perfect", "--games", "2"])
        .assert()
        .code(2);
    let text = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(text.contains("checkers has no exact solver"), "{text}");
    // No exact audit: refused with what to use instead.
    let refused = bebete(dir.path()).args(["audit", genome]).assert().code(2);
    let text = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(text.contains("eval measures it"), "{text}");
    // A person plays two moves, one refused with the reason, then quits.
    let played = bebete(dir.path())
        .args(["play", "--game", "checkers", "--opponent", "alphabeta:2"])
        .write_stdin("11-15\n1-5\n15x22\nq\n")
        .assert()
        .success();
    let text = String::from_utf8_lossy(&played.get_output().stdout).to_string();
    assert!(text.contains("you are Black"), "{text}");
    assert!(text.contains("bebete plays"), "{text}");
}

/// The value genome for checkers learns by self-play inside evolution: a
/// small genome trained for 9,000 games per learner scores above 80%
/// against random, where the same genome untrained scores 66%. Its run is
/// exact on 1 and 2 threads and across a resume, learning steps included.
#[test]
fn checkers_value_genomes_learn_and_their_runs_are_exact() {
    let shape = ["--encoder", "ntuple", "--tuples", "16x4"];
    let learner = [
        "--population",
        "2",
        "--elite",
        "1",
        "--parents",
        "1",
        "--preset",
        "method",
        "--fitness",
        "vs:random:10",
        "--seed",
        "3",
        "--bench-every",
        "0",
    ];
    let dir = tempfile::tempdir().unwrap();
    bebete(dir.path())
        .args(["evolve", "--game", "checkers"])
        .args(shape)
        .args(learner)
        .args([
            "--self-play",
            "3000",
            "--generations",
            "3",
            "--run",
            "runs/v",
        ])
        .assert()
        .success();
    let eval = stdout_of(bebete(dir.path()).args([
        "eval",
        "genomes/v.genome",
        "--against",
        "random",
        "--games",
        "200",
        "--json",
    ]));
    let json: serde_json::Value = serde_json::from_str(&eval).unwrap();
    assert!(score_of(&json[0]) > 0.8, "{json}");
    let explained = stdout_of(bebete(dir.path()).args(["explain", "genomes/v.genome"]));
    assert!(explained.contains("<- played"), "{explained}");

    let mut args = vec!["evolve", "--game", "checkers"];
    args.extend(shape);
    args.extend(learner);
    args.extend(["--self-play", "200", "--checkpoint-every", "2"]);
    exact_on_threads_and_resume(&args, 2);
}

/// evolve's help names every registered game's defaults, checkers too.
#[test]
fn evolve_help_names_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout_of(bebete(dir.path()).args(["evolve", "--help"]));
    for kind in bebete::games::GameName::ALL {
        assert!(
            help.lines().any(|l| l
                .trim_start()
                .starts_with(&format!("--game {} ", kind.name()))),
            "{kind} missing from evolve --help:\n{help}"
        );
    }
}
