// The board editor: open a board file or start a blank grid, paint terrain, place cities, towns, exits and
// impassable sides; every change is checked by the loader behind `aos-solve map validate`; Save downloads the file.
"use strict";
(function () {
  const root = $("editor-root");
  root.innerHTML = `
  <div class="cols">
    <div class="left">
      <fieldset>
        <legend>Start from</legend>
        <label class="upload">a board file <input type="file" id="editor-file" accept=".toml"></label>
        <p>or a blank grid: <select id="editor-ruleset"><option value="easter-island">easter-island</option><option value="zoo">zoo</option></select>
          <input type="number" id="editor-cols" value="8" min="1" max="60" style="width:4em"> columns ×
          <input type="number" id="editor-rows" value="6" min="1" max="60" style="width:4em"> rows
          <button id="editor-blank">Blank grid</button></p>
        <p class="error" id="editor-open-error" role="alert"></p>
      </fieldset>
      <fieldset id="editor-tools" disabled>
        <legend>Paint (click hexes)</legend>
        <div id="editor-tool-buttons"></div>
        <label>Name <input id="editor-feature-name" placeholder="e.g. Red 3"></label>
        <label>City colour <select id="editor-city-colour"><option value="">none (any good)</option>
          <option value="red">red</option><option value="blue">blue</option><option value="yellow">yellow</option><option value="purple">purple</option><option value="black">black</option></select></label>
        <label>City number <input id="editor-city-number" style="width:4em"></label>
        <label>Region <input id="editor-city-region" placeholder="western"></label>
        <label>Danger (Zoo) <input type="number" id="editor-city-danger" min="0" style="width:4em"></label>
        <label>Printed board (edition) <input id="editor-edition" placeholder="Easter Island &amp; Zoo, 2012"></label>
        <label>Map name <input id="editor-map-name"></label>
        <p class="error" id="editor-click-error" role="alert"></p>
      </fieldset>
      <fieldset id="editor-setups" disabled>
        <legend>Difficulties and rounds</legend>
        <p>Each difficulty says how many cubes start on each ruin (or animal area). Pick one, choose the
          "cubes +" tool and click a city once per cube; "cubes −" takes one off.</p>
        <label>Difficulty <select id="editor-difficulty"></select></label>
        <label>New <input id="editor-difficulty-name" placeholder="easy" style="width:6em"></label>
        <button id="editor-difficulty-add">Add</button> <button id="editor-difficulty-remove">Remove</button>
        <label>The rule sheet's sentence (optional) <input id="editor-difficulty-quote" placeholder="Place one cube each on ..."></label>
        <p id="editor-difficulty-cubes"></p>
        <label>Round limit (the printed round track) <input type="number" id="editor-rounds" min="1" style="width:4em"></label>
      </fieldset>
      <fieldset>
        <legend>Check and save</legend>
        <p class="ok" id="editor-status"></p>
        <p class="warning" id="editor-warning"></p>
        <p class="error" id="editor-error" role="alert"></p>
        <button id="editor-save" class="primary" disabled>Save the board file</button>
      </fieldset>
    </div>
    <div class="right"><div id="editor-svg" class="grid-editor"></div></div>
  </div>`;
  const TOOLS = ["plain", "river", "mountain", "water", "off-map", "city", "town", "exit", "impassable", "erase", "cubes +", "cubes −"];
  const FILL = {plain: "#e8efd2", river: "#cfe3f2", mountain: "#c9b49a", water: "#8fbfe0", "off-map": "#fafafa"};
  const CITY = {red: "#f2a3a3", blue: "#a9c4f0", yellow: "#f6e08a", purple: "#cfa6e0", black: "#777", "": "#f4d9b0"};
  const E = {model: null, tool: "plain", first: null, checkNo: 0};
  const SIZE = 24, PAD = 30;

  for (const t of TOOLS) {
    const b = el("button", {id: "tool-" + t.replace(" +", "-add").replace(" −", "-remove"), "data-tool": t}, t);
    b.addEventListener("click", () => { E.tool = t; E.first = null; tools(); draw(); });
    $("editor-tool-buttons").appendChild(b);
  }
  function tools() { document.querySelectorAll("#editor-tool-buttons button").forEach((b) => b.classList.toggle("on", b.dataset.tool === E.tool)); }
  tools();

  function hexName(c, r) {
    let s = "", n = c + 1;
    while (n > 0) { const m = (n - 1) % 26; s = String.fromCharCode(65 + m) + s; n = Math.floor((n - 1) / 26); }
    return s + (r + 1);
  }
  function parseHex(name) {
    const m = /^([A-Z]+)(\d+)$/.exec(String(name).toUpperCase());
    if (!m) return null;
    let c = 0;
    for (const ch of m[1]) c = c * 26 + (ch.charCodeAt(0) - 64);
    return [c - 1, Number(m[2]) - 1];
  }
  function centre(c, r) { return [PAD + SIZE * Math.sqrt(3) * (c + 0.5 * (r % 2)), PAD + SIZE * 1.5 * r]; }
  function neighbours(c, r) {
    const odd = r % 2;
    return [[c + 1, r], [c - 1, r], [c + odd, r - 1], [c - 1 + odd, r - 1], [c + odd, r + 1], [c - 1 + odd, r + 1]];
  }
  function featureAt(hex) {
    for (const kind of ["cities", "towns", "exits"])
      for (const f of E.model.doc[kind] || []) if (String(f.hex).toUpperCase() === hex) return [kind, f];
    return [null, null];
  }
  function svgEl(tag, attrs, text) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function draw() {
    const t = E.model.terrain;
    const cols = Math.max(...t.map((r) => r.length));
    const w = PAD * 2 + SIZE * Math.sqrt(3) * (cols + 0.5), h = PAD * 2 + SIZE * 1.5 * (t.length - 1) + SIZE;
    const svg = svgEl("svg", {width: w, height: h, viewBox: `0 0 ${w} ${h}`, "font-family": "sans-serif"});
    t.forEach((row, r) => row.forEach((terrain, c) => {
      const [x, y] = centre(c, r);
      const pts = [...Array(6).keys()].map((i) => {
        const a = Math.PI / 180 * (60 * i - 30);
        return `${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`;
      }).join(" ");
      const name = hexName(c, r);
      const [kind, f] = featureAt(name);
      const fill = kind === "cities" ? CITY[f.colour || ""] : FILL[terrain];
      const poly = svgEl("polygon", {points: pts, fill, stroke: E.first === name ? "#f08000" : "#999",
        "stroke-width": E.first === name ? 3 : 0.6, class: "edit-hex", "data-hex": name, "data-terrain": terrain});
      poly.addEventListener("click", () => clickHex(c, r));
      svg.appendChild(poly);
      const label = kind ? (kind === "towns" ? "○ " : kind === "exits" ? "EXIT " : "") + (f.name || "") : "";
      if (label) svg.appendChild(svgEl("text", {x, y: y + 3, "font-size": 8, "text-anchor": "middle", "pointer-events": "none", "font-weight": "bold"}, label));
      svg.appendChild(svgEl("text", {x, y: y + SIZE * 0.75, "font-size": 6, fill: "#666", "text-anchor": "middle", "pointer-events": "none"}, name));
      const d = E.model.difficulties[$("editor-difficulty").value];
      if (kind === "cities" && d && d.cubes[f.name])
        svg.appendChild(svgEl("text", {x, y: y - SIZE * 0.45, "font-size": 8, fill: "#b00", "text-anchor": "middle", "pointer-events": "none", class: "cube-count"}, "■".repeat(d.cubes[f.name])));
    }));
    for (const side of E.model.doc.impassable || []) {
      const a = parseHex(side.between[0]), b = parseHex(side.between[1]);
      if (!a || !b) continue;
      const [ax, ay] = centre(...a), [bx, by] = centre(...b);
      const mx = (ax + bx) / 2, my = (ay + by) / 2, len = Math.hypot(bx - ax, by - ay) || 1;
      const px = -(by - ay) / len * SIZE / 2, py = (bx - ax) / len * SIZE / 2;
      svg.appendChild(svgEl("line", {x1: mx - px, y1: my - py, x2: mx + px, y2: my + py, stroke: "#000", "stroke-width": 4,
        "stroke-linecap": "round", "pointer-events": "none", class: "impassable"}));
    }
    $("editor-svg").innerHTML = "";
    $("editor-svg").appendChild(svg);
  }

  function transcribed(entry) {
    entry.source = "printed-board";
    const edition = $("editor-edition").value.trim();
    if (edition) entry.board = edition;
    return entry;
  }

  function clickHex(c, r) {
    say("editor-click-error", "");
    const doc = E.model.doc, name = hexName(c, r);
    if (["plain", "river", "mountain", "water", "off-map"].includes(E.tool)) {
      E.model.terrain[r][c] = E.tool;
      E.model.grid_edited = true;
    } else if (E.tool === "cubes +" || E.tool === "cubes −") {
      const [kind, f] = featureAt(name);
      const d = E.model.difficulties[$("editor-difficulty").value];
      if (!d) { say("editor-click-error", "Add a difficulty first (its name, then Add)."); return; }
      if (kind !== "cities") { say("editor-click-error", `${name} holds no city: cubes start on cities (ruins, animal areas).`); return; }
      const n = (d.cubes[f.name] || 0) + (E.tool === "cubes +" ? 1 : -1);
      if (n > 0) d.cubes[f.name] = n; else delete d.cubes[f.name];
      setups();
    } else if (E.tool === "erase") {
      for (const kind of ["cities", "towns", "exits"]) if (doc[kind]) doc[kind] = doc[kind].filter((f) => String(f.hex).toUpperCase() !== name);
    } else if (E.tool === "impassable") {
      if (!E.first) { E.first = name; draw(); return; }
      const a = parseHex(E.first);
      if (!neighbours(...a).some(([x, y]) => x === c && y === r)) {
        say("editor-click-error", `${E.first} and ${name} are not neighbours: an impassable side lies between two neighbouring hexes.`);
        E.first = null; draw(); return;
      }
      const pair = [E.first, name];
      const list = doc.impassable || (doc.impassable = []);
      const i = list.findIndex((s) => s.between && s.between.map((x) => String(x).toUpperCase()).sort().join() === [...pair].sort().join());
      if (i >= 0) list.splice(i, 1); else list.push(transcribed({between: pair}));
      E.first = null;
    } else {
      const fname = $("editor-feature-name").value.trim();
      if (!fname && E.tool !== "town") { say("editor-click-error", `Give the ${E.tool}'s name first (the Name field).`); return; }
      for (const kind of ["cities", "towns", "exits"]) if (doc[kind]) doc[kind] = doc[kind].filter((f) => String(f.hex).toUpperCase() !== name);
      const entry = {hex: name};
      if (fname) entry.name = fname;
      if (E.tool === "city") {
        const colour = $("editor-city-colour").value, number = $("editor-city-number").value.trim();
        const region = $("editor-city-region").value.trim(), danger = $("editor-city-danger").value;
        if (colour) entry.colour = colour;
        if (number) entry.number = number;
        if (region) entry.region = region;
        if (danger !== "") entry.danger = Number(danger);
      }
      const kind = {city: "cities", town: "towns", exit: "exits"}[E.tool];
      (doc[kind] || (doc[kind] = [])).push(transcribed(entry));
    }
    draw();
    check();
  }

  function setups(keep) {
    const sel = $("editor-difficulty"), names = Object.keys(E.model.difficulties);
    const current = keep || sel.value;
    sel.innerHTML = "";
    for (const n of names) sel.appendChild(el("option", {value: n}, n));
    if (names.includes(current)) sel.value = current;
    const d = E.model.difficulties[sel.value];
    $("editor-difficulty-quote").value = d ? d.quote || "" : "";
    $("editor-difficulty-cubes").textContent = d
      ? `${sel.value}: ` + (Object.entries(d.cubes).map(([k, v]) => `${k} ×${v}`).join(", ") || "no cubes yet") +
        ` (${Object.values(d.cubes).reduce((a, b) => a + b, 0)} cubes)`
      : "No difficulty yet: the solvers need at least one.";
    draw();
  }
  $("editor-difficulty").addEventListener("change", () => setups());
  $("editor-difficulty-add").addEventListener("click", () => {
    const n = $("editor-difficulty-name").value.trim();
    if (!/^[A-Za-z0-9_-]+$/.test(n)) { say("editor-click-error", "A difficulty's name is one word, e.g. easy."); return; }
    if (!E.model.difficulties[n]) E.model.difficulties[n] = {cubes: {}, quote: ""};
    $("editor-difficulty-name").value = "";
    setups(n); check();
  });
  $("editor-difficulty-remove").addEventListener("click", () => {
    delete E.model.difficulties[$("editor-difficulty").value];
    setups(); check();
  });
  $("editor-difficulty-quote").addEventListener("change", () => {
    const d = E.model.difficulties[$("editor-difficulty").value];
    if (d) { d.quote = $("editor-difficulty-quote").value.trim(); check(); }
  });
  $("editor-rounds").addEventListener("change", () => { E.model.rounds = $("editor-rounds").value; check(); });
  $("editor-edition").addEventListener("change", () => { E.model.edition = $("editor-edition").value.trim(); });

  async function check() {
    const no = ++E.checkNo;
    const r = await api("POST", "/api/editor/check", {model: E.model});
    if (no !== E.checkNo) return;
    say("editor-status", ""); say("editor-error", "");
    if (!r.ok) { say("editor-error", r.data.error); $("editor-save").disabled = true; return; }
    if (r.data.ok) say("editor-status", r.data.summary); else say("editor-error", r.data.error);
    say("editor-warning", (r.data.warnings || []).join(" "));
    $("editor-save").disabled = !r.data.ok;
  }

  function opened(r) {
    if (!r.ok) { say("editor-open-error", r.data.error); return; }
    say("editor-open-error", "");
    E.model = r.data;
    E.first = null;
    $("editor-tools").disabled = false;
    $("editor-setups").disabled = false;
    E.model.difficulties = E.model.difficulties || {};
    E.model.edition = $("editor-edition").value.trim();
    $("editor-map-name").value = (E.model.doc.meta || {}).name || "";
    $("editor-rounds").value = E.model.rounds || "";
    setups();
    check();
  }
  $("editor-file").addEventListener("change", async () => {
    const f = $("editor-file").files[0];
    if (!f) return;
    const form = new FormData();
    form.append("file", f);
    opened(await api("POST", "/api/editor/open", undefined, form));
    $("editor-file").value = "";
  });
  $("editor-blank").addEventListener("click", async () => {
    opened(await api("POST", "/api/editor/blank", {ruleset: $("editor-ruleset").value, columns: $("editor-cols").value, rows: $("editor-rows").value}));
  });
  $("editor-map-name").addEventListener("change", () => {
    E.model.doc.meta = {...(E.model.doc.meta || {}), name: $("editor-map-name").value.trim()};
    check();
  });
  $("editor-save").addEventListener("click", async () => {
    const res = await fetch("/api/editor/save", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({model: E.model})});
    if (!res.ok) { const d = await res.json(); say("editor-error", d.error); return; }
    const text = await res.text();
    window.lastSavedBoard = text;
    const a = el("a", {href: URL.createObjectURL(new Blob([text], {type: "application/toml"})), download: E.model.file_name || "board.toml"});
    document.body.appendChild(a);
    a.click();
    a.remove();
    say("editor-status", `Saved ${E.model.file_name}: ` + $("editor-status").textContent);
  });
})();
