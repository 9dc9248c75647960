/* Live pages and small page behaviours, kept out of the HTML so the CSP can forbid inline script.
 *
 * A page with <div id="live" data-src=... data-version=...> listens to /events
 * (server-sent events) and fetches its live part when the tournament changes;
 * a browser without EventSource polls data-src every data-poll milliseconds.
 */
(function () {
  "use strict";

  function wire(root) {
    root.querySelectorAll("button[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
    root.querySelectorAll("form[data-confirm]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
      });
    });
  }

  function live() {
    var box = document.getElementById("live");
    if (!box) { return; }
    var stamp = document.getElementById("stamp");
    var version = box.getAttribute("data-version") || "";
    var busy = false;
    var again = false;
    var polling = !window.EventSource;
    var pollNote = " This page checks for new results every few seconds.";

    function say(text) { if (stamp) { stamp.textContent = text; } }

    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      fetch(box.getAttribute("data-src"), {
        headers: {"If-None-Match": "\"" + version + "\""},
        cache: "no-store",
        credentials: "same-origin"
      }).then(function (answer) {
        if (answer.status !== 200) { return null; }
        version = (answer.headers.get("ETag") || "").replace(/"/g, "");
        return answer.text();
      }).then(function (html) {
        if (html !== null && html !== undefined) {
          box.innerHTML = html;
          wire(box);
        }
        say("Updated at " + new Date().toLocaleTimeString() + "." + (polling ? pollNote : ""));
      }).catch(function () {
        say("The director server is not answering; trying again.");
      }).finally(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
    }

    if (!polling) {
      var events = new EventSource("/events?since=" + encodeURIComponent(version));
      events.addEventListener("change", function (event) {
        if (event.data !== version) { refresh(); }
      });
      events.onopen = function () { say("Live: this page updates as results arrive."); };
      events.onerror = function () { say("Reconnecting to the director server…"); };
    } else {
      window.setInterval(refresh, parseInt(box.getAttribute("data-poll") || "3000", 10));
      say(pollNote.trim());
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    wire(document);
    live();
  });
}());
