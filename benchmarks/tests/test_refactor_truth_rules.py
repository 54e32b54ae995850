"""The ground truth's rules (benchmarks/refactor_truth/truth.py) on small Python trees,
read by its real front end (`ast`): a definition goes to another name elsewhere only on
distinctive evidence, and a target that was already there, or that its own namesake went
to, is not another definition's new home."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from refactor_truth.extract import definitions
from refactor_truth.homes import renamed_files
from refactor_truth.truth import Answer, Tree, Truth, by_evidence, rule_of, truth


def where(
    tmp_path: Path,
    old: dict[str, str],
    new: dict[str, str],
    name: str,
    language: str = "python",
) -> Truth:
    """The truth of the old definition called `name` (`path:name` when several files have
    it), from the two trees written out."""
    trees = {}
    for side, files in (("old", old), ("new", new)):
        root = tmp_path / side
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        trees[side], refused = definitions(root, language)
        assert refused == []
    tree = Tree(trees["new"], set(new), trees["old"])
    path, _, name = name.rpartition(":")  # "path:name" where the name is in several files
    (mine,) = [d for d in trees["old"] if d.name == name and d.path in (path or d.path,)]
    return truth(mine, tree)


U64 = (
    "class U64:\n    def from_usize(self, n: int) -> int:\n        return n & 0xFFFFFFFFFFFFFFFF\n"
)
I32 = "class I32:\n    def from_bits(self, n: int) -> int:\n        return n & 0xFFFFFFFF\n"
KEEP = "def kept():\n    return 1\n"


def test_a_short_body_under_another_name_in_another_file_is_unclear(tmp_path: Path) -> None:
    # alike only because both bodies are tiny: the old code called it moved to another file
    got = where(tmp_path, {"a.py": U64 + KEEP}, {"a.py": KEEP, "b.py": I32}, "U64.from_usize")
    assert (got.category, got.why) == ("unclear", "another name elsewhere, body not distinctive")


LONG_OLD = """def parse_header(line):
    name, _, value = line.partition(":")
    if not name or name != name.strip():
        raise ValueError(f"bad header name in {line!r}")
    return name.lower(), value.strip()
"""


def test_a_distinctive_body_renamed_into_another_file_is_still_followed(tmp_path: Path) -> None:
    new_text = LONG_OLD.replace("parse_header", "read_header")
    got = where(
        tmp_path, {"a.py": LONG_OLD + KEEP}, {"a.py": KEEP, "b.py": new_text}, "parse_header"
    )
    assert (got.category, got.targets) == ("moved to another file", ("b.py:1-5:read_header",))


def test_a_short_body_renamed_within_its_class_is_still_followed(tmp_path: Path) -> None:
    old = (
        "class Mux:\n    def update_handler(self):\n"
        "        self.handler = chain(self.middlewares, self.tree)\n"
    )
    new = old.replace("update_handler", "build_handler")
    got = where(tmp_path, {"m.py": old}, {"m.py": new}, "Mux.update_handler")
    assert (got.category, got.targets) == ("symbol renamed", ("m.py:2-3:Mux.build_handler",))


ERROR = """class {0}(RequestError):
    def __init__(self, error, request):
        super().__init__(error.message, error, request)
        self.name = "{0}"
"""


def test_a_namesake_outweighs_look_alikes_of_other_names(tmp_path: Path) -> None:
    # two error classes identical but for their names: the old code said ambiguous copies
    errors = ERROR.format("CacheError") + "\n\n" + ERROR.format("UploadError")
    got = where(
        tmp_path,
        {"index.py": ERROR.format("CacheError") + KEEP},
        {"index.py": KEEP, "errors.py": errors},
        "CacheError",
    )
    assert (got.category, got.targets) == ("moved to another file", ("errors.py:1-4:CacheError",))


HELPERS = """def make_aiter(items):
    for item in items:
        yield item


def first(x):
    return x[0]


def last(x):
    return x[-1]
