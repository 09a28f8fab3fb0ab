// Connect-N in the browser: the page keeps the settings and the move string;
// the server (the JSON API) says what the position is and chooses the computer's moves.
"use strict";

const LEVEL_NAMES = ["", "beginner", "novice", "casual", "club", "strong", "expert", "master"];
const PERFECT = "perfect"; // the analysis service's best move: proven wherever it can be in time
const NUMBER_WORDS = { 3: "Three", 4: "Four", 5: "Five", 6: "Six" };
const DEFAULTS = { width: 7, height: 6, connect: 4, level: 3, play: "first" };
const MAX_SIZE = 32;
// The first analysis of a position is quick; while it is not proven the page asks again with
// the server's longest time cap (the worker's solver keeps what it learnt in between), for up to
// about 45 s: 443554 takes 6-8 rounds on a busy 2-core machine.
const ANALYSIS_CAPS = [1, ...Array(15).fill(3)];
const RETRIES = 2; // a busy server (503/429) is asked again this often before the page says so
const DIGIT_WAIT = 700; // ms to wait for a second digit on boards wider than 9

const $ = (id) => document.getElementById(id);

const state = {
  ...DEFAULTS,
  pos: "",
  position: null,
  thinking: null, // AbortController of the computer's move request
  engineError: null, // why the computer's last move failed; Retry asks again
  analysis: null, // AbortController of the analysis requests
  result: null, // the latest analysis of the current position (the hint uses it too)
  hint: null,
  showLine: false,
};

// ------------------------------------------------------------- the URL

