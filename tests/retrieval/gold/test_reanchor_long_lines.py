"""A line longer than 1,000 characters (minified code, a long literal) is left out of a
body, as comment lines are: the rest of the body is still evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_follow import repo

__all__ = ["repo"]  # the fixture


LITERAL = "'" + "ab" * 600 + "'"


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_a_long_literal_leaves_the_rest_of_a_body_as_evidence(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) A method with a 1,200-character literal renamed in place, body
    unchanged, while an unrelated class of its name elsewhere gains its old method name:
    the rest of the body still finds it; the name alone would not."""
    if language == "python":
        path, other = "src/jobs/export.py", "src/web/views.py"
        text = (
            "class Handler:\n    def {name}(self):\n"
            "        table = " + LITERAL + "\n"
            "        out = []\n        for item in self.items:\n"
            "            if item.key in table:\n"
            "                out.append(item.value * self.scale)\n"
            "        return out\n\n    def keep(self):\n        return 1\n"
        )
        stranger = (
            "class Handler:\n    def get(self):\n        return 1\n\n    def run(self):\n"
            "        self.start()\n        self.serve_forever()\n        self.wait()\n"
            "        self.stop()\n        return self.code\n"
        )
    else:
        path, other = "src/jobs/export.js", "src/web/views.js"
        text = (
            "class Handler {{\n  {name}() {{\n    const table = " + LITERAL + ";\n"
            "    const out = [];\n    for (const item of this.items) {{\n"
            "      if (table.includes(item.key)) {{\n        out.push(item.value * this.scale);\n"
            "      }}\n    }}\n    return out;\n  }}\n\n  keep() {{\n    return 1;\n  }}\n}}\n"
        )
        stranger = (
            "class Handler {\n  get() {\n    return 1;\n  }\n\n  run() {\n    this.start();\n"
            "    this.serveForever();\n    this.wait();\n    this.stop();\n    return this.code;\n"
            "  }\n}\n"
        )
    repo.write(path, text.format(name="run"))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "Handler.run")]
    repo.write(path, text.format(name="execute"))
    repo.write(other, stranger)
    repo.commit("renamed in place; a stranger of its old name")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, path, "Handler.execute")
