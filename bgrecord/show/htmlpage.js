// The HTML replay's script (bgrecord/show/htmlpage.py writes the page around it). The steps are data:
// each board is drawn here from its gnubg Position ID, with the geometry of bgrecord/show/svg.py, so
// that a long match stays small. The words of each board are made here too, as
// bgrecord/show/words.py makes them (tests/test_replay_cli.py checks that they agree).
"use strict";
const data = JSON.parse(document.getElementById("steps").textContent);
const G = data.geometry, steps = data.steps;
const namesOf = (step) => data.names[step[GAME]];  // each game its players (a file may hold several matches)
const SVG = "http://www.w3.org/2000/svg";
// A step: [position id after it, player on roll after it, cube, cube owner (-1 none), dice, moves,
// mover, game, move, score0, score1, length, words, issues, opening, closing, crawford, mark (the worst of its
// decisions marked doubtful or worse, or "")]
const [POS, TURN, CUBE, OWNER, DICE, MOVES, MOVER, GAME, MOVE, S0, S1, LENGTH, WORDS, ISSUES, OPENING, CLOSING, CRAWFORD, MARK] =
  [...Array(18).keys()];
const marked = steps.map((step, j) => (step[MARK] ? j : -1)).filter((j) => j >= 0);
let index = 0;

function decode(id) {  // -> checkers by player, each side in its own numbering: [0] off, [25] bar
  const bytes = atob(id + "==");
  const sides = [new Array(26).fill(0), new Array(26).fill(0)];
  let side = 0, slot = 1;
  for (let bit = 0; bit < 80 && side < 2; bit++) {
    if ((bytes.charCodeAt(bit >> 3) >> (bit & 7)) & 1) sides[side][slot]++;
    else if (++slot === 26) { side++; slot = 1; }
  }
  for (const s of sides) s[0] = 15 - s.slice(1).reduce((a, b) => a + b, 0);
  return sides;  // [not on roll, on roll]
}

function byPlayer(step) {
  const [notOnRoll, onRoll] = decode(step[POS]);
  return step[TURN] === 0 ? [onRoll, notOnRoll] : [notOnRoll, onRoll];
}

function pointX(p) {  // player 1's point p
  const column = p <= 12 ? 12 - p : p - 13;
  const x = G.margin + column * G.point + G.point / 2;
  return column >= 6 ? x + G.bar_width : x;
}

function checkerY(p, i) {
  const step = Math.min(2 * G.radius, (G.height / 2 - G.margin - 10) / 5);
  const offset = G.margin + G.radius + i * step;
  return p >= 13 ? offset : G.height - offset;
}

