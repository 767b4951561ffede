"""The page `bsl review` serves: one pair at a time, keyboard first. The server (cli/commands/review.py) fills in
`__TITLE__`, `__KEYS__` (the error classes and their keys) and `__API__` (the token's URL prefix)."""

PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#222;background:#f6f6f4}
main{max-width:980px;margin:0 auto;padding:1.2em 1.5em}
h1{font-size:1.15em;margin:.2em 0 .6em} .meta{color:#666;font-size:.85em}
.bar{height:8px;background:#ddd;border-radius:4px;overflow:hidden;margin:.3em 0 1em}
.bar div{height:100%;background:#2a6}
.box{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.8em 1em;margin:.6em 0}
.label{font-size:.75em;text-transform:uppercase;letter-spacing:.06em;color:#888}
#origin{text-transform:none;letter-spacing:0}
.context{color:#888;font-size:.9em} .sentence{font-size:1.2em}
del{background:#fdd;color:#900} ins{background:#cfc;color:#060;text-decoration:none;font-weight:600}
.keys{display:flex;flex-wrap:wrap;gap:.4em;margin:.6em 0}
.keys button{font:inherit;font-size:.9em;padding:.3em .7em;border:1px solid #999;border-radius:4px;background:#fff;
  cursor:pointer} .keys button.on{background:#a22;color:#fff;border-color:#a22}
.keys button.usable{border-color:#2a6} .keys button.not{border-color:#a22}
kbd{font:inherit;font-size:.8em;border:1px solid #aaa;border-bottom-width:2px;border-radius:3px;padding:0 .3em;
  background:#fafafa;color:#333}
textarea{width:100%;font:inherit;font-size:.9em;box-sizing:border-box;min-height:2.6em}
#last{min-height:1.5em} #error{color:#a00;font-weight:600} #done{font-size:1.2em;color:#262}
</style></head>
<body><main>
<h1>__TITLE__</h1>
<div class="meta"><span id="progress">…</span> · reviewer <b id="reviewer"></b> · method hidden until marked</div>
<div class="bar"><div id="bar" style="width:0"></div></div>
<div id="pair">
  <div class="box"><div class="label">source <span class="meta" id="origin"></span></div>
    <div class="context" id="before"></div><div class="sentence" id="source"></div>
    <div class="context" id="after"></div></div>
  <div class="box"><div class="label">view (changes against the source)</div>
    <div class="sentence" id="view"></div></div>
  <div class="keys">
    <button class="usable" data-mark="usable"><kbd>u</kbd>/<kbd>1</kbd> usable</button>
    <button class="not" data-mark="not_usable"><kbd>n</kbd>/<kbd>0</kbd> not usable</button>
    <button data-mark="skip"><kbd>s</kbd> skip</button>
    <button data-undo="1"><kbd>z</kbd> undo</button>
  </div>
  <div class="label">error classes: saved with <kbd>n</kbd> not usable only</div>
  <div class="keys" id="classes"></div>
  <textarea id="note" placeholder="note (t to write, Esc to leave)" maxlength="2000"></textarea>
</div>
<div id="done" hidden>Every pair of this sample is marked. Figures: <code>bsl review --summary</code>.</div>
<p id="last" class="meta"></p><p id="error"></p>
</main>
<script>
(function(){
  var API = "__API__", KEYS = __KEYS__;
  var state = null, classes = {}, busy = false;
  var $ = function(id){ return document.getElementById(id); };
  var box = $("classes");
  KEYS.forEach(function(k){
    var b = document.createElement("button");
    b.dataset.cls = k[0];
    b.innerHTML = "<kbd></kbd> ";
    b.firstChild.textContent = k[1];
    b.appendChild(document.createTextNode(k[2]));
    b.addEventListener("click", function(){ toggle(k[0]); });
    box.appendChild(b);
  });
  function toggle(name){ classes[name] = !classes[name]; paintClasses(); }
  function paintClasses(){
    box.querySelectorAll("button").forEach(function(b){ b.classList.toggle("on", !!classes[b.dataset.cls]); });
  }
  function diff(el, segments, keep){
    el.textContent = "";
    segments.forEach(function(s, i){
      if (s[0] !== "equal" && s[0] !== keep) return;
      var node = s[0] === "equal" ? document.createTextNode(s[1])
                                  : document.createElement(keep === "delete" ? "del" : "ins");
      if (s[0] !== "equal") node.textContent = s[1];
      if (el.childNodes.length) el.appendChild(document.createTextNode(" "));
      el.appendChild(node);
    });
  }
  function show(s){
    state = s;
    $("reviewer").textContent = s.reviewer;
    // Judged: usable or not usable; a skip is not counted (the pair is not shown again, so the bar moves on).
    $("progress").textContent = s.done + " of " + s.total + " judged" +
      (s.skipped ? ", " + s.skipped + " skipped" : "");
    $("bar").style.width = (s.total ? 100 * (s.done + s.skipped) / s.total : 100) + "%";
    if (s.last) {
      var cls = s.last.classes.length ? " (" + s.last.classes.join(", ") + ")" : "";
      $("last").textContent = "last: " + s.last.mark.replace("_", " ") + cls + " · method " + s.last.method +
        " · pair " + s.last.pair_id;
    } else { $("last").textContent = ""; }
    var item = s.item;
    $("pair").hidden = !item; $("done").hidden = !!item;
    document.body.dataset.pair = item ? item.pair_id : "";
    if (!item) return;
    $("origin").textContent = item.origin;
    $("before").textContent = item.before ? "… " + item.before : "";
    $("after").textContent = item.after ? item.after + " …" : "";
    diff($("source"), item.diff, "delete");
    diff($("view"), item.diff, "insert");
    classes = {}; (s.restore && s.restore.classes || []).forEach(function(c){ classes[c] = true; });
    $("note").value = s.restore ? s.restore.note : "";
    paintClasses();
  }
  function call(path, body){
    if (busy) return; busy = true;
    var init = body ? {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)} : {};
    fetch(API + path, init)
      .then(function(r){
        return r.json().then(function(j){ if (!r.ok) throw new Error(j.error || r.status); return j; });
      })
      .then(function(s){ $("error").textContent = ""; show(s); })
      .catch(function(e){ $("error").textContent = "not saved: " + e.message; })
      .then(function(){ busy = false; document.body.dataset.ready = "1"; });
  }
  function mark(m){
    if (!state || !state.item) return;
    // Error classes say why a view is not usable: only that mark carries them.
    var chosen = m === "not_usable" ? Object.keys(classes).filter(function(c){ return classes[c]; }) : [];
    document.body.dataset.ready = "0";
    call("api/mark", {pair_id: state.item.pair_id, mark: m, classes: chosen, note: $("note").value});
  }
  function undo(){ document.body.dataset.ready = "0"; call("api/undo", {}); }
  document.querySelectorAll("[data-mark]").forEach(function(b){
    b.addEventListener("click", function(){ mark(b.dataset.mark); });
  });
  document.querySelector("[data-undo]").addEventListener("click", undo);
  var byKey = {}; KEYS.forEach(function(k){ byKey[k[1]] = k[0]; });
  document.addEventListener("keydown", function(ev){
    if (ev.target === $("note")) { if (ev.key === "Escape") $("note").blur(); return; }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var k = ev.key.toLowerCase();
    if (k === "u" || k === "1") mark("usable");
    else if (k === "n" || k === "0") mark("not_usable");
    else if (k === "s") mark("skip");
    else if (k === "z") undo();
    else if (k === "t") { $("note").focus(); }
    else if (byKey[k]) toggle(byKey[k]);
    else return;
    ev.preventDefault();
  });
  call("api/state");
})();
</script>
</body></html>
"""
