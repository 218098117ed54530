// The submission page while it is being graded: asks the API for its state every second and shows it;
// once it is done or failed, reloads the page, which the server renders with the whole result.
(function () {
  "use strict";
  var page = document.querySelector("[data-submission]");
  if (!page) return;
  var id = page.getAttribute("data-submission");
  var finished = { done: true, failed: true };
  if (finished[page.getAttribute("data-state")]) return;
  var stateText = document.getElementById("state");
  var startedText = document.getElementById("started");
  var gpuText = document.getElementById("gpu");
  function show(element, text) { if (element && text && element.textContent !== text) element.textContent = text; }
  function poll() {
    fetch("/api/v1/submissions/" + encodeURIComponent(id), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (submission) {
        if (submission && finished[submission.state]) { window.location.reload(); return; }
        if (submission) {
          show(stateText, submission.state);
          if (stateText) stateText.className = "state " + submission.state;
          show(startedText, submission.started_at);
          show(gpuText, submission.gpu);
        }
        window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 1000); });
  }
  window.setTimeout(poll, 1000);
})();