"""
INNER = """def test_varlen():
    def inner(items):
        for item in items:
            yield item

    return inner
"""


def test_a_target_there_before_in_the_renamed_file_is_not_a_new_home(tmp_path: Path) -> None:
    # tests/old_helpers.py was renamed to tests/helpers.py; make_aiter was in it all along
    got = where(
        tmp_path,
        {"tests/old_helpers.py": HELPERS, "tests/test_loop.py": INNER},
        {"tests/helpers.py": HELPERS, "tests/test_loop.py": "def test_other():\n    pass\n"},
        "test_varlen.inner",
    )
    assert got.category == "gone"
    assert got.why.startswith("merged into tests/helpers.py:1-3:make_aiter, there before")


def test_a_target_its_own_namesake_moved_to_is_not_another_ones_home(tmp_path: Path) -> None:
    old = ERROR.format("MaxRedirectsError") + "\n\n" + ERROR.format("ProtocolError") + KEEP
    got = where(
        tmp_path,
        {"index.py": old},
        {"index.py": KEEP, "errors.py": ERROR.format("MaxRedirectsError")},
        "ProtocolError.__init__",
    )
    assert got.category == "gone"
    assert got.why.startswith("merged into errors.py:2-4:MaxRedirectsError.__init__")


TWO_OF_ONE_NAME = """class NFA:
    def next_state(self, current, byte):
        return self.table[current * 256 + byte]

    def next_state(self, current, byte):
        while True:
            state = self.states[current]
            following = state.next_state(byte)
            if following != FAIL:
                return following
            current = state.fail
"""
ONE_LEFT = """class NFA:
    def next_state(self, anchored, sid, byte):
        while True:
            state = self.states[sid]
            following = state.next_state(byte)
            if following != FAIL:
                return following
            if anchored:
                return DEAD
            sid = state.fail
"""


def test_of_two_old_namesakes_the_less_alike_does_not_take_the_name(tmp_path: Path) -> None:
    trees = {}
    for side, text in (("old", TWO_OF_ONE_NAME), ("new", ONE_LEFT)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "nfa.py").write_text(text, encoding="utf-8")
        trees[side], _ = definitions(tmp_path / side, "python")
    tree = Tree(trees["new"], {"nfa.py"}, trees["old"])
    short, long = [d for d in trees["old"] if d.name == "NFA.next_state"]
    assert truth(long, tree).targets == ("nfa.py:2-10:NFA.next_state",)
    got = truth(short, tree)
    assert got.category == "gone"
    assert got.why.startswith("its name went to a namesake more alike")


COMPLETIONS = """def gen_{0}(out):
    buf = io.StringIO()
    write_{0}(buf, program_name())
    out.write(buf.getvalue())
    return len(buf.getvalue())
"""


def test_a_hollowed_name_lists_only_the_linked_bodies(tmp_path: Path) -> None:
    # the body went to a private variant in the same file; other shells' look-alikes in
    # other files are not where it went
    old = COMPLETIONS.format("powershell").replace("gen_powershell", "GenPowershell")
    public = "def GenPowershell(out):\n    return gen_powershell(out)\n\n\n"
    got = where(
        tmp_path,
        {"ps.py": old},
        {
            "ps.py": public + COMPLETIONS.format("powershell"),
            "bash.py": COMPLETIONS.format("bash"),
            "fish.py": COMPLETIONS.format("fish"),
        },
        "GenPowershell",
    )
    assert got.category == "ambiguous"
    assert sorted(got.targets) == ["ps.py:1-2:GenPowershell", "ps.py:5-9:gen_powershell"]


PEEK = """def peek(draft, prop):
    state = draft.get(DRAFT_STATE)
    source = state.copy if state.finalizing else latest(state)
    desc = source.get_property_descriptor(prop)
    return desc.value if desc is not None else None
"""
PROXY_PEEK = """def peek(draft, prop):
    state = draft.get(DRAFT_STATE)
    source = latest(state) if state else draft
    return source[prop]
