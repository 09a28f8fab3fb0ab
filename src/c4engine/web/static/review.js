// The Review view: every move of the game scored by the server (POST /api/review), drawn as an
// evaluation graph and a move list with the marks ?! ? ??; stepped by click, the arrow keys and
// the browser's Back/Forward (each step is a history entry: a shared link opens on its move), and
// on a marked move the better line drawn on the board as numbered stones.
//
// Loaded before app.js, so it reads the address before the game rewrites it; it uses app.js's
// helpers ($, state, api, render, ...) only once the page runs. app.js calls reviewFromAddress()
// when a game starts, reviewKey() for every key, and shows the Review button when a game is over.
"use strict";

const REVIEW_WORDS = {
  best: "the best move",
  inaccuracy: "an inaccuracy",
  mistake: "a mistake",
  blunder: "a blunder",
  "not proven": "not proven",
  "not chosen": "not chosen (a random opening)",
};
const SVG_NS = "http://www.w3.org/2000/svg";
// The graph's drawing space (the SVG scales it to the page's width).
const GRAPH = { width: 600, height: 170, left: 60, right: 8, top: 8, bottom: 8, drawHalf: 7 };
const LINE_SHOWN = 10; // stones of a better line drawn on the board; the rest is in words
const REVIEW_ROUNDS = [3, 3]; // seconds a ply when asking again for what the first review left unproven

const reviewAddress = new URLSearchParams(location.search); // before app.js replaces the address

const review = {
  open: false,
  data: null, // the server's review of ``key``
  plies: [], // one entry a move: the server's ply, or null where the review did not reach
  key: "",
  ply: 0,
  controller: null, // AbortController of the review request
  pendingFromAddress: reviewAddress.get("review") === "1",
};

// ------------------------------------------------------------ helpers

function reviewKeyOf(moves) {
  return `${moves}|${state.width}x${state.height}|${state.connect}`;
}

function reviewColumns(moves) {
  if (!moves) return [];
  return (moves.includes(",") ? moves.split(",") : moves.split("")).map((token) => parseInt(token, 10));
}

function playerMark(player) {
  return player === 1 ? "red ✕" : "yellow ◯";
}

function playerSide(player) {
  return player === 1 ? "x" : "o";
}

// The proven bounds [lower, upper] of the position after ``ply`` moves, from the first player's view
// (solver scale), or null where the review did not reach.
function firstPlayerBounds(ply) {
  if (ply === 0) {
    const first = review.plies[0];
    return first ? [first.before_lower, first.before_upper] : null;
  }
  const entry = review.plies[ply - 1];
  if (!entry) return null;
  return entry.player === 1 ? [entry.lower, entry.upper] : [-entry.upper, -entry.lower];
}

