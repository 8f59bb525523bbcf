// Runs one game's replay renderer outside a browser: a document (`doc`, the replay player's
// JSON) is read from the file named by the first argument, the renderer's script from the
// second; every position of the replay is drawn with a stand-in for the page's h() that builds
// plain objects, and the outcome at the end. Prints one JSON object: the text of each position
// and of the outcome. Any exception fails the run (exit code 1).
"use strict";

const fs = require("fs");
const vm = require("vm");

const doc = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const source = fs.readFileSync(process.argv[3], "utf8");

// h(tag, attrs, ...children) as the page's, but to plain objects (with the one element method
// renderers call, append): strings stay text.
const keep = (cs) => cs.flat().filter((c) => c !== undefined && c !== null && c !== false);
function h(tag, attrs, ...children) {
  const node = { tag, attrs: attrs || {}, children: keep(children) };
  node.append = (...more) => { node.children.push(...keep(more)); };
  return node;
}
function text(node) {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (!node || !node.children) return "";
  return node.children.map(text).join(node.tag === "div" || node.tag === "p" || node.tag === "h3" ? "\n" : "");
}

const window = { ArenaReplay: { games: {} } };
vm.runInNewContext(source, { window, String, Number, Object, Array, JSON, Math });
const game = window.ArenaReplay.games[doc.game];
if (!game) throw new Error(`the script registers no renderer for ${doc.game}`);

const frames = doc.frames || [];
const positions = [];
for (let position = 0; position <= frames.length; position++) {
  const frame = position < frames.length ? frames[position] : null;
  const state = frame ? frame.state : doc.end;
  const events = state && state[0] ? state[0].events : 0;
  const at = (list) => list.slice(0, events);
  positions.push(text(game.render({ doc, state, frame, position, at, h })));
}
const outcome = game.outcome ? text(game.outcome({ doc, outcome: doc.replayed_outcome, h })) : "";
process.stdout.write(JSON.stringify({ positions, outcome }));
