//! `genome`, `explain` and `move` as a user runs them.

use crate::common::{bebete, random_genome, refusal_of, stdout_of};
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

#[test]
fn genome_info_reports_game_rules_and_size() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(
        dir.path(),
        "n.genome",
        &["--game", "nim", "--rule", "double", "--sticks", "30"],
    );
    let json: Value = serde_json::from_str(&stdout_of(
        bebete(dir.path())
            .args(["genome", "info", "--json"])
            .arg(&g),
    ))
    .unwrap();
    assert_eq!(json["game"], "matchsticks");
    assert_eq!(json["rules"]["rule"], "double");
    assert_eq!(json["genes"], 31 * 31);
    assert_eq!(json["provenance"]["seed"], 5);
    let text = stdout_of(bebete(dir.path()).args(["genome", "info"]).arg(&g));
    assert!(text.contains("double, 30 sticks"), "{text}");
}

#[test]
fn explain_connect4_shows_twelve_windows_and_seven_sums_agreeing_with_move() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(dir.path(), "c.genome", &["--game", "c4"]);
    let json: Value = serde_json::from_str(&stdout_of(
        bebete(dir.path())
            .arg("explain")
            .arg(&g)
            .args(["--position", "4453", "--json"]),
    ))
    .unwrap();
    let windows = json["windows"].as_array().unwrap();
    assert_eq!(windows.len(), 12);
    let votes: Vec<u64> = json["votes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(votes.len(), 7);
    // The sums are the windows' weights added per (1-based) column.
    let mut sums = [0u64; 7];
    for w in windows {
        let gene = w["gene"].as_u64().unwrap();
        let column = w["column"].as_u64().unwrap();
        assert_eq!(
            column,
            w["column_offset"].as_u64().unwrap() + (gene >> 6) + 1
        );
        assert_eq!(w["weight"].as_u64().unwrap(), gene & 63);
        sums[column as usize - 1] += gene & 63;
    }
    assert_eq!(votes, sums);
    let mv = json["move"].as_str().unwrap().to_string();
    let answer = stdout_of(
        bebete(dir.path())
            .arg("move")
            .arg(&g)
            .args(["--position", "4453"]),
    );
    assert_eq!(answer.trim(), mv);
}

#[test]
fn explain_tictactoe_reports_the_base3_index() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    // X on cells 2 and 4, O on cells 5 and 8 (0-based): the worked example's 13,698.
    let json: Value = serde_json::from_str(&stdout_of(
        bebete(dir.path())
            .arg("explain")
            .arg(&g)
            .args(["--position", "3659", "--json"]),
    ))
    .unwrap();
    assert_eq!(json["index"], 13_698);
    assert_eq!(json["game"], "tictactoe");
    assert_eq!(json["position"], "3659");
}

#[test]
fn move_streams_one_answer_per_line_and_reports_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(dir.path(), "c.genome", &["--game", "c4"]);
    let out = bebete(dir.path())
        .arg("move")
        .arg(&g)
        .write_stdin("4453\n4444444\n\n12x\n")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let lines: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].len() == 1 && "1234567".contains(&lines[0]));
    assert!(
        lines[1].starts_with("error:") && lines[1].contains("column 4 is full"),
        "{}",
        lines[1]
    );
    assert!("1234567".contains(&lines[2]));
    assert!(
        lines[3].starts_with("error:") && lines[3].contains("move 3 ('x')"),
        "{}",
        lines[3]
    );
}

#[test]
fn a_random_player_answers_legally_and_reproducibly() {
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        stdout_of(bebete(dir.path()).args([
            "move",
            "--player",
            "random",
            "--game",
            "ttt",
            "--seed",
            "9",
            "--position",
            "5",
        ]))
    };
    let first = run();
    assert_eq!(first, run());
    let cell: u8 = first.trim().parse().unwrap();
    assert!((1..=9).contains(&cell) && cell != 5);
}

