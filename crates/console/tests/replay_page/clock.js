// Runs the replay player's clock text outside a browser: the page's script (the second
// argument) is loaded with a stand-in window, and for the document (the replay player's JSON, in
// the file named by the first argument) prints one JSON object: the clock lines the page shows
// above the player (`clock`) and the limit it shows beside each decision's time (`limits`, null
// where it shows none). Any exception fails the run (exit code 1).
"use strict";

const fs = require("fs");
const vm = require("vm");

const doc = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const source = fs.readFileSync(process.argv[3], "utf8");
const window = {};
vm.runInNewContext(source, { window, String, Number, Object, Array, JSON, Math });
const page = window.ArenaReplay;
const clock = page.clockLines(doc);
const limits = (doc.frames || []).map((f) => page.limitOf(doc, f));
process.stdout.write(JSON.stringify({ clock, limits }));