"""
PLUGIN = """def enable_es5():
    def peek(draft, prop):
        state = draft.get(DRAFT_STATE)
        source = state.copy_ if state.finalizing_ else latest(state)
        desc = source.get_property_descriptor(prop)
        return desc.value if desc is not None else None

    def mark_changed(state):
        if not state.modified:
            state.modified = True
            if state.parent:
                mark_changed(state.parent)

    load_plugin("ES5", {"peek": peek, "mark_changed": mark_changed})
"""


def test_a_target_there_before_gives_way_to_the_newcomer_the_body_went_to(
    tmp_path: Path,
) -> None:
    # es5.py's peek moved into the plugin; proxy.py's own peek, of the same name, was there
    # all along: the old truth called es5.py's merged into it (gone)
    got = where(
        tmp_path,
        {"proxy.py": PROXY_PEEK, "es5.py": PEEK + KEEP},
        {"proxy.py": PROXY_PEEK, "plugins/es5.py": PLUGIN},
        "es5.py:peek",
    )
    assert (got.category, got.targets) == ("file renamed", ("plugins/es5.py:2-6:enable_es5.peek",))


READ = """def test_read_buf_config():
    v = New()
    v.set_config_type("yaml")
    v.read_config(io.BytesIO(YAML))
    assert v.in_config("name")
    assert not v.in_config("state")
    assert v.get("name") == "steve"
    assert v.get("age") == 35
"""
UNMARSHAL = """def test_unmarshal():
    v = New()
    v.set_config_type("yaml")
    v.unmarshal_reader(io.BytesIO(YAML), v.config)
    assert v.in_config("name")
    assert not v.in_config("state")
    assert v.get("name") == "steve"
    assert v.get("age") == 35
"""
READ_CONFIG = """def test_read_config():
    v = New()
    v.set_config_type("yaml")
    err = v.read_config(io.BytesIO(YAML))
    assert err is None
    assert v.in_config("name")
    assert not v.in_config("state")
    assert v.get("name") == "steve"
    assert v.get("age") == 35

    v = New()
    assert v.read_config(io.BytesIO(YAML)) is not None
"""


def test_a_target_there_before_gives_way_to_a_rename_in_the_same_file(tmp_path: Path) -> None:
    # the old test is nearly a copy of one that stays (the old truth: merged into it, gone);
    # its own body went to a renamed, extended test
    old, new = UNMARSHAL + READ, UNMARSHAL + READ_CONFIG
    got = where(tmp_path, {"t.py": old}, {"t.py": new}, "test_read_buf_config")
    assert (got.category, got.targets) == ("symbol renamed", ("t.py:9-20:test_read_config",))


PROTOCOL = """class {0}:
    def __init__(self, ws_handler, ws_server, *, origins=None, extensions=None):
        self.ws_handler = ws_handler
        self.ws_server = ws_server
        self.origins = origins
        self.available_extensions = extensions

    def process_origin(self, headers, origins=None):
        origin = headers.get("Origin")
        if origins is not None and origin not in origins:
            raise InvalidOrigin(origin)
        return origin

    def select_subprotocol(self, client, server):
        common = set(client) & set(server)
        if not common:
            return None
        return sorted(common, key=lambda p: client.index(p) + server.index(p))[0]
"""


def test_a_type_moved_to_another_file_is_not_renamed_to_its_replacement(tmp_path: Path) -> None:
    # server.py's protocol went verbatim to legacy/server.py; server.py got a new class
    # with the same method names (a rewrite): the members follow the class, not the file
    replacement = (
        "class ServerConnection:\n    def __init__(self, origins=None):\n"
        "        self.origins = origins\n\n"
        "    def process_origin(self, headers):\n        return headers.get('Origin')\n\n"
        "    def select_subprotocol(self, client, server):\n        return None\n"
    )
    got = where(
        tmp_path,
        {"server.py": PROTOCOL.format("ServerProtocol")},
        {"server.py": replacement, "legacy/server.py": PROTOCOL.format("ServerProtocol")},
        "ServerProtocol.process_origin",
    )
    target = "legacy/server.py:8-12:ServerProtocol.process_origin"
    assert (got.category, got.targets) == ("moved to another file", (target,))


GO_BENCH_OLD = """package toml

