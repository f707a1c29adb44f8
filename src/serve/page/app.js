// bebete's page: play against a genome or a fixed player, see why it moved,
// watch a run's curves. Plain JavaScript over the JSON API under /api/;
// nothing is fetched from anywhere else.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs = {}, text = null, parent = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  // The server takes JSON only: every POST says so, an empty one too.
  if (body !== undefined || method === "POST") {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  const reply = await fetch("/api" + path, init);
  const data = await reply.json().catch(() => ({ error: reply.statusText }));
  if (!reply.ok) throw new Error(data.error || reply.statusText);
  return data;
}

// ---------------------------------------------------------------- routing

function route() {
  const path = location.pathname;
  for (const id of ["play-view", "runs-view", "run-view"]) $(id).hidden = true;
  $("nav-play").classList.toggle("here", path === "/");
  $("nav-runs").classList.toggle("here", path.startsWith("/runs"));
  if (path === "/runs" || path === "/runs/") return showRuns();
  const run = path.match(/^\/runs\/([^/]+)$/);
  if (run) return showRun(decodeURIComponent(run[1]));
  return showPlay();
}

// ---------------------------------------------------------------- play

// The games and their fixed players come from the server's registry
// (GET /api/games): a game it knows is on the menu, with the players it
// can face, and none is typed here.
let catalogue = [];

function entry(game = $("game").value) {
  return catalogue.find((g) => g.name === game) || { players: [], rules: null };
}

// The count a fixed player takes after ":" (alphabeta:D), or undefined.
function countOf(value) {
  const player = entry().players.find((p) => p.name === value);
  return player ? player.count || undefined : undefined;
}

let genomes = [];
let current = null; // the table's state, as the API returns it
let busy = false;

async function showPlay() {
  $("play-view").hidden = false;
  try {
    [catalogue, genomes] = await Promise.all([api("GET", "/games"), api("GET", "/genomes")]);
  } catch (e) {
    genomes = [];
    showMessage(e.message);
  }
  fillGames();
  const query = new URLSearchParams(location.search);
  const chosen = genomes.find((g) => g.name === query.get("opponent"));
  if (chosen) $("game").value = chosen.game;
  else if (entry(query.get("game")).players.length) $("game").value = query.get("game");
  fillRules();
  fillOpponents(chosen ? chosen.name : null);
  // A board ready to play at once: the first game against the chosen
  // opponent (the shipped genome of the game, as `bebete play`).
  if (!current && $("opponent").value) startGame();
}

function fillOpponents(select) {
  const game = $("game").value;
  const box = $("opponent");
  box.textContent = "";
  const ofGame = genomes.filter((g) => g.game === game);
  const shipped = ofGame.filter((g) => g.shipped);
  const own = ofGame.filter((g) => !g.shipped && g.name.startsWith("genomes/"));
  const champions = ofGame.filter((g) => g.name.startsWith("runs/"));
  const group = (label, items) => {
    if (items.length === 0) return;
    const g = html("optgroup", { label }, null, box);
    for (const [value, text] of items) html("option", { value }, text, g);
  };
  // How a genome learned, when its file says: by self-play or against a player.
  const learned = (g) => !g.learning ? ""
    : g.learning === "self" ? ", learned by self-play" : `, learned against ${g.learning}`;
  const describe = (g) => {
    const search = !g.lookahead ? ""
      : g.rules.includes("value genome") ? `searches ${g.lookahead} plies` : `shell, lookahead ${g.lookahead}`;
    const notes = (search + learned(g)).replace(/^, /, "");
    return g.name + (notes ? ` (${notes})` : "");
  };
  group("Shipped champions", shipped.map((g) => [g.name, describe(g)]));
  group("Your genomes", own.map((g) => [g.name, describe(g)]));
  group("Run champions", champions.map((g) => [g.name, describe(g)]));
  group("Fixed players", entry(game).players.map((p) => [p.name, `${p.count ? `${p.name}:${p.count.name.split(" ").pop()}` : p.name} (${p.about})`]));
  // The command line's default (`bebete play`): the shipped genomes/<game>.genome.
  const usual = `genomes/${game}.genome`;
  if (!select && shipped.some((g) => g.name === usual)) select = usual;
  if (select) box.value = select;
  opponentChanged();
}

