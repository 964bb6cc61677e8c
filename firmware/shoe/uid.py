"""UID assembly for ISO/IEC 14443-3 type A tags (pure; MicroPython and CPython).

Our card tags are NTAG21x stickers with a 7-byte UID ("double size").  Anticollision
returns the UID in cascade levels of 5 bytes (4 UID-or-tag bytes plus the BCC, the XOR of
the four):

* cascade level 1 (SEL 0x93): ``CT uid0 uid1 uid2 BCC`` where CT = 0x88 (cascade tag) says
  "the UID continues at level 2";
* cascade level 2 (SEL 0x95): ``uid3 uid4 uid5 uid6 BCC``.

A 4-byte result whose first byte is 0x88 is therefore a *truncated* read (level 2 was not
completed): it is never a card.  A complete 4-byte UID ("single size", e.g. a MIFARE Classic
card) is a foreign tag.  Source: ISO/IEC 14443-3:2018 section 6.5.4 (UID size, cascade tag)
and NXP AN10927 "MIFARE and NTAG identification".
"""

CASCADE_TAG = 0x88
CARD_UID_LEN = 7

CARD = "card"            # a complete 7-byte UID
TRUNCATED = "truncated"  # 4 bytes starting with the cascade tag: level 2 missing
FOREIGN = "foreign"      # a complete UID that is not 7 bytes (not one of our tags)


class UidError(ValueError):
    """A cascade level with a wrong length or a bad BCC."""


def bcc_ok(level):
    """True if the 5-byte cascade-level response ``level`` has a correct BCC."""
    if len(level) != 5:
        return False
    return (level[0] ^ level[1] ^ level[2] ^ level[3]) == level[4]


def assemble(cl1, cl2=None, cl3=None):
    """The UID bytes from the cascade-level responses (each 5 bytes including the BCC).

    Returns 4 bytes when ``cl1`` holds a complete single-size UID, 7 bytes for a
    double-size UID (``cl1`` starts with 0x88 and ``cl2`` is given), 10 for triple size.
    If a level that the previous one announced (leading 0x88) is missing, the 4 bytes read
    so far are returned *including* the cascade tag, which :func:`classify` reports as
    :data:`TRUNCATED`.

    Raises:
        UidError: a level that is not 5 bytes or whose BCC is wrong.
    """
    levels = [cl1, cl2, cl3]
    uid = b""
    for i in range(3):
        level = levels[i]
        if level is None:
            if i == 0:
                raise UidError("no cascade level 1")
            return _truncated(levels[i - 1])
        level = bytes(level)
        if not bcc_ok(level):
            raise UidError("cascade level %d: bad length or BCC" % (i + 1))
        if level[0] == CASCADE_TAG and i < 2:
            uid += level[1:4]
            continue
        return uid + level[0:4]
    raise UidError("more than three cascade levels")


def _truncated(level):
    return bytes(level[0:4])


def classify(uid):
    """:data:`CARD`, :data:`TRUNCATED` or :data:`FOREIGN` for the UID bytes ``uid``."""
    if len(uid) == CARD_UID_LEN:
        return CARD
    if len(uid) == 4 and uid[0] == CASCADE_TAG:
        return TRUNCATED
    return FOREIGN


def to_hex(uid):
    """Upper-case hex text of the UID bytes, e.g. ``"04A1B2C3D4E5F6"``."""
    digits = "0123456789ABCDEF"
    out = []
    for b in uid:
        out.append(digits[b >> 4])
        out.append(digits[b & 15])
    return "".join(out)
