// Cairn's web view: the CSRF token on htmx's requests, a box that selects every row, and the live event stream (the API's, behind the
// session cookie) that pages follow. A page opts in with data-live on <body> (and data-live-process or
// data-live-tree to follow one process or a call tree); elements follow by data attributes:
//   data-state-count="finished"   a count of processes in a state (the dashboard)
//   data-process="<uuid>"         a row or element whose [data-state] badge shows the process's state
// A page may also listen to the "cairn:state" event on document, with the change as its detail, and to
// "cairn:resumed", when the stream came back after it was lost.
(function () {
  "use strict";
  const meta = (name) => document.querySelector('meta[name="' + name + '"]')?.content;

  document.addEventListener("htmx:configRequest", (e) => {
    const header = meta("csrf-header");
    if (header) e.detail.headers[header] = meta("csrf-token");
  });

  // a box marked data-select-all ticks or clears every process box of its form (delegated: a list
  // swapped in by htmx keeps it)
  document.addEventListener("change", (e) => {
    if (!e.target.matches("[data-select-all]")) return;
    for (const box of e.target.form.querySelectorAll('input[name="process"]')) box.checked = e.target.checked;
  });

  function setBadge(el, state, exitStatus, paused) {
    const failed = state === "finished" && exitStatus != null && exitStatus !== 0;
    el.textContent = failed ? "failed [" + exitStatus + "]" : state + (paused ? " (paused)" : "");
    el.className = "badge " + (failed ? "failed" : state);
    el.dataset.state = state;
  }

  function apply(change) {
    for (const el of document.querySelectorAll('[data-process="' + change.process + '"] [data-state], '
        + '[data-process="' + change.process + '"][data-state]')) {
      setBadge(el, change.to, change.exit_status, false);
    }
    const from = document.querySelector('[data-state-count="' + change.from + '"]');
    const to = document.querySelector('[data-state-count="' + change.to + '"]');
    if (from && to) {
      from.textContent = String(Math.max(0, Number(from.textContent) - 1));
      to.textContent = String(Number(to.textContent) + 1);
    }
    document.dispatchEvent(new CustomEvent("cairn:state", { detail: change }));
  }

  function follow() {
    const body = document.body;
    if (!body || !("live" in body.dataset)) return;
    const params = new URLSearchParams();
    if (body.dataset.liveProcess) params.set("process", body.dataset.liveProcess);
    if (body.dataset.liveTree) params.set("tree", body.dataset.liveTree);
    const status = document.getElementById("live-status");
    // EventSource reconnects by itself and sends Last-Event-ID: the server fills the gap
    const source = new EventSource("/ui/events" + (params.size ? "?" + params : ""));
    let lost = false;
    source.addEventListener("open", () => {
      if (status) status.className = "live-status on";
      if (lost) document.dispatchEvent(new CustomEvent("cairn:resumed"));
      lost = false;
    });
    source.addEventListener("error", () => {
      // closed: refused rather than lost (the session ended), and not tried again
      if (status) status.className = source.readyState === EventSource.CLOSED ? "live-status closed" : "live-status off";
      lost = true;
    });
    source.addEventListener("state", (e) => apply(JSON.parse(e.data)));
    window.addEventListener("pagehide", () => source.close());
  }

  window.cairn = { setBadge };
  document.addEventListener("DOMContentLoaded", follow);
})();
