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
// A failed analysis request (429, 5xx, no answer) is asked again after these pauses (seconds, or the
// server's Retry-After if longer); after the last the page says there is no analysis now.
const ANALYSIS_BACKOFF = [1, 2, 4, 8];
// The exact solver holds boards of width * (height + 1) <= 128 cells (c4engine.geometry.SOLVER_BITS);
// "perfect" exists only there.
const SOLVER_CELLS = 128;
// The engine's estimate of this size reads as "slightly better" (as the server's lean scale).
const LEAN_SCALE = 15;
// Who this page is, for the server's fair shares: made up here, sent with every request, so
// people behind one address each have their own quota (see X-C4-Client in the API docs).
const CLIENT_TOKEN = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
const DIGIT_WAIT = 700; // ms to wait for a second digit on boards wider than 9

const $ = (id) => document.getElementById(id);

const state = {
  ...DEFAULTS,
  pos: "",
  position: null,
  thinking: null, // AbortController of the computer's move request
  unproven: false, // whether the perfect level's last move is not proven (the header says so)
  engineError: null, // why the computer's last move failed; Retry asks again
  analysis: null, // AbortController of the analysis requests
  result: null, // the latest analysis of the current position (the hint uses it too)
  hint: null,
  showLine: false,
  lineStep: 0, // how many stones of the best line are drawn (stepping through it)
  explaining: null, // AbortController of the explanation request
  explanation: null, // {pos, data} or {pos, error}: the coach's explanation of a position
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
  constructor(message, status, retryAfter = 0) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter; // seconds the server asked to wait (429, 503)
  }
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    if (signal) signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new DOMException("aborted", "AbortError"));
    });
  });
}

async function api(path, options = {}, retries = RETRIES) {
  const headers = { ...(options.headers || {}), "X-C4-Client": CLIENT_TOKEN };
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(path, { ...options, headers });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError("The server cannot be reached — is c4 serve still running?", 0);
    }
    if ((response.status === 503 || response.status === 429) && attempt < retries) {
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
      throw new ApiError(message, response.status, parseFloat(response.headers.get("Retry-After") || "0") || 0);
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

// An empty board of width x height in `board`: a button a column (numbered from 1, its cells from
// the top row down), `play(column)` on a click, and the column numbers in `labels`. The game's board
// and the puzzles' (puzzles.js) are built alike.
function buildColumns(board, labels, width, height, play) {
  board.replaceChildren();
  for (let column = 1; column <= width; column++) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "column";
    button.dataset.column = String(column);
    button.addEventListener("click", () => play(column));
    for (let row = height; row >= 1; row--) {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.row = String(row);
      button.appendChild(cell);
    }
    board.appendChild(button);
  }
  labels.replaceChildren();
  for (let column = 1; column <= width; column++) {
    const label = document.createElement("div");
    label.textContent = String(column);
    labels.appendChild(label);
  }
}

function buildBoard() {
  const board = $("board");
  document.documentElement.style.setProperty("--w", state.width);
  board.style.setProperty("--h", state.height);
  buildColumns(board, $("labels"), state.width, state.height, (column) => enqueue(() => playColumn(column)));
  const middle = String(Math.ceil(state.width / 2));
  for (const button of board.children) {
    button.tabIndex = button.dataset.column === middle ? 0 : -1; // one tab stop; arrows move
  }
  $("title-n").textContent = NUMBER_WORDS[state.connect] || String(state.connect);
  state.unproven = false;
  showSubtitle();
  clearAnalysis();
}

// The header: the board, and who plays -- "perfect play" only while the computer's moves are proven.
function showSubtitle() {
  const opponent = state.play === "both" ? "two players" : computerName();
  $("subtitle").textContent = `${state.width}×${state.height} · connect ${state.connect} · ${opponent}`;
}

// Whether the exact solver holds a board this size: "perfect" play exists only there.
function solverHolds(width, height) {
  return width * (height + 1) <= SOLVER_CELLS;
}

