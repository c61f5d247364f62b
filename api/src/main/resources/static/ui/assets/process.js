// A process's page follows the events of its call tree: each event (a step of a process of the tree
// ended, with its report lines, outputs or files committed) has the page fetched again, and every part
// marked data-live-part that changed is swapped in: the controls, the facts, the exit, the scheduler job
// and its files, the call tree, the inputs and outputs, the report. One fetch at a time, and one more for
// whatever came during it; and the next fetch waits after the last one ended as long as that one took (at
// least 250 ms, at most 1 s): an event of a quiet page is fetched at once, while a burst (a big work
// chain's children ending one after another) is taken in a few fetches, the server rendering this page at
// most half the time however cheap or dear a render is. An event of the page's own process (its end
// above all) is fetched without that wait. The state badges need no fetch: the event stream sets them at
// once.
// A stream that reconnects has the page fetched again too (it resumes after its last event; the fetch
// covers what an event log trimmed meanwhile).
(function () {
  "use strict";
  const LEAST_GAP_MS = 250;
  const MOST_GAP_MS = 1000;
  let fetching = false;
  let again = false;
  let lastEnd = 0;
  let gap = 0;
  let urgent = false;
  let wake = null;

  function swapParts(page) {
    for (const part of page.querySelectorAll("[data-live-part]")) {
      const shown = document.getElementById(part.id);
      if (!shown || shown.isEqualNode(part)) continue;
      // a file preview the reader opened stays open
      const open = new Set([...shown.querySelectorAll("details[open] summary code")].map((c) => c.textContent));
      for (const d of part.querySelectorAll("details")) {
        if (open.has(d.querySelector("summary code")?.textContent)) d.open = true;
      }
      shown.replaceWith(document.adoptNode(part));
    }
  }

  async function refresh(e) {
    if (e?.detail?.process === document.body.dataset.root) {
      urgent = true;
      if (wake) wake();
    }
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        const wait = lastEnd + gap - performance.now();
        if (wait > 0 && !urgent) {
          await new Promise((resolve) => {
            wake = resolve;
            setTimeout(resolve, wait);
          });
          wake = null;
        }
        // what came during the wait is in this fetch
        again = false;
        urgent = false;
        const start = performance.now();
        // marked as a script's request, and not following a redirect: a session that ended is not
        // saved a request to return to, nor given a new session by the sign-in page; and as the event
        // stream's, not the person's: it does not keep an idle session alive
        const response = await fetch(location.pathname + location.search, {
          headers: { Accept: "text/html", "X-Requested-With": "XMLHttpRequest", "X-Cairn-Live": "refresh" },
          redirect: "manual",
        });
        if (response.ok) swapParts(new DOMParser().parseFromString(await response.text(), "text/html"));
        lastEnd = performance.now();
        gap = Math.min(MOST_GAP_MS, Math.max(LEAST_GAP_MS, lastEnd - start));
      } while (again);
    } catch {
      // the server is away: the stream's reconnection brings the next refresh
    } finally {
      fetching = false;
    }
    document.dispatchEvent(new CustomEvent("cairn:refreshed"));
  }

  document.addEventListener("cairn:state", refresh);
  document.addEventListener("cairn:resumed", refresh);
})();
