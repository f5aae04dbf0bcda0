"use strict";
// The collector's web UI: one page, five views (services' RED charts, service map, trace search, JVM charts,
// alerts) that all follow the time range picker, and a trace panel shared by every view. Each view and its
// filters live in the URL's fragment (#view=red&service=front&range=1h...), so a link opens the same page.

const state = { service: null, route: null, kind: null, view: "red", traceId: null, edge: null, services: [],
  alerts: [], firing: new Map() };
const VIEWS = ["red", "map", "traces", "jvm", "alerts"];
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#2f6fde", "#2e9d5b", "#c9771b", "#8a4fd1", "#1f9bb0", "#7a8a1e", "#5b6b8c"]; // no red: red means error
const colorCache = {};
const charts = []; // live uPlot instances, destroyed before their container is redrawn

function assignColors(services) {
  services.forEach((s, i) => { colorCache[s.service] = PALETTE[i % PALETTE.length]; });
}
function colorOf(name) {
  if (!(name in colorCache)) {
    let h = 0;
    for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    colorCache[name] = PALETTE[h % PALETTE.length];
  }
  return colorCache[name];
}

/** Builds an element; strings become text nodes, so agent data is never parsed as HTML. */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}
function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return e;
}
function replace(id, ...nodes) { $(id).replaceChildren(...nodes); }
function dot(color) { return el("span", { class: "dot", style: "background:" + color }); }

async function api(path) {
  const res = await fetch(path, { headers: { "Accept": "application/json" } });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error((body && body.error) || res.statusText);
  return body;
}

function fmtMs(ms) {
  if (ms === null || ms === undefined) return "";
  if (ms >= 1000) return (ms / 1000).toFixed(2) + " s";
  if (ms >= 10) return ms.toFixed(1) + " ms";
  if (ms >= 1) return ms.toFixed(2) + " ms";
  return ms.toFixed(3) + " ms";
}
function fmtTime(ms) {
  const d = new Date(ms);
  return d.toLocaleTimeString(undefined, { hour12: false }) + "." + String(d.getMilliseconds()).padStart(3, "0");
}
function fmtDateTime(ms) {
  const d = new Date(ms);
  return d.toLocaleDateString(undefined) + " " + fmtTime(ms);
}
function fmtAgo(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return s + " s ago";
  if (s < 3600) return Math.round(s / 60) + " min ago";
  return Math.round(s / 3600) + " h ago";
}
function fmtRate(r) { return r === 0 ? "0" : r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(3); }
function fmtPct(r) { return (r * 100).toFixed(r > 0 && r < 0.01 ? 2 : 1) + " %"; }

// ------------------------------------------------------------------ time range

/** The query parameters of the picked range: range=15m... or from/to for a custom one. */
function rangeParams() {
  const p = new URLSearchParams();
  const v = $("range").value;
  if (v === "custom") {
    const from = Date.parse($("customFrom").value), to = Date.parse($("customTo").value);
    if (Number.isFinite(from)) p.set("from", String(from));
    if (Number.isFinite(to)) p.set("to", String(to));
  } else {
    p.set("range", v);
  }
  return p;
}
function withRange(extra) {
  const p = rangeParams();
  for (const [k, v] of Object.entries(extra || {})) if (v !== null && v !== undefined && v !== "") p.set(k, v);
  return p;
}
/** The picked range as [fromMs, toMs]. */
function pickedWindow() {
  const p = rangeParams();
  if (p.has("range")) {
    const m = /^(\d+)([smhd])$/.exec(p.get("range"));
    const unit = { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[m[2]];
    return [Date.now() - Number(m[1]) * unit, Date.now()];
  }
  return [Number(p.get("from")), p.has("to") ? Number(p.get("to")) : Date.now()];
}
function localInput(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 19);
}

// ------------------------------------------------------------------ charts

/**
 * A uPlot chart in a titled box. series: [{label, color, values}], xs in epoch ms; null values are gaps.
 * xRange [fromMs, toMs], when given, is the x axis (else the data's extent). Returns the box; a chart
 * without data shows "no data" instead.
 */
function chart(title, xs, series, fmt, xRange, yRange) {
  const box = el("div", { class: "chart", "data-title": title }, el("div", { class: "c-title" }, title));
  const has = series.some(s => s.values.some(v => v !== null && v !== undefined));
  if (xs.length < 2 || !has) {
    box.appendChild(el("div", { class: "c-empty" }, "no data in this range"));
    return box;
  }
  box.dataset.points = String(xs.length);
  requestAnimationFrame(() => {
    const width = Math.max(260, box.clientWidth - 12);
    const opts = {
      width, height: 170,
      scales: { x: xRange ? { time: true, range: () => [xRange[0] / 1000, xRange[1] / 1000] } : { time: true },
        y: yRange ? { range: (u, min, max) => yRange(max) } : {} },
      legend: { live: true },
      series: [{}].concat(series.map(s => ({
        label: s.label, stroke: s.color, width: 1.5, spanGaps: false,
        value: (u, v) => v === null || v === undefined ? "–" : fmt(v),
      }))),
      axes: [{}, { size: 72, values: (u, vals) => vals.map(v => fmt(v)) }],
    };
    const data = [xs.map(x => x / 1000)].concat(series.map(s => s.values));
    charts.push(new uPlot(opts, data, box));
  });
  return box;
}
function clearCharts(container) {
  for (let i = charts.length - 1; i >= 0; i--) {
    if (container.contains(charts[i].root)) { charts[i].destroy(); charts.splice(i, 1); }
  }
}