// The game menu, from the catalogue: Connect-Four first chosen where the
// server has it, as the command line's own demonstration game.
function fillGames() {
  const box = $("game");
  const was = box.value;
  box.textContent = "";
  for (const g of catalogue) html("option", { value: g.name }, g.title, box);
  const names = catalogue.map((g) => g.name);
  box.value = names.includes(was) ? was : names.includes("connect4") ? "connect4" : names[0] || "";
}

// The rule fields start at the game's default rules, as the server
// lists them.
function fillRules() {
  const rules = entry().rules;
  if (!rules) return;
  $("rule").value = rules.rule;
  $("sticks").value = rules.sticks;
  if ("max_take" in rules) $("max-take").value = rules.max_take;
  if ("last_loses" in rules) $("last").value = rules.last_loses ? "loses" : "wins";
}

function isGenome(value) {
  return value.startsWith("genomes/") || value.startsWith("runs/");
}

function opponentChanged() {
  const value = $("opponent").value;
  const count = countOf(value);
  $("param-label").hidden = !count;
  if (count) {
    $("param-name").textContent = count.name;
    Object.assign($("param"), { min: count.least, max: count.most, value: count.usual });
  }
  // The rule fields are the ones of the game with rule parameters
  // (matchsticks); a genome's rules come with it.
  $("rules").hidden = !(entry().rules && !isGenome(value));
  const double = $("rule").value === "double";
  for (const label of document.querySelectorAll("#rules .subtract")) label.hidden = double;
}

function opponentSpec() {
  const value = $("opponent").value;
  return countOf(value) ? `${value}:${$("param").value}` : value;
}

async function startGame(event) {
  if (event) event.preventDefault();
  // A new game waits for the request in flight (the one the page opened
  // with, say) instead of being dropped.
  while (busy) await new Promise((done) => setTimeout(done, 20));
  const opponent = opponentSpec();
  const body = { opponent, first: $("first").value };
  if (!isGenome(opponent)) {
    body.game = $("game").value;
    // The rules go back in the shape the server listed them in.
    if (entry(body.game).rules) {
      const rule = $("rule").value;
      body.rules = { rule, sticks: Number($("sticks").value) };
      if (rule === "subtract") {
        body.rules.max_take = Number($("max-take").value);
        body.rules.last_loses = $("last").value === "loses";
      }
    }
  }
  if (current) api("DELETE", `/games/${current.id}`).catch(() => {});
  await request(() => api("POST", "/games", body));
}

async function request(call) {
  if (busy) return;
  busy = true;
  showMessage("");
  $("board").dataset.state = "thinking";
  $("status").textContent = "bebete is thinking…";
  try {
    render(await call());
  } catch (e) {
    if (current) render(current);
    showMessage(e.message);
  } finally {
    busy = false;
  }
}

function play(move) {
  if (!current || busy) return;
  request(() => api("POST", `/games/${current.id}/move`, { move: String(move) }));
}

function showMessage(text) {
  $("message").textContent = text;
}

function render(state) {
  if (!current || current.id !== state.id || current.moves !== state.moves) ckPath = [];
  current = state;
  $("table").hidden = false;
  const over = state.result !== null;
  $("board").dataset.state = over ? "over" : state.your_turn ? "your-turn" : "waiting";
  $("board").dataset.game = state.game;
  $("status").textContent = over
    ? `Game ${state.game_number} is over:`
    : state.your_turn
      ? `Game ${state.game_number}: your move (you are ${sideName(state)}).`
      : "bebete is thinking…";
  $("result").textContent = over ? state.result : "";
  $("score").textContent =
    `you ${state.score.human} · bebete ${state.score.bot} · draws ${state.score.draws}`;
  $("against").textContent = `against ${state.opponent}: ${state.rules}`;
  $("next").hidden = !over;
  // Lines break between moves, not inside one (11-15 keeps its hyphen).
  $("line").textContent = state.moves ? `moves: ${state.moves.replace(/-/g, "\u2011")}` : "";
  drawBoard(state);
  explain(state);
}

function sideName(state) {
  const order = state.human === "X" ? "first" : "second";
  if (state.game === "connect4") return `${state.human === "X" ? "red" : "yellow"}, ${order}`;
  if (state.game === "tictactoe") return `${state.human}, ${order}`;
  if (state.game === "checkers" || state.game === "othello") return `${state.human === "X" ? "black" : "white"}, ${order}`;
  return order;
}

// Colours of the two sides (X moves first).
const STONE = { X: "#d7263d", O: "#f4c20d" };

