"""Definitions gone, with their siblings, to another owner (issue 29, with git history):
bstr 0.1.4 -> 0.2.0 moved the inherent `impl BStr` methods into the extension trait
`ByteSlice` of a new file (`BStr.trim` -> `ByteSlice.trim`), websockets 9.0 a test class's
methods into new classes of a new file, immer 6.0 a file's functions into a wrapper
function of another (`__extends` -> `enableMapSet.__extends`), hamcrest 2.1 renamed a test
class with its file. The bodies are short (under `MIN_BODY_CHARS`: no evidence alone); the
name, the siblings that went the same way, and a body alike are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Short bodies: `S.` is the receiver (`self.`, `this.`, `b.`).
MEMBERS = {
    "trim": "S.trim_with(SPACE)",
    "fields": "S.split_on(SPACE)",
    "lines": "S.split_on(NEWLINE)",
    "last": "S.get_last(0)",
}
LANGUAGES = ["rust", "python", "go", "typescript", "java"]
# Per language: the old file (it stays, with the type and one method), the new file.
PATHS = {
    "rust": ("src/bstr.rs", "src/ext_slice.rs", "src/ext_vec.rs"),
    "python": ("pkg/bstr.py", "pkg/ext_slice.py", "pkg/ext_vec.py"),
    "go": ("bstr/bstr.go", "bstr/ext_slice.go", "bstr/ext_vec.go"),
    "typescript": ("src/bstr.ts", "src/extSlice.ts", "src/extVec.ts"),
    "java": (
        "src/main/java/org/ex/BStr.java",
        "src/main/java/org/ex/ByteSlice.java",
        "src/main/java/org/ex/ByteVec.java",
    ),
}


def _name(language: str, name: str) -> str:
    return name.title() if language == "go" else name


def _member(language: str, owner: str, name: str, expr: str, new: bool) -> str:
    """A method of `owner`; `new`: as the new owner has it (another return type)."""
    name = _name(language, name)
    me = {"rust": "self.", "python": "self.", "go": "b."}.get(language, "this.")
    expr = expr.replace("S.", me)
    if language == "rust":
        kind = "fn" if new else "pub fn"
        out = "&[u8]" if new else "&BStr"
        return f"    {kind} {name}(&self) -> {out} {{\n        {expr}\n    }}\n"
    if language == "python":
        return f"    def {name}(self){' -> bytes' if new else ''}:\n        return {expr}\n"
    if language == "go":
        out = "[]byte" if new else "*BStr"
        return f"func (b *{owner}) {name}() {out} {{\n\treturn {expr}\n}}\n"
    if language == "typescript":
        return f"  {name}(): {'Uint8Array' if new else 'BStr'} {{\n    return {expr};\n  }}\n"
    head = "default byte[]" if new else "public BStr"
    return f"  {head} {name}() {{\n    return {expr};\n  }}\n"


def _owner(language: str, owner: str, members: dict[str, str], new: bool) -> str:
    body = "\n".join(_member(language, owner, n, e, new) for n, e in members.items())
    if language == "rust":
        head = (
            f"pub trait {owner}"
            if new
            else f"pub struct {owner} {{\n    bytes: Vec<u8>,\n}}\n\nimpl {owner}"
        )
        return f"{head} {{\n{body}}}\n"
    if language == "python":
        return f"class {owner}:\n{body}"
    if language == "go":
        return f"type {owner} struct {{\n\tbytes []byte\n}}\n\n{body}"
    if language == "typescript":
        return f"export class {owner} {{\n{body}}}\n"
    kind = "interface" if new else "class"
    return f"public {kind} {owner} {{\n{body}}}\n"


def _file(language: str, path: str, text: str) -> str:
    head = {"go": "package bstr\n\n", "java": "package org.ex;\n\n"}.get(language, "")
    return head + text


def _moved(repo: GitRepo, language: str, second: bool = False) -> tuple[str, str]:
    """The old revision and the gold ID of `BStr.trim`; the work tree has BStr's methods
    in the new trait `ByteSlice` (and, `second`, in `ByteVec` too), committed."""
    old_path, new_path, vec_path = PATHS[language]
    keep = {"keep": "S.len_of(0)"}
    repo.write(
        old_path, _file(language, old_path, _owner(language, "BStr", {**MEMBERS, **keep}, False))
    )
    old = repo.commit("inherent methods")
    gold = chunk_id(repo, old_path, f"BStr.{_name(language, 'trim')}")
    repo.write(old_path, _file(language, old_path, _owner(language, "BStr", keep, False)))
    repo.write(new_path, _file(language, new_path, _owner(language, "ByteSlice", MEMBERS, True)))
    if second:
        repo.write(vec_path, _file(language, vec_path, _owner(language, "ByteVec", MEMBERS, True)))
    repo.commit("methods moved to an extension trait")
    return old, gold


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_method_gone_with_its_siblings_to_a_new_owner_follows_them(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _moved(repo, language)
    _, new_path, _ = PATHS[language]
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    want = chunk_id(repo, new_path, f"ByteSlice.{_name(language, 'trim')}")
    assert (code, got[gold]["new_chunk_id"]) == (1, want)
    assert got[gold]["evidence"].startswith(
        f"moved from `BStr` to `ByteSlice` in {new_path} with 3 of its siblings, body 0."
    )
    code, _ = gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert code == 0
    assert want in (tmp_path / "set.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_new_owners_with_the_siblings_leave_it_to_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _moved(repo, language, second=True)
    _, new_path, vec_path = PATHS[language]
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert (code, got[gold]["status"], got[gold]["new_chunk_id"]) == (1, "ambiguous", None)
    trim = _name(language, "trim")
    assert set(got[gold]["candidates"]) >= {
        chunk_id(repo, new_path, f"ByteSlice.{trim}"),
        chunk_id(repo, vec_path, f"ByteVec.{trim}"),
    }
    before = (tmp_path / "set.jsonl").read_bytes()
    gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert (tmp_path / "set.jsonl").read_bytes() == before


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_method_alone_under_a_new_owner_is_not_followed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without siblings that went the same way, a same-named short method of a new type
    is no evidence: nothing is rewritten."""
    old_path, new_path, _ = PATHS[language]
    keep = {n: e for n, e in MEMBERS.items() if n != "trim"}
    repo.write(old_path, _file(language, old_path, _owner(language, "BStr", MEMBERS, False)))
    old = repo.commit("inherent methods")
    gold = chunk_id(repo, old_path, f"BStr.{_name(language, 'trim')}")
    repo.write(old_path, _file(language, old_path, _owner(language, "BStr", keep, False)))
    text = _owner(language, "ByteSlice", {"trim": MEMBERS["trim"]}, True)
    repo.write(new_path, _file(language, new_path, text))
    repo.commit("one method elsewhere")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert (code, got[gold]["new_chunk_id"]) == (1, None)


