// Connect-N in the browser: the page keeps the settings and the move string;
// the server (the JSON API) says what the position is and chooses the computer's moves.
"use strict";

const LEVEL_NAMES = ["", "beginner", "novice", "casual", "club", "strong", "expert", "master"];
const NUMBER_WORDS = { 3: "Three", 4: "Four", 5: "Five", 6: "Six" };

const $ = (id) => document.getElementById(id);

const state = {
  width: 7,
  height: 6,
  connect: 4,
  level: 3,
  play: "first", // "first": you are X; "second": the computer is X; "both": two people
  pos: "",
  position: null,
  thinking: null, // AbortController of the computer's move request
  analysis: null, // AbortController of the analysis request
  busy: false, // a position request is under way
  hint: null,
};

// ------------------------------------------------------------- the URL

function readUrl() {
  const params = new URLSearchParams(location.search);
  const size = (params.get("size") || "7x6").toLowerCase().split("x");
  const width = parseInt(size[0], 10);
  const height = parseInt(size[1], 10);
  if (width > 0 && height > 0) {
    state.width = width;
    state.height = height;
  }
  const connect = parseInt(params.get("connect") || "4", 10);
  if (connect > 0) state.connect = connect;
  const level = parseInt(params.get("level") || "3", 10);
  if (level >= 1 && level <= 7) state.level = level;
  const play = params.get("play");
  if (play === "first" || play === "second" || play === "both") state.play = play;
  state.pos = (params.get("pos") || "").replace(/\s+/g, "");
}

function settingsQuery(pos) {
  const params = new URLSearchParams();
  params.set("pos", pos);
  params.set("size", `${state.width}x${state.height}`);
  params.set("connect", String(state.connect));
  return params.toString();
}

function writeUrl() {
  const params = new URLSearchParams();
  params.set("pos", state.pos);
  if (state.width !== 7 || state.height !== 6) params.set("size", `${state.width}x${state.height}`);
  if (state.connect !== 4) params.set("connect", String(state.connect));
  if (state.level !== 3) params.set("level", String(state.level));
  if (state.play !== "first") params.set("play", state.play);
  history.replaceState(null, "", `${location.pathname}?${params.toString()}`);
}

// ------------------------------------------------------------ the API

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(path, options = {}) {
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError("The server cannot be reached — is c4 serve still running?", 0);
    }
    if (response.status === 503 && attempt < 5) {
      const wait = parseFloat(response.headers.get("Retry-After") || "1");
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      continue;
    }
    let body = null;
    try {
      body = await response.json();
    } catch (error) {
      body = null;
    }
    if (!response.ok) {
      const message = body && body.error ? body.error : `the server answered ${response.status}`;
      throw new ApiError(message, response.status);
    }
    return body;
  }
}

// ---------------------------------------------------------- the moves

function tokens(pos) {
  if (!pos) return [];
  return state.width > 9 || pos.includes(",") ? pos.split(",") : pos.split("");
}

function withMove(pos, column) {
  if (!pos) return String(column);
  return state.width > 9 ? `${pos},${column}` : `${pos}${column}`;
}

function withoutLast(pos) {
  const moves = tokens(pos);
  moves.pop();
  return moves.join(state.width > 9 ? "," : "");
}

// Which side a person plays: "X", "O" or both.
function isHuman(side) {
  if (state.play === "both") return true;
  return (state.play === "first") === (side === "X");
}

function sideOfMove(index) {
  return index % 2 === 0 ? "X" : "O";
}

// ------------------------------------------------------------ drawing

function setMessage(text, kind = "error") {
  const message = $("message");
  message.textContent = text || "";
  message.className = `message ${kind}`;
}

function buildBoard() {
  const board = $("board");
  const root = document.documentElement;
  board.style.setProperty("--w", state.width);
  board.style.setProperty("--h", state.height);
  for (const id of ["analysis", "labels"]) $(id).style.setProperty("--w", state.width);
  board.replaceChildren();
  for (let column = 1; column <= state.width; column++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "column";
    button.dataset.column = String(column);
    button.addEventListener("click", () => playColumn(column));
    for (let row = state.height; row >= 1; row--) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.row = String(row);
      button.appendChild(cell);
    }
    board.appendChild(button);
  }
  const labels = $("labels");
  labels.replaceChildren();
  for (let column = 1; column <= state.width; column++) {
    const label = document.createElement("div");
    label.textContent = String(column);
    labels.appendChild(label);
  }
  root.style.setProperty("--w", state.width);
  $("title-n").textContent = NUMBER_WORDS[state.connect] || String(state.connect);
  const opponent = state.play === "both" ? "two players" : `level ${state.level} ${LEVEL_NAMES[state.level]}`;
  $("subtitle").textContent = `${state.width}×${state.height} · connect ${state.connect} · ${opponent}`;
}

