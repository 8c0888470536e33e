// aos-solve app: Easter Island and Zoo set up by clicking, solves with live progress, play along.
// Every check that matters is the server's (the same functions as the command line); this page only
// collects clicks and shows answers. The tab id keeps one solve at a time per browser tab.
"use strict";
const $ = (id) => document.getElementById(id);
const TAB = sessionStorage.getItem("aos-tab") || (() => {
  const t = Math.random().toString(36).slice(2) + Date.now().toString(36);
  sessionStorage.setItem("aos-tab", t);
  return t;
})();
const CUBE = {red: "#d33", blue: "#36c", yellow: "#eb2", purple: "#839", black: "#222"};

async function api(method, url, body, form) {
  const opts = {method, headers: {}};
  if (form) opts.body = form;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  let res;
  try { res = await fetch(url, opts); } catch (e) {
    return {ok: false, status: 0, data: {error: "the app does not answer: is `aos-solve serve` still running?"}};
  }
  let data = {};
  try { data = await res.json(); } catch (e) { data = {error: `unexpected answer from the server (${res.status})`}; }
  return {ok: res.ok, status: res.status, data};
}
function say(id, text) { $(id).textContent = text || ""; }
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------- page tabs
document.querySelectorAll("nav .tab").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("nav .tab").forEach((x) => x.classList.toggle("on", x === b));
  document.querySelectorAll(".page").forEach((p) => { p.hidden = p.id !== "page-" + b.dataset.page; });
}));

// ---------------------------------------------------------------- board, difficulty, readings
const S = {board: null, setup: {}, seed: null, colour: null, job: null, timer: null, plan: null, answer: null};

async function loadBoards(select) {
  const r = await api("GET", "/api/boards");
  const sel = $("board");
  sel.innerHTML = "";
  for (const b of r.data.boards || []) sel.appendChild(el("option", {value: b.id}, b.name));
  if (select) sel.value = select;
  await loadBoard(sel.value);
}

async function loadBoard(id) {
  say("board-error", "");
  const r = await api("GET", "/api/boards/" + encodeURIComponent(id));
  if (!r.ok) { say("board-error", r.data.error); return; }
  showBoard(r.data);
}

function showBoard(info) {
  S.board = info;
  S.mark = null;
  $("answer").hidden = true;
  $("board-svg").innerHTML = info.svg;
  const diff = $("difficulty");
  diff.innerHTML = "";
  for (const d of Object.keys(info.difficulties)) diff.appendChild(el("option", {value: d}, d));
  const box = $("readings");
  box.innerHTML = "";
  S.defaultBag = (info.readings.find((r) => r.name === "bag") || {}).default;
  for (const rd of info.readings) {
    // each reading in words: the option says what it means (its name on hover), the sheet's sentence on the label
    const lab = el("label", {title: `${rd.name} — ${rd.sheet}: “${rd.quote}”`}, rd.name.replace(/-/g, " ") + ": ");
    const sel = el("select", {"data-reading": rd.name, "data-default": rd.default, id: "reading-" + rd.name, style: "max-width:100%"});
    for (const v of rd.values) {
      const o = el("option", {value: v.name, title: `${rd.name}=${v.name}`}, v.means + (v.name === rd.default ? " (default)" : ""));
      sel.appendChild(o);
    }
    sel.value = rd.default;
    sel.addEventListener("change", () => { readingsSummary(); palette(S.board); checkSetup(); });
    lab.appendChild(sel);
    box.appendChild(lab);
  }
  palette(info);
  $("clear").disabled = !!info.food_only;   // the Zoo's food is the sheet's: nothing to clear by hand
  say("setup-help", info.food_only
    ? "The Zoo: the sheet places the same food on every animal area and its colours do not matter, so the food " +
      "is drawn with the seed; choose the readings and solve."
    : "Pick a colour, then click a ruin on the board: each click stacks one cube (bottom cube first). " +
      "“remove top cube” takes the top cube off.");
  document.querySelectorAll("#board-svg .target").forEach((t) => t.addEventListener("click", () => clickHex(t)));
  drawFromSeed();
}

