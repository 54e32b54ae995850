"""A same-name match through a file rename git detected is doubted when the evidence is
split (issue 29, zod v3.24.4 -> v3.25.9): the old file had a generated twin at the
revision, the twin's rename took the file most like both, and git paired the old file
with what was left (a port that kept half of it). The name is in both new files with the
same body: the ID is ambiguous, never rewritten onto git's pairing."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Per language: the test file's name, its header (`{src}`: the package it imports), its
# blocks (the second defines `unioned`, the ID), blocks a port adds, and the symbol.
TS_BLOCKS = [
    'test("merged object", () => {\n'
    "  const Merged = z.object({ a: z.string().optional() }).merge(z.object({ b: z.string() }));\n"
    "  type Merged = z.infer<typeof Merged>;\n"
    "  util.assertEqual<Merged, { a?: string; b: string }>(true);\n});\n",
    'test("inferred unioned object type with optional properties", async () => {\n'
    "  const Unioned = z.union([\n"
    "    z.object({ a: z.string(), b: z.string().optional() }),\n"
    "    z.object({ a: z.string().optional(), b: z.string() }),\n  ]);\n"
    "  type Unioned = z.infer<typeof Unioned>;\n"
    "  util.assertEqual<Unioned, { a: string; b?: string } | { a?: string; b: string }>(true);\n"
    "});\n",
    'test("inferred enum type", async () => {\n'
    "  const Enum = z.object({ a: z.string(), b: z.string().optional() }).keyof();\n"
    '  expect(Enum.Values).toEqual({ a: "a", b: "b" });\n'
    '  expect(Enum._def.values).toEqual(["a", "b"]);\n});\n',
    'test("strict object", () => {\n'
    "  const strict = z.object({ points: z.number() }).strict();\n"
    "  expect(() => strict.parse({ points: 2, unknown: 1 })).toThrow();\n"
    "  expect(strict.parse({ points: 2 })).toEqual({ points: 2 });\n});\n",
    'test("passthrough keeps unknown keys", () => {\n'
    "  const loose = z.object({ name: z.string() }).passthrough();\n"
    '  const data = { name: "asdf", extra: 1234 };\n'
    "  expect(loose.parse(data)).toEqual(data);\n});\n",
    'test("catchall infers its type", () => {\n'
    "  const withCatchall = z.object({ first: z.string() }).catchall(z.number());\n"
    "  type Catchall = z.infer<typeof withCatchall>;\n"
    "  util.assertEqual<Catchall, { first: string } & { [k: string]: number }>(true);\n"
    "});\n",
]
TS_ADDED = [
    'test("shape getter", () => {\n'
    "  const schema = z.object({ alpha: z.string() });\n"
    '  expect(Object.keys(schema.shape)).toEqual(["alpha"]);\n});\n',
    'test("keyof a record", () => {\n'
    "  const keys = z.record(z.string(), z.boolean()).keySchema;\n"
    '  expect(keys.parse("abc")).toEqual("abc");\n});\n',
    'test("extend overrides a key", () => {\n'
    "  const base = z.object({ id: z.string() });\n"
    "  const extended = base.extend({ id: z.number() });\n"
    "  expect(extended.parse({ id: 1 })).toEqual({ id: 1 });\n});\n",
    'test("required makes every key required", () => {\n'
    "  const required = z.object({ x: z.string().optional() }).required();\n"
    "  expect(() => required.parse({})).toThrow();\n});\n",
]
PY_BLOCKS = [
    "def test_merged():\n"
    "    merged = schema.obj(a=schema.text(optional=True)).merge(schema.obj(b=schema.text()))\n"
    '    assert merged.keys() == ["a", "b"]\n',
    "def unioned():\n"
    "    return schema.union(schema.obj(a=schema.text(), b=schema.text(optional=True)),\n"
    "                        schema.obj(a=schema.text(optional=True), b=schema.text()))\n",
    "def test_enum():\n"
    "    enum = schema.obj(a=schema.text(), b=schema.text(optional=True)).keyof()\n"
    '    assert enum.values == {"a": "a", "b": "b"}\n'
    '    assert enum.options == ["a", "b"]\n',
    "def test_strict():\n"
    "    strict = schema.obj(points=schema.number()).strict()\n"
    "    with pytest.raises(schema.Invalid):\n"
    '        strict.parse({"points": 2, "unknown": 1})\n',
    "def test_passthrough():\n"
    "    loose = schema.obj(name=schema.text()).passthrough()\n"
    '    data = {"name": "asdf", "extra": 1234}\n'
    "    assert loose.parse(data) == data\n",
    "def test_catchall():\n"
    "    with_catchall = schema.obj(first=schema.text()).catchall(schema.number())\n"
    '    assert with_catchall.parse({"first": "a", "n": 1}) == {"first": "a", "n": 1}\n',
]
PY_ADDED = [
    'def test_shape():\n    assert list(schema.obj(alpha=schema.text()).shape) == ["alpha"]\n',
    "def test_record_keys():\n"
    "    keys = schema.record(schema.text(), schema.boolean()).key_schema\n"
    '    assert keys.parse("abc") == "abc"\n',
    "def test_extend():\n"
    "    extended = schema.obj(id=schema.text()).extend(id=schema.number())\n"
    '    assert extended.parse({"id": 1}) == {"id": 1}\n',
    "def test_required():\n"
    "    required = schema.obj(x=schema.text(optional=True)).required()\n"
    "    with pytest.raises(schema.Invalid):\n        required.parse({})\n",
]
SHAPES = {
    "typescript": (
        "object.test.ts",
        'import { z } from "{src}/index";\nimport { util } from "{src}/helpers/util";\n\n',
        TS_BLOCKS,
        TS_ADDED,
        "Unioned",
    ),
    "python": (
        "test_object.py",
        "import pytest\n\nfrom {src} import schema\n\n\n",
        PY_BLOCKS,
        PY_ADDED,
        "unioned",
    ),
}
LANGUAGES = list(SHAPES)


def module_text(header: str, src: str, blocks: list[str]) -> str:
    return header.replace("{src}", src) + "\n\n".join(blocks)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rename_git_paired_against_a_better_partner_is_ambiguous(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, header, blocks, added, symbol = SHAPES[language]
    source, twin = f"src/tests/{name}", f"deno/lib/tests/{name}"
    repo.write(source, module_text(header, "..", blocks))
    repo.write(twin, module_text(header, "../mod", blocks))  # generated from src/: one line apart
    old = repo.commit("a test module and its generated twin")
    gold = [chunk_id(repo, twin, symbol), chunk_id(repo, source, symbol)]
    v3, v4 = f"packages/v3/tests/{name}", f"packages/v4/tests/{name}"
    repo.mv(source, v3)
    repo.write(v3, module_text(header, "../..", blocks[:5]))
    repo.rm(twin)
    repo.write(v4, module_text(header, "../v4", [*blocks[1:5], *added[:2]]))
    head = repo.commit("v3 keeps the module; v4 ports half of it; the twin goes")
    status = repo.git("diff", "-M", "--name-status", "--diff-filter=R", old, "HEAD").split()
    assert set(zip(status[1::3], status[2::3], strict=True)) == {(twin, v4), (source, v3)}

    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    doubted = got[gold[0]]
    assert (doubted["status"], doubted["new_chunk_id"]) == ("ambiguous", None)
    assert doubted["evidence"] is None
    homes = [chunk_id(repo, v4, symbol), chunk_id(repo, v3, symbol)]
    assert sorted(doubted["candidates"]) == sorted(homes)
    # The twin's source follows its own rename, undisturbed.
    assert (got[gold[1]]["status"], got[gold[1]]["new_chunk_id"]) == ("renamed_file", homes[1])

    eval_set = tmp_path / "set.jsonl"
    doubted_line, followed_line = eval_set.read_text(encoding="utf-8").splitlines(True)
    argv = ["gold", "check", str(eval_set), "--root", str(repo.path), "--no-cache", "--fix"]
    assert main(argv) == 1
    capsys.readouterr()
    followed_line = followed_line.replace(gold[1], homes[1]).replace(old, head)
    assert eval_set.read_text(encoding="utf-8") == doubted_line + followed_line


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_namesake_in_a_file_less_like_the_old_one_does_not_doubt_a_rename(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy of the definition in another new file is not split evidence when that file
    holds less of the old one than the file git paired it with."""
    name, header, blocks, added, symbol = SHAPES[language]
    source = f"src/tests/{name}"
    repo.write(source, module_text(header, "..", blocks))
    old = repo.commit("a test module")
    gold = chunk_id(repo, source, symbol)
    moved, other = f"packages/tests/{name}", f"packages/tests/extra_{name}"
    repo.mv(source, moved)
    repo.write(moved, module_text(header, "../..", [*blocks[:4], added[0]]))
    repo.write(other, module_text(header, "../..", [blocks[1], *added[1:]]))
    repo.commit("moved and edited; a copy of one definition in a new file")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    home = chunk_id(repo, moved, symbol)
    assert (got[gold]["status"], got[gold]["new_chunk_id"]) == ("renamed_file", home)
