/* Shared by the public page and the console: DOM building without HTML strings (every
   name is hostile: text goes in through textContent only), number formats, and the state
   pushed over the WebSocket /api/ws (no polling; reconnects by itself). */
"use strict";

const PT = (() => {
  /** el("div", {class: "x", onclick: f}, child, "text", ...) -> Element */
  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return node;
  }

  function fill(id, ...kids) {
    const node = document.getElementById(id);
    if (node) node.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined));
    return node;
  }

  function setText(id, text) {
    const node = document.getElementById(id);
    if (node && node.textContent !== String(text)) node.textContent = String(text);
  }

  /** 12500 -> "12,500"; null -> "-" */
  function chips(n) {
    return n === null || n === undefined ? "-" : Number(n).toLocaleString("en-US");
  }

  /** ("$", 1250) -> "$1,250": whole currency units after the structure's symbol, as the
      TV writes money (pi_app/screens/winner.py); the digits are grouped as text, so no
      amount passes through a float */
  function money(currency, amount) {
    if (amount === null || amount === undefined) return "-";
    const digits = String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${currency || ""}${digits}`;
  }

  /** seconds -> "MM:SS" or "H:MM:SS" (rounded up, as on the TV) */
  function clock(seconds) {
    if (seconds === null || seconds === undefined) return "--:--";
    const total = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    const two = (v) => String(v).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
  }

  function ordinal(n) {
    const t = n % 100, u = n % 10;
    const suffix = t >= 10 && t <= 20 ? "th" : ({1: "st", 2: "nd", 3: "rd"})[u] || "th";
    return `${n}${suffix}`;
  }

  /** "Ah" -> a span showing A♥ in the suit's colour */
  function card(text) {
    const suits = {s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663"};
    const rank = text.slice(0, -1).replace("T", "10");
    const suit = text.slice(-1);
    return el("span", {class: `card suit-${suit}`, title: text}, rank + (suits[suit] || "?"));
  }

  function blinds(sb, bb, ante) {
    let out = `${chips(sb)} / ${chips(bb)}`;
    if (ante) out += ` ante ${chips(ante)}`;
    return out;
  }

  /** Calls fn(data) only when data differs (as JSON) from the last call for key. */
  const last = new Map();
  function changed(key, data, fn) {
    const text = JSON.stringify(data);
    if (last.get(key) === text) return;
    last.set(key, text);
    fn(data);
  }

  /**
   * Keeps a WebSocket to /api/ws open.  opts.onState(doc) for each state document,
   * opts.onError(msg) for an error message, opts.onLink(up) when the link goes up or down,
   * opts.hello() -> the first message to send (the token), or null for the public document.
   */
  function connect(opts) {
    let delay = 500;
    let ws = null;
    let stopped = false;
    function open() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      ws = new WebSocket(scheme + location.host + "/api/ws");
      ws.onopen = () => {
        delay = 500;
        const first = opts.hello ? opts.hello() : null;
        if (first) ws.send(JSON.stringify(first));
        if (opts.onLink) opts.onLink(true);
      };
      ws.onmessage = (m) => {
        let doc;
        try { doc = JSON.parse(m.data); } catch (e) { return; }
        if (doc.type === "state") opts.onState(doc);
        else if (doc.type === "error" && opts.onError) opts.onError(doc);
      };
      ws.onclose = () => {
        if (opts.onLink) opts.onLink(false);
        if (stopped) return;
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 10000);
      };
    }
    open();
    return {
      close() { stopped = true; if (ws) ws.close(); },
      reopen() { if (ws) ws.close(); },
    };
  }

  /** The link indicator: a dot and a word in the element with id "link". */
  function showLink(up) {
    const node = document.getElementById("link");
    if (!node) return;
    node.className = up ? "link up" : "link down";
    node.textContent = up ? "live" : "reconnecting";
  }

  return {el, fill, setText, chips, money, clock, ordinal, card, blinds, changed, connect, showLink};
})();
