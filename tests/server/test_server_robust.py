"""A broken or half-typed document never ends `evaltools server`; and a retrieval set's
stale gold ID gets its finding and its rewrite off the typing path."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import corpus_files
from tests.server.lspclient import Client

NASTY = ["\x00", "```", "~~~~", "+++", "\n## ", "\r\n", "\ud7ff", "é", "{", '"', "^[CURSOR"]


def _edit(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    roll = rng.random()
    if roll < 0.3:
        return text[:at] + rng.choice(NASTY) + text[at:]
    if roll < 0.4:
        return text[:at] + "x" * rng.randrange(10_000, 200_000) + text[at:]
    if roll < 0.7:
        return text[:at] + text[at + rng.randrange(1, 200) :]
    return text[:at] + rng.choice(NASTY) * rng.randrange(1, 5) + text[at:]


def test_hundreds_of_random_edits_and_the_server_still_answers(in_tmp: Path) -> None:
    subprocess.run(["git", "init", "-q", str(in_tmp)], check=True)
    rng = random.Random(32)
    client = Client(in_tmp)
    client.start(in_tmp)
    opened = []
    for suffix in (".md", ".json", ".jsonl"):
        text = corpus_files()[0].read_text("utf-8")
        if suffix != ".md":
            text = json.dumps({"events": "", "cursor_position": text[:200]}) + "\n"
        opened.append((client.open(in_tmp / f"doc{suffix}", text), text))
    version = 1
    for round_ in range(300):
        uri, text = opened[round_ % 3]
        text = _edit(rng, text)
        opened[round_ % 3] = (uri, text)
        version += 1
        client.change(uri, version, text)
    for uri, _ in opened:
        hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
        client.request("textDocument/hover", hover)
        options = {"tabSize": 4, "insertSpaces": True}
        client.request(
            "textDocument/formatting", {"textDocument": {"uri": uri}, "options": options}
        )
    # The last text of the last document edited is linted: the server is alive and current.
    assert isinstance(client.diagnostics(opened[299 % 3][0], version), list)
    assert client.stop() == 0


# What comes before the stale gold ID: a record whose query holds a raw U+2028 (one line to
# evaltools and the editor, two to `str.splitlines`), one with a lone "\r" between members
# (JSON whitespace: one line to evaltools, two to the editor), or such a "\r" in the stale
# record itself, before its gold.
BEFORE = {
    "none": "",
    "line separator": '{"qid": "q0", "query": "a\u2028b", "type": "intent", '
    '"gold": {"src/a.py:4-5:foo": 1}}\n',
    "carriage return": '{"qid": "q0", "query": "a",\r"type": "intent", '
    '"gold": {"src/a.py:4-5:foo": 1}}\n',
    "carriage return inside": "",
}


@pytest.mark.parametrize("before", list(BEFORE))
def test_a_stale_gold_id_is_reported_and_rewritten_by_a_code_action(
    in_tmp: Path, before: str
) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(in_tmp), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (in_tmp / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nsets = ["set.jsonl"]\nroot = "."\n'
    )
    code = in_tmp / "src" / "a.py"
    code.parent.mkdir()
    code.write_text("def foo():\n    return 1\n")
    git("add", "-A")
    git("commit", "-qm", "one")
    code.write_text("import os\n\n\ndef foo():\n    return 1\n")
    git("commit", "-qam", "two")
    record = {
        "qid": "q1",
        "query": "where is foo",
        "type": "intent",
        "gold": {"src/a.py:1-2:foo": 2},
    }
    stale_record = json.dumps(record)
    if before == "carriage return inside":
        stale_record = stale_record.replace(', "gold"', ',\r"gold"')
    text = BEFORE[before] + stale_record + "\n"
    # The editor's line of the stale ID, and its column there (UTF-16, all BMP here).
    rows = re.split(r"\r\n|\r|\n", text[: text.index("src/a.py:1-2")])
    row, character = len(rows) - 1, len(rows[-1]) + 2
    path = in_tmp / "set.jsonl"
    path.write_bytes(text.encode())
    client = Client(in_tmp)
    client.start(in_tmp)
    uri = client.open(path, text)
    assert client.diagnostics(uri, 1) == []  # the lint result, before the gold check
    stale = client.diagnostics(uri, 1)  # then the gold check's, from its worker
    assert [(d["code"], d["range"]["start"]["line"]) for d in stale] == [("RG001", row)]
    whole = {"start": {"line": row, "character": 0}, "end": {"line": row, "character": 0}}
    actions = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": stale}},
    )
    rewrite = next(a for a in actions if "gold ID" in a["title"])
    [edit] = rewrite["edit"]["changes"][uri]
    assert edit["newText"] == '"src/a.py:4-5:foo"'
    hover = client.request(
        "textDocument/hover",
        {
            "textDocument": {"uri": uri},
            "position": {"line": row, "character": character},
        },
    )
    assert "def foo():\n    return 1" in hover["contents"]["value"]  # at its new place
    assert "RG001 (gold-moved)" in hover["contents"]["value"]
    assert client.stop() == 0