function render(position, dropped) {
  const winning = new Set(position.winning_cells.map((cell) => `${cell.column},${cell.row}`));
  const columns = $("board").children;
  for (let c = 0; c < position.width; c++) {
    const button = columns[c];
    const column = c + 1;
    let empty = 0;
    for (let r = 0; r < position.height; r++) {
      const owner = position.grid[r][c];
      const row = position.height - r;
      const cell = button.children[r];
      if (!owner) {
        empty++;
        cell.replaceChildren();
        continue;
      }
      let piece = cell.firstElementChild;
      const fresh = !piece;
      if (!piece) {
        piece = document.createElement("div");
        cell.appendChild(piece);
      }
      const isLast = position.last_move === column && r === firstFilled(position, c);
      piece.className = `piece ${owner.toLowerCase()}`;
      piece.dataset.player = owner;
      if (isLast) piece.classList.add("last");
      if (winning.has(`${column},${row}`)) piece.classList.add("win");
      if (isLast && dropped === column && fresh) {
        piece.style.setProperty("--fall", String(r + 1));
        piece.style.setProperty("--drop-time", `${0.18 + 0.05 * (r + 1)}s`);
        piece.classList.add("drop");
      }
      piece.setAttribute("aria-hidden", "true");
    }
    const who = position.over ? "" : `, ${empty} empty`;
    button.setAttribute("aria-label", `Column ${column}${who}${empty === 0 ? ", full" : ""}`);
    button.classList.toggle("hint", state.hint === column);
  }
  $("board").classList.toggle("locked", position.over || !!state.thinking);
  $("moves").value = position.pos;
  renderStatus();
}

function firstFilled(position, c) {
  for (let r = 0; r < position.height; r++) if (position.grid[r][c]) return r;
  return -1;
}

function describeSide(side) {
  const mark = side === "X" ? "red ✕" : "yellow ◯";
  if (state.play === "both") return `${side === "X" ? "Player 1" : "Player 2"} (${mark})`;
  return isHuman(side) ? `You (${mark})` : `Computer (${mark})`;
}

function renderStatus() {
  const position = state.position;
  const status = $("status");
  const piece = $("turn-piece");
  $("thinking").hidden = !state.thinking;
  if (!position) return;
  let text;
  if (position.over) {
    status.dataset.state = "over";
    if (position.winner) {
      piece.className = `mini-piece ${position.winner.toLowerCase()}`;
      if (state.play === "both") text = `Game over — ${describeSide(position.winner)} wins!`;
      else text = isHuman(position.winner) ? "Game over — you win!" : "Game over — the computer wins.";
    } else {
      piece.className = "mini-piece none";
      text = "Game over — a draw: the board is full.";
    }
  } else {
    status.dataset.state = state.thinking ? "thinking" : "playing";
    piece.className = `mini-piece ${position.to_move.toLowerCase()}`;
    if (state.thinking) text = "Computer is thinking";
    else if (state.play === "both") text = `${describeSide(position.to_move)} to move`;
    else text = `Your move (${position.to_move === "X" ? "red ✕" : "yellow ◯"})`;
  }
  $("status-text").textContent = text;
  $("undo").disabled = !canUndo();
  $("hint").disabled = position.over || !!state.thinking;
}