// The colours the bag holds under the bag reading (purple is not offered under the default bag, which has none).
function palette(info) {
  const pal = $("palette");
  pal.innerHTML = "";
  if (info.food_only) return;
  const bag = readings().bag;
  const shown = info.colours.filter((c) => !info.default_bag || (bag && bag !== (S.defaultBag || bag)) || info.default_bag[c]);
  for (const c of shown) {
    const b = el("button", {"data-colour": c, id: "colour-" + c, style: `background:${CUBE[c]};color:#fff`}, c);
    b.addEventListener("click", () => pickColour(c));
    pal.appendChild(b);
  }
  const rm = el("button", {"data-colour": "", id: "colour-remove"}, "remove top cube");
  rm.addEventListener("click", () => pickColour(""));
  pal.appendChild(rm);
  pickColour(shown.includes(S.colour) ? S.colour : shown[0]);
}

function readingsSummary() {
  const changed = [...document.querySelectorAll("#readings select")].filter((s) => s.value !== s.dataset.default)
    .map((s) => s.dataset.reading.replace(/-/g, " "));
  say("readings-summary", changed.length ? `changed: ${changed.join(", ")}` : "the defaults");
}

function readings() {
  const out = {};
  document.querySelectorAll("#readings select").forEach((s) => { out[s.dataset.reading] = s.value; });
  return out;
}

// ---------------------------------------------------------------- cubes by clicking
function pickColour(c) {
  S.colour = c;
  document.querySelectorAll("#palette button").forEach((b) => b.classList.toggle("on", b.dataset.colour === c));
}

function need() { return S.board.difficulties[$("difficulty").value] || {}; }
function label(hex) { const s = S.board.stops.find((x) => x.hex === hex); return s ? s.label : hex; }

function clickHex(target) {
  if (S.mark) { markHex(target.dataset.hex); return; }   // playing along: the click marks what happened
  say("setup-error", "");
  const hex = target.dataset.hex;
  setupNo++;
  if (S.board.food_only) {
    say("setup-error", "The Zoo's food is set by the sheet and drawn with the seed; clicks do not change it.");
    return;
  }
  const n = need()[hex];
  if (!n) {
    say("setup-error", `${target.dataset.stop || hex}: no cubes start here in ${$("difficulty").value} ` +
      `(cubes go on ${Object.keys(need()).map(label).join(", ")}).`);
    return;
  }
  const stack = S.setup[hex] || [];
  if (S.colour === "") {
    if (!stack.length) { say("setup-error", `${label(hex)} has no cube to remove.`); return; }
    stack.pop();
  } else {
    if (stack.length >= n) {
      say("setup-error", `${label(hex)} holds ${n} cube(s) in ${$("difficulty").value}: remove the top cube first.`);
      return;
    }
    stack.push(S.colour);
  }
  S.setup[hex] = stack;
  S.seed = null;
  showSetup();
  checkSetup();
}

function showSetup() {
  const t = $("setup-table");
  t.innerHTML = "<tr><th>stop</th><th>cubes (bottom first)</th></tr>";
  for (const [hex, n] of Object.entries(need())) {
    const tr = el("tr", {"data-hex": hex});
    tr.appendChild(el("td", {}, label(hex)));
    const td = el("td", {});
    for (const c of S.setup[hex] || []) td.appendChild(el("span", {class: "cube", style: `background:${CUBE[c] || "#a63"}`, title: c}));
    td.appendChild(document.createTextNode(` ${(S.setup[hex] || []).join(" / ") || "—"} (${(S.setup[hex] || []).length} of ${n})`));
    tr.appendChild(td);
    t.appendChild(tr);
  }
  // the cubes on the picture, bottom cube lowest, as the answer pages draw them
  const svg = $("board-svg").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll(".setup-cubes").forEach((g) => g.remove());
  const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
  g.setAttribute("class", "setup-cubes");
  g.setAttribute("pointer-events", "none");
  for (const [hex, cubes] of Object.entries(S.setup)) {
    const poly = svg.querySelector(`.target[data-hex="${hex}"]`);
    if (!poly) continue;
    const bb = poly.getBBox();
    const x = bb.x + bb.width / 2, y = bb.y + bb.height / 2;
    cubes.forEach((c, i) => {
      const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      for (const [k, v] of Object.entries({x: x + 8, y: y + 6 - i * 8, width: 7, height: 7, fill: CUBE[c] || "#a63", stroke: "#000"}))
        r.setAttribute(k, v);
      g.appendChild(r);
    });
  }
  svg.insertBefore(g, svg.querySelector(".targets"));
}

