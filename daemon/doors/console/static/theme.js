// The console's theme: the system's (prefers-color-scheme, in console.css) unless the person
// picks one in the bar; the choice is kept in this browser (localStorage) and set as
// data-theme on <html> before the page paints. Without scripts the picker stays hidden and
// the system's theme applies. A static file: the CSP allows no inline script.
(function () {
  "use strict";
  var KEY = "metaeng-theme";
  var root = document.documentElement;

  function saved() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "system";
    } catch (e) {
      return "system";
    }
  }

  function apply(choice) {
    if (choice === "system") {
      root.removeAttribute("data-theme");
    } else {
      root.setAttribute("data-theme", choice);
    }
  }

  // The bar is re-rendered by every boosted navigation: show and set the picker each time.
  function wire() {
    var picker = document.querySelector("select[data-theme-choice]");
    if (!picker) {
      return;
    }
    picker.value = saved();
    picker.parentElement.hidden = false;
  }

  apply(saved());
  document.addEventListener("DOMContentLoaded", wire);
  document.addEventListener("htmx:afterSettle", wire);
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!target || !target.matches || !target.matches("select[data-theme-choice]")) {
      return;
    }
    try {
      if (target.value === "system") {
        window.localStorage.removeItem(KEY);
      } else {
        window.localStorage.setItem(KEY, target.value);
      }
    } catch (e) {
      // storage refused (private mode): the choice holds for this page only
    }
    apply(target.value);
  });
})();
