// A process's page: a process of its tree that the page does not show yet (a child just launched) has
// the call tree fetched again (once for a burst of changes); when the process itself ends (its badge is
// kept live by cairn.js), the page says so and offers the reload that shows its outputs and how it
// ended, and its controls no longer apply.
(function () {
  "use strict";
  const ENDED = new Set(["finished", "excepted", "killed"]);
  let refresh = null;

  function refreshTree() {
    if (refresh) return;
    refresh = setTimeout(async () => {
      refresh = null;
      const response = await fetch(location.pathname, { headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const tree = page.getElementById("call-tree");
      if (tree) document.getElementById("call-tree").replaceWith(tree);
    }, 200);
  }

  document.addEventListener("cairn:state", (e) => {
    if (!document.querySelector('#call-tree [data-process="' + e.detail.process + '"]')) refreshTree();
    if (e.detail.process !== document.body.dataset.root || !ENDED.has(e.detail.to)) return;
    document.getElementById("ended").hidden = false;
    for (const id of ["pause", "play", "kill"]) {
      const button = document.getElementById(id);
      if (button) button.disabled = true;
    }
  });
})();