let checkNo = 0;
async function checkSetup() {
  say("setup-ok", "");
  say("setup-error", "");
  const missing = Object.entries(need()).filter(([h, n]) => (S.setup[h] || []).length !== n);
  if (missing.length) {
    say("setup-ok", "");
    say("setup-error", "Still to place: " + missing.map(([h, n]) => `${label(h)} ${(S.setup[h] || []).length} of ${n}`).join(", "));
    return;
  }
  const no = ++checkNo;
  const r = await api("POST", "/api/setup/check", {board: S.board.id, difficulty: $("difficulty").value,
    readings: readings(), setup: S.setup});
  if (no !== checkNo) return;
  if (r.ok) say("setup-ok", "Setup complete; checked by the server" + (S.seed !== null ? ` (drawn with seed ${S.seed})` : "") + ".");
  else say("setup-error", r.data.error);
}

// A draw answered after the player started clicking (or after a newer draw) is dropped: clicks win.
let setupNo = 0;
async function drawFromSeed() {
  say("setup-error", "");
  const no = ++setupNo;
  const r = await api("POST", "/api/setup/draw", {board: S.board.id, difficulty: $("difficulty").value,
    readings: readings(), seed: $("seed").value});
  if (no !== setupNo) return;
  if (!r.ok) { say("setup-error", r.data.error); return; }
  S.setup = r.data.setup;
  S.seed = r.data.seed;
  showSetup();
  checkSetup();
}

$("board").addEventListener("change", () => loadBoard($("board").value));
// A new difficulty keeps the cubes clicked on stops it also uses (a drawn setup is drawn again with its seed).
$("difficulty").addEventListener("change", () => {
  const clicked = S.seed === null && Object.values(S.setup).some((stack) => stack.length);
  if (!clicked) { drawFromSeed(); return; }
  const kept = {};
  for (const [hex, n] of Object.entries(need())) if (S.setup[hex]) kept[hex] = S.setup[hex].slice(0, n);
  const dropped = Object.keys(S.setup).filter((h) => !(h in kept) && S.setup[h].length);
  S.setup = kept;
  showSetup();
  checkSetup().then(() => {
    if (dropped.length) say("setup-ok", `Kept your cubes; ${dropped.map(label).join(", ")} hold none in ${$("difficulty").value}, so theirs were taken off.`);
  });
});
$("draw").addEventListener("click", drawFromSeed);
$("clear").addEventListener("click", () => { setupNo++; S.setup = {}; S.seed = null; showSetup(); checkSetup(); });
$("board-file").addEventListener("change", async () => {
  say("board-error", "");
  const f = $("board-file").files[0];
  if (!f) return;
  const form = new FormData();
  form.append("file", f);
  const r = await api("POST", "/api/boards", undefined, form);
  $("board-file").value = "";
  if (!r.ok) { say("board-error", r.data.error); return; }
  await loadBoards(r.data.id);
});

// ---------------------------------------------------------------- solving, progress, cancel
function settings() { return {time_limit: $("time-limit").value, work: $("work").value}; }

async function solve() {
  if (S.starting || (S.job && $("status").dataset.state === "running")) return;   // a double click: one solve
  say("solve-error", "");
  say("from-error", "");
  const req = {tab: TAB, board: S.board.id, difficulty: $("difficulty").value, readings: readings(), ...settings()};
  if (S.seed !== null) req.seed = S.seed; else req.setup = S.setup;
  busy();
  startJob(await api("POST", "/api/solve", req), "solve-error");
}

function busy() {   // the buttons are disabled the moment a solve is asked for, not when the server answers
  S.starting = true;
  $("solve").disabled = true;
  $("from-here").disabled = true;
}

function startJob(r, errorField) {
  S.starting = false;
  if (!r.ok) { stopped(); say(errorField, r.data.error); return; }
  S.job = r.data.id;
  $("answer").hidden = true;
  say("solve-error", "");
  say("from-error", "");
  $("progress").innerHTML = "";
  $("cancel").disabled = false;
  $("solve").disabled = true;
  $("from-here").disabled = true;
  showJob(r.data);
  clearInterval(S.timer);
  S.timer = setInterval(poll, 400);
}

async function poll() {
  const r = await api("GET", "/api/jobs/" + S.job);
  if (!r.ok) { clearInterval(S.timer); say("solve-error", r.data.error); stopped(); return; }
  showJob(r.data);
}

