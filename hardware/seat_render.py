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

The markers' boxes stop at row 8, so a dark row (9) always parts them from the cards
below (a red card is drawn filled: touching, the button's box and the card ran together).
:func:`layout` gives every box drawn, for the tests.

The view is private to the seat, so its own hole cards are drawn; nothing else is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.text import safe_text
from engine.views import SeatDisplayView

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


def abbreviate(amount: int) -> str:
    """Short chip count for tight rows: ``2_000_000`` -> ``"2M"``, ``12_500`` -> ``"12.5K"``,
    below 10,000 unchanged (``"9,999"``)."""
    for size, suffix in ((1_000_000, "M"), (1_000, "K")):
        if amount >= size and amount >= 10_000:
            value = f"{amount / size:.1f}".rstrip("0").rstrip(".")
            return value + suffix
    return chips(amount)


def text_width(text: str) -> int:
    """Width in pixels of ``text`` in the small font."""
    return int(font().getlength(text))


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


def _marker(draw: ImageDraw.ImageDraw, box: Box, label: str) -> None:
    """An inverted box with ``label`` in it."""
    draw.rectangle(box, fill=1)
    draw.text((box[0] + 2, -1), label, fill=0, font=font())


def _fit(*candidates: str, width: int = WIDTH) -> str:
    """The first candidate that fits ``width`` pixels (the last one, cut, otherwise)."""
    for text in candidates:
        if text_width(text) <= width:
            return text
    last = candidates[-1]
    return last[: width // CHAR_W]


def action_line(view: SeatDisplayView) -> str:
    """The legal actions in key order (FOLD, CHECK/CALL, BET/RAISE), as short as needed."""
    legal = view.legal
    if legal is None:
        return ""
    fold = "FOLD" if legal.can_fold else ""
    if legal.can_check:
        call_l = call_s = "CHECK"
    elif legal.can_call:
        call_l, call_s = f"CALL {chips(legal.call_amount)}", f"C{chips(legal.call_amount)}"
    else:
        call_l = call_s = ""
    if legal.min_raise_to is not None:
        verb = "RAISE" if (legal.call_amount > 0 or view.bet > 0) else "BET"
        if legal.min_raise_to == legal.max_raise_to:
            raise_l, raise_s = f"{verb} ALL-IN", f"{verb[0]}ALLIN"
        else:
            raise_l = f"{verb} {chips(legal.min_raise_to)}+"
            raise_s = f"{verb[0]}{chips(legal.min_raise_to)}+"
    else:
        raise_l = raise_s = ""
    long = " ".join(p for p in (fold, call_l, raise_l) if p)
    mid = " ".join(p for p in (fold, call_l, raise_s) if p)
    short = " ".join(p for p in (fold[:1], call_s, raise_s) if p)
    return _fit(long, mid, short)


def render_seat_view(view: SeatDisplayView, *, online_note: str = "") -> Image.Image:
    """The 128x64 mode-"1" image of ``view`` (see the module docstring for the layout).

    ``online_note``: an extra line that overrides the bottom row (e.g. ``"TV offline"``).
    """
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    boxes = layout(view)
    _draw_head(draw, view, boxes)
    if view.status in ("empty", "out"):
        # a player knocked out gets the engine's words ("OUT - 6th"), not "SITTING OUT"
        label = "OPEN SEAT" if view.status == "empty" else \
            (safe_text(view.message, 21, latin1=True).upper() or "SITTING OUT")
        draw.text(((WIDTH - text_width(label)) // 2, 26), label, fill=1, font=font())
        return img
    _draw_stack_and_cards(img, draw, view, boxes.cards)
    _draw_bet_line(draw, view)
    note = safe_text(online_note or view.message, 60, latin1=True)
    if view.result is not None:
        _draw_result(img, draw, view.result)
    elif view.is_turn and view.legal is not None:
        _draw_prompt(draw, view, note)
    else:
        _draw_status(draw, view, note)
    return img


def _draw_head(draw: ImageDraw.ImageDraw, view: SeatDisplayView, boxes: SeatLayout) -> None:
    """Rows 0-9: seat, name, markers."""
    for label, box in boxes.markers.items():
        _marker(draw, box, label)
    head = safe_text(f"{view.seat} {view.name.upper()}".strip(), 40, latin1=True)
    draw.text((0, -1), head[: max(0, (boxes.name_right - 1) // CHAR_W)], fill=1, font=font())


def _draw_stack_and_cards(img: Image.Image, draw: ImageDraw.ImageDraw,
                          view: SeatDisplayView, cards: tuple[Box, ...]) -> None:
    """Rows 10-31: the stack (big) and the hole cards."""
    cards_w = CARD_STEP * len(cards)
    stack = chips(view.stack)
    if (len(stack) * 2 * CHAR_W) <= WIDTH - cards_w - 2:
        _paste_big(img, (0, CARDS_TOP), stack)
    else:
        draw.text((0, 15), stack, fill=1, font=font())
    for card, box in zip(view.hole_cards, cards, strict=True):
        _card(draw, box, card.rank, card.suit)


def _draw_bet_line(draw: ImageDraw.ImageDraw, view: SeatDisplayView) -> None:
    """Row 32: the bet and the amount to call, as long as fits."""
    long, short, tiny = [], [], []
    if view.bet:
        long.append(f"BET {chips(view.bet)}")
        short.append(f"B{chips(view.bet)}")
        tiny.append(f"B{abbreviate(view.bet)}")
    if view.to_call:
        long.append(f"CALL {chips(view.to_call)}")
        short.append(f"C{chips(view.to_call)}")
        tiny.append(f"C{abbreviate(view.to_call)}")
    draw.text((0, 31), _fit("  ".join(long), " ".join(long), " ".join(short), " ".join(tiny)),
              fill=1, font=font())


def _draw_result(img: Image.Image, draw: ImageDraw.ImageDraw, result: int) -> None:
    """Rows 42-63 after the hand: won, lost or even, with the chips."""
    word = "WON" if result > 0 else ("LOST" if result < 0 else "EVEN")
    text = f"{word} {chips(abs(result))}" if result else word
    if len(text) * 2 * CHAR_W <= WIDTH:
        _paste_big(img, ((WIDTH - len(text) * 2 * CHAR_W) // 2, 42), text)
    else:
        draw.text((0, 46), text, fill=1, font=font())


def _draw_prompt(draw: ImageDraw.ImageDraw, view: SeatDisplayView, note: str) -> None:
    """Rows 42-63 when the seat is to act: the amount being keyed, or the keys' meaning."""
    legal = view.legal
    assert legal is not None
    if view.pending_raise_to is not None:
        all_in = legal.max_raise_to is not None and view.pending_raise_to >= legal.max_raise_to
        verb = "RAISE TO" if (legal.call_amount > 0 or view.bet > 0) else "BET"
        title = f"ALL-IN {chips(view.pending_raise_to)}" if all_in else \
            f"{verb} {chips(view.pending_raise_to)}"
        bottom = note or _fit("CALL=OK FOLD=CANCEL", "CALL=OK FOLD=NO")
    else:
        title = "YOUR ACTION"
        bottom = action_line(view)
    f = font()
    draw.rectangle((0, 42, WIDTH - 1, 52), fill=1)
    draw.text(((WIDTH - text_width(title)) // 2, 41), _fit(title), fill=0, font=f)
    draw.text((0, 53), _fit(bottom), fill=1, font=f)


def _draw_status(draw: ImageDraw.ImageDraw, view: SeatDisplayView, note: str) -> None:
    """Rows 42-63 otherwise: folded or all in, and the note."""
    status = {"folded": "FOLDED", "all_in": "ALL IN"}.get(view.status, "")
    f = font()
    if status:
        draw.text(((WIDTH - text_width(status)) // 2, 42), status, fill=1, font=f)
    if note:
        draw.text((0, 53), _fit(note.upper()), fill=1, font=f)