function drawBoard(state) {
  const box = $("board");
  box.textContent = "";
  // Only Connect-Four's genomes draw votes on the board.
  $("votes-toggle").hidden = true;
  if (state.board.kind === "heap") return drawHeap(box, state);
  if (state.board.kind === "draughts") return drawCheckers(box, state);
  if (state.game === "othello") return drawOthello(box, state);
  if (state.game === "connect4") return drawConnect4(box, state);
  return drawTicTacToe(box, state);
}

function lastMoveCell(state) {
  if (!state.last) return -1;
  const b = state.board;
  if (state.game === "tictactoe") return Number(state.last.move) - 1;
  const col = Number(state.last.move) - 1;
  for (let row = 0; row < b.rows; row++) {
    if (b.cells[row * b.columns + col] !== ".") return row * b.columns + col;
  }
  return -1;
}

function drawTicTacToe(box, state) {
  const size = 110;
  const svg = el("svg", { viewBox: `0 0 ${size * 3} ${size * 3}`, class: "ttt" }, box);
  const last = lastMoveCell(state);
  const winning = new Set(state.board.winning);
  for (let k = 0; k < 9; k++) {
    const x = (k % 3) * size;
    const y = Math.floor(k / 3) * size;
    const cell = state.board.cells[k];
    const classes = ["cell"];
    if (k === last) classes.push("last");
    if (winning.has(k)) classes.push("winning");
    el("rect", { x: x + 3, y: y + 3, width: size - 6, height: size - 6, rx: 10, class: classes.join(" ") }, svg);
    if (cell === "X") {
      el("path", { d: `M${x + 28},${y + 28} L${x + size - 28},${y + size - 28} M${x + size - 28},${y + 28} L${x + 28},${y + size - 28}`, class: "mark-x" }, svg);
    } else if (cell === "O") {
      el("circle", { cx: x + size / 2, cy: y + size / 2, r: size / 2 - 28, class: "mark-o" }, svg);
    } else {
      el("text", { x: x + size / 2, y: y + size / 2 + 8, class: "hint" }, svg).textContent = String(k + 1);
    }
    const target = el("rect", { x, y, width: size, height: size, class: "target", "data-move": k + 1, "data-legal": state.legal.includes(String(k + 1)) }, svg);
    target.addEventListener("click", () => play(k + 1));
  }
}

const C4 = { cell: 64, top: 56, bars: 120 };

function drawConnect4(box, state) {
  const { rows, columns, cells } = state.board;
  const w = columns * C4.cell;
  const h = rows * C4.cell;
  const votes = voteFacts(state);
  const svg = el("svg", { viewBox: `0 0 ${w} ${C4.top + h + (votes ? C4.bars : 0)}`, class: "c4" }, box);
  el("rect", { x: 0, y: C4.top, width: w, height: h, rx: 12, class: "frame" }, svg);
  const last = lastMoveCell(state);
  const winning = new Set(state.board.winning);
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < columns; col++) {
      const k = row * columns + col;
      const cx = col * C4.cell + C4.cell / 2;
      const cy = C4.top + row * C4.cell + C4.cell / 2;
      const stone = cells[k];
      const classes = ["hole"];
      if (winning.has(k)) classes.push("winning");
      el("circle", { cx, cy, r: C4.cell / 2 - 6, fill: stone === "." ? "#fff" : STONE[stone], class: classes.join(" ") }, svg);
      if (k === last) el("circle", { cx, cy, r: 7, class: "last-dot" }, svg);
    }
  }
  if (votes) drawVotes(svg, state, votes);
  $("votes-toggle").hidden = !votes;
  for (let col = 0; col < columns; col++) {
    const move = String(col + 1);
    el("text", { x: col * C4.cell + C4.cell / 2, y: C4.top - 10, class: "col-label" }, svg).textContent = move;
    const target = el("rect", { x: col * C4.cell, y: 0, width: C4.cell, height: C4.top + h, class: "target", "data-move": move, "data-legal": state.legal.includes(move) }, svg);
    target.addEventListener("click", () => play(move));
  }
}

// The twelve windows' votes of the genome's last decision, when the bot is
// a Connect-Four genome and the overlay is on.
function voteFacts(state) {
  const e = state.bot && state.bot.explain;
  if (!e || !e.windows) return null;
  return e;
}