function stopped() {
  $("cancel").disabled = true;
  $("solve").disabled = false;
  $("from-here").disabled = false;
}

function showJob(job) {
  const last = job.progress.length ? job.progress[job.progress.length - 1] : null;
  const word = {running: "solving", done: "done", error: "bad input", cancelled: "cancelled", failed: "failed"}[job.state];
  $("status").dataset.state = job.state;
  say("status", `${job.title}: ${word}, ${job.seconds} s` + (job.state === "running" && last ? ` — ${last.phase}` +
    (last.rounds ? `; ${last.rounds}` : "") : ""));
  $("status").title = job.state === "running" && last && last.method ? last.method : "";
  const list = $("progress");
  list.innerHTML = "";
  for (const p of job.progress) {   // the phase in words; the method's technical name on hover
    const extra = Object.entries(p).filter(([k]) => !["seconds", "phase", "method", "rounds"].includes(k))
      .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
    const item = el("li", p.method ? {title: p.method} : {}, `${p.seconds} s: ${p.phase}` + (p.rounds ? `; ${p.rounds}` : "") +
      (extra.length ? "; " + extra.join(", ") : ""));
    list.appendChild(item);
  }
  if (job.state === "running") return;
  clearInterval(S.timer);
  stopped();
  if (job.state === "done" || (job.state === "cancelled" && job.answer)) showAnswer(job);
  if (job.state === "cancelled") say("status", `${job.title}: ${job.message || "stopped"} (after ${job.seconds} s)`);
  else if (job.state !== "done" && job.message) say("solve-error", job.message);
}

$("solve").addEventListener("click", solve);
$("cancel").addEventListener("click", async () => {
  $("cancel").disabled = true;
  say("status", "stopping: keeping what was found so far…");
  const r = await api("POST", `/api/jobs/${S.job}/cancel`);
  if (r.ok) showJob(r.data); else say("solve-error", r.data.error);
});
// A closed tab stops its solve at once (the server also stops a solve nobody asks about for 30 s).
window.addEventListener("pagehide", () => {
  if (S.job && $("status").dataset.state === "running") navigator.sendBeacon(`/api/jobs/${S.job}/cancel?now=1`);
});

// ---------------------------------------------------------------- the answer and playing along
async function showAnswer(job) {
  const a = job.answer;
  S.answer = a;
  $("answer").hidden = false;
  const rounds = a.min_rounds_proved ? `${a.min_rounds} rounds, the fewest possible (proved)`
    : a.rounds_upper_bound ? `a plan in ${a.rounds_upper_bound} rounds; at least ${a.rounds_lower_bound} are needed`
    : `at least ${a.rounds_lower_bound} rounds are needed`;
  say("verdict", `${a.verdict.toUpperCase()}: ${rounds}` + (a.from_round ? ` (from round ${a.from_round})` : "") +
    ". Why: " + a.verdict_proof);
  // the page grows to its content: one scroll bar (the window's), not a scroll inside a scroll
  $("answer-page").onload = () => {
    const doc = $("answer-page").contentDocument;
    if (doc && doc.body) $("answer-page").style.height = (doc.documentElement.scrollHeight + 20) + "px";
  };
  $("answer-page").src = `/api/jobs/${job.id}/page.html`;
  $("download-page").href = `/api/jobs/${job.id}/page.html?download=1`;
  const blob = new Blob([JSON.stringify(a, null, 2)], {type: "application/json"});
  $("download-json").href = URL.createObjectURL(blob);
  const sel = $("from-round");
  sel.innerHTML = "";
  S.plan = null;
  if (job.has_plan) {
    $("download-plan").href = `/api/jobs/${job.id}/plan.json`;
    $("download-plan").hidden = false;
    const r = await api("GET", `/api/jobs/${job.id}/plan.json`);
    S.plan = r.ok ? r.data : null;
  } else {
    $("download-plan").hidden = true;
  }
  $("play-along").hidden = !S.plan;
  if (S.plan) {
    for (let i = 1; i <= S.plan.rounds.length; i++) sel.appendChild(el("option", {value: i}, String(i)));
    sel.value = String(Math.min(2, S.plan.rounds.length));
    fillPrefix();
  }
}

