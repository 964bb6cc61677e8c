"""Draw one seat's :class:`engine.views.SeatDisplayView` as a 128x64 one-bit PIL image.

Pure drawing (no device, no I/O): the same image goes to the OLED through luma and into the
golden-image tests.  The font is PIL's built-in bitmap font
(:func:`PIL.ImageFont.load_default_imagefont`, 6x11 px cells, 21 characters a line), and twice
that size, scaled by pixel doubling, for the stack and the result.  Being a bitmap font, the
output is identical on every machine.

Layout (pixel rows)::

     0-9   "3 ANN"                               [D][SB|BB]   seat, name, markers (1-8)
    10-31  STACK (double size)                   [A♠][K♦]     own hole cards
    32-41  "BET 400  CALL 200"
    42-52  YOUR ACTION (inverted)  /  RAISE TO 800 (inverted)  /  status / WON 1,200
    53-63  "FOLD CALL 200 RAISE 400+"  /  "CALL=OK  FOLD=CANCEL"  /  note

:func:`texts` gives every text drawn, where, and the box its ink must stay in.  A figure is
drawn exact (``12,810,000``) while it fits its box, else rounded to the most exact form that
fits (``12.81M``, ``12.8M``, ``13M``: :func:`figures`); it is never cut.

The markers' boxes stop at row 8, so a dark row (9) always parts them from the cards
below (a red card is drawn filled: touching, the button's box and the card ran together).
:func:`layout` gives every box drawn, for the tests.

The view is private to the seat, so its own hole cards are drawn; nothing else is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.text import safe_text
from engine.views import SeatDisplayView
from engine.wording import words

WIDTH, HEIGHT = 128, 64
CHAR_W = 6  # the bitmap font's advance
MARKER_TOP, MARKER_BOTTOM = 1, 8  # a marker's box (the caps' ink is rows 2-7)
CARDS_TOP = 10
CARD_W, CARD_H, CARD_STEP = 15, 22, 17

#: A box in pixels, edges included: (left, top, right, bottom), as PIL draws rectangles.
Box = tuple[int, int, int, int]

_SUITS = {
    "s": ("...#...", "..###..", ".#####.", "#######", "#######", "...#...", "..###.."),
    "h": (".##.##.", "#######", "#######", "#######", ".#####.", "..###..", "...#..."),
    "d": ("...#...", "..###..", ".#####.", "#######", ".#####.", "..###..", "...#..."),
    "c": ("..###..", "..###..", "##.#.##", "#######", "##.#.##", "...#...", "..###.."),
}


@lru_cache(maxsize=1)
def font() -> ImageFont.ImageFont:
    """PIL's built-in bitmap font (deterministic on every machine)."""
    return ImageFont.load_default_imagefont()


def chips(amount: int) -> str:
    """``12500`` -> ``"12,500"``."""
    return f"{amount:,}"


_UNITS = ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "K"))