# immer 6.0: `src/extends.ts`'s functions nested in `enableMapSet()` of a new file that
# git pairs with nothing (per language: old path, new path, the old file, the new one).
WRAPPED = {
    "typescript": (
        "src/extends.ts",
        "src/plugins/mapset.ts",
        "export function {n}(d: any) {{\n  return {e}\n}}\n",
        "export function enableMapSet() {{\n{body}  return {{}}\n}}\n",
        "  function {n}(d: any) {{\n    return {e}\n  }}\n",
    ),
    "python": (
        "pkg/extends.py",
        "pkg/plugins/mapset.py",
        "def {n}(d):\n    return {e}\n\n\n",
        "def enable_map_set():\n{body}    return {{}}\n",
        "    def {n}(d):\n        return {e}\n\n",
    ),
    "rust": (
        "src/extends.rs",
        "src/plugins/mapset.rs",
        "pub fn {n}(d: u8) -> u8 {{\n    {e}\n}}\n\n",
        "pub fn enable_map_set() {{\n{body}}}\n",
        "    fn {n}(d: u8) -> u8 {{\n        {e}\n    }}\n",
    ),
}
HELPERS = {"extend_statics": "set_proto(d, 1)", "extends": "set_proto(d, 2)", "assign": "copy(d)"}


