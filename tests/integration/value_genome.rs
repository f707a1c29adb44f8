//! The value genome (`--encoder ntuple`): learning by self-play inside
//! evolution, checked by the exact audit on tic-tac-toe; reproducible on
//! any thread count and across a resume; searched and explained.

use crate::common::{bebete, exact_on_threads_and_resume, stdout_of};
use std::path::Path;

/// The recommended value-genome run of tic-tac-toe reaches a genome the
/// exact audit proves unbeatable, for every seed tried.
#[test]
fn tictactoe_value_genomes_learn_to_be_unbeatable() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        let run = format!("runs/v{seed}");
        let out = stdout_of(bebete(dir.path()).args([
            "evolve",
            "--encoder",
            "ntuple",
            "--seed",
            seed,
            "--run",
            &run,
        ]));
        assert!(out.contains("target reached"), "seed {seed}: {out}");
        assert!(out.contains("self-play games learned from"), "{out}");
        let audit: serde_json::Value = serde_json::from_str(&stdout_of(bebete(dir.path()).args([
            "audit",
            &format!("genomes/v{seed}.genome"),
            "--json",
        ])))
        .unwrap();
        assert_eq!(audit["unbeatable_first"], true, "seed {seed}: {audit}");
        assert_eq!(audit["unbeatable_second"], true, "seed {seed}: {audit}");
    }
    let toml = std::fs::read_to_string(dir.path().join("runs/v1/run.toml")).unwrap();
    for key in [
        "encoder = \"ntuple\"",
        "tuples = 40",
        "tuple_length = 5",
        "self_play = 300",
        "population = 8",
    ] {
        assert!(toml.contains(key), "{key}:\n{toml}");
    }
    // Why it plays what it plays: every legal move's value.
    let explained =
        stdout_of(bebete(dir.path()).args(["explain", "genomes/v1.genome", "--position", "5"]));
    assert!(explained.contains("<- played"), "{explained}");
    let values = explained.matches("  +").count() + explained.matches("  -").count();
    assert!(values >= 8, "{explained}");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(bebete(dir.path()).args([
        "explain",
        "genomes/v1.genome",
        "--position",
        "5",
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["values"].as_array().unwrap().len(), 8, "{json}");
    assert!(!json["tuples"].as_array().unwrap().is_empty(), "{json}");
}

/// A small Connect-Four value-genome run, so that the test stays quick.
const SMALL_C4: [&str; 18] = [
    "--game",
    "c4",
    "--encoder",
    "ntuple",
    "--tuples",
    "6x4",
    "--population",
    "4",
    "--elite",
    "2",
    "--self-play",
    "20",
    "--preset",
    "method",
    "--fitness",
    "vs:rules:2",
    "--bench-every",
    "2",
];

fn small_run(dir: &Path, run: &str, extra: &[&str]) {
    let mut cmd = bebete(dir);
    cmd.args(["evolve", "--seed", "5", "--run", run, "-q"])
        .args(SMALL_C4)
        .args(extra);
    stdout_of(&mut cmd);
}

/// Learning steps included: the same run on 1 and 2 threads, and a run
/// stopped and resumed equals the uninterrupted one, byte for byte.
#[test]
fn value_genome_runs_are_the_same_on_any_thread_count_and_after_a_resume() {
    let dirs = exact_on_threads_and_resume(
        &[&["evolve", "--seed", "5", "-q"][..], &SMALL_C4].concat(),
        3,
    );
    let info = stdout_of(bebete(dirs[0].path()).args(["genome", "info", "runs/r/best.genome"]));
    assert!(info.contains("value genome, 6×4 tuples"), "{info}");
}

/// A value genome searches with its own values: a forced win two moves
/// deep is found at depth 3 whatever the weights.
#[test]
fn a_searching_value_genome_finds_a_forced_win() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    small_run(d, "runs/s", &["--generations", "1"]);
    stdout_of(bebete(d).args([
        "genome",
        "shell",
        "runs/s/best.genome",
        "--lookahead",
        "3",
        "--out",
        "s3.genome",
    ]));
    // X to move with stones on 2, 3 (bottom row) and O's answers far away:
    // playing 4 (or 1) makes an open three that wins next move either way.
    let mv = stdout_of(bebete(d).args(["move", "s3.genome", "--position", "2737"]));
    assert!(
        ["1", "4"].contains(&mv.trim()),
        "expected the double threat at 1 or 4, got {mv}"
    );
    let explained = stdout_of(bebete(d).args(["explain", "s3.genome", "--position", "2737"]));
    assert!(explained.contains("searched 3 plies"), "{explained}");
}