const WINDOW_COLOURS = ["#1b6ca8", "#2a9d8f", "#6a4c93", "#e76f51", "#264653", "#8a5a44", "#3a86ff"];

function windowBox(w) {
  // Window rows count from the bottom of the board.
  const x = w.column_offset * C4.cell;
  const y = C4.top + (6 - 4 - w.row_offset) * C4.cell;
  return { x, y, size: 4 * C4.cell };
}

function drawVotes(svg, state, e) {
  const layer = el("g", { class: "votes" }, svg);
  const rowsBottom = C4.top + 6 * C4.cell;
  // One line per window: from the window's centre to the column it voted.
  e.windows.forEach((w, i) => {
    if (w.weight === 0) return;
    const b = windowBox(w);
    const cx = b.x + b.size / 2 + (i % 4 - 1.5) * 6;
    const cy = b.y + b.size / 2 + (Math.floor(i / 4) - 1) * 6;
    const tx = (w.column - 1) * C4.cell + C4.cell / 2;
    el("line", { x1: cx, y1: cy, x2: tx, y2: C4.top - 2, stroke: WINDOW_COLOURS[w.column - 1], "stroke-width": 1 + w.weight / 12, opacity: 0.15 + w.weight / 160, class: "vote", "data-window": i }, layer);
    el("circle", { cx, cy, r: 4, fill: WINDOW_COLOURS[w.column - 1], class: "vote-origin" }, layer);
  });
  el("rect", { x: 0, y: 0, width: 0, height: 0, class: "window-box", id: "window-box" }, layer);
  // The column sums as bars under the board; the played column stands out.
  const most = Math.max(1, ...e.votes);
  const played = e.shell ? e.shell.move : e.move;
  const verdicts = {};
  if (e.shell) for (const v of e.shell.verdicts) verdicts[v.move] = v.verdict;
  e.votes.forEach((sum, col) => {
    const move = String(col + 1);
    const x = col * C4.cell + 10;
    const height = (sum / most) * (C4.bars - 44);
    const full = isFullBefore(e, col);
    const classes = ["bar"];
    if (move === played) classes.push("played");
    if (verdicts[move] && verdicts[move].startsWith("loses")) classes.push("removed");
    if (full) classes.push("full");
    el("rect", { x, y: rowsBottom + 8, width: C4.cell - 20, height: Math.max(1, height), class: classes.join(" "), "data-column": move }, svg);
    el("text", { x: x + (C4.cell - 20) / 2, y: rowsBottom + 8 + Math.max(1, height) + 14, class: "bar-label" }, svg).textContent = String(sum);
    const verdict = verdicts[move];
    if (verdict && verdict !== "open") {
      el("text", { x: x + (C4.cell - 20) / 2, y: rowsBottom + C4.bars - 4, class: "verdict " + verdict }, svg).textContent = VERDICT_SHORT[verdict];
    }
  });
}

// A column full in the position the bot decided in (its votes are dropped).
function isFullBefore(e, col) {
  const count = [...e.position].filter((c) => c === String(col + 1)).length;
  return count >= 6;
}

const VERDICT_SHORT = {
  wins_now: "wins",
  wins_by_force: "forces win",
  loses_now: "✕ loses",
  loses_by_force: "✕ loses",
};

// ---------------------------------------------------------------- checkers

// Squares 1-32, row by row from Black's side (the top): in rows 1, 3, 5, 7
// the dark squares are the 2nd, 4th, 6th and 8th.
const CK = { cell: 52 };
let ckPath = []; // the squares clicked so far for the human's move

function ckPlace(square) {
  const k = square - 1;
  const row = Math.floor(k / 4);
  const col = 2 * (k % 4) + (row % 2 === 0 ? 1 : 0);
  return { x: col * CK.cell, y: row * CK.cell };
}

// A legal move's squares: "11-15" → [11, 15], "15x24x31" → [15, 24, 31].
function ckSquares(move) {
  return move.split(/[-x]/).map(Number);
}

