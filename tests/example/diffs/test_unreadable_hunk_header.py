"""An `@@` line the reference cannot read silently shrinks the patch: an error (EP303)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import ALT_CORPUS, CORPUS
from tests.example.lint.test_lint_rules import GOOD, NAME


def test_garbage_hunk_header_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / NAME
    path.write_text(
        GOOD.replace(
            "@@ -1,3 +1,3 @@\n def main():\n     print", "@@ garbage\n def main():\n     print"
        )
    )
    assert main(["lint", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:32:1: EP303 [error] `@@ garbage` is not a hunk header the reference" in out


def test_count_mismatch_stays_tolerated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / NAME
    path.write_text(
        GOOD.replace(
            "@@ -1,3 +1,3 @@\n def main():\n     print", "@@ -1,7 +1,9 @@\n def main():\n     print"
        )
    )
    assert main(["lint", str(path)]) == 0
    assert "EP303" not in capsys.readouterr().out


def test_the_corpus_lints_without_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", str(CORPUS), str(ALT_CORPUS)]) == 0
    out = capsys.readouterr().out
    assert "[error]" not in out
    assert "EP303" not in out
