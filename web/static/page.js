// The game page: the deadline's countdown, and the live part swapped in (server-rendered, escaped
// HTML of this origin) whenever the summary's mark moves. No reload, no state-changing request.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }
  function currentMark() {
    var clock = document.getElementById("clock");
    return clock ? clock.getAttribute("data-mark") : null;
  }
  function tick() {
    var deadline = document.getElementById("deadline");
    var out = document.getElementById("countdown");
    if (!deadline || !out) { return; }
    var left = Math.floor((Date.parse(deadline.getAttribute("data-deadline")) - Date.now()) / 1000);
    if (left <= 0) { out.textContent = "締切"; return; }
    var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
    out.textContent = (h ? h + "時間" : "") + m + "分" + s + "秒";
  }
  function poll() {
    fetch(live.getAttribute("data-summary"), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (summary) {
        if (!summary || summary.mark === currentMark()) { return null; }
        return fetch(live.getAttribute("data-live"), { cache: "no-store" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (html === null) { return; }
            live.innerHTML = html;
            live.setAttribute("data-updated", String(Date.now()));
            tick();
          });
      })
      .catch(function () { /* the bot may be restarting: try again at the next poll */ });
  }
  tick();
  setInterval(tick, 1000);
  setInterval(poll, 1000 * (parseInt(live.getAttribute("data-poll"), 10) || 3));
})();
