//! `bebete serve`'s HTTP API, spoken to over a socket: whole games in all
//! three games, the explanations, the run pages, and every refusal (path
//! traversal, symlinks out, oversized and malformed bodies, illegal moves,
//! the session cap), after which the server must still be up.

use crate::common::server::{Server, project};
use crate::common::{bebete, stdout_of};
use serde_json::Value;
use std::time::Duration;

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// Starts a table and returns its state.
fn new_game(server: &Server, request: &str) -> Value {
    let (status, body) = server.post("/api/games", request);
    assert_eq!(status, 200, "{body}");
    json(&body)
}

/// Plays the first legal move until the game ends (at most `limit` moves);
/// the final state.
fn play_out(server: &Server, mut state: Value, limit: usize) -> Value {
    for _ in 0..limit {
        if !state["result"].is_null() {
            return state;
        }
        assert_eq!(state["your_turn"], true, "{state}");
        let mv = state["legal"][0].as_str().unwrap().to_string();
        let id = state["id"].as_str().unwrap();
        let (status, body) = server.post(
            &format!("/api/games/{id}/move"),
            &format!(r#"{{"move":"{mv}"}}"#),
        );
        assert_eq!(status, 200, "{body}");
        state = json(&body);
    }
    panic!("the game did not end in {limit} moves: {state}");
}

fn error_of(reply: (u16, String), status: u16, words: &str) {
    assert_eq!(reply.0, status, "{}", reply.1);
    let body = json(&reply.1);
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    assert!(message.contains(words), "{message:?} lacks {words:?}");
}

#[test]
fn the_page_and_its_assets_are_served() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"), "{page}");
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "the page fetches nothing from elsewhere"
    );
    assert_eq!(server.get("/app.js").0, 200);
    assert_eq!(server.get("/style.css").0, 200);
    assert_eq!(server.get("/runs").0, 200, "the run list is the same page");
    assert_eq!(server.get("/nothing-here").0, 404);
}

