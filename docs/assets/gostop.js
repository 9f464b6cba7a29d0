/* gostop-conformance documentation: the step-through view of worked examples, the filters of
 * the scenario catalogue and the address of the ruleset matrix's view. Plain JavaScript, no
 * dependencies; without it every frame is shown, and the matrix's switches still work. */
(function () {
  "use strict";

  function stepper(root) {
    var frames = Array.prototype.filter.call(root.children, function (el) {
      return el.classList.contains("gs-frame");
    });
    if (frames.length < 2) return;
    var index = 0;
    var all = false;
    var bar = document.createElement("div");
    bar.className = "gs-controls";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "step through the example");
    function button(label, title) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.title = title;
      bar.appendChild(b);
      return b;
    }
    var first = button("« first", "first frame (Home)");
    var prev = button("◀ previous", "previous step (←)");
    var pos = document.createElement("span");
    pos.className = "gs-pos";
    pos.setAttribute("aria-live", "polite");
    bar.appendChild(pos);
    var next = button("next ▶", "next step (→)");
    var last = button("last »", "last frame (End)");
    var progress = document.createElement("span");
    progress.className = "gs-progress";
    var fill = document.createElement("span");
    progress.appendChild(fill);
    bar.appendChild(progress);
    var toggle = button("show all steps", "show every frame at once");
    root.insertBefore(bar, frames[0]);
    root.classList.add("gs-js");
    root.tabIndex = 0;

    function show() {
      frames.forEach(function (f, i) {
        f.classList.toggle("gs-off", !all && i !== index);
      });
      var head = frames[index].querySelector(".gs-step-no");
      pos.textContent = all ? "all " + frames.length + " frames" : (index + 1) + " / " + frames.length + " · " + (head ? head.textContent : "");
      fill.style.width = ((index + 1) * 100 / frames.length) + "%";
      first.disabled = prev.disabled = all || index === 0;
      last.disabled = next.disabled = all || index === frames.length - 1;
      toggle.textContent = all ? "one step at a time" : "show all steps";
    }
    function go(i) {
      index = Math.max(0, Math.min(frames.length - 1, i));
      show();
    }
    first.addEventListener("click", function () { go(0); });
    prev.addEventListener("click", function () { go(index - 1); });
    next.addEventListener("click", function () { go(index + 1); });
    last.addEventListener("click", function () { go(frames.length - 1); });
    toggle.addEventListener("click", function () { all = !all; show(); });
    root.addEventListener("keydown", function (ev) {
      if (ev.target !== root) return;
      if (ev.key === "ArrowRight") { go(index + 1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { go(index - 1); ev.preventDefault(); }
      else if (ev.key === "Home") { go(0); ev.preventDefault(); }
      else if (ev.key === "End") { go(frames.length - 1); ev.preventDefault(); }
    });
    show();
  }

  function catalogue(form) {
    var tables = Array.prototype.slice.call(document.querySelectorAll("table.gs-scenario-table"));
    if (!tables.length) return;
    form.hidden = false;
    var fields = ["clause", "ruleset", "area", "polarity", "q"];
    var params = new URLSearchParams(window.location.search);
    fields.forEach(function (name) {
      var el = form.elements.namedItem(name);
      if (el && params.get(name)) el.value = params.get(name);
    });

    function apply() {
      var v = {};
      fields.forEach(function (name) {
        var el = form.elements.namedItem(name);
        v[name] = el ? String(el.value || "").trim() : "";
      });
      var shown = 0;
      var total = 0;
      tables.forEach(function (table) {
        var visible = 0;
        Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
          var d = row.dataset;
          var ok = (!v.clause || (" " + d.clauses + " ").indexOf(" " + v.clause + " ") >= 0) &&
            (!v.ruleset || d.ruleset === v.ruleset) &&
            (!v.area || d.area === v.area) &&
            (!v.polarity || d.polarity === v.polarity) &&
            (!v.q || d.text.indexOf(v.q.toLowerCase()) >= 0);
          row.classList.toggle("gs-hidden", !ok);
          total += 1;
          if (ok) { visible += 1; shown += 1; }
        });
        var display = visible ? "" : "none";
        table.style.display = display;
        // the area's count says how many of its scenarios the filters leave
        var count = document.querySelector('.gs-area-count[data-area="' + table.dataset.area + '"]');
        if (count) {
          var all = count.dataset.total;
          count.textContent = visible === Number(all) ? all : visible + " of " + all;
        }
        // and the table of contents lists only the areas left
        var entry = document.querySelector('.md-nav--secondary a[href="#area-' + table.dataset.area + '"]');
        if (entry && entry.parentElement) entry.parentElement.style.display = display;
        var el = table.previousElementSibling;
        for (var k = 0; k < 2 && el; k++) {
          if (el.tagName === "H2" || el.tagName === "P") el.style.display = display;
          el = el.previousElementSibling;
        }
      });
      var out = form.querySelector(".gs-count");
      if (out) out.textContent = shown + " of " + total + (total === 1 ? " scenario" : " scenarios");
      var query = new URLSearchParams();
      fields.forEach(function (name) { if (v[name]) query.set(name, v[name]); });
      var search = query.toString();
      if (window.history && window.history.replaceState) {
        window.history.replaceState(null, "", window.location.pathname + (search ? "?" + search : "") + window.location.hash);
      }
    }
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("reset", function () { window.setTimeout(apply, 0); });
    apply();
  }

  // the comparison matrix: `?view=differences` (or `words`, or both, comma-separated) turns its
  // switches on, and the address follows them, so that a view can be linked to
  function matrixView(diff, words) {
    var params = new URLSearchParams(window.location.search);
    var wanted = (params.get("view") || "").split(",");
    diff.checked = diff.checked || wanted.indexOf("differences") >= 0;
    words.checked = words.checked || wanted.indexOf("words") >= 0;
    function follow() {
      var view = [];
      if (diff.checked) view.push("differences");
      if (words.checked) view.push("words");
      var query = new URLSearchParams(window.location.search);
      if (view.length) query.set("view", view.join(",")); else query.delete("view");
      var search = query.toString();
      if (window.history && window.history.replaceState) {
        window.history.replaceState(null, "", window.location.pathname + (search ? "?" + search : "") + window.location.hash);
      }
    }
    diff.addEventListener("change", follow);
    words.addEventListener("change", follow);
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll(".gs-stepper"), stepper);
    var form = document.getElementById("gs-filter");
    if (form) catalogue(form);
    var diff = document.getElementById("gs-diff-only");
    var words = document.getElementById("gs-words");
    if (diff && words) matrixView(diff, words);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
