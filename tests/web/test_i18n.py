"""The page's own words have their Italian (web/static/i18n.js): every English key the
app, the forms and the seats panel (seats.js) look up with T("...") / ctx.t("...") is
in the Italian dictionary, and every placeholder of a key is kept in its translation."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent.parent / "web" / "static"
CALL = re.compile(r'(?<![\w.])(?:T|ctx\.t)\("((?:[^"\\]|\\.)*)"')
ENTRY = re.compile(r'^\s*"((?:[^"\\]|\\.)*)":\s*(?:\n\s*)?"((?:[^"\\]|\\.)*)"', re.M)


def italian() -> dict[str, str]:
    source = (STATIC / "i18n.js").read_text(encoding="utf-8")
    body = source[source.index("const IT = {"):source.index("const DICTS")]
    return dict(ENTRY.findall(body))


def keys_used() -> set[str]:
    found: set[str] = set()
    for name in ("app.js", "forms.js", "seats.js", "chat.js", "alerts.js", "rematch.js",
                 "clock.js", "undo.js", "replay.js"):
        found |= set(CALL.findall((STATIC / name).read_text(encoding="utf-8")))
    app = (STATIC / "app.js").read_text(encoding="utf-8")
    found.add(re.search(r'const FAIR_MEANS = "([^"]*)"', app).group(1))
    found |= {"waiting", "playing", "finished", "faulted", "E", "N", "W", "S"}  # T(status), dial
    return found


def test_every_word_of_the_page_has_its_italian() -> None:
    it = italian()
    missing = sorted(k for k in keys_used() if k not in it)
    assert not missing, f"no Italian in web/static/i18n.js for: {missing}"


def test_translations_keep_their_placeholders() -> None:
    for english, translated in italian().items():
        holes = re.compile(r"\{\w+\}")
        assert set(holes.findall(english)) == set(holes.findall(translated)), english
    assert len(italian()) > 100


def test_seats_panel_writes_no_words_outside_the_translation() -> None:
    """seats.js: every sentence a person reads goes through T (so it has its Italian)."""
    source = (STATIC / "seats.js").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*", "", CALL.sub("", source)).replace('"use strict"', "")
    code = re.sub(r'class: "[^"]*"', "", code)  # class names, never read
    literals = re.findall(r'"((?:[^"\\]|\\.)*)"|`([^`]*)`', code)
    words = re.compile(r"[A-Za-z] [A-Za-z]|^[A-Z][a-z]+")  # a sentence, or a capitalised word
    bare = [a or b for a, b in literals if words.search(re.sub(r"\$\{[^}]*\}", "", a or b))]
    assert not bare, f"seats.js words not looked up with T(...): {bare}"