def abbreviate(amount: int, decimals: int = 1) -> str:
    """Short chip count for tight rows, rounded to ``decimals`` places of its unit (K, M, B
    or T): ``2_000_000`` -> ``"2M"``, ``12_500`` -> ``"12.5K"``, ``12_810_000`` with 2 ->
    ``"12.81M"``; below 10,000 unchanged (``"9,999"``).  Integer arithmetic, half up; a
    value that rounds to 1,000 of a unit is given in the next (``999_999`` -> ``"1M"``)."""
    if abs(amount) < 10_000:
        return chips(amount)
    sign, amount = ("-" if amount < 0 else ""), abs(amount)
    for i, (size, suffix) in enumerate(_UNITS):
        if amount < size:
            continue
        scale = 10**decimals
        tenths = (amount * scale * 2 // size + 1) // 2  # amount / size in 1/scale, half up
        if tenths >= 1000 * scale and i > 0:  # 999.96K -> 1M
            size, suffix = _UNITS[i - 1]
            tenths = (amount * scale * 2 // size + 1) // 2
        whole, frac = divmod(tenths, scale)
        text = f"{whole:,}" + (f".{frac:0{decimals}d}".rstrip("0").rstrip(".") if decimals
                               else "")
        return sign + text + suffix
    return sign + chips(amount)


@lru_cache(maxsize=1024)
def figures(amount: int) -> tuple[str, ...]:
    """The forms of a chip figure a row may show, most exact first: ``"12,810,000"``,
    ``"12.81M"``, ``"12.8M"``, ``"13M"`` (repeats left out)."""
    out = [chips(amount)]
    for decimals in (2, 1, 0):
        form = abbreviate(amount, decimals)
        if form not in out:
            out.append(form)
    return tuple(out)


#: ends a text cut to fit (a name); the bitmap font has no such glyph, so
#: :func:`render_seat_view` draws it as three dots in one character cell
ELLIPSIS = "\u2026"


def text_width(text: str) -> int:
    """Width in pixels of ``text`` in the small font (:data:`ELLIPSIS`: one cell)."""
    return int(font().getlength(text.replace(ELLIPSIS, ""))) + CHAR_W * text.count(ELLIPSIS)


def cut(text: str, chars: int) -> str:
    """``text`` when it has at most ``chars`` characters, else its first ``chars - 1`` and
    :data:`ELLIPSIS` (a cut name says it is cut: "3 BARTHOLOMEW THE TH…")."""
    if len(text) <= chars:
        return text
    return text[: max(0, chars - 1)].rstrip() + ELLIPSIS if chars > 0 else ""


@lru_cache(maxsize=512)
def _big_text(text: str) -> Image.Image:
    """``text`` in the small font, pixel-doubled (12x22 px cells), as a one-bit mask."""
    w = max(1, text_width(text))
    small = Image.new("1", (w, 11), 0)
    ImageDraw.Draw(small).text((0, 0), text, fill=1, font=font())
    return small.resize((w * 2, 22), Image.Resampling.NEAREST)


def _paste_big(img: Image.Image, xy: tuple[int, int], text: str, fill: int = 1) -> int:
    mask = _big_text(text)
    img.paste(fill, (xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height), mask)
    return mask.width


def _suit(draw: ImageDraw.ImageDraw, x: int, y: int, suit: str, fill: int) -> None:
    for dy, row in enumerate(_SUITS[suit]):
        for dx, ch in enumerate(row):
            if ch == "#":
                draw.point((x + dx, y + dy), fill=fill)


def _card(draw: ImageDraw.ImageDraw, box: Box, rank: str, suit: str) -> None:
    """A 15x22 card in ``box``: outlined, rank on top, suit glyph below (hearts and diamonds
    drawn hollow-boxed, i.e. inverted, so the two colours stay apart on a mono screen)."""
    x, y = box[0], box[1]
    red = suit in "hd"
    draw.rounded_rectangle(box, radius=2, outline=1, fill=1 if red else 0)
    ink = 0 if red else 1
    draw.text((x + 5 if rank != "T" else x + 2, y + 1), "10" if rank == "T" else rank,
              fill=ink, font=font())
    _suit(draw, x + 4, y + 12, suit, ink)


@dataclass(frozen=True)
class SeatLayout:
    """Where the boxes of one seat's picture go: ``markers`` (label -> box, right to left:
    ``"BB"`` or ``"SB"``, then ``"D"``), ``cards`` (one box per hole card drawn, left to
    right), and ``name_right``, the last column the seat and name may use."""

    markers: dict[str, Box]
    cards: tuple[Box, ...]
    name_right: int


def layout(view: SeatDisplayView) -> SeatLayout:
    """The boxes :func:`render_seat_view` draws for ``view`` (pixels, edges included)."""
    labels = (["BB"] if view.is_big_blind else ["SB"] if view.is_small_blind else []) + \
        (["D"] if view.is_button else [])
    markers: dict[str, Box] = {}
    right = WIDTH - 1
    for label in labels:
        left = right - text_width(label) - 3
        markers[label] = (left, MARKER_TOP, right, MARKER_BOTTOM)
        right = left - 2
    shown = () if view.status in ("empty", "out") else view.hole_cards
    x = WIDTH - CARD_STEP * len(shown) + 2
    cards = tuple((x + CARD_STEP * i, CARDS_TOP, x + CARD_STEP * i + CARD_W - 1,
                   CARDS_TOP + CARD_H - 1) for i in range(len(shown)))
    return SeatLayout(markers, cards, right)


#: The rows of the picture's bands (top, bottom), edges included; see the module docstring.
HEAD, STACK, BET, MIDDLE, BOTTOM = (0, 9), (10, 31), (32, 41), (42, 52), (53, 63)
RESULT = (MIDDLE[0], BOTTOM[1])  # the result after a hand takes both bottom bands
LABEL = (26, 37)  # the one line of an open or a busted seat


@dataclass(frozen=True)
class Text:
    """One text the display draws: ``text`` with its font cell's top left at ``xy``
    (pixels), in the small font or pixel-doubled (``big``), dark on a lit ``box`` when
    ``inverted``; its ink stays inside ``box`` (edges included).  ``kind`` names the row:
    marker, head, label, stack, bet, title, actions, result, status or note."""

    kind: str
    text: str
    xy: tuple[int, int]
    box: Box
    big: bool = False
    inverted: bool = False


def _fit(*candidates: str, width: int = WIDTH) -> str:
    """The first candidate that fits ``width`` pixels (the last one, cut, otherwise)."""
    return _first_fit(candidates, width)


def _first_fit(candidates: Iterable[str], width: int = WIDTH) -> str:
    """As :func:`_fit`, the candidates made one by one (the shorter ones only if needed)."""
    last = ""
    for text in candidates:
        if text_width(text) <= width:
            return text
        last = text
    return last[: width // CHAR_W]


def _call_and_raise(view: SeatDisplayView, form: int, short: bool) -> tuple[str, str]:
    """The CHECK/CALL and BET/RAISE words of :func:`action_line`, figures in their ``form``
    (an index into :func:`figures`), ``short``: one letter for the verb."""
    legal = view.legal
    assert legal is not None
    if legal.can_check:
        call = "CHECK"
    elif legal.can_call:
        call = ("C" if short else "CALL ") + _form(legal.call_amount, form)
    else:
        call = ""
    if legal.min_raise_to is None:
        return call, ""
    verb = "RAISE" if (legal.call_amount > 0 or view.bet > 0) else "BET"
    if legal.min_raise_to == legal.max_raise_to:
        return call, f"{verb[0]}ALLIN" if short else f"{verb} ALL-IN"
    return call, (verb[0] if short else f"{verb} ") + _form(legal.min_raise_to, form) + "+"


def _form(amount: int, form: int) -> str:
    """:func:`figures` of ``amount`` at ``form``, or its shortest one."""
    forms = figures(amount)
    return forms[min(form, len(forms) - 1)]


def action_line(view: SeatDisplayView) -> str:
    """The legal actions in key order (FOLD, CHECK/CALL, BET/RAISE), as short as needed:
    words shortened first, then figures rounded (12.81M) so that the line fits the width."""
    if view.legal is None:
        return ""
    fold = "FOLD" if view.legal.can_fold else ""
    return _first_fit(_action_lines(view, fold))


def _action_lines(view: SeatDisplayView, fold: str) -> Iterator[str]:
    """:func:`action_line`'s candidates, longest first."""
    call_l, raise_l = _call_and_raise(view, 0, False)
    yield " ".join(p for p in (fold, call_l, raise_l) if p)
    yield " ".join(p for p in (fold, call_l, _call_and_raise(view, 0, True)[1]) if p)
    # the amount to call stays exact longest: the minimum raise is rounded first
    for c, r in [(0, form) for form in range(4)] + [(form, 3) for form in range(1, 4)]:
        yield " ".join(p for p in (fold[:1], _call_and_raise(view, c, True)[0],
                                   _call_and_raise(view, r, True)[1]) if p)


def _biggest(kind: str, box: Box, texts: list[str], *, center: bool = False,
             big_first: bool = True) -> Text:
    """The first of ``texts`` that fits ``box`` pixel-doubled (when ``big_first``) or in
    the small font, the exact figures before the rounded ones: each text is tried big,
    then small, before the next; placed at the box's top (big) or middle (small)."""
    width = box[2] - box[0] + 1
    tries = [(t, big) for t in texts for big in ((True, False) if big_first else (False,))]
    for text, big in tries:
        w = text_width(text) * (2 if big else 1)
        if w <= width:
            x = box[0] + ((width - w) // 2 if center else 0)
            top = box[1] if big else box[1] + (box[3] - box[1] + 1 - 11) // 2
            return Text(kind, text, (x, top), box, big=big)
    return Text(kind, _fit(texts[-1], width=width), (box[0], box[1]), box)


def texts(view: SeatDisplayView, *, online_note: str = "",
          boxes: SeatLayout | None = None) -> tuple[Text, ...]:
    """Every text :func:`render_seat_view` draws for ``view``, where, and in which box
    (pixels; figures shortened, 12.5K, only when the exact one does not fit its box).
    ``boxes``: :func:`layout` of ``view`` when the caller has it."""
    boxes = layout(view) if boxes is None else boxes
    out = [Text("marker", label, (box[0] + 2, -1), box, inverted=True)
           for label, box in boxes.markers.items()]
    head = safe_text(f"{view.seat} {view.name.upper()}".strip(), 40, latin1=True)
    out.append(Text("head", cut(head, max(0, (boxes.name_right - 1) // CHAR_W)), (0, -1),
                    (0, HEAD[0], boxes.name_right - 2, HEAD[1])))
    if view.status in ("empty", "out"):
        # a player knocked out gets the engine's words ("OUT - 6th"), not "SITTING OUT"
        label = "OPEN SEAT" if view.status == "empty" else \
            (safe_text(view.message, 21, latin1=True).upper() or "SITTING OUT")
        out.append(Text("label", label, ((WIDTH - text_width(label)) // 2, LABEL[0]),
                        (0, LABEL[0], WIDTH - 1, LABEL[1])))
        return tuple(out)
    cards_left = boxes.cards[0][0] if boxes.cards else WIDTH + 2
    stack_box = (0, STACK[0], cards_left - 3, STACK[1])
    stack = _biggest("stack", stack_box, list(figures(view.stack)))
    out += [stack, _bet_text(view)]
    note = words(safe_text(online_note or view.message, 60, latin1=True))
    if view.result is not None:
        out.append(_result_text(view.result))
    elif view.is_turn and view.legal is not None:
        out += _prompt_texts(view, note)
    else:
        out += _status_texts(view, note)
    return tuple(out)


def _bet_text(view: SeatDisplayView) -> Text:
    """Row 32: the bet and the amount to call, as long as fits (the amount to call stays
    exact longest)."""
    parts = [(word, amount) for word, amount in (("BET", view.bet), ("CALL", view.to_call))
             if amount]
    return Text("bet", _first_fit(_bet_lines(parts)), (0, BET[0] - 1),
                (0, BET[0], WIDTH - 1, BET[1]))


def _bet_lines(parts: list[tuple[str, int]]) -> Iterator[str]:
    """:func:`_bet_text`'s candidates, longest first."""
    exact = [f"{word} {chips(amount)}" for word, amount in parts]
    yield "  ".join(exact)
    yield " ".join(exact)
    for bet_form, call_form in [(f, 0) for f in range(4)] + [(3, f) for f in range(1, 4)]:
        yield " ".join(f"{word[0]}{_form(amount, bet_form if word == 'BET' else call_form)}"
                       for word, amount in parts)


def _result_text(result: int) -> Text:
    """Rows 42-63 after the hand: won, lost or even, with the chips (big when it fits)."""
    word = "WON" if result > 0 else ("LOST" if result < 0 else "EVEN")
    cands = [f"{word} {f}" for f in figures(abs(result))] if result else [word]
    return _biggest("result", (0, RESULT[0], WIDTH - 1, RESULT[1]), cands, center=True)


def _prompt_texts(view: SeatDisplayView, note: str) -> list[Text]:
    """Rows 42-63 when the seat is to act: the amount being keyed, or the keys' meaning."""
    legal = view.legal
    assert legal is not None
    if view.pending_raise_to is not None:
        all_in = legal.max_raise_to is not None and view.pending_raise_to >= legal.max_raise_to
        verb = "RAISE TO" if (legal.call_amount > 0 or view.bet > 0) else "BET"
        title = _fit(*(f"ALL-IN {f}" if all_in else f"{verb} {f}"
                       for f in figures(view.pending_raise_to)))
        bottom = note or _fit("CALL=OK FOLD=CANCEL", "CALL=OK FOLD=NO")
    else:
        title = "YOUR ACTION"
        bottom = action_line(view)
    kind = "note" if view.pending_raise_to is not None and note else "actions"
    return [Text("title", title, ((WIDTH - text_width(title)) // 2, MIDDLE[0] - 1),
                 (0, MIDDLE[0], WIDTH - 1, MIDDLE[1]), inverted=True),
            Text(kind, _fit(bottom), (0, BOTTOM[0]), (0, BOTTOM[0], WIDTH - 1, BOTTOM[1]))]


def _status_texts(view: SeatDisplayView, note: str) -> list[Text]:
    """Rows 42-63 otherwise: folded or all in, and the note."""
    out = []
    status = {"folded": "FOLDED", "all_in": "ALL IN"}.get(view.status, "")
    if status:
        out.append(Text("status", status, ((WIDTH - text_width(status)) // 2, MIDDLE[0]),
                        (0, MIDDLE[0], WIDTH - 1, MIDDLE[1])))
    if note:
        out.append(Text("note", _fit(note.upper()), (0, BOTTOM[0]),
                        (0, BOTTOM[0], WIDTH - 1, BOTTOM[1])))
    return out


def draw_small(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int) -> None:
    """``text`` in the small font at ``xy``; a final :data:`ELLIPSIS` as three dots on the
    baseline (row 8 of the cell drawn from ``xy``)."""
    body = text[:-1] if text.endswith(ELLIPSIS) else text
    draw.text(xy, body, fill=fill, font=font())
    if body != text:
        x0 = xy[0] + text_width(body)
        for dx in (0, 2, 4):
            draw.point((x0 + dx, xy[1] + 8), fill=fill)


def render_seat_view(view: SeatDisplayView, *, online_note: str = "") -> Image.Image:
    """The 128x64 mode-"1" image of ``view`` (see the module docstring for the layout).

    ``online_note``: an extra line that overrides the bottom row (e.g. ``"TV offline"``).
    """
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    boxes = layout(view)
    for t in texts(view, online_note=online_note, boxes=boxes):
        if t.inverted:
            draw.rectangle(t.box, fill=1)
        if t.big:
            _paste_big(img, t.xy, t.text, 0 if t.inverted else 1)
        else:
            draw_small(draw, t.xy, t.text, 0 if t.inverted else 1)
    if view.status not in ("empty", "out"):
        for card, box in zip(view.hole_cards, boxes.cards, strict=True):
            _card(draw, box, card.rank, card.suit)
    return img
