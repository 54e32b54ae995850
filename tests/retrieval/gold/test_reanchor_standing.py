"""Plain trees (issue 29): a namesake in another package or module that may have stood there
all along is not where a gold ID went. Seen on viper (`internal/encoding/ini` removed: its
`Codec.Encode` and `flattenAndMergeMap` were put onto dotenv's, there since long) and on
indexmap (`src/map.rs`'s `mod tests` moved out: `tests.insert_order` was put onto
`src/rayon/set.rs`'s own test of that name). The same constructs in every language."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# One codec type per format package (`ini`, `dotenv`, `json`), its two methods, and a
# helper function; `Fmt`/`fmt` are replaced by the format. Path, text, method, helper.
CODEC = {
    "go": (
        "codec/fmt/codec.go",
        "package fmt\n\ntype Codec struct{}\n\n"
        "func (Codec) Encode(v map[string]any) ([]byte, error) {\n"
        '\tout := flattenAndMerge(v, "fmt")\n\treturn render(out), nil\n}\n\n'
        "func (Codec) Decode(b []byte, v map[string]any) error {\n"
        '\treturn parse(b, v, "fmt")\n}\n\n'
        "func flattenAndMerge(m map[string]any, prefix string) map[string]any {\n"
        "\tout := map[string]any{}\n\tfor k, v := range m {\n"
        '\t\tout[prefix+"."+k] = v\n\t}\n\treturn out\n}\n',
        "Codec.Encode",
        "flattenAndMerge",
    ),
    "python": (
        "codec/fmt/codec.py",
        "class Codec:\n    def encode(self, value):\n"
        '        out = flatten_and_merge(value, "fmt")\n        return render(out)\n\n'
        "    def decode(self, data):\n"
        '        return parse(data, "fmt")\n\n\n'
        "def flatten_and_merge(value, prefix):\n    out = {}\n"
        "    for key, item in value.items():\n"
        '        out[prefix + "." + key] = item\n    return out\n',
        "Codec.encode",
        "flatten_and_merge",
    ),
    "typescript": (
        "src/fmt/codec.ts",
        "export class Codec {\n  encode(value: Record<string, unknown>): string {\n"
        '    const out = flattenAndMerge(value, "fmt");\n    return render(out);\n  }\n\n'
        "  decode(data: string): Record<string, unknown> {\n"
        '    return parse(data, "fmt");\n  }\n}\n\n'
        "export function flattenAndMerge(value: Record<string, unknown>, prefix: string) {\n"
        "  const out: Record<string, unknown> = {};\n"
        "  for (const [key, item] of Object.entries(value)) {\n"
        '    out[prefix + "." + key] = item;\n  }\n  return out;\n}\n',
        "Codec.encode",
        "flattenAndMerge",
    ),
    "rust": (
        "src/fmt/codec.rs",
        "pub struct Codec;\n\nimpl Codec {\n"
        "    pub fn encode(&self, value: &Map) -> String {\n"
        '        let out = flatten_and_merge(value, "fmt");\n        render(&out)\n    }\n\n'
        "    pub fn decode(&self, data: &str) -> Map {\n"
        '        parse(data, "fmt")\n    }\n}\n\n'
        "pub fn flatten_and_merge(value: &Map, prefix: &str) -> Map {\n"
        "    let mut out = Map::new();\n    for (key, item) in value {\n"
        '        out.insert(format!("{}.{}", prefix, key), item.clone());\n    }\n    out\n}\n',
        "Codec.encode",
        "flatten_and_merge",
    ),
    "java": (
        "src/main/java/codec/fmt/Codec.java",
        "package codec.fmt;\n\nimport java.util.Map;\n\npublic class Codec {\n"
        "    public String encode(Map<String, Object> value) {\n"
        '        Map<String, Object> out = Maps.flattenAndMerge(value, "fmt");\n'
        "        return Render.render(out);\n    }\n\n"
        "    public Map<String, Object> decode(String data) {\n"
        '        return Parse.parse(data, "fmt");\n    }\n\n'
        "    static Map<String, Object> flattenAndMerge(Map<String, Object> value, String p) {\n"
        "        Map<String, Object> out = new java.util.HashMap<>();\n"
        "        for (Map.Entry<String, Object> e : value.entrySet()) {\n"
        '            out.put(p + "." + e.getKey(), e.getValue());\n        }\n'
        "        return out;\n    }\n}\n",
        "Codec.encode",
        "Codec.flattenAndMerge",
    ),
}
LANGUAGES = list(CODEC)


def codec_path(language: str, fmt: str) -> str:
    return CODEC[language][0].replace("fmt", fmt)


def write_codec(repo: GitRepo, language: str, fmt: str) -> str:
    path, text = codec_path(language, fmt), CODEC[language][1]
    repo.write(path, text.replace("fmt", fmt))
    return path


def decode_of(language: str) -> str:
    return CODEC[language][2].replace("encode", "decode").replace("Encode", "Decode")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_removed_packages_method_is_not_put_onto_one_more_twin(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`Codec.encode` in every format package; `ini` removed. The set names json's, still
    there: the name stood in several packages then, and dotenv's is one more of them."""
    ini, dotenv, json = (write_codec(repo, language, f) for f in ("ini", "dotenv", "json"))
    old = repo.commit("three codecs")
    method = CODEC[language][2]
    gold = chunk_id(repo, ini, method)
    there = chunk_id(repo, json, method)
    repo.rm(ini)
    repo.commit("the ini codec removed")
    ids = [gold, there]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    item = got[gold]
    assert (item["kind"], item["new_chunk_id"], item["evidence"]) == ("missing_file", None, None)
    assert chunk_id(repo, dotenv, method) in item["candidates"]
    assert got[there]["kind"] == "ok"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_removed_packages_names_are_not_put_into_a_package_that_stood_there(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ini` and `dotenv` alike, `ini` removed: its method and its helper are now defined
    once in the tree, in dotenv, which the set shows was there (its `decode`)."""
    ini, dotenv = (write_codec(repo, language, f) for f in ("ini", "dotenv"))
    old = repo.commit("two codecs")
    _, _, method, helper = CODEC[language]
    gold = [chunk_id(repo, ini, method), chunk_id(repo, ini, helper)]
    there = chunk_id(repo, dotenv, decode_of(language))
    repo.rm(ini)
    repo.commit("the ini codec removed")
    ids = [*gold, there]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("missing_file", None)] * 2
    assert got[gold[0]]["candidates"][0] == chunk_id(repo, dotenv, method)
    assert got[there]["kind"] == "ok"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_method_moved_to_a_new_package_still_follows_its_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same set, but the ini codec moved to a package that did not stand there (its
    type renamed `IniCodec` in the move, so that its name is its own): it follows."""
    ini, dotenv = (write_codec(repo, language, f) for f in ("ini", "dotenv"))
    text = repo.read(ini).replace("Codec", "IniCodec")
    repo.write(ini, text)
    old = repo.commit("two codecs")
    method = CODEC[language][2].replace("Codec", "IniCodec")
    gold = chunk_id(repo, ini, method)
    there = chunk_id(repo, dotenv, decode_of(language))
    moved = codec_path(language, "formats/ini")
    repo.rm(ini)
    repo.write(moved, text.replace("package ini", "package formats_ini"))
    repo.commit("the ini codec moved")
    ids = [gold, there]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    item = got[gold]
    assert (item["kind"], item["new_chunk_id"]) == ("relocated", chunk_id(repo, moved, method))
    assert item["evidence"] == "name defined once in the tree"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_type_moved_into_a_package_that_stood_there_still_follows(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ini codec's type (`IniCodec`, a name of its own) moves into the dotenv package,
    which the set shows was there, but not that type: its method follows its name."""
    ini, dotenv = (write_codec(repo, language, f) for f in ("ini", "dotenv"))
    text = repo.read(ini).replace("Codec", "IniCodec")
    repo.write(ini, text)
    old = repo.commit("two codecs")
    method = CODEC[language][2].replace("Codec", "IniCodec")
    gold = chunk_id(repo, ini, method)
    there = chunk_id(repo, dotenv, decode_of(language))
    folder, _, name = dotenv.rpartition("/")
    moved = f"{folder}/ini_{name}"
    repo.rm(ini)
    repo.write(moved, text.replace("package ini", "package dotenv"))
    repo.commit("the ini codec moved into dotenv")
    ids = [gold, there]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    item = got[gold]
    assert (item["kind"], item["new_chunk_id"]) == ("relocated", chunk_id(repo, moved, method))
    assert item["evidence"] == "name defined once in the tree"


# `src/map.rs` and `src/rayon/set.rs`, each with its own `mod tests` and a test of one name.
RUST_TESTS = (
    "pub fn insert(v: &mut Vec<u32>, x: u32) {\n    v.push(x);\n}\n\n"
    "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
    "    #[test]\n    fn insert_order() {\n        let mut v = Vec::new();\n"
    "        for x in 0..KIND {\n            insert(&mut v, x);\n        }\n"
    "        assert_eq!(v.len(), KIND as usize);\n    }\n\n"
    "    #[test]\n    fn iter_comparisons() {\n"
    "        fn check(a: &[u32], b: &[u32]) {\n            assert_eq!(a, b);\n        }\n"
    "        check(&[KIND], &[KIND]);\n    }\n}\n"
)


def test_a_rust_test_moved_out_of_its_file_is_not_put_onto_another_files_test(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("src/map.rs", RUST_TESTS.replace("KIND", "10"))
    repo.write("src/rayon/set.rs", RUST_TESTS.replace("KIND", "20"))
    repo.write("src/set.rs", RUST_TESTS.replace("KIND", "30").replace("insert_order", "ins"))
    old = repo.commit("three modules with tests")
    gold = [
        chunk_id(repo, "src/map.rs", "tests.insert_order"),
        chunk_id(repo, "src/set.rs", "tests.iter_comparisons"),
        chunk_id(repo, "src/set.rs", "tests.iter_comparisons.check"),
    ]
    map_rs, _, tests = RUST_TESTS.replace("KIND", "10").partition("#[cfg(test)]\nmod tests {")
    repo.write("src/map.rs", map_rs + "#[cfg(test)]\nmod tests;\n")
    repo.write("src/map/tests.rs", tests.rpartition("}")[0].replace("\n    ", "\n"))
    set_rs = RUST_TESTS.replace("KIND", "30").partition("#[cfg(test)]")[0]
    repo.write("src/set.rs", set_rs)
    repo.commit("map's tests moved out, set's removed")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    # map's test follows its module's file (`mod tests;`, `modules`), never rayon's twin.
    moved_out = chunk_id(repo, "src/map/tests.rs", "insert_order")
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", moved_out),
        ("missing_symbol", None),
        ("missing_symbol", None),
    ]


def test_fix_leaves_an_id_whose_namesake_stood_there_and_lists_it_first(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the command line: nothing is rewritten, the ID is reported with dotenv's
    method as the first candidate, and the set's bytes are kept."""
    ini, dotenv = (write_codec(repo, "go", f) for f in ("ini", "dotenv"))
    old = repo.commit("two codecs")
    gold = chunk_id(repo, ini, "Codec.Encode")
    there = chunk_id(repo, dotenv, "Codec.Decode")
    repo.rm(ini)
    repo.commit("the ini codec removed")
    plain_copy(repo, tmp_path)
    record = f'{{"qid": "q1", "gold": {{"{gold}": 3, "{there}": 2}}, "revision": "{old}"}}\n'
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text(record, encoding="utf-8")
    argv = ["gold", "check", "set.jsonl", "--root", "plain", "--no-cache"]
    assert main([*argv, "--fix"]) == 1
    out = capsys.readouterr().out.splitlines()
    candidate = chunk_id(repo, dotenv, "Codec.Encode")
    assert out[0] == (
        f"set.jsonl:1:24: RG004 [error] gold `{gold}` of q1 does not resolve ({ini} does not "
        "exist, and no git repository holds it to say where it went): replace it with one of "
        f"`{candidate}`, `{there}`, or remove it"
    )
    assert eval_set.read_text(encoding="utf-8") == record


def test_a_rust_test_follows_its_module_into_mod_rs(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`src/map.rs` becomes `src/map/mod.rs`: the same module, so its tests are its own."""
    repo.write("src/map.rs", RUST_TESTS.replace("KIND", "10"))
    repo.write("src/rayon/set.rs", RUST_TESTS.replace("KIND", "20").replace("insert_", "i_"))
    old = repo.commit("two modules with tests")
    gold = chunk_id(repo, "src/map.rs", "tests.insert_order")
    repo.mv("src/map.rs", "src/map/mod.rs")
    repo.commit("map.rs into its folder")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=plain_copy(repo, tmp_path))
    assert code == 1
    new = chunk_id(repo, "src/map/mod.rs", "tests.insert_order")
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("relocated", new)