function ckClick(state, square) {
  if (!state.your_turn || state.result !== null) return;
  const legal = state.legal.map((m) => [m, ckSquares(m)]);
  const path = [...ckPath, square];
  const fits = legal.filter(([, sq]) => path.every((s, i) => sq[i] === s));
  const whole = fits.find(([, sq]) => sq.length === path.length);
  if (whole && fits.length === 1) {
    ckPath = [];
    return play(whole[0]);
  }
  if (fits.length > 0) {
    ckPath = path;
  } else if (legal.some(([, sq]) => sq[0] === square)) {
    // Another of the player's pieces that can move: start again from it.
    ckPath = [square];
  } else if (ckPath.length > 0) {
    // Not a way on for the chosen piece: the server says why (the move is
    // refused and the board stays as it is).
    const from = ckPath[ckPath.length - 1];
    const jump = Math.abs(ckRow(square) - ckRow(from)) === 2;
    const move = [...ckPath, square].join(jump || ckPath.length > 1 ? "x" : "-");
    ckPath = [];
    return play(move);
  } else {
    showMessage(ckWhyNot(state, square, legal.map(([m]) => m)));
    return;
  }
  showMessage("");
  render(state);
}

// The row of a square (0 at the top), as drawn.
function ckRow(square) {
  return Math.floor((square - 1) / 4);
}

// Why a first click on `square` starts no move.
function ckWhyNot(state, square, legal) {
  const piece = state.board.squares[square - 1];
  const mine = state.human === "X" ? "b" : "w";
  if (piece === ".") return `Square ${square} is empty: click one of your pieces that can move.`;
  if (piece.toLowerCase() !== mine) {
    return `Square ${square} holds a ${mine === "b" ? "white" : "black"} piece: you play ${mine === "b" ? "black" : "white"}.`;
  }
  if (legal.every((m) => m.includes("x"))) return `A capture is compulsory: ${legal.join(", ")}.`;
  return `The piece on ${square} has no move.`;
}

function drawCheckers(box, state) {
  const size = 8 * CK.cell;
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "checkers" }, box);
  const squares = state.board.squares;
  const last = state.last ? ckSquares(state.last.move) : [];
  const legal = state.your_turn && state.result === null ? state.legal.map(ckSquares) : [];
  const next = new Set(ckPath.length === 0 ? [] : legal
    .filter((sq) => ckPath.every((s, i) => sq[i] === s))
    .map((sq) => sq[ckPath.length])
    .filter((s) => s !== undefined));
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const dark = (row + col) % 2 === 1;
      el("rect", { x: col * CK.cell, y: row * CK.cell, width: CK.cell, height: CK.cell, class: dark ? "ck-dark" : "ck-light" }, svg);
    }
  }
  for (let square = 1; square <= 32; square++) {
    const { x, y } = ckPlace(square);
    const cx = x + CK.cell / 2;
    const cy = y + CK.cell / 2;
    const classes = ["ck-square"];
    if (last.includes(square)) classes.push("last");
    if (ckPath.includes(square)) classes.push("chosen");
    el("rect", { x: x + 2, y: y + 2, width: CK.cell - 4, height: CK.cell - 4, class: classes.join(" ") }, svg);
    el("text", { x: x + 4, y: y + 12, class: "ck-number" }, svg).textContent = String(square);
    const piece = squares[square - 1];
    if (piece !== ".") {
      const black = piece.toLowerCase() === "b";
      el("circle", { cx, cy, r: CK.cell / 2 - 8, class: black ? "ck-black" : "ck-white" }, svg);
      if (piece === "B" || piece === "W") {
        el("text", { x: cx, y: cy + 6, class: black ? "ck-king on-black" : "ck-king on-white" }, svg).textContent = "K";
      }
    }
    if (next.has(square)) el("circle", { cx, cy, r: 7, class: "ck-target" }, svg);
    // What may be clicked now: a piece that can move, or once one is
    // chosen, the squares its move goes on to.
    const clickable = ckPath.length === 0 ? legal.some((sq) => sq[0] === square) : next.has(square);
    const target = el("rect", { x, y, width: CK.cell, height: CK.cell, class: "target", "data-square": square, "data-legal": clickable }, svg);
    target.addEventListener("click", () => ckClick(state, square));
  }
}

// ---------------------------------------------------------------- othello

// Squares a1-h8: columns a-h from the left, rows 1-8 from the top; cell k
// of the board is column k % 8, row k / 8.
const OT = { cell: 50, margin: 22 };

function otName(k) {
  return "abcdefgh"[k % 8] + String(Math.floor(k / 8) + 1);
}

