// The arena console in a real browser: Debian's chromium driven by playwright-core, against a
// running `arena standalone` that the Rust test (crates/cli/tests/console_browser.rs) started
// and filled. It passes, in the environment:
//
//   CONSOLE_URL      the console, e.g. http://127.0.0.1:41234
//   OPERATOR_TOKEN   standalone's operator token
//   EXPECT           a JSON file: what the gRPC API says (standings, a replay)
//   SCREENSHOT_DIR   where each page's screenshot goes
//   CHECKS           optional: the one group of checks to run (e.g. "mcr"), beside those every
//                    run makes (signing in, no 404, no script error); unset, all of them
//
// It prints one line per screenshot ("screenshot PATH") and ends with "N passed, M failed".
"use strict";

const fs = require("fs");
const path = require("path");
const assert = require("assert/strict");
const { chromium } = require("playwright-core");

const BASE = process.env.CONSOLE_URL;
const TOKEN = process.env.OPERATOR_TOKEN;
const EXPECT = JSON.parse(fs.readFileSync(process.env.EXPECT, "utf8"));
const SHOTS = process.env.SCREENSHOT_DIR;
const WAIT = 60_000;

// Checks belong to a group: "console" (the whole console's, the default), "always" (every run's)
// or a game's own ("mcr"); with CHECKS set, only its group and "always" run.
const ONLY = process.env.CHECKS || null;
const results = [];
async function check(name, f, group = "console") {
  if (ONLY && group !== ONLY && group !== "always") return;
  try {
    await f();
    results.push([name, true]);
    console.log(`ok   ${name}`);
  } catch (e) {
    results.push([name, false]);
    console.log(`FAIL ${name}\n${e && e.stack ? e.stack : e}`);
  }
}

