//! The dependency rule of docs/architecture.md, checked: a module may use
//! modules of lower layers, never one of its own layer or above.
//!
//! Reads every file of the engine (`crates/bebete-core/src/`) and of the
//! command line (`src/`, whose `crate::MODULE` paths reach the engine's
//! modules through re-exports), takes the `crate::MODULE` paths of its code
//! (test modules, which may reach anything to cross-check, are left out)
//! and compares layers. A new top-level module must be given a layer here,
//! or this test fails. The crate boundary itself keeps the engine from
//! naming the command line: that would not compile.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layers, lowest first: a module may use the modules of earlier rows.
const LAYERS: &[&[&str]] = &[
    &["seed", "store", "budget"],
    &["games"],
    &["solve", "puzzle"],
    &["encoding", "bank"],
    &["genome"],
    &["players"],
    &["audit", "eval", "explain", "labelling", "dispatch"],
    &["evolve"],
    &["observed"],
    // Test-only (`#[cfg(test)] mod hot_paths`): the engine's hot paths
    // checked together, so above everything they run.
    &["hot_paths"],
    // The binary crate, above the engine.
    &["typed"],
    &["plot", "play"],
    &["serve"],
    &["cli"],
];

/// Macros exported at the crate root (`#[macro_export]`), each with the
/// module that defines it: `crate::NAME` is that module's layer.
const EXPORTED_MACROS: &[(&str, &str)] = &[("evaluator_pool", "encoding")];

/// The module `crate::NAME` belongs to: NAME, or an exported macro's home.
fn home(name: &str) -> &str {
    EXPORTED_MACROS
        .iter()
        .find(|(macro_name, _)| *macro_name == name)
        .map_or(name, |&(_, module)| module)
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|row| row.contains(&home(module)))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its test-only items: each `#[cfg(test)]`
/// and the item after it (`mod x;`, or a block to its closing brace) are
/// cut, wherever they sit, and the rest is checked.
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        code.push_str(&rest[..i]);
        rest = &rest[i + "#[cfg(test)]".len()..];
        rest = &rest[item_end(rest)..];
    }
    code.push_str(rest);
    code
}

/// Where the item at the start of `text` ends: after its `;` when one
/// comes before any `{`, else after the brace that closes its first block
/// (braces in string and character literals not counted).
fn item_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b';' if depth == 0 => return i + 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' => {
                // A string: to its closing quote, escapes skipped; a raw
                // string's hashes are matched.
                let hashes = text[..i].chars().rev().take_while(|&c| c == '#').count();
                let raw = text[..i - hashes.min(i)].ends_with('r');
                i += 1;
                while i < bytes.len() {
                    if !raw && bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if bytes[i] == b'"' && text[i + 1..].starts_with(&"#".repeat(hashes)) {
                        i += hashes;
                        break;
                    }
                    i += 1;
                }
            }
            // A character literal ('{', '\''), not a lifetime.
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                i += 2;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The top-level modules `code` names as `crate::MODULE`.
fn uses(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.insert(name);
        }
    }
    found
}

fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        let mut parts = relative.iter().map(|p| p.to_string_lossy().into_owned());
        let first = parts.next().unwrap();
        if first == "lib.rs" || first == "main.rs" || relative.ends_with("tests.rs") {
            continue;
        }
        let module = first.trim_end_matches(".rs").to_string();
        let Some(own) = layer(&module) else {
            problems.push(format!("{}: module {module} has no layer", file.display()));
            continue;
        };
        let text = std::fs::read_to_string(&file).unwrap();
        for used in uses(&code_of(&text)) {
            if home(&used) == module {
                continue;
            }
            match layer(&used) {
                Some(l) if l < own => {}
                Some(_) => problems.push(format!(
                    "{}: {module} (layer {own}) uses crate::{used} (layer {})",
                    file.display(),
                    layer(&used).unwrap()
                )),
                None => problems.push(format!("{}: crate::{used} has no layer", file.display())),
            }
        }
    }
    problems
}