func TestDecode(t *testing.T) {
	var v map[string]any
	if _, err := Decode(`a = 1`, &v); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkDecode(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var v map[string]any
		Decode(`a = 1`, &v)
	}
}
"""
GO_BENCH_NEW = """package toml_test

func BenchmarkDecode(b *testing.B) {
	files := make(map[string][]string)
	fs.WalkDir(tomltest.EmbeddedTests(), ".", func(path string, d fs.DirEntry, err error) error {
		files[filepath.Dir(path)] = append(files[filepath.Dir(path)], path)
		return nil
	})
	b.ResetTimer()
	for group, paths := range files {
		b.Run(group, func(b *testing.B) { decodeAll(b, paths) })
	}
}
"""


def test_a_go_name_is_its_package_s_whatever_file_and_body(tmp_path: Path) -> None:
    # a benchmark moved to a new file of its package and rewritten: Go says it is the same
    # function (one name a package); the old truth said gone
    kept = GO_BENCH_OLD.split("func BenchmarkDecode", maxsplit=1)[0]
    got = where(
        tmp_path,
        {"decode_test.go": GO_BENCH_OLD},
        {"decode_test.go": kept, "bench_test.go": GO_BENCH_NEW},
        "BenchmarkDecode",
        "go",
    )
    assert (got.category, got.targets) == (
        "moved to another file",
        ("bench_test.go:3-13:BenchmarkDecode",),
    )


UNIT_TEST = """class IsEqualIgnoringCaseTest(AbstractMatcherTest):
    def create_matcher(self):
        return equal_to_ignoring_case("irrelevant")

    def test_ignores_case_of_chars_in_string(self):
        self.assertThat("HELLO", equal_to_ignoring_case("heLLo"))
        self.assertThat("hello", equal_to_ignoring_case("heLLo"))

    def test_fails_if_matching_against_null(self):
        self.assertThat(None, is_not(equal_to_ignoring_case("heLLo")))
"""
JUNIT4_TEST = """class IsEqualIgnoringCaseTest:
    @test
    def copes_with_null_arguments(self):
        matcher = equal_to_ignoring_case("irrelevant")
        assert_null_safe(matcher)
        assert_unknown_type_safe(matcher)

    @test
    def ignores_case_of_chars_in_string(self):
        matcher = equal_to_ignoring_case("heLLo")
        assert_matches(matcher, "HELLO")
        assert_matches(matcher, "hello")
        assert_matches(matcher, "HelLo")
        assert_does_not_match(matcher, "bye")

    @test
    def mismatches_if_additional_whitespace_is_present(self):
        matcher = equal_to_ignoring_case("heLLo")
        assert_does_not_match(matcher, "hello ")
        assert_does_not_match(matcher, " hello")

    @test
    def has_a_readable_description(self):
        matcher = equal_to_ignoring_case("heLLo")
        assert_description('a string equal to "heLLo" ignoring case', matcher)
"""


def test_a_file_moved_under_its_own_unique_name_is_renamed_whatever_its_code(
    tmp_path: Path,
) -> None:
    # a test module merged into another folder and rewritten (git: two R100 moves): the
    # old truth found no half of its names there, nor its body (gone)
    got = where(
        tmp_path,
        {"unit-test/text/is_equal_ignoring_case_test.py": UNIT_TEST},
        {"lib/test/text/is_equal_ignoring_case_test.py": JUNIT4_TEST},
        "IsEqualIgnoringCaseTest",
    )
    target = "lib/test/text/is_equal_ignoring_case_test.py:1-25:IsEqualIgnoringCaseTest"
    assert (got.category, got.targets) == ("file renamed", (target,))


IS_ENUMERABLE = """def is_enumerable(base: AnyObject, prop: PropertyKey) -> bool:
    desc = get_own_property_descriptor(base, prop)
    return True if desc and desc.enumerable else False