function computerName() {
  if (state.level === PERFECT) return state.unproven ? "perfect level, last move not proven" : "perfect play";
  return `level ${state.level} ${LEVEL_NAMES[state.level]}`;
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
      const fresh = !piece || piece.classList.contains("ghost") || piece.classList.contains("threat");
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

// An estimate on a person's scale: the engine's lean (-1..1) in words, then the chip's words
// from the longest to the shortest (see describeColumn).
function leanWords(lean) {
  if (lean >= 0.6) return ["better", [["≈ better"], ["≈++"]]];
  if (lean >= 0.2) return ["slightly better", [["≈ slightly", "better"], ["≈ a bit", "better"], ["≈+"]]];
  if (lean > -0.2) return ["about even", [["≈ about", "even"], ["≈ even"], ["≈="]]];
  if (lean > -0.6) return ["slightly worse", [["≈ slightly", "worse"], ["≈ a bit", "worse"], ["≈−"]]];
  return ["worse", [["≈ worse"], ["≈−−"]]];
}

// The engine's estimate with its sign, one decimal, and never "-0.0".
function formatEstimate(value) {
  const rounded = Math.round(value * 10) / 10;
  if (rounded === 0) return "0.0";
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded).toFixed(1)}`;
}

// What a column's proven bounds say: its chip's class, its words from the longest to the shortest
// (each a list of groups that stay on one line; none at all on the narrowest chips, which say it
// by colour and title), and the sentence for its title.
function describeColumn(entry) {
  const said = columnWords(entry);
  return { ...said, words: [...said.words, []] };
}

function columnWords(entry) {
  const { lower, upper } = entry;
  if (entry.proven) {
    if (entry.score === 0) return { kind: "draw", words: [["draw"], ["D"]], says: "draw (proven)" };
    const n = entry.moves;
    const [word, letter] = entry.score > 0 ? ["win", "W"] : ["loss", "L"];
    return { kind: word, words: [[word, `in ${n}`], [`${letter}${n}`], [letter]], says: `${word} in ${n} (proven)` };
  }
  const estimate = `the engine estimates ${leanWords(lean(entry))[0]} (${formatEstimate(entry.estimate)}), not proven`;
  if (lower > 0 || upper < 0) {
    const n = entry.moves_at_most;
    const [word, letter] = lower > 0 ? ["win", "W"] : ["loss", "L"];
    const says = `${word} in ${n} moves or fewer (proven); ${estimate}`;
    return { kind: `${word} bound`, words: [[word, `in ≤ ${n}`], [`${letter}≤${n}`], [letter]], says };
  }
  if (lower === 0) {
    return { kind: "atleast bound", words: [["at least", "a draw"], ["≥ draw"], ["≥D"]], says: `at least a draw (proven); ${estimate}` };
  }
  if (upper === 0) {
    return { kind: "drawloss bound", words: [["draw or", "loss"], ["≤ draw"], ["≤D"]], says: `draw or loss (proven); ${estimate}` };
  }
  return { kind: "unknown", words: [...leanWords(lean(entry))[1], ["≈"]], says: `estimate, not proven — ${estimate}` };
}

function lean(entry) {
  return Math.tanh(entry.estimate / LEAN_SCALE);
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
  if (state.explaining) state.explaining.abort();
  state.explaining = null;
  state.explanation = null;
  $("analysis").replaceChildren();
  $("analysis").classList.remove("loading");
  $("analysis-note").hidden = true;
  renderCoach();
  renderLine();
}

// Every playable column is proven.
function allProven(result) {
  return result.columns.every((entry) => !entry || entry.proven);
}

// Nothing more to ask for: every column proven and the best line found to the end of the game.
function settled(result) {
  const entry = result.columns[result.move - 1];
  return allProven(result) && entry.pv_complete;
}

// The chips' words, for each chip from the longest to the shortest (see fitChip).
const chipWords = new WeakMap();

// The longest words that fit the chip's width on at most two lines; the rest is in its title.
function fitChip(chip) {
  const variants = chipWords.get(chip);
  const words = chip.querySelector(".words");
  if (!variants || !words) return;
  for (const groups of variants) {
    const spans = groups.map((text) => span("w", text));
    words.replaceChildren(...spans.flatMap((group, i) => (i ? [" ", group] : [group])));
    const lines = new Set(spans.map((group) => group.offsetTop)).size;
    if (chip.scrollWidth <= chip.clientWidth && lines <= 2) return;
  }
}

function fitChips() {
  for (const chip of $("analysis").children) fitChip(chip);
}

// Phones turn and windows resize: fit the words again (after the layout, not inside it).
let fitWidth = 0;
new ResizeObserver(() => {
  const width = $("analysis").clientWidth;
  if (width === fitWidth) return;
  fitWidth = width;
  requestAnimationFrame(fitChips);
}).observe($("analysis"));

// The chips and the note above them.  ``waiting`` says why there is no (newer) answer yet:
// {text, retrying: bool} while a failed request waits to be asked again, or when it was given up.
function renderAnalysis(result, final, waiting = null) {
  const box = $("analysis");
  const note = $("analysis-note");
  note.hidden = !result && !waiting;
  $("show-line").hidden = !bestLine().length;
  $("retry-analysis").hidden = !waiting || waiting.retrying;
  if (result) {
    const side = markOf(state.position.to_move);
    let how = "proven";
    if (!allProven(result)) how = `≈: the engine's estimate, ${final ? "not proven in the time allowed" : "not proven yet — analysing deeper…"}`;
    let text = `If ${side} plays each column (${how}):`;
    if (!result.best_proven) text += " The outlined column is the best found so far, not proven best.";
    if (waiting) text += ` ${waiting.text}`;
    $("analysis-text").textContent = text;
  } else if (waiting) {
    $("analysis-text").textContent = waiting.text;
  }
  box.replaceChildren();
  box.classList.toggle("loading", !result);
  box.dataset.final = String(!!result && final);
  for (let c = 0; c < state.width; c++) {
    const chip = document.createElement("div");
    const entry = result ? result.columns[c] : null;
    chip.dataset.column = String(c + 1);
    if (!result) {
      chip.className = waiting ? `chip ${waiting.retrying ? "retrying" : "none"}` : "chip";
      chip.textContent = waiting ? (waiting.retrying ? "↻" : "—") : "…";
      if (waiting) chip.title = waiting.text;
    } else if (!entry) {
      chip.className = "chip full";
      chip.title = "full";
    } else {
      const { kind, words, says } = describeColumn(entry);
      chip.className = `chip ${kind}`;
      if (kind === "unknown") {
        const bar = span("bar", "");
        const fill = span("fill", "");
        fill.style.setProperty("--lean", String(lean(entry)));
        if (lean(entry) < 0) fill.classList.add("worse");
        bar.appendChild(fill);
        chip.appendChild(bar);
      }
      chip.appendChild(span("words", ""));
      chipWords.set(chip, words);
      chip.title = `Column ${entry.column}: ${says}`;
      if (result.best.includes(entry.column)) chip.classList.add("best");
      if (result.best.includes(entry.column) && !result.best_proven) chip.classList.add("unproven");
    }
    if (entry) chip.setAttribute("aria-label", chip.title);
    box.appendChild(chip);
  }
  fitChips();
}

