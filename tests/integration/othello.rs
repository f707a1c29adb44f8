//! Othello from the command line: perft, the value genomes learning by
//! self-play inside an exact run, the `wpc` player and random-move rates,
//! and every command that plays or explains a genome.

use crate::common::{bebete, refusal_of, score_of, stdout_of};
use crate::common::{exact_on_threads_and_resume, perft_lists};

/// `solve --perft` prints the published counts (a pass is a ply); plain
/// `solve` says Othello has no exact solver.
#[test]
fn perft_counts_and_no_solver() {
    let dir = tempfile::tempdir().unwrap();
    perft_lists(
        dir.path(),
        "othello",
        &[
            "4", "12", "56", "244", "1396", "8200", "55092", "390216", "3005288",
        ],
    );
    let text = refusal_of(bebete(dir.path()).args(["solve", "--game", "reversi"]));
    assert!(
        text.contains("no exact solver") && text.contains("--perft"),
        "{text}"
    );
}

/// The fixed players: `wpc` beats random, with or without random moves,
/// and a rate out of range names the player and the range.
#[test]
fn wpc_with_random_moves_is_measured() {
    let dir = tempfile::tempdir().unwrap();
    let json: serde_json::Value = serde_json::from_str(&stdout_of(bebete(dir.path()).args([
        "eval",
        "wpc@0.1",
        "--game",
        "othello",
        "--against",
        "random,wpc@0.1",
        "--games",
        "100",
        "--json",
    ])))
    .unwrap();
    let score = |i: usize| score_of(&json[i]);
    assert!(score(0) > 0.7, "{json}");
    assert!(
        (0.3..0.7).contains(&score(1)),
        "even against itself: {json}"
    );
    let text = refusal_of(bebete(dir.path()).args(["eval", "wpc@2", "--game", "othello"]));
    assert!(
        text.contains("player 'wpc@2'") && text.contains("0-1"),
        "{text}"
    );
    let text = refusal_of(bebete(dir.path()).args(["eval", "wpc", "--game", "c4"]));
    assert!(
        text.contains("connect4 has no weighted piece counter"),
        "{text}"
    );
}

/// Two learners of Othello's default value genome, the better kept,
/// selected on 4 games against `wpc@0.1`, no benchmark.
const LEARNERS: &[&str] = &[
    "--game",
    "othello",
    "--population",
    "2",
    "--elite",
    "1",
    "--parents",
    "1",
    "--preset",
    "method",
    "--fitness",
    "vs:wpc@0.1:4",
    "--bench-every",
    "0",
];

/// A genome's share of points in 200 games against random moves, and the
/// JSON tally it came from.
fn against_random(dir: &std::path::Path, genome: &str) -> (f64, serde_json::Value) {
    let json: serde_json::Value = serde_json::from_str(&stdout_of(bebete(dir).args([
        "eval",
        genome,
        "--against",
        "random",
        "--games",
        "200",
        "--json",
    ])))
    .unwrap();
    (score_of(&json[0]), json)
}

/// Two generations of `flags` (the learners' and an encoder) at
/// `self_play` games a learner, written to runs/RUN and genomes/RUN.genome:
/// the champion's `genome info` in text and in JSON.
fn champion_info(
    dir: &std::path::Path,
    flags: &[&str],
    self_play: &str,
    run: &str,
) -> (String, serde_json::Value) {
    bebete(dir)
        .arg("evolve")
        .args(flags)
        .args(["--self-play", self_play, "--generations", "2"])
        .args(["--run", &format!("runs/{run}")])
        .assert()
        .success();
    let genome = format!("genomes/{run}.genome");
    let text = stdout_of(bebete(dir).args(["genome", "info", &genome]));
    let json = stdout_of(bebete(dir).args(["genome", "info", &genome, "--json"]));
    (text, serde_json::from_str(&json).unwrap())
}

/// The run of `flags` at 60 self-play games a learner is exact on 1 and 2
/// threads and across a resume.
fn learning_is_exact(flags: &[&str]) {
    let args = [
        &["evolve"],
        flags,
        &["--self-play", "60", "--checkpoint-every", "2"],
    ]
    .concat();
    exact_on_threads_and_resume(&args, 2);
}

