"""Display names people cannot fake: one spelling (NFKC), a visible letter, a look-alike key.

Unicode lets two different strings look the same: "Аnna" with a Cyrillic А
next to "Anna", "𝐁oris" (mathematical bold) next to "Boris", or a name made
only of Hangul fillers that shows as blanks. Sign-up normalises a name to NFKC
(which folds the mathematical and full-width forms), refuses a name without a
visible letter, and compares names by `name_key`: a skeleton in the spirit of
Unicode TS #39, where every character the confusables table (the
confusable-homoglyphs package, pinned) says looks like an ASCII letter or
digit counts as that letter, and plain ASCII that passes for other ASCII
(I, l and 1; 0 and O; rn and m) counts as one. Honest names in one script keep
their own letters: "Анна" (Cyrillic н is no Latin letter), "Ștefan" and "Zoë"
stay distinct from "Anna", "Stefan" and "Zoe". The names the house and the
site go by are reserved in every language (`is_reserved`).
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties): characters
# that render as nothing, the Hangul fillers among them (U+115F, U+1160,
# U+3164, U+FFA0).
_IGNORABLE = [
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
]


def is_invisible(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


def normalize_display_name(name: str) -> str:
    """The one stored spelling of a typed name: NFKC, outer spaces trimmed."""
    return unicodedata.normalize("NFKC", name).strip()


def has_visible_letter(name: str) -> bool:
    """At least one letter, and nothing that renders as nothing."""
    if any(is_invisible(c) for c in name):
        return False
    return any(unicodedata.category(c).startswith("L") for c in name)


@functools.cache
def _ascii_look_alike(char: str) -> str:
    """The ASCII letter or digit `char` is confusable with, or `char` itself."""
    if char.isascii():
        return char
    entries = confusables.is_confusable(char, greedy=True) or []
    candidates = [
        glyph["c"]
        for entry in entries
        for glyph in entry["homoglyphs"]
        if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalnum()
    ]
    return min(candidates) if candidates else char


# Plain ASCII that passes for other plain ASCII in the site's sans-serif type (the
# confusables table leaves ASCII alone): a capital I and a one look like a small L,
# before case folding (a small i has its dot); a zero like an O, and "rn" like "m",
# after it.
_ASCII_BEFORE_FOLDING = str.maketrans({"I": "l", "1": "l", "|": "l"})
_ASCII_AFTER_FOLDING = (("0", "o"), ("rn", "m"))


def name_key(name: str) -> str:
    """What a name looks like: equal keys mean one could pass for the other."""
    # Mapped before and after case folding: a capital may look like a Latin
    # capital ("ΑΝΝΑ") while its small letter looks like nothing ASCII.
    looks = "".join(_ascii_look_alike(c) for c in normalize_display_name(name))
    looks = looks.translate(_ASCII_BEFORE_FOLDING).casefold()
    key = "".join(_ascii_look_alike(c) for c in looks).translate(_ASCII_BEFORE_FOLDING).casefold()
    for plain, looks_like in _ASCII_AFTER_FOLDING:
        key = key.replace(plain, looks_like)
    return key


# The names the house and the site go by (chat shows the house's messages under
# the first): nobody may take them, in any of the club's languages.
RESERVED_NAMES = (_("The house"), _("Card Club"))


@functools.cache
def reserved_name_keys() -> frozenset[str]:
    """The keys of the reserved names in every language, each also without a short first
    word when it has two ("The house" and "house", "Le club" and "club")."""
    names = set()
    for language, _label in settings.LANGUAGES:
        with translation.override(language):
            names.update(str(name) for name in RESERVED_NAMES)
    for name in list(names):
        words = name.split()
        if len(words) == 2 and len(words[0]) <= 3:
            names.add(words[1])
    return frozenset(name_key(name) for name in names)


# The name a member's account takes when it is closed (club.leaving): nobody else may
# take one, so a "Former member 12" is always someone who left.
FORMER_MEMBER = "Former member"


def is_former_member_name(name: str) -> bool:
    # Compared by look: "Former rnember l2" would pass for "Former member 12".
    key, prefix = name_key(" ".join(name.split())), name_key(FORMER_MEMBER)
    rest = key[len(prefix) :].strip(" -") if key.startswith(prefix) else ""
    digits = {name_key(d) for d in "0123456789"}
    return bool(rest) and all(c in digits for c in rest)


def is_reserved(name: str) -> bool:
    """Is this name, or a look-alike of it, one the house or the site goes by?"""
    return name_key(name) in reserved_name_keys() or is_former_member_name(name)