// ------------------------------------------------------------------ services, agents

async function loadServices() {
  const services = await api("/api/services");
  state.services = services;
  assignColors(services);
  if (!services.length) {
    replace("services", el("li", { class: "empty" }, "no agent has connected yet"));
    return services;
  }
  if (state.service && !services.some(s => s.service === state.service)) state.service = null;
  const items = [];
  for (const s of services) {
    items.push(el("li", { class: currentService() === s.service ? "sel" : "", "data-service": s.service,
        onclick: () => selectService(s.service) },
      el("div", {}, dot(colorOf(s.service)), s.service, alertBadge(s.service)),
      el("div", { class: "inst" }, s.instances.join(", ") + " \u00b7 " + fmtAgo(s.lastSeenMs))));
  }
  replace("services", ...items);
  const sel = $("sService");
  const keep = sel.value;
  sel.replaceChildren(el("option", { value: "" }, "any"), ...services.map(s => el("option", { value: s.service }, s.service)));
  sel.value = keep;
  return services;
}
/** A red badge with the number of alerts firing on {@code service}, or nothing. */
function alertBadge(service) {
  const n = state.firing.get(service) || 0;
  return n ? el("span", { class: "badge", title: `${n} alert${n === 1 ? "" : "s"} firing`, "data-alerts": String(n) }, String(n)) : null;
}
function currentService() {
  return state.service || (state.services.length ? state.services[0].service : null);
}

async function loadAgents() {
  const [agents, status] = await Promise.all([api("/api/agents"), api("/api/status")]);
  // while storage fails (a full disk) agents are refused: say so above them
  const storage = status.storage.state === "failing"
    ? [el("div", { id: "storageFailing", class: "err", title: status.storage.reason },
        "storage failing" + (status.storage.sinceMs ? " for " + fmtAgo(status.storage.sinceMs).replace(" ago", "") : "") +
        ": agents are refused until it recovers")]
    : [];
  if (!agents.length) { replace("agents", ...storage, el("div", { class: "empty" }, "none")); return; }
  replace("agents", ...storage, el("table", {},
    el("tr", {}, el("th", {}, "instance"), el("th", { class: "num" }, "dropped"), el("th", { class: "num" }, "errors")),
    agents.map(a => el("tr", { title: `${a.service} / ${a.instance}\nagent ${a.agentVersion}, ${a.runtimeVersion}\n` +
        `host ${a.host} pid ${a.pid}\nfrom ${a.remoteAddress}\nspans received ${a.spansReceived}, sent ${a.sentSpans}` +
        (a.observingSinceMs ? `\nobserving since ${new Date(a.observingSinceMs).toISOString()} (start-up ${a.startupMode})` : "") },
      el("td", {}, dot(a.connected ? "var(--ok)" : "#c3c8d3"), a.instance),
      el("td", { class: "num" + (a.droppedSpans + a.droppedMetrics > 0 ? " err" : "") }, String(a.droppedSpans + a.droppedMetrics)),
      el("td", { class: "num" + (a.adviceErrors > 0 ? " err" : "") }, String(a.adviceErrors))))));
}

// ------------------------------------------------------------------ RED view

async function loadRed() {
  const service = currentService();
  const box = $("redCharts");
  if (!service) { clearCharts(box); replace("redCharts", el("div", { class: "empty" }, "no service")); replace("http"); return; }
  $("redTitle").textContent = service + (state.kind && state.kind !== "server" ? " \u00b7 " + state.kind : "")
    + (state.route ? " \u00b7 " + state.route : "");
  $("redAll").hidden = !state.route;
  const red = await api("/api/series/red?" + withRange({ service, route: state.route, kind: state.kind }));
  // a range without a single call shows "no data" rather than a flat zero line
  const xs = red.points.some(p => p.requests > 0) ? red.points.map(p => p.tsMs) : [];
  clearCharts(box);
  replace("redCharts",
    chart("Requests per second", xs, [{ label: "req/s", color: "#2f6fde", values: red.points.map(p => p.requestsPerSec) }], fmtRate,
      null, max => [0, Math.max(1, max * 1.15)]),
    // a fixed floor and a ceiling of at least 1 %: a service without errors gets a readable flat axis
    chart("Error rate", xs, [{ label: "errors", color: "#d64545", values: red.points.map(p => p.requests ? p.errorRate : null) }], fmtPct,
      null, max => [0, Math.min(1, Math.max(0.01, max * 1.15))]),
    chart("Latency", xs, [
      { label: "P50", color: "#2e9d5b", values: red.points.map(p => p.p50Ms) },
      { label: "P95", color: "#c9771b", values: red.points.map(p => p.p95Ms) },
      { label: "P99", color: "#8a4fd1", values: red.points.map(p => p.p99Ms) }], fmtMs));
  await loadHttp(service);
}