// The best line: the line of the hinted (recommended) column, when that column is proven.
function bestLine() {
  const result = state.result;
  if (!result || result.pos !== state.pos || !state.position) return [];
  const entry = result.columns[hintColumns(result)[0] - 1];
  return entry && entry.proven && entry.pv ? entry.pv : [];
}

// The best line, drawn as numbered see-through stones on the board: the first ``lineStep``.
function renderLine() {
  for (const ghost of document.querySelectorAll("#board .ghost")) ghost.remove();
  const button = $("show-line");
  button.setAttribute("aria-pressed", String(state.showLine));
  button.textContent = state.showLine ? "Hide the best line" : "Show the best line";
  const line = bestLine();
  $("line-nav").hidden = !state.showLine || !line.length;
  if (!state.showLine || !line.length) {
    renderThreats();
    return;
  }
  state.lineStep = Math.min(Math.max(state.lineStep, 1), line.length);
  const complete = state.result.columns[line[0] - 1].pv_complete;
  $("line-where").textContent = `stone ${state.lineStep} of ${line.length}${complete ? "" : " (so far: not yet to the end)"}`;
  $("line-back").disabled = state.lineStep <= 1;
  $("line-forward").disabled = state.lineStep >= line.length;
  const heights = [];
  for (let c = 0; c < state.width; c++) {
    let filled = 0;
    for (let r = 0; r < state.height; r++) if (state.position.grid[r][c]) filled++;
    heights.push(filled);
  }
  const columns = $("board").children;
  line.slice(0, state.lineStep).forEach((column, index) => {
    const row = heights[column - 1]++; // from the bottom, 0-based
    const cell = columns[column - 1].children[state.height - 1 - row];
    const ghost = document.createElement("div");
    ghost.className = `ghost ${sideOfMove(state.position.moves + index).toLowerCase()}`;
    if (index + 1 === state.lineStep && state.lineStep < line.length) ghost.classList.add("current");
    ghost.textContent = String(index + 1);
    ghost.setAttribute("aria-hidden", "true");
    cell.replaceChildren(ghost);
  });
  renderThreats();
}