function svg(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

function reviewUrl(ply) {
  const params = new URLSearchParams(location.search);
  params.set("review", "1");
  params.set("ply", String(ply));
  return `${location.pathname}?${params.toString()}`;
}

function gameUrl() {
  const params = new URLSearchParams(location.search);
  params.delete("review");
  params.delete("ply");
  return `${location.pathname}?${params.toString()}`;
}

// ------------------------------------------------------------ the graph

function drawGraph() {
  const { width, height, left, right, top, bottom, drawHalf } = GRAPH;
  const plies = review.plies.length;
  const step = (width - left - right) / Math.max(1, plies);
  const mid = (top + height - bottom) / 2;
  const band = mid - drawHalf - top;
  const bounds = [];
  for (let ply = 0; ply <= plies; ply++) bounds.push(firstPlayerBounds(ply));
  const exact = bounds.filter((b) => b && b[0] === b[1]).map((b) => Math.abs(b[0]));
  const largest = Math.max(1, ...exact);
  const x = (ply) => left + ply * step;
  // Wins above the draw band, losses below; a quicker result lies further from the middle.
  const y = (value) => {
    if (value === 0) return mid;
    const offset = drawHalf + band * (0.3 + 0.7 * Math.min(1, Math.abs(value) / largest));
    return value > 0 ? mid - offset : mid + offset;
  };

  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "review-svg",
    role: "img",
    "aria-label": "The evaluation graph: the result from the first player's view after every move",
  });
  const inner = width - left - right;
  root.append(
    svg("rect", { x: left, y: top, width: inner, height: band, class: "band win" }),
    svg("rect", { x: left, y: mid - drawHalf, width: inner, height: 2 * drawHalf, class: "band draw" }),
    svg("rect", { x: left, y: mid + drawHalf, width: inner, height: band, class: "band loss" }),
    svg("text", { x: left - 6, y: top + band / 2, class: "band-label" }, "✕ wins"),
    svg("text", { x: left - 6, y: mid, class: "band-label" }, "draw"),
    svg("text", { x: left - 6, y: mid + drawHalf + band / 2, class: "band-label" }, "◯ wins"),
  );
  // The line through the proven values; where a value is only bounded, a grey bar over the
  // bounds and a gap in the line; where the review did not reach, nothing.
  let path = "";
  let pen = false;
  bounds.forEach((bound, ply) => {
    if (bound && bound[0] === bound[1]) {
      path += `${pen ? "L" : "M"}${x(ply).toFixed(1)},${y(bound[0]).toFixed(1)}`;
      pen = true;
      return;
    }
    pen = false;
    if (!bound) return;
    const high = y(bound[1]);
    root.appendChild(
      svg("rect", {
        x: x(ply) - Math.min(step, 12) / 2,
        y: high,
        width: Math.min(step, 12),
        height: Math.max(2, y(bound[0]) - high),
        class: "unproven",
        "data-ply": ply,
      }),
    );
  });
  root.appendChild(svg("path", { d: path, class: "curve" }));
  for (const entry of review.plies) {
    if (!entry || !entry.mark) continue;
    const [low, high] = bounds[entry.ply];
    const dot = svg("circle", {
      cx: x(entry.ply),
      cy: (y(low) + y(high)) / 2,
      r: 6,
      class: `mark ${entry.verdict}`,
      "data-ply": entry.ply,
    });
    dot.appendChild(svg("title", {}, plyTitle(entry.ply)));
    root.appendChild(dot);
  }
  root.appendChild(svg("line", { x1: x(0), x2: x(0), y1: top, y2: height - bottom, class: "cursor" }));
  // One target a ply, for the pointer: click to go there, hover for what it was.
  for (let ply = 0; ply <= plies; ply++) {
    const target = svg("rect", { x: x(ply) - step / 2, y: 0, width: step, height, class: "target", "data-ply": ply });
    target.appendChild(svg("title", {}, plyTitle(ply)));
    root.appendChild(target);
  }
  root.addEventListener("click", (event) => {
    const ply = event.target.getAttribute("data-ply");
    if (ply !== null) showPly(parseInt(ply, 10), "push");
  });
  const box = $("review-graph");
  box.replaceChildren(root);
  box.dataset.x0 = String(left);
  box.dataset.step = String(step);
}

function plyTitle(ply) {
  if (ply === 0) {
    const first = review.plies[0];
    return `The start: red ✕ ${first ? first.words_before : "not reviewed"}`;
  }
  const entry = review.plies[ply - 1];
  const column = reviewColumns(review.data.moves)[ply - 1];
  const side = ply % 2 === 1 ? "✕" : "◯";
  if (!entry) return `Move ${ply}: ${side} ${column} — not reviewed`;
  return `Move ${ply}: ${side} ${column}${entry.mark} — ${verdictWords(entry)} (${entry.words_after})`;
}

function verdictWords(entry) {
  return `${REVIEW_WORDS[entry.verdict]}${entry.or_worse ? " or worse" : ""}`;
}

function moveGraphCursor(ply) {
  const cursor = document.querySelector("#review-graph .cursor");
  if (!cursor) return;
  const box = $("review-graph");
  const at = parseFloat(box.dataset.x0) + ply * parseFloat(box.dataset.step);
  cursor.setAttribute("x1", String(at));
  cursor.setAttribute("x2", String(at));
}