async function loadHttp(service) {
  const params = withRange({ service, kind: $("calls").value });
  const rows = await api("/api/metrics/http?" + params);
  if (!rows.length) { replace("http", el("div", { class: "empty" }, "no calls in this range")); return; }
  const head = ["kind", "method", "target", "status"].map(h => el("th", {}, h))
    .concat(["count", "errors", "avg", "min", "max", "p95", "p99"].map(h => el("th", { class: "num" }, h)));
  replace("http", el("table", { id: "routes" }, el("tr", {}, head), rows.map(m => el("tr", {
      class: "route-row" + (m.kind === "server" ? " click" : "") + (m.kind === "server" && m.target === state.route ? " sel" : ""),
      "data-route": m.target, title: m.kind === "server" ? "RED charts of this route" : "",
      onclick: m.kind === "server" ? () => { state.route = m.target; state.kind = null; writeUrl(); loadRed().catch(showError); } : null },
    el("td", {}, m.kind), el("td", {}, m.method),
    el("td", { class: "name", title: m.target }, m.target),
    el("td", { class: m.status >= 500 ? "err" : "" }, String(m.status)),
    el("td", { class: "num" }, m.count.toLocaleString()),
    el("td", { class: "num" + (m.errors ? " err" : "") }, m.errors.toLocaleString()),
    el("td", { class: "num" }, fmtMs(m.avgMs)), el("td", { class: "num" }, fmtMs(m.minMs)),
    el("td", { class: "num" }, fmtMs(m.maxMs)), el("td", { class: "num" }, fmtMs(m.p95Ms)),
    el("td", { class: "num" }, fmtMs(m.p99Ms))))));
}

// ------------------------------------------------------------------ service map