// The rounds played so far as a form: shares, action, target, each build path on a line, each shipment on a line
// ("FROM CUBE ROUTE", with a fourth word for a discount hex, or "pass" / "locomotive"). The JSON below is what is
// sent; the form rewrites it on every change.
function shipText(s) {
  if (typeof s === "string") return s;
  return [s.from, s.cube, s.route, s.discount].filter((x) => x).join(" ");
}
function fillPrefix() {
  const r = Number($("from-round").value);
  const rounds = S.plan.rounds.slice(0, r - 1);
  const t = $("prefix-rounds");
  t.innerHTML = "<tr><th>round</th><th>shares</th><th>action</th><th>target</th><th>build (a path a line)</th>" +
    "<th>shipments (FROM CUBE ROUTE, pass, locomotive: one a line)</th></tr>";
  const list = el("datalist", {id: "actions-list"});
  for (const a of S.board.actions || []) list.appendChild(el("option", {value: a}));
  t.appendChild(list);
  rounds.forEach((rd, i) => {
    const tr = el("tr", {"data-round": i + 1});
    tr.appendChild(el("td", {}, String(i + 1)));
    const cell = (node) => { const td = el("td", {}); td.appendChild(node); tr.appendChild(td); return node; };
    cell(el("input", {type: "number", min: 0, value: rd.shares, class: "p-shares", style: "width:4em"}));
    cell(el("input", {value: rd.action || "", class: "p-action", list: "actions-list", style: "width:8em", placeholder: "none"}));
    cell(el("input", {value: rd.target || "", class: "p-target", style: "width:4em"}));
    cell(el("textarea", {class: "p-build", rows: Math.max(2, rd.build.length), cols: 16})).value = rd.build.join("\n");
    cell(el("textarea", {class: "p-ship", rows: Math.max(2, rd.ship.length), cols: 26})).value = rd.ship.map(shipText).join("\n");
    t.appendChild(tr);
  });
  t.querySelectorAll("input, textarea").forEach((x) => x.addEventListener("input", () => { if (formToJson()) liveCheck(); else liveNo++; }));
  $("prefix").value = JSON.stringify({...S.plan, rounds}, null, 2);
  say("from-error", "");
  const mr = $("mark-round");
  mr.innerHTML = "";
  rounds.forEach((_, i) => mr.appendChild(el("option", {value: i + 1}, String(i + 1))));
  if (rounds.length) mr.value = String(rounds.length);
  $("mark-box").hidden = !rounds.length;
  const cubes = $("mark-cube");
  cubes.innerHTML = "";
  for (const c of S.board.colours) cubes.appendChild(el("option", {value: c}, c));
  stopMarking();
  liveCheck();
}

// ---------------------------------------------------------------- play along by clicking on the board
function stopMarking() {
  S.mark = null;
  say("mark-now", "");
  document.querySelectorAll("#board-svg .target.marked").forEach((t) => t.classList.remove("marked"));
  ["mark-track", "mark-ship"].forEach((id) => $(id).classList.remove("on"));
}
function startMarking(mode) {
  stopMarking();
  S.mark = {mode, hexes: []};
  $(mode === "track" ? "mark-track" : "mark-ship").classList.add("on");
  say("mark-now", mode === "track" ? "Click the hexes of the path, from where it starts; then done."
    : "Click the stop the cube leaves, then each stop it passes; then done.");
}
function markHex(hex) {
  S.mark.hexes.push(hex);
  const t = document.querySelector(`#board-svg .target[data-hex="${hex}"]`);
  if (t) t.classList.add("marked");
  if (S.mark.mode === "ship" && S.mark.hexes.length === 1 && S.goodsBefore) {  // the top cube there, as a default
    const stack = S.goodsBefore[hex];
    if (stack && stack.length) $("mark-cube").value = stack[stack.length - 1];
  }
  say("mark-now", `${S.mark.mode === "track" ? "path" : "shipment"}: ${S.mark.hexes.join("-")}`);
}
function markDone() {
  if (!S.mark || !S.mark.hexes.length) return;
  const tr = $("prefix-rounds").querySelector(`tr[data-round="${$("mark-round").value}"]`);
  const h = S.mark.hexes;
  const [box, line] = S.mark.mode === "track" ? [tr.querySelector(".p-build"), h.join("-")]
    : [tr.querySelector(".p-ship"), `${h[0]} ${$("mark-cube").value} ${h.join("-")}`];
  box.value = (box.value.trim() ? box.value.trim() + "\n" : "") + line;
  const mode = S.mark.mode;
  startMarking(mode);
  if (formToJson()) liveCheck();
}
$("mark-track").addEventListener("click", () => startMarking("track"));
$("mark-ship").addEventListener("click", () => startMarking("ship"));
$("mark-done").addEventListener("click", markDone);
$("mark-clear").addEventListener("click", () => {
  const tr = $("prefix-rounds").querySelector(`tr[data-round="${$("mark-round").value}"]`);
  tr.querySelector(".p-build").value = "";
  tr.querySelector(".p-ship").value = "";
  if (formToJson()) liveCheck();
});

