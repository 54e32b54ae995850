"""A name defined several times in one file (`#[cfg]` variants, `if`/`else` twins, Java
overloads) and fewer times now: with history, which old variant the one left is, by its
body; an ID whose variant was dropped is `hollowed`, never moved onto another's; copies of
one body go together."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


# Two variants of one definition, each its own code; then one is dropped and the other
# edited a little (nom 7 dropped the `lexical` variant of `double`).
DROPPED = {
    "rust": (
        "paths.rs",
        "#[cfg(unix)]\npub fn home_dir() -> Option<String> {\n"
        '    let home = std::env::var("HOME").ok()?;\n'
        "    if home.is_empty() {\n        return None;\n    }\n"
        "    Some(home.trim_end_matches('/').to_string())\n}\n\n"
        "#[cfg(windows)]\npub fn home_dir() -> Option<String> {\n"
        "    use std::os::windows::ffi::OsStringExt;\n"
        "    let wide: Vec<u16> = known_folder(FOLDERID_PROFILE, KF_FLAG_DEFAULT)?;\n"
        "    let path = std::ffi::OsString::from_wide(&wide[..wide.len() - 1]);\n"
        "    path.into_string().map_err(drop).and_then(non_empty).ok()\n}\n",
        "home_dir",
        ("return None;", "return Some(String::new());"),
    ),
    "python": (
        "paths.py",
        'import os\nimport sys\n\nif sys.platform != "win32":\n    def home_dir():\n'
        '        home = os.environ.get("HOME", "") or os.path.expanduser("~")\n'
        "        if not home:\n            return None\n        return home.rstrip('/')\nelse:\n"
        "    def home_dir():\n        import ctypes.wintypes\n"
        "        buffer = ctypes.create_unicode_buffer(ctypes.wintypes.MAX_PATH)\n"
        "        ctypes.windll.shell32.SHGetFolderPathW(None, 40, None, 0, buffer)\n"
        "        return buffer.value\n",
        "home_dir",
        ("return None", "return ''"),
    ),
    "java": (
        "Paths.java",
        "public class Paths {\n    public static String join(String a, String b) {\n"
        "        if (b.isEmpty()) {\n            return a;\n        }\n"
        '        return a.endsWith("/") ? a + b : a + "/" + b;\n    }\n\n'
        "    public static String join(String a, int count) {\n"
        "        StringBuilder out = new StringBuilder(a);\n"
        '        out.append("#").append(Integer.toString(count));\n'
        "        return out.toString();\n    }\n}\n",
        "Paths.join",
        ("return a;", "return a.trim();"),
    ),
}


@pytest.mark.parametrize("language", list(DROPPED))
def test_a_dropped_variant_is_not_moved_onto_the_one_kept(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol, (before, after) = DROPPED[language]
    repo.write(path, text)
    old = repo.commit("two variants")
    kept, dropped = chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)
    first = text[: text.index(dropped_start(language))]
    closing = "}\n" if language == "java" else ""
    comment = "# one\n" if language == "python" else "// one\n"
    repo.write(path, comment + first.replace(before, after) + closing)
    repo.commit("one variant")
    new = chunk_id(repo, path, symbol)
    code, got = gold_check(repo, tmp_path, capsys, [kept, dropped], old)
    assert code == 1
    assert (got[kept]["kind"], got[kept]["new_chunk_id"]) == ("moved", new)
    assert (got[dropped]["kind"], got[dropped]["new_chunk_id"]) == ("hollowed", None)
    assert got[dropped]["candidates"] == [new]
    lines = new.split(":")[1]
    said = f"`{symbol}` was defined 2 times in {path} at the revision and is once in {path}, "
    assert f"{said}at lines {lines}, which kept" in got[dropped]["message"]


def dropped_start(language: str) -> str:
    """Where the second variant starts in `DROPPED`'s text."""
    return {
        "rust": "#[cfg(windows)]",
        "python": "else:",
        "java": "    public static String join(String a, int",
    }[language]