async function loadMap() {
  const map = await api("/api/servicemap?" + rangeParams());
  const seconds = (map.range.toMs - map.range.fromMs) / 1000;
  $("mapInfo").textContent = `${map.nodes.length} nodes, ${map.edges.length} edges, from traced spans and database metrics over ${Math.round(seconds / 60)} min`;
  if (!map.nodes.length) { replace("map", el("div", { class: "empty" }, "no spans in this range")); return; }
  // columns by call depth: callers left of what they call
  const depth = new Map(map.nodes.map(n => [n.id, 0]));
  for (let round = 0; round < map.nodes.length; round++) {
    let changed = false;
    for (const e of map.edges) {
      if (e.source === e.target) continue;
      const d = depth.get(e.source) + 1;
      if (d > depth.get(e.target) && d < map.nodes.length) { depth.set(e.target, d); changed = true; }
    }
    if (!changed) break;
  }
  const columns = [];
  for (const n of map.nodes) {
    const d = depth.get(n.id);
    (columns[d] = columns[d] || []).push(n);
  }
  const W = 190, H = 46, GX = 280, GY = 40, PAD = 20;
  const pos = new Map();
  columns.forEach((col, ci) => col.forEach((n, ri) => pos.set(n.id, { x: PAD + ci * (W + GX), y: PAD + ri * (H + GY) })));
  const width = PAD * 2 + columns.length * W + (columns.length - 1) * GX;
  const height = PAD * 2 + Math.max(...columns.map(c => c.length)) * (H + GY) - GY;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, style: `max-height:${Math.max(height, 120)}px`, id: "mapSvg" },
    svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#8c96ab" }))));
  for (const e of map.edges) {
    const a = pos.get(e.source), b = pos.get(e.target);
    if (!a || !b) continue;
    let d, lx, ly;
    if (e.source === e.target) {
      d = `M ${a.x + W - 30} ${a.y} C ${a.x + W - 10} ${a.y - 40}, ${a.x + W + 30} ${a.y - 10}, ${a.x + W} ${a.y + 12}`;
      lx = a.x + W; ly = a.y - 22;
    } else {
      const x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2;
      const back = x2 <= x1;
      d = back ? `M ${a.x + W / 2} ${a.y + H} C ${a.x + W / 2} ${a.y + H + 50}, ${b.x + W / 2} ${b.y + H + 50}, ${b.x + W / 2} ${b.y + H}`
        : `M ${x1} ${y1} C ${x1 + GX / 2} ${y1}, ${x2 - GX / 2} ${y2}, ${x2} ${y2}`;
      lx = back ? (a.x + b.x + W) / 2 : (x1 + x2) / 2; ly = back ? Math.max(a.y, b.y) + H + 38 : (y1 + y2) / 2 - 6;
    }
    // counts, not a rate: a rate over the whole range reads low while traffic started minutes ago
    const label = `${e.calls.toLocaleString()} calls \u00b7 ${fmtPct(e.errorRate)} err \u00b7 p95 ${fmtMs(e.p95Ms)}`;
    const selected = state.edge && state.edge.source === e.source && state.edge.target === e.target;
    const open = () => openEdge(e);
    const g = svg("g", { class: "edge-group", "data-source": e.source, "data-target": e.target, onclick: open },
      svg("title", {}, `${nodeName(map, e.source)} \u2192 ${nodeName(map, e.target)}: ${e.calls} ${e.source.startsWith("topic:") || e.target.startsWith("topic:") ? "messages" : "traced calls"}, ${e.errors} errors in the range`),
      svg("path", { d, class: "edge-hit" }),
      svg("path", { d, class: "edge" + (e.errorRate > 0 ? " failing" : "") + (selected ? " sel" : ""), "marker-end": "url(#arrow)" }),
      svg("text", { x: lx, y: ly, "text-anchor": "middle", class: "edge-label" }, label));
    root.appendChild(g);
  }
  for (const n of map.nodes) {
    const p = pos.get(n.id);
    // a database node: "redis/10.0.0.5:6379" shows the server on top and "database · redis" below
    const slash = n.type === "database" ? n.name.indexOf("/") : -1;
    const shown = slash > 0 ? n.name.slice(slash + 1) : n.name;
    const name = shown.length > 26 ? shown.slice(0, 25) + "\u2026" : shown;
    const firing = n.type === "service" ? state.firing.get(n.id) || 0 : 0;
    root.appendChild(svg("g", { class: "node " + n.type + (firing ? " alerting" : ""), "data-id": n.id, "data-alerts": String(firing),
        transform: `translate(${p.x},${p.y})` },
      svg("title", {}, n.name + (firing ? ` \u2014 ${firing} alert${firing === 1 ? "" : "s"} firing` : "")),
      svg("rect", { width: W, height: H, rx: 6 }),
      n.type === "service" ? svg("circle", { cx: 14, cy: H / 2, r: 5, fill: colorOf(n.name) }) : null,
      svg("text", { x: 26, y: 20 }, name),
      svg("text", { x: 26, y: 36, class: "type" }, slash > 0 ? "database \u00b7 " + n.name.slice(0, slash) : n.type),
      firing ? svg("circle", { cx: W - 12, cy: 12, r: 8, class: "alert-mark" }) : null,
      firing ? svg("text", { x: W - 12, y: 16, "text-anchor": "middle", class: "alert-mark-text" }, String(firing)) : null));
  }
  replace("map", root);
  if (state.edge) await loadEdgeTraces();
}
function nodeName(map, id) {
  const n = map.nodes.find(x => x.id === id);
  return n ? n.name : id;
}

function openEdge(e) {
  state.edge = { source: e.source, target: e.target };
  writeUrl();
  document.querySelectorAll("#map .edge").forEach(p => p.classList.remove("sel"));
  const g = [...document.querySelectorAll("#map .edge-group")].find(x => x.dataset.source === e.source && x.dataset.target === e.target);
  if (g) g.querySelector(".edge").classList.add("sel");
  loadEdgeTraces().catch(showError);
}

async function loadEdgeTraces() {
  const e = state.edge;
  $("edgeSection").hidden = false;
  $("edgeTitle").textContent = `${e.source.replace(/^topic:/, "")} \u2192 ${e.target.replace(/^(db|ext|topic):/, "")}`;
  const traces = await api("/api/servicemap/traces?" + withRange({ source: e.source, target: e.target, limit: "50" }));
  replace("edgeTraces", traceTable(traces, "edge"));
}

// ------------------------------------------------------------------ trace search

async function search() {
  const tags = $("sTags").value.trim().split(/\s+/).filter(t => t);
  const p = withRange({
    service: $("sService").value, route: $("sRoute").value.trim(), status: $("sStatus").value,
    minDurationMs: $("sMin").value.trim(), maxDurationMs: $("sMax").value.trim(), sort: $("sSort").value,
    limit: $("sLimit").value.trim(),
  });
  for (const t of tags) p.append("tag", t);
  writeUrl();
  let traces;
  try {
    traces = await api("/api/traces?" + p);
  } catch (e) {
    replace("searchResults", el("div", { class: "err", id: "searchError" }, e.message));
    return;
  }
  replace("searchResults", traceTable(traces, "search"));
}

