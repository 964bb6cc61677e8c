/* The director's and the dealer's console.  The token lives in localStorage and goes out
   only as "Authorization: Bearer" (never a cookie); every command is one POST with a JSON
   body and a fresh Idempotency-Key; the state arrives by push over /api/ws.
   Pairing: /console#pair=CODE (the TV's QR code) or the code typed in. */
"use strict";

(() => {
  const {el, fill, setText, chips, changed} = PT;
  const KEY = "pokertable.console.token";
  const $ = (id) => document.getElementById(id);
  let token = localStorage.getItem(KEY);
  let role = null;
  let doc = null;
  let link = null;
  let selectedSeat = null;
  let lateOffer = null;

  // --- talking to the table -----------------------------------------------------------
  function requestKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  let toastTimer = null;
  function toast(text, ok) {
    const node = $("toast");
    node.textContent = text;
    node.className = ok ? "ok" : "bad";
    node.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { node.hidden = true; }, ok ? 3000 : 8000);
  }

  async function call(method, path, body) {
    const headers = {"Authorization": `Bearer ${token}`};
    const init = {method, headers, cache: "no-store"};
    if (method === "POST") {
      headers["Content-Type"] = "application/json";
      headers["Idempotency-Key"] = requestKey();
      init.body = JSON.stringify(body || {});
    }
    let status = 0, answer = null;
    try {
      const r = await fetch(path, init);
      status = r.status;
      answer = await r.json().catch(() => null);
    } catch (e) {
      answer = {error: "the table did not answer: is the phone on the venue's network?"};
    }
    answer = answer || {};
    if (status === 401 && path !== "/api/pair") {
      forget(`${answer.error || "this phone's token is no longer valid"}: pair this phone again`);
    }
    return {ok: status >= 200 && status < 300, status, answer};
  }

  /** POST a command; a toast says what happened.  Returns the answer or null. */
  async function command(path, body, done) {
    const r = await call("POST", path, body);
    if (r.ok) {
      toast(`Done: ${r.answer.detail || describe(path, body)}`, true);
      if (done) done(r.answer);
      return r.answer;
    }
    if (r.status !== 401) toast(r.answer.error || `refused (${r.status})`, false);
    return null;
  }

  function describe(path, body) {
    const what = path.replace("/api/", "").replace("/", " ");
    const parts = Object.entries(body || {}).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(" ") : v}`);
    return parts.length ? `${what} (${parts.join(", ")})` : what;
  }

  // --- pairing ------------------------------------------------------------------------
  function forget(why) {
    localStorage.removeItem(KEY);
    token = null;
    role = null;
    if (link) { link.close(); link = null; }
    showPairing();
    if (why) toast(why, false);
  }

  function remember(newToken) {
    token = newToken;
    localStorage.setItem(KEY, newToken);
    startLink();
  }

  async function pair(code) {
    const r = await call("POST", "/api/pair", {code: code.trim().toUpperCase()});
    if (r.ok && r.answer.token) {
      remember(r.answer.token);
      toast("This phone is paired as the director", true);
    } else {
      showPairing();
      toast(r.answer.error || `pairing refused (${r.status})`, false);
    }
  }

  function showPairing() {
    $("pair-view").hidden = false;
    $("app").hidden = true;
    $("tabs").hidden = true;
    $("role").hidden = true;
    $("mini-clock").hidden = true;
    setText("link", "not paired");
  }

  function startLink() {
    $("pair-view").hidden = true;
    link = PT.connect({
      hello: () => ({token}),
      onState,
      onLink: PT.showLink,
      onError: (m) => { if (m.status === 401) forget(m.error); else toast(m.error, false); },
    });
  }

  // --- showing the state --------------------------------------------------------------
  function onState(d) {
    if (d.role === "public" || !d.console) { Views.renderClock(d); return; }
    doc = d;
    if (role !== d.role) setRole(d.role);
    Views.renderAll(d);
    renderPlayers(d);
    renderHand(d);
    renderClockTab(d);
    changed("audit", d.console.audit || [], renderAudit);
  }

  function allowed(node) {
    const roles = (node.dataset.role || "").split(" ");
    return roles.includes(role);
  }

  function setRole(r) {
    role = r;
    setText("role", r);
    $("role").hidden = false;
    $("mini-clock").hidden = false;
    $("app").hidden = false;
    $("tabs").hidden = false;
    document.querySelectorAll("[data-role]").forEach((n) => {
      if (!n.classList.contains("pane")) n.hidden = !allowed(n);
    });
    const first = document.querySelector("#tabs button:not([hidden])");
    showTab(location.hash.startsWith("#tab=") ? location.hash.slice(5) : first.dataset.tab);
  }

  function showTab(name) {
    let found = false;
    document.querySelectorAll("#app > .pane").forEach((p) => {
      const on = p.id === `tab-${name}` && allowed(p);
      p.hidden = !on;
      found = found || on;
    });
    if (!found) {
      const first = document.querySelector("#tabs button:not([hidden])");
      if (first && first.dataset.tab !== name) { showTab(first.dataset.tab); return; }
    }
    document.querySelectorAll("#tabs button").forEach((b) =>
      b.classList.toggle("on", b.dataset.tab === name));
  }

  function renderPlayers(d) {
    const c = d.console;
    const waiting = c.waiting || [];
    setText("waiting-line", waiting.length ? `${waiting.length} waiting for the seat draw` :
      "No one is waiting for the seat draw.");
    changed("waiting", waiting, (names) => fill("waiting", names.map((n) => el("li", {}, n))));
    $("waiting").hidden = !waiting.length;
    const started = d.clock.started;
    // by name before the start (or between the mini's rounds); after it only a late
    // entry, while late registration is open; once it closes, neither
    $("register-card").hidden = !c.registration;
    $("start-go").hidden = started;
    $("draw-go").hidden = started || !waiting.length;
    const late = c.late_entry;
    $("late-card").hidden = !(late && late.open);
    if (late && late.open) {
      setText("late-line", `Open at level ${late.level}: ${chips(late.chips)} chips ` +
        `(after the house's deduction of ${chips(late.deduction)}).`);
    }
    $("undo-elim-go").hidden = !c.undo_elimination;  // only when there is one to undo
    const seated = d.players.filter((p) => p.seat !== null);
    changed("players", [seated, selectedSeat], ([rows]) => fill("players", rows.map((p) =>
      el("tr", {class: `pick st-${p.status}${p.seat === selectedSeat ? " selected" : ""}`,
        "data-seat": p.seat, onclick: () => selectPlayer(p.seat)},
      el("td", {}, p.seat), el("td", {class: "name"}, p.name),
      el("td", {class: "num"}, p.status === "out" ? "" : chips(p.chips)),
      el("td", {}, p.place ? `${p.status} ${PT.ordinal(p.place)}` : p.status)))));
    if (selectedSeat !== null) {
      const p = seated.find((x) => x.seat === selectedSeat);
      if (!p) { selectPlayer(null); return; }
      setText("player-title", `Seat ${p.seat}: ${p.name} \u00b7 ${chips(p.chips)} \u00b7 ${p.status}`);
      $("away-go").hidden = p.status !== "in";
      $("back-go").hidden = p.status !== "away";
      const playing = ["in", "away"].includes(p.status);
      // a player who is out (or has won) has no stack to correct and nothing to remove;
      // the rest waits until the table is between hands (the commands' own check)
      const now = playing && c.between_hands;
      $("elim-go").hidden = !now;
      $("elim-by-box").hidden = !now;
      $("stack-form").hidden = !now;
      $("remove-form").hidden = !now;
      $("between-line").hidden = !playing || c.between_hands;
      setText("between-line", c.between_hands ? "" :
        `Stack, removal and elimination wait: ${c.hand_refusal}.`);
      const others = seated.filter((x) => x.seat !== p.seat && ["in", "away"].includes(x.status))
        .map((x) => [x.seat, x.name]);
      changed("elim-by", [p.seat, others], ([, opts]) => {
        const keep = $("elim-by").value;
        fill("elim-by", el("option", {value: ""}, "no one named"),
          opts.map(([s, n]) => el("option", {value: s}, `seat ${s}: ${n}`)));
        $("elim-by").value = opts.some(([s]) => String(s) === keep) ? keep : "";
      });
    }
  }

  function selectPlayer(seat) {
    selectedSeat = seat;
    $("player-panel").hidden = seat === null;
    if (seat !== null && doc) {
      const p = doc.players.find((x) => x.seat === seat);
      if (p) $("stack-chips").value = p.chips;
      renderPlayers(doc);
      $("player-panel").scrollIntoView({block: "nearest"});
    }
  }

  function renderHand(d) {
    const c = d.console;
    const names = Object.fromEntries(d.players.filter((p) => p.seat).map((p) => [p.seat, p.name]));
    const legal = c.legal;
    const table = d.screen && d.screen.table;
    $("act-row").hidden = !c.actor;
    $("next-hand-go").hidden = !c.next_hand;  // between hands (or a deal again), never mid-action
    $("undo-go").hidden = !c.undo;  // only when there is an action to take back
    setText("next-hand-go", c.void_hand ? "Deal again" : "Next hand");
    const last = (c.seats || []).slice(-1)[0];
    if (last) { $("show-seat").max = last; $("declare-seat").max = last; }
    $("bet-form").hidden = !c.actor || !legal || legal.min_raise_to === null;
    $("show-form").hidden = !c.in_hand || c.actor || !table || table.street !== "showdown";
    if (c.actor) {
      setText("actor-line", `Seat ${c.actor} to act: ${names[c.actor] || ""}`);
      const call = legal && legal.call_amount ? `Call ${chips(legal.call_amount)}` : "Check";
      setText("call-go", call);
      const parts = [call.toLowerCase()];
      if (legal && legal.min_raise_to !== null && legal.min_raise_to !== undefined) {
        parts.push(`bet or raise to ${chips(legal.min_raise_to)} .. ${chips(legal.max_raise_to)}`);
        $("bet-amount").min = legal.min_raise_to;
        $("bet-amount").max = legal.max_raise_to;
      }
      setText("legal-line", parts.join(" \u00b7 "));
    } else {
      setText("actor-line", c.in_hand ? "Dealing: no one to act" : "Between hands");
      setText("legal-line", "");
    }
    const ruling = c.ruling || (d.screen && d.screen.ruling);
    $("ruling").hidden = !ruling;
    if (ruling) {
      setText("ruling-rule", ruling.rule || "");
      setText("ruling-words", ruling.words || ruling.code || "");
      setText("ruling-instruction", ruling.instruction || "");
      setText("ruling-status", ruling.status || "");
    }
    $("card-form").hidden = !c.in_hand;
    // a pot is awarded by hand when the shoe is offline or the hand's cards were keyed in
    $("award-form").hidden = role !== "director" || !c.in_hand ||
      (c.shoe_online !== false && !c.keyed_hand);
    $("keyed").hidden = $("card-form").hidden && $("award-form").hidden;
  }

  function renderClockTab(d) {
    const running = d.clock.running;
    const over = d.finished;  // the commands refuse to change a finished night's clock
    $("pause-go").hidden = !running;
    $("resume-go").hidden = running || !d.clock.started || over;
    $("time-row").hidden = !d.clock.started || over;
    $("time-form").hidden = !d.clock.started || over;
    $("length-form").hidden = over;
    $("clock-over").hidden = !over;
    $("color-up").hidden = !d.console.color_up_pending;
    // only structures with qualifiers have rounds; offered between rounds only
    $("rounds").hidden = !d.console.round_start;
    // between hands only, as the commands themselves check
    $("jump-form").hidden = !d.console.between_hands || over;
    $("new-form").hidden = !d.console.between_hands;
  }

  function when(iso) {
    const t = new Date(iso);
    return Number.isNaN(t.getTime()) ? "" : t.toLocaleTimeString([], {hour12: false});
  }

  /** The audit's name for a command: "time" for time added or removed (the detail says
      which, as "added 1:00" or "removed 1:00"), otherwise the command in words. */
  function commandWords(command) {
    return ["add_time", "remove_time"].includes(command) ? "time" : command.replace(/_/g, " ");
  }

  function renderAudit(entries) {
    fill("audit", entries.slice().reverse().map((a) => el("li", {},
      el("div", {class: "audit-head"}, el("strong", {}, commandWords(a.command)),
        el("span", {class: "muted"}, ` ${when(a.at)} \u00b7 ${a.role || ""} \u00b7 token ${a.token || "-"}`)),
      a.detail ? el("div", {}, a.detail) : null)));
  }

  // --- wiring the controls ------------------------------------------------------------
  function onSubmit(id, fn) {
    $(id).addEventListener("submit", (e) => { e.preventDefault(); fn(); });
  }

  function onClick(id, fn) {
    $(id).addEventListener("click", (e) => { e.preventDefault(); fn(e.currentTarget); });
  }

  /** Buttons with data-confirm act on the second tap within 4 s (one hand, no dialog). */
  const disarmTimers = new Map();
  function disarm(button) {
    clearTimeout(disarmTimers.get(button));
    disarmTimers.delete(button);
    if (button.dataset.armed) {
      delete button.dataset.armed;
      button.textContent = button.dataset.label;
    }
  }

  function armed(button) {
    if (!button.dataset.confirm) return true;
    if (button.dataset.armed) {
      disarm(button);
      return true;
    }
    button.dataset.label = button.textContent;
    button.dataset.armed = "1";
    button.textContent = button.dataset.confirm;
    disarmTimers.set(button, setTimeout(() => disarm(button), 4000));
    return false;
  }

  function guarded(id, fn) {
    onClick(id, (b) => { if (armed(b)) fn(); });
  }

  function int(id) {
    const v = $(id).value.trim();
    return /^-?\d+$/.test(v) ? Number(v) : NaN;
  }

  function wire() {
    onSubmit("pair-form", () => pair($("pair-code").value));
    onSubmit("token-form", () => remember($("token-input").value.trim()));
    document.querySelectorAll("#tabs button").forEach((b) =>
      b.addEventListener("click", () => showTab(b.dataset.tab)));

    onSubmit("register-form", () => command("/api/register", {name: $("register-name").value.trim()},
      () => { $("register-name").value = ""; $("register-name").focus(); }));
    onClick("draw-go", () => command("/api/seat-draw", {}));
    onClick("start-go", () => command("/api/start", {}));
    onSubmit("late-form", lateEntryPreview);
    onClick("late-go", () => command("/api/late-entry", {name: lateOffer.name, chips: lateOffer.chips},
      () => { $("late-confirm").hidden = true; $("late-name").value = ""; }));
    onClick("late-cancel", () => { $("late-confirm").hidden = true; });
    onClick("undo-elim-go", () => command("/api/undo-elimination", {}));
    onClick("player-close", () => selectPlayer(null));
    onClick("away-go", () => command("/api/away", {seat: selectedSeat}));
    onClick("back-go", () => command("/api/back", {seat: selectedSeat}));
    guarded("elim-go", () => {
      const by = $("elim-by").value;
      command("/api/eliminate", by ? {seat: selectedSeat, by: Number(by)} : {seat: selectedSeat},
        () => { $("elim-by").value = ""; });
    });
    onSubmit("stack-form", () => command("/api/stack", {seat: selectedSeat, chips: int("stack-chips"),
      reason: $("stack-reason").value.trim()}, () => { $("stack-reason").value = ""; }));
    onSubmit("remove-form", () => {
      const b = $("remove-go");
      if (armed(b)) command("/api/remove", {seat: selectedSeat, reason: $("remove-reason").value.trim()});
    });

    onSubmit("bet-form", () => command("/api/bet", {seat: doc.console.actor, amount: int("bet-amount")},
      () => { $("bet-amount").value = ""; }));
    guarded("allin-go", () => command("/api/all-in", {seat: doc.console.actor}));
    onClick("fold-go", () => command("/api/fold", {seat: doc.console.actor}));
    onClick("call-go", () => command("/api/call", {seat: doc.console.actor}));
    onSubmit("show-form", () => command("/api/show", {seat: int("show-seat")}));
    onClick("muck-go", () => command("/api/muck", {seat: int("show-seat")}));
    onClick("undo-go", () => command("/api/undo", {}));
    onClick("next-hand-go", () => command("/api/next-hand", {}));
    onClick("ruling-confirm-go", () => command("/api/ruling/confirm", {}));
    onSubmit("override-form", () => command("/api/ruling/override", {note: $("override-note").value.trim()},
      () => { $("override-note").value = ""; }));
    onSubmit("declare-form", () => {
      const body = {kind: $("declare-kind").value};
      if ($("declare-seat").value) body.seat = int("declare-seat");
      if ($("declare-draw").value) body.draw = int("declare-draw");
      command("/api/declare", body);
    });
    onSubmit("card-form", () => command("/api/card", {card: $("card-text").value.trim()},
      () => { $("card-text").value = ""; }));
    onSubmit("award-form", () => {
      if (!armed($("award-go"))) return;
      const seats = $("award-seats").value.split(/[\s,]+/).filter(Boolean).map(Number);
      command("/api/award", {seats});
    });

    onClick("pause-go", () => command("/api/pause", {}));
    onClick("resume-go", () => command("/api/resume", {}));
    document.querySelectorAll(".time-go").forEach((b) => b.addEventListener("click", () => {
      const s = Number(b.dataset.seconds);
      if (s > 0) command("/api/add-time", {seconds: s});
      else command("/api/remove-time", {seconds: -s});
    }));
    onSubmit("time-form", () => command("/api/add-time", {seconds: int("time-seconds")}));
    onClick("remove-time-go", () => command("/api/remove-time", {seconds: int("time-seconds")}));
    onSubmit("jump-form", () => command("/api/jump-level", {level: int("jump-level")}));
    onSubmit("length-form", () => command("/api/level-length", {minutes: int("length-minutes")}));
    onClick("color-up-go", () => command("/api/color-up/confirm", {}));

    onClick("round-go", () => command("/api/round/start", {}));
    onSubmit("new-form", () => {
      if (!armed($("new-go"))) return;
      const s = $("new-structure").value.trim();
      command("/api/new-tournament", s ? {structure: s} : {});
    });
    onClick("pairing-go", () => command("/api/pairing", {}, (a) =>
      showToken(`Pairing code on the TV: ${a.code}`)));
    onClick("dealer-token-go", () => command("/api/tokens", {role: "dealer"}, (a) =>
      showToken(`Dealer token (id ${a.id}): ${a.token}`)));
    onSubmit("revoke-form", () => command("/api/tokens/revoke", {id: $("revoke-id").value.trim()}));
    onClick("logout-go", () => forget(null));
  }

  function showToken(text) {
    const out = $("token-out");
    out.textContent = text;
    out.hidden = false;
  }

  async function lateEntryPreview() {
    const typed = $("late-name").value;
    const r = await call("GET", `/api/late-entry?name=${encodeURIComponent(typed)}`);
    if (!r.ok) { toast(r.answer.error || `refused (${r.status})`, false); return; }
    const a = r.answer;
    if (!a.open) { toast(a.reason || "Late entry is closed", false); return; }
    const name = a.name;  // as the table checked it (spaces collapsed)
    lateOffer = {name, chips: a.chips};
    setText("late-offer", `${name} gets ${chips(a.chips)} chips at level ${a.level} ` +
      `(the house deducts ${chips(a.deduction)}).`);
    $("late-confirm").hidden = false;
  }

  // --- start ------------------------------------------------------------------------
  /** /console#pair=CODE (the TV's QR code): pair with the code, then drop it from the
      address (it is good for one pairing). */
  function pairFromAddress() {
    const m = /^#pair=([A-Za-z0-9-]{1,20})$/.exec(location.hash);
    if (!m) return false;
    history.replaceState(null, "", location.pathname);
    if (link) { link.close(); link = null; }
    pair(m[1]);
    return true;
  }

  wire();
  window.addEventListener("hashchange", pairFromAddress);
  if (!pairFromAddress()) {
    if (token) startLink();
    else showPairing();
  }
})();