"""


def test_a_name_nested_in_a_new_scope_with_its_body_beats_a_looser_copy(tmp_path: Path) -> None:
    # the library function moved into the plugin that uses it; a test got an untyped copy
    plugin = "def enable_es5():\n" + "".join(f"    {line}\n" for line in IS_ENUMERABLE.splitlines())
    copy = IS_ENUMERABLE.replace(": AnyObject", "").replace(": PropertyKey", "")
    got = where(
        tmp_path,
        {"common.py": IS_ENUMERABLE + KEEP},
        {
            "common.py": KEEP,
            "plugins/es5.py": plugin,
            "tests/base.py": copy.replace(" -> bool", ""),
        },
        "is_enumerable",
    )
    target = "plugins/es5.py:2-4:enable_es5.is_enumerable"
    assert (got.category, got.targets) == ("moved to another file", (target,))


RUST_SET = """pub struct IndexSet;

#[cfg(test)]
mod tests {
    #[test]
    fn insert_2() {
        let mut set = IndexSet::with_capacity(10);
        for &i in &[1, 2, 3, 4] {
            set.insert(i);
        }
        assert_eq!(set.len(), 4);
        assert_eq!(set.get_index_of(&3), Some(2));
    }
}
"""
RUST_SET_TESTS = """use super::*;

#[test]
fn insert_2() {
    let mut set = IndexSet::with_capacity(10);
    let mut values = vec![];
    values.extend(0..16);
    for &i in &values {
        let old = set.len();
        set.insert(i);
        assert_eq!(set.len(), old + 1);
    }
}
"""


def test_a_rust_inline_module_moved_to_its_file_keeps_its_items_names(tmp_path: Path) -> None:
    # set.rs's `mod tests` became set/tests.rs: the same module path set::tests::insert_2
    got = where(
        tmp_path,
        {"src/set.rs": RUST_SET},
        {
            "src/set.rs": "pub struct IndexSet;\n\n#[cfg(test)]\nmod tests;\n",
            "src/set/tests.rs": RUST_SET_TESTS,
        },
        "tests.insert_2",
        "rust",
    )
    assert (got.category, got.targets) == (
        "moved to another file",
        ("src/set/tests.rs:4-13:insert_2",),
    )


CONTAINING = """class {0}(TypeSafeDiagnosingMatcher):
    def __init__(self, element_matcher):
        self.element_matcher = element_matcher

    def describe_to(self, description):
        description.append_text("a collection containing ").append_description_of(
            self.element_matcher
        )

    def has_item(self, item_matcher):
        return {0}(item_matcher)
"""
STUB = """class IsCollectionContaining(TypeSafeDiagnosingMatcher):
    def __init__(self, element_matcher):
        self.delegate = IsIterableContaining(element_matcher)

    def describe_to(self, description):
        self.delegate.describe_to(description)

    def has_item(self, item_matcher):
        return IsIterableContaining.has_item(item_matcher)
