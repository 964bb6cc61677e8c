"""Every TOML snippet in docs/ is checked: a table-config snippet passes ``config check``
(on its own), a structure snippet passes the structure check."""

from __future__ import annotations

import re

import pytest

from engine.tournament.structure_file import parse_structure
from pi_app.service.config import parse_config
from tests.data_paths import REPO

ROOT = REPO
DOCS = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
SNIPPETS = [(doc, i, text) for doc in DOCS
            for i, text in enumerate(re.findall(r"```toml\n(.*?)```", doc.read_text(), re.S))]
STRUCTURE_TABLES = ("[tournament]\nname", "[chips]", "[[levels]]")


def test_docs_hold_toml_snippets():
    assert len(SNIPPETS) >= 4


@pytest.mark.parametrize("doc,i,text", SNIPPETS,
                         ids=[f"{d.name}-{i}" for d, i, _ in SNIPPETS])
def test_every_docs_toml_snippet_is_accepted(doc, i, text):
    if any(t in text for t in STRUCTURE_TABLES):
        parse_structure(text, f"{doc.name} snippet {i}")
    else:
        parse_config(text, f"{doc.name} snippet {i}", base_dir=ROOT)
