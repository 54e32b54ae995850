"""The golden files' regeneration keeps what exists unless told to replace it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import golden, regenerate_golden


def test_regeneration_refuses_to_overwrite_without_the_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    assert regenerate_golden.main(["lint-causes"]) == 0
    written = tmp_path / "lint-causes.json"
    written.write_text("{}\n")
    assert regenerate_golden.main(["lint-causes"]) == 1
    assert written.read_text() == "{}\n"
    assert "exists, kept (pass --overwrite to replace it)" in capsys.readouterr().err
    assert regenerate_golden.main(["lint-causes", "--overwrite"]) == 0
    assert (
        written.read_bytes()
        == (Path(__file__).parent / "data/golden/lint-causes.json").read_bytes()
    )
