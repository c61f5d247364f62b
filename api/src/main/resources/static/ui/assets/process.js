// A process's page follows the events of its call tree: each event (a step of a process of the tree
// ended, with its report lines, outputs or files committed) has the page fetched again, at most one
// fetch at a time and one more for whatever came during it, and every part marked data-live-part
// that changed is swapped in: the controls, the facts, the exit, the scheduler job and its files, the
// call tree, the inputs and outputs, the report. A stream that reconnects has the page fetched again
// too (it resumes after its last event; the fetch covers what an event log trimmed meanwhile).
(function () {
  "use strict";
  let fetching = false;
  let again = false;

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

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        // marked as a script's request, and not following a redirect: a session that ended is not
        // saved a request to return to, nor given a new session by the sign-in page
        const response = await fetch(location.pathname + location.search, {
          headers: { Accept: "text/html", "X-Requested-With": "XMLHttpRequest" },
          redirect: "manual",
        });
        if (response.ok) swapParts(new DOMParser().parseFromString(await response.text(), "text/html"));
      } while (again);
    } catch (e) {
      // the server is away: the stream's reconnection brings the next refresh
    } finally {
      fetching = false;
    }
    document.dispatchEvent(new CustomEvent("cairn:refreshed"));
  }

  document.addEventListener("cairn:state", refresh);
  document.addEventListener("cairn:resumed", refresh);
})();
