/// The script the dev server adds to every page it serves (never to `sitegen build`
/// output): it listens for rebuilds and reloads the page, swaps stylesheets when only
/// CSS changed, and shows build errors over the page until they are fixed.
public enum LiveReload {
    public static let scriptPath = "/__sitegen/live.js"
    public static let eventsPath = "/__sitegen/events"

    public static let script = #"""
    (function () {
      "use strict";
      var overlay = null;
      function hideOverlay() {
        if (overlay) { overlay.remove(); overlay = null; }
      }
      function showOverlay(problems) {
        hideOverlay();
        overlay = document.createElement("div");
        overlay.setAttribute("role", "alertdialog");
        overlay.setAttribute("aria-label", "sitegen build errors");
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;background:rgba(20,20,22,.94);color:#f5f5f7;" +
          "font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;padding:24px";
        var title = document.createElement("h1");
        title.textContent = "The site did not build: " + problems.length + " problem" + (problems.length === 1 ? "" : "s");
        title.style.cssText = "font:600 18px/1.3 -apple-system,system-ui,sans-serif;margin:0 0 16px";
        overlay.appendChild(title);
        problems.forEach(function (problem) {
          var block = document.createElement("div");
          block.style.cssText = "margin:0 0 16px;padding:12px;border-radius:10px;background:#2c2c2e";
          var head = document.createElement("div");
          head.textContent = problem.location + ": " + problem.severity + ": " + problem.message;
          head.style.color = {error: "#ff6961", warning: "#ffd60a"}[problem.severity] || "#64d2ff";
          block.appendChild(head);
          if (problem.source) {
            var code = document.createElement("pre");
            code.style.cssText = "margin:8px 0 0;white-space:pre-wrap;color:#d1d1d6";
            code.textContent = problem.line + " | " + problem.source + "\n" + " ".repeat(String(problem.line).length + 3 + Math.max(problem.column - 1, 0)) + "^";
            block.appendChild(code);
          }
          overlay.appendChild(block);
        });
        var note = document.createElement("p");
        note.textContent = "The page below is the last good build. Fix the file and save: this page reloads by itself.";
        note.style.cssText = "font-family:-apple-system,system-ui,sans-serif;color:#aeaeb2";
        overlay.appendChild(note);
        document.body.appendChild(overlay);
      }
      function swapStylesheets() {
        fetch(location.href, { cache: "no-store" }).then(function (response) { return response.text(); }).then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").querySelectorAll('link[rel="stylesheet"]');
          var current = document.querySelectorAll('link[rel="stylesheet"]');
          if (fresh.length !== current.length) { location.reload(); return; }
          Array.prototype.forEach.call(current, function (link, index) {
            var href = fresh[index].getAttribute("href");
            if (link.getAttribute("href") !== href) { link.setAttribute("href", href); }
          });
        }, function () { location.reload(); });
      }
      var source = new EventSource("/__sitegen/events");
      source.addEventListener("reload", function () { location.reload(); });
      source.addEventListener("css", function () { hideOverlay(); swapStylesheets(); });
      source.addEventListener("failed", function (event) { showOverlay(JSON.parse(event.data)); });
    })();
    """#

    /// The page with the script added before `</body>` (or at the end).
    public static func inject(into html: [UInt8]) -> [UInt8] {
        let tag = Array("<script src=\"\(scriptPath)\" defer></script>\n".utf8)
        let closing = Array("</body>".utf8)
        if html.count >= closing.count {
            for index in stride(from: html.count - closing.count, through: 0, by: -1) where html[index] == closing[0] && Array(html[index..<(index + closing.count)]) == closing {
                return Array(html[..<index]) + tag + Array(html[index...])
            }
        }
        return html + tag
    }
}