@pytest.mark.parametrize("language", list(WRAPPED))
def test_a_files_functions_nested_in_a_new_wrapper_follow_it(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_path, new_path, top, wrapper, nested = WRAPPED[language]
    repo.write(old_path, "".join(top.format(n=n, e=e) for n, e in HELPERS.items()))
    repo.write("src/keep.txt", "kept\n")
    old = repo.commit("helpers")
    gold = chunk_id(repo, old_path, "extends")
    repo.rm(old_path)
    body = "".join(nested.format(n=n, e=e.replace("d,", "d ,")) for n, e in HELPERS.items())
    # Enough new code that git pairs the old file with nothing.
    body += "".join(nested.format(n=f"other_{i}", e=f"work(d, {i})") for i in range(12))
    repo.write(new_path, wrapper.format(body=body))
    repo.commit("plugin")
    assert "R" not in repo.git("diff", "--name-status", "-M", "HEAD~1", "HEAD")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    outer = "enableMapSet" if language == "typescript" else "enable_map_set"
    want = chunk_id(repo, new_path, f"{outer}.extends")
    assert (code, got[gold]["new_chunk_id"]) == (1, want)
    assert got[gold]["evidence"].startswith(
        f"nested in `{outer}` in {new_path} with 2 other definitions of {old_path}, body "
    )


# hamcrest 2.1: `IsEqualIgnoringWhiteSpaceTest` renamed `IsEqualCompressingWhiteSpaceTest`
# with its file, in another module's folder (not its old scope), git pairing nothing.
RENAMED_TYPE = {
    "java": (
        "lib-unit-test/src/main/java/org/ex/text/IgnoringWhiteSpaceTest.java",
        "lib/src/test/java/org/ex/text/CompressingWhiteSpaceTest.java",
    ),
    "python": ("unit/text/test_ignoring.py", "tests/text/test_compressing.py"),
    "typescript": ("unit/text/ignoring.test.ts", "test/text/compressing.test.ts"),
}
TESTS = {
    "testPassesIfWordsAreSame": "check(matcher, 'a b', 'a  b')",
    "testFailsIfTextDiffers": "refuse(matcher, 'a b', 'a c')",
    "testIgnoresLeadingSpace": "check(matcher, 'a', ' a')",
    "testDescribesItself": "describes(matcher, 'a b')",
}


def _test_class(language: str, name: str, tests: dict[str, str], extra: str = "") -> str:
    if language == "java":
        methods = "".join(f"  public void {n}() {{\n    {e};\n  }}\n\n" for n, e in tests.items())
        return f"package org.ex.text;\n\npublic class {name} {{\n{methods}{extra}}}\n"
    if language == "python":
        methods = "".join(f"    def {n}(self):\n        {e}\n\n" for n, e in tests.items())
        return f"class {name}:\n{methods}{extra}"
    methods = "".join(f"  {n}() {{\n    {e};\n  }}\n\n" for n, e in tests.items())
    return f"export class {name} {{\n{methods}{extra}}}\n"


@pytest.mark.parametrize("language", list(RENAMED_TYPE))
def test_a_type_renamed_with_its_file_elsewhere_follows_its_members(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_path, new_path = RENAMED_TYPE[language]
    repo.write(old_path, _test_class(language, "IgnoringWhiteSpaceTest", TESTS))
    old = repo.commit("tests")
    gold = chunk_id(repo, old_path, "IgnoringWhiteSpaceTest")
    member = chunk_id(repo, old_path, "IgnoringWhiteSpaceTest.testFailsIfTextDiffers")
    repo.rm(old_path)
    kept = {n: e for n, e in TESTS.items() if n != "testIgnoresLeadingSpace"}
    # Tests added as the type was renamed: its body is no near one (under 0.8 alike).
    added = {
        "testCompressesTabs": "check(matcher, 'a\\tb', 'a b')",
        "testNull": "refuse(matcher, 'a', null)",
    }
    text = _test_class(language, "CompressingWhiteSpaceTest", kept | added)
    # A helper type beside it, enough that git pairs the old file with nothing.
    helper = {f"build{i}": f"make({i}, 'x', 'y')" for i in range(14)}
    helper_text = _test_class(language, "Helper", helper).removeprefix("package org.ex.text;\n\n")
    text += "\n" + helper_text.removeprefix("public ")
    repo.write(new_path, text)
    repo.commit("renamed, in another module")
    assert "R" not in repo.git("diff", "--name-status", "-M", "HEAD~1", "HEAD")
    code, got = gold_check(repo, tmp_path, capsys, [gold, member], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, new_path, "CompressingWhiteSpaceTest")
    assert got[gold]["evidence"].startswith(
        f"renamed `CompressingWhiteSpaceTest` in {new_path}, which took 3 of its 4 members"
    )
    want = chunk_id(repo, new_path, "CompressingWhiteSpaceTest.testFailsIfTextDiffers")
    assert got[member]["new_chunk_id"] == want


def _value_type(language: str, kind: str) -> str:
    name = f"{kind}Value"
    if language == "go":
        return (
            f"package cli\n\ntype {name} struct {{\n\tv *{kind}\n}}\n\n"
            f"func (x *{name}) Set(s string) error {{ return parse(s, x.v) }}\n\n"
            f"func (x *{name}) Get() any {{ return *x.v }}\n\n"
            f"func (x *{name}) String() string {{ return quote(x.Get()) }}\n"
        )
    return (
        f"class {name}:\n    def set(self, s):\n        return parse(s, self.v)\n\n"
        f"    def get(self):\n        return self.v\n\n"
        f"    def string(self):\n        return quote(self.get())\n"
    )


@pytest.mark.parametrize("language", ["go", "python"])
def test_a_type_gone_does_not_follow_another_gone_types_rename_elsewhere(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """urfave-cli: `uint64Value` removed while `float64Value` became `floatValue` in a new
    file git pairs with nothing: the new type holds the members of both."""
    ext = "go" if language == "go" else "py"
    repo.write(f"cli/flag_uint64.{ext}", _value_type(language, "uint64"))
    repo.write(f"cli/flag_float64.{ext}", _value_type(language, "float64"))
    old = repo.commit("two value types")
    get = "Get" if language == "go" else "get"
    ids = [
        chunk_id(repo, f"cli/flag_uint64.{ext}", "uint64Value"),
        chunk_id(repo, f"cli/flag_uint64.{ext}", f"uint64Value.{get}"),
    ]
    repo.rm(f"cli/flag_uint64.{ext}")
    repo.rm(f"cli/flag_float64.{ext}")
    renamed = _value_type(language, "float64").replace("float64Value", "floatValue")
    repo.write(f"flags/flag_float.{ext}", renamed)
    repo.commit("uint64 gone, float64Value is floatValue elsewhere")
    if language == "python":
        # The class's own body is identical there (its kind is in no line): that says
        # `body identical, found once`, another rule's evidence; its member is this one's.
        ids = ids[1:]
    code, got = gold_check(repo, tmp_path, capsys, ids, old)
    assert code == 1
    assert [got[i]["new_chunk_id"] for i in ids] == [None] * len(ids)


def _serializer(name: str, error: str) -> str:
    """A type implementing a trait: its members are the trait's names, every implementor's."""
    methods = "".join(
        f"    fn serialize_{kind}(self, v: {kind}) -> Result<String, Error> {{\n"
        f'        Err(Error::{error}("{kind}", v.to_string()))\n    }}\n'
        for kind in ("bool", "i64", "u64", "f64")
    )
    return f"struct {name};\n\nimpl ser::Serializer for {name} {{\n{methods}}}\n\n"


def test_a_rival_implementor_in_the_same_file_leaves_the_rename_to_a_person(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """toml 0.7: `ser.rs`'s `StringExtractor`, `DateStrEmitter` and `Categorize`, each a
    `ser::Serializer`, gone; a new `KeySerializer` in `toml_edit` holds the trait's names
    as each did: which one it renames, the names do not say."""
    keep = "pub fn to_string(v: &Value) -> String {\n    v.render()\n}\n"
    repo.write(
        "src/ser.rs",
        keep
        + "\n"
        + _serializer("StringExtractor", "Unsupported")
        + _serializer("Emitter", "Date"),
    )
    old = repo.commit("two implementors")
    gold = chunk_id(repo, "src/ser.rs", "StringExtractor")
    repo.write("src/ser.rs", keep)
    repo.write("edit/src/key.rs", "pub " + _serializer("KeySerializer", "Unsupported"))
    repo.commit("one, elsewhere")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] is None
    assert got[gold]["kind"] in ("missing_symbol", "ambiguous")