// ------------------------------------------------------ the move list

function drawMoves() {
  const list = $("review-moves");
  list.replaceChildren();
  const columns = reviewColumns(review.data.moves);
  columns.forEach((column, index) => {
    const ply = index + 1;
    const entry = review.plies[index];
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `review-move ${entry ? entry.verdict.replace(" ", "-") : "not-reviewed"}`;
    button.dataset.ply = String(ply);
    const dot = document.createElement("span");
    dot.className = `mini-piece ${playerSide(2 - (ply % 2))}`;
    dot.setAttribute("aria-hidden", "true");
    button.append(`${ply}.`, dot, `${column}${entry ? entry.mark : ""}`);
    button.title = plyTitle(ply);
    button.setAttribute("aria-label", button.title);
    button.addEventListener("click", () => showPly(ply, "push"));
    item.appendChild(button);
    list.appendChild(item);
  });
}

function drawSummary() {
  const { summary } = review.data;
  const box = $("review-summary");
  box.replaceChildren();
  const result = document.createElement("p");
  result.className = "result";
  result.textContent = `Result: ${review.data.result_words.replace("X", "red ✕").replace("O", "yellow ◯")}`;
  box.appendChild(result);
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const title of ["", "accuracy", "?!", "?", "??", "not proven"]) {
    const cell = document.createElement("th");
    cell.textContent = title;
    head.appendChild(cell);
  }
  const body = table.createTBody();
  for (const side of [summary.first, summary.second]) {
    const row = body.insertRow();
    row.dataset.player = String(side.player);
    const name = document.createElement("th");
    name.textContent = playerMark(side.player);
    row.appendChild(name);
    const accuracy = side.accuracy === null ? "—" : `${Math.round(100 * side.accuracy)} %`;
    for (const text of [accuracy, side.inaccuracies, side.mistakes, side.blunders, side.not_proven]) {
      row.insertCell().textContent = String(text);
    }
    // Too few proven moves say nothing of a side's accuracy: the dash says why on hover.
    if (side.accuracy === null) row.cells[1].title = `not enough proven moves (${side.proven} proven, 5 needed)`;
  }
  box.appendChild(table);
  const line = document.createElement("p");
  line.className = "turning";
  if (!summary.turning_points.length) {
    line.textContent = review.data.proven
      ? "The result never changed: no turning point."
      : "No proven turning point (not every move is proven).";
  } else {
    line.append("Turning points: ");
    summary.turning_points.forEach((ply, index) => {
      if (index) line.append(", ");
      const link = document.createElement("button");
      link.type = "button";
      link.className = "link";
      link.textContent = `move ${ply}`;
      link.addEventListener("click", () => showPly(ply, "push"));
      line.appendChild(link);
    });
  }
  box.appendChild(line);
  // Every mistake and blunder with the coach's reasons, each a step to its position.
  const reasoned = review.plies.filter((entry) => entry && entry.why);
  if (reasoned.length) {
    const list = document.createElement("ul");
    list.className = "review-whys";
    list.setAttribute("aria-label", "Why each mistake and blunder cost what it did");
    for (const entry of reasoned) {
      const item = document.createElement("li");
      item.dataset.ply = String(entry.ply);
      const link = document.createElement("button");
      link.type = "button";
      link.className = "link";
      link.textContent = `move ${entry.ply}${entry.mark}`;
      link.addEventListener("click", () => showPly(entry.ply, "push"));
      item.append(link, ` ${verdictWords(entry)}: ${entry.why}`);
      list.appendChild(item);
    }
    box.appendChild(list);
  }
  if (!review.data.complete) {
    const stopped = document.createElement("p");
    stopped.className = "turning";
    const first = review.plies.findIndex((entry) => entry) + 1;
    stopped.textContent = `The server's time for a review ran out: moves 1 to ${first - 1} were not reviewed.`;
    box.appendChild(stopped);
  }
}

