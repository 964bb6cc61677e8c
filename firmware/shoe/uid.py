"""UID assembly for ISO/IEC 14443-3 type A tags (pure; MicroPython and CPython).

Our card tags are NTAG21x stickers with a 7-byte UID ("double size").  Anticollision
returns the UID in cascade levels of 5 bytes (4 UID-or-tag bytes plus the BCC, the XOR of
the four):

* cascade level 1 (SEL 0x93): ``CT uid0 uid1 uid2 BCC`` where CT = 0x88 (cascade tag) says
  "the UID continues at level 2";
* cascade level 2 (SEL 0x95): ``uid3 uid4 uid5 uid6 BCC``.

Whether another level follows is said by the SAK of each SELECT (bit 0x04, "UID not
complete"), not by the first byte: a complete single-size UID may itself start with 0x88
(a foreign tag).  A read that stops before the level the SAK announced is *truncated*: it
is returned as the fewer than 4 UID bytes read so far, and is never a card.  A complete
4-byte UID ("single size", e.g. a MIFARE Classic card) is a foreign tag.
Source: ISO/IEC 14443-3:2018 section 6.5.4 (UID size, cascade tag)
and NXP AN10927 "MIFARE and NTAG identification".
"""

CASCADE_TAG = 0x88
SAK_UID_NOT_COMPLETE = 0x04  # SAK bit 3: the UID continues at the next cascade level
TRUNCATED_READ = b""         # a tag answered but none of its UID could be read
CARD_UID_LEN = 7

CARD = "card"            # a complete 7-byte UID
TRUNCATED = "truncated"  # fewer than 4 UID bytes: an announced level is missing
FOREIGN = "foreign"      # a complete UID that is not 7 bytes (not one of our tags)


class UidError(ValueError):
    """A cascade level with a wrong length or a bad BCC."""


def bcc_ok(level):
    """True if the 5-byte cascade-level response ``level`` has a correct BCC."""
    if len(level) != 5:
        return False
    return (level[0] ^ level[1] ^ level[2] ^ level[3]) == level[4]


def assemble(cl1, cl2=None, cl3=None, saks=None):
    """The UID bytes from the cascade-level responses (each 5 bytes including the BCC).

    ``saks``: the SAK byte of each level selected (same order).  When given, the UID length
    is decided by the SAK cascade bit (:data:`SAK_UID_NOT_COMPLETE`): a level whose SAK has
    it set is followed by another, the last level's bytes are all UID bytes.  Without
    ``saks`` a leading cascade tag (0x88) at level 1 or 2 announces the next level.

    Returns 4 bytes for a single-size UID, 7 for double, 10 for triple.  If a level that
    was announced is missing, the UID bytes read so far (3 or 6, fewer than a whole UID)
    are returned, which :func:`classify` reports as :data:`TRUNCATED`.

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
            return uid  # the announced level is missing: truncated
        level = bytes(level)
        if not bcc_ok(level):
            raise UidError("cascade level %d: bad length or BCC" % (i + 1))
        if saks is not None and i < len(saks):
            more = bool(saks[i] & SAK_UID_NOT_COMPLETE)
        else:
            more = level[0] == CASCADE_TAG
        if more and i < 2:
            uid += level[1:4]
            continue
        return uid + level[0:4]
    raise UidError("more than three cascade levels")


def classify(uid):
    """:data:`CARD`, :data:`TRUNCATED` or :data:`FOREIGN` for the UID bytes ``uid``: 7 bytes
    are a card, fewer than 4 a truncated read, anything else a foreign tag."""
    if len(uid) == CARD_UID_LEN:
        return CARD
    if len(uid) < 4:
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