// Read the settings from the address; anything unusable falls back to its default
// and is reported in ``notices`` (the server checks the combination later).
function readUrl() {
  const params = new URLSearchParams(location.search);
  const notices = [];
  const size = params.get("size");
  if (size !== null) {
    const match = /^(\d+)x(\d+)$/i.exec(size.trim());
    const width = match ? parseInt(match[1], 10) : 0;
    const height = match ? parseInt(match[2], 10) : 0;
    if (width >= 1 && height >= 1 && width <= MAX_SIZE && height <= MAX_SIZE) {
      state.width = width;
      state.height = height;
    } else {
      notices.push(`size “${size}” is not a board of 1 to ${MAX_SIZE} columns and rows`);
    }
  }
  const connect = params.get("connect");
  if (connect !== null) {
    const value = /^\d+$/.test(connect.trim()) ? parseInt(connect, 10) : 0;
    if (value >= 2 && value <= Math.max(state.width, state.height)) state.connect = value;
    else notices.push(`connect “${connect}” does not fit this board`);
  }
  const level = params.get("level");
  if (level !== null) {
    const value = /^\d+$/.test(level.trim()) ? parseInt(level, 10) : 0;
    if (level === PERFECT) state.level = PERFECT;
    else if (value >= 1 && value < LEVEL_NAMES.length) state.level = value;
    else notices.push(`level “${level}” does not exist (1 to ${LEVEL_NAMES.length - 1} or perfect)`);
  }
  const play = params.get("play");
  if (play !== null) {
    if (play === "first" || play === "second" || play === "both") state.play = play;
    else notices.push(`play “${play}” is not first, second or both`);
  }
  state.pos = (params.get("pos") || "").replace(/\s+/g, "");
  return notices;
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
    if ((response.status === 503 || response.status === 429) && attempt < RETRIES) {
      const wait = parseFloat(response.headers.get("Retry-After") || "1");
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      if (options.signal && options.signal.aborted) throw new DOMException("aborted", "AbortError");
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

function markOf(side) {
  return side === "X" ? "red ✕" : "yellow ◯";
}

// ------------------------------------------------------------ drawing

function setMessage(text, kind = "error") {
  const message = $("message");
  message.textContent = text || "";
  message.className = `message ${kind}`;
}

function announce(text) {
  $("announce").textContent = text;
}

function buildBoard() {
  const board = $("board");
  document.documentElement.style.setProperty("--w", state.width);
  board.style.setProperty("--h", state.height);
  board.replaceChildren();
  for (let column = 1; column <= state.width; column++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "column";
    button.dataset.column = String(column);
    button.tabIndex = column === Math.ceil(state.width / 2) ? 0 : -1; // one tab stop; arrows move
    button.addEventListener("click", () => enqueue(() => playColumn(column)));
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
  $("title-n").textContent = NUMBER_WORDS[state.connect] || String(state.connect);
  const opponent = state.play === "both" ? "two players" : computerName();
  $("subtitle").textContent = `${state.width}×${state.height} · connect ${state.connect} · ${opponent}`;
  clearAnalysis();
}

function computerName() {
  return state.level === PERFECT ? "perfect play" : `level ${state.level} ${LEVEL_NAMES[state.level]}`;
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
      const fresh = !piece || piece.classList.contains("ghost");
      if (fresh) {
        piece = document.createElement("div");
        cell.replaceChildren(piece);
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
  renderLine();
  renderStatus();
}

function firstFilled(position, c) {
  for (let r = 0; r < position.height; r++) if (position.grid[r][c]) return r;
  return -1;
}

function describeSide(side) {
  if (state.play === "both") return `${side === "X" ? "Player 1" : "Player 2"} (${markOf(side)})`;
  return isHuman(side) ? `You (${markOf(side)})` : `Computer (${markOf(side)})`;
}

function renderStatus() {
  const position = state.position;
  const status = $("status");
  const piece = $("turn-piece");
  $("thinking").hidden = !state.thinking;
  $("retry").hidden = true;
  if (!position) return;
  $("review-open").hidden = !position.over;
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
    piece.className = `mini-piece ${position.to_move.toLowerCase()}`;
    if (state.thinking) {
      status.dataset.state = "thinking";
      text = "Computer is thinking";
    } else if (!isHuman(position.to_move)) {
      // between requests, or the computer's move failed: say whose turn it is, offer to ask again
      status.dataset.state = state.engineError ? "stuck" : "waiting";
      text = `Computer's turn (${markOf(position.to_move)})`;
      if (state.engineError) text += " — it could not move";
      $("retry").hidden = !state.engineError;
    } else {
      status.dataset.state = "playing";
      text = state.play === "both" ? `${describeSide(position.to_move)} to move` : `Your move (${markOf(position.to_move)})`;
    }
  }
  $("status-text").textContent = text;
  $("undo").disabled = !canUndo();
  $("hint").disabled = position.over || !!state.thinking || !isHuman(position.to_move);
}

// --------------------------------------------------------- the analysis

// An estimate on a person's scale: the engine's lean (-1..1) in words.
function leanWords(lean) {
  if (lean >= 0.6) return "better";
  if (lean >= 0.2) return "slightly better";
  if (lean > -0.2) return "about even";
  if (lean > -0.6) return "slightly worse";
  return "worse";
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function clearAnalysis() {
  if (state.analysis) state.analysis.abort();
  state.analysis = null;
  state.result = null;
  state.showLine = false;
  $("analysis").replaceChildren();
  $("analysis").classList.remove("loading");
  $("analysis-note").hidden = true;
  renderLine();
}

function renderAnalysis(result, final) {
  const box = $("analysis");
  const note = $("analysis-note");
  note.hidden = !result;
  $("show-line").hidden = !(result && result.pv_proven);
  if (result) {
    const side = markOf(result.to_move);
    let how = "proven";
    if (!result.exact) how = `≈ bars: the engine's estimate, ${final ? "not proven in the time allowed" : "not proven yet — analysing deeper…"}`;
    $("analysis-text").textContent = `If ${side} plays each column (${how}):`;
  }
  box.replaceChildren();
  box.classList.toggle("loading", !result);
  box.classList.toggle("compact", box.clientWidth / state.width < 50);
  for (let c = 0; c < state.width; c++) {
    const chip = document.createElement("div");
    const entry = result ? result.columns[c] : null;
    chip.dataset.column = String(c + 1);
    if (!result) {
      chip.className = "chip";
      chip.textContent = "…";
    } else if (!entry) {
      chip.className = "chip full";
      chip.title = "full";
    } else if (entry.exact) {
      chip.className = `chip ${entry.outcome}`;
      if (entry.outcome === "draw") chip.appendChild(span("word", "draw"));
      else chip.append(span("word", entry.outcome), " ", span("num", `in ${entry.moves}`));
      chip.title = `Column ${entry.column}: ${entry.label} (proven)`;
    } else {
      chip.className = "chip unknown";
      const bar = span("bar", "");
      const fill = span("fill", "");
      fill.style.setProperty("--lean", String(entry.lean));
      if (entry.lean < 0) fill.classList.add("worse");
      bar.appendChild(fill);
      chip.append(bar, span("word", `≈ ${leanWords(entry.lean)}`), span("short", "≈"));
      chip.title = `Column ${entry.column}: not proven; the engine estimates ${leanWords(entry.lean)} (${entry.label})`;
    }
    if (result && entry && result.best.includes(entry.column)) chip.classList.add("best");
    if (entry) chip.setAttribute("aria-label", chip.title);
    box.appendChild(chip);
  }
}

// The best line, drawn as numbered see-through stones on the board.
function renderLine() {
  for (const ghost of document.querySelectorAll("#board .ghost")) ghost.remove();
  const button = $("show-line");
  button.setAttribute("aria-pressed", String(state.showLine));
  button.textContent = state.showLine ? "Hide the best line" : "Show the best line";
  const result = state.result;
  if (!state.showLine || !result || !result.pv_proven || result.position !== state.pos || !state.position) return;
  const heights = [];
  for (let c = 0; c < state.width; c++) {
    let filled = 0;
    for (let r = 0; r < state.height; r++) if (state.position.grid[r][c]) filled++;
    heights.push(filled);
  }
  const columns = $("board").children;
  result.pv.forEach((column, index) => {
    const row = heights[column - 1]++; // from the bottom, 0-based
    const cell = columns[column - 1].children[state.height - 1 - row];
    const ghost = document.createElement("div");
    ghost.className = `ghost ${sideOfMove(state.position.moves + index).toLowerCase()}`;
    ghost.textContent = String(index + 1);
    ghost.setAttribute("aria-hidden", "true");
    cell.replaceChildren(ghost);
  });
}

async function refreshAnalysis() {
  clearAnalysis();
  if (!$("analysis-toggle").checked) {
    $("analysis").hidden = true;
    return;
  }
  $("analysis").hidden = false;
  const position = state.position;
  if (!position || position.over) return;
  renderAnalysis(null, false);
  await analyse();
}

// Ask until the analysis is proven or the rounds run out; ``state.result`` keeps the latest.
// Resolves with it (null if the position changed or the request failed).
async function analyse() {
  const controller = new AbortController();
  state.analysis = controller;
  const pos = state.pos;
  try {
    for (let round = 0; round < ANALYSIS_CAPS.length; round++) {
      const query = `${settingsQuery(pos)}&time_cap=${ANALYSIS_CAPS[round]}`;
      const result = await api(`/api/analyze?${query}`, { signal: controller.signal });
      if (state.analysis !== controller || state.pos !== pos) return null;
      state.result = result;
      const final = result.exact || round === ANALYSIS_CAPS.length - 1;
      if ($("analysis-toggle").checked) renderAnalysis(result, final);
      if (state.hint !== null) showHint(result);
      if (final) break;
    }
    state.analysis = null;
    return state.result;
  } catch (error) {
    if (error.name !== "AbortError") setMessage(error.message);
    return null;
  }
}

// The hint is the analysis's own best column (centre-most if several): they cannot disagree.
function showHint(result) {
  const centre = (state.width + 1) / 2;
  const best = [...result.best].sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre) || a - b);
  state.hint = best[0];
  render(state.position, null);
  const others = best.slice(1).sort((a, b) => a - b);
  let text = `Hint: column ${best[0]}.`;
  if (others.length) text += ` Column${others.length > 1 ? "s" : ""} ${others.join(", ")} ${others.length > 1 ? "are" : "is"} as good.`;
  if (!result.best_proven) text += " (Not proven best: the engine's estimate decides.)";
  setMessage(text, "info");
}

async function hint() {
  const position = state.position;
  if (!position || position.over || state.thinking || !isHuman(position.to_move)) return;
  if (state.result && state.result.position === state.pos) {
    state.hint = 0; // asked for: later rounds of the analysis update it
    showHint(state.result);
    return;
  }
  setMessage("Looking for the best column…", "info");
  state.hint = 0;
  if (!state.analysis) await analyse();
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
  if (!position) return;
  if (position.over) {
    setMessage("The game is over — start a new game or undo.");
    return;
  }
  if (column < 1 || column > position.width) {
    setMessage(`There is no column ${column} on this board.`);
    return;
  }
  if (!isHuman(position.to_move)) {
    setMessage("It is the computer's turn: press Retry to ask it again.");
    return;
  }
  if (!position.legal.includes(column)) {
    setMessage(`Column ${column} is full — choose another column.`);
    return;
  }
  setMessage("");
  state.hint = null;
  try {
    await showPosition(withMove(state.pos, column), column);
  } catch (error) {
    setMessage(error.message);
    return;
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
      if (state.thinking !== controller) return; // undone or a new game meanwhile
      state.thinking = null;
      state.engineError = error.message;
      setMessage(`${error.message} — press Retry to ask the computer again.`);
      render(state.position, null);
      return;
    }
    if (state.thinking !== controller) return;
    state.thinking = null;
    state.pos = result.pos;
    state.position = result.position;
    writeUrl();
    render(result.position, result.column);
    const over = result.position.over ? ` ${$("status-text").textContent}` : "";
    announce(`Computer played column ${result.column}.${over}`);
    refreshAnalysis();
  }
}

async function retry() {
  state.engineError = null;
  setMessage("");
  await computerMoves();
}

async function undo() {
  if (!canUndo()) return;
  queue.length = 0;
  if (state.thinking) {
    state.thinking.abort();
    state.thinking = null;
  }
  state.engineError = null;
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
  try {
    await showPosition(pos, null);
  } catch (error) {
    setMessage(error.message);
  }
}

async function startGame(settings, notices = []) {
  queue.length = 0;
  if (state.thinking) state.thinking.abort();
  state.thinking = null;
  state.engineError = null;
  Object.assign(state, settings);
  state.hint = null;
  state.position = null;
  $("status").dataset.state = "loading"; // nothing to play until the new board's position arrives
  $("status-text").textContent = "Loading…";
  setMessage("");
  // The board itself must exist before its position is asked for: check the size and connect.
  try {
    await api(`/api/position?${settingsQuery("")}`);
  } catch (error) {
    if (error.status !== 400 && error.status !== 422) {
      setMessage(error.message);
      return;
    }
    notices.push(`${state.width}×${state.height} connect ${state.connect} cannot be played (${error.message})`);
    Object.assign(state, { width: DEFAULTS.width, height: DEFAULTS.height, connect: DEFAULTS.connect, pos: "" });
  }
  buildBoard();
  try {
    await showPosition(state.pos, null);
  } catch (error) {
    notices.push(`${error.message} — starting from an empty board`);
    state.pos = "";
    try {
      await showPosition("", null);
    } catch (second) {
      setMessage(second.message);
      return;
    }
  }
  if (notices.length) setMessage(`The address was not usable: ${notices.join("; ")}. Playing with the defaults instead.`, "info");
  if (reviewFromAddress()) return; // ?review=1: the game is looked at, not played on
  await computerMoves();
}

// ----------------------------------------------------------- exports

async function exportJson() {
  const names = {
    first: state.play === "both" ? "Player 1" : isHuman("X") ? "You" : `Computer (${computerName()})`,
    second: state.play === "both" ? "Player 2" : isHuman("O") ? "You" : `Computer (${computerName()})`,
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
  try {
    await navigator.clipboard.writeText(field.value);
    setMessage(`Copied the moves: ${field.value || "(none yet)"}`, "info");
  } catch (error) {
    field.select(); // the person can copy the selection with the keyboard
    setMessage("Select the moves and copy them (the clipboard is not available here).", "info");
  }
}

// ------------------------------------------------------------- input

// Moves wait their turn: a key pressed while the computer thinks is played after its reply.
const queue = [];
let draining = false;

function enqueue(action) {
  queue.push(action);
  if (!draining) drain();
}

async function drain() {
  draining = true;
  while (queue.length) {
    const action = queue.shift();
    await action();
  }
  draining = false;
}

// Boards wider than 9: "1" then "2" within DIGIT_WAIT is column 12; "1" alone is column 1.
let digits = "";
let digitTimer = null;

function typeDigit(digit) {
  clearTimeout(digitTimer);
  digits += digit;
  const number = parseInt(digits, 10);
  const more = digits.length < 2 && number > 0 && number * 10 <= state.width;
  if (more) {
    setMessage(`Column ${number}…`, "info");
    digitTimer = setTimeout(commitDigits, DIGIT_WAIT);
  } else {
    commitDigits();
  }
}

function commitDigits() {
  clearTimeout(digitTimer);
  const number = parseInt(digits, 10);
  digits = "";
  enqueue(() => playColumn(number));
}

function focusColumn(step) {
  const buttons = [...$("board").children];
  const current = buttons.indexOf(document.activeElement);
  const index = current < 0 ? Math.floor(buttons.length / 2) : Math.min(buttons.length - 1, Math.max(0, current + step));
  buttons.forEach((button, i) => (button.tabIndex = i === index ? 0 : -1));
  buttons[index].focus();
}

// A field the person types into keeps its keys; the read-only Moves field does not.
function typing(target) {
  if (!target) return false;
  if (target.tagName === "TEXTAREA" || target.isContentEditable) return true;
  return target.tagName === "INPUT" && target.type === "text" && !target.readOnly;
}

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
    level: form.level.value === PERFECT ? PERFECT : parseInt(form.level.value, 10),
    play: form.play.value,
    pos: "",
  });
});

$("new-game").addEventListener("click", openNewGame);
$("undo").addEventListener("click", undo);
$("hint").addEventListener("click", hint);
$("retry").addEventListener("click", retry);
$("analysis-toggle").addEventListener("change", refreshAnalysis);
$("show-line").addEventListener("click", () => {
  state.showLine = !state.showLine;
  renderLine();
});
$("export-json").addEventListener("click", exportJson);
$("copy-moves").addEventListener("click", copyMoves);

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (reviewKey(event)) return;
  if ($("new-dialog").open || typing(event.target)) return;
  const key = event.key.toLowerCase();
  if (/^[0-9]$/.test(key)) {
    event.preventDefault();
    if (state.width > 9) typeDigit(key);
    else if (key !== "0") enqueue(() => playColumn(parseInt(key, 10)));
  } else if (key === "arrowleft" || key === "arrowright") {
    event.preventDefault();
    focusColumn(key === "arrowleft" ? -1 : 1);
  } else if (key === "u") undo();
  else if (key === "h") hint();
  else if (key === "n") openNewGame();
  else if (key === "a") {
    const toggle = $("analysis-toggle");
    toggle.checked = !toggle.checked;
    refreshAnalysis();
  }
});

startGame({}, readUrl());
