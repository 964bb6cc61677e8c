/* Views of the public document, shared by the public page and the console: the clock, the
   table as the room sees it (only cards face up), payouts and results.  Each fills the
   elements with the ids it names when they exist on the page. */
"use strict";

const Views = (() => {
  const {el, fill, setText, chips, money, clock, ordinal, card, blinds, changed} = PT;

  function levelName(c) {
    return c.is_break ? "BREAK" : `LEVEL ${c.level}`;
  }

  /** ids: clock-level, clock-time, clock-state, clock-blinds, clock-next, clock-players,
      clock-average, clock-pool, clock-break */
  function renderClock(doc) {
    const c = doc.clock;
    const sc = (doc.screen && doc.screen.clock) || {};
    setText("clock-level", levelName(c));
    const hands = sc.hands_remaining;
    setText("clock-time", c.remaining_seconds === null && hands !== null && hands !== undefined
      ? `${hands} HAND${hands === 1 ? "" : "S"}` : clock(c.remaining_seconds));
    let state = "";
    if (doc.finished) state = "FINISHED";
    else if (!c.started) state = "NOT STARTED";
    else if (!c.running) state = "PAUSED";
    setText("clock-state", state);
    const stateNode = document.getElementById("clock-state");
    if (stateNode) stateNode.hidden = !state;
    setText("clock-blinds", blinds(c.small_blind, c.big_blind, 0));
    const ante = sc.big_blind_ante || c.ante;
    setText("clock-ante", ante ? `${sc.big_blind_ante ? "big blind ante" : "ante"} ${chips(ante)}` : "");
    let next = "-";
    if (sc.next_is_break) next = "break";
    else if (sc.next_small_blind !== null && sc.next_small_blind !== undefined) {
      next = blinds(sc.next_small_blind, sc.next_big_blind, sc.next_big_blind_ante || sc.next_ante);
    }
    setText("clock-next", next);
    setText("clock-players", `${doc.players_left} / ${doc.entries}`);
    setText("clock-average", chips(sc.average_stack));
    setText("clock-pool", money(doc.currency, sc.prize_pool));  // money, as the payouts
    setText("clock-break", sc.is_break ? "now" : clock(sc.seconds_to_break));
    changed("notices", sc.notices || [], (notices) =>
      fill("clock-notices", notices.map((n) => el("li", {}, n))));
  }

  function seatRow(s) {
    const tags = [];
    if (s.is_button) tags.push(el("span", {class: "tag dealer"}, "D"));
    if (s.is_small_blind) tags.push(el("span", {class: "tag"}, "SB"));
    if (s.is_big_blind) tags.push(el("span", {class: "tag"}, "BB"));
    return el("li", {class: `seat st-${s.status}`},
      el("span", {class: "seat-no"}, s.seat),
      el("span", {class: "seat-name"}, s.name || "empty", ...tags),
      el("span", {class: "seat-cards"}, (s.shown_cards || []).map(card)),
      el("span", {class: "seat-bet"}, s.bet ? chips(s.bet) : ""),
      el("span", {class: "seat-stack"}, chips(s.stack)));
  }

  /** ids: hand-title, hand-board, hand-pots, hand-seats, hand-message */
  function renderTable(doc) {
    const t = doc.screen ? doc.screen.table : null;
    changed("table", doc.finished ? null : t, (table) => {
      const box = document.getElementById("hand");
      if (box) box.hidden = !table;
      if (!table) return;
      setText("hand-title", `Hand #${table.hand_number} \u00b7 ${table.street.replace("preflop", "pre-flop")}`);
      fill("hand-board", table.board.length ? table.board.map(card) : el("span", {class: "muted"}, "no board"));
      fill("hand-pots", table.pots.map((p) => el("li", {}, `${p.label}: ${chips(p.amount)}`)));
      fill("hand-seats", table.seats.filter((s) => s.status !== "empty").map(seatRow));
      setText("hand-message", table.message || "");
    });
  }

  /** ids: payouts (a tbody) */
  function renderPayouts(doc) {
    changed("payouts", [doc.payouts, doc.currency], ([payouts, cur]) => fill("payouts",
      payouts.length ? payouts.map(([place, amount]) =>
        el("tr", {}, el("td", {}, ordinal(place)), el("td", {class: "num"}, money(cur, amount))))
        : el("tr", {}, el("td", {colspan: 2, class: "muted"}, "no payouts yet"))));
  }

  /** ids: results (a tbody): places decided so far, then the players still in */
  function renderResults(doc) {
    changed("results", [doc.results, doc.currency], ([rows, cur]) => fill("results", rows.map((r) =>
      el("tr", {class: r.status === "in" ? "still-in" : ""},
        el("td", {}, r.place ? ordinal(r.place) : "in"),
        el("td", {class: "name"}, r.name, r.bounty ? el("span", {class: "tag"}, "bounty") : null),
        el("td", {class: "num"}, r.payout ? money(cur, r.payout) : ""),
        el("td", {class: "num"}, r.knockouts || ""),
        el("td", {class: "num"}, r.points === null ? "" : r.points)))));
  }

  /** ids: season (a tbody), season-note.  The season is read from /api/season when the
      page opens and again when a night ends or a new one starts. */
  function renderSeason(doc) {
    changed("season", [doc.tournament, doc.finished, doc.entries === 0], () =>
      fetch("/api/season").then((r) => r.json()).then((s) => {
        fill("season", s.standings.length ? s.standings.map((p) => el("tr", {},
          el("td", {}, p.rank), el("td", {class: "name"}, p.player),
          el("td", {class: "num"}, p.points), el("td", {class: "num"}, p.nights),
          el("td", {class: "num"}, p.wins)))
          : el("tr", {}, el("td", {colspan: 5, class: "muted"}, "no nights yet")));
        setText("season-note", `Ranked by ${s.tie_break}.` +
          (s.next_night ? ` Next night: ${s.next_night}.` : ""));
      }).catch(() => setText("season-note", "the season could not be read")));
  }

  function renderAll(doc) {
    setText("title-tournament", doc.tournament || doc.table);
    setText("title-table", doc.tournament && doc.tournament !== doc.table ? doc.table : "");
    renderClock(doc);
    renderTable(doc);
    renderPayouts(doc);
    renderResults(doc);
    renderSeason(doc);
  }

  return {renderClock, renderTable, renderPayouts, renderResults, renderSeason, renderAll};
})();
