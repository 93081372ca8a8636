// Progressive enhancement only: every page reads fine without this script.
(function () {
  "use strict";

  // The map of an article loads when it comes near the screen; without this script
  // the page embeds it right away (in <noscript>).
  var embeds = document.querySelectorAll("[data-map-embed]");
  function embed(slot) {
    if (slot.querySelector("iframe.map-embed:not(noscript iframe)")) return;
    var frame = document.createElement("iframe");
    frame.className = "map-embed";
    frame.title = slot.getAttribute("data-title");
    frame.width = "640";
    frame.height = "320";
    frame.setAttribute("loading", "lazy");
    frame.referrerPolicy = "no-referrer";
    frame.src = slot.getAttribute("data-src");
    slot.appendChild(frame);
  }
  if (embeds.length && "IntersectionObserver" in window) {
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          embed(entry.target);
        }
      });
    }, { rootMargin: "400px 0px" });
    Array.prototype.forEach.call(embeds, function (slot) { observer.observe(slot); });
  } else {
    Array.prototype.forEach.call(embeds, embed);
  }

  var bar = document.querySelector("[data-action-bar]");
  if (!bar) return;

  var share = bar.querySelector("[data-share]");
  // The words come from the page, in the site's language.
  var copiedText = bar.getAttribute("data-copied");
  var failedText = bar.getAttribute("data-copy-failed");
  var status = bar.querySelector("[data-share-status]");
  var statusTimer;

  function say(message) {
    status.textContent = message;
    clearTimeout(statusTimer);
    statusTimer = setTimeout(function () { status.textContent = ""; }, 3000);
  }

  function copyWithSelection(text) {
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.appendChild(field);
    field.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    document.body.removeChild(field);
    return copied;
  }

  if (share) {
    share.hidden = false;
    share.addEventListener("click", function () {
      var url = location.href.split("#")[0];
      if (navigator.share) {
        navigator.share({ title: document.title, url: url }).catch(function () {});
        return;
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(
          function () { say(copiedText); },
          function () { say(copyWithSelection(url) ? copiedText : failedText); }
        );
        return;
      }
      say(copyWithSelection(url) ? copiedText : failedText);
    });
  }

  // Hide while scrolling down, show again on the way up, near the top and the bottom.
  var last = window.scrollY;
  var ticking = false;
  function update() {
    var y = window.scrollY;
    var nearBottom = window.innerHeight + y >= document.documentElement.scrollHeight - 8;
    var goingDown = y > last + 4;
    var goingUp = y < last - 4;
    if (y < 64 || nearBottom || goingUp || bar.contains(document.activeElement)) {
      bar.classList.remove("is-hidden");
    } else if (goingDown) {
      bar.classList.add("is-hidden");
    }
    if (goingDown || goingUp) last = y;
    ticking = false;
  }
  window.addEventListener("scroll", function () {
    if (!ticking) {
      ticking = true;
      window.requestAnimationFrame(update);
    }
  }, { passive: true });
  bar.addEventListener("focusin", function () { bar.classList.remove("is-hidden"); });
})();
