// The Puzzles view: the shipped puzzles one at a time (GET /api/puzzle, easiest first, by
// difficulty), each try judged by the server (POST /api/puzzle/try): a wrong column is refused
// with its refutation -- drawn on the board a moment, then the puzzle again --, a right one is
// answered by the opponent's reply, the last one says solved. Hints from GET /api/puzzle/hint.
//
// Loaded before app.js; it uses app.js's helpers ($, api, buildColumns) only once the page runs.
// app.js calls puzzleKey() for every key.
"use strict";

const PUZZLE_REFUTATION_SHOWN = 1600; // ms the refuted board stays before the puzzle comes back

const puzzleAddress = new URLSearchParams(location.search).get("puzzle"); // before app.js rewrites it

const puzzles = {
  open: false,
  data: null, // the server's puzzle: {index, count, puzzle, step, position}
  index: 0,
  step: 0,
  hintLevel: 0,
  solved: false,
  busy: false,
  timer: null,
};

function puzzleSide(mark) {
  return mark === "X" ? "red ✕" : "yellow ◯";
}

function drawPuzzleBoard(position) {
  const board = $("puzzle-board");
  board.style.setProperty("--w", position.width);
  board.style.setProperty("--h", position.height);
  if (board.children.length !== position.width) {
    const labels = $("puzzle-labels");
    labels.style.setProperty("--w", position.width);
    buildColumns(board, labels, position.width, position.height, puzzleTry);
  }
  const winning = new Set(position.winning_cells.map((cell) => `${cell.column},${cell.row}`));
  for (let c = 0; c < position.width; c++) {
    const button = board.children[c];
    let empty = 0;
    for (let r = 0; r < position.height; r++) {
      const owner = position.grid[r][c];
      const cell = button.children[r];
      if (!owner) {
        empty++;
        cell.replaceChildren();
        continue;
      }
      const piece = document.createElement("div");
      piece.className = `piece ${owner.toLowerCase()}`;
      if (position.last_move === c + 1 && (r === 0 || !position.grid[r - 1][c])) piece.classList.add("last");
      if (winning.has(`${c + 1},${position.height - r}`)) piece.classList.add("win");
      piece.setAttribute("aria-hidden", "true");
      cell.replaceChildren(piece);
    }
    button.setAttribute("aria-label", `Column ${c + 1}${empty === 0 ? ", full" : `, ${empty} empty`}`);
  }
  board.dataset.pos = position.pos;
}

function puzzleSay(text, kind = "") {
  const line = $("puzzle-text");
  line.textContent = text;
  line.dataset.kind = kind;
}

function puzzleTitle() {
  const { puzzle, index, count, position } = puzzles.data;
  const aim = puzzle.goal === "win" ? "win" : "hold the draw";
  const themes = puzzle.themes.length ? ` · ${puzzle.themes.join(", ")}` : "";
  return `Puzzle ${index + 1} of ${count} (${puzzle.difficulty}${themes}): ${puzzleSide(position.to_move)} to move and ${aim}.`;
}

async function loadPuzzle(index, id = null) {
  clearTimeout(puzzles.timer);
  const difficulty = $("puzzle-difficulty").value;
  const query = new URLSearchParams({ index: String(index) });
  if (difficulty) query.set("difficulty", difficulty);
  if (id) query.set("id", id);
  puzzles.busy = true;
  try {
    puzzles.data = await api(`/api/puzzle?${query.toString()}`);
  } catch (error) {
    puzzleSay(`No puzzle: ${error.message}`, "error");
    return;
  } finally {
    puzzles.busy = false;
  }
  puzzles.index = puzzles.data.index;
  puzzles.step = 0;
  puzzles.hintLevel = 0;
  puzzles.solved = false;
  $("puzzle-next").textContent = "Skip";
  $("puzzle-hint").disabled = false;
  $("puzzle-hint-text").textContent = "";
  drawPuzzleBoard(puzzles.data.position);
  puzzleSay(puzzleTitle());
}

