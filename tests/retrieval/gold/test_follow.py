"""Gold IDs across real refactors (issue 15): one small git repository per failure kind.

Records carry the `revision` the gold was verified at, so the old bodies are read from git;
the plain-tree cases copy the target without `.git`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.code.parsing import FileParser
from evaltools.retrieval.gold.reanchor.anchor import resolve_all
from evaltools.retrieval.gold.reanchor.lookup import TreeLookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status
from evaltools.retrieval.sources.source import CodeTree
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import plain_copy

STORE_PY = '''\
import json


class Store:
    """Keeps records on disk."""

    def __init__(self, path):
        self.path = path
        self.items = {}

    def get(self, key, default=None):
        if key not in self.items:
            self.load()
        return self.items.get(key, default)

    def put(self, key, value):
        self.items[key] = value
        with open(self.path, "w", encoding="utf-8") as handle:
            json.dump(self.items, handle)
'''

SHELL_PY = '''\
from pkg.core.store import Store as _Store


class Store(_Store):
    """Kept so that old imports work."""
'''


def resolve(root: Path, *ids: str, revision: str | None = None) -> dict[str, Resolution]:
    with CodeTree(root) as tree, FileParser(1) as pool:
        results = resolve_all([GoldRef(i, revision) for i in ids], TreeLookup(tree, pool))
    return {ref.chunk_id: result for ref, result in results.items()}


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def test_a_file_moved_into_a_subpackage_with_a_thin_shell_left(
    repo: GitRepo, tmp_path: Path
) -> None:
    repo.write("pkg/store.py", STORE_PY)
    old = repo.commit("store")
    repo.mv("pkg/store.py", "pkg/core/store.py")
    repo.write("pkg/store.py", SHELL_PY)
    repo.commit("move the store into core, keep a shell")
    ids = ("pkg/store.py:11-14:Store.get", "pkg/store.py:16-19:Store.put")
    got = resolve(repo.path, *ids, revision=old)
    # git sees a copy (the old path exists again): every path's copies are consulted.
    assert [(r.status, r.new_chunk_id) for r in got.values()] == [
        (Status.RENAMED_FILE, "pkg/core/store.py:11-14:Store.get"),
        (Status.RENAMED_FILE, "pkg/core/store.py:16-19:Store.put"),
    ]
    # Without git: a method's qualified name defined once in the tree.
    plain = resolve(plain_copy(repo, tmp_path), *ids, revision=old)
    assert [(r.status, r.new_chunk_id) for r in plain.values()] == [
        (Status.RELOCATED, "pkg/core/store.py:11-14:Store.get"),
        (Status.RELOCATED, "pkg/core/store.py:16-19:Store.put"),
    ]


def test_the_shell_class_itself_is_hollowed_not_silently_moved(repo: GitRepo) -> None:
    repo.write("pkg/store.py", STORE_PY)
    old = repo.commit("store")
    repo.mv("pkg/store.py", "pkg/core/store.py")
    repo.write("pkg/store.py", SHELL_PY)
    repo.commit("move")
    got = resolve(repo.path, "pkg/store.py:4-19:Store", revision=old)["pkg/store.py:4-19:Store"]
    assert got.status is Status.HOLLOWED
    assert got.new_chunk_id is None
    assert got.candidates == ("pkg/store.py:4-5:Store", "pkg/core/store.py:4-19:Store")
    # Without the old body the name is all there is: it is followed, as before.
    no_revision = resolve(repo.path, "pkg/store.py:4-19:Store")["pkg/store.py:4-19:Store"]
    assert (no_revision.status, no_revision.new_chunk_id) == (
        Status.MOVED,
        "pkg/store.py:4-5:Store",
    )


FRAMEWORK_PY = """\
class Framework:
    def route(self, rule, **options):
        def decorator(f):
            endpoint = options.pop("endpoint", None)
            self.add_url_rule(rule, endpoint, f, **options)
            return f

        return decorator

    def add_url_rule(self, rule, endpoint=None, view_func=None, **options):
        if endpoint is None:
            endpoint = view_func.__name__
        self.url_map.add(rule, endpoint, options)
        self.view_functions[endpoint] = view_func
