"""Numbers of thousands of digits in an example are findings at their line, not a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main

HUGE = "9" * 5000
EXAMPLE = """+++
repository_url = "https://github.com/owner/repo"
revision = "0123456789abcdef0123456789abcdef01234567"
+++

## Recently Opened Files

```
src/a.rs\t{position}
```

## Cursor Position

```src/lib.rs
fn main() {{
    let x = 1;
    //    ^[CURSOR_POSITION]
}}
```

## Expected Patch

```diff
--- a/src/lib.rs
+++ b/src/lib.rs
@@ -{start},3 +1,3 @@
 fn main() {{
-    let x = 1;
+    let x = 2;
 }}
```
"""


def write(tmp_path: Path, name: str, position: str, start: str) -> Path:
    path = tmp_path / name
    path.write_text(EXAMPLE.format(position=position, start=start), encoding="utf-8")
    return path


def test_huge_recent_file_position_is_a_finding_and_the_run_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "repo--huge-position.md", HUGE, "1")
    other = write(tmp_path, "repo--other.md", "3", "1")
    other.write_text(other.read_text().replace('revision = "0', 'revision = 0"'))
    assert main(["lint", str(bad), str(other)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:9:10: EP112 " in out
    assert "is not a line position the reference can read" in out
    assert f"{other}:3:13: EP003 " in out  # the second file was still checked
    assert "internal error" not in out


def test_huge_hunk_start_is_an_unreadable_header_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "repo--huge-start.md", "3", HUGE)
    assert main(["lint", "--select", "EP3", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:26:1: EP303 [error] `@@ -9999" in out
    assert "is not a hunk header the reference can read" in out


@pytest.mark.parametrize("command", [["roundtrip"], ["convert", "--to", "json", "-o", "OUT"]])
def test_roundtrip_and_convert_read_a_huge_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    bad = write(tmp_path, "repo--huge-position.md", HUGE, "1")
    argv = [str(tmp_path / "out.json") if a == "OUT" else a for a in command]
    rc = main([*argv, str(bad)])
    captured = capsys.readouterr()
    assert rc in (0, 1)
    assert "internal error" not in captured.err + captured.out