function traceTable(traces, where) {
  if (!traces.length) return el("div", { class: "empty" }, "no traces");
  return el("div", {}, el("div", { class: "muted count" }, `${traces.length} trace${traces.length === 1 ? "" : "s"}`),
    el("table", { class: "traces" },
    el("tr", {}, el("th", {}, "start"), el("th", {}, "root"), el("th", {}, "service"),
      el("th", { class: "num" }, "duration"), el("th", { class: "num" }, "spans"), el("th", { class: "num" }, "errors"),
      el("th", {}, "trace id")),
    traces.map(t => el("tr", { class: "click trace-row" + (t.traceId === state.traceId ? " sel" : ""), "data-trace": t.traceId,
        onclick: () => openTrace(t.traceId) },
      el("td", {}, fmtDateTime(t.startEpochMs)),
      el("td", { class: "name" + (t.errorCount ? " err" : ""), title: t.rootName }, t.rootName),
      el("td", {}, dot(colorOf(t.service)), t.service),
      el("td", { class: "num" }, fmtMs(t.durationMs)),
      el("td", { class: "num" }, String(t.spanCount)),
      el("td", { class: "num" + (t.errorCount ? " err" : "") }, String(t.errorCount ?? "")),
      el("td", { class: "muted" }, el("a", { href: "#trace=" + t.traceId, onclick: (ev) => ev.stopPropagation() }, t.traceId.slice(0, 12) + "\u2026"))))));
}

// ------------------------------------------------------------------ trace panel

async function openTrace(traceId) {
  state.traceId = traceId;
  writeUrl();
  $("traceSection").hidden = false;
  $("traceTitle").textContent = traceId;
  $("traceLink").href = "#trace=" + traceId;
  $("spanDetail").hidden = true;
  document.querySelectorAll("tr.trace-row").forEach(r => r.classList.toggle("sel", r.dataset.trace === traceId));
  let trace;
  try {
    trace = await api("/api/traces/" + traceId);
  } catch (e) {
    replace("waterfall", el("div", { class: "err" }, e.message));
    return;
  }
  renderWaterfall(trace.spans);
  $("traceSection").scrollIntoView({ block: "start" });
}

function renderWaterfall(spans) {
  const byId = new Map(spans.map(s => [s.spanId, s]));
  const children = new Map();
  const roots = [];
  for (const s of spans) {
    if (s.parentSpanId && byId.has(s.parentSpanId)) {
      if (!children.has(s.parentSpanId)) children.set(s.parentSpanId, []);
      children.get(s.parentSpanId).push(s);
    } else {
      roots.push(s);
    }
  }
  const ordered = [];
  const walk = (s, depth) => {
    ordered.push([s, depth]);
    for (const c of children.get(s.spanId) || []) walk(c, depth + 1);
  };
  roots.forEach(r => walk(r, 0));
  const t0 = Math.min(...spans.map(s => s.startEpochNanos));
  const t1 = Math.max(...spans.map(s => s.startEpochNanos + s.durationNanos));
  const total = Math.max(1, t1 - t0);
  const rows = [el("div", { class: "wf-row muted" }, el("div", { id: "spanCount" }, `${spans.length} spans`),
    el("div", { class: "wf-track" }, el("span", { class: "wf-dur", style: "right:0" }, fmtMs(total / 1e6))))];
  for (const [s, depth] of ordered) {
    const left = ((s.startEpochNanos - t0) / total) * 100;
    const width = (s.durationNanos / total) * 100;
    const color = s.status === "ERROR" ? "var(--err)" : colorOf(s.service);
    const row = el("div", { class: "wf-row span-row", style: "cursor:pointer", "data-span": s.spanId,
        onclick: () => showSpan(s, t0, row) },
      el("div", { class: "wf-label", style: `padding-left:${depth * 14}px` },
        el("span", { class: "kind" }, s.kind), el("span", { class: s.status === "ERROR" ? "err" : "" }, s.name)),
      el("div", { class: "wf-track" },
        el("div", { class: "wf-bar", style: `left:${left}%;width:${width}%;background:${color}` }),
        el("span", { class: "wf-dur", style: left + width > 80 ? `right:${100 - left}%;margin-right:4px` : `left:${left + width}%;margin-left:4px` },
          fmtMs(s.durationNanos / 1e6))));
    rows.push(row);
  }
  replace("waterfall", ...rows);
}

function showSpan(s, traceStart, row) {
  document.querySelectorAll("#waterfall .span-row").forEach(r => r.classList.remove("sel"));
  row.classList.add("sel");
  const tags = s.tags || {};
  const line = (k, v, cls) => el("tr", {}, el("td", {}, k), el("td", { class: cls || "" }, v));
  const rows = [
    line("service / instance", `${s.service} / ${s.instance}`),
    line("kind", s.kind),
    line("status", s.status, s.status === "ERROR" ? "err" : ""),
    tags.error !== undefined ? line("error message", tags.error, "err") : line("error message", "none", "muted"),
    line("start", `${fmtDateTime(Math.floor(s.startEpochNanos / 1e6))} (+${fmtMs((s.startEpochNanos - traceStart) / 1e6)} into the trace)`),
    line("duration", fmtMs(s.durationNanos / 1e6)),
    line("span id", s.spanId),
    line("parent span id", s.parentSpanId || "none (root)"),
  ];
  const tagRows = Object.entries(tags).map(([k, v]) => el("tr", { class: "tag-row" }, el("td", {}, k), el("td", {}, v)));
  replace("spanDetail", el("h3", {}, s.name),
    el("table", { id: "spanFields" }, rows),
    el("h3", { style: "margin-top:8px" }, `Tags (${tagRows.length})`),
    tagRows.length ? el("table", { id: "spanTags" }, tagRows) : el("div", { class: "empty" }, "no tags"));
  $("spanDetail").hidden = false;
}

