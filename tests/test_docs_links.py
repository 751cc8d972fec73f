"""The README and docs/ stand on their own: every relative link reaches a file of this
repository, and no page sends a reader outside it (a clone has nothing beside it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _relative_links(text: str) -> list[str]:
    """The targets of markdown links that are neither URLs nor anchors on the page."""
    return [t.split("#", 1)[0] for t in LINK.findall(text)
            if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_links_stay_in_the_repository_and_reach_a_file(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{page.name} points outside the repository"
    for target in _relative_links(text):
        path = (page.parent / target).resolve()
        assert path.is_relative_to(ROOT), f"{page.name} links outside the repository: {target}"
        assert path.exists(), f"{page.name} links to {target}, which is not there"


def test_the_link_reader_sees_relative_links_only() -> None:
    text = "[a](x.md) [b](https://e.org/) [c](#here) [d](../y.md#part) [e](mailto:a@b)"
    assert _relative_links(text) == ["x.md", "../y.md"]
