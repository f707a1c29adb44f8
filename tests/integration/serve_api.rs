//! `bebete serve`'s HTTP API, spoken to over a socket: whole games, the
//! explanations, the run pages, the session cap. What it refuses is in
//! `serve_refusals`.

use crate::common::server::{Server, error_of, json, new_game, play_out, project};
use crate::common::{bebete, stdout_of};

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
        r#"{"opponent":"rules","game":"nim","rules":{"rule":"double","sticks":8}}"#,
    );
    assert_eq!(state["board"]["kind"], "heap");
    assert_eq!(state["board"]["sticks"], 8);
    // The rule parameters are the registry's to read: another game
    // refuses them, the fields of before are no more, a genome brings its
    // own rules, and a one-player game is named as such.
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"rules","game":"ttt","rules":{"sticks":8}}"#,
        ),
        422,
        "rules key 'sticks': tictactoe has no rule parameters",
    );
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"rules","game":"nim","sticks":8}"#,
        ),
        400,
        "unknown field `sticks`",
    );
    error_of(
        server.post(
            "/api/games",
            r#"{"opponent":"genomes/matchsticks.genome","rules":{"sticks":8}}"#,
        ),
        422,
        "its rules come with it",
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
fn the_session_cap_keeps_games_in_play_and_a_slow_bot_blocks_nothing() {
    let dir = project(false);
    // Each bot move is cut at a second: long enough to be seen thinking
    // on a loaded machine, short for the test.
    let server = Server::start(dir.path(), &["--max-games", "2", "--move-seconds", "1"]);
    // A bot searching 12 plies from the start: its move takes the whole
    // second. While it thinks, the server answers other requests, and
    // refuses a second move.
    let slow = new_game(&server, r#"{"opponent":"alphabeta:12","game":"c4"}"#);
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
            "--preset",
            "method",
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

/// `GET /api/games` is the page's menu: the registry's two-player games,
/// each with the fixed players it can face and its rules; every player
/// listed starts a table on the rules listed, and a player a game does
/// not list is refused.
#[test]
fn the_game_list_offers_what_the_server_plays() {
    let dir = project(false);
    let server = Server::start(dir.path(), &[]);
    let (status, body) = server.get("/api/games");
    assert_eq!(status, 200, "{body}");
    let games = json(&body);
    let names: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    // Solitaire is a puzzle: the page plays against a bot.
    assert_eq!(
        names,
        [
            "tictactoe",
            "matchsticks",
            "connect4",
            "checkers",
            "othello"
        ]
    );
    for game in games.as_array().unwrap() {
        let name = game["name"].as_str().unwrap();
        assert!(!game["title"].as_str().unwrap().is_empty());
        assert_eq!(game["rules"].is_null(), name != "matchsticks", "{game}");
        let players: Vec<&str> = game["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            players.contains(&"perfect"),
            ["tictactoe", "matchsticks", "connect4"].contains(&name),
            "{name}"
        );
        assert_eq!(players.contains(&"wpc"), name == "othello", "{name}");
        for player in game["players"].as_array().unwrap() {
            let spec = match player["count"]["usual"].as_u64() {
                Some(n) => format!("{}:{n}", player["name"].as_str().unwrap()),
                None => player["name"].as_str().unwrap().to_string(),
            };
            // The rules as listed go back as they are.
            let body = format!(
                r#"{{"opponent":"{spec}","game":"{name}","rules":{}}}"#,
                game["rules"]
            );
            let (status, reply) = server.post("/api/games", &body);
            assert_eq!(status, 200, "{body}: {reply}");
            let id = json(&reply)["id"].as_str().unwrap().to_string();
            let (status, _) = server.request("DELETE", &format!("/api/games/{id}"), None);
            assert_eq!(status, 200);
        }
    }
    error_of(
        server.post("/api/games", r#"{"opponent":"perfect","game":"checkers"}"#),
        422,
        "no exact solver",
    );
}