async function copyTraceId() {
  const id = state.traceId;
  try {
    await navigator.clipboard.writeText(id);
  } catch (e) {
    // not a secure context, or no permission: select the text and copy the old way
    const range = document.createRange();
    range.selectNodeContents($("traceTitle"));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    document.execCommand("copy");
  }
  $("copyTraceId").textContent = "copied";
  setTimeout(() => { $("copyTraceId").textContent = "copy id"; }, 1500);
}

// ------------------------------------------------------------------ JVM view

function series(inst, name) { return inst.series[name] || []; }
/** Aligns named gauges to one x axis. */
function aligned(lists) {
  const xs = [...new Set(lists.flatMap(l => l.map(p => p[0])))].sort((a, b) => a - b);
  return { xs, values: lists.map(l => { const m = new Map(l); return xs.map(x => m.has(x) ? m.get(x) : null); }) };
}
/** GC time per second of wall time: the growth of the summed collectors' cumulative time between steps. */
function gcRate(inst) {
  const names = Object.keys(inst.series).filter(n => n.startsWith("jvm.gc.") && n.endsWith(".time_ms"));
  const sum = new Map();
  for (const n of names) for (const [t, v] of inst.series[n]) sum.set(t, (sum.get(t) || 0) + v);
  const pts = [...sum.entries()].sort((a, b) => a[0] - b[0]);
  const out = [];
  for (let i = 1; i < pts.length; i++) {
    const dt = (pts[i][0] - pts[i - 1][0]) / 1000;
    out.push([pts[i][0], Math.max(0, pts[i][1] - pts[i - 1][1]) / dt]);
  }
  return out;
}
const MiB = 1024 * 1024;
const fmtMiB = v => (v / MiB).toFixed(v >= 100 * MiB ? 0 : 1) + " MiB";
const fmtNum = v => (Number.isInteger(v) ? v : v.toFixed(1)).toLocaleString();

async function loadJvm() {
  const service = currentService();
  $("jvmService").textContent = service || "";
  const box = $("jvm");
  clearCharts(box);
  if (!service) { replace("jvm", el("div", { class: "empty" }, "no service")); return; }
  const jvm = await api("/api/series/jvm?" + withRange({ service }));
  if (!jvm.instances.length) { replace("jvm", el("div", { class: "empty" }, "no JVM gauges for " + service + " in this range")); return; }
  const xRange = pickedWindow();
  replace("jvm", ...jvm.instances.map(inst => {
    const heap = aligned([series(inst, "jvm.heap.used"), series(inst, "jvm.heap.committed"), series(inst, "jvm.heap.max")]);
    const gc = aligned([gcRate(inst)]);
    const threads = aligned([series(inst, "jvm.threads.live"), series(inst, "jvm.threads.daemon")]);
    const cpu = aligned([series(inst, "jvm.cpu.process_load")]);
    return el("div", { class: "jvm-instance", "data-instance": inst.instance },
      el("div", { class: "inst-title" }, inst.instance),
      el("div", { class: "charts" },
        chart("Heap", heap.xs, [{ label: "used", color: "#2f6fde", values: heap.values[0] },
          { label: "committed", color: "#2e9d5b", values: heap.values[1] },
          { label: "max", color: "#aab2c5", values: heap.values[2] }], fmtMiB, xRange),
        chart("GC time (ms per s)", gc.xs, [{ label: "GC", color: "#c9771b", values: gc.values[0] }], v => v.toFixed(1), xRange),
        chart("Threads", threads.xs, [{ label: "live", color: "#8a4fd1", values: threads.values[0] },
          { label: "daemon", color: "#1f9bb0", values: threads.values[1] }], fmtNum, xRange),
        chart("CPU (process)", cpu.xs, [{ label: "CPU", color: "#d64545", values: cpu.values[0] }], fmtPct, xRange)));
  }));
}

// ------------------------------------------------------------------ alerts

/** The alerts of every rule; the firing count per service feeds the badges of the list, the map and the tab. */
async function loadAlertState() {
  const alerts = await api("/api/alerts");
  state.alerts = alerts;
  state.firing = new Map();
  for (const a of alerts) if (a.state === "firing") state.firing.set(a.service, (state.firing.get(a.service) || 0) + 1);
  const firing = alerts.filter(a => a.state === "firing").length;
  $("alertCount").hidden = !firing;
  $("alertCount").textContent = String(firing);
}