// -------------------------------------------------------- the board

// The board after ``stones`` moves of the game; ``line`` (columns) drawn as numbered see-through stones.
function drawReviewBoard(moves, stones, line, played) {
  const columns = $("board").children;
  const heights = Array(state.width).fill(0);
  for (const button of columns) {
    button.classList.remove("hint", "played");
    for (const cell of button.children) cell.replaceChildren();
  }
  moves.slice(0, stones).forEach((column, index) => {
    const row = heights[column - 1]++;
    const piece = document.createElement("div");
    piece.className = `piece ${index % 2 === 0 ? "x" : "o"}`;
    if (index === stones - 1) piece.classList.add("last");
    piece.setAttribute("aria-hidden", "true");
    columns[column - 1].children[state.height - 1 - row].appendChild(piece);
  });
  const final = state.position && stones === moves.length && state.position.pos === review.data.moves;
  if (final) {
    for (const cell of state.position.winning_cells) {
      const piece = columns[cell.column - 1].children[state.height - cell.row].firstElementChild;
      if (piece) piece.classList.add("win");
    }
  }
  line.forEach((column, index) => {
    const row = heights[column - 1]++;
    const ghost = document.createElement("div");
    ghost.className = `ghost ${(stones + index) % 2 === 0 ? "x" : "o"}`;
    ghost.textContent = String(index + 1);
    ghost.setAttribute("aria-hidden", "true");
    columns[column - 1].children[state.height - 1 - row].appendChild(ghost);
  });
  if (played) columns[played - 1].classList.add("played");
}

// ----------------------------------------------------------- stepping

// Show the position after ``ply`` moves; a marked move shows the position before it, the better
// line drawn on it. ``how``: "push" a history entry, "replace" the current one, or "none"
// (Back/Forward brought us here).
function showPly(ply, how) {
  if (!review.data) return;
  if (!relearn.revealing) retryStop(); // stepping through the game ends a retry
  const last = review.plies.length;
  ply = Math.max(0, Math.min(last, Number.isFinite(ply) ? ply : last));
  review.ply = ply;
  const moves = reviewColumns(review.data.moves);
  const entry = ply > 0 ? review.plies[ply - 1] : null;
  let note = "";
  if (entry && entry.mark) {
    const line = entry.pv.length ? entry.pv : entry.best.slice(0, 1);
    drawReviewBoard(moves, ply - 1, line.slice(0, LINE_SHOWN), entry.column);
    note = `Before move ${ply}: column ${entry.column} (outlined) was played; numbered stones show `;
    if (line.length > LINE_SHOWN) note += `the first ${LINE_SHOWN} moves of the better line: ${line.join(" ")}.`;
    else note += line.length > 1 ? `the better line${entry.pv_complete ? ", to the end" : ""}.` : "the better move.";
  } else {
    drawReviewBoard(moves, ply, [], null);
  }
  $("review-text").textContent = describePly(ply);
  $("review-board-note").textContent = note;
  // A mistake's or a blunder's reasons: the coach's, each sentence from a checked fact.
  const why = entry && entry.why ? entry.why : "";
  $("review-why").hidden = !why;
  $("review-why").textContent = why ? `Why: ${why}` : "";
  for (const button of document.querySelectorAll("#review-moves .review-move")) {
    const current = parseInt(button.dataset.ply, 10) === ply;
    button.classList.toggle("current", current);
    if (current) {
      button.setAttribute("aria-current", "step");
      button.scrollIntoView({ block: "nearest", inline: "nearest" });
    } else button.removeAttribute("aria-current");
  }
  $("review-first").disabled = $("review-prev").disabled = ply === 0;
  $("review-next").disabled = $("review-last").disabled = ply === last;
  moveGraphCursor(ply);
  $("review").dataset.ply = String(ply);
  if (how === "push") history.pushState({ review: ply }, "", reviewUrl(ply));
  else if (how === "replace") history.replaceState({ review: ply }, "", reviewUrl(ply));
}

