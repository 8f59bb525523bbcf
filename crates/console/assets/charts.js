// Small SVG charts for the console: a heat-map colour scale, intervals, lines, a scatter and
// bars. Text is set with textContent only: names come from bots and are never markup.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  // White at 0, deep blue at 1: a probability's cell in the heat map.
  function heatColor(p) {
    const t = Math.max(0, Math.min(1, p));
    const mix = (a, b) => Math.round(a + (b - a) * t);
    return `rgb(${mix(255, 28)}, ${mix(255, 78)}, ${mix(255, 196)})`;
  }
  function heatInk(p) { return p > 0.5 ? "#fff" : "#1d2430"; }

  function scale(d0, d1, r0, r1) {
    const span = d1 - d0 || 1;
    return (v) => r0 + ((v - d0) / span) * (r1 - r0);
  }

  function niceTicks(lo, hi, n) {
    const span = hi - lo || 1;
    const step0 = span / n;
    const mag = Math.pow(10, Math.floor(Math.log10(step0)));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) || step0;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toFixed(10));
    return out;
  }

  // Each row's mean with its 95% interval, one line per row, on a shared axis.
  // A row without an interval (half null or infinite: fewer than two samples) shows its mean
  // alone.
  function intervals(rows, opts) {
    rows = rows.map((r) => Object.assign({}, r, { known: Number.isFinite(r.half), half: Number.isFinite(r.half) ? r.half : 0 }));
    const o = Object.assign({ width: 520, row: 24, label: 150 }, opts || {});
    const h = rows.length * o.row + 30;
    const root = svg("svg", { width: o.width, height: h, viewBox: `0 0 ${o.width} ${h}`, role: "img" });
    if (!rows.length) return root;
    let lo = Math.min(...rows.map((r) => r.mean - r.half));
    let hi = Math.max(...rows.map((r) => r.mean + r.half));
    if (lo === hi) { lo -= 1; hi += 1; }
    const pad = (hi - lo) * 0.05;
    const x = scale(lo - pad, hi + pad, o.label, o.width - 10);
    for (const t of niceTicks(lo - pad, hi + pad, 5)) {
      root.append(svg("line", { x1: x(t), x2: x(t), y1: 4, y2: h - 22, class: "gridline" }));
      root.append(svg("text", { x: x(t), y: h - 8, "text-anchor": "middle" }, t));
    }
    if (lo - pad < 0 && hi + pad > 0) {
      root.append(svg("line", { x1: x(0), x2: x(0), y1: 4, y2: h - 22, class: "axis" }));
    }
    rows.forEach((r, i) => {
      const y = 14 + i * o.row;
      root.append(svg("text", { x: o.label - 8, y: y + 4, "text-anchor": "end" }, r.label));
      root.append(svg("line", { x1: x(r.mean - r.half), x2: x(r.mean + r.half), y1: y, y2: y, stroke: "#2457c5", "stroke-width": 2 }));
      for (const end of [r.mean - r.half, r.mean + r.half]) {
        root.append(svg("line", { x1: x(end), x2: x(end), y1: y - 5, y2: y + 5, stroke: "#2457c5", "stroke-width": 2 }));
      }
      const dot = svg("circle", { cx: x(r.mean), cy: y, r: 4, fill: "#17233b" });
      dot.append(svg("title", {}, `${r.label}: ${r.mean.toFixed(3)}` + (r.known ? ` ± ${r.half.toFixed(3)}` : " (no interval)")));
      root.append(dot);
    });
    return root;
  }

  const PALETTE = ["#2457c5", "#c0392b", "#2f855a", "#b7791f", "#6b46c1", "#0f766e", "#be185d", "#4b5563"];

  // Lines over x (e.g. time), each point with an optional band [lo, hi].
  function lines(series, opts) {
    const o = Object.assign({ width: 640, height: 260, xLabel: "", yLabel: "", xFormat: (v) => v }, opts || {});
    const root = svg("svg", { width: o.width, height: o.height, viewBox: `0 0 ${o.width} ${o.height}`, role: "img" });
    const pts = series.flatMap((s) => s.points);
    if (!pts.length) return root;
    const xs = pts.map((p) => p.x);
    const ys = pts.flatMap((p) => [p.lo ?? p.y, p.hi ?? p.y]);
    let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
    let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
    if (x0 === x1) { x0 -= 1; x1 += 1; }
    if (y0 === y1) { y0 -= 1; y1 += 1; }
    const L = 48, R = 12, T = 10, B = 34;
    const x = scale(x0, x1, L, o.width - R);
    const y = scale(y0, y1, o.height - B, T);
    for (const t of niceTicks(y0, y1, 5)) {
      root.append(svg("line", { x1: L, x2: o.width - R, y1: y(t), y2: y(t), class: "gridline" }));
      root.append(svg("text", { x: L - 6, y: y(t) + 4, "text-anchor": "end" }, t));
    }
    root.append(svg("line", { x1: L, x2: o.width - R, y1: o.height - B, y2: o.height - B, class: "axis" }));
    root.append(svg("text", { x: L, y: o.height - 18 }, o.xFormat(x0)));
    root.append(svg("text", { x: o.width - R, y: o.height - 18, "text-anchor": "end" }, o.xFormat(x1)));
    root.append(svg("text", { x: (L + o.width - R) / 2, y: o.height - 4, "text-anchor": "middle" }, o.xLabel));
    series.forEach((s, i) => {
      const colour = PALETTE[i % PALETTE.length];
      const sorted = s.points.slice().sort((a, b) => a.x - b.x);
      if (sorted.some((p) => p.lo !== undefined)) {
        const top = sorted.map((p) => `${x(p.x)},${y(p.hi)}`);
        const bottom = sorted.slice().reverse().map((p) => `${x(p.x)},${y(p.lo)}`);
        root.append(svg("polygon", { points: top.concat(bottom).join(" "), fill: colour, opacity: 0.12 }));
      }
      root.append(svg("polyline", { points: sorted.map((p) => `${x(p.x)},${y(p.y)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2 }));
      for (const p of sorted) {
        const c = svg("circle", { cx: x(p.x), cy: y(p.y), r: 2.5, fill: colour });
        c.append(svg("title", {}, `${s.name}: ${p.y.toFixed(2)} at ${o.xFormat(p.x)}`));
        root.append(c);
      }
      // The legend: a swatch of the line's colour (text takes the page's ink).
      const lx = L + 8 + (i % 3) * 180, ly = T + 12 + Math.floor(i / 3) * 14;
      root.append(svg("rect", { x: lx, y: ly - 8, width: 12, height: 8, fill: colour }));
      root.append(svg("text", { x: lx + 16, y: ly }, s.name));
    });
    return root;
  }

  // Points in [0, 1]², each a link when it has one.
  function scatter(points, opts) {
    const o = Object.assign({ size: 420, xLabel: "", yLabel: "" }, opts || {});
    const S = o.size, L = 40, B = 36, T = 10, R = 10;
    const root = svg("svg", { width: S, height: S, viewBox: `0 0 ${S} ${S}`, role: "img" });
    const x = scale(0, 1, L, S - R);
    const y = scale(0, 1, S - B, T);
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      root.append(svg("line", { x1: x(t), x2: x(t), y1: T, y2: S - B, class: "gridline" }));
      root.append(svg("line", { x1: L, x2: S - R, y1: y(t), y2: y(t), class: "gridline" }));
      root.append(svg("text", { x: x(t), y: S - B + 14, "text-anchor": "middle" }, t));
      root.append(svg("text", { x: L - 5, y: y(t) + 4, "text-anchor": "end" }, t));
    }
    root.append(svg("text", { x: (L + S - R) / 2, y: S - 4, "text-anchor": "middle" }, o.xLabel));
    root.append(svg("text", { x: 12, y: (T + S - B) / 2, transform: `rotate(-90 12 ${(T + S - B) / 2})`, "text-anchor": "middle" }, o.yLabel));
    for (const p of points) {
      const dot = svg("circle", { cx: x(p.x), cy: y(p.y), r: p.r || 3.2, fill: p.colour || "#2457c5", opacity: 0.6, "data-count": p.count || 1 });
      dot.append(svg("title", {}, p.title || ""));
      if (p.href) {
        const a = svg("a", { href: p.href });
        a.append(dot);
        root.append(a);
      } else {
        root.append(dot);
      }
    }
    return root;
  }

  // Vertical bars with their labels below.
  function bars(labels, values, opts) {
    const o = Object.assign({ width: 420, height: 200 }, opts || {});
    const root = svg("svg", { width: o.width, height: o.height, viewBox: `0 0 ${o.width} ${o.height}`, role: "img" });
    const max = Math.max(1, ...values);
    const L = 30, B = 30, T = 10;
    const w = (o.width - L - 10) / Math.max(1, values.length);
    const y = scale(0, max, o.height - B, T);
    values.forEach((v, i) => {
      root.append(svg("rect", { x: L + i * w + 4, y: y(v), width: Math.max(2, w - 8), height: o.height - B - y(v), fill: "#2457c5" }));
      root.append(svg("text", { x: L + i * w + w / 2, y: y(v) - 3, "text-anchor": "middle" }, v));
      root.append(svg("text", { x: L + i * w + w / 2, y: o.height - B + 14, "text-anchor": "middle" }, labels[i]));
    });
    root.append(svg("line", { x1: L, x2: o.width - 10, y1: o.height - B, y2: o.height - B, class: "axis" }));
    return root;
  }

  window.Charts = { heatColor, heatInk, intervals, lines, scatter, bars, palette: PALETTE };
})();