"""


def test_a_name_kept_on_a_stub_while_its_type_went_under_a_new_name_is_unclear(
    tmp_path: Path,
) -> None:
    # the class was renamed (with its file, by git) and a deprecated stub of the old name
    # re-added: both the stub and the renamed class are defensible successors
    got = where(
        tmp_path,
        {"core/is_collection_containing.py": CONTAINING.format("IsCollectionContaining")},
        {
            "core/is_collection_containing.py": STUB,
            "core/is_iterable_containing.py": CONTAINING.format("IsIterableContaining"),
        },
        "IsCollectionContaining.describe_to",
    )
    assert got.category == "unclear"
    assert got.why == "its type renamed too"
    assert got.targets[1] == "core/is_iterable_containing.py:5-8:IsIterableContaining.describe_to"


def test_a_file_converted_in_place_is_renamed_though_a_sibling_shares_more_names(
    tmp_path: Path,
) -> None:
    # date-fns 2.29: each locale's index.js became index.ts; Hungarian inlined `translate`,
    # so Lithuanian's new file shared more of its names; the old truth sent it there
    def locale(word: str, inlined: bool) -> str:
        helper = "" if inlined else f"function translate(n) {{\n  return n + '{word}'\n}}\n\n"
        body = f"n + '{word}'" if inlined else "translate(n)"
        return f"{helper}export default function formatDistance(n) {{\n  return {body}\n}}\n"

    got = where(
        tmp_path,
        {"hu/index.js": locale("perc", False), "lt/index.js": locale("minutes", False)},
        {"hu/index.ts": locale("perc", True), "lt/index.ts": locale("minutes", False)},
        "hu/index.js:formatDistance",
        "ts",
    )
    assert (got.category, got.targets) == ("file renamed", ("hu/index.ts:1-3:formatDistance",))


def test_a_file_keeping_its_qualified_names_is_renamed_though_another_has_more_leaves(
    tmp_path: Path,
) -> None:
    # poetry-core 1.1 moved `url_dependency.py` to `src/` and dropped two of its methods;
    # `dependency.py`, new there too, holds more of their last names (a base class)
    methods = ("is_url", "is_file", "is_vcs", "base_name", "with_features", "marker")
    base = "class Dependency:\n" + "".join(
        f"    def {m}(self):\n        return False\n\n" for m in methods
    )
    sub = "class URLDependency(Dependency):\n" + "".join(
        f"    def {m}(self):\n        return True\n\n" for m in methods
    )
    kept = "class URLDependency(Dependency):\n" + "".join(
        f"    def {m}(self):\n        return True\n\n" for m in methods[:4]
    )
    got = where(
        tmp_path,
        {"pkg/dependency.py": base, "pkg/url_dependency.py": sub},
        {"src/pkg/dependency.py": base, "src/pkg/url_dependency.py": kept},
        "pkg/url_dependency.py:URLDependency.is_url",
    )
    target = "src/pkg/url_dependency.py:2-3:URLDependency.is_url"
    assert (got.category, got.targets) == ("file renamed", (target,))


NOTEBOOK = '''def tnrange(*args, **kwargs):
    """A shortcut for tqdm_notebook(xrange(*args), **kwargs)."""
    return tqdm_notebook(_range(*args), **kwargs)
'''
WRAPPER = """def tnrange(*args, **kwargs):
    from ._tqdm_notebook import tnrange as _tnrange
    return _tnrange(*args, **kwargs)
"""
STD = '''def trange(*args, **kwargs):
    """A shortcut for tqdm(xrange(*args), **kwargs)."""
    return tqdm(_range(*args), **kwargs)
'''


def test_a_namesake_that_stood_where_it_is_is_not_the_new_home(tmp_path: Path) -> None:
    """tqdm 4.36: `_tqdm_notebook.py` became a shim of the new `notebook.py`, which has its
    `tnrange`; `__init__.py` kept its wrapper of that name, there all along. The one
    namesake new there is where it went, not a body alike under another name."""
    got = where(
        tmp_path,
        {"_nb.py": NOTEBOOK, "__init__.py": WRAPPER, "std.py": STD},
        {
            "_nb.py": "from .notebook import *\n",
            "notebook.py": NOTEBOOK,
            "__init__.py": WRAPPER,
            "std.py": STD,
        },
        "_nb.py:tnrange",
    )
    assert (got.category, got.targets) == ("moved to another file", ("notebook.py:1-3:tnrange",))


CONSTRUCTOR = """    if not isinstance(version, str):
        raise TypeError(f"Invalid version {version!r}")
    parts = version.strip().split(".")
    major, minor, patch = (int(p) for p in parts)
    if major < 0 or minor < 0 or patch < 0:
        raise ValueError("negative part")
    raw, loose = version, options.get("loose")