function describePly(ply) {
  const total = review.plies.length;
  if (ply === 0) {
    const first = review.plies[0];
    const value = first ? first.words_before : "not reviewed";
    return `The start, ${total} moves to review — red ✕ to move: ${value} with best play.`;
  }
  const entry = review.plies[ply - 1];
  const column = reviewColumns(review.data.moves)[ply - 1];
  const player = 2 - (ply % 2);
  let text = `Move ${ply}: ${playerMark(player)} played column ${column}`;
  if (!entry) return `${text} — not reviewed (the server's time for a review ran out).`;
  text += `${entry.mark} — `;
  if (entry.verdict === "not proven") {
    return `${text}not proven in the time allowed: ${entry.words_after} (the best: ${entry.words_before}); no mark.`;
  }
  if (entry.verdict === "best") return `${text}${REVIEW_WORDS.best} (${entry.words_after}).`;
  let better = entry.best.length > 1 ? `columns ${entry.best.join(", ")}` : `column ${entry.best[0]}`;
  if (entry.best_complete === false) better += " (not every column was compared in the time)";
  return `${text}${verdictWords(entry)}: ${entry.words_before} → ${entry.words_after}. Better: ${better}.`;
}

// ------------------------------------------------------ open and close

async function openReview(ply, how) {
  const moves = state.pos;
  review.open = true;
  document.body.classList.add("reviewing");
  $("review").hidden = false;
  clearAnalysis();
  setMessage("");
  const key = reviewKeyOf(moves);
  if (review.data && review.key === key) {
    showPly(ply === null ? review.plies.length : ply, how);
    if (!review.data.proven && !review.controller) proveMore(key);
    return;
  }
  if (review.controller) review.controller.abort();
  review.data = null;
  $("review").dataset.state = "loading";
  $("review-retry").hidden = true;
  $("review-text").textContent = `Reviewing ${tokens(moves).length} moves: every position is solved…`;
  $("review-graph").replaceChildren();
  $("review-moves").replaceChildren();
  $("review-summary").replaceChildren();
  $("review-board-note").textContent = "";
  const data = await askReview(moves, null);
  if (!data) return;
  showReview(data, key);
  if (!review.open) return; // closed while it was under way
  showPly(ply === null ? review.plies.length : ply, how);
  if (!data.proven) proveMore(key);
}