function drawOthello(box, state) {
  const { cell, margin } = OT;
  const size = margin + 8 * cell;
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "othello" }, box);
  const cells = state.board.cells;
  const mine = state.your_turn && state.result === null;
  const legal = new Set(mine ? state.legal : []);
  const last = state.last ? state.last.move : null;
  for (let i = 0; i < 8; i++) {
    el("text", { x: margin + i * cell + cell / 2, y: margin - 7, class: "ot-label" }, svg).textContent = "abcdefgh"[i];
    el("text", { x: margin / 2, y: margin + i * cell + cell / 2 + 5, class: "ot-label" }, svg).textContent = String(i + 1);
  }
  el("rect", { x: margin, y: margin, width: 8 * cell, height: 8 * cell, class: "ot-board" }, svg);
  for (let k = 0; k < 64; k++) {
    const x = margin + (k % 8) * cell;
    const y = margin + Math.floor(k / 8) * cell;
    const name = otName(k);
    el("rect", { x, y, width: cell, height: cell, class: name === last ? "ot-square last" : "ot-square" }, svg);
    const disc = cells[k];
    if (disc !== ".") {
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell / 2 - 5, class: disc === "X" ? "ot-black" : "ot-white" }, svg);
    } else if (legal.has(name)) {
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: 6, class: "ot-legal" }, svg);
    }
    const target = el("rect", { x, y, width: cell, height: cell, class: "target", "data-move": name, "data-legal": legal.has(name) }, svg);
    target.addEventListener("click", () => {
      if (!mine) return;
      if (legal.has("pass")) return showMessage("You have no move: press Pass.");
      play(name);
    });
  }
  const count = (c) => [...cells].filter((d) => d === c).length;
  const foot = html("p", { class: "ot-count" }, `black ${count("X")} · white ${count("O")}`, box);
  if (legal.has("pass")) {
    const pass = html("button", { type: "button", id: "pass", "data-legal": "true" }, "Pass (no move)", foot);
    pass.addEventListener("click", () => play("pass"));
  }
}

// The sub-grid genome's ballot: 25 windows, each voting for a move from
// one of its squares; the legal moves' scores.
function explainBallot(body, e, bot) {
  html("p", {}, `bebete played ${bot.move}. Each of 25 4×4 windows of the board reads its 8 dark squares (one gene per window state) and votes for a move from one of them, in a direction, with a weight 0–7; each legal move scores the votes for its first step, and the highest is played.`, body);
  const table = html("table", { class: "windows values" }, null, body);
  const head = html("tr", {}, null, html("thead", {}, null, table));
  for (const h of ["move", "score"]) html("th", {}, h, head);
  const rows = html("tbody", {}, null, table);
  for (const [mv, score] of e.moves) {
    const tr = html("tr", { class: mv === String(bot.move) ? "played" : "" }, null, rows);
    html("td", {}, mv, tr);
    html("td", {}, String(score), tr);
  }
  const voting = e.windows.filter((w) => w.weight > 0);
  html("p", { class: "muted" }, voting.length
    ? `${voting.length} of 25 windows voted with a weight above 0: ` + voting.map((w) => `square ${w.square} ${w.direction} (${w.weight})`).join(", ") + "."
    : "No window voted with a weight above 0: the first legal move in the rules' order was played.", body);
}

function drawHeap(box, state) {
  const { sticks, most } = state.board;
  const per = 14;
  const width = Math.max(200, sticks * per + 20);
  const svg = el("svg", { viewBox: `0 0 ${width} 120`, class: "heap" }, box);
  for (let i = 0; i < sticks; i++) {
    el("line", { x1: 16 + i * per, y1: 20, x2: 16 + i * per, y2: 100, class: "stick" }, svg);
    el("circle", { cx: 16 + i * per, cy: 18, r: 4, class: "stick-head" }, svg);
  }
  if (state.last) {
    const who = state.last.by === "bot" ? "bebete" : "you";
    html("div", { class: "last-take" }, `last move: ${who} took ${state.last.move}`, box);
  }
  const buttons = html("div", { class: "takes" }, null, box);
  html("span", {}, `${sticks} stick${sticks === 1 ? "" : "s"} left. Take:`, buttons);
  for (let n = 1; n <= Math.max(most, 1); n++) {
    const move = String(n);
    const b = html("button", { type: "button", class: "take", "data-move": move, "data-legal": state.legal.includes(move) }, move, buttons);
    b.addEventListener("click", () => play(move));
  }
}

