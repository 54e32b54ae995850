"""The ground truth's rules (benchmarks/refactor_truth/truth.py) on small Python trees,
read by its real front end (`ast`): a definition goes to another name elsewhere only on
distinctive evidence, and a target that was already there, or that its own namesake went
to, is not another definition's new home."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from refactor_truth.extract import definitions
from refactor_truth.truth import Tree, Truth, truth


def where(tmp_path: Path, old: dict[str, str], new: dict[str, str], name: str) -> Truth:
    """The truth of the old definition called `name`, from the two trees written out."""
    trees = {}
    for side, files in (("old", old), ("new", new)):
        root = tmp_path / side
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        trees[side], refused = definitions(root, "python")
        assert refused == []
    tree = Tree(trees["new"], set(new), trees["old"])
    (mine,) = [d for d in trees["old"] if d.name == name]
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
