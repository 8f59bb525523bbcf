// The Mahjong table for the replay player: four concealed hands (all shown: the hand is over),
// each seat's declared sets and discards, the wall, and the event history up to the position.
"use strict";

(function () {
  function tile(h, t, extra) {
    const suit = /^[1-9][MST]$/.test(t) ? t[1] : "honor";
    return h("span", { class: `tile ${suit}${extra || ""}`, title: t }, t);
  }
  // Concealed tiles as a list: "1M2M3M…" or space-separated, as the observation spells them.
  function tiles(text) {
    const s = String(text || "").trim();
    if (!s) return [];
    if (s.includes(" ")) return s.split(/\s+/);
    return s.match(/[1-9][MST]|[ESWNZFB]/g) || [];
  }

  function eventText(e) {
    const t = e.tile || "?";
    switch (e.kind) {
      case "draw": return `seat ${e.seat} draws ${t}`;
      case "discard": return `seat ${e.seat} discards ${t}`;
      case "chow": return `seat ${e.seat} chows ${e.lowest || t}`;
      case "pung": return `seat ${e.seat} pungs ${t}`;
      case "kong": return `seat ${e.seat} kongs ${t}`;
      case "concealed-kong": return `seat ${e.seat} declares a concealed kong ${t}`;
      case "added-kong": return `seat ${e.seat} adds a kong ${t}`;
      case "chow-failed": return `seat ${e.seat}'s chow loses to a pung or kong`;
      case "win": return `seat ${e.seat} wins${e.from !== null && e.from !== undefined ? " on seat " + e.from + "'s tile" : " self-drawn"}${e.robbed_kong ? " (robbing the kong)" : ""}`;
      case "drawn": return "the wall ran out: drawn hand";
      default: return `seat ${e.seat} ${e.kind} ${t}`;
    }
  }

  function render({ doc, state, frame, at, h }) {
    const events = at(doc.mahjong_events);
    const seats = state.map((s, i) => {
      const pub = (s.seats || [])[i] || { melds: [], discards: [], claimed: [] };
      return h("div", { class: "seat" + (frame && frame.seat === i ? (frame.verdict ? " faulted" : " acting") : ""), "data-seat": i },
        h("h3", {}, h("span", {}, `Seat ${i} · ${doc.seats[i] || ""}`), s.first === i ? h("span", { class: "badge" }, "drew first") : ""),
        h("div", { class: "cards" }, tiles(s.hand).map((t) => tile(h, t, s.drawn === t ? " drawn" : ""))),
        pub.melds.length ? h("div", {}, "Sets: ", pub.melds.map((m) => h("span", { class: "badge" }, `${m.kind} ${m.tile || "?"}`))) : "",
        h("div", { class: "muted" }, "Discards:"),
        h("div", { class: "cards" }, pub.discards.map((t, k) => tile(h, t, pub.claimed[k] ? " claimed" : ""))));
    });
    const pub = state[0] || {};
    const centre = h("div", { class: "centre" },
      h("div", {}, `Wall: ${pub.wall_left ?? "—"} tiles left`, frame && frame.round > 1 ? ` · ${frame.round} seats answer together` : ""),
      h("h3", {}, `History (${events.length} events)`),
      h("div", { class: "history", "data-testid": "history" }, events.slice().reverse().map((e) => h("div", {}, eventText(e)))));
    return h("div", { class: "table-view mahjong" }, seats, centre);
  }

  function outcome({ outcome, h }) {
    if (!outcome || !outcome.detail) return "";
    const d = outcome.detail;
    if (d.winner === null || d.winner === undefined) return h("p", { "data-testid": "winner" }, "Drawn hand: the wall ran out.");
    return h("div", { "data-testid": "winner" },
      h("p", {}, `Seat ${d.winner} wins on ${d.tile}`, d.from !== null && d.from !== undefined ? `, paid by seat ${d.from}` : " self-drawn", d.robbed_kong ? " (robbing a kong)" : "", ` · ${d.fan_total} fan.`),
      // The Chinese name as scored, its English name beside it (the rules crate's), its points.
      h("div", { "data-testid": "fans" }, d.fans.map((f) => h("span", { class: "badge fan", title: f.english || f.name },
        h("span", { class: "fan-name", lang: "zh-Hans" }, f.name), f.english ? ` ${f.english}` : "", ` ${f.points}`))));
  }

  window.ArenaReplay.games.mahjong = { render, outcome };
})();
