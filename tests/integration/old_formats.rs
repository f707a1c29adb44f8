//! Runs saved by every older checkpoint format resume exactly, each read
//! through its frozen reader.

use crate::common::{bebete, same_run};
use std::path::Path;

/// A run saved by each older checkpoint format, with the flags that wrote
/// it: `tests/fixtures/vNfix` was written by the build of format N
/// (`bebete evolve FLAGS --generations 3 --checkpoint-every 3 --run vNfix`;
/// formats 1 to 5 store the configuration by position, 6 by name with the
/// rows by position, 7 both by name, its genes raw; 7 was made from a run
/// written by the build of format 8, with its payload inflated).
/// Each exercises what its format added: sampled tournaments and the hall
/// of fame (2), the shell's lookahead (3), islands (4), the one-player
/// `solo` term (5), the configuration as JSON with a value genome learning
/// by self-play and fitness terms stored field by field (6), benchmark
/// columns stored by name (7).
const OLD_FORMATS: [(u16, &[&str]); 7] = [
    (
        1,
        &["--game", "nim", "--seed", "9", "--fitness", "round-robin"],
    ),
    (
        2,
        &[
            "--game",
            "nim",
            "--seed",
            "12",
            "--fitness",
            "vs:sample:2+hof:2+random:4",
        ],
    ),
    (
        3,
        &[
            "--game",
            "ttt",
            "--encoder",
            "base3",
            "--seed",
            "13",
            "--lookahead",
            "1",
        ],
    ),
    (
        4,
        &[
            "--game",
            "nim",
            "--seed",
            "14",
            "--islands",
            "2",
            "--migrate-every",
            "1",
        ],
    ),
    (
        5,
        &[
            "--game", "peg", "--rows", "4", "--empty", "2", "--seed", "15",
        ],
    ),
    (
        6,
        &[
            "--game",
            "ttt",
            "--encoder",
            "ntuple",
            "--tuples",
            "4",
            "--tuple-length",
            "3",
            "--self-play",
            "10",
            "--seed",
            "16",
            "--fitness",
            "vs:random:4+hof:2+exhaustive",
        ],
    ),
    (
        7,
        &[
            "--game",
            "ttt",
            "--seed",
            "17",
            "--bench-every",
            "1",
            "--fitness",
            "round-robin",
        ],
    ),
];

/// Flags every fixture shares (after its own), and the v3 fixture's extras.
fn fixture_flags(format: u16) -> Vec<&'static str> {
    let mut flags = vec![
        "--population",
        "6",
        "--elite",
        "2",
        "--checkpoint-every",
        "3",
    ];
    match format {
        3 => flags.extend(["--fitness", "round-robin", "--bench-every", "0"]),
        4 => flags.extend(["--migrants", "1"]),
        _ => {}
    }
    flags
}

/// Every older format loads, and today's build resumes it to the same
/// result (champion bytes, stats, run.toml) as a run started today with the
/// same flags.
#[test]
fn runs_saved_by_every_older_checkpoint_format_resume_exactly() {
    for (format, own) in OLD_FORMATS {
        let name = format!("v{format}fix");
        let dir = tempfile::tempdir().unwrap();
        let (old, fresh) = (dir.path().join("old"), dir.path().join("fresh"));
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(&name);
        std::fs::create_dir_all(old.join(&name).join("checkpoints")).unwrap();
        for file in [
            "run.toml",
            "stats.csv",
            "best.genome",
            "checkpoints/gen-000003.ckpt",
        ] {
            std::fs::copy(fixture.join(file), old.join(&name).join(file)).unwrap();
        }
        let ckpt = std::fs::read(fixture.join("checkpoints/gen-000003.ckpt")).unwrap();
        assert_eq!(
            &ckpt[8..10],
            &format.to_le_bytes(),
            "{name} is format {format}"
        );
        bebete(&old)
            .args(["resume", &name, "--generations", "3", "--quiet"])
            .assert()
            .success();
        std::fs::create_dir_all(&fresh).unwrap();
        bebete(&fresh)
            .arg("evolve")
            .args(own)
            .args(fixture_flags(format))
            .args(["--generations", "6", "--run", &name, "--quiet"])
            .assert()
            .success();
        same_run(&old.join(&name), &fresh.join(&name));
        let toml =
            |root: &Path| std::fs::read_to_string(root.join(&name).join("run.toml")).unwrap();
        assert_eq!(toml(&old), toml(&fresh), "{name}: run.toml");
        // The resumed run now checkpoints in today's format.
        let newest = std::fs::read(old.join(&name).join("checkpoints/gen-000006.ckpt")).unwrap();
        assert_eq!(&newest[8..10], &8u16.to_le_bytes(), "{name} resumed");
    }
}
