"""The ``.deal`` words of a Builder's events (tests/engine/dealing/builder.py writes both forms)."""

from __future__ import annotations

from typing import Any

from engine.dealing.procedure import DealingProcedure


def action_words(proc: DealingProcedure, d: dict[str, Any]) -> str:
    """``seat 3 calls`` etc. for a player_action dict, in the words the state calls for."""
    seat, act = d["seat"], d["action"]
    if act in ("fold", "show", "muck"):
        return f"seat {seat} {act}s" if act != "fold" else f"seat {seat} folds"
    dealing = bool(proc.s.due or proc.s.held or proc.hand.next_deal() is not None)
    try:
        h = proc.probe_hand() if dealing else proc.hand
        la = h.legal_actions() if h.actor == seat else None
    except Exception:  # noqa: BLE001 - an action the table will refuse: any words do
        la = None
    if act == "check_call":
        return f"seat {seat} {'checks' if la is None or la.can_check else 'calls'}"
    if la is not None and la.call_amount == 0 and not la.can_call:
        return f"seat {seat} bets {d['amount']}"
    return f"seat {seat} raises to {d['amount']}"


def event_words(proc: DealingProcedure, d: dict[str, Any]) -> str:
    """One ``.deal`` line for a scenario event dict (JSONL vocabulary)."""
    typ = d["type"]
    if typ == "card_drawn":
        if "card" in d:
            return f"deal {d['card']}" + (f" from deck D{d['deck']}" if "deck" in d else "")
        return f"deal tag {d['uid']}"
    if typ == "player_action":
        return action_words(proc, d)
    if typ == "stub_reshuffled":
        return "stub reshuffled"
    if typ == "shoe_reloaded":
        return "shoe reloaded"
    kind, draw, seat, note = d["kind"], d.get("draw"), d.get("seat"), d.get("note", "")
    n = f" {draw}" if draw is not None else ""
    words = {
        "exposed_card": f"dealer declares exposed card{n}",
        "boxed_card": f"dealer declares boxed{n}",
        "wrong_seat": "dealer declares wrong seat" + (f" card {draw}" if draw else "")
                      + (f" to seat {seat}" if seat else ""),
        "seat_skipped": f"dealer declares seat {seat} skipped",
        "button_out_of_position": "dealer declares button belongs"
                                  + (f" at seat {seat}" if seat else ""),
        "missed_burn": "dealer declares missed burn",
        "floor_misdeal": f"floor calls misdeal {note}".rstrip(),
        "confirm_ruling": f"floor confirms {note}".rstrip(),
        "override_ruling": f"floor overrides {note}".rstrip(),
    }
    return words[kind]


def header_words(h: dict[str, Any]) -> list[str]:
    out = [f"name: {h['name']}"]
    if h.get("description"):
        out.append(f"description: {h['description']}")
    out.append("seats: " + " ".join(f"{k}={v}" for k, v in h["seats"].items()))
    out.append(f"button: {h['button']}")
    out.append(f"blinds: {h['small_blind']}/{h['big_blind']}")
    out.append(f"profile: {h['profile']}")
    if h.get("knobs"):
        out.append("knobs: " + " ".join(f"{k}={v}" for k, v in h["knobs"].items()))
    deck = h["deck"]
    if "seed" in deck:
        out.append(f"deck: seed {deck['seed']}")
    else:
        out += [f"deck card: {u}={c}" for u, c in deck["cards"].items()]
    out += [f"extra deck: D{sd} seed {sd}" for sd in h.get("extra_decks", [])]
    return out


def expect_words(kw: dict[str, Any]) -> list[str]:
    out: list[str] = []
    if "rulings" in kw:
        out.append("expect rulings " + (" ".join(kw["rulings"]) or "none"))
    if kw.get("rows"):
        out.append("expect rows " + " ".join(kw["rows"]))
    if "statuses" in kw:
        out.append("expect statuses " + " ".join(kw["statuses"]))
    if "final_stacks" in kw:
        out.append("expect stacks " + " ".join(f"{k}={v}" for k, v in kw["final_stacks"].items()))
    if "void" in kw:
        out.append("expect hand " + ("void" if kw["void"] else "not void"))
    if "complete" in kw:
        out.append("expect hand " + ("complete" if kw["complete"] else "not complete"))
    if "redealt" in kw:
        out.append(f"expect redeals {kw['redealt']}")
    if "reader_repeats" in kw:
        out.append(f"expect reader repeats {kw['reader_repeats']}")
    if kw.get("deck_ok"):
        out.append("expect deck ok")
    if "expect_next" in kw:
        out.append("expect next: " + ", ".join(kw["expect_next"]))
    return out
