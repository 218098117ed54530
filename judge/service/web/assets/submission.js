// The submission page while it is being graded, and while its failure's compute-sanitizer explanation is
// still to come: asks the API for its state every second and shows it; once it is done or failed (or,
// on a page that shows the verdict already, once the explanation is there), reloads the page, which the
// server renders with the whole result.
(function () {
  "use strict";
  var page = document.querySelector("[data-submission]");
  if (!page) return;
  var id = page.getAttribute("data-submission");
  var finished = { done: true, failed: true };
  var shownFinished = finished[page.getAttribute("data-state")];
  var explanationToCome = page.getAttribute("data-sanitizer") === "pending";
  if (shownFinished && !explanationToCome) return;
  var stateText = document.getElementById("state");
  var startedText = document.getElementById("started");
  var gpuText = document.getElementById("gpu");
  function show(element, text) { if (element && text && element.textContent !== text) element.textContent = text; }
  // What the page does not show yet: the verdict, or, once it shows it, the explanation.
  function arrived(submission) {
    return shownFinished ? submission.sanitizer !== "pending" : finished[submission.state];
  }
  function poll() {
    fetch("/api/v1/submissions/" + encodeURIComponent(id), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (submission) {
        if (submission && arrived(submission)) { window.location.reload(); return; }
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