function stepLine(step) {
  state.lineStep += step;
  renderLine();
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
  const pos = state.pos;
  // The explanation is asked for once the first analysis round has answered: one request of this
  // page at a time in the server's analysis lane, the chips first.
  let explained = null;
  const result = await analyse(() => {
    explained = explainPosition(ANALYSIS_CAPS[0]);
  });
  if (explained) await explained;
  // The analysis proved what the explanation's first solve could not: the worker's solver keeps what
  // it learnt, so asking again gives the explanation its proven score (and a proof it confirms).
  const said = state.explanation;
  if (result && allProven(result) && state.pos === pos && said && said.pos === pos && said.data && !(said.data.score && said.data.score.proven)) {
    await explainPosition(ANALYSIS_CAPS[ANALYSIS_CAPS.length - 1]);
  }
}

// ------------------------------------------------------ the explanation

// The coach's explanation of the current position (GET /api/explain, within ``cap`` seconds for
// its score): the threats drawn on the board, the sentences under it.  The page adds nothing of its
// own: every word is the server's, each from a checked fact.
async function explainPosition(cap) {
  if (state.explaining) state.explaining.abort();
  const controller = new AbortController();
  state.explaining = controller;
  const pos = state.pos;
  try {
    const data = await api(`/api/explain?${settingsQuery(pos)}&time=${cap}`, { signal: controller.signal });
    if (state.explaining !== controller || state.pos !== pos) return;
    state.explanation = { pos, data };
  } catch (error) {
    if (error.name === "AbortError" || state.explaining !== controller) return;
    // a later round may have it; meanwhile say why there is none (keep an earlier one of this position)
    if (!state.explanation || state.explanation.pos !== pos) state.explanation = { pos, error: error.message };
  } finally {
    if (state.explaining === controller) state.explaining = null;
  }
  renderCoach();
  renderThreats();
}

function currentExplanation() {
  const said = state.explanation;
  if (!said || said.pos !== state.pos || !$("analysis-toggle").checked) return null;
  return document.body.classList.contains("reviewing") ? null : said;
}