#[test]
fn bad_input_gets_a_one_line_error_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let ttt = random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    let bytes = std::fs::read(&ttt).unwrap();
    let truncated = dir.path().join("truncated.genome");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let corrupt = dir.path().join("corrupt.genome");
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 1;
    std::fs::write(&corrupt, flipped).unwrap();
    let foreign = dir.path().join("foreign.genome");
    std::fs::write(&foreign, "hello, I am a text file\n").unwrap();

    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "genome".into(),
                "info".into(),
                truncated.display().to_string(),
            ],
            "truncated",
        ),
        (
            vec![
                "genome".into(),
                "info".into(),
                corrupt.display().to_string(),
            ],
            "checksum",
        ),
        (
            vec![
                "genome".into(),
                "info".into(),
                foreign.display().to_string(),
            ],
            "not a bebete genome file",
        ),
        (
            vec!["genome".into(), "info".into(), "missing.genome".into()],
            "missing.genome",
        ),
        (
            vec![
                "move".into(),
                ttt.display().to_string(),
                "--game".into(),
                "c4".into(),
            ],
            "holds a tictactoe genome",
        ),
        (
            vec![
                "move".into(),
                ttt.display().to_string(),
                "--position".into(),
                "55".into(),
            ],
            "move 2 ('5'): cell 5 is already taken",
        ),
        (
            vec![
                "explain".into(),
                ttt.display().to_string(),
                "--position".into(),
                "1234567".into(),
            ],
            "already over",
        ),
        (
            vec![
                "genome".into(),
                "random".into(),
                "--game".into(),
                "chess".into(),
                "--out".into(),
                "x".into(),
            ],
            "unknown game",
        ),
        (
            vec![
                "genome".into(),
                "random".into(),
                "--game".into(),
                "nim".into(),
                "--sticks".into(),
                "0".into(),
                "--out".into(),
                "x".into(),
            ],
            "--sticks",
        ),
    ];
    for (args, needle) in cases {
        let assert = bebete(dir.path()).args(&args).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
    }
}

#[test]
fn every_command_has_help_with_an_example() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["--help"],
        vec!["genome", "random", "--help"],
        vec!["genome", "info", "--help"],
        vec!["explain", "--help"],
        vec!["move", "--help"],
    ] {
        bebete(dir.path())
            .args(&args)
            .assert()
            .success()
            .stdout(predicate::str::contains("bebete ").and(predicate::str::contains("Example")));
    }
}

#[test]
fn a_run_directory_stands_for_its_champion_and_files_are_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    bebete(dir.path())
        .args(["evolve", "--quiet", "--seed", "4", "--run", "runs/r"])
        .assert()
        .success();
    for args in [
        &["explain", "runs/r", "--position", "5"][..],
        &["eval", "runs/r", "--against", "random", "--games", "10"][..],
        &["genome", "info", "runs/r"][..],
        &["audit", "runs/r"][..],
        &["move", "runs/r", "--position", "5"][..],
    ] {
        bebete(dir.path()).args(args).assert().success();
    }
    // A directory without a champion is named as such.
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    let out = bebete(dir.path())
        .args(["explain", "empty", "--position", "5"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("directory without a best.genome"),
        "{stderr}"
    );
    // An existing file is kept unless --force says otherwise.
    let before = std::fs::read(dir.path().join("runs/r/best.genome")).unwrap();
    let out = bebete(dir.path())
        .args([
            "genome",
            "random",
            "--seed",
            "1",
            "--out",
            "runs/r/best.genome",
        ])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(
        std::fs::read(dir.path().join("runs/r/best.genome")).unwrap(),
        before
    );
    bebete(dir.path())
        .args([
            "genome",
            "random",
            "--seed",
            "1",
            "--force",
            "--out",
            "runs/r/best.genome",
        ])
        .assert()
        .success();
    assert_ne!(
        std::fs::read(dir.path().join("runs/r/best.genome")).unwrap(),
        before
    );
}

/// The shipped genomes named as they play: `play` says which genome and
/// how it searches, `eval`'s header says its shell, and a tic-tac-toe
/// explanation says the frame its gene is read in and the cell it names.
#[test]
fn the_genome_and_its_frame_are_named() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_shipped_genomes(
        dir.path(),
        &["tictactoe.genome", "connect4-subgrid.genome"],
    );
    let out = stdout_of(bebete(dir.path()).arg("play").write_stdin("q\n"));
    assert!(
        out.starts_with("bebete playing: genomes/tictactoe.genome (tictactoe (symmetric encoder))"),
        "{out}"
    );
    let out = stdout_of(bebete(dir.path()).args([
        "eval",
        "genomes/connect4-subgrid.genome",
        "--against",
        "random",
        "--games",
        "2",
    ]));
    assert!(
        out.starts_with("genomes/connect4-subgrid.genome, in its tactical shell of lookahead 5"),
        "{out}"
    );
    // X in the centre, O in corner 3: the symmetric image's gene 0 names
    // O's cell, so the move is repaired, and the note says why.
    let out = stdout_of(bebete(dir.path()).args([
        "explain",
        "genomes/tictactoe.genome",
        "--position",
        "53",
    ]));
    assert!(
        out.contains(
            "index 83 of the symmetric image, gene 0 = cell 3 here (taken, repaired) -> move 6"
        ),
        "{out}"
    );
}

