// The arena console's pages. Each page path renders from the JSON routes under /api/; live
// standings arrive as server-sent events. Every value from the server is inserted as text
// (h() never parses markup): bot names and verdict reasons come from bots. Every 64-bit integer
// (seeds, counts, scores, times) arrives as a string of digits, since a JavaScript number is exact
// only to 2^53: shown as it comes, and turned into a number (num) only to draw.
"use strict";

(function () {
  // h("a", {href: "/"}, "text", child…): an element; strings become text nodes.
  function h(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (k === "class") e.className = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // The registered games (name, title, seats, ladder), as the server wrote them into the page.
  const GAMES = JSON.parse((document.getElementById("arena-games") || {}).textContent || "[]");
  const gameTitle = (name) => (GAMES.find((g) => g.name === name) || { title: name || "" }).title;
  // How a game's competitions are shown, as its registration says (arena_games::CompetitionView,
  // every registered game has one); a game the page does not list is shown plainly.
  const PLAIN_VIEW = { mean_heading: "Mean score", ranking_rule: "", placement: [], summary: "", drawn: "" };
  const viewOf = (name) => (GAMES.find((g) => g.name === name) || {}).competitions || PLAIN_VIEW;
  // A view's text with its {field}s filled from `values` (a list by its length).
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => {
    const v = values[k];
    return Array.isArray(v) ? String(v.length) : v === undefined || v === null ? "" : String(v);
  });
  const app = () => document.getElementById("app");
  const params = () => new URLSearchParams(location.search);
  const q = (k) => params().get(k) || "";
  const link = (path, query) => path + (query ? "?" + new URLSearchParams(query).toString() : "");
  const fmt = (x, d = 3) => (typeof x === "number" && isFinite(x) ? x.toFixed(d) : "—");
  const signed = (x, d = 3) => (typeof x === "number" && isFinite(x) ? (x >= 0 ? "+" : "") + x.toFixed(d) : "—");
  const when = (ms) => (ms && ms !== "0" ? new Date(Number(ms)).toLocaleString() : "—");
  // A 64-bit integer from the server (a string of digits): as a number, to draw; whether it is
  // zero.
  const num = (x) => Number(x || 0);
  const nonzero = (x) => x !== undefined && x !== null && String(x) !== "0";

  let session = { operator: false, public_spectator: false };

  // A JSON route; a refusal for want of a credential sends the browser to the login form.
  async function api(path, opts) {
    const o = Object.assign({ credentials: "same-origin", headers: {} }, opts || {});
    if (o.body !== undefined && typeof o.body !== "string") {
      o.body = JSON.stringify(o.body);
      o.headers["content-type"] = "application/json";
    }
    const r = await fetch(path, o);
    let body = null;
    try { body = await r.json(); } catch (_) { body = null; }
    if (!r.ok) {
      const err = new Error((body && body.error) || `${r.status} ${r.statusText}`);
      err.status = r.status;
      throw err;
    }
    return body;
  }

  function fail(e) {
    const box = app();
    box.replaceChildren();
    if (e.status === 401) {
      // In plain words: the server's refusal is written for gRPC clients, not for a person.
      box.append(
        h("h1", {}, "Sign in"),
        h("div", { class: "panel", "data-testid": "sign-in-prompt" },
          h("p", {}, "This arena's pages are for its operators: sign in to see its competitions, replays, ladder, bots and deal library."),
          h("p", {}, h("a", { class: "button primary", href: link("/login", { next: location.pathname + location.search }) }, "Sign in with an operator token")),
          h("p", { class: "muted" }, "arena standalone keeps its token in <data-dir>/operator.token; arena operators add NAME issues one. An operator who wants anyone to watch starts the arena with --public-spectator."))
      );
    } else {
      box.append(h("p", { class: "error", "data-testid": "error" }, e.message));
    }
  }

  function badge(state) { return h("span", { class: "badge " + state, "data-testid": "state" }, state); }
  function progress(done, total) {
    done = num(done); total = num(total);
    const pct = total ? Math.min(100, (100 * done) / total) : 0;
    const bar = h("div", { class: "progress", title: `${done} / ${total} tables` }, h("div", {}));
    bar.firstChild.style.width = pct + "%";
    return bar;
  }

  // ---- Competitions -------------------------------------------------------------------

  async function competitionsPage() {
    const { competitions } = await api("/api/competitions");
    const rows = competitions.map((c) =>
      h("tr", { "data-competition": c.name },
        h("td", {}, h("a", { href: link("/competition", { name: c.name }) }, c.name)),
        h("td", {}, gameTitle(c.game)),
        h("td", {}, c.format),
        h("td", {}, badge(c.state)),
        h("td", {}, progress(c.tables_done, c.tables_total)),
        h("td", { class: "num" }, `${c.tables_done} / ${c.tables_total}`),
        h("td", {}, c.participants.length),
        h("td", {}, when(c.created_unix_ms)),
        h("td", {}, session.operator && c.state === "running"
          ? h("button", { class: "danger", onclick: () => cancel(c.name) }, "Cancel") : "")
      ));
    app().replaceChildren(
      h("h1", {}, "Competitions"),
      competitions.length
        ? h("table", { class: "grid", "data-testid": "competitions" },
          h("thead", {}, h("tr", {}, ["Name", "Game", "Format", "State", "Progress", "Tables", "Participants", "Created", ""].map((t) => h("th", {}, t)))),
          h("tbody", {}, rows))
        : h("p", { class: "muted" }, "No competitions yet."),
      session.operator ? createForm() : ""
    );
  }

  async function cancel(name) {
    if (!confirm(`Cancel competition ${name}? Tables not yet played are not played.`)) return;
    try { await api("/api/competition/cancel", { method: "POST", body: { name } }); route(); }
    catch (e) { alert(e.message); }
  }

  function createForm() {
    const msg = h("div", {});
    const field = (label, name, attrs) => h("label", {}, label, h("input", Object.assign({ name }, attrs || {})));
    // The selected game's own options, as its registration lists them (name, help, default,
    // choices): placeholders say "default: …" and the server applies exactly those defaults
    // (the game's, as for arena competition create).
    const input = (f) => f.name.replace(/-/g, "_");
    const gameFields = (game) => ((GAMES.find((g) => g.name === game) || {}).fields || []).map((f) =>
      f.switch ? h("label", {}, h("input", { name: input(f), type: "checkbox" }), " ", f.help)
        : f.choices.length ? h("label", {}, f.help, h("select", { name: input(f) }, f.choices.map((c) => h("option", { value: c }, c))))
          : field(f.help, input(f), { placeholder: f.default ? `default: ${f.default.split(",").join(", ")}` : "" }));
    const options = h("div", { "data-testid": "game-options" });
    const game = h("select", { name: "game" }, GAMES.map((g) => h("option", { value: g.name }, g.title)));
    const showOptions = () => options.replaceChildren(...gameFields(game.value));
    game.addEventListener("change", showOptions);
    showOptions();
    const form = h("form", { class: "stack panel", "data-testid": "create" },
      h("h2", {}, "New competition"),
      h("div", { class: "row" },
        h("div", {},
          field("Name", "name", { required: true }),
          h("label", {}, "Game", game),
          field("Participants (bot names, comma-separated)", "participants", { required: true, placeholder: "e.g. expert, seed, random" }),
          field("Decision time (ms)", "decision_ms", { type: "number", min: 0, placeholder: "default: 1000" }),
          field("Penalty points per 100 ms over", "penalty_per_100ms", { type: "number", min: 0, placeholder: "default: 0" })),
        options),
      h("p", { class: "muted" }, "Competitions of measured deals (equal-strength, difficulty-adjusted) deal what the library holds: deals it lacks are generated and measured first, as arena competition create does (this can take minutes); the progress shows here."),
      h("p", {}, h("button", { class: "primary", type: "submit" }, "Create")), msg);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const f = new FormData(form);
      const list = (s) => String(s || "").split(",").map((x) => x.trim()).filter(Boolean);
      const n = (s) => (String(s || "").trim() === "" ? 0 : Number(s));
      const body = {
        name: f.get("name"), game: f.get("game"), participants: list(f.get("participants")),
        decision_ms: n(f.get("decision_ms")), penalty_per_100ms: n(f.get("penalty_per_100ms")),
      };
      // The game's options as text (left out when empty), a switch as true when set.
      for (const o of (GAMES.find((g) => g.name === f.get("game")) || {}).fields || []) {
        const v = f.get(input(o));
        if (o.switch) { if (v) body[input(o)] = true; }
        else if (v !== null && String(v).trim() !== "") body[input(o)] = String(v).trim();
      }
    const submit = form.querySelector("button[type=submit]");
      msg.className = "muted"; msg.replaceChildren("Creating…");
      submit.disabled = true;
      try {
        const r = await api("/api/competitions", { method: "POST", body });
        if (r.preparing) await followPreparation(r.preparing, msg);
        else if (r.warnings && r.warnings.length) {
          // Created, but the creator must read why it may go badly before moving on.
          msg.className = "panel";
          msg.replaceChildren(h("div", { "data-testid": "create-warnings" },
            h("strong", {}, `${r.competition.name} was created, with warnings:`),
            r.warnings.map((w) => h("div", { class: "error" }, w)),
            h("a", { href: link("/competition", { name: r.competition.name }) }, "Open the competition")));
        } else location.href = link("/competition", { name: r.competition.name });
      } catch (e) { msg.className = "error"; msg.replaceChildren(e.message); }
      submit.disabled = false;
    });
    return form;
  }

  // A competition whose deals the library is finding: its progress until it is created (then
  // its page opens) or fails (an error thrown). Each request returns when something changed.
  async function followPreparation(p, box) {
    for (;;) {
      box.className = "panel";
      box.replaceChildren(preparationView(p));
      if (p.state === "created") { location.href = link("/competition", { name: p.competition.name }); return; }
      if (p.state === "failed") throw new Error(p.error);
      const r = await api(link("/api/competitions/preparing", { name: p.name, seen: p.version }));
      p = r.preparing;
    }
  }

  function preparationView(p) {
    const what = p.state === "creating" || p.state === "created"
      ? "The deals are there: creating the competition…"
      : p.have === null
        ? `${p.name} needs ${p.need} measured deals: asking the deal library how many it holds, to find the rest.`
        : `${p.name} needs ${p.need} measured deals; the library held ${p.have} unused ones near its difficulty: finding ${p.missing} more (fresh deals generated and measured by the panel).`;
    return h("div", { "data-testid": "preparing", "data-state": p.state },
      h("strong", {}, what),
      progress(p.found, p.missing === null ? p.need : p.missing),
      h("div", { class: "muted", "data-testid": "preparing-progress" },
        `${p.found} / ${p.missing === null ? "?" : p.missing} found · ${p.tried} deals tried · ${p.games} games · ${fmt(p.seconds, 1)} s`));
  }

  // ---- One competition: live standings, heat map, intervals, tables -------------------------

  function standingsView(st, comp) {
    const n = st.standings.length;
    const places = Array.from({ length: n }, (_, i) => i + 1);
    const view = viewOf(st.game);
    // A game's own totals per participant, as its registration renders them: [title, value] pairs.
    const totals = (st.standings.find((s) => Array.isArray(s.totals)) || {}).totals;
    const head = h("tr", {}, h("th", { class: "num" }, "Place"), h("th", {}, "Participant"),
      places.map((k) => h("th", { class: "num" }, `P(#${k})`)),
      h("th", { class: "num" }, view.mean_heading), h("th", { class: "num" }, "95% CI"),
      h("th", { class: "num" }, "Mean rank"),
      totals ? totals.map(([t]) => h("th", { class: "num" }, t)) : h("th", { class: "num" }, "Verdicts"));
    const body = st.standings.map((s) =>
      h("tr", { "data-participant": s.participant, "data-place": s.place },
        h("td", { class: "num place" }, s.place),
        h("td", { class: "participant" }, s.participant),
        places.map((k) => {
          const p = s.rank_probabilities[k - 1] || 0;
          const cell = h("td", { class: "p", title: `P(place ${k}) = ${p}` }, p > 0 ? fmt(p, 2) + (s.most_probable_rank === k ? "*" : "") : "·");
          cell.style.background = Charts.heatColor(p);
          cell.style.color = Charts.heatInk(p);
          return cell;
        }),
        h("td", { class: "num mean-score" }, signed(s.mean_score)),
        h("td", { class: "num ci" }, "± " + fmt(s.score_ci95)),
        h("td", { class: "num mean-rank" }, fmt(s.mean_rank, 2)),
        totals ? (Array.isArray(s.totals) ? s.totals : []).map(([, v]) => h("td", { class: "num" }, v))
          : h("td", { class: "num verdicts" }, s.verdicts || 0)
      ));
    const status = st.final
      ? h("span", { class: "badge finished", "data-testid": "final" }, "final")
      : h("span", { class: "badge live" }, comp && comp.state !== "running" ? comp.state : "live");
    return h("div", { "data-testid": "standings" },
      h("h2", {}, "Standings ", status, " ", h("span", { class: "muted" }, `${st.tables_done} / ${st.tables_total} tables`
        + (Number(st.tables_withheld) > 0 ? ` (${st.tables_withheld} not counted yet: their deal is still being played)` : ""))),
      progress(st.tables_done, st.tables_total),
      rankingRule(view),
      h("table", { class: "grid heat" }, h("thead", {}, head), h("tbody", {}, body)),
      h("h2", {}, "Mean score with its 95% confidence interval"),
      h("div", { class: "panel" }, Charts.intervals(st.standings.map((s) => ({ label: s.participant, mean: s.mean_score, half: s.score_ci95 })))),
      view.drawn && nonzero(st.drawn_hands) ? h("p", { class: "muted" }, fill(view.drawn, { n: st.drawn_hands })) : "");
  }

  // How places are decided, as the game decides them (its registration's words, P(#k) in bold).
  function rankingRule(view) {
    if (!view.ranking_rule) return "";
    const parts = view.ranking_rule.split("P(#k)");
    const rule = parts.flatMap((p, i) => (i ? [h("strong", {}, "P(#k)"), p] : [p]));
    return h("p", { class: "muted", "data-testid": "ranking-rule" }, h("strong", {}, "How places are decided. "), rule);
  }

  let liveSource = null;
  function closeLive() { if (liveSource) { liveSource.close(); liveSource = null; } }

  const TABLES_EVERY_MS = 2000;

  async function competitionPage() {
    const name = q("name");
    const { competition: c, standings } = await api(link("/api/competition", { name }));
    const standingsBox = h("div", {}, standingsView(standings, c));
    const infoBox = h("div", {}, competitionInfo(c));
    const tablesBox = h("div", {});
    app().replaceChildren(h("h1", {}, c.name), infoBox, standingsBox, h("h2", {}, "Tables"), tablesBox);
    // The tables list follows the standings: redrawn (at the page the viewer is on) whenever
    // they change, one request at a time and at most one every TABLES_EVERY_MS (a competition
    // of many tables changes many times a second; each list reads its results), the last change
    // always drawn.
    let offset = 0, loading = false, again = false, last = 0;
    const loadTables = async () => {
      if (loading) { again = true; return; }
      loading = true;
      try {
        do {
          again = false;
          const wait = last + TABLES_EVERY_MS - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          last = Date.now();
          try { tablesBox.replaceChildren(await tablesView(name, c.game, offset, (o) => { offset = o; loadTables(); })); }
          catch (e) { tablesBox.replaceChildren(h("p", { class: "error" }, e.message)); }
        } while (again);
      } finally { loading = false; }
    };
    loadTables();
    if (standings.final || c.state !== "running") return;
    // Live: one event stream; the server pushes each change (one watcher per competition,
    // whoever watches it).
    closeLive();
    liveSource = new EventSource(link("/api/competition/live", { name }));
    let current = c;
    const show = (ev) => { standingsBox.replaceChildren(standingsView(JSON.parse(ev.data), current)); loadTables(); };
    liveSource.addEventListener("standings", show);
    liveSource.addEventListener("final", async (ev) => {
      closeLive();
      // The competition has ended: its state now (finished or cancelled), without a reload.
      try { current = (await api(link("/api/competition", { name }))).competition; infoBox.replaceChildren(competitionInfo(current)); }
      catch (e) { infoBox.prepend(h("p", { class: "error" }, e.message)); }
      show(ev);
    });
    liveSource.addEventListener("failed", (ev) => { standingsBox.prepend(h("p", { class: "error" }, ev.data)); closeLive(); });
  }

  function competitionInfo(c) {
    return h("div", { class: "panel", "data-testid": "competition-info" },
      h("div", {}, badge(c.state), " ", gameTitle(c.game), " · ", c.format || "duplicate",
        " · ", fill(viewOf(c.game).summary, c), c.rotate_seats ? " · seats rotated" : "",
        c.format === "equal-strength" && c.centre.length ? ` · centre ${c.centre.join(", ")} ± ${c.eps}` : ""),
      h("div", { class: "muted" }, `created ${when(c.created_unix_ms)}`, nonzero(c.finished_unix_ms) ? ` · ended ${when(c.finished_unix_ms)}` : "",
        c.seed ? ` · seed ${c.seed}` : ""),
      c.error ? h("p", { class: "error" }, c.error) : "",
      session.operator && c.state === "running" ? h("p", {}, h("button", { class: "danger", onclick: () => cancel(c.name) }, "Cancel competition")) : "");
  }

  // A table's place in its competition: the columns its game names.
  const placesOf = (game) => viewOf(game).placement;

  async function tablesView(name, game, offset, go) {
    const r = await api(link("/api/competition/tables", { name, offset }));
    if (!r.total) return h("p", { class: "muted", "data-testid": "tables-count" }, "No table has finished yet.");
    const cell = (t, k) => (t.placement && t.placement[k] !== null && t.placement[k] !== undefined ? t.placement[k] : "");
    return h("div", {},
      h("p", { class: "muted", "data-testid": "tables-count", "data-total": r.total },
        `Tables ${r.offset + 1}–${r.offset + r.tables.length} of ${r.total} finished. A table's replay is shown once every table dealt the same cards has finished.`),
      h("table", { class: "grid", "data-testid": "tables" },
        h("thead", {}, h("tr", {}, ["Table", "Seats", ...placesOf(game).map(([t]) => t), "Final scores", "Verdicts", ""].map((t) => h("th", {}, t)))),
        h("tbody", {}, r.tables.map((t) => h("tr", {},
          h("td", {}, t.table_id),
          h("td", { class: "seats" }, (t.seats || []).join(" · ")),
          placesOf(game).map(([, k]) => h("td", { class: k === "side" ? "" : "num" }, cell(t, k))),
          h("td", {}, t.shown ? t.final_scores.join(" / ") : h("span", { class: "muted" }, "hidden while its deal is played")),
          h("td", { class: "num" }, t.shown && t.verdicts ? t.verdicts : ""),
          h("td", {}, t.shown ? h("a", { href: link("/replay", { table: t.table_id }), "data-replay": t.table_id }, "Replay") : ""))))),
      h("p", {},
        r.offset > 0 ? h("button", { onclick: () => go(Math.max(0, r.offset - r.limit)) }, "Previous") : "", " ",
        r.offset + r.tables.length < r.total ? h("button", { onclick: () => go(r.offset + r.limit) }, "Next") : ""));
  }

  // ---- The ladder ---------------------------------------------------------------------

  function gameTabs(path, game) {
    return h("div", { class: "tabs" }, GAMES.filter((g) => g.ladder).map((g) =>
      h("a", { href: link(path, { game: g.name }), class: g.name === game ? "active" : "" }, g.title)));
  }

  async function ladderPage() {
    const game = q("game") || (GAMES.find((g) => g.ladder) || GAMES[0] || {}).name || "";
    const { ratings } = await api(link("/api/leaderboard", { game }));
    app().replaceChildren(
      h("h1", {}, "Ladder"),
      gameTabs("/ladder", game),
      h("p", { class: "muted" }, "Ratings per bot release (Weng-Lin): μ ± σ, ranked by the conservative score μ − 3σ. Games are " +
        GAMES.filter((g) => g.ladder).map((g) => (g.ladder_group === 2 ? `duplicate pairs (${g.title})` : `duplicate sets of ${g.ladder_group} tables (${g.title})`)).join(" or ") + "."),
      ratings.length
        ? h("table", { class: "grid", "data-testid": "leaderboard" },
          h("thead", {}, h("tr", {}, ["#", "Bot", "Release", "μ − 3σ", "μ", "σ", "Games"].map((t) => h("th", {}, t)))),
          h("tbody", {}, ratings.map((r, i) => h("tr", {},
            h("td", { class: "num" }, i + 1),
            h("td", {}, h("a", { href: link("/bots", { bot: r.bot }) }, r.bot)),
            h("td", {}, r.release),
            h("td", { class: "num" }, fmt(r.conservative, 2)),
            h("td", { class: "num" }, fmt(r.mu, 2)),
            h("td", { class: "num" }, fmt(r.sigma, 2)),
            h("td", { class: "num" }, r.games)))))
        : h("p", { class: "muted" }, "No rated bots yet: the ladder rates connected remote bots (run the matchmaker with --ladder)."));
  }

  // ---- Bots ---------------------------------------------------------------------------

  async function botsPage() {
    const { bots } = await api("/api/bots");
    const only = q("bot");
    const shown = only ? bots.filter((b) => b.name === only) : bots;
    const items = shown.map((b) => {
      const history = b.releases.filter((r) => (r.history || []).length);
      return h("div", { class: "panel", "data-bot": b.name },
        h("h2", {}, b.name, " ", h("span", { class: "badge" }, b.kind)),
        b.created_unix_ms ? h("div", { class: "muted" }, `registered ${when(b.created_unix_ms)}`, b.max_tables ? ` · at most ${b.max_tables} tables at once` : "") : "",
        b.releases.length
          ? h("table", { class: "grid" },
            h("thead", {}, h("tr", {}, ["Game", "Release", "μ − 3σ", "μ", "σ", "Games"].map((t) => h("th", {}, t)))),
            h("tbody", {}, b.releases.map((r) => h("tr", {},
              h("td", {}, gameTitle(r.game)), h("td", {}, r.release),
              h("td", { class: "num" }, fmt(r.conservative, 2)), h("td", { class: "num" }, fmt(r.mu, 2)),
              h("td", { class: "num" }, fmt(r.sigma, 2)), h("td", { class: "num" }, r.games)))))
          : h("p", { class: "muted" }, "Not rated by the ladder yet."),
        history.length
          ? h("div", { "data-testid": "rating-history" }, h("h3", {}, "Rating history (μ, band μ ± σ)"),
            Charts.lines(history.map((r) => ({
              name: `${r.release} (${r.game})`,
              points: r.history.map((p) => ({ x: p.unix_ms, y: p.mu, lo: p.mu - p.sigma, hi: p.mu + p.sigma })),
            })), { xLabel: "rated at", xFormat: (ms) => new Date(ms).toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) }))
          : "");
    });
    app().replaceChildren(h("h1", {}, only ? `Bot ${only}` : "Bots"),
      only ? h("p", {}, h("a", { href: "/bots" }, "All bots")) : "",
      ...(items.length ? items : [h("p", { class: "muted" }, "No bots registered (arena bots add NAME).")]));
  }

  // ---- The deal library ---------------------------------------------------------------

  // A panel's seats: per seat one bot for every table or one per table (a ladder of 70 lists 70
  // landlords): long lists summed up, the whole list a click away and wrapped.
  function panelSeats(seats) {
    return h("div", {}, seats.map((bots, i) => {
      const role = i === 0 ? "landlord" : `seat ${i}`;
      if (bots.length <= 3) return h("div", {}, `${role}: ${bots.join(", ")}`);
      return h("details", {},
        h("summary", {}, `${role}: ${bots.length} bots, ${bots[0]} … ${bots[bots.length - 1]}`),
        h("div", { class: "wrap-list" }, bots.join(", ")));
    }));
  }

  async function dealsPage() {
    const { panels } = await api("/api/deals");
    const panel = q("panel") || (panels[0] && panels[0].id) || "";
    const box = h("div", {});
    app().replaceChildren(h("h1", {}, "Deal library"),
      panels.length ? h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, ["Panel", "Game", "Seats", "Scoring", "Deals"].map((t) => h("th", {}, t)))),
        h("tbody", {}, panels.map((p) => h("tr", { class: p.id === panel ? "active" : "" },
          h("td", {}, h("a", { href: link("/deals", { panel: p.id }) }, p.id)), h("td", {}, p.game),
          h("td", { class: "panel-seats" }, panelSeats(p.seats)), h("td", {}, p.scoring), h("td", { class: "num" }, p.deals)))))
        : h("p", { class: "muted" }, "The library is empty: arena deals gdi --count N measures deals."),
      box);
    if (!panel) return;
    let xi = Number(q("x") || 0), yi = Number(q("y") || 1);
    const render = async () => {
      // Deals on the same point come counted (a panel of N tables measures in steps of 1/N): a
      // point's area is its number of deals.
      const r = await api(link("/api/deals/points", { panel, x: xi, y: yi }));
      const pts = r.points.map((p) => ({
        x: p.x, y: p.y, count: num(p.count), r: 2.5 + 1.6 * Math.sqrt(num(p.count)),
        colour: nonzero(p.held) ? "#c0392b" : p.used === p.count ? "#9aa6b8" : "#2457c5",
        title: `${p.count} deal(s) at g${xi + 1} = ${p.x.toFixed(3)}, g${yi + 1} = ${p.y.toFixed(3)}${nonzero(p.held) ? `, ${p.held} held by a running competition` : ""}${nonzero(p.used) ? `, ${p.used} used` : ""}${p.example ? `; e.g. ${p.example}` : ""}`,
        href: p.example ? link("/deal", { panel, id: p.example }) : undefined,
      }));
      const pick = (label, value, set) => h("label", {}, label, h("select", { onchange: (e) => { set(Number(e.target.value)); render().catch(fail); } },
        Array.from({ length: r.dims }, (_, i) => h("option", { value: i, selected: i === value }, `g${i + 1}`))));
      box.replaceChildren(h("h2", {}, `Difficulty distribution of ${panel} (${r.deals} deals)`),
        h("p", { class: "muted" }, "Each deal's grade-difficulty index: g_j is the share of the panel's tables that reached landlord score level j+1 or higher; a point's area is the number of deals there (it links to one of them). Blue: free; grey: all used by ended competitions; red: some held by a running one."),
        h("form", { class: "inline" }, pick("x", xi, (v) => { xi = v; }), pick("y", yi, (v) => { yi = v; })),
        h("div", { class: "panel", "data-testid": "gdi-scatter" }, Charts.scatter(pts, { xLabel: `g${xi + 1}`, yLabel: `g${yi + 1}` })));
    };
    await render();
  }

  async function dealPage() {
    const d = await api(link("/api/deal", { panel: q("panel"), id: q("id") }));
    const total = d.counts.reduce((a, b) => a + Number(b), 0);
    app().replaceChildren(h("h1", {}, `Deal ${d.id}`),
      h("p", {}, h("a", { href: link("/deals", { panel: d.panel }) }, `Panel ${d.panel}`)),
      h("div", { class: "row" },
        h("div", { class: "panel", "data-testid": "measurement" }, h("h2", {}, "Measurement"),
          h("p", {}, `${total} panel tables; GDI `, d.gdi.map((g) => g.toFixed(3)).join(", ")),
          Charts.bars(d.levels.map(String), d.counts),
          h("p", { class: "muted" }, "Tables of the panel ending at each landlord score level (low to high).")),
        h("div", { class: "panel" }, h("h2", {}, "Cards"),
          d.deal ? h("p", {}, h("code", {}, d.deal), h("br", {}), h("span", { class: "muted" }, "hand0 (landlord) / hand1 / hand2 / bottom"))
            : h("p", { class: "muted" }, "Held by a running competition: its cards are shown once that competition has ended."),
          d.used_by ? h("p", { class: "muted" }, `Used by ${d.used_by}.`) : "",
          d.source ? h("p", { class: "muted", "data-testid": "deal-source" }, "Generated from seed ", h("code", { "data-testid": "deal-seed" }, d.source.seed), `, index ${d.source.index}`,
            d.source.bombs !== null && d.source.bombs !== undefined ? `, ${d.source.bombs} bomb(s)` : "",
            ": ", h("code", { "data-testid": "deal-command" }, `arena ddz deal --seed ${d.source.seed} --index ${d.source.index}` +
              (d.source.bombs !== null && d.source.bombs !== undefined ? ` --bombs ${d.source.bombs}` : "")), " deals it again.") : "")));
  }

  // ---- Login --------------------------------------------------------------------------

  function loginPage() {
    const msg = h("p", {});
    const form = h("form", { class: "stack panel", "data-testid": "login" },
      h("label", {}, "Operator token", h("input", { name: "token", type: "password", autocomplete: "off", required: true })),
      h("p", { class: "muted" }, "arena operators add NAME issues one; arena standalone keeps its own in <data-dir>/operator.token. It is kept in an HttpOnly cookie for this browser session."),
      h("p", {}, h("button", { class: "primary", type: "submit" }, "Sign in")), msg);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        // The console says where to go: one of its own pages, never another site.
        const r = await api("/api/login", { method: "POST", body: { token: new FormData(form).get("token"), next: q("next") } });
        location.assign(r.next || "/");
      } catch (e) { msg.className = "error"; msg.textContent = e.message; }
    });
    app().replaceChildren(h("h1", {}, "Sign in"), form);
  }

  // ---- Frame ---------------------------------------------------------------------------

  async function whoAmI() {
    try { session = await api("/api/session"); } catch (_) { /* shown per page */ }
    const who = document.getElementById("who");
    if (session.operator) {
      who.replaceChildren("operator", h("button", {
        onclick: async () => { await api("/api/logout", { method: "POST", body: {} }); location.reload(); },
      }, "Sign out"));
    } else {
      who.replaceChildren(session.public_spectator ? "public spectator · " : "", h("a", { href: link("/login", { next: location.pathname + location.search }) }, "Sign in"));
    }
  }

  const PAGES = {
    "/": competitionsPage,
    "/competition": competitionPage,
    "/replay": () => ArenaReplay.page(app(), { h, api, link, q, fmt, signed }),
    "/ladder": ladderPage,
    "/bots": botsPage,
    "/deals": dealsPage,
    "/deal": dealPage,
    "/login": loginPage,
  };

  async function route() {
    for (const a of document.querySelectorAll("[data-nav]")) {
      a.classList.toggle("active", a.getAttribute("data-nav") === location.pathname);
    }
    const page = PAGES[location.pathname];
    if (!page) { app().replaceChildren(h("p", { class: "error" }, "No such page.")); return; }
    try { await page(); } catch (e) { fail(e); }
  }

  window.Arena = { h, api, link };
  document.addEventListener("DOMContentLoaded", async () => {
    await whoAmI();
    await route();
  });
})();