def test_a_dropped_short_variant_is_not_moved_onto_the_long_one_kept(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """click 8 dropped its Python 2 branch: the 3-line `get_binary_stderr` there is gone,
    the one left is the Python 3 one (its own body says so, however short the ID's)."""
    py2 = "if PY2:\n    def stderr():\n        wrap('stderr')\n        return binary(sys.stderr)\n"
    py3 = (
        "else:\n    def stderr():\n        writer = find_binary_writer(sys.stderr)\n"
        "        if writer is None:\n"
        "            raise RuntimeError('no binary stream for sys.stderr')\n"
        "        return writer\n"
    )
    repo.write("compat.py", "import sys\n\n" + py2 + py3)
    old = repo.commit("two branches")
    short, long = chunk_id(repo, "compat.py", "stderr", 0), chunk_id(repo, "compat.py", "stderr", 1)
    kept = py3.replace("else:\n", "").replace("\n    ", "\n")[4:]
    repo.write("compat.py", "import sys\n\n\n" + kept)
    repo.commit("Python 3 only")
    new = chunk_id(repo, "compat.py", "stderr")
    code, got = gold_check(repo, tmp_path, capsys, [short, long], old)
    assert code == 1
    assert (got[long]["kind"], got[long]["new_chunk_id"]) == ("moved", new)
    assert (got[short]["kind"], got[short]["candidates"]) == ("hollowed", [new])


# `DROPPED`'s variants both replaced by one written anew, a little more like the first
# (commons-dbcp 2.0 replaced fifteen `PoolableConnectionFactory` constructors with one).
REWRITTEN = {
    "rust": "pub fn home_dir() -> Option<String> {\n"
    "    let mut buffer = Vec::with_capacity(256);\n    platform::fill_home(&mut buffer).ok()?;\n"
    "    let text = String::from_utf8(buffer).ok()?;\n"
    "    let checked = platform::check(&text, Policy::Strict);\n"
    '    log::debug!("home: {}", text);\n    checked.map(|_| text)\n'
    "}\n",
    "python": "import os\n\n\ndef home_dir():\n"
    '    return os.path.expanduser("~").rstrip("/") or None\n',
    "java": "public class Paths {\n    public static String join(String a, String b) {\n"
    '        return String.join("/", a, b);\n    }\n}\n',
}


@pytest.mark.parametrize("language", list(DROPPED))
def test_of_variants_replaced_by_one_new_the_less_alike_is_hollowed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No variant kept half of its body in the one definition left: the one it is most like
    may be rewritten there; another, no more alike, is not moved onto it on its name."""
    path, text, symbol, _ = DROPPED[language]
    repo.write(path, text)
    old = repo.commit("two variants")
    like, unlike = chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)
    repo.write(path, REWRITTEN[language])
    repo.commit("one written anew")
    new = chunk_id(repo, path, symbol)
    code, got = gold_check(repo, tmp_path, capsys, [like, unlike], old)
    assert code == 1
    assert (got[like]["kind"], got[like]["new_chunk_id"]) == ("moved", new)
    assert (got[unlike]["kind"], got[unlike]["candidates"]) == ("hollowed", [new])


# Twins with one body under a decorator: (the old text, the IDs, the new text, the one left).
COPIES = (
    "import sys\nif sys.version_info >= (3,):\n    @cache\n    def load(url):\n"
    "        data = fetch_remote(url, timeout=30)\n        return data\nelse:\n"
    "    @cache\n    def load(url):\n        data = fetch_remote(url, timeout=30)\n"
    "        return data\n"
)


@pytest.mark.parametrize(
    ("gold", "rewritten"),
    [
        (["m.py:3-6:load", "m.py:8-11:load"], False),
        (["m.py:4-6:load", "m.py:9-11:load"], False),  # drawn without their decorator
        (["m.py:3-6:load", "m.py:8-11:load"], True),
    ],
)
def test_copies_of_one_body_merged_go_together(
    gold: list[str],
    rewritten: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Review repros: one copy tells nothing of the other, kept as it was (whatever span
    another chunker drew) or rewritten."""
    repo.write("m.py", COPIES)
    old = repo.commit("twins")
    body = "    with session() as s:\n        return s.get(url).text\n"
    if not rewritten:
        body = "    data = fetch_remote(url, timeout=30)\n    return data\n"
    repo.write("m.py", "import sys\n\n\n@cache\ndef load(url):\n" + body)
    repo.commit("one left")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("moved", "m.py:4-7:load")
    ] * 2