async function shot(page, name) {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot ${file}`);
}

// The page formats a mean score as the sign and three decimals, an interval as ± three decimals.
const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);

async function main() {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Every answer of 404 the browser gets, on any page (the icon browsers ask for included).
  const notFound = [];
  context.on("response", (r) => { if (r.status() === 404) notFound.push(r.url()); });

  await check("spectator pages ask for an operator sign-in in plain words when the operator has not opened them", async () => {
    await page.goto(`${BASE}/`);
    const prompt = page.locator("[data-testid=sign-in-prompt]");
    await prompt.waitFor({ timeout: WAIT });
    await page.getByText("Sign in with an operator token").waitFor({ timeout: WAIT });
    // Not the gRPC refusal written for programs (its codes, headers and method names).
    const text = await page.locator("#app").innerText();
    for (const raw of ["Bearer", "authorization", "Unauthenticated", "arena.v1", "metadata"]) {
      assert.ok(!text.includes(raw), `the page shows ${raw}: ${text}`);
    }
    assert.match(await prompt.innerText(), /sign in to see its competitions/);
    await shot(page, "01-sign-in-required");
  }, "always");

  await check("every page has an icon: the page's link and /favicon.ico answer", async () => {
    const href = await page.locator("link[rel=icon]").getAttribute("href");
    for (const path of [href, "/favicon.ico"]) {
      const r = await page.request.get(BASE + path);
      assert.equal(r.status(), 200, path);
      assert.match(r.headers()["content-type"], /^image\//, path);
    }
  });

  await check("a wrong token is refused and the right one signs in", async () => {
    // A sign-in link crafted to land elsewhere (browsers drop the tab and read //evil.example)
    // lands on the console's own first page.
    await page.goto(`${BASE}/login?next=/%09/evil.example`);
    await page.fill("input[name=token]", "aop.nottherealone.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    await page.click("button[type=submit]");
    await page.locator("p.error").waitFor({ timeout: WAIT });
    await shot(page, "02-login-refused");
    await page.fill("input[name=token]", TOKEN);
    await page.click("button[type=submit]");
    await page.waitForURL(`${BASE}/`, { timeout: WAIT });
    await page.locator("[data-testid=competitions]").waitFor({ timeout: WAIT });
    // The token is in an HttpOnly cookie: the page's scripts cannot read it.
    assert.equal(await page.evaluate(() => document.cookie.includes("arena_operator")), false);
    const cookies = await context.cookies();
    // Named per store and signed, so a cookie planted from another port of the host is ignored.
    const c = cookies.find((x) => x.name.startsWith("arena_operator_"));
    assert.ok(c && c.httpOnly && c.sameSite === "Strict", JSON.stringify(cookies));
  }, "always");

  await check("the competitions list shows the finished competition", async () => {
    const row = page.locator(`tr[data-competition="${EXPECT.competition}"]`);
    await row.waitFor({ timeout: WAIT });
    assert.match(await row.innerText(), /finished/);
    assert.match(await row.innerText(), new RegExp(`${EXPECT.tables_total} / ${EXPECT.tables_total}`));
    await shot(page, "03-competitions");
  });

  await check("the competition page shows the standings the gRPC API gives", async () => {
    await page.goto(`${BASE}/competition?name=${encodeURIComponent(EXPECT.competition)}`);
    await page.locator("[data-testid=final]").waitFor({ timeout: WAIT });
    const rows = page.locator("[data-testid=standings] tbody tr");
    assert.equal(await rows.count(), EXPECT.standings.length);
    for (let i = 0; i < EXPECT.standings.length; i++) {
      const want = EXPECT.standings[i];
      const row = rows.nth(i);
      assert.equal(await row.getAttribute("data-participant"), want.participant);
      assert.equal((await row.locator(".place").innerText()).trim(), String(want.place));
      assert.equal((await row.locator(".mean-score").innerText()).trim(), signed(want.mean_score));
      assert.equal((await row.locator(".ci").innerText()).trim(), "± " + want.score_ci95.toFixed(3));
      // The heat map: one cell per place, each the rank probability to two decimals.
      const cells = row.locator("td.p");
      assert.equal(await cells.count(), want.rank_probabilities.length);
      for (let k = 0; k < want.rank_probabilities.length; k++) {
        const p = want.rank_probabilities[k];
        const text = (await cells.nth(k).innerText()).trim().replace("*", "");
        assert.equal(text, p > 0 ? p.toFixed(2) : "·", `${want.participant} P(#${k + 1})`);
      }
    }
    // How places are decided is said beside them.
    assert.match(await page.locator("[data-testid=ranking-rule]").innerText(), /How places are decided\..*ranked by their summed score.*P\(#k\) is the share of complete matches/s);
    // The confidence-interval chart: one interval per participant.
    assert.equal(await page.locator("[data-testid=standings] svg circle").count(), EXPECT.standings.length);
    await page.locator("[data-testid=tables]").waitFor({ timeout: WAIT });
    assert.equal(await page.locator("[data-testid=tables] tbody tr").count(), EXPECT.tables_total);
    // Each table names who sat where.
    const row = page.locator("[data-testid=tables] tbody tr", { has: page.locator(`a[data-replay="${EXPECT.replay.table_id}"]`) });
    assert.equal((await row.locator("td.seats").innerText()).trim(), EXPECT.replay.seats.join(" · "));
    await shot(page, "04-competition-standings");
  });

  await check("the replay player steps through a whole table to the recorded outcome", async () => {
    const r = EXPECT.replay;
    await page.goto(`${BASE}/competition?name=${encodeURIComponent(EXPECT.competition)}`);
    // The table's link from the competition page, as a spectator would follow it.
    await page.locator(`a[data-replay="${r.table_id}"]`).click();
    await page.waitForURL(/\/replay\?/, { timeout: WAIT });
    const counter = page.locator("[data-testid=counter]");
    await counter.waitFor({ timeout: WAIT });
    assert.equal(await counter.innerText(), `0 / ${r.steps.length}`);
    // Every hand is shown before the first decision, the landlord's with the bottom cards.
    for (let s = 0; s < 3; s++) {
      assert.equal(await page.locator(`.seat[data-seat="${s}"] .card`).count(), r.cards[s], `seat ${s}`);
    }
    for (let i = 0; i < r.steps.length; i++) {
      const step = r.steps[i];
      assert.equal(await counter.innerText(), `${i} / ${r.steps.length}`);
      assert.equal(await page.locator("[data-testid=action]").innerText(), step.action, `decision ${i + 1}`);
      // The decision taken is among the seat's legal options, marked as chosen.
      const chosen = page.locator("[data-testid=legal] span.chosen");
      assert.equal(await chosen.count(), 1, `decision ${i + 1} has its option marked`);
      assert.match(await page.locator("[data-testid=decision]").innerText(), new RegExp(`${step.elapsed_ms} ms`));
      if (i === Math.floor(r.steps.length / 2)) await shot(page, "05-replay-middle");
      await page.click("[data-testid=next]");
    }
    assert.equal(await counter.innerText(), `${r.steps.length} / ${r.steps.length}`);
    const outcome = page.locator("[data-testid=outcome]");
    await outcome.waitFor({ timeout: WAIT });
    for (let s = 0; s < r.final_scores.length; s++) {
      assert.equal((await outcome.locator(`tr[data-seat="${s}"] .final-score`).innerText()).trim(), String(r.final_scores[s]));
    }
    assert.match(await page.locator("[data-testid=winner]").innerText(), new RegExp(`^Seat ${r.winner} went out first`));
    assert.match(await page.locator("[data-testid=outcome-check]").innerText(), /reach the outcome the referee recorded/);
    await shot(page, "06-replay-end");
    // And back: one step, then the keyboard to the end again.
    await page.click("[data-testid=back]");
    assert.equal(await counter.innerText(), `${r.steps.length - 1} / ${r.steps.length}`);
    await page.keyboard.press("End");
    assert.equal(await counter.innerText(), `${r.steps.length} / ${r.steps.length}`);
    // The link is shareable: it opens the same table at the same decision.
    const url = page.url();
    assert.match(url, new RegExp(`step=${r.steps.length}`));
    const other = await context.newPage();
    await other.goto(`${BASE}/replay?table=${encodeURIComponent(r.table_id)}&step=3`);
    await other.locator("[data-testid=counter]").waitFor({ timeout: WAIT });
    assert.equal(await other.locator("[data-testid=counter]").innerText(), `3 / ${r.steps.length}`);
    assert.equal(await other.locator("[data-testid=action]").innerText(), r.steps[3].action);
    await other.close();
  });

  await check("the same player steps through a Mahjong hand to its recorded outcome", async () => {
    const r = EXPECT.mahjong;
    await page.goto(`${BASE}/replay?table=${encodeURIComponent(r.table_id)}`);
    const counter = page.locator("[data-testid=counter]");
    await counter.waitFor({ timeout: WAIT });
    // Four concealed hands shown before the first decision: 13 tiles each, and the first to
    // draw holds its draw too.
    const tiles = [];
    for (let s = 0; s < 4; s++) tiles.push(await page.locator(`.seat[data-seat="${s}"] .cards`).first().locator(".tile").count());
    assert.deepEqual(tiles.slice().sort(), [13, 13, 13, 14], JSON.stringify(tiles));
    for (let i = 0; i < r.steps; i++) {
      assert.equal(await counter.innerText(), `${i} / ${r.steps}`);
      await page.locator("[data-testid=legal] span").first().waitFor({ timeout: WAIT });
      if (i === Math.floor(r.steps / 2)) await shot(page, "13-mahjong-replay-middle");
      await page.click("[data-testid=next]");
    }
    assert.equal(await counter.innerText(), `${r.steps} / ${r.steps}`);
    const outcome = page.locator("[data-testid=outcome]");
    for (let s = 0; s < 4; s++) {
      assert.equal((await outcome.locator(`tr[data-seat="${s}"] .final-score`).innerText()).trim(), String(r.final_scores[s]));
    }
    assert.match(await page.locator("[data-testid=winner]").innerText(), new RegExp(`^Seat ${r.winner} wins`));
    assert.match(await page.locator("[data-testid=outcome-check]").innerText(), /reach the outcome the referee recorded/);
    // Every fan: its Chinese name, its English name beside it, its points.
    const fans = await page.locator("[data-testid=fans] .badge").allInnerTexts();
    assert.deepEqual(fans.map((t) => t.trim()), r.fans.map((f) => `${f.name} ${f.english} ${f.points}`));
    // Drawn in a font that has them: no character of a fan name is the missing-glyph box.
    const names = r.fans.map((f) => f.name).join("");
    const tofu = await page.evaluate(async (text) => {
      const el = document.querySelector("[data-testid=fans] .fan-name");
      const family = getComputedStyle(el).fontFamily;
      await document.fonts.load(`40px ${family}`, text);
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 64;
      const g = canvas.getContext("2d", { willReadFrequently: true });
      const draw = (ch) => {
        g.clearRect(0, 0, 64, 64);
        g.font = `40px ${family}`;
        g.fillText(ch, 4, 48);
        return g.getImageData(0, 0, 64, 64).data.join(",");
      };
      // A code point no font has: what the missing-glyph box looks like here.
      const missing = draw(String.fromCodePoint(0x10fffd));
      const seen = new Map();
      const bad = [];
      for (const ch of new Set(text)) {
        const img = draw(ch);
        // A box, or the same picture as another character: not the character's own glyph.
        if (img === missing || seen.has(img)) bad.push(ch);
        seen.set(img, ch);
      }
      return bad;
    }, names);
    assert.deepEqual(tofu, [], `drawn as empty boxes: ${tofu.join(" ")}`);
    await shot(page, "14-mahjong-replay-end");
    // Its competition's tables: a Mahjong hand's place is its seat order, deal and rotation,
    // not a Dou Dizhu side.
    await page.goto(`${BASE}/competition?name=${encodeURIComponent(r.competition)}`);
    await page.locator("[data-testid=tables]").waitFor({ timeout: WAIT });
    const head = await page.locator("[data-testid=tables] thead").innerText();
    assert.match(head, /Seat order/);
    assert.match(head, /Rotation/);
    assert.doesNotMatch(head, /Side/);
    assert.doesNotMatch(await page.locator("[data-testid=tables]").innerText(), /unspecified/);
    await shot(page, "17-mahjong-competition");
  });

  if (EXPECT.mcr) await check("the player steps through a Chinese Standard Mahjong hand: tiles, flowers, packs, and the winning hand's fans", async () => {
    const r = EXPECT.mcr;
    await page.goto(`${BASE}/replay?table=${encodeURIComponent(r.table_id)}`);
    const counter = page.locator("[data-testid=counter]");
    await counter.waitFor({ timeout: WAIT });
    // How many of `what` each seat shows.
    const perSeat = async (what) => {
      const n = [];
      for (let s = 0; s < 4; s++) n.push(await page.locator(`.seat[data-seat="${s}"] ${what}`).count());
      return n;
    };
    // Every seat's concealed tiles, shown with their pictures and codes from the start: 13
    // each (flowers set aside and replaced), the first to play holding its draw too.
    const hands = await perSeat("[data-testid=hand] .tile");
    assert.deepEqual(hands.slice().sort(), [13, 13, 13, 14], JSON.stringify(hands));
    const codes = await page.locator(`.seat[data-seat="0"] [data-testid=hand] .tile small`).allInnerTexts();
    assert.ok(codes.every((c) => /^[WTB][1-9]$|^F[1-4]$|^J[1-3]$/.test(c.trim())), JSON.stringify(codes));
    // Step to the end, noting where the first pack appears.
    let firstPack = null;
    for (let i = 0; i < r.steps; i++) {
      assert.equal(await counter.innerText(), `${i} / ${r.steps}`);
      if (firstPack === null && (await perSeat("[data-testid=packs] .pack")).some((n) => n > 0)) firstPack = i;
      if (i === Math.floor(r.steps / 2)) await shot(page, "20-mcr-replay-middle");
      await page.click("[data-testid=next]");
    }
    assert.equal(await counter.innerText(), `${r.steps} / ${r.steps}`);
    if (firstPack === null && (await perSeat("[data-testid=packs] .pack")).some((n) => n > 0)) firstPack = r.steps;
    // Each seat's packs and flowers, as the hand's history has them.
    assert.deepEqual(await perSeat("[data-testid=packs] .pack"), r.packs);
    assert.deepEqual(await perSeat("[data-testid=flowers] .tile"), r.flowers);
    // A pack appears right after the claim that made it.
    if (r.packs.some((n) => n > 0)) {
      assert.ok(firstPack > 0, `a pack shown before any decision (${firstPack})`);
      assert.match(r.actions[firstPack - 1], /^(PENG|CHI|GANG)\b/, `step ${firstPack - 1}`);
    }
    // The end: the scores, the winner, and every fan with its Chinese and English names and
    // points.
    const outcome = page.locator("[data-testid=outcome]");
    for (let s = 0; s < 4; s++) {
      assert.equal((await outcome.locator(`tr[data-seat="${s}"] .final-score`).innerText()).trim(), String(r.final_scores[s]));
    }
    const winner = await page.locator("[data-testid=winner]").innerText();
    assert.match(winner, new RegExp(`^Seat ${r.winner} wins on`));
    assert.match(winner, new RegExp(`${r.points} points`));
    const fans = await page.locator("[data-testid=fans] .badge").allInnerTexts();
    assert.deepEqual(fans.map((t) => t.trim().replace(/\s+/g, " ")), r.fans);
    await shot(page, "21-mcr-replay-end");
  }, "mcr");

  await check("an operator creates a competition and its page follows it live to the final standings", async () => {
    await page.goto(`${BASE}/`);
    const form = page.locator("[data-testid=create]");
    await form.waitFor({ timeout: WAIT });
    const live = EXPECT.live;
    await form.locator("input[name=name]").fill(live.name);
    await form.locator("select[name=format]").selectOption(live.format);
    await form.locator("input[name=participants]").fill(live.participants.join(", "));
    await form.locator("input[name=panel]").fill(live.panel);
    await form.locator("input[name=matches]").fill(String(live.matches));
    await form.locator("input[name=rounds]").fill(String(live.rounds));
    await form.locator("input[name=decision_ms]").fill(String(live.decision_ms));
    await form.locator("input[name=penalty_per_100ms]").fill(String(live.penalty_per_100ms));
    await shot(page, "07-create-form");
    await form.locator("button[type=submit]").click();
    await page.waitForURL(/\/competition\?name=/, { timeout: WAIT });
    // The progress the page shows, every time the standings are redrawn, without reloading.
    await page.evaluate(() => {
      window.__seen = [];
      window.__tables = [];
      const record = () => {
        const h = document.querySelector("[data-testid=standings] h2");
        if (h) window.__seen.push(h.innerText);
        const t = document.querySelector("[data-testid=tables-count]");
        window.__tables.push(t ? Number(t.getAttribute("data-total") || 0) : 0);
      };
      record();
      new MutationObserver(record).observe(document.getElementById("app"), { childList: true, subtree: true });
    });
    const loaded = await page.evaluate(() => performance.getEntriesByType("navigation").length);
    await page.locator("[data-testid=final]").waitFor({ timeout: 5 * WAIT });
    const seen = await page.evaluate(() => window.__seen);
    const progress = seen.map((t) => Number((t.match(/(\d+) \/ \d+ tables/) || [])[1])).filter((x) => !Number.isNaN(x));
    assert.ok(progress.length >= 2, `the standings were redrawn as tables finished: ${JSON.stringify(seen)}`);
    assert.ok(progress[0] < live.tables, `the page opened before the end: ${JSON.stringify(seen)}`);
    assert.equal(progress[progress.length - 1], live.tables, JSON.stringify(seen));
    // The state and the tables list follow too, without a reload: once it has finished, no
    // "running" badge and no Cancel button; the list grew while it ran and ends whole.
    const info = page.locator("[data-testid=competition-info]");
    await info.locator("[data-testid=state]", { hasText: "finished" }).waitFor({ timeout: WAIT });
    assert.equal(await info.getByRole("button", { name: "Cancel competition" }).count(), 0);
    await page.locator(`[data-testid=tables-count][data-total="${live.tables}"]`).waitFor({ timeout: WAIT });
    const tables = await page.evaluate(() => window.__tables);
    assert.ok(tables.some((t) => t > 0 && t < live.tables), `the tables list grew while the competition ran: ${JSON.stringify(tables)}`);
    assert.equal(await page.locator("[data-testid=tables] tbody tr").count(), live.tables);
    assert.equal(await page.evaluate(() => performance.getEntriesByType("navigation").length), loaded, "no reload");
    await shot(page, "08-competition-live-final");
  });

  await check("an equal-strength competition is created from the form: the deals the library lacks are found first, with progress shown", async () => {
    const es = EXPECT.equal_strength;
    await page.goto(`${BASE}/`);
    const form = page.locator("[data-testid=create]");
    await form.waitFor({ timeout: WAIT });
    // The headline format is the form's default, and what is left empty says the default it gets.
    assert.equal(await form.locator("select[name=format]").inputValue(), "equal-strength");
    assert.match(await form.locator("input[name=centre]").getAttribute("placeholder"), /^default: 0\.95, 0\.55, 0\.15/);
    assert.match(await form.locator("input[name=eps]").getAttribute("placeholder"), /^default: 0\.15/);
    await form.locator("input[name=name]").fill(es.name);
    await form.locator("input[name=participants]").fill(es.participants.join(", "));
    await form.locator("input[name=panel]").fill(es.panel);
    await form.locator("input[name=matches]").fill(String(es.matches));
    await form.locator("input[name=rounds]").fill(String(es.rounds));
    await form.locator("input[name=centre]").fill(es.centre);
    await form.locator("input[name=eps]").fill(String(es.eps));
    // Every state of the search the page draws, kept here (the page navigates away at the end).
    const drawn = [];
    await page.exposeFunction("__preparing", (text) => drawn.push(text));
    await page.evaluate(() => new MutationObserver(() => {
      const p = document.querySelector("[data-testid=preparing]");
      if (p) window.__preparing(`${p.getAttribute("data-state")}: ${p.innerText}`);
    }).observe(document.getElementById("app"), { childList: true, subtree: true, characterData: true }));
    // The page's first request for news is held until the screenshot is taken (the page would
    // otherwise be gone to the competition before it).
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    let first = true;
    await page.route("**/api/competitions/preparing*", async (route) => {
      if (first) { first = false; await held; }
      await route.continue();
    });
    await form.locator("button[type=submit]").click();
    await page.locator("[data-testid=preparing]").waitFor({ timeout: WAIT });
    await shot(page, "18-create-equal-strength-finding");
    release();
    // Then it opens the competition, which plays to its end.
    await page.waitForURL(/\/competition\?name=es-cup/, { timeout: 5 * WAIT });
    // The library had no deal of this panel: the page said what it looked for, then showed the
    // search's count (every state is drawn before the next is asked for, the last too).
    const need = es.matches * es.rounds * es.participants.length;
    assert.match(drawn[0], new RegExp(`^finding: es-cup needs ${need} measured deals: asking the deal library`), JSON.stringify(drawn));
    const last = drawn[drawn.length - 1];
    assert.match(last, new RegExp(`^created: .*${need} / ${need} found · (\\d+) deals tried`, "s"), JSON.stringify(drawn));
    assert.ok(Number(last.match(/(\d+) deals tried/)[1]) >= need, last);
    await page.unroute("**/api/competitions/preparing*");
    await page.locator("[data-testid=final]").waitFor({ timeout: 5 * WAIT });
    const info = await page.locator("[data-testid=competition-info]").innerText();
    assert.match(info, /equal-strength/);
    assert.match(info, /centre 0\.5, 0\.5, 0\.5 ± 0\.9/);
  });

  await check("penalties are marked: the slow bot's decisions past the limit, each on the timeline and in the total", async () => {
    const live = EXPECT.live;
    await page.goto(`${BASE}/replay?table=${encodeURIComponent(live.slow_table)}`);
    await page.locator("[data-testid=counter]").waitFor({ timeout: WAIT });
    const marked = page.locator("[data-testid=timeline] button.has-penalty");
    const k = await marked.count();
    assert.ok(k > 0, "some decision took longer than the limit");
    await marked.first().click();
    const penalty = page.locator("[data-testid=penalty]");
    assert.match(await penalty.innerText(), /penalty \d+/);
    assert.match(await page.locator("[data-testid=decision]").innerText(), new RegExp(`of ${live.decision_ms}`));
    await shot(page, "15-replay-penalty");
    await page.keyboard.press("End");
    const total = Number((await page.locator(`[data-testid=outcome] tr[data-seat="0"] td`).nth(3).innerText()).trim());
    assert.ok(total >= k, `seat 0's penalties ${total} count every marked decision (${k})`);
  });

  await check("verdicts are marked: each faulted decision on the timeline, its kind and reason, and in the outcome", async () => {
    const v = EXPECT.verdicts;
    await page.goto(`${BASE}/replay?table=${encodeURIComponent(v.table_id)}`);
    await page.locator("[data-testid=counter]").waitFor({ timeout: WAIT });
    const buttons = page.locator("[data-testid=timeline] button");
    const marked = await buttons.evaluateAll((bs) => bs.map((b, i) => (b.classList.contains("has-verdict") ? i : -1)).filter((i) => i >= 0));
    assert.deepEqual(marked, v.steps, "the timeline marks exactly the steps the referee gave verdicts at");
    await buttons.nth(v.steps[0]).click();
    const shown = await page.locator("[data-testid=verdict]").innerText();
    assert.ok(shown.includes(`Verdict: ${v.kind}`) && shown.includes(v.reason), `${shown} names ${v.kind}: ${v.reason}`);
    await shot(page, "16-replay-verdict");
    await page.keyboard.press("End");
    const listed = await page.locator("[data-testid=outcome] .verdict").allInnerTexts();
    assert.equal(listed.filter((t) => t.includes(v.kind)).length, v.in_result, JSON.stringify(listed));
  });

  await check("the ladder's leaderboard page answers for each game", async () => {
    for (const game of ["ddz", "mahjong"]) {
      await page.goto(`${BASE}/ladder?game=${game}`);
      await page.getByRole("heading", { name: "Ladder" }).waitFor({ timeout: WAIT });
      await page.getByText("Ratings per bot release").waitFor({ timeout: WAIT });
    }
    await page.goto(`${BASE}/ladder?game=ddz`);
    await page.getByText("Ratings per bot release").waitFor({ timeout: WAIT });
    await shot(page, "09-ladder");
  });

  await check("the bots page lists the registered bots", async () => {
    await page.goto(`${BASE}/bots`);
    for (const b of EXPECT.bots) await page.locator(`[data-bot="${b}"]`).waitFor({ timeout: WAIT });
    // Rating history: a line per rated release, a point per rated game.
    const chart = page.locator(`[data-bot="${EXPECT.history.bot}"] [data-testid=rating-history] svg`);
    await chart.waitFor({ timeout: WAIT });
    assert.equal(await chart.locator("polyline").count(), EXPECT.history.releases);
    assert.equal(await chart.locator("circle").count(), EXPECT.history.points);
    await shot(page, "10-bots");
  });

  await check("the deal library's difficulty scatter counts every measured deal, each point a link to a measurement", async () => {
    await page.goto(`${BASE}/deals`);
    // The panel the test measured: the one holding that many deals.
    const measured = page.locator("tbody tr", { has: page.locator("td.num", { hasText: new RegExp(`^${EXPECT.deals}$`) }) });
    await measured.locator("a").first().click();
    await page.waitForURL(/\/deals\?panel=/, { timeout: WAIT });
    const scatter = page.locator("[data-testid=gdi-scatter]");
    await scatter.waitFor({ timeout: WAIT });
    const counts = await scatter.locator("circle").evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("data-count"))));
    assert.equal(counts.reduce((a, b) => a + b, 0), EXPECT.deals, "every deal is counted in some point");
    await shot(page, "11-deal-library");
    // Points overlap; the link of one is followed as a click on it would.
    await page.goto(BASE + (await scatter.locator("a").first().getAttribute("href")));
    await page.locator("[data-testid=measurement]").waitFor({ timeout: WAIT });
    assert.match(await page.locator("[data-testid=measurement]").innerText(), /panel tables; GDI/);
    await shot(page, "12-deal");
  });

  await check("the deal library page fits the window though a panel has 70 landlords", async () => {
    await page.goto(`${BASE}/deals?panel=${encodeURIComponent(EXPECT.big_deal.panel)}`);
    await page.locator("[data-testid=gdi-scatter]").waitFor({ timeout: WAIT });
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `the page is ${scroll} px wide in a window of ${inner}`);
    // The 70 are a click away, wrapped.
    await page.locator("details summary", { hasText: "70 bots" }).click();
    const [scroll2] = await page.evaluate(() => [document.documentElement.scrollWidth]);
    assert.ok(scroll2 <= inner, `opened, the list is ${scroll2} px wide`);
    await shot(page, "11-deal-library-wide-panel");
  });

  await check("a deal's seed is shown whole, so the command beside it deals the same cards", async () => {
    const d = EXPECT.big_deal;
    await page.goto(`${BASE}/deal?panel=${encodeURIComponent(d.panel)}&id=${encodeURIComponent(d.id)}`);
    await page.locator("[data-testid=deal-seed]").waitFor({ timeout: WAIT });
    assert.equal(await page.locator("[data-testid=deal-seed]").innerText(), d.seed);
    assert.equal(await page.locator("[data-testid=deal-command]").innerText(), d.command);
    assert.match(await page.locator("code").first().innerText(), new RegExp(d.cards.replace(/[/]/g, "\\/")));
    await shot(page, "19-deal-seed");
  });

  await check("no page asked for something the console does not have (404), its icon included", async () => {
    assert.deepEqual(notFound, []);
  }, "always");

  await check("signing out closes the pages again", async () => {
    await page.goto(`${BASE}/`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByText("Sign in with an operator token").waitFor({ timeout: WAIT });
  });

  await check("no page raised a script error", async () => {
    assert.deepEqual(errors, []);
  }, "always");

  await browser.close();
  const passed = results.filter((r) => r[1]).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  process.exit(passed === results.length ? 0 : 1);
}

main().catch((e) => {
  console.log(`FAIL the browser could not be driven: ${e && e.stack ? e.stack : e}`);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
