// Every <time datetime="…"> the server rendered (exact UTC text) becomes the viewer's
// relative time ("3 hr. ago", in the browser's language), with the exact local time on
// hover. A file, not an inline script: the console's CSP allows script-src 'self' only.
(function () {
  "use strict";
  var STEPS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
               ["hour", 3600], ["minute", 60], ["second", 1]];
  var relative = window.Intl && Intl.RelativeTimeFormat
    ? new Intl.RelativeTimeFormat(undefined, { numeric: "auto", style: "short" }) : null;
  var exact = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

  function say(seconds) {
    for (var i = 0; i < STEPS.length; i++) {
      var unit = STEPS[i][0], size = STEPS[i][1];
      if (Math.abs(seconds) >= size || unit === "second") {
        return relative.format(Math.round(seconds / size), unit);
      }
    }
  }

  function rewrite(root) {
    if (!relative || !root.querySelectorAll) { return; }
    var found = root.querySelectorAll("time[datetime]");
    var now = Date.now();
    for (var i = 0; i < found.length; i++) {
      var el = found[i], when = new Date(el.getAttribute("datetime"));
      if (isNaN(when.getTime())) { continue; }
      el.textContent = say((when.getTime() - now) / 1000);
      el.title = exact.format(when);
    }
  }

  document.addEventListener("htmx:load", function (event) { rewrite(event.detail.elt); });
  rewrite(document);
  window.setInterval(function () { rewrite(document); }, 60000);
})();