// POST /api/review; null when aborted or failed (the view then says why and offers to try again).
async function askReview(moves, timePerPly) {
  const controller = new AbortController();
  review.controller = controller;
  $("review-progress").hidden = false;
  const body = { moves, size: `${state.width}x${state.height}`, connect: state.connect };
  if (timePerPly !== null) body.time_per_ply = timePerPly;
  try {
    return await api("/api/review", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
  } catch (error) {
    if (review.controller !== controller || error.name === "AbortError") return null;
    if (review.data) {
      setMessage(`Could not prove more of the review: ${error.message}`);
      return null;
    }
    $("review").dataset.state = "failed";
    $("review-text").textContent = `The review failed: ${error.message}`;
    $("review-retry").hidden = false;
    return null;
  } finally {
    if (review.controller === controller) {
      review.controller = null;
      $("review-progress").hidden = true;
    }
  }
}

function showReview(data, key) {
  review.data = data;
  review.key = key;
  review.plies = reviewColumns(data.moves).map(() => null);
  for (const entry of data.plies) review.plies[entry.ply - 1] = entry;
  drawGraph();
  drawMoves();
  drawSummary();
  retryOffer();
  $("review").dataset.state = data.proven ? "ready" : "proving";
}

// Not every move proven: ask again with the server's longest time a ply (its solver keeps what it
// learnt, so the proven plies come back at once and the time goes to the others), while the view
// already shows what is proven; stop once a round proves nothing more (a board too big for the
// solver). The last answer stands, proven or not.
async function proveMore(key) {
  const unproven = () => review.plies.filter((entry) => !entry || !entry.proven).length;
  for (let round = 0; round < REVIEW_ROUNDS.length; round++) {
    const before = unproven();
    $("review-proving").textContent = `proving ${before} more move${before === 1 ? "" : "s"}…`;
    const data = await askReview(review.data.moves, REVIEW_ROUNDS[round]);
    if (!data || review.key !== key) break;
    showReview(data, key);
    if (review.open) showPly(review.ply, "none");
    if (data.proven || unproven() >= before) break;
  }
  $("review-proving").textContent = "";
  if (review.data && review.key === key && $("review").dataset.state === "proving") {
    $("review").dataset.state = "ready";
  }
}

function closeReview(how) {
  if (!review.open) return;
  review.open = false;
  retryStop();
  if (review.controller) review.controller.abort();
  review.controller = null;
  document.body.classList.remove("reviewing");
  $("review").hidden = true;
  for (const button of $("board").children) button.classList.remove("played");
  if (how === "push") history.pushState(null, "", gameUrl());
  if (state.position) {
    render(state.position, null);
    refreshAnalysis();
    computerMoves(); // a game opened for review from the address may be the computer's turn
  }
}

// ----------------------------------------------------------- hooks

// Called by app.js once a game has started: opens the review the address asked for (once).
function reviewFromAddress() {
  if (!review.pendingFromAddress) return false;
  review.pendingFromAddress = false;
  const ply = reviewAddress.get("ply");
  openReview(ply !== null && /^\d+$/.test(ply) ? parseInt(ply, 10) : null, "replace");
  return true;
}

// Called by app.js for every key; true when the review used it (the game must not see it).
function reviewKey(event) {
  if (!review.open) return false;
  const key = event.key;
  if (key === "Escape") closeReview("push");
  else if (review.data && (key === "ArrowLeft" || key === "ArrowRight")) {
    showPly(review.ply + (key === "ArrowLeft" ? -1 : 1), "push");
  } else if (review.data && (key === "Home" || key === "End")) {
    showPly(key === "Home" ? 0 : review.plies.length, "push");
  } else if (key === "Tab" || key === "Enter" || key === " ") {
    return false; // buttons in the review keep the keyboard
  }
  event.preventDefault();
  return true;
}

function reviewOnHistory() {
  const params = new URLSearchParams(location.search);
  const size = params.get("size") || "7x6";
  const sameGame =
    (params.get("pos") || "") === state.pos &&
    size === `${state.width}x${state.height}` &&
    (params.get("connect") || "4") === String(state.connect);
  if (params.get("review") === "1" && !sameGame) {
    location.reload(); // Back to the review of an earlier game: the address has it all
    return;
  }
  if (params.get("review") !== "1") {
    closeReview("none");
    return;
  }
  const ply = /^\d+$/.test(params.get("ply") || "") ? parseInt(params.get("ply"), 10) : null;
  if (review.open && review.data) showPly(ply === null ? review.plies.length : ply, "none");
  else openReview(ply, "none");
}

// Wired at once (the page is parsed when this deferred script runs; app.js is not loaded yet).
function reviewWire(id, action) {
  document.getElementById(id).addEventListener("click", action);
}

reviewWire("review-open", () => openReview(null, "push"));
reviewWire("review-close", () => closeReview("push"));
reviewWire("review-retry", () => openReview(review.ply || null, "replace"));
reviewWire("review-first", () => showPly(0, "push"));
reviewWire("review-prev", () => showPly(review.ply - 1, "push"));
reviewWire("review-next", () => showPly(review.ply + 1, "push"));
reviewWire("review-last", () => showPly(review.plies.length, "push"));
// The board shows the game under review: a click must not play on it.
document.getElementById("board").addEventListener(
  "click",
  (event) => {
    if (!review.open) return;
    event.stopPropagation();
    retryClick(event); // a retry of a mistake takes the click as its try
  },
  true,
);
window.addEventListener("popstate", reviewOnHistory);
