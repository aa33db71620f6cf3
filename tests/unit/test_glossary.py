"""The catalogs keep one word per concept, as locale/GLOSSARY.md says.

Every catalog entry whose English text names a glossary concept must use that
language's word for it, and no translation may use a word the glossary
avoids (the Italian "passi" for passes, the Spanish "reina" for the queen, the
Russian "лобби", or "сдаться" for a resignation when "сдача" is the board).
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = ["it", "fr", "ru", "es", "ro"]
DOMAINS = ["django", "djangojs"]


def _cells(row: str) -> list[str]:
    # Split on the table's pipes, not on "\|" inside a pattern.
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def _pattern(cell: str) -> str:
    return re.findall(r"`([^`]+)`", cell)[0]


def glossary() -> list[dict]:
    lines = (LOCALE / "GLOSSARY.md").read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| concept")]
    concepts = []
    for row in rows:
        cells = _cells(row)
        concept, english, *words, avoid = cells
        concepts.append(
            {
                "concept": concept,
                "english": re.compile(_pattern(english), re.I),
                "words": {
                    lang: re.compile(_pattern(cell), re.I)
                    for lang, cell in zip(LANGS, words, strict=True)
                },
                "avoid": [re.compile(p, re.I | re.M) for p in re.findall(r"`([^`]+)`", avoid)],
            }
        )
    return concepts


def _entries(lang: str):
    for domain in DOMAINS:
        for entry in polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po")):
            if entry.obsolete or not entry.msgid:
                continue
            texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
            yield domain, entry, [t for t in texts if t]


def test_the_glossary_names_every_language_for_every_concept():
    concepts = glossary()
    assert len(concepts) >= 8
    assert {c["concept"].split(" (")[0] for c in concepts} >= {
        "house bot",
        "lobby",
        "passes",
        "queen",
        "board",
        "resignation",
    }
    for concept in concepts:
        assert set(concept["words"]) == set(LANGS), concept["concept"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_uses_the_glossarys_word(lang):
    wrong = []
    for domain, entry, texts in _entries(lang):
        english = f"{entry.msgid} {entry.msgid_plural or ''}"
        for concept in glossary():
            if not concept["english"].search(english):
                continue
            word = concept["words"][lang]
            for text in texts:
                if not word.search(text):
                    wrong.append((concept["concept"], domain, entry.msgid[:70], text[:90]))
    assert wrong == [], f"{lang}: use the glossary's word (locale/GLOSSARY.md)"


@pytest.mark.parametrize("lang", LANGS)
def test_no_entry_uses_a_word_the_glossary_avoids(lang):
    found = []
    for domain, entry, texts in _entries(lang):
        for concept in glossary():
            for avoid in concept["avoid"]:
                for text in texts:
                    if avoid.search(text):
                        found.append((concept["concept"], avoid.pattern, domain, entry.msgid[:70]))
    assert found == [], f"{lang}: words the glossary avoids"


def test_the_seeds_card_words_are_the_glossarys():
    # The sheets' own words (the seeds) for the concepts the issue named.
    by_concept = {c["concept"].split(" (")[0]: c for c in glossary()}
    assert by_concept["passes"]["words"]["it"].search("passaggi")
    assert by_concept["queen"]["words"]["es"].search("dama")
    assert by_concept["queen"]["avoid"][0].search("reina")
    assert any(a.search("лобби") for a in by_concept["lobby"]["avoid"])
    assert by_concept["board"]["words"]["ru"].search("сдача")
    assert not by_concept["resignation"]["words"]["ru"].search("сдача")


# Guessed genders (locale/README.md): a bracket form, or a participle or an
# adjective agreed with a member (a name, or "you") the site knows nothing about.
GUESSED_GENDER = {
    "it": r"\(a\)|%\(names?\)s è (pronto|uscito|tornato)|\bsei (pronto|uscito|seduto|tornato|sicuro)\b"
    r"|^Benvenut[oa]\b|\bti sei sedut|\bvieni confrontat",
    "fr": r"\(e\)|%\(names?\)s (est |a )?(sorti|prêt|revenu|parti)\b"
    r"|vous êtes (sorti|prêt|sûr|connecté|déconnecté|classé|comparé)|^Connecté\b",
    "ru": r"\(а\)|%\(names?\)s (сыграл|вышел|проиграл|покинул|взял|готов|сдался|вернулся)\b"
    r"|[Вв]ы вышли первым|последним остались|[Яя] вернулся",
    "es": r"\(a\)|%\(names?\)s (está|esté) listo|estás (listo|lista|seguro|sentado)"
    r"|^¡?[Bb]ienvenid[oa]s?\b|quedas último\b|[Tt]e has sentado",
    "ro": r"\(ă\)|\(a\)|^Autentificat\b|ești (conectat|clasat|pregătit|sigur)"
    r"|%\(names?\)s (a ieșit primul|iese primul)|Ignoră-l",
}
_PLACEHOLDERS = re.compile(r"%\((?!names?\))[A-Za-z_]+\)[sd]")


@pytest.mark.parametrize("lang", LANGS)
def test_no_entry_guesses_a_members_gender(lang):
    pattern = re.compile(GUESSED_GENDER[lang])
    found = [
        (domain, entry.msgid[:60], text[:80])
        for domain, entry, texts in _entries(lang)
        for text in texts
        if pattern.search(_PLACEHOLDERS.sub("", text))
    ]
    assert found == []
