//! `solve`, `eval` and `audit` as a user runs them, with their JSON contracts.

use crate::common::{bebete, copy_shipped_genomes, random_genome, refusal_of, stdout_of};
use serde_json::Value;

fn json(cmd: &mut assert_cmd::Command) -> Value {
    serde_json::from_str(&stdout_of(cmd)).unwrap()
}

#[test]
fn solve_knows_the_classic_values() {
    let dir = tempfile::tempdir().unwrap();
    let ttt = json(bebete(dir.path()).args(["solve", "--game", "ttt", "--json"]));
    assert_eq!(ttt["positions"], 5478);
    assert_eq!(ttt["terminal"], 958);
    assert_eq!(ttt["value"], "draw");
    assert_eq!(ttt["best_moves"].as_array().unwrap().len(), 9);
    let nim = json(bebete(dir.path()).args(["solve", "--game", "nim", "--json"]));
    assert_eq!(
        nim["value"], "loss",
        "misère 21 / max 3 is lost for the first player"
    );
    for (n, value) in [(21, "loss"), (22, "win"), (89, "loss"), (90, "win")] {
        let doc = json(bebete(dir.path()).args([
            "solve",
            "--game",
            "nim",
            "--rule",
            "double",
            "--sticks",
            &n.to_string(),
            "--json",
        ]));
        assert_eq!(doc["value"], value, "double with {n} sticks");
    }
    bebete(dir.path())
        .args(["solve", "--game", "c4"])
        .assert()
        .code(2);
}

#[test]
fn eval_reports_wins_draws_and_losses_from_the_players_side() {
    let dir = tempfile::tempdir().unwrap();
    let doc = json(bebete(dir.path()).args([
        "eval",
        "perfect",
        "--game",
        "ttt",
        "--against",
        "random,perfect",
        "--games",
        "40",
        "--json",
    ]));
    let rows = doc.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for row in rows {
        for key in ["against", "games", "wins", "draws", "losses"] {
            assert!(row.get(key).is_some(), "missing {key}: {row}");
        }
        assert_eq!(row["games"], 40);
        assert_eq!(row["losses"], 0, "perfect lost: {row}");
    }
    assert_eq!(rows[1]["draws"], 40);
    let table = stdout_of(bebete(dir.path()).args([
        "eval",
        "rules",
        "--game",
        "c4",
        "--against",
        "random",
        "--games",
        "10",
    ]));
    assert!(
        table.contains("95% interval") && table.contains("random"),
        "{table}"
    );
}

#[test]
fn audit_reports_the_contract_keys_and_a_real_losing_line() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    let doc = json(bebete(dir.path()).arg("audit").arg(&g).arg("--json"));
    for key in [
        "reachable",
        "optimal",
        "optimal_rate",
        "unbeatable_first",
        "unbeatable_second",
        "losing_lines",
    ] {
        assert!(doc.get(key).is_some(), "missing {key}: {doc}");
    }
    assert!(doc["losing_lines"].as_u64().unwrap() > 0);
    let line = doc["example"]["line"].as_str().unwrap();
    // The line is legal and ends the game.
    let answer = bebete(dir.path())
        .arg("move")
        .arg(&g)
        .args(["--position", line])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&answer.get_output().stderr).contains("already over"));
    // A bank is for Connect-Four only.
    bebete(dir.path())
        .arg("audit")
        .arg(&g)
        .args(["--bank", "builtin"])
        .assert()
        .code(2);
    // Connect-Four is measured on the bank's held-out positions, inside the
    // genome's shell: a random genome keeps the value in some of them, the
    // shell only adds to that.
    let c4 = random_genome(dir.path(), "c.genome", &["--game", "c4"]);
    let rate = |genome: &std::path::Path| -> f64 {
        let done = bebete(dir.path())
            .arg("audit")
            .arg(genome)
            .arg("--json")
            .assert()
            .success();
        let out = String::from_utf8_lossy(&done.get_output().stdout).into_owned();
        // The two passes say what they do on stderr (stdout stays JSON).
        let err = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
        assert!(
            err.contains("audit: the held-out positions of the bank builtin")
                && err.contains("3156 held-out positions in ")
                && err.contains("training positions (about "),
            "{err}"
        );
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["held_out"], 3156, "{out}");
        doc["optimal_rate"].as_f64().unwrap()
    };
    let pure = rate(&c4);
    assert!((0.3..0.9).contains(&pure), "{pure}");
    let shelled = dir.path().join("s.genome");
    bebete(dir.path())
        .args(["genome", "shell"])
        .arg(&c4)
        .args(["--lookahead", "2", "--out"])
        .arg(&shelled)
        .assert()
        .success();
    assert!(rate(&shelled) > pure);
}