function explain(state) {
  const body = $("why-body");
  body.textContent = "";
  const bot = state.bot;
  if (!bot) {
    html("p", { class: "muted" }, "bebete's reasons appear here after it moves.", body);
    return;
  }
  if (bot.move === null) {
    html("p", {}, `bebete forfeits ${bot.reason}`, body);
    return;
  }
  const e = bot.explain;
  if (!e) {
    html("p", {}, `bebete played ${bot.move}. It is the fixed player ${state.opponent}, which has no gene table to explain.`, body);
    return;
  }
  if (e.moves && e.windows) return explainBallot(body, e, bot);
  if (e.windows) return explainVotes(body, e, bot);
  if (e.values) return explainValues(body, e, bot, state);
  const what = state.game === "tictactoe" ? "cell" : "take";
  html("p", {}, `bebete played ${what} ${bot.move}.`, body);
  const facts = html("dl", {}, null, body);
  const fact = (k, v) => {
    html("dt", {}, k, facts);
    html("dd", {}, v, facts);
  };
  fact("position", e.position === "" ? "the start" : e.position);
  fact("gene index", String(e.index));
  fact("gene", String(e.gene));
  fact("so", e.repaired ? `the gene named an illegal move; repaired to ${bot.move}` : `${what} ${e.move}`);
  html("p", { class: "muted" }, state.game === "tictactoe"
    ? "The board, read as a base-3 number (a symmetric encoder first turns it to its smallest image), picks one gene; the gene is the cell to play."
    : "The heap's state picks one gene; the gene is how many sticks to take.", body);
}

function explainVotes(body, e, bot) {
  html("p", {}, `bebete played column ${bot.move}. Twelve 4×4 windows of the board each vote for one column with a weight 0–63 (lines on the board); the bars are the column sums, and the heaviest legal column is played.`, body);
  if (e.shell) {
    const s = e.shell;
    // The words `bebete play` prints, and the genome's own column when the
    // shell played another.
    html("p", {}, "Tactical " + s.summary + (s.overrode ? ` (the genome voted ${e.move}).` : "."), body);
  }
  const table = html("table", { class: "windows" }, null, body);
  const head = html("tr", {}, null, html("thead", {}, null, table));
  for (const h of ["window", "votes for", "weight"]) html("th", {}, h, head);
  const rows = html("tbody", {}, null, table);
  e.windows.forEach((w, i) => {
    const tr = html("tr", { "data-window": i }, null, rows);
    html("td", {}, `columns ${w.column_offset + 1}–${w.column_offset + 4}, rows ${w.row_offset + 1}–${w.row_offset + 4}`, tr);
    const col = html("td", {}, String(w.column), tr);
    col.style.color = WINDOW_COLOURS[w.column - 1];
    html("td", {}, String(w.weight), tr);
    tr.addEventListener("mouseenter", () => highlightWindow(w, i));
    tr.addEventListener("mouseleave", () => highlightWindow(null, i));
  });
  html("p", { class: "muted" }, "Rows count from the bottom. Hover a window to see it on the board.", body);
}

// A value genome: each legal move's value (or search score) as a bar, and
// the tuples that weighed most in the position it chose.
function explainValues(body, e, bot, state) {
  const what = { tictactoe: "cell", checkers: "move", othello: "square", connect4: "column" }[state.game] || "move";
  const searched = e.depth > 1;
  html("p", {}, searched
    ? `bebete played ${what} ${bot.move}. It searched ${e.depth} plies ahead (alpha-beta) and valued each leaf with its tuples; above +1 is a forced win, below −1 a forced loss.`
    : `bebete played ${what} ${bot.move}. It valued the position each legal move leads to (−1 lost, +1 won, for itself) with its tuples, and played the highest.`, body);
  const table = html("table", { class: "windows values" }, null, body);
  const head = html("tr", {}, null, html("thead", {}, null, table));
  for (const h of [what, searched ? "score" : "value", ""]) html("th", {}, h, head);
  const rows = html("tbody", {}, null, table);
  for (const [mv, v] of e.values) {
    const tr = html("tr", { class: mv === String(bot.move) ? "played" : "" }, null, rows);
    html("td", {}, mv, tr);
    html("td", {}, (v >= 0 ? "+" : "") + v.toFixed(3), tr);
    const bar = html("span", { class: "value-bar" }, null, html("td", {}, null, tr));
    const share = Math.max(0, Math.min(1, (v + 1) / 2));
    bar.style.width = `${Math.round(share * 100)}%`;
  }
  if (e.tuples && e.tuples.length) {
    html("p", { class: "muted" }, "The tuples that weighed most after its move (cells; weight for bebete):", body);
    const list = html("ul", { class: "tuples" }, null, body);
    for (const t of e.tuples) html("li", {}, `${t.cells.join(" ")}: ${(t.weight >= 0 ? "+" : "") + t.weight.toFixed(3)}`, list);
  }
}