// The sentences under the board, with the legend of the threats' marks.
function renderCoach() {
  const said = currentExplanation();
  $("coach").hidden = !said;
  const list = $("coach-sentences");
  list.replaceChildren();
  if (!said) return;
  const sentences = said.data ? said.data.sentences : [`No explanation now (${said.error}).`];
  for (const text of sentences) {
    const item = document.createElement("li");
    item.textContent = text;
    list.appendChild(item);
  }
  $("coach").dataset.pos = said.pos;
  $("coach").dataset.proof = said.data && said.data.proof ? said.data.proof.claim : "";
  $("coach-legend").hidden = !said.data || !said.data.threats.length;
}

// Every threat on its empty cell: the letter says whose (X, O, or XO for both), the shape the row's
// parity -- round for an odd row, square for an even one -- so no colour is needed to read it.
function renderThreats() {
  for (const mark of document.querySelectorAll("#board .threat")) mark.remove();
  const said = currentExplanation();
  if (!said || !said.data) return;
  const cells = new Map();
  for (const threat of said.data.threats) {
    const key = `${threat.column},${threat.row}`;
    const entry = cells.get(key) || { ...threat, players: [], allUseless: true };
    entry.players.push(threat.player);
    entry.allUseless = entry.allUseless && threat.useless;
    cells.set(key, entry);
  }
  const columns = $("board").children;
  for (const entry of cells.values()) {
    const button = columns[entry.column - 1];
    const cell = button && button.children[state.height - entry.row];
    if (!cell || cell.firstElementChild) continue; // a stone of the best line is drawn there
    const letters = entry.players.map((player) => (player === 1 ? "X" : "O")).join("");
    const owner = entry.players.length > 1 ? "both" : letters.toLowerCase();
    const mark = document.createElement("div");
    mark.className = `threat ${entry.parity} ${owner}${entry.allUseless ? " useless" : ""}`;
    mark.textContent = letters;
    mark.dataset.column = String(entry.column);
    mark.dataset.row = String(entry.row);
    mark.setAttribute("aria-hidden", "true"); // the sentences say it in words
    const whose = letters.split("").join(" and ");
    mark.title = `${entry.parity} threat of ${whose} (row ${entry.row})${entry.playable ? ", playable now" : ""}${entry.allUseless ? ", useless" : ""}`;
    cell.appendChild(mark);
  }
}

// A request the server may answer later: no answer at all, too busy (429, 503) or failed (5xx).
function worthRetrying(error) {
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

// One round of the analysis, asked again with backoff while it fails in a way worth retrying;
// the chips and the note say so meanwhile.
async function analysisRound(pos, cap, controller) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api(`/api/analyze?${settingsQuery(pos)}&time=${cap}`, { signal: controller.signal }, 0);
    } catch (error) {
      if (error.name === "AbortError" || !worthRetrying(error) || attempt >= ANALYSIS_BACKOFF.length) throw error;
      const wait = Math.max(ANALYSIS_BACKOFF[attempt], error.retryAfter);
      const text = `No answer yet (${error.message}) — asking again in ${wait} s…`;
      if ($("analysis-toggle").checked) renderAnalysis(state.result, false, { text, retrying: true });
      if (state.hint !== null) setMessage(`Looking for the best column… ${text}`, "info");
      await sleep(wait * 1000, controller.signal);
    }
  }
}

// Ask until the analysis is proven or the rounds run out; ``state.result`` keeps the latest.
// Resolves with it (null if the position changed, or nothing could be had).  A hint asked for
// meanwhile always ends: the best column, or "no analysis now".  ``firstAnswered`` is called once
// the first round is drawn.
async function analyse(firstAnswered = null) {
  const controller = new AbortController();
  state.analysis = controller;
  const pos = state.pos;
  let failure = null;
  try {
    for (let round = 0; round < ANALYSIS_CAPS.length; round++) {
      const result = await analysisRound(pos, ANALYSIS_CAPS[round], controller);
      if (state.analysis !== controller || state.pos !== pos) return null;
      state.result = Object.assign(result, { pos }); // the moves it answers, as this page wrote them
      const final = settled(result) || round === ANALYSIS_CAPS.length - 1;
      if ($("analysis-toggle").checked) renderAnalysis(result, final);
      if (state.hint !== null) showHint(result);
      if (round === 0 && firstAnswered) firstAnswered();
      if (final) break;
    }
  } catch (error) {
    if (error.name === "AbortError" || state.analysis !== controller) return null;
    failure = error;
  }
  state.analysis = null;
  if (failure) analysisFailed(failure);
  return state.result;
}

