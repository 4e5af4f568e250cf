"""The HTML of the status page and the control page, from the public status only.

Plain server-rendered HTML that reads well on a phone; every value is escaped.  The page
listens to ``/api/events`` (server-sent events) and reloads its main part when the status
changes; without JavaScript it refreshes itself every 10 seconds.  The scripts and the
style sheet are served from the hub itself (the Content-Security-Policy allows nothing
else), so the page works on a LAN with no internet.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

STATE_CLASS = {"ok": "ok", "SIMULATED": "sim", "not in use": "off", "failed": "bad"}


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def page(status: dict[str, Any]) -> str:
    """The whole status page."""
    title = f"tablehub — {status.get('title') or status.get('game')}"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<link rel="stylesheet" href="/page.css">
<script src="/page.js" defer></script>
<noscript><meta http-equiv="refresh" content="10"></noscript>
</head>
<body>
<main id="status">
{main(status)}
</main>
<footer><a href="/api/status">JSON</a> · <a href="/control">corrections</a></footer>
</body>
</html>
"""


def main(status: dict[str, Any]) -> str:
    """The part of the page that changes (also served alone, as ``/fragment``)."""
    parts = [_heading(status), _now(status), _scores(status), _announcements(status)]
    parts += [_devices(status), _details(status)]
    return "\n".join(p for p in parts if p)


def _heading(status: dict[str, Any]) -> str:
    session = status.get("session") or {}
    state = "finished" if session.get("finished") else "in play"
    seats = ", ".join(_e(s) for s in status.get("seats") or [])
    options = status.get("options") or {}
    setup = ", ".join(f"{_e(k)} = {_e(json.dumps(v))}" for k, v in sorted(options.items()))
    lines = [
        f"<h1>{_e(status.get('title') or status.get('game'))}</h1>",
        f'<p class="meta">session {_e(session.get("id"))} · {state} · {_records(session)}</p>',
        f'<p class="meta">seats: {seats}</p>',
    ]
    if setup:
        lines.append(f'<p class="meta">options: {setup}</p>')
    return "\n".join(lines)


def _records(session: dict[str, Any]) -> str:
    count = session.get("records", 0)
    return f"{_e(count)} record{'' if count == 1 else 's'} journaled"


def _now(status: dict[str, Any]) -> str:
    rows = []
    if status.get("phase") is not None:
        rows.append(("phase", status["phase"]))
    if status.get("round") is not None:
        of = f" of {status['rounds']}" if status.get("rounds") is not None else ""
        rows.append((status.get("round_name") or "round", f"{status['round']}{of}"))
    if status.get("turn") is not None:
        rows.append(("turn", status["turn"]))
    if not rows:
        return ""
    cells = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in rows)
    return f'<dl class="now">{cells}</dl>'


def _scores(status: dict[str, Any]) -> str:
    scores = status.get("scores")
    if not scores:
        return ""
    rows = "".join(
        f"<tr><td>{_e(r.get('seat'))}</td><td>{_e(r.get('score'))}</td></tr>" for r in scores
    )
    return f"<h2>Scores</h2>\n<table><tr><th>seat</th><th>score</th></tr>{rows}</table>"


def _announcements(status: dict[str, Any]) -> str:
    said = list(status.get("announcements") or [])
    if not said:
        return "<h2>Announcements</h2>\n<p>Nothing announced yet.</p>"
    items = "".join(f"<li>{_e(a.get('text'))}</li>" for a in reversed(said))
    return f'<h2>Announcements</h2>\n<ol class="said" reversed>{items}</ol>'


def _devices(status: dict[str, Any]) -> str:
    devices = status.get("devices") or {}
    if not devices:
        return ""
    rows = []
    for name, device in devices.items():
        state = str(device.get("state", ""))
        css = STATE_CLASS.get(state, "off")
        rows.append(
            f'<tr><td>{_e(name)}</td><td class="{css}">{_e(state)}</td>'
            f"<td>{_e(device.get('detail', ''))}</td></tr>"
        )
    return f"<h2>Devices</h2>\n<table>{''.join(rows)}</table>"


def _details(status: dict[str, Any]) -> str:
    public = json.dumps(status.get("public") or {}, indent=1, sort_keys=True, ensure_ascii=False)
    return f"<details><summary>Everything public</summary><pre>{_e(public)}</pre></details>"