// The referee replays the rounds as played after every change: the state reached, or the illegal step.
let liveNo = 0;
function liveCheck() {   // after a pause in typing (a third of a second), so that each keystroke is not a replay
  const no = ++liveNo;
  clearTimeout(S.liveTimer);
  S.liveTimer = setTimeout(() => { if (no === liveNo) replayLive(no); }, 300);
}
async function replayLive(no) {
  let prefix;
  try { prefix = JSON.parse($("prefix").value); } catch (e) { return; }
  const before = {...prefix, rounds: prefix.rounds.slice(0, Math.max(0, Number($("mark-round").value || 1) - 1))};
  const [r, b] = await Promise.all([api("POST", "/api/play-along/check", {board: S.board.id, prefix}),
    api("POST", "/api/play-along/check", {board: S.board.id, prefix: before})]);
  if (no !== liveNo) return;
  S.goodsBefore = b.ok ? b.data.goods : null;
  if (r.ok) {
    say("from-error", "");
    const n = prefix.rounds.length;
    say("from-ok", n ? (n === 1 ? "Round 1" : `Rounds 1 to ${n}`) + " as played, replayed by the referee: " +
      `cash $${r.data.cash}, income ${r.data.income}, ${r.data.shares} shares, locomotive ${r.data.locomotive}.` : "");
  } else { say("from-ok", ""); say("from-error", r.data.error); }
}
function formToJson() {
  say("from-error", "");
  const rounds = [];
  for (const tr of $("prefix-rounds").querySelectorAll("tr[data-round]")) {
    const n = tr.dataset.round;
    const lines = (cls) => tr.querySelector(cls).value.split("\n").map((x) => x.trim()).filter((x) => x);
    const ship = [];
    for (const line of lines(".p-ship")) {
      const w = line.split(/\s+/);
      if (w.length === 1) ship.push(w[0]);
      else if (w.length === 3 || w.length === 4) {
        const s = {from: w[0], cube: w[1], route: w[2]};
        if (w[3]) s.discount = w[3];
        ship.push(s);
      } else { say("from-error", `round ${n}, shipment '${line}': expected FROM CUBE ROUTE, 'pass' or 'locomotive'`); return false; }
    }
    const shares = tr.querySelector(".p-shares").value;
    if (!/^\d+$/.test(shares)) { say("from-error", `round ${n}: shares must be a whole number, got '${shares}'`); return false; }
    const rd = {shares: Number(shares), action: tr.querySelector(".p-action").value.trim() || null,
      build: lines(".p-build"), ship};
    const target = tr.querySelector(".p-target").value.trim();
    if (target) rd.target = target;
    rounds.push(rd);
  }
  $("prefix").value = JSON.stringify({...S.plan, rounds}, null, 2);
  return true;
}
$("from-round").addEventListener("change", fillPrefix);
$("prefix-file").addEventListener("change", async () => {
  const f = $("prefix-file").files[0];
  if (f) {
    $("prefix").value = await f.text();
    $("prefix-rounds").innerHTML = "<tr><td>the loaded plan prefix is below, as JSON</td></tr>";
    $("prefix").closest("details").open = true;
  }
  $("prefix-file").value = "";
});
$("from-here").addEventListener("click", async () => {
  say("from-error", "");
  let prefix;
  try { prefix = JSON.parse($("prefix").value); } catch (e) {
    say("from-error", "The plan so far is not valid JSON: " + e.message);
    return;
  }
  busy();
  startJob(await api("POST", "/api/play-along", {tab: TAB, board: S.board.id, prefix, ...settings()}), "from-error");
});

loadBoards();