function renderAnalysis(result) {
  const box = $("analysis");
  const note = $("analysis-note");
  note.hidden = !result;
  if (result) {
    const side = result.to_move === "X" ? "red ✕" : "yellow ◯";
    note.textContent = result.exact
      ? `If ${side} plays each column (exact):`
      : `If ${side} plays each column (≈ = the engine's estimate, not proven in the time allowed):`;
  }
  box.replaceChildren();
  box.classList.remove("loading");
  for (let c = 0; c < state.width; c++) {
    const chip = document.createElement("div");
    const entry = result ? result.columns[c] : null;
    chip.dataset.column = String(c + 1);
    if (!result) {
      chip.className = "chip";
      chip.textContent = "…";
    } else if (!entry) {
      chip.className = "chip full";
      chip.textContent = "";
      chip.title = "full";
    } else {
      chip.className = `chip ${entry.outcome}`;
      if (result.best.includes(entry.column)) chip.classList.add("best");
      chip.textContent = entry.outcome === "unknown" ? `≈${entry.label}` : entry.label;
      chip.title = entry.exact
        ? `Column ${entry.column}: ${entry.label}`
        : `Column ${entry.column}: not proven in the time allowed; the engine's estimate ${entry.label}`;
    }
    box.appendChild(chip);
  }
}

// --------------------------------------------------------- game flow

async function showPosition(pos, dropped) {
  const position = await api(`/api/position?${settingsQuery(pos)}`);
  state.pos = position.pos;
  state.position = position;
  writeUrl();
  render(position, dropped);
  refreshAnalysis();
  return position;
}

function canUndo() {
  if (!state.position || state.play === "both") return state.pos.length > 0;
  const moves = tokens(state.pos);
  for (let i = 0; i < moves.length; i++) if (isHuman(sideOfMove(i))) return true;
  return false;
}

async function playColumn(column) {
  const position = state.position;
  if (!position || state.busy) return;
  if (state.thinking) {
    setMessage("Please wait: the computer is thinking.", "info");
    return;
  }
  if (position.over) {
    setMessage("The game is over — start a new game or undo.");
    return;
  }
  if (column < 1 || column > position.width) {
    setMessage(`There is no column ${column} on this board.`);
    return;
  }
  if (!isHuman(position.to_move)) return;
  if (!position.legal.includes(column)) {
    setMessage(`Column ${column} is full — choose another column.`);
    return;
  }
  setMessage("");
  state.hint = null;
  state.busy = true;
  try {
    await showPosition(withMove(state.pos, column), column);
  } catch (error) {
    setMessage(error.message);
    return;
  } finally {
    state.busy = false;
  }
  await computerMoves();
}

async function computerMoves() {
  while (state.position && !state.position.over && !isHuman(state.position.to_move)) {
    const controller = new AbortController();
    state.thinking = controller;
    render(state.position, null);
    let result;
    try {
      result = await api("/api/move", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          pos: state.pos,
          size: `${state.width}x${state.height}`,
          connect: state.connect,
          level: state.level,
        }),
        signal: controller.signal,
      });
    } catch (error) {
      if (state.thinking === controller) state.thinking = null;
      if (error.name !== "AbortError") setMessage(error.message);
      renderStatus();
      return;
    }
    if (state.thinking !== controller) return; // undone or a new game meanwhile
    state.thinking = null;
    state.pos = result.pos;
    state.position = result.position;
    writeUrl();
    render(result.position, result.column);
    refreshAnalysis();
  }
}

async function undo() {
  if (!canUndo() || state.busy) return;
  if (state.thinking) {
    state.thinking.abort();
    state.thinking = null;
  }
  let pos = state.pos;
  if (state.play === "both") {
    pos = withoutLast(pos);
  } else {
    // Take back moves until one of yours is gone (your move and the computer's reply).
    while (tokens(pos).length > 0) {
      const side = sideOfMove(tokens(pos).length - 1);
      pos = withoutLast(pos);
      if (isHuman(side)) break;
    }
  }
  state.hint = null;
  setMessage("");
  state.busy = true;
  try {
    await showPosition(pos, null);
  } catch (error) {
    setMessage(error.message);
  } finally {
    state.busy = false;
  }
}

async function hint() {
  const position = state.position;
  if (!position || position.over || state.thinking) return;
  setMessage("Looking for the best column…", "info");
  try {
    const result = await api("/api/move", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        pos: state.pos,
        size: `${state.width}x${state.height}`,
        connect: state.connect,
        level: 7,
        time_cap: 2,
      }),
    });
    if (result.pos !== withMove(state.pos, result.column)) return; // the position moved on
    state.hint = result.column;
    render(state.position, null);
    setMessage(`Hint: column ${result.column}.`, "info");
  } catch (error) {
    setMessage(error.message);
  }
}

