// The Dou Dizhu table for the replay player: three hands (all shown: the table is over), the
// landlord and bottom cards, the play to beat, and the public history up to the position.
"use strict";

(function () {
  const NAMES = { T: "10", B: "Jk", R: "JK" };

  function cards(h, text, extra) {
    const box = h("div", { class: "cards" });
    for (const c of String(text || "")) {
      const cls = c === "B" ? " joker-b" : c === "R" ? " joker-r" : "";
      box.append(h("span", { class: "card" + cls + (extra || ""), title: c === "B" ? "black joker" : c === "R" ? "red joker" : c }, NAMES[c] || c));
    }
    return box;
  }

  function eventText(e) {
    switch (e.kind) {
      case "bid": return `seat ${e.seat} bids ${e.value}`;
      case "redeal": return "everyone passed: dealt again";
      case "landlord": return `seat ${e.seat} is landlord at ${e.value.bid}, takes ${e.value.bottom}`;
      case "double": return `seat ${e.seat} ${e.value ? "doubles" : "does not double"}`;
      case "play": return `seat ${e.seat} ${e.value === "pass" ? "passes" : "plays " + e.value}`;
      default: return `seat ${e.seat} ${e.kind}`;
    }
  }

  function render({ doc, state, frame, at, h }) {
    const pub = state[0] || {};
    const events = at(doc.ddz_events);
    // Each seat's latest play in the current trick (since the last lead that won a trick).
    const lastPlay = {};
    for (const e of events) if (e.kind === "play") lastPlay[e.seat] = e.value;
    const landlord = pub.landlord;
    const seats = state.map((s, i) => h("div", {
      class: "seat" + (frame && frame.seat === i ? (frame.verdict ? " faulted" : " acting") : ""),
      "data-seat": i,
    },
      h("h3", {}, h("span", {}, `Seat ${i} · ${doc.seats[i] || ""}`),
        h("span", { class: "badge" }, landlord === undefined || landlord === null ? "bidding" : landlord === i ? "landlord" : "farmer")),
      cards(h, s.hand),
      h("div", { class: "muted" }, `${(s.hand || "").length} cards`,
        lastPlay[i] !== undefined ? ` · last: ${lastPlay[i]}` : "")));
    const centre = h("div", { class: "centre" },
      h("div", {}, `Phase: ${pub.phase || "—"} · bid ${pub.bid || 0}`,
        landlord !== undefined && landlord !== null ? ` · landlord seat ${landlord}` : ""),
      pub.bottom ? h("div", {}, "Bottom cards: ", cards(h, pub.bottom)) : "",
      pub.to_beat ? h("div", {}, `To beat (seat ${pub.to_beat_seat}): `, cards(h, pub.to_beat, " played")) : h("div", { class: "muted" }, "Free lead."),
      h("h3", {}, `History (${events.length} events)`),
      h("div", { class: "history", "data-testid": "history" }, events.slice().reverse().map((e) => h("div", {}, eventText(e)))));
    return h("div", { class: "table-view ddz" }, seats, centre);
  }

  function outcome({ outcome, h }) {
    if (!outcome || !outcome.detail) return "";
    const d = outcome.detail;
    const side = d.winner === d.landlord ? "the landlord" : "the farmers";
    const extras = [d.bombs ? `${d.bombs} bomb(s)` : "", d.rockets ? "rocket" : "", d.spring ? "spring" : "", d.anti_spring ? "anti-spring" : "", d.redoubled ? "redoubled" : ""].filter(Boolean);
    return h("p", { "data-testid": "winner" }, `Seat ${d.winner} went out first: ${side} (seat ${d.landlord} landlord at bid ${d.bid}) win`,
      extras.length ? ` · ${extras.join(", ")}` : "", ` · scored ${outcome.scoring}.`);
  }

  window.ArenaReplay.games.ddz = { render, outcome };
})();
