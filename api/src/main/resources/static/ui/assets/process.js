// A process's page: when the process itself ends (its badge is kept live by cairn.js), say so and offer
// the reload that shows its outputs and how it ended; its controls no longer apply.
(function () {
  "use strict";
  const ENDED = new Set(["finished", "excepted", "killed"]);
  document.addEventListener("cairn:state", (e) => {
    if (e.detail.process !== document.body.dataset.root || !ENDED.has(e.detail.to)) return;
    document.getElementById("ended").hidden = false;
    for (const id of ["pause", "play", "kill"]) {
      const button = document.getElementById(id);
      if (button) button.disabled = true;
    }
  });
})();