/// A value genome of straight quadruples learns by self-play inside evolution:
/// after 6,000 games per learner it beats random, where an untrained one
/// plays at random; it moves, explains itself square by square and plays
/// a person. Its run is exact on 1 and 2 threads and across a resume,
/// learning steps included.
#[test]
fn othello_value_genomes_learn_play_and_their_runs_are_exact() {
    let learner = [LEARNERS, &["--encoder", "straight", "--seed", "3"]].concat();
    let dir = tempfile::tempdir().unwrap();
    bebete(dir.path())
        .arg("evolve")
        .args(&learner)
        .args([
            "--self-play",
            "2000",
            "--generations",
            "3",
            "--run",
            "runs/v",
        ])
        .assert()
        .success();
    let (score, json) = against_random(dir.path(), "genomes/v.genome");
    assert!(score > 0.85, "{json}");

    let mv =
        stdout_of(bebete(dir.path()).args(["move", "genomes/v.genome", "--position", "f5 d6"]));
    let mv = mv.trim();
    assert!(
        mv.len() == 2 && ('a'..='h').contains(&mv.chars().next().unwrap()),
        "a square: {mv}"
    );
    let explained =
        stdout_of(bebete(dir.path()).args(["explain", "genomes/v.genome", "--position", "f5d6c3"]));
    assert!(explained.contains("<- played"), "{explained}");
    assert!(explained.contains("heaviest tuples"), "{explained}");
    bebete(dir.path())
        .args(["genome", "shell", "genomes/v.genome", "--lookahead", "3"])
        .args(["--out", "genomes/v3.genome"])
        .assert()
        .success();
    let searched = stdout_of(bebete(dir.path()).args(["explain", "genomes/v3.genome"]));
    assert!(searched.contains("searched 3 plies"), "{searched}");
    // A person: an illegal square is refused with the reason, then a move.
    let played = bebete(dir.path())
        .args(["play", "genomes/v.genome"])
        .write_stdin("a1\nf5\nq\n")
        .assert()
        .success();
    let text = String::from_utf8_lossy(&played.get_output().stdout).to_string();
    assert!(text.contains("a1 flips no disc"), "{text}");
    assert!(text.contains("bebete plays"), "{text}");
    assert!(text.contains("a b c d e f g h"), "{text}");

    let mut args = vec!["evolve"];
    args.extend(&learner);
    args.extend(["--self-play", "100", "--checkpoint-every", "2"]);
    exact_on_threads_and_resume(&args, 2);
}

/// `--learn-against`: each learner plays its games against a fixed player
/// instead of itself. The run records the player, and stays exact on 1
/// and 2 threads and across a resume (the opponent's random moves
/// included).
#[test]
fn othello_learning_against_a_fixed_player_is_exact_and_recorded() {
    let against = ["--learn-against", "wpc@0.1", "--self-play", "100"];
    let args = [&["evolve"], LEARNERS, &against, &["--seed", "5"]].concat();
    let dir = tempfile::tempdir().unwrap();
    let out =
        stdout_of(
            bebete(dir.path())
                .args(&args)
                .args(["--generations", "1", "--run", "runs/a"]),
        );
    assert!(out.contains("learned from"), "{out}");
    let toml = std::fs::read_to_string(dir.path().join("runs/a/run.toml")).unwrap();
    assert!(toml.contains("learn_against = \"wpc@0.1\""), "{toml}");
    let args = [&args[..], &["--checkpoint-every", "2"]].concat();
    exact_on_threads_and_resume(&args, 2);
}

/// `--encoder patterns`: the 7 hand-placed tables, learning as the papers'
/// TD(0) (from every move, one table for both sides). A few hundred games
/// teach them to beat random moves; `genome info` says how they learn, in
/// text and JSON; a run is exact on 1 and 2 threads and across a resume;
/// a shape of one's own is refused, naming the flag.
#[test]
fn othello_patterns_learn_say_how_and_their_runs_are_exact() {
    let patterns = [LEARNERS, &["--encoder", "patterns", "--seed", "4"]].concat();
    let dir = tempfile::tempdir().unwrap();
    let (info, json) = champion_info(dir.path(), &patterns, "500", "p");
    let (score, tally) = against_random(dir.path(), "genomes/p.genome");
    assert!(score > 0.8, "{tally}");
    assert!(
        info.contains("othello (value genome, 7×8 patterns)"),
        "{info}"
    );
    assert!(
        info.contains(
            "td          learns from its exploratory moves too; one table per tuple for both sides"
        ),
        "{info}"
    );
    let learning = &json["learning"];
    assert_eq!(learning["opponent"], "self", "{json}");
    assert_eq!(learning["from_exploration"], true, "{json}");
    assert_eq!(learning["one_table"], true, "{json}");
    assert_eq!(learning["fixed_schedule"], false, "{json}");
    assert_eq!(learning["lambda"], 0.0, "{json}");

    let text = refusal_of(bebete(dir.path()).args([
        "evolve",
        "--game",
        "othello",
        "--encoder",
        "patterns",
        "--tuples",
        "9",
        "--dry-run",
    ]));
    assert!(
        text.contains("--tuples 9") && text.contains("7 tuples of 8 squares for each game stage"),
        "{text}"
    );
    learning_is_exact(&patterns);
}

/// Tables by game stage: `--tuples 14` is the patterns twice, one set for
/// each half of the game by discs on the board; the genome says so in text
/// and JSON, and its runs are exact on 1 and 2 threads and across a resume.
#[test]
fn othello_stage_tables_say_so_and_their_runs_are_exact() {
    let staged = [
        LEARNERS,
        &["--encoder", "patterns", "--tuples", "14", "--seed", "5"],
    ]
    .concat();
    let dir = tempfile::tempdir().unwrap();
    let (info, json) = champion_info(dir.path(), &staged, "200", "s");
    assert!(
        info.contains("othello (value genome, 14×8 patterns: 2 game stages)")
            && info.contains("tables by game stage: 2 stages")
            && info.contains("α, λ and ε fixed for life")
            && info.contains("α falls to a tenth and ε holds"),
        "{info}"
    );
    assert_eq!(json["learning"]["stages"], 2, "{json}");
    assert_eq!(json["learning"]["fixed_schedule"], true, "{json}");
    learning_is_exact(&staged);
}
