// The Desert page: enter this round's columns from the catalogue's pictures and the active tokens, get the advice
// (solver/desert_play/advise.py, as `aos-solve desert advise`), keep the game record round by round.
"use strict";
(function () {
  const root = $("desert-root");
  root.innerHTML = `
  <p id="desert-notice" class="error" role="note"></p>
  <div class="cols">
    <div class="left">
      <fieldset>
        <legend>Game</legend>
        <label>Challenge <select id="desert-challenge"><option value="">none</option></select></label>
        <p id="desert-round" class="verdict"></p>
        <p class="muted">Click a column to fill it, then click tiles in the palette (top to bottom); click a tile in a
          column to take it out. Then the active tokens, and Advise.</p>
        <div id="desert-columns"></div>
        <p>Active tokens: <span id="desert-tokens"></span></p>
        <div id="desert-token-buttons"></div>
        <button id="desert-advise" class="primary">Advise</button>
        <button id="desert-clear">Clear the columns</button>
        <p class="error" id="desert-error" role="alert"></p>
      </fieldset>
      <fieldset>
        <legend>The game so far (layout TOML, as <code>desert score</code> reads it)</legend>
        <textarea id="desert-record" rows="10" spellcheck="false" placeholder="empty: round 1"></textarea>
        <label class="upload">load a record <input type="file" id="desert-record-file" accept=".toml"></label>
        <a id="desert-download" href="#" download="desert-game.toml">Download the record</a>
      </fieldset>
    </div>
    <div class="right">
      <div id="desert-advice" hidden>
        <p id="desert-advice-notice" class="muted"></p>
        <h2 id="desert-advice-title"></h2>
        <ul id="desert-advice-list"></ul>
        <p id="desert-score"></p>
        <p id="desert-final" class="verdict"></p>
        <button id="desert-accept">I played this: keep it in the record</button>
        <div id="desert-area"></div>
      </div>
      <h3>Catalogue</h3>
      <div id="desert-palette"></div>
    </div>
  </div>`;
  const D = {catalogue: null, columns: [[], [], []], current: 0, tokens: [], advice: null};

  function drawColumns() {
    const box = $("desert-columns");
    box.innerHTML = "";
    D.columns.forEach((col, k) => {
      const div = el("div", {class: "desert-column" + (k === D.current ? " on" : ""), id: `desert-col-${k + 1}`});
      div.appendChild(el("b", {}, `Column ${k + 1}: `));
      col.forEach((id, i) => {
        const b = el("button", {class: "tile-chip", "data-tile": id, title: "take it out"}, id);
        b.addEventListener("click", (e) => { e.stopPropagation(); col.splice(i, 1); drawColumns(); });
        div.appendChild(b);
      });
      if (!col.length) div.appendChild(el("span", {class: "muted"}, "empty"));
      div.addEventListener("click", () => { D.current = k; drawColumns(); });
      box.appendChild(div);
    });
    $("desert-tokens").textContent = "";
    D.tokens.forEach((t, i) => {
      const b = el("button", {class: "tile-chip", "data-token": t, title: "take it out"}, t);
      b.addEventListener("click", () => { D.tokens.splice(i, 1); drawColumns(); });
      $("desert-tokens").appendChild(b);
    });
    const done = ($("desert-record").value.match(/\[\[round\]\]/g) || []).length;
    say("desert-round", `Round ${done + 1} of ${D.catalogue ? D.catalogue.rounds : 8}`);
    const blob = new Blob([$("desert-record").value], {type: "application/toml"});
    $("desert-download").href = URL.createObjectURL(blob);
  }

  async function load() {
    const r = await api("GET", "/api/desert/catalogue");
    if (!r.ok) { say("desert-error", r.data.error); return; }
    D.catalogue = r.data;
    say("desert-notice", r.data.data_notice ? r.data.data_notice.text : "");
    D.columns = Array.from({length: r.data.columns}, () => []);
    for (const c of r.data.challenges) $("desert-challenge").appendChild(el("option", {value: c.id}, c.name));
    const pal = $("desert-palette");
    for (const t of r.data.tiles) {
      const b = el("button", {class: "palette-tile", id: "tile-" + t.id, "data-tile": t.id, title: `${t.id} (${t.kind}, ${t.count} in the box)`});
      b.innerHTML = t.svg;
      b.addEventListener("click", () => {
        say("desert-error", "");
        D.columns[D.current].push(t.id);
        drawColumns();
      });
      pal.appendChild(b);
    }
    for (const t of r.data.tokens) {
      const b = el("button", {id: "token-" + t, "data-token": t}, "+ " + t);
      b.addEventListener("click", () => { D.tokens.push(t); drawColumns(); });
      $("desert-token-buttons").appendChild(b);
    }
    drawColumns();
  }

  $("desert-advise").addEventListener("click", async () => {
    say("desert-error", "");
    const r = await api("POST", "/api/desert/advise", {record: $("desert-record").value, columns: D.columns,
      tokens: D.tokens, challenge: $("desert-challenge").value});
    if (!r.ok) { say("desert-error", r.data.error); return; }
    const a = r.data;
    D.advice = a;
    $("desert-advice").hidden = false;
    say("desert-advice-notice", a.data_notice ? a.data_notice.text : "");
    say("desert-advice-title", `Round ${a.round}: take column ${a.column}`);
    const list = $("desert-advice-list");
    list.innerHTML = "";
    for (const t of a.tiles) list.appendChild(el("li", {}, `place ${t.tile} at (${t.at[0]}, ${t.at[1]}), turned ${t.rotation} quarter turn${t.rotation === 1 ? "" : "s"} clockwise: ${t.sides}`));
    const nth = (i) => ["first", "second", "third", "fourth", "fifth", "sixth"][i] || `no. ${i + 1}`;
    const n = (k, w) => `${k} ${w}${k === 1 ? "" : "s"}`;
    if (a.tiles_left_out) list.appendChild(el("li", {}, `${n(a.tiles_left_out, "tile")} of the column fit nowhere: leave them out`));
    for (const p of a.pawns) list.appendChild(el("li", {}, `place a ${p.kind} pawn (the ${p.token} token) on the tile at (${p.at[0]}, ${p.at[1]}), its ${nth(p.pinpoint)} pinpoint: ${n(p.points, "point")}`));
    if (!a.pawns.length) list.appendChild(el("li", {}, "no pawn can score this round"));
    list.appendChild(el("li", {class: "muted"}, `positions (x, y) in the record's frame: the start tile is at (${a.start_at[0]}, ${a.start_at[1]}), x grows east, y grows south`));
    list.appendChild(el("li", {class: "muted"}, "columns compared (" + a.value_basis + "): " + a.columns.map((c) => `${c.column}: ${c.value}`).join(", ")));
    say("desert-score", `Score so far, replayed by the referee: ${a.score_after}` + (a.score_before === null ? "" : ` (was ${a.score_before})`) +
      `. The advice is the ${a.policy} policy, not a proof of the best move.` +
      (a.mission ? ` Mission: ${a.mission.status}; star levels still reachable: ${a.stars_reachable.levels.join(", ") || "none"} (${a.stars_reachable.why}).` : ""));
    say("desert-final", a.finished ? `The game is over: ${a.score_after} points` + (a.challenge ? `, ${a.stars} star${a.stars === 1 ? "" : "s"}, mission ${a.mission_met ? "met" : "not met"}` : "") : "");
    $("desert-area").innerHTML = a.svg;
  });

  $("desert-accept").addEventListener("click", () => {
    if (!D.advice) return;
    $("desert-record").value = D.advice.record;
    D.columns = D.columns.map(() => []);
    D.current = 0;
    $("desert-advice").hidden = true;
    drawColumns();
  });
  $("desert-clear").addEventListener("click", () => { D.columns = D.columns.map(() => []); D.current = 0; drawColumns(); });
  $("desert-record").addEventListener("input", drawColumns);
  $("desert-record-file").addEventListener("change", async () => {
    const f = $("desert-record-file").files[0];
    if (f) $("desert-record").value = await f.text();
    $("desert-record-file").value = "";
    drawColumns();
  });
  load();
})();