/// Messages read as English: "an othello genome", not "a othello".
#[test]
fn a_genome_of_another_game_is_named_with_its_article() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_shipped_genomes(dir.path(), &["othello-ntuple.genome"]);
    let text = crate::common::refusal_of(crate::common::bebete(dir.path()).args([
        "move",
        "genomes/othello-ntuple.genome",
        "--game",
        "ttt",
    ]));
    assert!(text.contains("holds an othello"), "{text}");
}

/// A path typo never becomes a folder: every command that writes a file
/// or a run refuses a missing parent folder (but its own runs/, genomes/,
/// plots/ and banks/, which it makes), names the flag, and writes nothing;
/// a folder given for a file is named as one.
#[test]
fn a_missing_parent_folder_is_refused_and_nothing_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let refusals: [&[&str]; 5] = [
        &["genome", "random", "--out", "typo/dir/x.genome"],
        &["evolve", "--run", "typo/dir/run", "--generations", "1"],
        &["plot", "runs/r", "--out", "typo/p.png"],
        &[
            "bank",
            "--game",
            "c4",
            "--out",
            "typo/b.bank",
            "--positions",
            "10",
        ],
        &["evolve", "--run", "typo/run", "--dry-run"],
    ];
    bebete(dir.path())
        .args(["evolve", "--run", "runs/r", "--generations", "1", "--quiet"])
        .assert()
        .success();
    for args in refusals {
        let text = refusal_of(bebete(dir.path()).args(args));
        let flag = if args.contains(&"--run") {
            "--run"
        } else {
            "--out"
        };
        assert!(
            text.contains(flag)
                && text.contains("the folder typo")
                && text.contains("does not exist"),
            "{args:?}: {text}"
        );
        assert!(!dir.path().join("typo").exists(), "{args:?} made typo/");
    }
    // Its own folders are made when missing.
    bebete(dir.path())
        .args([
            "genome",
            "random",
            "--out",
            "genomes/g.genome",
            "--seed",
            "1",
        ])
        .assert()
        .success();
    let text = refusal_of(bebete(dir.path()).args([
        "genome", "random", "--out", "genomes", "--force", "--seed", "1",
    ]));
    assert!(text.contains("--out genomes: a folder"), "{text}");
    // A run's folder that cannot be made says so, naming the folder.
    if Path::new("/proc/self").exists() {
        let text = refusal_of(bebete(dir.path()).args(["evolve", "--run", "/proc/x"]));
        assert!(
            text.contains("/proc/x: the run's folder cannot be made there"),
            "{text}"
        );
    }
}

/// A newcomer's usual slips get a message that names what to do: each
/// command, and what its refusal (or note) must say.
#[test]
fn a_newcomers_slips_are_answered_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::copy_shipped_genomes(dir.path(), &["tictactoe.genome"]);
    bebete(dir.path())
        .args(["evolve", "--run", "runs/r", "--generations", "2", "--quiet"])
        .assert()
        .success();
    let refused: [(&[&str], &str); 6] = [
        (
            &["resume", "runs/r", "--seed", "3"],
            "--seed 3: resume goes on with the run's own seed (in runs/r/run.toml); for another seed start a new run: bebete evolve --seed 3",
        ),
        (
            &["evolve", "--learn-against", "wpc@0.1", "--dry-run"],
            "--learn-against wpc@0.1: only a value genome learns between generations: use --encoder ntuple",
        ),
        (
            &[
                "evolve",
                "--game",
                "c4",
                "--set",
                "bank=missing.bank",
                "--dry-run",
            ],
            "--set bank=missing.bank: no such file; build one with `bebete bank --game c4 --out missing.bank`",
        ),
        (
            &["play", "genomes/tictactoe"],
            "genomes/tictactoe: no such file; did you mean genomes/tictactoe.genome?",
        ),
        (
            &["eval", "genomes/tictactoe", "--against", "random"],
            "player 'genomes/tictactoe': no such genome file; did you mean 'genomes/tictactoe.genome'?",
        ),
        (
            &["play", "--game", "othello", "--opponent", "perfect"],
            "othello has no exact solver; alphabeta:D searches D plies with the weighted piece counter (wpc)",
        ),
    ];
    for (args, said) in refused {
        let text = refusal_of(bebete(dir.path()).args(args));
        assert!(text.contains(said), "{args:?}: {text}");
    }
    let out = bebete(dir.path())
        .args([
            "eval",
            "genomes/tictactoe.genome",
            "--games",
            "1",
            "--against",
            "random",
        ])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains(
            "note: --games 1 rounded up to 2: games come in pairs, one with each side first"
        ),
        "{stderr}"
    );
    let perft = stdout_of(bebete(dir.path()).args(["solve", "--game", "othello", "--perft", "2"]));
    assert!(perft.starts_with("othello from the start\n"), "{perft}");
}