async function refreshAnalysis() {
  if (state.analysis) state.analysis.abort();
  state.analysis = null;
  const box = $("analysis");
  if (!$("analysis-toggle").checked) {
    box.hidden = true;
    $("analysis-note").hidden = true;
    return;
  }
  box.hidden = false;
  const position = state.position;
  if (!position || position.over) {
    renderAnalysis(null);
    box.replaceChildren();
    $("analysis-note").hidden = true;
    return;
  }
  box.classList.add("loading");
  if (!box.children.length) renderAnalysis(null);
  const controller = new AbortController();
  state.analysis = controller;
  const pos = state.pos;
  try {
    const result = await api(`/api/analyze?${settingsQuery(pos)}`, { signal: controller.signal });
    if (state.analysis !== controller || state.pos !== pos) return;
    state.analysis = null;
    box.dataset.pos = pos;
    renderAnalysis(result);
  } catch (error) {
    if (error.name !== "AbortError") setMessage(error.message);
  }
}

async function startGame(settings) {
  if (state.thinking) state.thinking.abort();
  state.thinking = null;
  Object.assign(state, settings);
  state.hint = null;
  setMessage("");
  buildBoard();
  state.position = null;
  try {
    await showPosition(state.pos, null);
  } catch (error) {
    setMessage(`${error.message} — starting from an empty board.`);
    state.pos = "";
    try {
      await showPosition("", null);
    } catch (second) {
      setMessage(second.message);
      return;
    }
  }
  await computerMoves();
}

// ----------------------------------------------------------- exports

async function exportJson() {
  const names = {
    first: state.play === "both" ? "Player 1" : isHuman("X") ? "You" : `Computer (level ${state.level})`,
    second: state.play === "both" ? "Player 2" : isHuman("O") ? "You" : `Computer (level ${state.level})`,
  };
  const query = `${settingsQuery(state.pos)}&first=${encodeURIComponent(names.first)}&second=${encodeURIComponent(names.second)}`;
  try {
    const record = await api(`/api/record?${query}`);
    const blob = new Blob([JSON.stringify(record, null, 2) + "\n"], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `c4-game-${state.pos || "empty"}.json`.replace(/,/g, "-");
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    setMessage("Game record saved as JSON.", "info");
  } catch (error) {
    setMessage(error.message);
  }
}

async function copyMoves() {
  const field = $("moves");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    setMessage(`Copied the moves: ${field.value || "(none yet)"}`, "info");
  } catch (error) {
    setMessage("Select the moves and copy them (the clipboard is not available here).", "info");
  }
}

// ------------------------------------------------------------- wiring

function openNewGame() {
  const form = $("new-form");
  form.size.value = `${state.width}x${state.height}`;
  if (![...form.size.options].some((option) => option.value === form.size.value)) form.size.value = "7x6";
  form.connect.value = String(state.connect);
  form.level.value = String(state.level);
  form.play.value = state.play;
  $("new-dialog").showModal();
}

$("new-dialog").addEventListener("close", () => {
  if ($("new-dialog").returnValue !== "start") return;
  const form = $("new-form");
  const [width, height] = form.size.value.split("x").map((n) => parseInt(n, 10));
  startGame({
    width,
    height,
    connect: parseInt(form.connect.value, 10),
    level: parseInt(form.level.value, 10),
    play: form.play.value,
    pos: "",
  });
});

$("new-game").addEventListener("click", openNewGame);
$("undo").addEventListener("click", undo);
$("hint").addEventListener("click", hint);
$("analysis-toggle").addEventListener("change", refreshAnalysis);
$("export-json").addEventListener("click", exportJson);
$("copy-moves").addEventListener("click", copyMoves);

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if ($("new-dialog").open) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" && target.type === "text")) return;
  const key = event.key.toLowerCase();
  if (/^[1-9]$/.test(key)) {
    event.preventDefault();
    playColumn(parseInt(key, 10));
  } else if (key === "u") undo();
  else if (key === "h") hint();
  else if (key === "n") openNewGame();
  else if (key === "a") {
    const toggle = $("analysis-toggle");
    toggle.checked = !toggle.checked;
    refreshAnalysis();
  }
});

readUrl();
startGame({});