function fmtValue(unit, v) {
  if (v === null || v === undefined) return "no data";
  switch (unit) {
    case "ratio": return fmtPct(v);
    case "ms": return fmtMs(v);
    case "per_second": return fmtRate(v) + "/s";
    case "minutes": return v.toFixed(1) + " min";
    default: return fmtNum(v);
  }
}
function alertLinks(a) {
  if (!a.links) return null;
  return el("span", {}, el("a", { href: a.links.series, class: "series-link" }, "series"),
    el("a", { href: a.links.traces, class: "traces-link" }, "traces"));
}
function scopeText(a) {
  return [a.service, a.method, a.route, a.instance ? `(${a.instance})` : null].filter(x => x).join(" ");
}

async function loadAlerts() {
  const [rules, history] = await Promise.all([api("/api/alerts/rules"), api("/api/alerts/history?limit=50")]);
  const file = rules.file;
  $("alertsInfo").textContent = file ? `${rules.rules.length} rules from ${file.path}, evaluated every ${rules.evaluationIntervalMs / 1000} s`
    : "no rules file (--alert-rules)";
  $("rulesError").hidden = !(file && file.error);
  $("rulesError").textContent = file && file.error ? `${file.path} not reloaded: ${file.error}` : "";
  const shown = state.alerts.filter(a => a.state !== "inactive");
  if (!shown.length) {
    replace("alerts", el("div", { class: "empty" }, state.alerts.length ? "nothing firing or pending" : "no alert rules"));
  } else {
    replace("alerts", el("table", { id: "alertTable" },
      el("tr", {}, ["state", "rule", "scope", "signal", "value", "bound", "since", ""].map(h => el("th", {}, h))),
      shown.map(a => el("tr", { class: "alert-row", "data-rule": a.rule, "data-state": a.state },
        el("td", {}, el("span", { class: "state " + a.state }, a.state)),
        el("td", { title: a.summary || "" }, a.rule, el("span", { class: "muted" }, " " + a.severity)),
        el("td", {}, scopeText(a)),
        el("td", {}, a.signal),
        el("td", { class: "num" + (a.state === "firing" ? " err" : "") }, fmtValue(a.unit, a.value)),
        el("td", { class: "num" }, `${a.comparison} ${fmtValue(a.unit, a.threshold)}`),
        el("td", {}, a.activeSinceMs ? fmtAgo(a.state === "resolved" ? a.resolvedAtMs : a.activeSinceMs) : ""),
        el("td", {}, alertLinks(a), a.error ? el("span", { class: "err", title: a.error }, "query failed") : null)))));
  }
  if (!history.length) { replace("alertHistory", el("div", { class: "empty" }, "no changes yet")); return; }
  replace("alertHistory", el("table", { id: "historyTable" },
    el("tr", {}, ["time", "rule", "change", "value", ""].map(h => el("th", {}, h))),
    history.map(h => el("tr", { class: "history-row" },
      el("td", {}, fmtDateTime(h.atMs)),
      el("td", { title: h.summary }, h.rule),
      el("td", {}, el("span", { class: "state " + h.from }, h.from), " \u2192 ", el("span", { class: "state " + h.to }, h.to)),
      el("td", { class: "num" }, fmtValue(h.unit, h.value)),
      el("td", {}, alertLinks(h))))));
}

// ------------------------------------------------------------------ navigation and URLs

function showError(e) { $("status").textContent = "error: " + e.message; }

function selectService(service) {
  state.service = service;
  state.route = null;
  state.kind = null;
  document.querySelectorAll("#services li").forEach(li => li.classList.toggle("sel", li.dataset.service === service));
  writeUrl();
  refresh();
}

function showView(view) {
  state.view = view;
  for (const v of VIEWS) $("view-" + v).hidden = v !== view;
  document.querySelectorAll("#tabs .tab").forEach(b => b.classList.toggle("sel", b.dataset.view === view));
  writeUrl();
  refresh();
}

/** The page's state as fragment parameters: the view, the range, and the view's own filters. */
function urlParams() {
  const p = new URLSearchParams();
  p.set("view", state.view);
  for (const [k, v] of rangeParams()) p.set(k, v);
  if (state.view === "red" || state.view === "jvm") {
    if (state.service) p.set("service", state.service);
    if (state.view === "red") {
      if (state.kind) p.set("kind", state.kind);
      if (state.route) p.set("route", state.route);
      if ($("calls").value) p.set("calls", $("calls").value);
    }
  } else if (state.view === "map" && state.edge) {
    p.set("source", state.edge.source);
    p.set("target", state.edge.target);
  } else if (state.view === "traces") {
    const fields = { service: "sService", route: "sRoute", status: "sStatus", minDurationMs: "sMin", maxDurationMs: "sMax",
      sort: "sSort", limit: "sLimit" };
    for (const [k, id] of Object.entries(fields)) {
      const v = $(id).value.trim();
      if (v && !(k === "status" && v === "any") && !(k === "sort" && v === "time")) p.set(k, v);
    }
    for (const t of $("sTags").value.trim().split(/\s+/).filter(t => t)) p.append("tag", t);
  }
  if (state.traceId) p.set("trace", state.traceId);
  return p;
}
let applying = false, started = false;
function writeUrl() {
  if (applying) return;
  const hash = "#" + urlParams().toString();
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
}

