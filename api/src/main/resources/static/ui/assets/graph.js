// The graph page: asks the server for the drawing (positions laid out there by ELK) and draws it with
// Cytoscape.js at those positions (its preset layout). The whole view is in the URL. A click on a node
// selects it (expand its ancestors or descendants, open it); a click on a count opens the fan-out it
// folds. An opened fan-out comes as a block: a frame behind its members with one link to it, its members'
// own links bundled into that one (drawing thousands of links costs more than drawing thousands of
// nodes); a selected member shows its own. Live state changes restyle the nodes in place; only a change
// of the graph's shape lays out anew.
(function () {
  "use strict";
  const DATA_FILL = "#e3ecf5";
  const FILLS = { created: "#6c757d", running: "#0d6efd", waiting: "#0aa2c0", finished: "#198754",
    failed: "#d97706", excepted: "#dc3545", killed: "#8b5cf6" };
  const LINES = { create: ["#2e7d32", "solid"], return: ["#66bb6a", "dashed"], input_calc: ["#1565c0", "solid"],
    input_work: ["#64b5f6", "dashed"], call_calc: ["#6a1b9a", "dotted"], call_work: ["#ab47bc", "dotted"],
    fold: ["#9e9e9e", "dashed"] };

  const form = document.getElementById("graph-controls");
  const ref = form.dataset.ref;
  const status = document.getElementById("graph-status");
  let cy = null;
  let layoutKey = null;
  let selected = null;
  // bundled links by the member they lead to or come from, and those of the selected member now shown
  let bundled = new Map();
  let shown = null;
  // members of opened fan-outs by id (painted beneath their block), and the one a click picked
  let members = new Map();
  let picked = null;

  function state() {
    const url = new URL(window.location.href);
    return {
      depth: url.searchParams.get("depth") || "2",
      types: url.searchParams.get("types") || "",
      path: url.searchParams.get("path") || "",
      expand: url.searchParams.getAll("expand"),
      open: url.searchParams.getAll("open"),
    };
  }

  function query(s) {
    const p = new URLSearchParams();
    p.set("depth", s.depth);
    if (s.types) p.set("types", s.types);
    if (s.path) p.set("path", s.path);
    s.expand.forEach((e) => p.append("expand", e));
    s.open.forEach((o) => p.append("open", o));
    return p;
  }

  function show(s) {
    form.depth.value = s.depth;
    const types = s.types ? s.types.split(",") : null;
    for (const box of form.querySelectorAll('input[name="types"]')) box.checked = !types || types.includes(box.value);
    form.path.value = s.path;
  }

  function style() {
    const st = [
      { selector: "node", style: { "z-index": 1, "text-wrap": "wrap", "text-valign": "center",
          "text-halign": "center", "font-size": 9, width: "data(width)", height: "data(height)",
          "background-color": DATA_FILL, "border-width": 1, "border-color": "#607080", color: "#1b1f24",
          // no labels when zoomed out so far that they could not be read: thousands of them cost the most
          "min-zoomed-font-size": 7 } },
      // labels are measured and drawn node by node: past a few hundred nodes, only processes, counts
      // and the selected node carry one (the others say theirs when selected)
      { selector: "node[?labelled], node:selected", style: { label: "data(label)" } },
      { selector: 'node[kind = "data"]', style: { shape: "ellipse" } },
      { selector: 'node[kind = "calculation"]', style: { shape: "rectangle", color: "#fff", "background-color": "#6c757d" } },
      { selector: 'node[kind = "workflow"]', style: { shape: "round-rectangle", color: "#fff", "background-color": "#6c757d" } },
      { selector: 'node[kind = "fold"]', style: { shape: "rectangle", "background-color": "#f5f5f5",
          "border-style": "dashed", "border-color": "#9e9e9e", "font-weight": "bold" } },
      // a frame around its members, painted beneath it; a click picks the member under it
      { selector: 'node[kind = "block"]', style: { shape: "rectangle", "background-opacity": 0,
          "border-style": "dashed", "border-color": "#9e9e9e", "text-valign": "top", "font-weight": "bold",
          "z-index": 0 } },
      { selector: "node[?onPath]", style: { "border-width": 4, "border-color": "#000" } },
      { selector: "node:selected", style: { "border-width": 4, "border-color": "#f59e0b" } },
      { selector: "edge", style: { width: 1.2, "curve-style": "straight", "target-arrow-shape": "triangle",
          "arrow-scale": 0.8 } },
      { selector: "edge[?onPath]", style: { width: 3.5 } },
    ];
    for (const [s, fill] of Object.entries(FILLS)) st.push({ selector: 'node[state = "' + s + '"]', style: { "background-color": fill } });
    for (const [t, [colour, line]] of Object.entries(LINES)) {
      st.push({ selector: 'edge[type = "' + t + '"]', style: { "line-color": colour, "target-arrow-color": colour, "line-style": line } });
    }
    return st;
  }

  async function load(s, push) {
    const started = performance.now();
    const p = query(s);
    if (push) history.pushState(null, "", "?" + p);
    document.getElementById("export-svg").href = "/ui/graph/" + encodeURIComponent(ref) + ".svg?" + p;
    status.textContent = "Loading…";
    document.body.dataset.graphReady = "false";
    const response = await fetch("/ui/graph/" + encodeURIComponent(ref) + ".json?" + p, { headers: { Accept: "application/json" } });
    if (!response.ok) {
      status.textContent = response.status === 401 ? "Signed out: sign in again." : await response.text().then(problem);
      status.className = "error";
      return;
    }
    const text = await response.text();
    const fetched = Math.round(performance.now() - started);
    const phases = { fetch: fetched };
    let t = performance.now();
    const graph = JSON.parse(text);
    phases.parse = Math.round(performance.now() - t);
    status.className = "";
    draw(graph, phases);
    t = performance.now();
    // drawn: after the frame that paints it, when a click is already answered
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const ms = Math.round(performance.now() - started);
      phases.paint = Math.round(performance.now() - t);
      document.body.dataset.graphPhases = JSON.stringify(phases);
      const folds = graph.nodes.filter((n) => n.kind === "fold").length;
      status.textContent = graph.nodes.length - folds + " nodes, " + graph.edges.length + " links"
        + (folds ? ", " + folds + " fan-outs folded (click a count to open it)" : "")
        + (graph.truncated ? "; cut off at the most a drawing holds" : "")
        + "; laid out and sent in " + fetched + " ms, drawn in " + ms + " ms.";
      document.body.dataset.graphFetchMs = String(fetched);
      document.body.dataset.graphMs = String(ms);
      document.body.dataset.graphAt = String(Math.round(performance.now()));
      document.body.dataset.graphReady = "true";
    }));
  }

  function problem(text) {
    try { return JSON.parse(text).detail || text; } catch (e) { return text; }
  }

  function draw(graph, phases) {
    let t = performance.now();
    const elements = [];
    const many = graph.nodes.length > 400;
    if (shown) shown.remove();
    if (picked) picked.remove();
    shown = null;
    picked = null;
    members = new Map();
    for (const n of graph.nodes) {
      if (n.block) { members.set(n.id, n); continue; }
      n.labelled = !many || n.kind !== "data";
      const block = n.kind === "block";
      elements.push({ group: "nodes", data: n, position: { x: n.x, y: n.y }, selectable: !block, grabbable: !block });
    }
    bundled = new Map();
    for (const e of graph.edges) {
      if (!e.bundled) { elements.push({ group: "edges", data: e }); continue; }
      const member = members.has(e.target) ? e.target : e.source;
      if (!bundled.has(member)) bundled.set(member, []);
      bundled.get(member).push(e);
    }
    if (cy && graph.layoutKey === layoutKey) {
      // the same shape: states may differ, positions do not
      for (const n of graph.nodes) if (!n.block) cy.getElementById(n.id).data("state", n.state);
      paintSoon();
      return;
    }
    layoutKey = graph.layoutKey;
    if (cy) cy.destroy();
    phases.elements = Math.round(performance.now() - t);
    t = performance.now();
    cy = cytoscape({
      container: document.getElementById("graph"),
      elements,
      layout: { name: "preset" },
      style: style(),
      minZoom: 0.02,
      maxZoom: 3,
      pixelRatio: 1,
    });
    phases.create = Math.round(performance.now() - t);
    t = performance.now();
    const centre = cy.getElementById(graph.centre);
    if (graph.nodes.length > 300) cy.fit(undefined, 20);
    else { cy.fit(undefined, 30); if (cy.zoom() > 1.2) { cy.zoom(1.2); cy.center(centre); } }
    centre.select();
    cy.on("tap", "node", (e) => {
      const node = e.target.data("kind") === "block" ? pick(e.position) : e.target;
      if (!node) return;
      tap(node);
      // how long a click waited to be answered, to the frame that shows the answer
      const clicked = e.originalEvent ? e.originalEvent.timeStamp : performance.now();
      requestAnimationFrame(() => {
        document.body.dataset.graphAnswered = node.id();
        document.body.dataset.graphAnsweredMs = String(Math.round(performance.now() - clicked));
      });
    });
    if (!layer) {
      layer = document.createElement("canvas");
      layer.className = "members";
      layer.setAttribute("aria-hidden", "true");
    }
    cy.container().prepend(layer);
    cy.on("viewport resize", paintSoon);
    paint();
    window.cairnGraph = cy;
    window.cairnGraphMembers = members;
    phases.fit = Math.round(performance.now() - t);
  }

  // The members of opened fan-outs are painted on a canvas of our own beneath Cytoscape's, following
  // its pan and zoom: an element each would cost Cytoscape far more to create and style than painting
  // them all costs on every frame. A click on a block picks the member under it, which then becomes an
  // element of its own.
  let layer = null;
  let painting = false;

  function paintSoon() {
    if (painting) return;
    painting = true;
    requestAnimationFrame(paint);
  }

  function paint() {
    painting = false;
    const box = document.getElementById("graph");
    const w = box.clientWidth, h = box.clientHeight;
    if (layer.width !== w) layer.width = w;
    if (layer.height !== h) layer.height = h;
    const g = layer.getContext("2d");
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, w, h);
    if (members.size === 0) return;
    const z = cy.zoom(), pan = cy.pan();
    const left = -pan.x / z, top = -pan.y / z, right = (w - pan.x) / z, bottom = (h - pan.y) / z;
    g.setTransform(z, 0, 0, z, pan.x, pan.y);
    // one path per fill and border: a few calls to fill and stroke, whatever the number of members
    const paths = new Map();
    for (const n of members.values()) {
      if (n.x + n.width / 2 < left || n.x - n.width / 2 > right || n.y + n.height / 2 < top || n.y - n.height / 2 > bottom) continue;
      const key = (n.kind === "data" ? DATA_FILL : FILLS[n.state] || FILLS.created) + (n.onPath ? " path" : "");
      let path = paths.get(key);
      if (!path) paths.set(key, path = new Path2D());
      if (n.kind === "data") {
        path.moveTo(n.x + n.width / 2, n.y);
        path.ellipse(n.x, n.y, n.width / 2, n.height / 2, 0, 0, 2 * Math.PI);
      } else {
        path.roundRect(n.x - n.width / 2, n.y - n.height / 2, n.width, n.height, n.kind === "workflow" ? n.height / 4 : 0);
      }
    }
    for (const [key, path] of paths) {
      const [fill, onPath] = key.split(" ");
      g.fillStyle = fill;
      g.fill(path);
      g.lineWidth = onPath ? 4 : 1;
      g.strokeStyle = onPath ? "#000" : "#607080";
      g.stroke(path);
    }
  }

  function pick(at) {
    // the member under the pointer, or the nearest within a few pixels: zoomed out, members are small
    const slack = 4 / cy.zoom();
    let hit = null, nearest = Infinity;
    for (const n of members.values()) {
      const dx = Math.max(0, Math.abs(n.x - at.x) - n.width / 2), dy = Math.max(0, Math.abs(n.y - at.y) - n.height / 2);
      const d = Math.hypot(dx, dy);
      if (d <= slack && d < nearest) { hit = n; nearest = d; }
    }
    if (!hit) return null;
    if (shown) { shown.remove(); shown = null; }
    if (picked) picked.remove();
    hit.labelled = true;
    picked = cy.add({ group: "nodes", data: hit, position: { x: hit.x, y: hit.y } });
    cy.$(":selected").unselect();
    picked.select();
    return picked;
  }

  function tap(node) {
    const d = node.data();
    if (d.kind === "fold") {
      const s = state();
      s.open.push(d.fold);
      load(s, true);
      return;
    }
    selected = d;
    if (shown) shown.remove();
    const own = bundled.get(d.id);
    shown = own ? cy.add(own.map((e) => ({ group: "edges", data: e }))) : null;
    const panel = document.getElementById("selection");
    panel.hidden = false;
    document.getElementById("selected-title").textContent = d.label.replace("\n", " · ");
    document.getElementById("selected-type").textContent = d.type + (d.state ? " — " + d.state : "");
    const process = d.kind === "calculation" || d.kind === "workflow";
    const open = document.getElementById("selected-open");
    open.href = (process ? "/ui/processes/" : "/ui/nodes/") + d.id;
    open.textContent = process ? "Open the process" : "Open the node";
    const centre = new URLSearchParams(query(state()));
    centre.delete("expand"); centre.delete("open");
    document.getElementById("selected-centre").href = "/ui/nodes/" + d.id + "/graph?" + centre;
  }

  function expand(side) {
    if (!selected) return;
    const s = state();
    const fan = selected.id + ":" + side;
    if (!s.expand.includes(fan)) s.expand.push(fan);
    load(s, true);
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const s = state();
    s.depth = form.depth.value;
    const boxes = [...form.querySelectorAll('input[name="types"]')];
    s.types = boxes.every((b) => b.checked) ? "" : boxes.filter((b) => b.checked).map((b) => b.value).join(",");
    s.path = form.path.value.trim();
    load(s, true);
  });
  document.getElementById("expand-in").addEventListener("click", () => expand("in"));
  document.getElementById("expand-out").addEventListener("click", () => expand("out"));
  window.addEventListener("popstate", () => { const s = state(); show(s); load(s, false); });
  document.addEventListener("cairn:state", (e) => {
    if (!cy) return;
    const c = e.detail;
    const to = c.to === "finished" && c.exit_status ? "failed" : c.to;
    const node = cy.getElementById(c.process);
    if (node.nonempty()) node.data("state", to);
    const member = members.get(c.process);
    if (member) { member.state = to; paintSoon(); }
  });

  const initial = state();
  show(initial);
  load(initial, false);
})();