#[test]
fn no_module_uses_one_of_its_own_layer_or_above() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = violations(&root.join("crates/bebete-core/src"));
    problems.extend(violations(&root.join("src")));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_catches_an_upward_import() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    std::fs::write(
        games.join("mod.rs"),
        "use crate::evolve::Evolution;\n#[cfg(test)]\nmod tests { use crate::cli::run; }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("audit.rs"), "use crate::eval::Tally;\n").unwrap();
    let problems = violations(dir.path());
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("audit (layer 6) uses crate::eval"));
    assert!(problems[1].contains("games (layer 1) uses crate::evolve"));
    // A test-only item near the top hides nothing after it: only the item
    // is cut (its braces in strings and characters not counted).
    std::fs::write(
        games.join("mod.rs"),
        "#[cfg(test)]\nmod hot_paths;\n#[cfg(test)]\nfn helper() { let _ = (\"}\", '}', '{'); }\nuse crate::evolve::Evolution;\n",
    )
    .unwrap();
    let problems = violations(dir.path());
    assert!(
        problems
            .iter()
            .any(|p| p.contains("games (layer 1) uses crate::evolve")),
        "{problems:?}"
    );
    assert_eq!(
        code_of("a\n#[cfg(test)]\nmod t { fn f() { let s = r#\"{\"#; } }\nb\n"),
        "a\n\nb\n"
    );
}