function add(parent, tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

function checker(group, x, y, player, label) {
  add(group, "circle", {cx: x.toFixed(1), cy: y.toFixed(1), r: G.radius.toFixed(1), fill: G.colours[player], stroke: G.strokes[player]});
  if (label) add(group, "text", {x: x.toFixed(1), y: (y + 4).toFixed(1), "font-size": 12, "text-anchor": "middle", fill: G.colours[1 - player]}, label);
}

function arrowEnd(point, player) {
  if (point === 25) return [G.bar_x + G.bar_width / 2, G.height / 2];
  if (point === 0) return [G.width - G.margin - G.tray / 2, player === 1 ? G.height - G.margin - 20 : G.margin + 20];
  const own = player === 1 ? point : 25 - point;
  return [pointX(own), own >= 13 ? G.margin + 2 * G.radius : G.height - G.margin - 2 * G.radius];
}

function draw(step, sides) {
  const group = document.getElementById("pieces");
  group.replaceChildren();
  for (let p = 1; p <= 24; p++) {
    for (const player of [0, 1]) {
      const count = player === 1 ? sides[1][p] : sides[0][25 - p];
      for (let i = 0; i < Math.min(count, 5); i++) checker(group, pointX(p), checkerY(p, i), player, i === 4 && count > 5 ? String(count) : "");
    }
  }
  for (const player of [0, 1]) {
    const count = sides[player][25];
    for (let i = 0; i < Math.min(count, 4); i++) {
      const y = player === 1 ? G.height / 2 - 30 - i * 2 * G.radius : G.height / 2 + 30 + i * 2 * G.radius;
      checker(group, G.bar_x + G.bar_width / 2, y, player, i === 3 && count > 4 ? String(count) : "");
    }
    for (let i = 0; i < sides[player][0]; i++) {
      const y = player === 1 ? G.height - G.margin - 6 - i * 7 : G.margin + 2 + i * 7;
      add(group, "rect", {x: G.tray_x, y: y.toFixed(1), width: G.tray - 12, height: 5, fill: G.colours[player], stroke: G.strokes[player]});
    }
  }
  const owner = step[OWNER];
  const cubeY = owner < 0 ? G.height / 2 - 14 : owner === 0 ? G.margin + 4 : G.height - G.margin - 32;
  const cubeX = owner < 0 ? G.width - G.margin - G.tray + 8 : G.bar_x + 4;
  add(group, "rect", {x: cubeX.toFixed(1), y: cubeY.toFixed(1), width: 28, height: 28, rx: 4, fill: "#fff", stroke: "#000"});
  add(group, "text", {x: (cubeX + 14).toFixed(1), y: (cubeY + 19).toFixed(1), "font-size": 14, "text-anchor": "middle"}, String(step[CUBE]));
  const mover = step[MOVER];
  [...step[DICE]].forEach((die, i) => {
    const x = G.margin + (mover === 0 ? 3 : 9) * G.point + i * 34 + (mover === 1 ? G.bar_width : 0) - 17;
    add(group, "rect", {x: x.toFixed(1), y: (G.height / 2 - 14).toFixed(1), width: 28, height: 28, rx: 5, fill: G.colours[mover], stroke: "#000"});
    add(group, "text", {x: (x + 14).toFixed(1), y: (G.height / 2 + 5).toFixed(1), "font-size": 15, "text-anchor": "middle", fill: G.colours[1 - mover]}, die);
  });
  for (const move of step[MOVES] ? step[MOVES].split(" ") : []) {
    const [source, target] = move.split("/").map(Number);
    const [start, end] = [arrowEnd(source, mover), arrowEnd(target, mover)];
    add(group, "line", {x1: start[0].toFixed(1), y1: start[1].toFixed(1), x2: end[0].toFixed(1), y2: end[1].toFixed(1), stroke: "#1f6fd1", "stroke-width": 3, opacity: 0.8});
    add(group, "circle", {cx: end[0].toFixed(1), cy: end[1].toFixed(1), r: 5, fill: "#1f6fd1"});
  }
}

function viewpoint(step) {
  const chosen = document.getElementById("view").value;
  return chosen === "roll" ? step[TURN] : Number(chosen);
}

function boardWords(sides, seenFrom, names) {  // as bgrecord.show.words.board_words
  const parts = [`Points from ${names[seenFrom]}'s side.`];
  for (const player of [seenFrom, 1 - seenFrom]) {
    const side = sides[player], said = [];
    const points = player === seenFrom ? [...Array(24).keys()].map((i) => 24 - i) : [...Array(24).keys()].map((i) => i + 1);
    for (const own of points) {
      if (side[own]) said.push(`${side[own]} on the ${player === seenFrom ? own : 25 - own}` + (said.length === 0 ? " point" : ""));
    }
    if (side[25]) said.push(`${side[25]} on the bar`);
    if (side[0]) said.push(`${side[0]} borne off`);
    parts.push(`${names[player]}: ${said.join(", ") || "no checkers"}.`);
  }
  return parts.join(" ");
}

function pips(sides) {
  return sides.map((side) => side.reduce((total, count, point) => total + (point === 0 ? 0 : count * point), 0));
}

function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[index], names = namesOf(step);
  const words = document.getElementById("words"), description = document.getElementById("board-words");
  const notes = step[ISSUES] ? ` (${step[ISSUES]})` : "";
  words.textContent = (step[OPENING] ? step[OPENING] + ". " : "") + step[WORDS] + "." + notes + (step[CLOSING] ? " " + step[CLOSING] + "." : "");
  const match = step[LENGTH] ? `${step[LENGTH]} point match` : "money session";
  let status = `Game ${step[GAME]}, ${match}${step[CRAWFORD] ? " (Crawford)" : ""}. Score before the game: ${names[0]} ${step[S0]}, ${names[1]} ${step[S1]}.`;
  status += ` Cube: ${step[CUBE]}, ${step[OWNER] < 0 ? "in the middle" : "owned by " + names[step[OWNER]]}.`;
  if (step[POS]) {
    const sides = byPlayer(step), seenFrom = viewpoint(step), count = pips(sides);
    status += ` Pips: ${names[0]} ${count[0]}, ${names[1]} ${count[1]}.`;
    draw(step, sides);
    description.textContent = boardWords(sides, seenFrom, names);
    for (const label of document.querySelectorAll("#board .label")) {
      const p = Number(label.dataset.point);
      label.textContent = seenFrom === 1 ? p : 25 - p;
    }
  } else {
    document.getElementById("pieces").replaceChildren();
    description.textContent = "No board: the replay could not follow the record here.";
  }
  document.getElementById("board-desc").textContent = description.textContent;
  document.getElementById("status").textContent = status;
  document.querySelectorAll("#moves button").forEach((button, j) => {
    if (j === index) { button.setAttribute("aria-current", "step"); button.scrollIntoView({block: "nearest"}); }
    else button.removeAttribute("aria-current");
  });
  document.getElementById("position").textContent = `${index + 1} / ${steps.length}`;
}

const list = document.getElementById("moves");
steps.forEach((step, j) => {
  const item = document.createElement("li"), button = document.createElement("button");
  button.type = "button";
  button.id = `step${j}`;
  button.textContent = `G${step[GAME]} ${step[MOVE] ? step[MOVE] + ". " : ""}${step[WORDS]}`;
  if (step[MARK]) { button.classList.add("mark"); button.textContent = `(${step[MARK]}) ${button.textContent}`; }
  if (step[ISSUES]) { button.classList.add("issue"); button.title = step[ISSUES]; }
  button.addEventListener("click", () => show(j));
  item.appendChild(button);
  list.appendChild(item);
});
function mistake(direction) {  // the next (1) or previous (-1) step marked doubtful or worse
  const found = direction > 0 ? marked.find((j) => j > index) : [...marked].reverse().find((j) => j < index);
  if (found === undefined) {
    document.getElementById("words").textContent = marked.length ? (direction > 0 ? "No more mistakes." : "No mistake before this step.")
      : "No decision is marked doubtful or worse.";
  } else show(found);
}

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT") return;
  if ((e.key === "m" || e.key === "M") && !e.ctrlKey && !e.altKey && !e.metaKey) { mistake(e.shiftKey ? -1 : 1); e.preventDefault(); return; }
  const moves = {ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: steps.length - 1};
  if (e.key in moves) { show(moves[e.key]); e.preventDefault(); }
});
document.getElementById("next").addEventListener("click", () => show(index + 1));
document.getElementById("back").addEventListener("click", () => show(index - 1));
document.getElementById("next-mark").addEventListener("click", () => mistake(1));
document.getElementById("previous-mark").addEventListener("click", () => mistake(-1));
document.getElementById("view").addEventListener("change", () => show(index));
show(0);
