//! The page in a real browser: headless Chromium driven over WebDriver
//! (chromedriver) by fantoccini. Plays a whole tic-tac-toe game and a whole
//! Connect-Four game by clicking, reads the results from the page, checks
//! the vote overlay and a run page, and saves screenshots under the target
//! directory (`browser/`).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them); run with `cargo test --features browser --test browser`.

mod common;

use common::server::{Server, project};
use fantoccini::{Client, ClientBuilder, Locator};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long any one wait for the page may take.
const WAIT: Duration = Duration::from_secs(60);

/// chromedriver on a free loopback port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start() -> Driver {
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {program} ({e}): install Debian's chromium and chromium-driver (.ci/run does)")
            });
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < WAIT,
                "chromedriver did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    let mut args = vec![
        "--headless=new",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--disable-background-networking",
        "--no-first-run",
    ];
    // Chromium refuses to run as root without this.
    if std::env::var("USER").as_deref() == Ok("root") || unsafe_is_root() {
        args.push("--no-sandbox");
    }
    let mut options = serde_json::json!({ "args": args });
    if let Ok(binary) = std::env::var("CHROMIUM") {
        options["binary"] = binary.into();
    }
    caps.insert("goog:chromeOptions".into(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a WebDriver session")
}

/// Whether this process runs as root (the sandbox needs to be off then).
fn unsafe_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .map(|l| l.split_whitespace().nth(1) == Some("0"))
        })
        .unwrap_or(false)
}

fn shots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(shots().join(name), png).unwrap();
}

