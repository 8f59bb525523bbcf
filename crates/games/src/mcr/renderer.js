// The Chinese Standard Mahjong table for the replay player: each seat's concealed hand (all
// shown: the hand is over), its flowers, declared packs and discards, the four quarters of the
// wall, the prevalent wind, and the event history up to the position; at the end the winning
// hand's fans with their Chinese and English names and points.
"use strict";

(function () {
  // Botzone's notation to the Unicode Mahjong Tiles block: characters W, bamboos T, dots B,
  // winds F (east, south, west, north), dragons J (red, green, white), flowers H.
  const BASE = { W: 0x1f007, T: 0x1f010, B: 0x1f019, F: 0x1f000, J: 0x1f004, H: 0x1f022 };
  const SUIT = { W: "characters", T: "bamboos", B: "dots", F: "honor", J: "honor", H: "flower" };
  const WINDS = ["East", "South", "West", "North"];
  const WINDS_ZH = ["东", "南", "西", "北"];

  function glyph(t) {
    const base = BASE[t[0]];
    const n = Number(t.slice(1));
    return base && n >= 1 ? String.fromCodePoint(base + n - 1) : "?";
  }
  // A tile: its picture, and its code beneath for fonts without the pictures.
  function tile(h, t, extra) {
    if (!t) return h("span", { class: "tile honor hidden", title: "hidden" }, "?");
    return h("span", { class: `tile mcr ${SUIT[t[0]] || "honor"}${extra || ""}`, title: t },
      h("span", { class: "glyph", "aria-hidden": "true" }, glyph(t)), h("small", {}, t));
  }
  const tiles = (text) => String(text || "").trim().split(/\s+/).filter((t) => t);
  const wind = (i) => `${WINDS[i] || "?"} (${WINDS_ZH[i] || "?"})`;

  function answerText(a) {
    const [word, x, y] = String(a || "").split(" ");
    switch (word) {
      case "PLAY": return `discards ${x}`;
      case "PENG": return `pungs, discards ${x}`;
      case "CHI": return `chows around ${x}, discards ${y}`;
      case "GANG": return x ? `declares a concealed kong of ${x}` : "declares a kong";
      case "BUGANG": return `adds ${x} to a pung`;
      case "HU": return "wins";
      default: return a;
    }
  }
  function eventText(e) {
    switch (e.kind) {
      case "dealt": return "the deal is over: every seat holds 13 tiles";
      case "draw": return `seat ${e.seat} draws ${e.tile || "a tile"}`;
      case "flower": return `seat ${e.seat} sets flower ${e.tile} aside`;
      case "answer": return `seat ${e.seat} ${answerText(e.answer)}`;
      case "fault": return `seat ${e.seat} faults`;
      default: return `seat ${e.seat} ${e.kind}`;
    }
  }

  function pack(h, p) {
    const kind = p.kind === "chow" ? "Chow" : p.kind === "pung" ? "Pung" : "Kong";
    const concealed = p.kind === "kong" && p.offer === 0;
    return h("span", { class: "badge pack" }, `${concealed ? "Concealed kong" : kind} `, tile(h, p.tile));
  }

  function render({ doc, state, frame, at, h }) {
    const events = at(doc.mcr_events || []);
    const quan = doc.mcr_quan;
    const seats = state.map((s, i) => {
      const pub = (s.seats || [])[i] || { packs: [], discards: [], claimed: [], flowers: 0, wall_left: 0 };
      const acting = frame && frame.seat === i ? (frame.verdict ? " faulted" : " acting") : "";
      return h("div", { class: "seat" + acting, "data-seat": i },
        h("h3", {}, h("span", {}, `Seat ${i} · ${doc.seats[i] || ""}`), h("span", { class: "badge" }, wind(s.seat_wind ?? i))),
        h("div", { class: "cards", "data-testid": "hand" }, tiles(s.hand).map((t) => tile(h, t))),
        tiles(s.flowers).length ? h("div", { "data-testid": "flowers" }, "Flowers: ", tiles(s.flowers).map((t) => tile(h, t, " flower"))) : "",
        (pub.packs || []).length ? h("div", { "data-testid": "packs" }, "Packs: ", pub.packs.map((p) => pack(h, p))) : "",
        h("div", { class: "muted" }, "Discards:"),
        h("div", { class: "cards" }, (pub.discards || []).map((t, k) => tile(h, t, pub.claimed[k] ? " claimed" : ""))));
    });
    const pub = (state[0] || {}).seats || [];
    const centre = h("div", { class: "centre" },
      h("div", {}, `Prevalent wind: ${wind(quan)}`),
      h("div", { "data-testid": "wall" }, "Wall left: ", pub.map((p, i) => `seat ${i} ${p.wall_left}`).join(" · "),
        frame && frame.round > 1 ? ` · ${frame.round} seats answer together` : ""),
      h("h3", {}, `History (${events.length} events)`),
      h("div", { class: "history", "data-testid": "history" }, events.slice().reverse().map((e) => h("div", {}, eventText(e)))));
    return h("div", { class: "table-view mahjong mcr" }, seats, centre);
  }

  function outcome({ outcome, h }) {
    if (!outcome || !outcome.detail) return "";
    const d = outcome.detail;
    if (d.fault !== null && d.fault !== undefined) {
      return h("p", { "data-testid": "winner" }, `Seat ${d.fault}'s fault ended the hand: −30 to it, +10 to each other seat.`);
    }
    if (d.winner === null || d.winner === undefined) return h("p", { "data-testid": "winner" }, "Drawn hand: a seat's quarter of the wall ran out.");
    return h("div", { "data-testid": "winner" },
      h("p", {}, `Seat ${d.winner} wins on `, tile(h, d.tile),
        d.from !== null && d.from !== undefined ? `, paid most by seat ${d.from}` : " self-drawn", ` · ${d.points} points.`),
      // Each fan: its Chinese name, its English name beside it, its points (× how many times).
      h("div", { "data-testid": "fans" }, d.fans.map((f) => h("span", { class: "badge fan", title: f.name },
        h("span", { class: "fan-name", lang: "zh-Hans" }, f.chinese), ` ${f.name} ${f.points}`, f.count > 1 ? ` ×${f.count}` : ""))));
  }

  window.ArenaReplay.games.mcr = { render, outcome };
})();