async function puzzleTry(column) {
  if (!puzzles.data || puzzles.busy || puzzles.solved) return;
  clearTimeout(puzzles.timer);
  puzzles.busy = true;
  $("puzzle").dataset.state = "thinking";
  let answer;
  try {
    answer = await api("/api/puzzle/try", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: puzzles.data.puzzle.id, step: puzzles.step, column }),
    });
  } catch (error) {
    puzzleSay(`${error.message}`, "error");
    return;
  } finally {
    puzzles.busy = false;
    $("puzzle").dataset.state = "ready";
  }
  if (!answer.right) {
    puzzleSay(`Not ${column}: ${answer.words}. Try again.`, "wrong");
    if (answer.refuted) {
      drawPuzzleBoard(answer.refuted);
      const back = answer.position;
      puzzles.timer = setTimeout(() => drawPuzzleBoard(back), PUZZLE_REFUTATION_SHOWN);
    }
    return;
  }
  drawPuzzleBoard(answer.position);
  puzzles.hintLevel = 0;
  $("puzzle-hint-text").textContent = "";
  if (answer.solved) {
    puzzles.solved = true;
    const ending = { "win": "the win is yours", "forced win": "the win is forced", "draw held": "the draw holds" };
    const end = puzzles.data.index + 1 === puzzles.data.count ? " That was the last puzzle." : "";
    puzzleSay(`Solved! ${column} is right: ${ending[answer.ends] || "done"}. The solution: ${answer.solution.join(" ")}.${end}`, "solved");
    $("puzzle-next").textContent = "Next puzzle";
    $("puzzle-hint").disabled = true;
    return;
  }
  puzzles.step = answer.next_step;
  puzzleSay(`Right. ${puzzleSide(answer.position.to_move === "X" ? "O" : "X")} replies ${answer.reply}. Your move again.`, "right");
}

async function puzzleHint() {
  if (!puzzles.data || puzzles.solved) return;
  const query = new URLSearchParams({ id: puzzles.data.puzzle.id, step: String(puzzles.step), level: String(puzzles.hintLevel) });
  try {
    const hint = await api(`/api/puzzle/hint?${query.toString()}`);
    $("puzzle-hint-text").textContent = `Hint: ${hint.hint}.`;
    if (!hint.last) puzzles.hintLevel++;
  } catch (error) {
    puzzleSay(error.message, "error");
  }
}

function openPuzzles(load = true) {
  puzzles.open = true;
  document.body.classList.add("puzzling");
  $("puzzle").hidden = false;
  if (load && !puzzles.data) loadPuzzle(0);
  $("puzzle-board").focus();
}

function closePuzzles() {
  puzzles.open = false;
  clearTimeout(puzzles.timer);
  document.body.classList.remove("puzzling");
  $("puzzle").hidden = true;
}

// A key while the Puzzles view is open: a digit tries that column, H a hint, Esc closes. True when taken.
function puzzleKey(event) {
  if (!puzzles.open) return false;
  const key = event.key.toLowerCase();
  if (/^[1-9]$/.test(key)) puzzleTry(parseInt(key, 10));
  else if (key === "h") puzzleHint();
  else if (key === "escape") closePuzzles();
  else return false;
  event.preventDefault();
  return true;
}

document.getElementById("puzzles-open").addEventListener("click", openPuzzles);
if (puzzleAddress) {
  // ?puzzle=ID opens that puzzle (a shared link)
  window.addEventListener("DOMContentLoaded", () => {
    openPuzzles(false);
    loadPuzzle(0, puzzleAddress);
  });
}
document.getElementById("puzzle-close").addEventListener("click", closePuzzles);
document.getElementById("puzzle-hint").addEventListener("click", puzzleHint);
document.getElementById("puzzle-next").addEventListener("click", () => loadPuzzle(puzzles.index + 1));
document.getElementById("puzzle-difficulty").addEventListener("change", () => loadPuzzle(0));
