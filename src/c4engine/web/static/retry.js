// Retry your mistakes, in the Review view: each mistake or blunder of the person's own side posed
// again on the board before its move, its answer (the better line) hidden; a click tries a column
// (POST /api/retry): a wrong one is refused with its refutation, a right one -- or "Show the
// answer" -- shows the review's better line, and "Next mistake" goes on.
//
// Loaded after review.js and before app.js; it uses their helpers ($, api, state, review,
// showPly, drawReviewBoard, ...) only once the page runs. review.js calls retryOffer() when it
// shows a review, and its board click handler hands clicks here while a retry is under way.
"use strict";

const relearn = {
  plies: [], // the review's plies (1-based) of the person's mistakes
  at: -1, // which of them is being retried; -1: none
  busy: false,
  revealing: false, // showPly is drawing the answer for the retry: the retry goes on
};

function retryMistakes() {
  if (!review.data) return [];
  return review.plies
    .filter((entry) => entry && (entry.verdict === "mistake" || entry.verdict === "blunder"))
    .filter((entry) => isHuman(entry.player === 1 ? "X" : "O"))
    .map((entry) => entry.ply);
}

// Show the "Retry my mistakes" button when the person's side has mistakes in the review shown.
function retryOffer() {
  relearn.plies = retryMistakes();
  $("review-learn").hidden = relearn.plies.length === 0;
}

function retrySay(text, kind = "") {
  $("retry-text").textContent = text;
  $("retry-bar").dataset.kind = kind;
}

function retryStart(at) {
  relearn.plies = retryMistakes();
  if (at >= relearn.plies.length) {
    retryStop();
    retrySayDone();
    return;
  }
  relearn.at = at;
  const ply = relearn.plies[at];
  const entry = review.plies[ply - 1];
  review.ply = ply;
  // the position before the mistake, the answer not drawn
  drawReviewBoard(reviewColumns(review.data.moves), ply - 1, [], entry.column);
  $("review-board-note").textContent = "";
  $("review-text").textContent =
    `Mistake ${at + 1} of ${relearn.plies.length} — move ${ply}: ${playerMark(entry.player)} played column ` +
    `${entry.column} (outlined), ${verdictWords(entry)}: ${entry.words_before} → ${entry.words_after}.`;
  $("retry-bar").hidden = false;
  $("retry-show").hidden = false;
  $("retry-next").hidden = true;
  retrySay("Find a better move: click a column.");
}

function retrySayDone() {
  $("retry-bar").hidden = false;
  $("retry-show").hidden = true;
  $("retry-next").hidden = true;
  retrySay("That was your last mistake.", "right");
}

function retryStop() {
  relearn.at = -1;
  $("retry-bar").hidden = true;
}

function retryReveal(words, kind) {
  const ply = relearn.plies[relearn.at];
  relearn.revealing = true;
  showPly(ply, "replace"); // the review's own view of the move: the better line drawn
  relearn.revealing = false;
  $("retry-bar").hidden = false;
  $("retry-show").hidden = true;
  $("retry-next").hidden = false;
  $("retry-next").textContent = relearn.at + 1 < relearn.plies.length ? "Next mistake" : "Done";
  retrySay(words, kind);
}

async function retryColumn(column) {
  if (relearn.at < 0 || relearn.busy || !$("retry-next").hidden) return;
  const ply = relearn.plies[relearn.at];
  const entry = review.plies[ply - 1];
  if (column === entry.column) {
    retrySay(`${column} is the move played in the game: try another.`, "wrong");
    return;
  }
  const moves = reviewColumns(review.data.moves).slice(0, ply - 1);
  relearn.busy = true;
  $("retry-bar").dataset.state = "thinking";
  let answer;
  try {
    answer = await api("/api/retry", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        moves: moves.join(state.width > 9 ? "," : ""),
        size: `${state.width}x${state.height}`,
        connect: state.connect,
        column,
      }),
    });
  } catch (error) {
    retrySay(error.message, "wrong");
    return;
  } finally {
    relearn.busy = false;
    $("retry-bar").dataset.state = "";
  }
  if (answer.right) retryReveal(answer.words, "right");
  else retrySay(`${answer.words} Try again.`, "wrong");
}

// A click on the review's board while a retry is under way: the column tried. True when taken.
function retryClick(event) {
  if (relearn.at < 0) return false;
  const button = event.target.closest(".column");
  if (button) retryColumn(parseInt(button.dataset.column, 10));
  return true;
}

document.getElementById("review-learn").addEventListener("click", () => retryStart(0));
document.getElementById("retry-show").addEventListener("click", () => {
  const ply = relearn.plies[relearn.at];
  const entry = review.plies[ply - 1];
  const better = entry.best.length > 1 ? `columns ${entry.best.join(", ")}` : `column ${entry.best[0]}`;
  retryReveal(`The answer: ${better} (${entry.words_before}).`, "");
});
document.getElementById("retry-next").addEventListener("click", () => retryStart(relearn.at + 1));