/// Mistakes name their flag and what is allowed.
#[test]
fn value_genome_flags_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let c4_value =
        |rest: &[&'static str]| [&["--encoder", "ntuple", "--game", "c4"], rest].concat();
    for (args, expected) in [
        (
            vec!["--self-play", "10"],
            "--self-play 10: only a value genome learns by self-play",
        ),
        (
            vec!["--tuples", "10"],
            "--tuples applies only to --encoder ntuple (it shapes a value genome)",
        ),
        (
            vec!["--encoder", "ntuple", "--tuples", "0"],
            "invalid value '0' for '--tuples <NxL>'",
        ),
        (
            vec![
                "--population",
                "1",
                "--preset",
                "method",
                "--fitness",
                "round-robin",
            ],
            "--population 1: a population of one only learns by self-play",
        ),
        (
            vec!["--encoder", "ntuple", "--game", "c4", "--lookahead", "13"],
            "--lookahead 13: must be 0-12",
        ),
        (
            c4_value(&["--self-play", "0", "--learn-against", "rules"]),
            "--learn-against rules: needs games to learn from",
        ),
        (
            c4_value(&["--learn-against", "wpc"]),
            "--learn-against: player 'wpc': connect4 has no weighted piece counter",
        ),
        (
            c4_value(&["--learn-against", "nobody"]),
            "--learn-against: unknown player 'nobody'",
        ),
    ] {
        let out = bebete(d)
            .arg("evolve")
            .args(&args)
            .args(["--run", "runs/never"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!d.join("runs/never").exists());
}

/// A value genome whose tuple names a cell off the board is refused by
/// name when loaded, not played.
#[test]
fn a_damaged_value_genome_is_named_as_such() {
    use bebete_core::games::{Connect4, GameSpec, NTuple};
    use bebete_core::genome::Genome;
    let dir = tempfile::tempdir().unwrap();
    let shape = NTuple {
        tuples: 6,
        length: 4,
    };
    let mut genome = Genome::random(
        GameSpec::Connect4(Connect4::value_genome(shape).registered()),
        3,
    );
    let path = dir.path().join("bad.genome");
    genome.save(&path).unwrap();
    assert_eq!(Genome::load(&path).unwrap(), genome);
    genome.genes[shape.block_in(4)] = 99;
    genome.save(&path).unwrap();
    let err = Genome::load(&path).unwrap_err().to_string();
    assert!(err.contains("bad.genome"), "{err}");
    assert!(err.contains("tuple 1 names cell 99"), "{err}");
    let out = bebete(dir.path())
        .args(["move", "bad.genome", "--position", "4"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("tuple 1 names cell 99"), "{stderr}");
}

/// A genome says how it learned: by self-play or against which player,
/// from how many games, at which rates (`genome info`, text and JSON); a
/// file written before the record says its schedule and that the opponent
/// is not known; a genome that does not learn has no learning at all.
#[test]
fn a_genome_says_how_it_learned() {
    let dir = tempfile::tempdir().unwrap();
    small_run(dir.path(), "runs/self", &["--generations", "2"]);
    small_run(
        dir.path(),
        "runs/against",
        &["--generations", "2", "--learn-against", "random"],
    );
    let info_json = |file: &str| -> serde_json::Value {
        serde_json::from_str(&stdout_of(
            bebete(dir.path()).args(["genome", "info", file, "--json"]),
        ))
        .unwrap()
    };
    for (run, opponent) in [("self", "self"), ("against", "random")] {
        let file = format!("runs/{run}/best.genome");
        let json = info_json(&file);
        let learning = &json["learning"];
        assert_eq!(learning["opponent"], opponent, "{json}");
        assert_eq!(json["provenance"]["learning"], opponent, "{json}");
        // Two generations: the champion learned 20 or 40 games.
        let games = learning["games"].as_u64().unwrap();
        assert!([20, 40].contains(&games), "{json}");
        for key in ["alpha", "lambda", "epsilon", "alpha_now", "epsilon_now"] {
            assert!(learning[key].as_f64().unwrap() > 0.0, "{key}: {json}");
        }
        assert!(learning["horizon"].as_u64().unwrap() > 0, "{json}");
        let text = stdout_of(bebete(dir.path()).args(["genome", "info", &file]));
        let how = if run == "self" {
            "by self-play"
        } else {
            "against random"
        };
        assert!(
            text.contains(&format!("learning    {how}, {games} games learned from")),
            "{text}"
        );
        assert!(text.contains("schedule    α "), "{text}");
    }
    // Written before the record: the schedule from the genes, no opponent.
    crate::common::copy_shipped_genomes(dir.path(), &["connect4.genome", "tictactoe.genome"]);
    let old = info_json("genomes/connect4.genome");
    assert!(old["learning"]["opponent"].is_null(), "{old}");
    assert!(old["learning"]["games"].as_u64().unwrap() > 0, "{old}");
    let text = stdout_of(bebete(dir.path()).args(["genome", "info", "genomes/connect4.genome"]));
    assert!(text.contains("learning    not recorded"), "{text}");
    let vote = info_json("genomes/tictactoe.genome");
    assert!(vote["learning"].is_null(), "{vote}");
    assert!(
        !stdout_of(bebete(dir.path()).args(["genome", "info", "genomes/tictactoe.genome"]))
            .contains("learning")
    );
}
