//! `bebete serve` started for a test, and plain HTTP/1.1 spoken to it over a
//! socket (so that a test can send exactly the bytes it means: a path with
//! `..`, an oversized or malformed body).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `bebete serve`, stopped when dropped (unless only borrowed
/// by address, [`Server::at`]).
pub struct Server {
    child: Option<Child>,
    pub addr: SocketAddr,
}

impl Server {
    /// Starts the server on a free loopback port, serving `dir`.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        Server::start_by(
            Command::new(assert_cmd::cargo::cargo_bin!("bebete")),
            dir,
            extra,
        )
    }

    /// [`Server::start`] under the shell's `ulimit` options `limit` (such
    /// as `-n 100`: at most 100 open files), as a system with a low limit
    /// starts it.
    #[cfg(unix)]
    pub fn start_with_ulimit(dir: &Path, extra: &[&str], limit: &str) -> Server {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(format!("ulimit {limit} && exec \"$0\" \"$@\""))
            .arg(assert_cmd::cargo::cargo_bin!("bebete"));
        Server::start_by(shell, dir, extra)
    }

    fn start_by(mut command: Command, dir: &Path, extra: &[&str]) -> Server {
        let mut child = command
            .args(["serve", "--port", "0", "--dir"])
            .arg(dir)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start bebete serve");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first
            .trim()
            .strip_prefix("serving bebete at http://")
            .unwrap_or_else(|| panic!("unexpected first line: {first:?}"));
        let addr = url.trim_end_matches('/').parse().expect("an address");
        Server {
            child: Some(child),
            addr,
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child
            .as_ref()
            .expect("a server this handle started")
            .id()
    }

    /// A handle on a server another handle started (for other threads).
    pub fn at(addr: SocketAddr) -> Server {
        Server { child: None, addr }
    }

    /// The page's address.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// One request; the status and the body.
    pub fn request(&self, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
        let host = self.addr.to_string();
        let json = body.map(|_| "Content-Type: application/json");
        self.request_with(method, path, &host, json.as_slice(), body)
    }

    /// One request naming `host`, with `headers` (`Name: value` lines)
    /// added; the status and the body.
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        host: &str,
        headers: &[&str],
        body: Option<&[u8]>,
    ) -> (u16, String) {
        let (status, _, body) = self.exchange(method, path, host, headers, body);
        (status, body)
    }

    /// [`Server::request_with`], with the answer's headers too (the status
    /// line and the headers as sent, then the body).
    pub fn exchange(
        &self,
        method: &str,
        path: &str,
        host: &str,
        headers: &[&str],
        body: Option<&[u8]>,
    ) -> (u16, String, String) {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
        for line in headers {
            head.push_str(line);
            head.push_str("\r\n");
        }
        if let Some(body) = body {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        if let Some(body) = body {
            // A server may answer (413) and close before reading it all.
            let _ = stream.write_all(body);
        }
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply);
        let reply = String::from_utf8_lossy(&reply).into_owned();
        let status = reply
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {reply:?}"));
        let (headers, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
        let body = if headers
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, headers.to_string(), body)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, None)
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, json: &str) -> (u16, String) {
        self.request("POST", path, Some(json.as_bytes()))
    }

    /// Sends SIGTERM to the server process.
    #[cfg(unix)]
    pub fn terminate(&self) {
        let pid = self
            .child
            .as_ref()
            .expect("a server this handle started")
            .id();
        let status = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// CPU-seconds the server process has used so far (user and system,
    /// from `/proc`).
    #[cfg(target_os = "linux")]
    pub fn cpu_seconds(&self) -> f64 {
        let pid = self
            .child
            .as_ref()
            .expect("a server this handle started")
            .id();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        // Fields after the command name (which is in parentheses): utime is
        // the 14th field of the line, stime the 15th, in ticks of 1/100 s.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        ticks as f64 / 100.0
    }

    /// The server's resident memory in MB (`VmRSS`, from `/proc`).
    #[cfg(target_os = "linux")]
    pub fn resident_mb(&self) -> f64 {
        let pid = self
            .child
            .as_ref()
            .expect("a server this handle started")
            .id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let kb: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        kb / 1024.0
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| c.try_wait().unwrap().is_none())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A project directory for the server: the shipped genomes and, when
/// `with_run`, a short tic-tac-toe run under `runs/`.
pub fn project(with_run: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    super::copy_shipped_genomes(
        dir.path(),
        &[
            "tictactoe.genome",
            "connect4-subgrid.genome",
            "matchsticks.genome",
            "solitaire.genome",
            "checkers.genome",
            "othello.genome",
        ],
    );
    if with_run {
        super::bebete(dir.path())
            .args([
                "evolve",
                "--generations",
                "4",
                "--seed",
                "3",
                "--run",
                "runs/tiny",
            ])
            .assert()
            .success();
    }
    dir
}

/// A reply's body as JSON, or a failure that shows it.
pub fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// Starts a table and returns its state.
pub fn new_game(server: &Server, request: &str) -> serde_json::Value {
    let (status, body) = server.post("/api/games", request);
    assert_eq!(status, 200, "{body}");
    json(&body)
}

/// Plays the first legal move until the game ends (at most `limit` moves);
/// the final state.
pub fn play_out(server: &Server, mut state: serde_json::Value, limit: usize) -> serde_json::Value {
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

/// A refusal with `status` whose JSON error says `words`.
pub fn error_of(reply: (u16, String), status: u16, words: &str) {
    assert_eq!(reply.0, status, "{}", reply.1);
    let body = json(&reply.1);
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {body}"));
    assert!(message.contains(words), "{message:?} lacks {words:?}");
}