function highlightWindow(w, i) {
  const box = document.getElementById("window-box");
  if (!box) return;
  for (const line of document.querySelectorAll("line.vote")) {
    line.classList.toggle("dim", w !== null && line.dataset.window !== String(i));
  }
  if (!w) {
    box.setAttribute("width", 0);
    return;
  }
  const b = windowBox(w);
  box.setAttribute("x", b.x + 2);
  box.setAttribute("y", b.y + 2);
  box.setAttribute("width", b.size - 4);
  box.setAttribute("height", b.size - 4);
}

// ---------------------------------------------------------------- runs

async function showRuns() {
  $("runs-view").hidden = false;
  const body = document.querySelector("#run-list tbody");
  body.textContent = "";
  let runs = [];
  try {
    runs = await api("GET", "/runs");
  } catch (e) {
    html("tr", {}, null, body).appendChild(html("td", { colspan: 4 }, e.message));
  }
  if (runs.length === 0) {
    const tr = html("tr", {}, null, body);
    html("td", { colspan: 4 }, "No runs yet: start one with `bebete evolve`.", tr);
  }
  for (const run of runs) {
    const tr = html("tr", {}, null, body);
    const name = html("td", {}, null, tr);
    html("a", { href: `/runs/${encodeURIComponent(run.name)}` }, run.name, name);
    html("td", {}, run.game, tr);
    html("td", {}, String(run.generations), tr);
    html("td", { class: run.running ? "running" : "" }, run.running ? "running" : "", tr);
  }
}

let watching = null;

async function showRun(name) {
  $("run-view").hidden = false;
  $("run-title").textContent = `runs/${name}`;
  $("run-play").onclick = () => { location.href = `/?opponent=${encodeURIComponent(`runs/${name}/best.genome`)}`; };
  let shown = -1;
  const refresh = async () => {
    let run;
    try {
      run = await api("GET", `/runs/${encodeURIComponent(name)}`);
    } catch (e) {
      $("run-state").textContent = e.message;
      $("run-play").hidden = true;
      $("run-plot").hidden = true;
      return;
    }
    $("run-plot").hidden = false;
    const generations = run.generations;
    const planned = run.params.generations;
    const recorded = `${generations} generation${generations === 1 ? "" : "s"} recorded`;
    $("run-state").textContent = run.running
      ? `running: ${recorded}` + (planned ? ` of ${planned} planned` : "") + " (refreshing every 3 s)"
      : run.ended
        ? `finished after generation ${run.ended.generation}: ${run.ended.reason}`
        : `${recorded}` + (planned ? ` of ${planned} planned` : "") + " (not running; `bebete resume` continues a run stopped before its end)";
    $("run-state").className = run.running ? "running" : "";
    $("run-play").hidden = !run.champion;
    if (generations !== shown && generations > 0) {
      shown = generations;
      $("run-plot").src = `/api/runs/${encodeURIComponent(name)}/plot.svg?g=${generations}`;
    }
    const params = document.querySelector("#run-params tbody");
    params.textContent = "";
    for (const [k, v] of Object.entries(run.params)) {
      const tr = html("tr", {}, null, params);
      html("th", {}, k, tr);
      html("td", {}, typeof v === "object" ? JSON.stringify(v) : String(v), tr);
    }
    if (!run.running && watching) {
      clearInterval(watching);
      watching = null;
    }
  };
  await refresh();
  watching = setInterval(refresh, 3000);
}

// ---------------------------------------------------------------- wiring

$("game").addEventListener("change", () => {
  fillRules();
  fillOpponents(null);
});
$("opponent").addEventListener("change", opponentChanged);
$("rule").addEventListener("change", opponentChanged);
$("show-votes").addEventListener("change", () => {
  $("board").classList.toggle("hide-votes", !$("show-votes").checked);
});
$("setup").addEventListener("submit", startGame);
$("next").addEventListener("click", () => {
  if (current) request(() => api("POST", `/games/${current.id}/next`));
});
route();