#[test]
fn unknown_players_are_named() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            vec!["eval", "stockfish", "--game", "ttt"],
            "unknown player 'stockfish'",
        ),
        (
            vec!["eval", "rules", "--game", "ttt", "--against", "mc:x"],
            "mc:x",
        ),
        (
            vec!["eval", "rules", "--against", "random"],
            "--game is required",
        ),
        (
            vec!["move", "--player", "alphabeta:99", "--game", "ttt"],
            "1-12",
        ),
    ] {
        let out = bebete(dir.path()).args(&args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn solve_scores_every_move_of_a_connect4_position() {
    let dir = tempfile::tempdir().unwrap();
    let out = bebete(dir.path())
        .args(["solve", "--game", "c4", "--position", "4453", "--json"])
        .assert()
        .success();
    let doc: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["value"], "loss");
    let moves = doc["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    let best: Vec<&str> = moves
        .iter()
        .filter(|m| m["best"] == true)
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(best, ["3", "6", "7"]);
    assert!(moves.iter().all(|m| m["score"].as_i64().unwrap() < 0));
    // Tic-tac-toe counts plies: X (cells 1, 2, 5) against O (7, 9), O to move.
    let out = bebete(dir.path())
        .args(["solve", "--game", "ttt", "--position", "17295"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("8  win in 1 ply  best"), "{text}");
}

/// `eval --dry-run` builds the player and every opponent and prints the
/// table's first line, playing nothing; a genome path with no file is
/// named as a missing file, not as an unknown player.
#[test]
fn eval_dry_run_checks_the_players_and_plays_nothing() {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped_genomes(dir.path(), &["tictactoe.genome"]);
    let out = stdout_of(bebete(dir.path()).args([
        "eval",
        "genomes/tictactoe.genome",
        "--against",
        "random,perfect",
        "--games",
        "7",
        "--dry-run",
    ]));
    assert_eq!(
        out,
        "genomes/tictactoe.genome (tictactoe (symmetric encoder)), 8 games per opponent, sides alternating\n\
         dry run: the player and random,perfect checked; nothing played\n"
    );
    let refused = refusal_of(bebete(dir.path()).args([
        "eval",
        "genomes/tictactoe.genome",
        "--against",
        "random,genomes/gone.genome",
        "--dry-run",
    ]));
    assert!(
        refused.contains("player 'genomes/gone.genome': no such genome file"),
        "{refused}"
    );
}

/// A long `eval` prints its heading at once, and Ctrl-C stops it with the
/// table of the games played so far (exit status 130).
#[cfg(unix)]
#[test]
fn a_long_eval_shows_its_heading_at_once_and_ctrl_c_keeps_its_games() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .current_dir(dir.path())
        .args([
            "eval",
            "alphabeta:7",
            "--game",
            "checkers",
            "--against",
            "alphabeta:7",
            "--games",
            "10000",
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let heading = crate::common::read_until(&mut stdout, "\n", "its heading");
    assert!(
        heading.starts_with("alphabeta:7 (checkers")
            && heading.contains("10000 games per opponent"),
        "{heading}"
    );
    // Some games played, then Ctrl-C.
    std::thread::sleep(std::time::Duration::from_secs(2));
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let started = std::time::Instant::now();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("stopped by a signal after"), "{stderr}");
    assert!(rest.starts_with("against "), "{rest}");
    if let Some(row) = rest.lines().nth(1) {
        let games: u64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(
            games > 0 && games < 10000 && games.is_multiple_of(2),
            "{rest}"
        );
    }
}

/// A league: genomes of different kinds for one game and fixed players,
/// every pair with sides alternating, ranked with intervals; the order is
/// the strength the rules give (perfect play is never beaten at
/// tic-tac-toe, random play loses most).
#[test]
fn a_league_ranks_players_of_any_kind_with_intervals() {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped_genomes(dir.path(), &["tictactoe.genome", "connect4.genome"]);
    let doc = json(bebete(dir.path()).args([
        "eval",
        "perfect",
        "genomes/tictactoe.genome",
        "rules",
        "random",
        "--game",
        "ttt",
        "--league",
        "--games",
        "40",
        "--json",
    ]));
    let players = doc["players"].as_array().unwrap();
    let pairs = doc["pairs"].as_array().unwrap();
    assert_eq!((players.len(), pairs.len()), (4, 6), "{doc}");
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(names[3], "random", "{doc}");
    assert!(names[..2].contains(&"perfect"), "{doc}");
    let mean: f64 = players
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .sum::<f64>()
        / 4.0;
    assert!(mean.abs() < 1e-6, "{doc}");
    for p in players {
        let (low, rating, high) = (
            p["low"].as_f64().unwrap(),
            p["rating"].as_f64().unwrap(),
            p["high"].as_f64().unwrap(),
        );
        assert!(low < rating && rating < high, "{p}");
        assert_eq!(p["games"], 120, "{p}");
    }
    for pair in pairs {
        assert_eq!(pair["games"], 40, "{pair}");
    }
    // The table, and what a league refuses.
    let table = stdout_of(bebete(dir.path()).args([
        "eval", "rules", "random", "--game", "c4", "--league", "--games", "10",
    ]));
    assert!(
        table.starts_with("league of 2 players (connect4), 10 games a pair")
            && table.contains("95% interval")
            && table.contains("Bradley-Terry"),
        "{table}"
    );
    for (args, says) in [
        (
            &["eval", "rules", "random", "--game", "ttt"][..],
            "add --league",
        ),
        (
            &["eval", "rules", "--game", "ttt", "--league"][..],
            "two players or more",
        ),
        (
            &[
                "eval",
                "rules",
                "random",
                "--game",
                "ttt",
                "--league",
                "--against",
                "perfect",
            ][..],
            "--against",
        ),
        (
            &["eval", "rules", "rules", "--game", "ttt", "--league"][..],
            "named twice",
        ),
        (
            &[
                "eval",
                "genomes/tictactoe.genome",
                "genomes/connect4.genome",
                "--league",
            ][..],
            "connect4",
        ),
    ] {
        let refused = refusal_of(bebete(dir.path()).args(args));
        assert!(refused.contains(says), "{args:?}: {refused}");
    }
}

/// `eval --record` and `play --record` keep every game, one line a game,
/// replayable: the guide's record is what the command writes, each line's
/// moves are a position `move` takes, and the tally agrees with the
/// results; an existing file is refused before a game is played.
#[test]
fn games_are_recorded_one_line_a_game_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    copy_shipped_genomes(dir.path(), &["connect4.genome", "tictactoe.genome"]);
    let args = [
        "eval",
        "genomes/connect4.genome",
        "--against",
        "rules",
        "--games",
        "4",
        "--record",
        "games.tsv",
    ];
    stdout_of(bebete(dir.path()).args(args));
    let written = std::fs::read_to_string(dir.path().join("games.tsv")).unwrap();
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide.md")).unwrap();
    let shown = guide
        .split("`games.tsv` then holds:\n\n```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the guide shows the record");
    assert_eq!(written, shown);
    for line in written.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "{line}");
        // The genome won every game, from either side.
        let genome_first = fields[0] == "genomes/connect4.genome";
        assert_eq!(fields[2], if genome_first { "1-0" } else { "0-1" });
        // A finished game: `move` has nothing to play after it.
        let refused = refusal_of(bebete(dir.path()).args([
            "move",
            "genomes/connect4.genome",
            "--position",
            fields[3],
        ]));
        assert!(refused.contains("over"), "{refused}");
    }
    let again = refusal_of(bebete(dir.path()).args(args));
    assert!(again.contains("games.tsv exists"), "{again}");
    // A session's games, as each ends.
    bebete(dir.path())
        .args([
            "play",
            "genomes/tictactoe.genome",
            "--games",
            "2",
            "--record",
            "play.tsv",
        ])
        .write_stdin("5\n1\n4\n3\n7\n9\n2\n")
        .assert()
        .success();
    let played = std::fs::read_to_string(dir.path().join("play.tsv")).unwrap();
    assert_eq!(
        played,
        "# first\tsecond\tresult\tmoves\n\
         you\tgenomes/tictactoe.genome\t0-1\t531946\n\
         genomes/tictactoe.genome\tyou\t1-0\t37192\n"
    );
}