/// Lists of games in help and messages come from the registry: every
/// game it holds is named where it belongs.
#[test]
fn game_lists_in_help_and_messages_come_from_the_registry() {
    use bebete::dispatch::abilities;
    use bebete::games::GameName;
    let dir = tempfile::tempdir().unwrap();
    let evolve = stdout_of(bebete(dir.path()).args(["evolve", "--help"]));
    let serve = stdout_of(bebete(dir.path()).args(["serve", "--help"]));
    let refused = refusal_of(bebete(dir.path()).args(["solve", "--game", "c4"]));
    for kind in GameName::ALL {
        let found = abilities(kind.variants()[0]);
        assert!(evolve.contains(kind.name()), "evolve --help lacks {kind}");
        assert_eq!(
            serve.contains(&format!(" {}", kind.name())),
            found.players == 2,
            "serve --help and {kind}:\n{serve}"
        );
        let enumerable = found.solvable || found.players == 1;
        assert_eq!(
            refused
                .split(" allow;")
                .next()
                .unwrap()
                .contains(kind.name()),
            enumerable,
            "solve's refusal and {kind}: {refused}"
        );
    }
}

/// A genome of a game bebete was not built for (an OpenSpiel game evolved
/// from Python): `genome info` describes it and says where it plays; the
/// commands that would play it refuse it with the same words, and
/// `resume` names such a run.
#[test]
fn an_observed_games_genome_is_described_and_refused_where_it_cannot_play() {
    use bebete::observed::{Layout, Shape, TensorGenome};
    use rand::SeedableRng;
    let dir = tempfile::tempdir().unwrap();
    // Connect-Four's tensor as OpenSpiel gives it: planes empty, first, second.
    let tensor: Vec<f32> = (0..3)
        .flat_map(|p| (0..42).map(move |c| f32::from(c % 3 == p)))
        .collect();
    let layout = Layout::probe("openspiel:connect_four", &[3, 6, 7], &tensor).unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    let genome = TensorGenome::random(&layout, Shape::default_for(&layout), false, 2, &mut rng);
    let path = dir.path().join("c4.genome");
    genome
        .write(
            &path,
            "openspiel:connect_four",
            &layout,
            "generation 3 (seed 1), 600 self-play games",
        )
        .unwrap();
    let text = stdout_of(bebete(dir.path()).args(["genome", "info", "c4.genome"]));
    for line in [
        "game        openspiel:connect_four (a game bebete was not built for)",
        "reads       tensor [3, 6, 7], planes [1, 2]: 42 cells (6×7) of 3 states",
        "tuples      42 of 6 cells",
        "learning    by TD: generation 3 (seed 1), 600 self-play games",
        // A fresh genome has learned from no game: its rate has not fallen.
        "rates       α 0.0100 falling to 0.0100, ε 0.100",
        "plays with  the Python package (bebete.load, bebete.openspiel.Bot)",
    ] {
        assert!(text.contains(line), "{text}");
    }
    let json: Value = serde_json::from_str(&stdout_of(bebete(dir.path()).args([
        "genome",
        "info",
        "c4.genome",
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["game"], "openspiel:connect_four");
    assert_eq!(json["tuples"], 42);
    assert_eq!(json["alpha_now"], json["alpha"]);
    assert_eq!(json["layout"]["shape"], serde_json::json!([3, 6, 7]));
    for words in [
        &["eval", "c4.genome", "--games", "2"][..],
        &["move", "c4.genome", "--position", "4"],
    ] {
        let refusal = refusal_of(bebete(dir.path()).args(words));
        assert!(
            refusal.contains("c4.genome: a genome of openspiel:connect_four, a game bebete was not built for: play it from Python"),
            "{words:?}: {refusal}"
        );
    }
    // A run of such a game: resumed from Python, and `resume` says so.
    let run = dir.path().join("runs/c4");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(
        run.join("run.toml"),
        "game = \"openspiel:connect_four\"\nseed = 1\n",
    )
    .unwrap();
    let refusal = refusal_of(bebete(dir.path()).args(["resume", "runs/c4"]));
    assert!(
        refusal.contains("resume it from Python, bebete.resume("),
        "{refusal}"
    );
}