"""


def test_a_function_become_a_class_around_its_code_is_unclear(tmp_path: Path) -> None:
    """node-semver 7: the constructor function `SemVer` became a class of its name, whose
    constructor holds its code: the class by name or the constructor by code, both fair."""
    methods = "".join(f"\n    def m{i}(self):\n        return self.raw + '{i}'\n" for i in range(9))
    got = where(
        tmp_path,
        {"semver.py": "def SemVer(version, options):\n" + CONSTRUCTOR + KEEP},
        {
            "semver.py": KEEP,
            "classes/semver.py": "class SemVer:\n    def __init__(self, version, options):\n"
            + CONSTRUCTOR.replace("    ", "        ")
            + methods,
        },
        "SemVer",
    )
    assert got.category == "unclear"
    assert got.targets == ("classes/semver.py:1-36:SemVer", "classes/semver.py:2-9:SemVer.__init__")


def test_repairs_are_tallied_by_their_evidence_and_outcome() -> None:
    """What each rule earns and costs: its numbers folded (one rule, whatever its
    figures), found-as-they-are and unresolved verdicts not counted."""
    truth_of = {
        "a.py:1-2:f": Truth("moved in file", ("a.py:3-4:f",)),
        "a.py:5-6:g": Truth("moved in file", ("a.py:7-8:g",)),
        "a.py:9-9:h": Truth("gone", ()),
        "a.py:10-11:k": Truth("unchanged", ("a.py:10-11:k",)),
        "a.py:12-13:m": Truth("moved in file", ("a.py:14-15:m",)),
    }
    answers = {
        "a.py:1-2:f": Answer("moved", "moved", "a.py:3-4:f", (), "shifted +2 lines together"),
        "a.py:5-6:g": Answer("moved", "moved", "a.py:7-8:g", (), "shifted +3 lines together"),
        "a.py:9-9:h": Answer("moved", "moved", "a.py:20-20:h", (), "the only namesake as long"),
        "a.py:10-11:k": Answer("ok", "ok", None, ()),
        "a.py:12-13:m": Answer("ambiguous", "ambiguous", None, ("a.py:14-15:m",)),
    }
    assert by_evidence(truth_of, answers) == {
        ("shifted N lines together", "right"): 2,
        ("the only namesake as long", "false"): 1,
    }


def test_evidence_folds_its_particulars_into_one_rule() -> None:
    assert (
        rule_of(
            "same name in rand_distr/src/weighted_alias.rs, where 3 other names of "
            "src/distributions/alias_method.rs went"
        )
        == "same name in P, where N other names of P went"
    )
    assert rule_of("its name inside `timedOut` in timed-out.ts, body 0.93 alike") == (
        "its name inside `X` in P, body N alike"
    )


def _suite(owner: str, bodies: dict[str, str]) -> str:
    return f"class {owner}:\n" + "".join(
        f"    def {name}(self):\n        {body}\n\n" for name, body in bodies.items()
    )


def test_of_two_files_with_its_test_names_the_one_named_as_it_was_is_its_rename(
    tmp_path: Path,
) -> None:
    # commons-beanutils 2 renamed `DynaPropertyUtilsTestCase` to `DynaPropertyUtilsTest`
    # (and its file), while `PropertyUtilsTest` has the same test names: the old truth saw
    # two homes alike and no rename
    names = ["test_get", "test_set", "test_copy", "test_describe"]
    old = _suite("DynaUtilsTestCase", {n: f"check_dyna(self.bean, '{n}')" for n in names})
    mine = _suite("DynaUtilsTest", {n: f"check_dyna(self.bean, '{n}', strict=True)" for n in names})
    other = _suite("UtilsTest", {n: f"check_plain(self.other, '{n}')" for n in names})
    trees = {}
    for side, files in (
        ("old", {"tests/dyna_utils_testcase.py": old}),
        ("new", {"tests2/dyna_utils_test.py": mine, "tests2/utils_test.py": other}),
    ):
        for path, text in files.items():
            (tmp_path / side / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / path).write_text(text, encoding="utf-8")
        trees[side], _ = definitions(tmp_path / side, "python")
    new_paths = {"tests2/dyna_utils_test.py", "tests2/utils_test.py"}
    assert renamed_files(trees["old"], trees["new"], new_paths) == {
        "tests/dyna_utils_testcase.py": "tests2/dyna_utils_test.py"
    }


def test_a_member_of_a_scope_dissolved_in_its_file_is_the_top_level_name(
    tmp_path: Path,
) -> None:
    # yargs 16 turned `declare namespace yargsParser`'s interfaces into top-level types of
    # its file: the old truth, blind to a scope gone around its members, called one of
    # them merged into a look-alike there before
    old = (
        "class Callbacks:\n    def coerce(self, arg):\n        return arg\n\n"
        "    def config(self, path):\n        return load(path)\n\n"
        "    def done(self, result):\n        return result\n"
    )
    new = (
        "def coerce(arg, *, strict=False):\n    return arg if not strict else check(arg)\n\n"
        "def config(path):\n    return load(path)\n\n"
        "def done(result):\n    return result\n"
    )
    alike = "class Finish:\n    def handle(self, arg):\n        return arg\n"
    got = where(
        tmp_path,
        {"cb.py": old, "finish.py": alike},
        {"cb.py": new, "finish.py": alike},
        "Callbacks.coerce",
    )
    assert got.targets == ("cb.py:1-2:coerce",)


def test_a_function_whose_inner_functions_went_to_the_top_keeps_its_name(
    tmp_path: Path,
) -> None:
    # fastify 4: `createServer.listen`'s inner functions went to the top of server.js and
    # `listen` stayed; only a scope itself gone is dissolved
    inner = "".join(
        f"        def step_{n}(value):\n            return transform_{n}(value, {n})\n\n"
        for n in range(3)
    )
    old = (
        "def create_server():\n    def listen(port):\n"
        + inner
        + "        return bind(port, step_0, step_1, step_2)\n\n    return listen\n"
    )
    tops = "".join(
        f"def step_{n}(value):\n    return transform_{n}(value, {n})\n\n" for n in range(3)
    )
    new = tops + (
        "def create_server():\n    def listen(port):\n"
        "        return bind(port, step_0, step_1, step_2)\n\n    return listen\n"
    )
    got = where(tmp_path, {"server.py": old}, {"server.py": new}, "create_server.listen")
    assert got.targets == ("server.py:11-12:create_server.listen",)


def _ring(name: str, small: bool = False) -> str:
    text = (
        f"package redis\n\ntype {name} struct {{\n\topt *Options\n\n\tmu     sync.RWMutex\n"
        "\thash   Hash\n\tshards map[string]*shard\n\tlist   []*shard\n\tclosed bool\n}\n\n"
    )
    text += "".join(
        f'func (c *{name}) {m}() *shard {{\n\treturn c.list[len("{m}")]\n}}\n\n'
        for m in ("Random", "Hash", "GetByKey")
    )
    return text + ("type ringShards struct {\n\tm    map[string]*shard\n}\n" if small else "")


def test_a_type_renamed_whose_name_a_new_small_type_took_follows_its_members(
    tmp_path: Path,
) -> None:
    # go-redis 9: `ringShards` became `ringSharding` and a two-field `ringShards` came: the
    # name standing with little of the body does not hold the type
    old, new = {"ring.go": _ring("ringShards")}, {"ring.go": _ring("ringSharding", small=True)}
    got = where(tmp_path, old, new, "ringShards", "go")
    assert (got.category, got.targets) == ("symbol renamed", ("ring.go:3-11:ringSharding",))