// The server gave no (newer) analysis: keep what there is, say so, offer to ask again.
function analysisFailed(error) {
  const text = `No analysis now (${error.message}) — retry.`;
  if ($("analysis-toggle").checked) renderAnalysis(state.result, true, { text, retrying: false });
  if (state.hint === null) return;
  if (state.result) showHint(state.result);
  else setMessage(`No analysis now — retry (H): ${error.message}`);
}

// The hint's columns: the analysis's recommended column (``move``, the most central of ``best``),
// then the rest of ``best``.
function hintColumns(result) {
  return [result.move, ...result.best.filter((column) => column !== result.move)];
}

// The hint is the analysis's own recommended column: they cannot disagree.
function showHint(result) {
  const best = hintColumns(result);
  state.hint = best[0];
  render(state.position, null);
  const others = best.slice(1).sort((a, b) => a - b);
  let text = `Hint: column ${best[0]}.`;
  const are = others.length > 1 ? "are" : "is";
  if (others.length) text += ` Column${others.length > 1 ? "s" : ""} ${others.join(", ")} ${result.best_proven ? are : `may be`} as good.`;
  if (!result.best_proven) text += " (Not proven: the best the analysis has found so far.)";
  setMessage(text, "info");
}

async function hint() {
  const position = state.position;
  if (!position || position.over || state.thinking || !isHuman(position.to_move)) return;
  if (state.result && state.result.pos === state.pos) {
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
    // the perfect level's move is proven or says it is not: early on a big board no proof comes in time
    const unproven = state.level === PERFECT && !result.proven;
    state.unproven = unproven;
    showSubtitle();
    announce(`Computer played column ${result.column}${unproven ? " (not proven: best estimate)" : ""}.${over}`);
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
  if (state.level === PERFECT && !solverHolds(state.width, state.height)) {
    notices.push(`perfect play needs a board the exact solver holds (width × (height + 1) ≤ ${SOLVER_CELLS}); level 7 plays instead`);
    state.level = 7;
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
  offerPerfect();
  $("new-dialog").showModal();
}

// The level list offers "perfect" only for a board the exact solver holds.
function offerPerfect() {
  const form = $("new-form");
  const [width, height] = form.size.value.split("x").map((n) => parseInt(n, 10));
  const perfect = form.level.querySelector(`option[value="${PERFECT}"]`);
  const held = solverHolds(width, height);
  perfect.hidden = perfect.disabled = !held;
  if (!held && form.level.value === PERFECT) form.level.value = "7";
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
$("new-form").size.addEventListener("change", offerPerfect);
$("undo").addEventListener("click", undo);
$("hint").addEventListener("click", hint);
$("retry").addEventListener("click", retry);
$("analysis-toggle").addEventListener("change", refreshAnalysis);
$("show-line").addEventListener("click", () => {
  state.showLine = !state.showLine;
  state.lineStep = bestLine().length; // the whole line first; the arrows step through it
  renderLine();
});
$("line-back").addEventListener("click", () => stepLine(-1));
$("line-forward").addEventListener("click", () => stepLine(1));
$("retry-analysis").addEventListener("click", () => {
  if (!state.analysis) refreshAnalysis();
});
$("export-json").addEventListener("click", exportJson);
$("copy-moves").addEventListener("click", copyMoves);

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (reviewKey(event)) return;
  if (puzzleKey(event)) return;
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