#[test]
fn a_tictactoe_series_against_perfect_keeps_the_score_and_swaps_sides() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let state = new_game(&server, r#"{"opponent":"perfect","game":"ttt"}"#);
    assert_eq!(state["human"], "X");
    assert_eq!(state["board"]["cells"], ".........");
    let end = play_out(&server, state, 5);
    assert_ne!(end["result"], "you win", "{end}");
    assert_eq!(end["score"]["human"], 0);
    assert_eq!(
        end["score"]["bot"].as_u64().unwrap() + end["score"]["draws"].as_u64().unwrap(),
        1
    );
    let id = end["id"].as_str().unwrap();
    // The game is over: a move is refused; the next game swaps sides, and
    // the bot (now X) has already moved.
    error_of(
        server.post(&format!("/api/games/{id}/move"), r#"{"move":"1"}"#),
        409,
        "over",
    );
    let (status, body) = server.post(&format!("/api/games/{id}/next"), "");
    assert_eq!(status, 200, "{body}");
    let next = json(&body);
    assert_eq!(next["human"], "O");
    assert_eq!(next["game_number"], 2);
    assert_eq!(next["last"]["by"], "bot");
    assert_eq!(
        next["board"]["cells"]
            .as_str()
            .unwrap()
            .matches('X')
            .count(),
        1
    );
    assert_eq!(next["score"], end["score"], "the score is kept");
    let end = play_out(&server, next, 5);
    assert_eq!(end["score"]["human"], 0, "{end}");
    let (status, _) = server.request("DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
    error_of(server.get(&format!("/api/games/{id}")), 404, "no game");
}

#[test]
fn a_connect4_genome_explains_its_votes_and_refuses_a_full_column() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let state = new_game(
        &server,
        r#"{"opponent":"genomes/connect4-subgrid.genome","first":"bot"}"#,
    );
    let explain = &state["bot"]["explain"];
    assert_eq!(
        explain["windows"].as_array().unwrap().len(),
        12,
        "{explain}"
    );
    assert_eq!(explain["votes"].as_array().unwrap().len(), 7);
    assert_eq!(explain["shell"]["lookahead"], 5);
    assert_eq!(state["last"]["move"], explain["shell"]["move"]);
    // The same report as `bebete explain --json` for that position.
    let (status, body) = server.post(
        "/api/explain",
        r#"{"genome":"genomes/connect4-subgrid.genome","position":""}"#,
    );
    assert_eq!(status, 200, "{body}");
    let cli = stdout_of(bebete(dir.path()).args([
        "explain",
        "genomes/connect4-subgrid.genome",
        "--json",
    ]));
    assert_eq!(json(&body), json(&cli));
    assert_eq!(json(&body), *explain);
    // Fill column 1 from our side; the bot answers each time.
    let id = state["id"].as_str().unwrap().to_string();
    let mut state = state;
    while state["result"].is_null()
        && !state["board"]["cells"].as_str().unwrap().starts_with('X')
        && !state["board"]["cells"].as_str().unwrap().starts_with('O')
    {
        let (status, body) = server.post(&format!("/api/games/{id}/move"), r#"{"move":"1"}"#);
        assert_eq!(status, 200, "{body}");
        state = json(&body);
    }
    if state["result"].is_null() {
        error_of(
            server.post(&format!("/api/games/{id}/move"), r#"{"move":"1"}"#),
            422,
            "column 1 is full",
        );
        error_of(
            server.post(&format!("/api/games/{id}/move"), r#"{"move":"9"}"#),
            422,
            "is not a move",
        );
        let end = play_out(&server, state, 25);
        assert!(!end["result"].is_null());
    }
}

#[test]
fn matchsticks_with_its_rules_and_the_run_pages() {
    let dir = project(true);
    let server = Server::start(dir.path(), &[]);
    let state = new_game(
        &server,
        r#"{"opponent":"rules","game":"nim","rule":"double","sticks":8}"#,
    );
    assert_eq!(state["board"]["kind"], "heap");
    assert_eq!(state["board"]["sticks"], 8);
    // The rule fields are the registry's to read: another game refuses
    // them, and a one-player game is named as such.
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"rules","game":"ttt","sticks":8}"#,
        ),
        422,
        "apply only to --game matchsticks, not tictactoe",
    );
    error_of(
        server.post("/api/games", r#"{"opponent":"random","game":"solitaire"}"#),
        422,
        "solitaire is a one-player game",
    );
    assert_eq!(
        state["rules"].as_str().unwrap(),
        "matchsticks (double, 8 sticks, up to twice the last take, last stick wins)"
    );
    play_out(&server, state, 10);
    let state = new_game(
        &server,
        r#"{"opponent":"genomes/matchsticks.genome","first":"bot"}"#,
    );
    assert!(state["bot"]["explain"]["gene"].is_number(), "{state}");
    // A run: listed, its statistics, its curves as SVG, its champion playable.
    let runs = json(&server.get("/api/runs").1);
    assert_eq!(runs[0]["name"], "tiny");
    assert_eq!(runs[0]["generations"], 4);
    assert_eq!(runs[0]["running"], false);
    let run = json(&server.get("/api/runs/tiny").1);
    assert_eq!(run["params"]["seed"], 3);
    // It finished its plan: the page says so, and when.
    assert_eq!(run["ended"]["generation"], 3, "{run}");
    assert_eq!(
        run["ended"]["reason"], "its plan of 4 generations is done",
        "{run}"
    );
    assert_eq!(run["columns"][0], "generation");
    assert_eq!(run["rows"].as_array().unwrap().len(), 4);
    let (status, svg) = server.get("/api/runs/tiny/plot.svg");
    assert_eq!(status, 200);
    assert!(
        svg.starts_with("<svg") && svg.contains("generation"),
        "{}",
        &svg[..200.min(svg.len())]
    );
    let genomes = json(&server.get("/api/genomes").1);
    // The shipped champions are told from one's own: the run's champion
    // and its copy in genomes/ are not shipped.
    let shipped = |name: &str| {
        genomes
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .unwrap_or_else(|| panic!("{name} not listed: {genomes}"))["shipped"]
            .clone()
    };
    assert_eq!(shipped("runs/tiny/best.genome"), false);
    assert_eq!(shipped("genomes/tiny.genome"), false);
    assert_eq!(shipped("genomes/tictactoe.genome"), true);
    let state = new_game(&server, r#"{"opponent":"runs/tiny/best.genome"}"#);
    assert_eq!(state["game"], "tictactoe");
    // The page's run list and a run's page; a run that is not there is 404.
    for path in ["/runs", "/runs/", "/runs/tiny"] {
        let (status, page) = server.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(page.contains("<html"), "{path}");
    }
    let (status, text) = server.get("/runs/nonexistent");
    assert_eq!(status, 404);
    assert!(
        text.contains("'runs/nonexistent'") && text.contains("the runs are listed at /runs"),
        "{text}"
    );
}

/// A run of islands counts generations, not rows (a row per island).
#[test]
fn a_run_of_islands_counts_its_generations() {
    let dir = project(false);
    let out = stdout_of(bebete(dir.path()).args([
        "evolve",
        "--islands",
        "2",
        "--population",
        "10",
        "--elite",
        "2",
        "--generations",
        "3",
        "--run",
        "runs/isl",
    ]));
    assert!(
        out.contains("2 islands of population 10, 3 generations"),
        "{out}"
    );
    let server = Server::start(dir.path(), &[]);
    let runs = json(&server.get("/api/runs").1);
    assert_eq!(runs[0]["generations"], 3, "{runs}");
    let run = json(&server.get("/api/runs/isl").1);
    assert_eq!(run["generations"], 3);
    assert_eq!(run["rows"].as_array().unwrap().len(), 6);
}

#[test]
fn refusals_are_json_and_the_server_stays_up() {
    let dir = project(false);
    let outside = dir.path().join("outside.genome");
    std::fs::copy(dir.path().join("genomes/tictactoe.genome"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, dir.path().join("genomes/link.genome")).unwrap();
    std::fs::write(dir.path().join("genomes/notes.genome"), "not a genome").unwrap();
    let mut server = Server::start(dir.path(), &[]);
    let game = |opponent: &str| format!(r#"{{"opponent":"{opponent}"}}"#);
    for name in [
        "genomes/../outside.genome",
        "../outside.genome",
        "/etc/passwd",
        "genomes//tictactoe.genome",
        "genomes/./tictactoe.genome",
        "src/main.rs",
        "genomes\\\\..\\\\x",
    ] {
        error_of(server.post("/api/games", &game(name)), 403, "genomes/");
    }
    error_of(
        server.post("/api/games", &game("genomes/link.genome")),
        403,
        "outside",
    );
    error_of(
        server.post("/api/games", &game("genomes/missing.genome")),
        404,
        "no such file",
    );
    error_of(
        server.post("/api/games", &game("genomes/notes.genome")),
        422,
        "genomes/notes.genome",
    );
    error_of(
        server.post("/api/explain", r#"{"genome":"genomes/../outside.genome"}"#),
        403,
        "genomes/",
    );
    for path in [
        "/api/runs/..",
        "/api/runs/..%2F..%2Fetc",
        "/api/runs/%2Fetc",
        "/api/runs/.hidden/plot.svg",
    ] {
        let (status, body) = server.get(path);
        assert!(status == 403 || status == 404, "{path}: {status} {body}");
        assert!(json(&body)["error"].is_string(), "{path}: {body}");
    }
    error_of(server.post("/api/games", "{not json"), 400, "request body");
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"rules","game":"ttt","colour":"red"}"#,
        ),
        400,
        "unknown field",
    );
    error_of(
        server.post("/api/games", r#"{"opponent":"wizard"}"#),
        422,
        "unknown player 'wizard'",
    );
    error_of(
        server.post("/api/games", r#"{"opponent":"mc:0","game":"c4"}"#),
        422,
        "1-100000",
    );
    error_of(
        server.post("/api/games", r#"{"opponent":"rules"}"#),
        422,
        "'game' is required",
    );
    error_of(
        server.post("/api/games", r#"{"opponent":"rules","game":"chess"}"#),
        422,
        "expected tictactoe",
    );
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"rules","game":"nim","sticks":0}"#,
        ),
        422,
        "at least",
    );
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"genomes/tictactoe.genome","game":"c4"}"#,
        ),
        422,
        "plays tictactoe",
    );
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"rules","game":"c4","first":"nobody"}"#,
        ),
        422,
        "human or bot",
    );
    for request in [
        r#"{"opponent":"random","game":"peg"}"#,
        r#"{"opponent":"genomes/solitaire.genome"}"#,
    ] {
        error_of(server.post("/api/games", request), 422, "one-player game");
    }
    let big = format!(r#"{{"opponent":"{}"}}"#, "x".repeat(20_000));
    error_of(server.post("/api/games", &big), 413, "");
    error_of(
        server.post(
            "/api/explain",
            r#"{"genome":"genomes/connect4-subgrid.genome","position":"4444444"}"#,
        ),
        400,
        "move 7",
    );
    error_of(server.get("/api/games/0123"), 404, "no game");
    error_of(
        server.post("/api/games/0123/move", r#"{"move":"1"}"#),
        404,
        "no game",
    );
    error_of(server.get("/api/nothing"), 404, "no such endpoint");
    error_of(server.request("PUT", "/api/genomes", None), 405, "method");
    let state = new_game(&server, r#"{"opponent":"random","game":"ttt"}"#);
    let id = state["id"].as_str().unwrap();
    error_of(
        server.post(&format!("/api/games/{id}/move"), r#"{"move":"x"}"#),
        422,
        "is not a move",
    );
    error_of(
        server.post(&format!("/api/games/{id}/move"), r#"{"mv":"1"}"#),
        400,
        "unknown field",
    );
    server.post(&format!("/api/games/{id}/move"), r#"{"move":"5"}"#);
    error_of(
        server.post(&format!("/api/games/{id}/move"), r#"{"move":"5"}"#),
        422,
        "cell 5 is already taken",
    );
    assert!(server.alive());
    assert_eq!(server.get("/api/genomes").0, 200);
}

#[test]
fn the_session_cap_keeps_games_in_play_and_a_slow_bot_blocks_nothing() {
    let dir = project(false);
    let server = Server::start(dir.path(), &["--max-games", "2"]);
    // A bot with many playouts: its move takes a while. While it thinks,
    // the server answers other requests, and refuses a second move.
    let slow = new_game(&server, r#"{"opponent":"mc:100000","game":"c4"}"#);
    let id = slow["id"].as_str().unwrap().to_string();
    let addr = server.addr;
    let mover = std::thread::spawn(move || {
        let server = Server::at(addr);
        server.post(&format!("/api/games/{id}/move"), r#"{"move":"4"}"#)
    });
    let id = slow["id"].as_str().unwrap();
    let mut saw_thinking = false;
    // Bounded in time, not only in count: on a loaded machine the mover's
    // request may reach the server seconds after the first looks.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    for _ in 0..30_000 {
        if std::time::Instant::now() > deadline {
            break;
        }
        let state = json(&server.get(&format!("/api/games/{id}")).1);
        if state["thinking"] == true {
            saw_thinking = true;
            break;
        }
        if state["moves"].as_str().unwrap().len() >= 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    if saw_thinking {
        error_of(
            server.post(&format!("/api/games/{id}/move"), r#"{"move":"3"}"#),
            409,
            "still thinking",
        );
        assert_eq!(server.get("/api/genomes").0, 200);
    }
    let (status, body) = mover.join().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(
        saw_thinking,
        "the bot's thinking was never seen from outside"
    );
    // Full (2): a new table drops a table the person has not moved in,
    // never one they moved in lately (`slow`); reading a table does not
    // make it younger.
    let slow = slow["id"].as_str().unwrap();
    let second = new_game(&server, r#"{"opponent":"rules","game":"ttt"}"#);
    let second = second["id"].as_str().unwrap();
    let third = new_game(&server, r#"{"opponent":"rules","game":"ttt"}"#);
    let third = third["id"].as_str().unwrap();
    assert_eq!(server.get(&format!("/api/games/{slow}")).0, 200);
    error_of(
        server.get(&format!("/api/games/{second}")),
        404,
        "dropped to make room",
    );
    // Two games in play: a new table is refused, naming why.
    let (status, _) = server.post(&format!("/api/games/{third}/move"), r#"{"move":"5"}"#);
    assert_eq!(status, 200);
    error_of(
        server.post("/api/games", r#"{"opponent":"rules","game":"ttt"}"#),
        503,
        "in play",
    );
    assert_eq!(server.get(&format!("/api/games/{third}")).0, 200);
    server.request("DELETE", &format!("/api/games/{slow}"), None);
    // A move has one spelling: a sign or a leading zero is refused.
    let game = new_game(&server, r#"{"opponent":"rules","game":"c4"}"#);
    let id = game["id"].as_str().unwrap();
    for mv in ["+4", "04"] {
        error_of(
            server.post(
                &format!("/api/games/{id}/move"),
                &format!(r#"{{"move":"{mv}"}}"#),
            ),
            422,
            "is not a move: a column is a digit 1–7",
        );
    }
    // A spec written with a sign is not a number.
    error_of(
        server.post("/api/games", r#"{"opponent":"alphabeta:+5","game":"c4"}"#),
        422,
        "whole number",
    );
}

#[test]
fn a_run_still_evolving_is_watched_as_it_grows() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let mut evolving = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .current_dir(dir.path())
        .args([
            "evolve",
            "--game",
            "c4",
            "--population",
            "10",
            "--elite",
            "2",
            "--generations",
            "100000",
        ])
        .args([
            "--fitness",
            "vs:random:2",
            "--bench-every",
            "0",
            "--run",
            "runs/live",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let generations = |server: &Server| -> Option<(usize, bool)> {
        let (status, body) = server.get("/api/runs/live");
        (status == 200).then(|| {
            let run = json(&body);
            (
                run["rows"].as_array().unwrap().len(),
                run["running"] == true,
            )
        })
    };
    let mut seen = Vec::new();
    for _ in 0..3_000 {
        if let Some((rows, true)) = generations(&server)
            && rows > 0
            && seen.last() != Some(&rows)
        {
            seen.push(rows);
            if seen.len() == 3 {
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    evolving.kill().unwrap();
    evolving.wait().unwrap();
    assert_eq!(seen.len(), 3, "the run did not grow under watch: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    let (rows, running) = generations(&server).unwrap();
    assert!(
        rows >= seen[2] && !running,
        "a killed run is no longer running"
    );
    let (status, svg) = server.get("/api/runs/live/plot.svg");
    assert_eq!(status, 200, "{svg}");
}

#[test]
fn bad_serve_flags_are_named() {
    let dir = project(false);
    let fails = |args: &[&str], words: &str| {
        let out = bebete(dir.path())
            .arg("serve")
            .args(args)
            .assert()
            .failure()
            .get_output()
            .clone();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(words), "{err:?} lacks {words:?}");
    };
    fails(&["--port", "70000"], "--port");
    fails(&["--host", "localhost:80"], "--host");
    fails(&["--max-games", "0"], "--max-games");
    fails(&["--idle-minutes", "0"], "--idle-minutes");
    fails(
        &["--dir", "no-such-dir"],
        "--dir no-such-dir: not a directory",
    );
    let taken = Server::start(dir.path(), &[]);
    let port = taken.addr.port().to_string();
    fails(&["--port", &port], &format!("serving on 127.0.0.1:{port}"));
    // Listening beyond this machine is said aloud.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bebete"))
        .args(["serve", "--host", "0.0.0.0", "--port", "0"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut warning = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut warning,
    )
    .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        warning.starts_with("warning: listening on 0.0.0.0 beyond this machine"),
        "{warning}"
    );
}

/// The issue's cross-site requests, over a real socket: a form's text/plain
/// body, another site's Origin, another name for the address (DNS
/// rebinding) are refused before anything is done; the page's own
/// requests pass.
#[test]
fn requests_from_other_sites_and_other_names_are_refused() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let host = server.addr.to_string();
    let body = br#"{"opponent":"alphabeta:1","game":"c4","first":"bot","rule":"="}"#;
    let own_origin = format!("Origin: http://{host}");
    let cases: [(&str, Vec<&str>, u16, &str); 6] = [
        (
            &host,
            vec!["Content-Type: text/plain"],
            415,
            "JSON bodies only",
        ),
        (&host, vec![], 415, "JSON bodies only"),
        (
            &host,
            vec![
                "Content-Type: application/json",
                "Origin: http://evil.example",
            ],
            403,
            "other sites",
        ),
        (
            &host,
            vec!["Content-Type: text/plain", "Origin: http://evil.example"],
            403,
            "other sites",
        ),
        (
            "evil.example",
            vec!["Content-Type: application/json"],
            421,
            "is not this server",
        ),
        (
            &host,
            vec!["Content-Type: application/json; charset=utf-8", &own_origin],
            200,
            "",
        ),
    ];
    // The form's body ends in its `=`; the page's own has none (a rule
    // field for Connect-Four would be refused as such).
    let own = br#"{"opponent":"alphabeta:1","game":"c4","first":"bot"}"#;
    for (name, headers, status, says) in cases {
        let sent = if status == 200 { &own[..] } else { &body[..] };
        let (got, reply) = server.request_with("POST", "/api/games", name, &headers, Some(sent));
        assert_eq!(got, status, "{name} {headers:?}: {reply}");
        assert!(reply.contains(says), "{reply}");
    }
    // A body announced far too large is refused before it is sent.
    let (status, reply) = server.request_with(
        "POST",
        "/api/games",
        &host,
        &[
            "Content-Type: application/json",
            "Content-Length: 99999999999",
        ],
        None,
    );
    assert_eq!(status, 413, "{reply}");
    // Reads are guarded by the name too; the page's own GET passes.
    let (status, _) = server.request_with("GET", "/api/genomes", "evil.example:80", &[], None);
    assert_eq!(status, 421);
    let long = format!("Origin: http://{}", "x".repeat(10_000));
    let (status, reply) = server.request_with("GET", "/api/genomes", &host, &[&long], None);
    assert_eq!(status, 403);
    assert!(
        reply.len() < 400,
        "the refusal does not echo it all: {}",
        reply.len()
    );
    assert_eq!(server.get("/api/genomes").0, 200);
}

/// A header that must come once comes once; a GET that a page elsewhere
/// made the browser send is refused; no answer may be framed by another
/// site or have its type guessed.
#[test]
fn doubled_headers_cross_site_gets_and_framing_are_refused() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let host = server.addr.to_string();
    let evil_host = "Host: evil.example".to_string();
    let own_origin = format!("Origin: http://{host}");
    let body = br#"{"opponent":"random","game":"ttt","first":"you"}"#;
    for doubled in [
        vec![evil_host.as_str()],
        vec![own_origin.as_str(), "Origin: http://evil.example"],
        vec!["Content-Type: application/json", "Content-Type: text/plain"],
    ] {
        let (status, reply) =
            server.request_with("POST", "/api/games", &host, &doubled, Some(&body[..]));
        assert_eq!(status, 400, "{doubled:?}: {reply}");
        assert!(reply.contains("more than once"), "{reply}");
    }
    let own_referer = format!("Referer: http://{host}/");
    let prefix_referer = format!("Referer: http://{host}.evil.example/");
    for (headers, status) in [
        (vec!["Sec-Fetch-Site: cross-site"], 403),
        // A page on another port of this host: same-site, not same-origin.
        (vec!["Sec-Fetch-Site: same-site"], 403),
        (vec!["Referer: http://evil.example/page"], 403),
        (vec![prefix_referer.as_str()], 403),
        (
            vec!["Sec-Fetch-Site: same-origin", own_referer.as_str()],
            200,
        ),
        (vec!["Sec-Fetch-Site: none"], 200),
    ] {
        for path in ["/api/runs", "/api/genomes", "/"] {
            let (got, reply) = server.request_with("GET", path, &host, &headers, None);
            assert_eq!(got, status, "{path} {headers:?}: {reply}");
        }
    }
    for path in ["/", "/api/genomes", "/api/nothing"] {
        let (_, head, _) = server.exchange("GET", path, &host, &[], None);
        let head = head.to_ascii_lowercase();
        for needed in [
            "x-frame-options: deny",
            "x-content-type-options: nosniff",
            "frame-ancestors 'none'",
        ] {
            assert!(head.contains(needed), "{path} lacks {needed}: {head}");
        }
    }
}

/// The files of a run are read as the server reads every file: a link
/// inside a run is not followed, a FIFO hangs nobody, and a `stats.csv`
/// over the limit is refused from its size while the run list, which reads
/// its last line only, still answers.
#[test]
fn links_fifos_and_huge_files_inside_runs_are_refused() {
    let dir = project(true);
    let runs = dir.path().join("runs");
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.toml"), "game = \"outside\"\n").unwrap();
    std::fs::write(
        outside.path().join("secret.csv"),
        "generation,best\n0,424242\n",
    )
    .unwrap();
    let copy_of_tiny = |name: &str| {
        let run = runs.join(name);
        std::fs::create_dir(&run).unwrap();
        for file in ["run.toml", "stats.csv", "best.genome"] {
            std::fs::copy(runs.join("tiny").join(file), run.join(file)).unwrap();
        }
        run
    };
    let linked = copy_of_tiny("linked");
    for (file, target) in [("run.toml", "secret.toml"), ("stats.csv", "secret.csv")] {
        std::fs::remove_file(linked.join(file)).unwrap();
        std::os::unix::fs::symlink(outside.path().join(target), linked.join(file)).unwrap();
    }
    let fifo = copy_of_tiny("fifo");
    for file in ["stats.csv", "best.genome"] {
        std::fs::remove_file(fifo.join(file)).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(fifo.join(file))
            .status()
            .unwrap();
        assert!(made.success());
    }
    // A FIFO where the run lock should be: nobody may wait on it.
    let locked = copy_of_tiny("lockfifo");
    let made = std::process::Command::new("mkfifo")
        .arg(locked.join("lock"))
        .status()
        .unwrap();
    assert!(made.success());
    // A second name (hard link) of a file outside the served folders.
    let hard = copy_of_tiny("hard");
    std::fs::remove_file(hard.join("stats.csv")).unwrap();
    std::fs::hard_link(outside.path().join("secret.csv"), hard.join("stats.csv")).unwrap();
    // A long run: its page reads every k-th generation and the last.
    let long = copy_of_tiny("long");
    let mut stats = std::fs::read_to_string(long.join("stats.csv")).unwrap();
    let row = stats.lines().nth(1).unwrap().to_string();
    let (_, rest) = row.split_once(',').unwrap();
    let long_generations = 20_000;
    for generation in stats.lines().count() - 1..long_generations {
        stats.push_str(&format!("{generation},{rest}\n"));
    }
    std::fs::write(long.join("stats.csv"), &stats).unwrap();
    let huge = copy_of_tiny("huge");
    let mut stats = std::fs::read_to_string(huge.join("stats.csv")).unwrap();
    let row = stats.lines().nth(1).unwrap().to_string();
    let (_, rest) = row.split_once(',').unwrap();
    let mut generation = stats.lines().count() - 1;
    while stats.len() < 17_000_000 {
        stats.push_str(&format!("{generation},{rest}\n"));
        generation += 1;
    }
    std::fs::write(huge.join("stats.csv"), &stats).unwrap();

    let server = Server::start(dir.path(), &[]);
    let started = std::time::Instant::now();
    let (status, list) = server.get("/api/runs");
    assert_eq!(status, 200, "{list}");
    assert!(!list.contains("outside"), "{list}");
    let list = json(&list);
    let entry = |name: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} not listed: {list}"))
    };
    assert_eq!(entry("huge")["generations"], generation);
    assert_eq!(entry("tiny")["generations"], 4);
    assert_eq!(entry("linked")["generations"], 0);
    assert_eq!(entry("lockfifo")["running"], false);
    assert_eq!(entry("lockfifo")["generations"], 4);
    let (status, page) = server.get("/api/runs/lockfifo");
    assert_eq!(status, 200, "{page}");
    assert_eq!(json(&page)["running"], false);
    error_of(server.get("/api/runs/hard"), 403, "hard links");
    let (_, body) = server.get("/api/runs/hard/plot.svg");
    assert!(!body.contains("424242"), "{body}");
    let (status, page) = server.get("/api/runs/long");
    assert_eq!(status, 200);
    let page = json(&page);
    let rows = page["rows"].as_array().unwrap();
    assert!(
        (2_000..=4_002).contains(&rows.len()),
        "{} rows of {long_generations}",
        rows.len()
    );
    assert_eq!(page["generations"], long_generations);
    assert_eq!(rows.last().unwrap()[0], (long_generations - 1) as f64);
    assert_eq!(server.get("/api/runs/long/plot.svg").0, 200);

    error_of(server.get("/api/runs/linked"), 403, "a link");
    let (_, body) = server.get("/api/runs/linked/plot.svg");
    assert!(!body.contains("424242"), "{body}");
    error_of(server.get("/api/runs/fifo"), 403, "not a regular file");
    error_of(
        server.get("/api/runs/fifo/plot.svg"),
        403,
        "not a regular file",
    );
    error_of(
        server.post("/api/explain", r#"{"genome":"runs/fifo/best.genome"}"#),
        403,
        "not a regular file",
    );
    let (status, genomes) = server.get("/api/genomes");
    assert_eq!(status, 200);
    assert!(!genomes.contains("runs/fifo"), "{genomes}");
    assert!(genomes.contains("runs/tiny"), "{genomes}");
    // Each entry says how its genome learned (null: the file does not say).
    assert!(
        json(&genomes)
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g.get("learning").is_some()),
        "{genomes}"
    );
    error_of(
        server.get("/api/runs/huge"),
        413,
        "more than the server reads",
    );
    assert_eq!(server.get("/api/runs/tiny").0, 200);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

/// Files named by a request are measured before they are read: a large
/// file is refused from its size, a foreign one from its first bytes, and
/// the genome list reads headers only.
#[test]
fn large_and_foreign_files_are_refused_before_they_are_read() {
    let dir = project(false);
    let probe = dir.path().join("runs/probe/checkpoints");
    std::fs::create_dir_all(&probe).unwrap();
    // 500 MB without writing them: a sparse file.
    let big = std::fs::File::create(probe.join("big.ckpt")).unwrap();
    big.set_len(500_000_000).unwrap();
    std::fs::write(probe.join("small.ckpt"), vec![7u8; 100_000]).unwrap();
    let server = Server::start(dir.path(), &[]);
    let started = std::time::Instant::now();
    for _ in 0..4 {
        error_of(
            server.post(
                "/api/games",
                r#"{"opponent":"runs/probe/checkpoints/big.ckpt","game":"c4"}"#,
            ),
            413,
            "500 MB, more than the server reads of such a file (64 MB)",
        );
    }
    error_of(
        server.post(
            "/api/explain",
            r#"{"genome":"runs/probe/checkpoints/small.ckpt","position":""}"#,
        ),
        422,
        "not a bebete genome file",
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    let (status, list) = server.get("/api/genomes");
    assert_eq!(status, 200);
    assert!(list.contains("connect4-subgrid.genome"), "{list}");
}

/// The next game asked for during an unfinished one: that game counts as
/// won by the bot (as leaving the board would), as the guide says; asked
/// before any move, it costs nothing.
#[test]
fn the_next_game_during_a_game_scores_it_for_the_bot() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let state = new_game(&server, r#"{"opponent":"rules","game":"ttt"}"#);
    let id = state["id"].as_str().unwrap();
    let (status, body) = server.post(&format!("/api/games/{id}/next"), "");
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["score"]["bot"], 0, "{body}");
    // Game 2: the bot opened; the person moves, then leaves for game 3.
    let state = json(&body);
    let mv = state["legal"][0].as_str().unwrap();
    let (status, body) = server.post(
        &format!("/api/games/{id}/move"),
        &format!(r#"{{"move":"{mv}"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.post(&format!("/api/games/{id}/next"), "");
    assert_eq!(status, 200, "{body}");
    let state = json(&body);
    assert_eq!(state["score"]["bot"], 1, "{state}");
    assert_eq!(state["game_number"], 3, "{state}");
}

/// Started where there is nothing to serve, the server says so, and what
/// to do, instead of showing empty lists.
#[test]
fn a_server_with_nothing_to_serve_says_so() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bebete"))
        .args(["serve", "--port", "0", "--dir"])
        .arg(dir.path())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let said: Vec<String> = (0..3).map(|_| lines.next().unwrap().unwrap()).collect();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        said[2].contains("there is no genomes/ or runs/ here") && said[2].contains("--dir"),
        "{said:?}"
    );
}

/// SIGTERM stops the server within a few seconds even while a client holds
/// a connection open halfway through its headers.
#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_despite_a_half_open_connection() {
    use std::io::Write;
    let dir = project(false);
    let mut server = Server::start(dir.path(), &[]);
    let mut half = std::net::TcpStream::connect(server.addr).unwrap();
    half.write_all(format!("GET /api/genomes HTTP/1.1\r\nHost: {}\r\n", server.addr).as_bytes())
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let started = std::time::Instant::now();
    server.terminate();
    while server.alive() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(15),
            "still serving 15 s after SIGTERM"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    drop(half);
}

/// Past what the open-file limit allows, a new connection is closed at
/// once (the server never runs out of descriptors), and once the idle
/// connections go, requests are answered again.
#[cfg(unix)]
#[test]
fn connections_past_the_descriptor_limit_are_closed_and_the_server_goes_on() {
    use std::io::{Read, Write};
    let dir = project(false);
    // 100 files: 36 connections at once (64 kept for the rest).
    // A soft limit below the hard one is raised to it at start.
    let raised = Server::start_with_ulimit(dir.path(), &[], "-Sn 100");
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", raised.pid())).unwrap();
    let files = limits
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .unwrap()
        .split_whitespace()
        .skip(3)
        .take(2)
        .collect::<Vec<_>>();
    assert!(
        files[0] == files[1] || files[1] == "unlimited",
        "soft and hard: {limits}"
    );
    assert_ne!(files[0], "100", "{limits}");
    drop(raised);
    let server = Server::start_with_ulimit(dir.path(), &["--client-seconds", "60"], "-n 100");
    assert_eq!(server.get("/api/genomes").0, 200);
    let idle: Vec<std::net::TcpStream> = (0..60)
        .map(|_| std::net::TcpStream::connect(server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // A connection past the cap is closed without an answer, at once.
    let mut late = std::net::TcpStream::connect(server.addr).unwrap();
    late.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let started = std::time::Instant::now();
    let _ = late.write_all(b"GET /api/genomes HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut reply = Vec::new();
    let _ = late.read_to_end(&mut reply);
    assert!(reply.is_empty(), "{}", String::from_utf8_lossy(&reply));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    drop(idle);
    // The idle connections closed, requests are answered again.
    let mut answered = false;
    for _ in 0..50 {
        std::thread::sleep(Duration::from_millis(100));
        let Ok(mut probe) = std::net::TcpStream::connect(server.addr) else {
            continue;
        };
        probe
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let host = server.addr.to_string();
        let _ = write!(
            probe,
            "GET /api/genomes HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        );
        let mut reply = String::new();
        let _ = probe.read_to_string(&mut reply);
        if reply.starts_with("HTTP/1.1 200") {
            answered = true;
            break;
        }
    }
    assert!(answered, "no answer after the idle connections closed");
}