"""


def test_methods_moved_to_another_file_under_a_renamed_class(repo: GitRepo) -> None:
    repo.write("app.py", FRAMEWORK_PY)
    old = repo.commit("framework")
    base = FRAMEWORK_PY.replace("class Framework:", "class BaseApp:").replace(
        "endpoint = view_func.__name__", "endpoint = _endpoint_from_view_func(view_func)"
    )
    repo.write("core/app.py", '"""The core."""\n\n' + base)
    repo.write("app.py", "from core.app import BaseApp\n\n\nclass Framework(BaseApp):\n    pass\n")
    repo.commit("split")
    got = resolve(
        repo.path,
        "app.py:2-8:Framework.route",
        "app.py:10-14:Framework.add_url_rule",
        revision=old,
    )
    assert got["app.py:2-8:Framework.route"].status is Status.RELOCATED
    assert got["app.py:2-8:Framework.route"].new_chunk_id == "core/app.py:4-10:BaseApp.route"
    # Near-identical (one line changed): a near body, well ahead of any other.
    near = got["app.py:10-14:Framework.add_url_rule"]
    assert (near.status, near.new_chunk_id) == (
        Status.RELOCATED,
        "core/app.py:12-16:BaseApp.add_url_rule",
    )


def test_same_last_name_elsewhere_outranks_close_names_in_the_file(repo: GitRepo) -> None:
    repo.write("app.py", FRAMEWORK_PY)
    repo.commit("framework")
    repo.write(
        "app.py",
        "class Framework:\n    def routes(self):\n        return []\n\n"
        "    def router(self):\n        return None\n\n    def route_map(self):\n"
        "        return {}\n",
    )
    repo.write("core/app.py", FRAMEWORK_PY.replace("class Framework:", "class BaseApp:"))
    repo.write("core/blueprints.py", "class Blueprint:\n    def route(self, rule):\n        pass\n")
    repo.commit("split")
    # No revision: names are all there is, and the last name comes before string distance.
    got = resolve(repo.path, "app.py:2-8:Framework.route")["app.py:2-8:Framework.route"]
    assert got.status is Status.MISSING_SYMBOL
    assert got.candidates[:2] == (
        "core/app.py:2-8:BaseApp.route",
        "core/blueprints.py:2-3:Blueprint.route",
    )
    assert "app.py:2-3:Framework.routes" in got.candidates


BOX_PY = """\
from typing import overload


class Box:
    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self._size = int(value)


@overload
def parse(x: int) -> int: ...
@overload
def parse(x: str) -> str: ...
def parse(x):
    return json.loads(x) if isinstance(x, str) else x


def make(kind):
    if kind:
        def build():
            return compile_fast(kind, level=3)
    else:
        def build():
            return interpret_slowly(kind)
    return build
"""


def test_ties_are_broken_by_decorators_and_bodies(repo: GitRepo) -> None:
    repo.write("box.py", BOX_PY)
    old = repo.commit("box")
    repo.write("box.py", '"""Boxes."""\nimport json\n' + BOX_PY)
    repo.commit("header")
    ids = {
        "box.py:5-7:Box.size": "box.py:7-9:Box.size",
        "box.py:9-11:Box.size": "box.py:11-13:Box.size",
        "box.py:14-15:parse": "box.py:16-17:parse",
        "box.py:18-19:parse": "box.py:20-21:parse",
        "box.py:24-25:make.build": "box.py:26-27:make.build",
        "box.py:27-28:make.build": "box.py:29-30:make.build",
    }
    got = resolve(repo.path, *ids, revision=old)
    assert {k: (r.status, r.new_chunk_id) for k, r in got.items()} == {
        k: (Status.MOVED, v) for k, v in ids.items()
    }
    # Without the old bodies nothing tells them apart: still ambiguous, except that an
    # exact span is taken at its word (the second stub now sits where `parse` was).
    bare = resolve(repo.path, *ids)
    assert bare.pop("box.py:18-19:parse").status is Status.OK
    assert {r.status for r in bare.values()} == {Status.AMBIGUOUS}


MIXIN_PY = """\
class RenderMixin:
    def render(self, template, **context):
        context.setdefault("title", self.title)
        body = self.env.get_template(template).render(**context)
        return self.wrap(body)
