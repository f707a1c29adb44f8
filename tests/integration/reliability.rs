//! Input that cannot crash bebete, and runs that survive being killed.

use crate::common::{bebete, random_genome, same_run};
use proptest::prelude::*;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Every invocation exits with status 2 and one `error:` line naming the
/// problem, and nothing panics.
#[test]
fn bad_invocations_get_a_clear_error_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let ttt = random_genome(dir.path(), "t.genome", &["--game", "ttt"]);
    let bytes = std::fs::read(&ttt).unwrap();
    std::fs::write(dir.path().join("half.genome"), &bytes[..bytes.len() / 2]).unwrap();
    let mut newer = bytes.clone();
    newer[8] = 99;
    std::fs::write(dir.path().join("newer.genome"), newer).unwrap();
    std::fs::write(dir.path().join("text.genome"), "not a genome").unwrap();
    std::fs::write(dir.path().join("empty.genome"), "").unwrap();
    let nim = random_genome(dir.path(), "n.genome", &["--game", "nim", "--sticks", "30"]);
    std::fs::write(dir.path().join("file"), "a file, not a directory").unwrap();
    // A folder of runs and a run's checkpoint, named where a genome goes
    // (the only run there).
    let run = dir.path().join("runs/r1");
    std::fs::create_dir_all(run.join("checkpoints")).unwrap();
    std::fs::copy(&ttt, run.join("best.genome")).unwrap();
    std::fs::write(
        run.join("checkpoints/gen-000003.ckpt"),
        b"BEBETECK and more",
    )
    .unwrap();
    let t = ttt.to_str().unwrap();
    let n = nim.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["play", "runs"],
            "runs: a folder of runs, not a run: name one of them, e.g. runs/r1",
        ),
        (
            &["play", "runs/r1/checkpoints/gen-000003.ckpt"],
            "a checkpoint, not a genome: name the run (runs/r1) for its champion",
        ),
        (
            &["evolve", "--seed", "-1"],
            "a seed is a whole number 0-18446744073709551615, not '-1'",
        ),
        (&["evolve", "--population", "1"], "--population 1"),
        (&["evolve", "--population", "200000"], "--population"),
        (&["evolve", "--elite", "0"], "--elite 0"),
        (&["evolve", "--elite", "100"], "--elite 100"),
        (&["evolve", "--parents", "0"], "--parents 0"),
        (&["evolve", "--parents", "11"], "--parents 11"),
        (&["evolve", "--mutation=-0.1"], "--mutation"),
        (&["evolve", "--mutation", "1.5"], "--mutation"),
        (&["evolve", "--mutation", "0.1..0.01"], "--mutation"),
        (&["evolve", "--generations=-3"], "--generations"),
        (&["evolve", "--checkpoint-every", "0"], "--checkpoint-every"),
        (&["evolve", "--set", "keep=0"], "--set keep"),
        (&["evolve", "--threads", "0"], "--threads"),
        (
            &["evolve", "--set", "selection=tournament:0"],
            "--set selection",
        ),
        (
            &["evolve", "--set", "selection=tournament:500"],
            "--set selection",
        ),
        (&["evolve", "--illegal", "ignore"], "--illegal"),
        (&["evolve", "--set", "init=ones"], "--set init"),
        // A flag the lean engine removed is named as unknown.
        (
            &["evolve", "--mutate", "used"],
            "unexpected argument '--mutate'",
        ),
        (&["evolve", "--set", "init=zero"], "--set init=zero"),
        (&["evolve", "--set", "crossover=block:0"], "--set crossover"),
        (
            &["evolve", "--preset", "method", "--fitness", "vs:sample:0"],
            "--fitness",
        ),
        (
            &["evolve", "--preset", "method", "--fitness", "vs:sample:100"],
            "--fitness",
        ),
        (
            &[
                "evolve",
                "--preset",
                "method",
                "--fitness",
                "round-robin+sample:5",
            ],
            "--fitness",
        ),
        (&["evolve", "--game", "go"], "unknown game"),
        (&["evolve", "--game", "nim", "--sticks", "0"], "--sticks"),
        (&["evolve", "--game", "nim", "--sticks", "300"], "--sticks"),
        (
            &["evolve", "--game", "nim", "--max-take", "0"],
            "--max-take",
        ),
        (
            &[
                "evolve", "--game", "nim", "--rule", "double", "--sticks", "1",
            ],
            "--sticks 1: 2-255 under the double rule",
        ),
        (
            &[
                "evolve",
                "--game",
                "nim",
                "--rule",
                "double",
                "--max-take",
                "2",
            ],
            "--max-take",
        ),
        (
            &["evolve", "--game", "ttt", "--sticks", "5"],
            "apply only to --game matchsticks",
        ),
        (&["evolve", "--encoder", "hexagonal"], "--encoder hexagonal"),
        (
            &["evolve", "--preset", "method", "--fitness", "vs:random:0"],
            "--fitness",
        ),
        (
            &[
                "evolve",
                "--game",
                "c4",
                "--preset",
                "method",
                "--fitness",
                "vs:exhaustive",
            ],
            "exhaustive",
        ),
        (
            &["evolve", "--bench-against", "stockfish"],
            "unknown player 'stockfish'",
        ),
        (&["evolve", "--run", "file/run"], "file"),
        (&["evolve", "--run", "file"], "is a file, not a directory"),
        (
            &["evolve", "--population", "-5"],
            "--population <N>': must be a whole number, 1-100000",
        ),
        (&["evolve", "--elite", "-1"], "--elite"),
        (
            &["plot", "nowhere", "--out", "."],
            "--out .: a folder; name the file to write in it, e.g. ./plot.png",
        ),
        (
            &["solve", "--game", "nim", "--encoder", "sticks"],
            "solve works on the rules alone",
        ),
        (
            &["eval", t, "--encoder", "symmetric", "--against", "random"],
            "was evolved with the base3 encoder",
        ),
        (
            &["play", t, "--encoder", "symmetric"],
            "was evolved with the base3 encoder",
        ),
        (
            &["evolve", "--game", "c4", "--population", "100000"],
            "GB of genes",
        ),
        (
            &["evolve", "--preset", "method", "--fitness", "vs:bogus:3"],
            "unknown player 'bogus'",
        ),
        (
            &[
                "evolve",
                "--game",
                "c4",
                "--encoder",
                "mirror",
                "--lookahead",
                "9",
            ],
            "--lookahead 9",
        ),
        (
            &["solve", "--game", "c4", "--position", "48"],
            "move 2 ('8')",
        ),
        (&["resume", "nowhere"], "no such run directory"),
        (
            &["evolve", "--game", "c4", "--encoder", "symmetric"],
            "ntuple (default here: ntuple)",
        ),
        (&["genome", "info", "half.genome"], "truncated"),
        (
            &["genome", "info", "newer.genome"],
            "newer than this bebete reads",
        ),
        (
            &["genome", "info", "text.genome"],
            "not a bebete genome file",
        ),
        (&["genome", "info", "empty.genome"], "truncated"),
        (&["genome", "info", "missing.genome"], "missing.genome"),
        (&["explain", t, "--position", "10"], "move 2 ('0')"),
        (&["explain", n, "--position", "3,3,9"], "move 3 ('9')"),
        (&["move", t, "--game", "nim"], "holds a tictactoe genome"),
        (&["eval", t, "--against", "mc:0"], "mc:0"),
        (&["eval", t, "--against", n], "holds a matchsticks"),
        (
            &["eval", "random", "--against", "rules"],
            "--game is required",
        ),
        (&["audit", "nothing.genome"], "nothing.genome"),
        (&["plot", "nowhere"], "nowhere"),
        (
            &["solve", "--game", "c4"],
            "tictactoe, matchsticks and solitaire allow",
        ),
        (
            &["play", "--game", "c4", "--opponent", "alphabeta:13"],
            "1-12",
        ),
    ];
    assert!(cases.len() >= 25);
    for (args, needle) in cases {
        let out = bebete(dir.path())
            .args(*args)
            .timeout(Duration::from_secs(60))
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
        // Refused before anything is printed.
        assert!(out.get_output().stdout.is_empty(), "{args:?} printed first");
        // A system error is said once, not once more as its own cause.
        assert!(
            stderr.matches("(os error").count() <= 1,
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.contains(needle),
            "{args:?} should mention {needle:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // No refused evolve left a run directory behind.
    let runs: Vec<_> = std::fs::read_dir(dir.path().join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(runs, ["r1"]);
}

fn corrupt(bytes: &[u8], edits: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for &(at, xor) in edits {
        if !out.is_empty() {
            let i = at % out.len();
            out[i] ^= xor.max(1);
        }
    }
    if let Some(len) = cut {
        out.truncate(len % (bytes.len() + 1));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Mutated genome and checkpoint files are refused, never trusted, and
    /// never crash the loader.
    #[test]
    fn mutated_files_are_refused_cleanly(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        cut in proptest::option::of(any::<usize>()),
    ) {
        use bebete_core::evolve::checkpoint::Checkpoint;
        use bebete_core::evolve::{EvolveConfig, Hall, Population};
        use bebete_core::games::{GameSpec, TicTacToe};
        use bebete_core::genome::Genome;
        let dir = tempfile::tempdir().unwrap();
        let genome = Genome::random(GameSpec::TICTACTOE, 3);
        let gpath = dir.path().join("g.genome");
        genome.save(&gpath).unwrap();
        let bad = corrupt(&std::fs::read(&gpath).unwrap(), &edits, cut);
        std::fs::write(&gpath, &bad).unwrap();
        prop_assert!(Genome::load(&gpath).is_err());

        let ckpt = Checkpoint {
            config: EvolveConfig::method(GameSpec::TICTACTOE, 1),
            generation: 0,
            rows: Vec::new(),
            population: Population::random(&TicTacToe::BASE3, 3, 1),
            first_island: 0,
            hall: Hall::from_genes(&[7u8; 2 * 19_683], 19_683),
        };
        let mut cfg = ckpt.config.clone();
        cfg.population = 3;
        let ckpt = Checkpoint { config: cfg, ..ckpt };
        let cpath = dir.path().join("c.ckpt");
        ckpt.save(&cpath).unwrap();
        let bad = corrupt(&std::fs::read(&cpath).unwrap(), &edits, cut);
        std::fs::write(&cpath, &bad).unwrap();
        prop_assert!(Checkpoint::load(&cpath).is_err());
    }

    /// Any text is, in every registered game, a position that keeps the
    /// rules' invariants or a clear error naming a move whose moves before
    /// it parse on their own.
    #[test]
    fn any_position_text_parses_or_is_refused(text in "[0-9,a-z /:.\\-]{0,60}") {
        use bebete_core::encoding::visit_table_game;
        use bebete_core::games::GameSpec;
        for spec in GameSpec::registered() {
            let checked = visit_table_game(spec, PositionText(&text));
            prop_assert!(checked.is_ok(), "{spec}, '{text}': {}", checked.unwrap_err());
        }
    }
}

/// Every registered game's genome and checkpoint files, damaged at their
/// header, in their middle, at their last byte, and cut in half, are
/// refused: the mutated-file property above, over the whole registry.
#[test]
fn damaged_files_of_every_registered_game_are_refused() {
    use bebete_core::encoding::visit_table_game;
    use bebete_core::games::GameSpec;
    let dir = tempfile::tempdir().unwrap();
    for spec in GameSpec::registered() {
        let damaged = visit_table_game(spec, DamagedFiles(dir.path()));
        assert!(damaged.is_ok(), "{spec}: {}", damaged.unwrap_err());
    }
}

/// Writes a genome and a checkpoint of one game, damages each and loads
/// it back ([`damaged_files_of_every_registered_game_are_refused`]).
struct DamagedFiles<'a>(&'a std::path::Path);

impl bebete_core::encoding::TableGameVisitor for DamagedFiles<'_> {
    type Output = Result<(), String>;

    fn visit<G: bebete_core::encoding::TableGame + bebete_core::games::BuiltIn>(
        self,
        game: G,
    ) -> Result<(), String> {
        use bebete_core::evolve::checkpoint::Checkpoint;
        use bebete_core::evolve::{EvolveConfig, Hall, Population};
        use bebete_core::genome::Genome;
        let spec = game.spec();
        let genome = Genome::random(spec, 3);
        let gpath = self.0.join("g.genome");
        genome.save(&gpath).map_err(|e| e.to_string())?;
        let mut config = EvolveConfig::method(spec, 1);
        config.population = 1;
        let population = Population::random(&game, 1, 1);
        let hall = Hall::from_genes(population.genome(0), game.gene_count());
        let ckpt = Checkpoint {
            config,
            generation: 0,
            rows: Vec::new(),
            population,
            first_island: 0,
            hall,
        };
        let cpath = self.0.join("c.ckpt");
        ckpt.save(&cpath).map_err(|e| e.to_string())?;
        for path in [&gpath, &cpath] {
            let good = std::fs::read(path).unwrap();
            let n = good.len();
            for (edits, cut) in [
                (vec![(3, 0x40)], None),
                (vec![(n / 2, 0x01)], None),
                (vec![(n - 1, 0x80)], None),
                (vec![], Some(n / 2)),
            ] {
                std::fs::write(path, corrupt(&good, &edits, cut)).unwrap();
                let refused = if path == &gpath {
                    Genome::load(path).is_err()
                } else {
                    Checkpoint::load(path).is_err()
                };
                if !refused {
                    return Err(format!(
                        "{} damaged ({edits:?}, cut {cut:?}) was loaded",
                        path.display()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Reads a text as a position of one game ([`any_position_text_parses_or_is_refused`]).
struct PositionText<'a>(&'a str);

impl bebete_core::encoding::TableGameVisitor for PositionText<'_> {
    type Output = Result<(), String>;

    fn visit<G: bebete_core::encoding::TableGame + bebete_core::games::BuiltIn>(
        self,
        game: G,
    ) -> Result<(), String> {
        use bebete_core::games::check_moves;
        match game.parse_position(self.0) {
            Ok(pos) => check_moves(&game, &pos).map_err(|broken| broken.to_string()),
            Err(e) if e.number == 0 || e.reason.to_string().is_empty() => {
                Err(format!("an error that names no move: {e}"))
            }
            Err(e) => {
                let tokens = game.split_notation(self.0.trim());
                match tokens.get(..e.number - 1) {
                    // A board written otherwise than as moves names its
                    // first fault as move 1.
                    _ if e.number == 1 => Ok(()),
                    Some(before) => game
                        .parse_position(&before.join(game.notation_separator()))
                        .map(|_| ())
                        .map_err(|again| format!("{e}, yet the moves before it: {again}")),
                    None => Err(format!("{e}: the text has only {} moves", tokens.len())),
                }
            }
        }
    }
}

#[test]
fn a_run_killed_at_random_moments_resumes_to_the_uninterrupted_result() {
    let flags = [
        "--quiet",
        "--seed",
        "5",
        "--preset",
        "method",
        "--fitness",
        "round-robin",
        "--generations",
        "400",
        "--checkpoint-every",
        "1",
        "--set",
        "keep=3",
    ];
    let whole = tempfile::tempdir().unwrap();
    bebete(whole.path())
        .args(["evolve", "--run", "runs/k"])
        .args(flags)
        .assert()
        .success();

    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("runs/k");
    let bin = assert_cmd::cargo::cargo_bin!("bebete");
    // Kill after a seeded pseudo-random delay, several times.
    let mut state = 0x9e37_79b9u64;
    let mut kills = 0;
    for _ in 0..6 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let delay = 40 + (state >> 33) % 250;
        let started_before = run.join("checkpoints").exists();
        let mut cmd = Command::new(bin);
        cmd.current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if started_before {
            cmd.args(["resume", "runs/k", "--quiet"]);
        } else {
            cmd.args(["evolve", "--run", "runs/k"]).args(flags);
        }
        let mut child = cmd.spawn().unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL: no chance to clean up
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(kills >= 1, "the run always finished before being killed");
    // Finish it.
    if run.join("checkpoints").exists() {
        bebete(dir.path())
            .args(["resume", "runs/k", "--quiet"])
            .assert()
            .success();
    } else {
        bebete(dir.path())
            .args(["evolve", "--run", "runs/k"])
            .args(flags)
            .assert()
            .success();
    }
    same_run(&whole.path().join("runs/k"), &run);
}

#[test]
fn a_second_writer_is_refused_while_the_first_runs() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = crate::common::spawn(
        dir.path(),
        &[
            "evolve",
            "--quiet",
            "--run",
            "runs/l",
            "--preset",
            "method",
            "--fitness",
            "round-robin",
            "--generations",
            "100000000",
        ],
    );
    // The lock is taken before anything is written, so once the first
    // checkpoint exists the run is certainly holding it.
    crate::common::wait_until("the first checkpoint", || {
        dir.path()
            .join("runs/l/checkpoints/gen-000000.ckpt")
            .exists()
    });
    // A second resume, and a new evolve in the same directory, are told the
    // run is in use (not advised to resume it).
    for args in [
        &["resume", "runs/l", "--quiet"][..],
        &["evolve", "--quiet", "--run", "runs/l"][..],
    ] {
        let out = bebete(dir.path()).args(args).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(
            stderr.contains(&format!("in use by process {}", first.id())),
            "{args:?}: {stderr}"
        );
    }
    first.kill().unwrap();
    first.wait().unwrap();
    // The holder is gone (SIGKILL): the kernel released its lock.
    bebete(dir.path())
        .args(["resume", "runs/l", "--quiet", "--generations", "1"])
        .assert()
        .success();
}

/// A checkpoint write that fails for a real file-size limit (`ulimit -f`,
/// the checkpoints growing with the hall of fame): the previous checkpoint
/// stays intact, the run ends with a clear error and status 2, and once the
/// limit is gone `resume` ends exactly where an uninterrupted run does.
#[test]
fn a_checkpoint_too_large_to_write_ends_cleanly_and_resumes_exactly() {
    let flags = [
        "evolve",
        "--quiet",
        "--game",
        "c4",
        "--population",
        "4",
        "--elite",
        "2",
        "--preset",
        "method",
        "--fitness",
        "round-robin+hof:2",
        "--generations",
        "30",
        "--checkpoint-every",
        "10",
        "--seed",
        "5",
        "--run",
        "runs/d",
    ];
    let (limited, whole) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let bin = assert_cmd::cargo::cargo_bin!("bebete");
    // 4,400 KiB: generation 0's checkpoint (4 genomes, 3.7 MB) fits; the
    // one at generation 10 (with a champion in the hall, 4.6 MB) does not.
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -f 4400; exec \"{}\" \"$@\"", bin.display()))
        .arg("bebete")
        .args(flags)
        .current_dir(limited.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("gen-000010.ckpt: File too large"),
        "{stderr}"
    );
    let checkpoints = limited.path().join("runs/d/checkpoints");
    let names: Vec<String> = std::fs::read_dir(&checkpoints)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["gen-000000.ckpt"], "no temporary file is left");
    bebete(limited.path())
        .args(["resume", "runs/d", "--quiet"])
        .assert()
        .success();
    bebete(whole.path()).args(flags).assert().success();
    crate::common::same_run(&limited.path().join("runs/d"), &whole.path().join("runs/d"));
}

/// A genome or a run of a game from outside bebete (written by a program
/// on the engine, as `crates/bebete-core/examples/own_game.rs` is) is
/// refused by every command, naming the game, with nothing changed.
#[test]
fn files_of_a_game_from_outside_are_refused_by_name() {
    use bebete_core::evolve::{EvolveConfig, Hall, Population, RunDir, checkpoint};
    use bebete_core::games::{GameId, GameSpec};
    use bebete_core::genome::{Genome, Provenance};
    let dir = tempfile::tempdir().unwrap();
    let hexapawn = GameId::Outside("hexapawn".to_string());
    let genome = Genome {
        game: hexapawn.clone(),
        provenance: Provenance::default(),
        genes: vec![0; 12],
        lookahead: 0,
    };
    genome.save(&dir.path().join("hexapawn.genome")).unwrap();
    let run = RunDir::new(dir.path().join("hexapawn-run"));
    std::fs::create_dir_all(run.checkpoints()).unwrap();
    let mut cfg = EvolveConfig::method(GameSpec::TICTACTOE, 1);
    cfg.game = hexapawn;
    let population = Population::zeroed(cfg.population, 12);
    let first = run.checkpoints().join(checkpoint::file_name(0));
    checkpoint::write(&first, &cfg, 0, &[], &[&population], 0, &Hall::default()).unwrap();
    let before = std::fs::read(&first).unwrap();
    let refused = |args: &[&str], file: &str, kind: &str| {
        let out = bebete(dir.path()).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!(
                "{file}: holds {kind} of hexapawn, a game from outside bebete: the program that evolved it reads it"
            )),
            "{args:?}: {err}"
        );
    };
    let a_genome = "a genome";
    refused(
        &["genome", "info", "hexapawn.genome"],
        "hexapawn.genome",
        a_genome,
    );
    refused(
        &["eval", "hexapawn.genome", "--against", "random"],
        "hexapawn.genome",
        a_genome,
    );
    refused(&["play", "hexapawn.genome"], "hexapawn.genome", a_genome);
    refused(&["resume", "hexapawn-run"], "hexapawn-run", "a checkpoint");
    assert_eq!(
        std::fs::read(&first).unwrap(),
        before,
        "the run is left as it was"
    );
}
