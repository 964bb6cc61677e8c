/* The venue's console: the whole room (or one table at /table/N) as the director pushes
   it, and, with a director's token, registration, late entries, the start, the
   clock's pause and resume, a new pairing code and the tokens (new, list, revoke); a
   dealer's token views the room only.  The clock counts down in the page from the last push (the
   director's time left + the local time since), stopped while not running.  Every name
   goes in through textContent only (PT.el). */
"use strict";

(() => {
  const {el, fill, setText, chips, money, clock, ordinal} = PT;
  const KEY = "pokertable.venue.token";
  const only = /^\/table\/(\d+)$/.exec(location.pathname);
  let token = localStorage.getItem(KEY);
  let link = null;
  let pushed = {ms: null, at: 0, running: false};  // the clock as last pushed

  function showClock() {
    const {ms, at, running} = pushed;
    const left = ms === null ? null : Math.max(0, ms - (running ? performance.now() - at : 0));
    setText("clock-time", left === null ? "--:--" : clock(left / 1000));
  }

  function tableCard(t) {
    const state = t.online === false ? " \u00b7 offline" : "";
    const held = t.held ? ` \u00b7 ${t.held} held` : "";
    return el("div", {class: "card", id: `table-${t.number}`},
      el("h3", {}, `${t.name} \u00b7 ${t.players.length}/${t.seats} \u00b7 ${t.status}${state}${held}`),
      el("table", {class: "list"}, el("tbody", {},
        t.players.map((p) => el("tr", {}, el("td", {}, `seat ${p.seat}`), el("td", {}, p.name),
                                 el("td", {class: "num"}, chips(p.chips)))))));
  }

  function render(doc) {
    setText("venue-name", doc.venue);
    setText("venue-phase", doc.finished ? "finished" : doc.phase);
    setText("venue-night", doc.night ? `night ${doc.night}` : "");
    setText("clock-level", `LEVEL ${doc.clock.number}`);
    pushed = {ms: doc.clock.remaining_ms, at: performance.now(), running: doc.clock.running};
    showClock();
    const started = doc.phase !== "registration" && !doc.finished;
    setText("clock-state", started && !doc.clock.running ? "PAUSED" : "");
    setText("clock-blinds", PT.blinds(doc.clock.small_blind, doc.clock.big_blind, doc.clock.ante));
    setText("venue-entries", doc.entries);
    setText("venue-pool", money(doc.currency, doc.prize_pool));  // whole units, no float
    setText("venue-late", doc.late_entry.open ? chips(doc.late_entry.chips) : "closed");
    const tables = only ? doc.tables.filter((t) => t.number === Number(only[1])) : doc.tables;
    setText("tables-title", only ? `Table ${only[1]}` : "Tables");
    fill("tables", tables.map(tableCard));
    fill("pending", doc.pending.map((m) => el("tr", {},
      el("td", {}, m.player), el("td", {}, `table ${m.from} \u2192 table ${m.to}`),
      el("td", {}, m.held ? "held: table offline" : "moving"))).concat(
      doc.planned.map((m) => el("tr", {}, el("td", {}, "a player"),
        el("td", {}, `table ${m.from} \u2192 table ${m.to}`), el("td", {}, "after its hand")))));
    fill("payouts", doc.payouts.map(([place, amount]) =>
      el("tr", {}, el("td", {}, ordinal(place)), el("td", {class: "num"}, money(doc.currency, amount)))));
    fill("results", doc.results.map(([place, name, prize]) =>
      el("tr", {}, el("td", {}, ordinal(place)), el("td", {}, name),
         el("td", {class: "num"}, money(doc.currency, prize)))));
    fill("registered", doc.registered.map((n) => el("li", {}, n)));
    const director = doc.role === "director";
    document.getElementById("desk").hidden = !director || doc.finished;
    document.getElementById("login").hidden = doc.role !== "public";
    document.getElementById("viewer").hidden = doc.role !== "dealer";
    setText("viewer", doc.role === "dealer" ? "dealer: the room, view only" : "");
    const tokens = document.getElementById("tokens");
    if (director && tokens.hidden) listTokens();
    tokens.hidden = !director;
    document.getElementById("start-go").hidden = !(director && doc.console.may_start);
    document.getElementById("clock-controls").hidden = !(director && started);
    document.getElementById("clock-pause").hidden = !doc.clock.running;
    document.getElementById("clock-resume").hidden = doc.clock.running;
  }

  async function post(path, body) {
    const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`}});
    let answer = {};
    try { answer = await r.json(); } catch (e) { answer = {error: `HTTP ${r.status}`}; }
    return {ok: r.ok, answer};
  }

  function say(text) { setText("desk-answer", text); }

  async function listTokens() {
    const r = await fetch("/api/tokens", {headers: {"Authorization": `Bearer ${token}`}});
    if (!r.ok) return;
    const {tokens} = await r.json();
    fill("token-list", tokens.map((t) => el("tr", {id: `token-${t.id}`},
      el("td", {}, t.id), el("td", {}, t.role),
      el("td", {}, t.revoked ? "revoked" : new Date(t.expires_at * 1000).toLocaleString()),
      el("td", {}, t.revoked ? "" : el("button", {type: "button", class: "revoke",
        "data-id": t.id}, "Revoke")))));
  }

  async function tokenAction(path, body, shown) {
    const r = await post(path, body);
    setText("tokens-answer", r.ok ? shown(r.answer) : (r.answer.error || "refused"));
    listTokens();
  }

  async function register() {
    const name = document.getElementById("register-name").value;
    const r = await post("/api/venue/register", {name});
    if (r.ok) {
      say(`${r.answer.name} entered with ${chips(r.answer.chips)} chips`);
      document.getElementById("register-name").value = "";
    } else {
      say(r.answer.error || "refused");
    }
  }

  async function login(text) {
    if (/^[A-Za-z0-9]{6}$/.test(text)) {
      const r = await fetch("/api/pair", {method: "POST", body: JSON.stringify({code: text}),
        headers: {"Content-Type": "application/json"}});
      const answer = await r.json();
      if (!r.ok) { say(answer.error || "wrong code"); return; }
      text = answer.token;
    }
    token = text;
    localStorage.setItem(KEY, token);
    link.reopen();
  }

  document.getElementById("register-form").addEventListener("submit", (e) => {
    e.preventDefault(); register();
  });
  document.getElementById("token-form").addEventListener("submit", (e) => {
    e.preventDefault(); login(document.getElementById("token-input").value.trim());
  });
  document.getElementById("start-go").addEventListener("click", async () => {
    const r = await post("/api/venue/start", {});
    say(r.ok ? `started with ${r.answer.players} players` : (r.answer.error || "refused"));
  });
  for (const what of ["pause", "resume"]) {
    document.getElementById(`clock-${what}`).addEventListener("click", async () => {
      const r = await post(`/api/venue/${what}`, {});
      setText("clock-answer", r.ok ? "" : (r.answer.error || "refused"));
    });
  }
  document.getElementById("pairing-go").addEventListener("click", async () => {
    const r = await post("/api/pairing", {});
    setText("pairing-code", r.ok ? `code ${r.answer.code} \u00b7 ${r.answer.url}`
      : (r.answer.error || "refused"));
  });
  document.getElementById("mint-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const role = document.getElementById("mint-role").value;
    tokenAction("/api/tokens", {role}, (a) => `${a.role} token ${a.id}: ${a.token}`);
  });
  document.getElementById("token-list").addEventListener("click", (e) => {
    const id = e.target.dataset && e.target.dataset.id;
    if (id) tokenAction("/api/tokens/revoke", {id}, (a) => `token ${a.id} revoked`);
  });
  setInterval(showClock, 250);
  /* /console#pair=CODE (the link the director printed): log in with the code, then drop it
     from the address bar */
  const pair = /^#pair=([A-Za-z0-9]{6})$/.exec(location.hash);
  if (pair) {
    history.replaceState(null, "", location.pathname);
    login(pair[1]);
  }
  link = PT.connect({
    onState: render, onLink: PT.showLink, hello: () => (token ? {token} : null),
    onError: (doc) => { if (doc.status === 401) { localStorage.removeItem(KEY); token = null; } },
  });
})();
