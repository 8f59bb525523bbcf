// The replay player: steps forward and back through every decision of a finished table, every
// hand shown, the deciding seat's legal options, the time it took, verdicts and penalties
// marked. The player is game-neutral; each game registers a renderer of its table
// (each game's own script, from its registration in arena-games, e.g. ArenaReplay.games.ddz) drawing one position:
//
//   render({ doc, state, frame, position, at, h }) -> Node
//
// where `state` is every seat's view before `frame` (or after the last decision when frame is
// null), `position` counts the decisions applied, and `at(events)` slices the table's event
// history to what had happened by then. The link of a table (and step) is /replay?table=ID&step=K.
"use strict";

(function () {
  const games = {};

  // 64-bit integers (penalties, scores) arrive as strings of digits.
  const nonzero = (x) => x !== undefined && x !== null && String(x) !== "0";
  const withSign = (x) => (String(x).startsWith("-") || String(x) === "0" ? String(x) : "+" + x);
  // A table's placement as its game says it (the page's games block: arena_games::CompetitionView),
  // a trailing comma left by an empty field dropped.
  function placementPhrase(game, placement) {
    const games = JSON.parse((document.getElementById("arena-games") || {}).textContent || "[]");
    const view = (games.find((g) => g.name === game) || {}).competitions;
    const phrase = view ? view.placement_phrase : "";
    return phrase.replace(/\{(\w+)\}/g, (_, k) => (placement[k] === undefined || placement[k] === null ? "" : String(placement[k])))
      .replace(/,\s*$/, "");
  }

  // The clock the table was played by, as lines of text: one when every seat had the same,
  // else one per seat, a seat whose bot has a limit of its own (doc.clocks[s].own) said to. A
  // replay whose result records no seat's clock (older ones) has the job's only.
  function clockLines(doc) {
    const clocks = doc.clocks;
    if (!clocks || !clocks.length) {
      const t = doc.time;
      return t ? [`${t.decision_ms || 1000} ms per decision, hard cap ${t.hard_cap_ms || 5000} ms${t.penalty_per_100ms ? `, ${t.penalty_per_100ms} penalty point(s) per 100 ms over` : ""}`] : [];
    }
    const later = (c, field) => (c.later && c.later[field] !== c[field] ? ` (${c.later[field]} ms from its second)` : "");
    const phrase = (c) => `${c.decision_ms} ms per decision${later(c, "decision_ms")}, hard cap ${c.hard_cap_ms} ms${later(c, "hard_cap_ms")}`;
    const per = clocks[0].penalty_per_100ms;
    const penalty = per ? `${per} penalty point(s) per 100 ms over` : "";
    const phrases = clocks.map(phrase);
    if (phrases.every((p) => p === phrases[0]) && !clocks.some((c) => c.own)) {
      return [phrases[0] + (penalty ? `, ${penalty}` : "")];
    }
    const seats = clocks.map((c, s) => `seat ${s} (${doc.seats[s] || "?"}): ${phrases[s]}${c.own ? ", its bot's own limit" : ""}`);
    return penalty ? seats.concat([penalty]) : seats;
  }

  // The limit a decision was judged by: the one recorded with it (none for a decision the
  // referee took for a seat at fault); in a replay from before steps recorded it, the job's,
  // answers to another seat's discard or kong having the claim limit (Mahjong: 500 ms unless set).
  function limitOf(doc, f) {
    if (doc.clocks && doc.clocks.length) return f.limit_ms || null;
    if (!doc.time) return null;
    const answer = f.kind === "claim" || f.kind === "rob-kong";
    return answer ? doc.time.claim_ms || 500 : doc.time.decision_ms || 1000;
  }

  function page(root, u) {
    const { h, api, link, q } = u;
    const table = q("table");
    if (!table) {
      root.replaceChildren(h("p", { class: "error" }, "Which table? /replay?table=ID"));
      return Promise.resolve();
    }
    return api(link("/api/replay", { table })).then((doc) => mount(root, doc, u));
  }

  function mount(root, doc, u) {
    const { h, link, q } = u;
    const game = games[doc.game];
    const frames = doc.frames;
    const total = frames.length;
    let position = Math.max(0, Math.min(total, Number(q("step")) || 0));

    const counter = h("span", { class: "counter", "data-testid": "counter" });
    const slider = h("input", { type: "range", min: 0, max: total, value: position, "aria-label": "decision" });
    const btn = (label, title, testid, f) => h("button", { title, "data-testid": testid, onclick: f }, label);
    const first = btn("«", "first (Home)", "first", () => go(0));
    const back = btn("◀", "back (←)", "back", () => go(position - 1));
    const next = btn("▶", "next (→)", "next", () => go(position + 1));
    const last = btn("»", "last (End)", "last", () => go(total));
    const share = btn("Copy link", "a link to this table at this decision", "share", () => {
      const url = location.origin + link("/replay", { table: doc.table_id, step: position });
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
      share.textContent = "Link copied";
      setTimeout(() => { share.textContent = "Copy link"; }, 1500);
    });
    slider.addEventListener("input", () => go(Number(slider.value)));

    const timeline = h("div", { class: "timeline", "data-testid": "timeline" }, frames.map((f, i) => {
      const b = h("button", { title: `${i + 1}: seat ${f.seat} ${f.kind} ${f.action ?? "—"}${f.verdict ? " · verdict " + f.verdict.kind : ""}${nonzero(f.penalty) ? " · penalty " + f.penalty : ""}` });
      if (f.verdict) b.classList.add("has-verdict");
      else if (nonzero(f.penalty)) b.classList.add("has-penalty");
      b.addEventListener("click", () => go(i));
      return b;
    }));

    const tableBox = h("div", {});
    const decisionBox = h("div", {});
    const outcomeBox = h("div", {});
    const seats = doc.seats;
    const placement = doc.placement;
    root.replaceChildren(
      h("h1", {}, "Replay ", h("span", { class: "muted", "data-testid": "table-id" }, doc.table_id)),
      h("div", { class: "panel" },
        doc.competition ? h("span", {}, "Competition ", h("a", { href: link("/competition", { name: doc.competition }) }, doc.competition), " · ") : "",
        placement ? placementPhrase(doc.game, placement) + " · " : "",
        seats.map((b, s) => `seat ${s}: ${b}`).join(" · "),
        clockLines(doc).map((line) => h("div", { class: "muted", "data-testid": "clock" }, line))),
      doc.error ? h("p", { class: "error", "data-testid": "replay-error" }, "This replay could not be played through to the end: ", doc.error) : "",
      h("div", { class: "player-controls" }, first, back, counter, next, last, slider, share),
      timeline, decisionBox, tableBox, outcomeBox);

    document.addEventListener("keydown", (e) => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      if (e.key === "ArrowRight") go(position + 1);
      else if (e.key === "ArrowLeft") go(position - 1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(total);
    });

    function decisionView(f) {
      if (!f) return h("div", { class: "decision" }, h("strong", {}, "The table is over."), ` ${total} decisions.`);
      const limit = limitOf(doc, f);
      const chosen = normalise(f.action);
      return h("div", { class: "decision", "data-testid": "decision" },
        h("div", {},
          h("strong", {}, `Decision ${f.index + 1} of ${total}: `), `seat ${f.seat} (${seats[f.seat] || "?"}) — ${f.kind} — `,
          h("strong", { "data-testid": "action" }, f.action ?? "no action (forfeit)"),
          f.automatic ? h("span", { class: "muted" }, " (played automatically by the referee)") : "",
          ` · ${f.elapsed_ms} ms`, limit ? h("span", { class: "muted" }, ` of ${limit}`) : "",
          nonzero(f.penalty) ? h("span", { class: "penalty", "data-testid": "penalty" }, ` · penalty ${f.penalty}`) : "",
          f.round > 1 ? h("span", { class: "muted" }, ` · one of ${f.round} seats answering together`) : ""),
        f.verdict ? h("div", { class: "verdict", "data-testid": "verdict" }, `Verdict: ${f.verdict.kind} — ${f.verdict.reason}`) : "",
        h("div", { class: "muted" }, `Legal options (${f.legal.length}):`),
        h("div", { class: "options", "data-testid": "legal" }, f.legal.map((o) => h("span", { class: normalise(o) === chosen ? "chosen" : "" }, o))));
    }

    // The legal list and the action spell bids and doubles differently ("2" vs "bid 2").
    function normalise(a) {
      if (a === null || a === undefined) return null;
      if (a.startsWith("bid ")) return a.slice(4);
      if (a === "double") return "1";
      if (a === "no double") return "0";
      return a;
    }

    function outcomeView() {
      const r = doc.result;
      const o = doc.replayed_outcome;
      return h("div", { class: "panel outcome" + (doc.outcome_matches ? "" : " mismatch"), "data-testid": "outcome" },
        h("h2", {}, "Outcome"),
        game && game.outcome ? game.outcome({ doc, outcome: o, h }) : "",
        h("table", { class: "grid" },
          h("thead", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Bot"), h("th", { class: "num" }, "Score"), h("th", { class: "num" }, "Penalties"), h("th", { class: "num" }, "Final"))),
          h("tbody", {}, seats.map((b, s) => h("tr", { "data-seat": s },
            h("td", {}, s), h("td", {}, b),
            h("td", { class: "num" }, o ? withSign(o.scores[s] ?? "0") : "—"),
            h("td", { class: "num" }, r.penalties[s] || 0),
            h("td", { class: "num final-score" }, r.final_scores[s] ?? "—"))))),
        r.verdicts.length ? h("div", {}, r.verdicts.map((v) => h("div", { class: "verdict" }, `seat ${v.seat}, decision ${v.decision + 1}: ${v.kind} — ${v.reason}`))) : "",
        r.forfeited_by !== null && r.forfeited_by !== undefined ? h("p", { class: "verdict" }, `Seat ${r.forfeited_by} forfeited.`) : "",
        h("p", { class: doc.outcome_matches ? "muted" : "error", "data-testid": "outcome-check" },
          doc.outcome_matches ? "Played again from the deal, the decisions reach the outcome the referee recorded." : "Played again, the decisions do not reach the recorded outcome."));
    }

    function go(p) {
      position = Math.max(0, Math.min(total, p));
      slider.value = position;
      counter.textContent = `${position} / ${total}`;
      first.disabled = back.disabled = position === 0;
      next.disabled = last.disabled = position === total;
      timeline.childNodes.forEach((b, i) => b.classList.toggle("now", i === position));
      const frame = position < total ? frames[position] : null;
      const state = frame ? frame.state : doc.end;
      decisionBox.replaceChildren(decisionView(frame));
      const events = state && state[0] ? state[0].events : 0;
      const at = (list) => list.slice(0, events);
      tableBox.replaceChildren(game
        ? game.render({ doc, state, frame, position, at, h })
        : h("p", { class: "error" }, `No replay renderer for the game ${doc.game}.`));
      outcomeBox.replaceChildren(position === total ? outcomeView() : "");
      const url = link("/replay", { table: doc.table_id, step: position });
      history.replaceState(null, "", url);
    }
    go(position);
  }

  window.ArenaReplay = { page, games, clockLines, limitOf };
})();
