//! `play` through a pipe and `plot` of real runs.

use crate::common::{bebete, random_genome, stdout_of};

#[test]
fn a_whole_game_can_be_piped_into_play() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    // Every cell in order: illegal ones are refused, the rest are played.
    let input = "1\n2\n3\n4\n5\n6\n7\n8\n9\n".repeat(2);
    let out = stdout_of(
        bebete(dir.path())
            .arg("play")
            .arg(&g)
            .args(["--games", "2"])
            .write_stdin(input),
    );
    assert!(
        out.contains("game 1 of 2") && out.contains("game 2 of 2"),
        "{out}"
    );
    assert!(
        out.contains("bebete plays")
            && out.contains("(the move its table holds for this position)"),
        "{out}"
    );
    assert!(out.contains("score: you"), "{out}");
    let finished = out.matches("you win; the moves: ").count()
        + out.matches("bebete wins; the moves: ").count()
        + out.matches("a draw; the moves: ").count();
    assert!(finished >= 1, "{out}");
}

#[test]
fn connect4_play_explains_with_column_sums_and_eof_ends_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let g = random_genome(dir.path(), "c.genome", &["--game", "c4"]);
    let out = stdout_of(
        bebete(dir.path())
            .arg("play")
            .arg(&g)
            .args(["--first", "bot"])
            .write_stdin("4\n"),
    );
    assert!(out.contains("votes per column 1:"), "{out}");
    assert!(out.contains("1 2 3 4 5 6 7"), "{out}");
    assert!(
        out.trim_end().ends_with("score: you 0, bebete 0, draws 0"),
        "{out}"
    );
}

#[test]
fn play_against_a_player_spec_and_a_run_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        bebete(dir.path())
            .args([
                "play",
                "--game",
                "nim",
                "--opponent",
                "perfect",
                "--seed",
                "1",
            ])
            .write_stdin("3\n3\n3\n3\n3\n3\n3\n3\n"),
    );
    assert!(
        out.contains("(perfect)") && out.contains("sticks left"),
        "{out}"
    );
    bebete(dir.path())
        .args([
            "evolve",
            "-q",
            "--seed",
            "1",
            "--run",
            "runs/r",
            "--generations",
            "2",
        ])
        .assert()
        .success();
    let out = stdout_of(
        bebete(dir.path())
            .args(["play", "runs/r"])
            .write_stdin("q\n"),
    );
    assert!(out.contains("stopped"), "{out}");
    // No genomes/ here: the checkout's shipped champion plays.
    let out = stdout_of(
        bebete(dir.path())
            .args(["play", "--game", "c4"])
            .write_stdin("q\n"),
    );
    assert!(out.contains("genomes/connect4.genome"), "{out}");
}

#[test]
fn evolve_draws_a_plot_and_plot_overlays_runs_as_png_or_svg() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2"] {
        let out = stdout_of(bebete(dir.path()).args([
            "evolve",
            "--seed",
            seed,
            "--generations",
            "15",
            "--run",
            &format!("runs/s{seed}"),
        ]));
        assert!(
            out.contains(&format!("plot       plots/s{seed}.png")),
            "{out}"
        );
        let png = std::fs::read(dir.path().join(format!("plots/s{seed}.png"))).unwrap();
        assert_eq!(&png[..4], b"\x89PNG");
    }
    let out =
        stdout_of(bebete(dir.path()).args(["plot", "runs/s1", "runs/s2", "--out", "both.svg"]));
    assert!(out.contains("wrote both.svg"));
    let svg = std::fs::read_to_string(dir.path().join("both.svg")).unwrap();
    assert!(svg.contains("seed=1") && svg.contains("seed=2") && svg.contains("Fitness points"));
    let out = bebete(dir.path())
        .args(["plot", "runs/none"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("runs/none"));
    // A name without .png or .svg is refused in one line, and nothing written.
    for name in ["plots/x", "x.jpg"] {
        let out = bebete(dir.path())
            .args(["plot", "runs/s1", "--out", name])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            err.contains(&format!("--out {name}: bebete writes PNG or SVG")),
            "{err}"
        );
        assert!(!dir.path().join(name).exists());
    }
    // Against games played (a run that plays games: the recommended
    // tic-tac-toe run reads positions), and the two seeds as one curve in
    // a band (SVG, so that the words can be read back).
    stdout_of(bebete(dir.path()).args([
        "evolve",
        "--preset",
        "method",
        "--seed",
        "1",
        "--generations",
        "3",
        "--run",
        "m",
        "-q",
    ]));
    let out =
        stdout_of(bebete(dir.path()).args(["plot", "m", "--x", "games", "--out", "games.svg"]));
    assert!(out.contains("wrote games.svg"), "{out}");
    let svg = std::fs::read_to_string(dir.path().join("games.svg")).unwrap();
    assert!(
        svg.contains("games played before the generation"),
        "games axis"
    );
    stdout_of(
        bebete(dir.path()).args(["plot", "runs/s1", "runs/s2", "--band", "--out", "band.svg"]),
    );
    let svg = std::fs::read_to_string(dir.path().join("band.svg")).unwrap();
    assert!(
        svg.contains("mean of 2 seeds (1, 2)") && svg.contains("bands: lowest to highest"),
        "band"
    );
    let refused =
        crate::common::refusal_of(bebete(dir.path()).args(["plot", "runs/s1", "--x", "moves"]));
    assert!(
        refused.contains("--x") && refused.contains("generation, games or time"),
        "{refused}"
    );
    let refused =
        crate::common::refusal_of(bebete(dir.path()).args(["plot", "runs/s1", "--x", "games"]));
    assert!(refused.contains("plays none"), "{refused}");
}

