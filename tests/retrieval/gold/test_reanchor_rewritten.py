"""A definition moved to a new file of another folder and rewritten on the way (a crate's
`nfa.rs` split into `nfa/noncontiguous.rs`, a module's helpers moved to `options.ts`):
no body is near enough to place it, but its name is defined once, in a definition new
since the revision that keeps half of the old body. Seen on held-out release pairs
(aho-corasick 0.7.20 -> 1.0.0, got v11.8.6 -> v12.0.0) of issue 29."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# language: old file, new file (another folder, another name), name, old body, new body
# (0.6-0.8 alike: under a near body's 0.8), an unrelated body of the same name.
REWRITTEN = {
    "python": (
        "pkg/util.py",
        "lib/paths/cleaning.py",
        "normalize_path",
        'def normalize_path(path, base):\n    parts = path.split("/")\n'
        '    parts = [p for p in parts if p and p != "."]\n    if base:\n'
        '        parts.insert(0, base)\n    return "/".join(parts)\n',
        'def normalize_path(path, base, sep="/"):\n'
        '    parts = [p for p in path.split(sep) if p and p != "."]\n    if base:\n'
        "        parts = [base, *parts]\n    joined = sep.join(parts)\n    return joined\n",
        "def normalize_path(request):\n    request.headers.clear()\n"
        "    request.cookies.update(session=None)\n    return request.send(timeout=30)\n",
    ),
    "rust": (
        "src/util.rs",
        "src/paths/cleaning.rs",
        "normalize_path",
        "pub fn normalize_path(path: &str, base: &str) -> String {\n"
        "    let mut parts: Vec<&str> = path.split('/').collect();\n"
        '    parts.retain(|p| !p.is_empty() && *p != ".");\n    if !base.is_empty() {\n'
        '        parts.insert(0, base);\n    }\n    parts.join("/")\n}\n',
        "pub fn normalize_path(path: &str, base: &str, sep: char) -> String {\n"
        '    let parts = path.split(sep).filter(|p| !p.is_empty() && *p != ".");\n'
        "    let mut out: Vec<&str> = Vec::new();\n    if !base.is_empty() {\n"
        "        out.push(base);\n    }\n    out.extend(parts);\n"
        "    out.join(&sep.to_string())\n}\n",
        "pub fn normalize_path(request: &mut Request) -> Response {\n"
        "    request.headers.clear();\n    request.cookies.insert(SESSION, None);\n"
        "    request.send(Duration::from_secs(30))\n}\n",
    ),
    "typescript": (
        "src/util.ts",
        "src/paths/cleaning.ts",
        "normalizePath",
        "export function normalizePath(path: string, base: string): string {\n"
        '  let parts = path.split("/");\n  parts = parts.filter((p) => p && p !== ".");\n'
        '  if (base) {\n    parts.unshift(base);\n  }\n  return parts.join("/");\n}\n',
        'export function normalizePath(path: string, base: string, sep = "/"): string {\n'
        '  const parts = path.split(sep).filter((p) => p && p !== ".");\n  if (base) {\n'
        "    return [base, ...parts].join(sep);\n  }\n  const joined = parts.join(sep);\n"
        "  return joined;\n}\n",
        "export function normalizePath(request: Request): Response {\n"
        "  request.headers.clear();\n  request.cookies.set(SESSION, undefined);\n"
        "  return request.send({ timeout: 30 });\n}\n",
    ),
}
KEEP = {
    "python": "def keep():\n    return 1\n\n\n",
    "rust": "pub fn keep() -> i32 {\n    1\n}\n\n",
    "typescript": "export function keep(): number {\n  return 1;\n}\n\n",
}


def _moved(repo: GitRepo, language: str, new_body: int) -> tuple[str, str]:
    """The old revision and the gold ID; the work tree has the function moved with the
    body REWRITTEN[language][new_body] (committed)."""
    old_path, new_path, name, before, *after = REWRITTEN[language]
    repo.write(old_path, KEEP[language] + before)
    old = repo.commit("helper")
    gold = chunk_id(repo, old_path, name)
    repo.write(old_path, KEEP[language])
    repo.write(new_path, KEEP[language].replace("keep", "other") + after[new_body])
    repo.commit("helper moved and rewritten")
    return old, gold


@pytest.mark.parametrize("language", list(REWRITTEN))
def test_a_rewritten_definition_moved_elsewhere_is_found_by_its_one_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _moved(repo, language, 0)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    _, new_path, name, *_ = REWRITTEN[language]
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, new_path, name),
    )
    assert got[gold]["evidence"].startswith("name defined once in the tree, body 0.")
    code, _ = gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert code == 0
    assert chunk_id(repo, new_path, name) in (tmp_path / "set.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", list(REWRITTEN))
def test_a_namesake_that_kept_little_of_the_body_is_no_new_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _moved(repo, language, 1)
    set_path = tmp_path / "set.jsonl"
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("missing_symbol", None)
    before = set_path.read_bytes()
    gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert set_path.read_bytes() == before


# A file git says was moved, where the ID's definition now sits inside a scope that gained
# a name (got's anonymous default export became `function timedOut`; a Python function
# moved into a class). Unchanged neighbours keep the file alike enough for git's pairing.
ENCLOSED = {
    "typescript": (
        "source/utils/timed-out.ts",
        "source/timed-out.ts",
        "cancelTimeouts",
        "timedOut.cancelTimeouts",
        "export default (request: Request, delay: number): (() => void) => {\n",
        "export default function timedOut(request: Request, delay: number): () => void {\n",
        "  const timers: number[] = [];\n  const cancelTimeouts = (): void => {\n"
        "    for (const timer of timers) {\n      clearTimeout(timer);\n    }\n"
        "    timers.length = 0;\n  };\n"
        "  timers.push(setTimeout(() => request.abort(), delay));\n  return cancelTimeouts;\n",
        ("};\n", "}\n"),
        "".join(f"export const limit{i} = (n: number): number => n * {i};\n" for i in range(12)),
    ),
    "python": (
        "pkg/backoff.py",
        "pkg/retry/backoff.py",
        "retry_delay",
        "Backoff.retry_delay",
        "",
        "class Backoff:\n",
        "def retry_delay(attempt, base=0.5, cap=30.0):\n    delay = base * (2 ** attempt)\n"
        "    if delay > cap:\n        delay = cap\n    return delay + time.monotonic() % 0.1\n",
        ("", ""),
        "import time\n\n"
        + "".join(f"\n\ndef limit{i}(n):\n    return n * {i}\n" for i in range(12)),
    ),
}


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_definition_now_inside_a_named_scope_of_its_moved_file_is_followed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_path, new_path, name, new_name, head, new_head, body, tails, rest = ENCLOSED[language]
    nested = body if language != "python" else "".join(f"    {x}\n" for x in body.splitlines())
    repo.write(old_path, f"{rest}\n\n{head}{body}{tails[0]}")
    old = repo.commit("helper")
    gold = chunk_id(repo, old_path, name)
    repo.mv(old_path, new_path)
    repo.write(new_path, f"{rest}\n\n{new_head}{nested}{tails[1]}")
    repo.commit("moved into a named scope")
    assert repo.git("diff", "--name-status", "-M", "HEAD~1", "HEAD").startswith("R")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, new_path, new_name),
    )
    assert got[gold]["evidence"] == (
        "its name in a named scope in the file git moved it to, body 1.00 alike"
    )