/// `cargo tree` of the engine's normal dependencies under its default
/// features (read from the lock file), with `extra` arguments, as lines.
fn engine_tree(extra: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO"))
        .current_dir(root)
        .args(["tree", "--package", "bebete-core", "--edges", "normal"])
        .args(["--format", "{p}", "--offline"])
        .args(extra)
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The engine crate pulls in no command-line, terminal, plotting or server
/// crate, directly or through another dependency. One exception, named:
/// the Connect-Four solver (`connect-four-ai`) depends on indicatif for its
/// own opening-book generator, which the engine never calls.
#[test]
fn the_engine_depends_on_no_front_end_crate() {
    let tree = engine_tree(&["--prefix", "none"]);
    let names: BTreeSet<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(names.contains("rayon"), "the tree was read: {names:?}");
    for front_end in [
        "clap",
        "plotters",
        "signal-hook",
        "axum",
        "tokio",
        "hyper",
        "anyhow",
    ] {
        assert!(
            !names.contains(front_end),
            "bebete-core depends on {front_end}"
        );
    }
    // indicatif: only through the solver.
    let direct = engine_tree(&["--prefix", "depth", "--depth", "1"]);
    assert!(!direct.contains("indicatif"), "{direct}");
    if names.contains("indicatif") {
        let dependents = engine_tree(&["--prefix", "depth", "--invert", "indicatif"]);
        let parents: Vec<&str> = dependents.lines().filter(|l| l.starts_with('1')).collect();
        assert_eq!(parents.len(), 1, "{dependents}");
        assert!(parents[0].starts_with("1connect-four-ai"), "{dependents}");
    }
}

/// The server asks the registry, never a game by name: its code (tests
/// apart) names no game's kind or type, so a new game needs nothing of
/// it (`GameName`'s variants, as `Debug` writes them, and the games' own
/// rule types are what naming a game would take).
#[test]
fn the_server_names_no_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/serve"), &mut files);
    files.sort();
    let mut names: Vec<String> = bebete::games::GameName::ALL
        .iter()
        .map(|kind| format!("{kind:?}"))
        .collect();
    names.extend(["TakeRule", "TakeRuleName", "SolitaireRules"].map(String::from));
    let word = |code: &str, name: &str| {
        code.match_indices(name).any(|(i, _)| {
            let before = code[..i].chars().next_back();
            let after = code[i + name.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    };
    let mut named = Vec::new();
    for file in &files {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        for name in &names {
            if word(&code, name) {
                named.push(format!("{}: {name}", file.display()));
            }
        }
    }
    assert!(named.is_empty(), "{}", named.join("\n"));
    // The check sees a name where one is written.
    assert!(word("GameName::Matchsticks =>", "Matchsticks"));
    assert!(!word("MatchsticksRules", "Matchsticks"));
}

/// docs/architecture.md's "Where a new thing goes", held where a test can
/// hold it: every registered game lives in its three places (its rules
/// under `games/`, its genome reading in `encoding/`, what the fixed
/// players know in `players/knowledge/`), and every fitness term is one
/// file of `evolve/fitness/` with one line in the `terms!` table.
#[test]
fn each_game_and_each_fitness_term_sits_where_the_architecture_says() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/bebete-core/src");
    let mut missing = Vec::new();
    for kind in bebete::games::GameName::ALL {
        let name = kind.name();
        let games = engine.join("games");
        if !games.join(format!("{name}.rs")).is_file() && !games.join(name).join("mod.rs").is_file()
        {
            missing.push(format!("games/{name}.rs or games/{name}/mod.rs"));
        }
        for place in ["encoding", "players/knowledge"] {
            let file = engine.join(place).join(format!("{name}.rs"));
            if !file.is_file() {
                missing.push(format!("{place}/{name}.rs"));
            }
        }
    }
    let fitness = engine.join("evolve/fitness");
    let table = std::fs::read_to_string(fitness.join("mod.rs")).unwrap();
    let table = &table[table.find("\nterms! {").expect("the terms! table")..];
    let table = &table[..table.find("\n}").unwrap()];
    let mut files = Vec::new();
    rust_files(&fitness, &mut files);
    files.sort();
    let mut terms = 0;
    for file in files.iter().filter(|f| !f.ends_with("mod.rs")) {
        let module = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let kinds: Vec<&str> = text
            .match_indices("impl TermType for ")
            .map(|(i, at)| {
                let rest = &text[i + at.len()..];
                &rest[..rest
                    .find(|c: char| !c.is_alphanumeric() && c != '_')
                    .unwrap()]
            })
            .collect();
        match kinds[..] {
            [kind] if table.contains(&format!("({module}::{kind})")) => terms += 1,
            [kind] => missing.push(format!("the terms! line of {module}::{kind}")),
            _ => missing.push(format!(
                "one TermType in {}, found {kinds:?}",
                file.display()
            )),
        }
    }
    assert!(missing.is_empty(), "missing: {}", missing.join(", "));
    assert_eq!(
        terms,
        table
            .lines()
            .filter(|l| l.trim_end().ends_with("),"))
            .count()
    );
}

/// docs/architecture.md's row for a new kind of genome lists the engine
/// files that name the kinds (`Kind::Votes`, `Kind::Value`, the `GenomeKinds`
/// types, `Decision`'s variants) and the file that pins the stored tags:
/// a file that starts or stops naming them changes the row.
#[test]
fn a_new_genome_kind_touches_the_files_the_architecture_lists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = root.join("crates/bebete-core/src");
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let row = doc
        .lines()
        .find(|l| l.starts_with("| a new kind of genome"))
        .expect("the row for a new kind of genome");
    let listed: BTreeSet<String> = row
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.ends_with(".rs") && engine.join(word).is_file())
        .map(String::from)
        .collect();
    let mut files = Vec::new();
    rust_files(&engine, &mut files);
    let markers = ["Kind::Votes", "Kind::Value(", "type Votes", "type Values"];
    let mut found: BTreeSet<String> = files
        .iter()
        .filter(|file| {
            let code = code_of(&std::fs::read_to_string(file).unwrap());
            markers.iter().any(|m| code.contains(m))
        })
        .map(|file| {
            let relative = file.strip_prefix(&engine).unwrap();
            relative.to_string_lossy().replace('\\', "/")
        })
        .collect();
    // The stored tags' pins are a test of their own, not a match on a kind.
    found.insert("games/spec.rs".to_string());
    assert_eq!(
        found, listed,
        "files naming the genome kinds, against the row"
    );
    assert_eq!(listed.len(), 10, "the row says ten engine files");
}