/// The board's state (`your-turn`, `over`, …) once it is neither thinking
/// nor idle.
async fn settled(client: &Client) -> String {
    let start = Instant::now();
    loop {
        let board = client.find(Locator::Id("board")).await.unwrap();
        let state = board.attr("data-state").await.unwrap().unwrap_or_default();
        if state == "your-turn" || state == "over" {
            return state;
        }
        assert!(start.elapsed() < WAIT, "the board stayed '{state}'");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks the element with id `id`.
async fn click(client: &Client, id: &str) {
    let element = client.find(Locator::Id(id)).await.unwrap();
    element.click().await.unwrap();
}

/// Clicks a checkers square of the board.
async fn click_square(client: &Client, square: u32) {
    client
        .find(Locator::Css(&format!(
            "#board rect.target[data-square=\"{square}\"]"
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn text(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// The `value` property of the element with id `id`.
async fn value(client: &Client, id: &str) -> Option<String> {
    let element = client.find(Locator::Id(id)).await.unwrap();
    element.prop("value").await.unwrap()
}

/// Where the element with id `id` is drawn: x, y, width, height.
async fn rectangle(client: &Client, id: &str) -> (f64, f64, f64, f64) {
    let element = client.find(Locator::Id(id)).await.unwrap();
    element.rectangle().await.unwrap()
}

async fn choose(client: &Client, select: &str, value: &str) {
    client
        .find(Locator::Id(select))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("#{select} = {value}: {e}"));
}

/// Clicks the first legal move until the game ends (at most `limit`
/// clicks); the result the page shows.
async fn play_out(
    client: &Client,
    limit: usize,
    mut after_click: impl AsyncFnMut(usize),
) -> String {
    for n in 0..limit {
        if settled(client).await == "over" {
            return text(client, "result").await;
        }
        client
            .find(Locator::Css("#board [data-legal=\"true\"]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        after_click(n).await;
    }
    panic!("the game did not end within {limit} clicks");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_games_are_played_by_clicking() {
    let dir = project(true);
    let server = Server::start(dir.path(), &[]);
    let driver = Driver::start();
    let client = browser(&driver).await;

    // Tic-tac-toe against perfect play: a person who clicks the first free
    // cell never wins.
    client.set_window_size(1280, 900).await.unwrap();
    client.goto(&server.url("/")).await.unwrap();
    // The page opens on a game ready to play: Connect-Four against a
    // shipped genome (this project has no connect4.genome: the first one
    // listed), the visitor to move.
    assert_eq!(settled(&client).await, "your-turn");
    let against = text(&client, "against").await;
    assert!(against.starts_with("against genomes/connect4"), "{against}");
    screenshot(&client, "opened.png").await;
    choose(&client, "game", "tictactoe").await;
    // The default opponent is the command line's: genomes/<game>.genome.
    let usual = value(&client, "opponent").await;
    assert_eq!(usual.as_deref(), Some("genomes/tictactoe.genome"));
    // The menu tells the shipped champions from this project's own: the
    // run's champion copied to genomes/ is among "Your genomes".
    let mut groups = Vec::new();
    for group in client
        .find_all(Locator::Css("#opponent optgroup"))
        .await
        .unwrap()
    {
        let label = group.attr("label").await.unwrap().unwrap_or_default();
        let first = group
            .find(Locator::Css("option"))
            .await
            .unwrap()
            .attr("value")
            .await
            .unwrap()
            .unwrap_or_default();
        groups.push(format!("{label}: {first}"));
    }
    assert_eq!(
        groups,
        [
            "Shipped champions: genomes/tictactoe.genome",
            "Your genomes: genomes/tiny.genome",
            "Run champions: runs/tiny/best.genome",
            "Fixed players: perfect",
        ]
    );
    choose(&client, "opponent", "perfect").await;
    click(&client, "start").await;
    let result = play_out(&client, 6, async |_| {}).await;
    assert!(result == "bebete wins" || result == "a draw", "{result:?}");
    let score = text(&client, "score").await;
    assert!(score.starts_with("you 0 ·"), "{score}");
    let winning = client
        .find_all(Locator::Css("rect.cell.winning"))
        .await
        .unwrap();
    assert_eq!(
        winning.is_empty(),
        result == "a draw",
        "the winning line is marked"
    );
    screenshot(&client, "tictactoe.png").await;

    // An illegal click is refused with the reason: the next game (sides
    // swap, bebete opens), then a click on the cell it took.
    click(&client, "next").await;
    settled(&client).await;
    let taken = client.find(Locator::Css("rect.cell.last")).await.unwrap();
    let (x, y, ..) = taken.rectangle().await.unwrap();
    let targets = client
        .find_all(Locator::Css("#board rect.target"))
        .await
        .unwrap();
    for target in targets {
        let (tx, ty, ..) = target.rectangle().await.unwrap();
        if (tx - x).abs() < 10.0 && (ty - y).abs() < 10.0 {
            // The refusal redraws the board: this target is gone after.
            target.click().await.unwrap();
            break;
        }
    }
    let start = Instant::now();
    while !text(&client, "message").await.contains("already taken") {
        assert!(start.elapsed() < WAIT, "no refusal shown");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The refusal is where the eye is: above the board, in the window.
    let (_, message_y, _, message_h) = rectangle(&client, "message").await;
    let (_, board_y, ..) = rectangle(&client, "board").await;
    assert!(message_y < board_y, "the message is above the board");
    let inner = client
        .execute("return window.innerHeight;", vec![])
        .await
        .unwrap();
    assert!(message_y + message_h <= inner.as_f64().unwrap());

    // Connect-Four against the shipped champion, which moves first: its
    // twelve windows' votes are drawn on the board and listed beside it.
    choose(&client, "game", "connect4").await;
    choose(&client, "opponent", "genomes/connect4-subgrid.genome").await;
    choose(&client, "first", "bot").await;
    click(&client, "start").await;
    settled(&client).await;
    let votes = client.find_all(Locator::Css("line.vote")).await.unwrap();
    assert!(!votes.is_empty(), "the vote overlay is drawn");
    let rows = client
        .find_all(Locator::Css("#why-body table.windows tbody tr"))
        .await
        .unwrap();
    assert_eq!(rows.len(), 12, "one row per window");
    let bars = client.find_all(Locator::Css("rect.bar")).await.unwrap();
    assert_eq!(bars.len(), 7, "one bar per column");
    // The vote lines can be hidden (they cover the stones late in a game).
    click(&client, "show-votes").await;
    assert!(
        !votes[0].is_displayed().await.unwrap(),
        "the votes are hidden"
    );
    click(&client, "show-votes").await;
    assert!(votes[0].is_displayed().await.unwrap(), "the votes are back");
    let client_ref = &client;
    let result = play_out(&client, 25, async move |n| {
        if n == 1 {
            settled(client_ref).await;
            screenshot(client_ref, "connect4.png").await;
        }
    })
    .await;
    assert!(
        [
            "bebete wins",
            "a draw",
            "you win",
            "bebete forfeits: you win"
        ]
        .contains(&result.as_str()),
        "{result:?}"
    );
    if result == "bebete wins" {
        let winning = client
            .find_all(Locator::Css("circle.hole.winning"))
            .await
            .unwrap();
        assert!(winning.len() >= 4, "the winning four is marked");
    }
    screenshot(&client, "connect4-end.png").await;

    // Matchsticks against its shipped genome, with the gene explained.
    choose(&client, "game", "matchsticks").await;
    choose(&client, "opponent", "genomes/matchsticks.genome").await;
    choose(&client, "first", "human").await;
    click(&client, "start").await;
    let client_ref = &client;
    let result = play_out(&client, 25, async move |n| {
        if n == 0 {
            settled(client_ref).await;
            let why = text(client_ref, "why-body").await;
            assert!(why.contains("gene index"), "{why}");
            screenshot(client_ref, "matchsticks.png").await;
        }
    })
    .await;
    assert!(result == "bebete wins" || result == "you win", "{result:?}");

    // Matchsticks against the rules player on rules of one's own: the
    // page sends its rule fields in the shape the server listed them.
    choose(&client, "opponent", "rules").await;
    choose(&client, "rule", "double").await;
    let sticks = client.find(Locator::Id("sticks")).await.unwrap();
    sticks.clear().await.unwrap();
    sticks.send_keys("8").await.unwrap();
    click(&client, "start").await;
    settled(&client).await;
    let against = text(&client, "against").await;
    assert!(
        against.contains("double, 8 sticks"),
        "the table plays the rules chosen: {against}"
    );
    screenshot(&client, "matchsticks-rules.png").await;

    // Checkers against the shipped value genome searching 6 plies: a move
    // is clicked square by square (the piece, then each landing square),
    // and the reasons give each move's searched score.
    choose(&client, "game", "checkers").await;
    let players = client
        .find_all(Locator::Css("#opponent option[value=\"perfect\"]"))
        .await
        .unwrap();
    assert!(
        players.is_empty(),
        "checkers has no perfect player to offer"
    );
    let usual = value(&client, "opponent").await;
    assert_eq!(usual.as_deref(), Some("genomes/checkers.genome"));
    choose(&client, "first", "human").await;
    click(&client, "start").await;
    settled(&client).await;
    // Clicks that start no move are refused with the reason.
    for (square, reason) in [
        (21, "Square 21 holds a white piece: you play black."),
        (
            16,
            "Square 16 is empty: click one of your pieces that can move.",
        ),
        (1, "The piece on 1 has no move."),
    ] {
        click_square(&client, square).await;
        assert_eq!(text(&client, "message").await, reason);
    }
    // A chosen piece sent where it cannot go: the server says why.
    for square in [9, 18] {
        click_square(&client, square).await;
    }
    let start = Instant::now();
    loop {
        let message = text(&client, "message").await;
        if message.contains("9x18") {
            break;
        }
        assert!(start.elapsed() < WAIT, "no reason for 9x18: {message:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    screenshot(&client, "checkers-refused.png").await;
    let client_ref = &client;
    let result = play_out(&client, 400, async move |n| {
        if n == 0 {
            // The piece is chosen and its landing squares are marked.
            let targets = client_ref
                .find_all(Locator::Css("circle.ck-target"))
                .await
                .unwrap();
            assert!(!targets.is_empty(), "the chosen piece's squares are marked");
        }
        if n == 5 {
            settled(client_ref).await;
            let why = text(client_ref, "why-body").await;
            assert!(why.contains("searched 6 plies"), "{why}");
            screenshot(client_ref, "checkers.png").await;
        }
    })
    .await;
    assert!(
        ["bebete wins", "a draw", "you win"].contains(&result.as_str()),
        "{result:?}"
    );
    let line = text(&client, "line").await;
    assert!(line.starts_with("moves: "), "{line}");
    screenshot(&client, "checkers-end.png").await;

    // Othello against the shipped genome searching 6 plies: the legal
    // squares are dotted, a square is a click, a pass a button.
    choose(&client, "game", "othello").await;
    let usual = value(&client, "opponent").await;
    assert_eq!(usual.as_deref(), Some("genomes/othello.genome"));
    let wpc = client
        .find_all(Locator::Css("#opponent option[value=\"wpc\"]"))
        .await
        .unwrap();
    assert_eq!(wpc.len(), 1, "the weighted piece counter is offered");
    choose(&client, "first", "human").await;
    click(&client, "start").await;
    settled(&client).await;
    let dots = client
        .find_all(Locator::Css("circle.ot-legal"))
        .await
        .unwrap();
    assert_eq!(dots.len(), 4, "d3, c4, f5 and e6 are dotted");
    let client_ref = &client;
    let result = play_out(&client, 70, async move |n| {
        if n == 3 {
            settled(client_ref).await;
            let why = text(client_ref, "why-body").await;
            assert!(why.contains("searched 6 plies"), "{why}");
            screenshot(client_ref, "othello.png").await;
        }
    })
    .await;
    assert!(
        ["bebete wins", "a draw", "you win"].contains(&result.as_str()),
        "{result:?}"
    );
    let count = text(&client, "board").await;
    assert!(
        count.contains("black ") && count.contains(" · white "),
        "{count}"
    );
    screenshot(&client, "othello-end.png").await;

    // A run's page: its curves and parameters, and a button to play its
    // champion.
    client.goto(&server.url("/runs/tiny")).await.unwrap();
    let start = Instant::now();
    loop {
        let loaded = client
            .execute("const i = document.getElementById('run-plot'); return i.complete && i.naturalWidth > 0;", vec![])
            .await
            .unwrap();
        if loaded == serde_json::Value::Bool(true) {
            break;
        }
        assert!(start.elapsed() < WAIT, "the run's plot did not load");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let state = text(&client, "run-state").await;
    assert_eq!(
        state, "finished after generation 3: its plan of 4 generations is done",
        "{state}"
    );
    screenshot(&client, "run.png").await;
    click(&client, "run-play").await;
    let start = Instant::now();
    loop {
        let chosen = value(&client, "opponent").await;
        if chosen.as_deref() == Some("runs/tiny/best.genome") {
            break;
        }
        assert!(
            start.elapsed() < WAIT,
            "the champion was not chosen: {chosen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A phone's width: nothing scrolls sideways.
    client.set_window_size(420, 900).await.unwrap();
    client.goto(&server.url("/")).await.unwrap();
    choose(&client, "game", "connect4").await;
    choose(&client, "opponent", "genomes/connect4-subgrid.genome").await;
    choose(&client, "first", "bot").await;
    click(&client, "start").await;
    settled(&client).await;
    let widths = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    let (scroll, inner) = (widths[0].as_f64().unwrap(), widths[1].as_f64().unwrap());
    screenshot(&client, "narrow.png").await;
    assert!(
        scroll <= inner,
        "the page is {scroll} px wide in a {inner} px window"
    );
    client.close().await.unwrap();
}