#[test]
fn play_uses_the_shipped_champion_whatever_its_encoder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("genomes")).unwrap();
    random_genome(
        dir.path(),
        "genomes/connect4.genome",
        &["--game", "c4", "--encoder", "mirror"],
    );
    let out = stdout_of(
        bebete(dir.path())
            .args(["play", "--game", "c4", "--first", "bot"])
            .write_stdin("q\n"),
    );
    assert!(out.contains("votes per column"), "{out}");
    // Asking for another encoder explicitly is refused, naming both.
    let out = bebete(dir.path())
        .args(["play", "--game", "c4", "--encoder", "subgrid"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("mirror encoder") && stderr.contains("subgrid"),
        "{stderr}"
    );
}

/// From a folder with no `genomes/` (an installed tool run anywhere), the
/// shipped champions still play: from the folder `BEBETE_GENOMES` names,
/// else from the checkout the binary was built from.
#[test]
fn play_finds_the_shipped_champions_from_any_folder() {
    let elsewhere = tempfile::tempdir().unwrap();
    for game in ["ttt", "othello"] {
        let out = stdout_of(
            bebete(elsewhere.path())
                .args(["play", "--game", game, "--first", "bot"])
                .write_stdin("q\n"),
        );
        assert!(out.contains("bebete plays"), "{game}: {out}");
    }
    // A folder of one's own, named by BEBETE_GENOMES, comes first.
    let own = tempfile::tempdir().unwrap();
    random_genome(
        own.path(),
        "tictactoe.genome",
        &["--game", "ttt", "--encoder", "base3"],
    );
    let out = stdout_of(
        bebete(elsewhere.path())
            .env("BEBETE_GENOMES", own.path())
            .args(["play", "--first", "bot"])
            .write_stdin("q\n"),
    );
    let own_file = own.path().join("tictactoe.genome");
    assert!(
        out.contains(&format!("bebete playing: {}", own_file.display())),
        "{out}"
    );
}

/// `evolve … | head -1`: a reader that goes away is a normal end (status
/// 0), not a panic (status 101).
#[test]
fn a_closed_stdout_ends_evolve_and_resume_quietly() {
    let dir = tempfile::tempdir().unwrap();
    bebete(dir.path())
        .args(["evolve", "--quiet", "--seed", "3", "--run", "runs/p"])
        .args([
            "--preset",
            "method",
            "--fitness",
            "round-robin",
            "--generations",
            "40",
        ])
        .assert()
        .success();
    let runs: [&[&str]; 2] = [
        &[
            "evolve",
            "--seed",
            "3",
            "--run",
            "runs/q",
            "--generations",
            "40",
        ],
        &["resume", "runs/p", "--generations", "40"],
    ];
    for args in runs {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
            .current_dir(dir.path())
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the command writes anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// A full column is shown as full, not with votes that seem to lose to a
/// smaller sum; an empty line at the prompt just asks again.
#[test]
fn full_columns_read_as_full_and_empty_lines_ask_again() {
    let dir = tempfile::tempdir().unwrap();
    let genome = random_genome(dir.path(), "c4.genome", &["--game", "c4"]);
    let out = stdout_of(bebete(dir.path()).args([
        "explain",
        genome.to_str().unwrap(),
        "--position",
        "444444",
    ]));
    assert!(out.contains("4:full"), "{out}");
    let out = stdout_of(
        bebete(dir.path())
            .args(["play", genome.to_str().unwrap(), "--first", "human"])
            .write_stdin("\n  \n4\nq\n"),
    );
    assert!(!out.contains("is not a move"), "{out}");
    assert!(out.contains("bebete plays"), "{out}");
}

/// Ctrl-C during a session says the score so far and exits 130.
#[test]
fn ctrl_c_in_play_says_the_score() {
    let dir = tempfile::tempdir().unwrap();
    let genome = random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .current_dir(dir.path())
        .args(["play", genome.to_str().unwrap(), "--first", "human"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Keep stdin open, and interrupt once the session asks for a move (its
    // signal watcher is set up before the first prompt).
    let stdin = child.stdin.take();
    let mut stdout = child.stdout.take().unwrap();
    crate::common::read_until(&mut stdout, "your move", "the session asked for a move");
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted; score: you 0, bebete 0, draws 0"),
        "{stderr}"
    );
}

/// The lists of shipped champions and banks are the repository's tracked
/// genomes and banks.
#[test]
fn the_shipped_genomes_and_banks_are_the_tracked_ones() {
    let tracked = |pattern: &str| -> Vec<String> {
        let out = std::process::Command::new("git")
            .args(["ls-files", pattern])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("git runs (the tests run in a clone)");
        assert!(out.status.success(), "{out:?}");
        let mut names: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.rsplit('/').next().unwrap_or(l).to_string())
            .collect();
        names.sort();
        names
    };
    let sorted = |names: &[&str]| {
        let mut names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        names.sort();
        names
    };
    assert_eq!(
        tracked("genomes/*.genome"),
        sorted(&bebete::play::SHIPPED_GENOMES)
    );
    assert_eq!(
        tracked("banks/*.bank"),
        sorted(&super::shown_commands::SHIPPED_BANKS)
    );
}