"""


def test_one_body_copied_into_two_classes_reports_both(repo: GitRepo) -> None:
    repo.write("mixins.py", MIXIN_PY)
    old = repo.commit("mixin")
    repo.rm("mixins.py")
    repo.write("pages.py", MIXIN_PY.replace("RenderMixin", "Page"))
    repo.write("mails.py", "\n\n" + MIXIN_PY.replace("RenderMixin", "Mail"))
    repo.commit("inline the mixin")
    got = resolve(repo.path, "mixins.py:2-5:RenderMixin.render", revision=old)
    result = got["mixins.py:2-5:RenderMixin.render"]
    assert result.status is Status.COPIED
    assert result.new_chunk_id is None
    assert result.candidates == ("mails.py:4-7:Mail.render", "pages.py:2-5:Page.render")


def test_a_body_gone_is_not_re_anchored_to_a_same_named_stranger(repo: GitRepo) -> None:
    repo.write("mixins.py", MIXIN_PY)
    old = repo.commit("mixin")
    repo.rm("mixins.py")
    repo.write("pages.py", "class Page:\n    def render(self):\n        return '<p>'\n")
    repo.commit("rewrite")
    got = resolve(repo.path, "mixins.py:2-5:RenderMixin.render", revision=old)
    result = got["mixins.py:2-5:RenderMixin.render"]
    assert result.status is Status.MISSING_FILE
    assert result.candidates == ("pages.py:2-3:Page.render",)


def test_a_symbol_renamed_with_its_body_kept(repo: GitRepo) -> None:
    repo.write("app.py", FRAMEWORK_PY)
    old = repo.commit("framework")
    repo.write("app.py", FRAMEWORK_PY.replace("def add_url_rule", "def add_rule"))
    repo.commit("rename")
    got = resolve(repo.path, "app.py:10-14:Framework.add_url_rule", revision=old)
    result = got["app.py:10-14:Framework.add_url_rule"]
    assert (result.status, result.new_chunk_id) == (
        Status.RELOCATED,
        "app.py:10-14:Framework.add_rule",
    )


def test_fix_never_rewrites_hollowed_or_ambiguous_ids(
    repo: GitRepo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    repo.write("pkg/store.py", STORE_PY)
    repo.write("box.py", BOX_PY)
    old = repo.commit("store")
    repo.mv("pkg/store.py", "pkg/core/store.py")
    repo.write("pkg/store.py", SHELL_PY)
    repo.write("box.py", '"""Boxes."""\nimport json\n' + BOX_PY)
    repo.commit("move")
    records = [
        {"qid": "q1", "query": "q", "gold": {"pkg/store.py:4-19:Store": 3}, "revision": old},
        # No revision: the tie cannot be broken.
        {"qid": "q2", "query": "q", "gold": {"box.py:5-7:Box.size": 2}},
        {"qid": "q3", "query": "q", "gold": {"pkg/store.py:11-14:Store.get": 3}, "revision": old},
    ]
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    before = eval_set.read_bytes()
    code = main(["gold", "check", str(eval_set), "--root", str(repo.path), "--fix"])
    out = capsys.readouterr().out
    assert code == 1
    assert "RG011" in out and "hollowed" in out
    assert "RG005" in out
    after = eval_set.read_bytes().decode().splitlines()
    assert after[:2] == before.decode().splitlines()[:2]
    assert '"pkg/core/store.py:11-14:Store.get"' in after[2]
