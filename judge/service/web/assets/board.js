// The live leaderboard and an instructor's dashboard: every 5 seconds fetches this page again and swaps in
// its live part (the boards, or the dashboard), so the class sees new entries and the instructor the queue
// move without reloading (and without losing the scroll position). Paused in a hidden tab.
(function () {
  "use strict";
  var live = document.getElementById("boards") || document.getElementById("dashboard");
  if (!live) return;
  var updated = document.getElementById("updated");
  function refresh() {
    if (document.hidden) { window.setTimeout(refresh, 5000); return; }
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(live.id);
          if (fresh && fresh.innerHTML !== live.innerHTML) live.innerHTML = fresh.innerHTML;
          if (updated) updated.textContent = new Date().toISOString().replace(/\.\d+Z$/, "Z"); // UTC ISO, as every other time here
        }
        window.setTimeout(refresh, 5000);
      })
      .catch(function () { window.setTimeout(refresh, 5000); });
  }
  window.setTimeout(refresh, 5000);
})();