/** Sets the page from the fragment (a link, the back button, or a hand-edited URL). */
function applyUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  const legacy = new URLSearchParams(location.search).get("view");
  // a bare #trace=<id> (the trace panel's own link) keeps the view shown
  const view = VIEWS.includes(p.get("view")) ? p.get("view") : p.has("trace") && started ? state.view
    : VIEWS.includes(legacy) ? legacy : "red";
  applying = true;
  try {
    if (p.has("from")) {
      $("range").value = "custom";
      $("customRange").hidden = false;
      $("customFrom").value = localInput(Number(p.get("from")));
      $("customTo").value = localInput(p.has("to") ? Number(p.get("to")) : Date.now());
      $("auto").checked = false;
    } else if (p.has("range") && [...$("range").options].some(o => o.value === p.get("range"))) {
      $("range").value = p.get("range");
      $("customRange").hidden = true;
    }
    if (view === "red" || view === "jvm") {
      state.service = p.get("service") || state.service;
      state.route = view === "red" ? p.get("route") : null;
      state.kind = view === "red" ? p.get("kind") : null;
      if (view === "red") $("calls").value = p.get("calls") || "";
    } else if (view === "map") {
      state.edge = p.has("source") && p.has("target") ? { source: p.get("source"), target: p.get("target") } : null;
      $("edgeSection").hidden = !state.edge;
    } else if (view === "traces") {
      const fields = { service: "sService", route: "sRoute", status: "sStatus", minDurationMs: "sMin", maxDurationMs: "sMax",
        sort: "sSort", limit: "sLimit" };
      const defaults = { status: "any", sort: "time", limit: "50" };
      for (const [k, id] of Object.entries(fields)) {
        const v = p.get(k) || defaults[k] || "";
        if (id === "sService" && v && ![...$(id).options].some(o => o.value === v)) $(id).appendChild(el("option", { value: v }, v));
        $(id).value = v;
      }
      $("sTags").value = p.getAll("tag").join(" ");
    }
  } finally {
    applying = false;
  }
  const trace = /^[0-9a-fA-F]{32}$/.test(p.get("trace") || "") ? p.get("trace").toLowerCase() : null;
  if (trace && trace !== state.traceId) openTrace(trace);
  showView(view);
}

async function loadView() {
  switch (state.view) {
    case "red": return loadRed();
    case "map": return loadMap();
    case "traces": return search();
    case "jvm": return loadJvm();
    case "alerts": return loadAlerts();
  }
}

let busy = false, again = false;
/** Reloads the alerts, the services and the current view; a call while one runs makes it run once more afterwards. */
async function refresh() {
  if (busy) { again = true; return; }
  busy = true;
  document.body.dataset.busy = "true";
  try {
    do {
      again = false;
      try {
        await loadAlertState();
        await loadServices();
        await Promise.all([loadAgents(), loadView()]);
        $("status").textContent = "updated " + new Date().toLocaleTimeString(undefined, { hour12: false });
      } catch (e) {
        showError(e);
      }
    } while (again);
  } finally {
    busy = false;
    document.body.dataset.busy = "false";
  }
}

document.querySelectorAll("#tabs .tab").forEach(b => b.addEventListener("click", () => showView(b.dataset.view)));
$("refresh").addEventListener("click", refresh);
$("calls").addEventListener("change", () => { writeUrl(); loadHttp(currentService()).catch(showError); });
$("redAll").addEventListener("click", () => { state.route = null; state.kind = null; writeUrl(); loadRed().catch(showError); });
$("search").addEventListener("submit", (ev) => { ev.preventDefault(); search(); });
$("range").addEventListener("change", () => {
  const custom = $("range").value === "custom";
  $("customRange").hidden = !custom;
  if (custom) {
    if (!$("customTo").value) $("customTo").value = localInput(Date.now());
    if (!$("customFrom").value) $("customFrom").value = localInput(Date.now() - 3600000);
    $("auto").checked = false;
  }
  writeUrl();
  refresh();
});
$("applyRange").addEventListener("click", () => { writeUrl(); refresh(); });
$("copyTraceId").addEventListener("click", copyTraceId);
$("closeTrace").addEventListener("click", () => {
  state.traceId = null;
  $("traceSection").hidden = true;
  writeUrl();
});
window.addEventListener("hashchange", applyUrl);
applyUrl();
started = true;
setInterval(() => { if ($("auto").checked && !document.hidden) refresh(); }, 10000);
