"""Quality gates on the translation catalogs (README, "Adding a string / a language").

Every catalog complete (no empty, no fuzzy entry), placeholders kept, plural
forms right for each language, and every committed build product (.mo, static
JavaScript catalog) identical in content to its .po, checked in pure Python
so that no gettext is needed.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

from club.i18n_catalog import output_path, render_catalog

LOCALE = Path(settings.BASE_DIR) / "locale"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ["django", "djangojs"]
CATALOGS = [(code, domain) for code in TRANSLATED for domain in DOMAINS]
NPLURALS = {"it": 2, "fr": 2, "es": 2, "ru": 3, "ro": 3}
# %(name)s, %s, %d, {name}, {0}: whatever a format or interpolate() fills in.
PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdfi]|%[sdfi]|\{[A-Za-z_0-9]*\}")


def _po(code: str, domain: str) -> polib.POFile:
    path = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run `make messages`"
    return polib.pofile(str(path))


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "")))


def _ident(entry: polib.POEntry) -> str:
    return f"{entry.msgctxt}|{entry.msgid}" if entry.msgctxt else entry.msgid


def test_every_language_has_both_catalogs():
    assert set(NPLURALS) == set(TRANSLATED)
    for code, domain in CATALOGS:
        assert (LOCALE / code / "LC_MESSAGES" / f"{domain}.po").exists(), (code, domain)


@pytest.mark.parametrize(("code", "domain"), CATALOGS)
def test_catalog_has_no_untranslated_or_fuzzy_entry(code, domain):
    po = _po(code, domain)
    assert not po.metadata_is_fuzzy, "remove the fuzzy flag from the header"
    untranslated = [_ident(e) for e in po.untranslated_entries() if not e.obsolete]
    fuzzy = [_ident(e) for e in po.fuzzy_entries()]
    assert untranslated == [], f"{code}/{domain}.po: translate these"
    assert fuzzy == [], f"{code}/{domain}.po: check and unflag these"
    for entry in po:
        if entry.msgid_plural:
            assert all(form.strip() for form in entry.msgstr_plural.values()), _ident(entry)


@pytest.mark.parametrize(("code", "domain"), CATALOGS)
def test_placeholders_match_between_msgid_and_msgstr(code, domain):
    wrong = []
    for entry in _po(code, domain):
        if entry.msgid_plural:
            allowed = {
                tuple(_placeholders(entry.msgid)),
                tuple(_placeholders(entry.msgid_plural)),
            }
            for form in entry.msgstr_plural.values():
                if tuple(_placeholders(form)) not in allowed:
                    wrong.append((_ident(entry), form))
        elif _placeholders(entry.msgid) != _placeholders(entry.msgstr):
            wrong.append((_ident(entry), entry.msgstr))
    assert wrong == []


@pytest.mark.parametrize(("code", "domain"), CATALOGS)
def test_plural_forms_header_has_the_languages_forms(code, domain):
    po = _po(code, domain)
    header = po.metadata.get("Plural-Forms", "")
    assert f"nplurals={NPLURALS[code]};" in header.replace(" ", "")
    assert po.metadata.get("Language") == code
    for entry in po:
        if entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == list(range(NPLURALS[code])), _ident(entry)


def _messages(catalog) -> dict[tuple, object]:
    found = {}
    for entry in catalog:
        if entry.obsolete or "fuzzy" in entry.flags or not entry.msgid:
            continue
        value = (
            tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
            if entry.msgid_plural
            else entry.msgstr
        )
        found[(entry.msgctxt, entry.msgid, entry.msgid_plural or None)] = value
    return found


@pytest.mark.parametrize(("code", "domain"), CATALOGS)
def test_compiled_mo_matches_its_po(code, domain):
    mo_path = LOCALE / code / "LC_MESSAGES" / f"{domain}.mo"
    assert mo_path.exists(), f"{mo_path} is missing: run `make messages` and commit it"
    po = _po(code, domain)
    mo = polib.mofile(str(mo_path))
    assert _messages(mo) == _messages(po), f"{mo_path} is stale: run `make messages`"
    assert mo.metadata.get("Plural-Forms") == po.metadata.get("Plural-Forms")


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_static_javascript_catalog_matches_the_catalogs(code):
    path = output_path(code)
    assert path.exists(), f"{path} is missing: run `make messages` and commit it"
    assert path.read_text(encoding="utf-8") == render_catalog(code), (
        f"{path} is stale: run `make messages`"
    )


def test_russian_and_romanian_catalogs_choose_three_forms():
    import gettext

    expect = {
        "ru": {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1, 25: 2, 111: 2},
        "ro": {1: 0, 2: 1, 5: 1, 19: 1, 20: 2, 21: 2, 101: 1, 120: 2},
    }
    for code, cases in expect.items():
        header = _po(code, "django").metadata["Plural-Forms"]
        rule = gettext.c2py(header.split("plural=", 1)[1].rstrip(";"))
        assert {n: rule(n) for n in cases} == cases, code