def control_page() -> str:
    """Corrections with the token: it stays in this browser tab only (sessionStorage)."""
    return """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tablehub — corrections</title>
<link rel="stylesheet" href="/page.css">
<script src="/control.js" defer></script>
</head>
<body>
<main>
<h1>Corrections</h1>
<p>Paste the control token (<code>tablehub token</code> on the hub shows it).</p>
<p><input id="token" type="password" autocomplete="off" placeholder="token" size="24">
<button id="save">use</button></p>
<p><button id="next" class="big">Next</button></p>
<p id="answer" role="status"></p>
<h2>Journal</h2>
<p class="meta">Records by number and kind; a Blackout's records are sealed.</p>
<table id="journal"></table>
<h2>Correct a record</h2>
<p><input id="seq" type="number" min="1" placeholder="record number"></p>
<p><textarea id="record" rows="4" cols="30" placeholder='{"kind": "..."}'></textarea></p>
<p><button id="correct">correct</button></p>
</main>
<footer><a href="/">status</a></footer>
</body>
</html>
"""


CSS = """
body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 42rem; padding: 0.5rem;
  color: #111; background: #fff; }
h1 { font-size: 1.4rem; margin: 0.3rem 0; }
h2 { font-size: 1.1rem; margin: 1rem 0 0.3rem; }
.meta { color: #555; margin: 0.1rem 0; }
dl.now { display: grid; grid-template-columns: auto 1fr; gap: 0.2rem 0.8rem;
  font-size: 1.2rem; }
dl.now dt { color: #555; } dl.now dd { margin: 0; font-weight: bold; }
table { border-collapse: collapse; width: 100%; }
td, th { border-bottom: 1px solid #ddd; padding: 0.25rem; text-align: left; }
ol.said li { margin: 0.2rem 0; }
.ok { color: #060; } .sim { color: #a50; font-weight: bold; } .off { color: #666; }
.bad { color: #b00; font-weight: bold; }
pre { white-space: pre-wrap; font-size: 0.8rem; }
button { font-size: 1rem; padding: 0.3rem 0.8rem; }
button.big { font-size: 1.5rem; padding: 0.6rem 2rem; }
footer { margin-top: 1.5rem; color: #555; }
"""

PAGE_JS = """
"use strict";
(function () {
  if (!window.EventSource) { return; }
  var shown = null;
  var events = new EventSource("/api/events");
  events.addEventListener("status", function (message) {
    var version = JSON.parse(message.data).version;
    if (shown === null) { shown = version; return; }
    if (version === shown) { return; }
    shown = version;
    fetch("/fragment", {cache: "no-store"}).then(function (reply) {
      return reply.ok ? reply.text() : null;
    }).then(function (html) {
      if (html !== null) { document.getElementById("status").innerHTML = html; }
    });
  });
})();
"""

CONTROL_JS = """
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  $("token").value = sessionStorage.getItem("tablehub-token") || "";
  function answer(text) { $("answer").textContent = text; }
  function call(method, path, body) {
    var headers = {"Authorization": "Bearer " + $("token").value.trim()};
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    return fetch(path, {method: method, headers: headers,
                        body: body === undefined ? undefined : JSON.stringify(body)})
      .then(function (reply) {
        return reply.json().then(function (data) { return {ok: reply.ok, data: data}; });
      });
  }
  function show(result) {
    answer(result.ok ? (result.data.message || "done") : (result.data.error || "refused"));
    load();
  }
  function load() {
    call("GET", "/api/journal?after=0").then(function (result) {
      var table = $("journal");
      table.textContent = "";
      if (!result.ok) { answer(result.data.error || "refused"); return; }
      result.data.entries.slice(-30).reverse().forEach(function (entry) {
        var row = table.insertRow();
        row.insertCell().textContent = entry.seq === null ? "" : "#" + entry.seq;
        var what = entry.kind === "sealed" ? "Blackout (sealed)" : entry.kind;
        if (entry.target) { what += " #" + entry.target; }
        if (entry.changed) { what += " (" + entry.changed + ")"; }
        if (entry.note) { what += ": " + entry.note; }
        row.insertCell().textContent = what;
        var cell = row.insertCell();
        if (entry.correctable && !entry.changed) {
          var button = document.createElement("button");
          button.textContent = "undo";
          button.addEventListener("click", function () {
            call("POST", "/api/undo", {seq: entry.seq}).then(show);
          });
          cell.appendChild(button);
        }
      });
    });
  }
  $("save").addEventListener("click", function () {
    sessionStorage.setItem("tablehub-token", $("token").value.trim());
    load();
  });
  $("next").addEventListener("click", function () { call("POST", "/api/next", {}).then(show); });
  $("correct").addEventListener("click", function () {
    var record;
    try { record = JSON.parse($("record").value); } catch (err) {
      answer("the record is not JSON: " + err.message); return;
    }
    call("POST", "/api/correct", {seq: Number($("seq").value), record: record}).then(show);
  });
  if ($("token").value) { load(); }
})();
"""
