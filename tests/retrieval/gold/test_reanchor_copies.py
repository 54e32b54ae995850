"""Copies of a body: the only one with the old qualified name in a file named for it is its
home (underscore 1.11 split `modules/index.js` into a file a function, beside bundles that
hold them all); copies under other names stay copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_follow import repo

__all__ = ["repo"]  # the fixture


SPLIT = {
    "javascript": (
        "modules/index.js",
        "modules/{name}.js",
        "underscore.js",
        """export function values(obj) {
  var _keys = keys(obj);
  var length = _keys.length;
  var values = Array(length);
  for (var i = 0; i < length; i++) {
    values[i] = obj[_keys[i]];
  }
  return values;
}
""",
        """export function pairs(obj) {
  var _keys = keys(obj);
  var length = _keys.length;
  var pairs = Array(length);
  for (var i = 0; i < length; i++) {
    pairs[i] = [_keys[i], obj[_keys[i]]];
  }
  return pairs;
}
""",
        "export {{ {name} }} from './{module}.js';\n",
    ),
    "python": (
        "pkg/index.py",
        "pkg/{name}.py",
        "bundle.py",
        """def values(obj):
    keys = list(obj)
    length = len(keys)
    result = [None] * length
    for i in range(length):
        result[i] = obj[keys[i]]
    return result
""",
        """def pairs(obj):
    keys = list(obj)
    length = len(keys)
    result = [None] * length
    for i in range(length):
        result[i] = (keys[i], obj[keys[i]])
    return result
""",
        "from pkg.{module} import {name}\n",
    ),
}


@pytest.mark.parametrize("language", sorted(SPLIT))
def test_of_copies_alike_the_one_in_a_file_named_for_it_is_its_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """underscore 1.11: `modules/index.js` split into a file a function, beside a bundle
    that holds them all: of the two identical bodies, the file of its name is its home."""
    path, home, bundle, values, pairs = SPLIT[language][:5]
    shell = SPLIT[language][5]
    repo.write(path, values + "\n\n" + pairs)
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "values"), chunk_id(repo, path, "pairs")]
    # A private helper's module is named with a `_` (underscore's `_createEscaper.js`).
    homes = {"values": home.format(name="_values"), "pairs": home.format(name="pairs")}
    repo.write(homes["values"], values)
    repo.write(homes["pairs"], pairs)
    # Built with the rest of the library: git pairs it with no file.
    rest = "".join(values.replace("values", f"other{i}") + "\n\n" for i in range(8))
    repo.write(bundle, rest + values + "\n\n" + pairs)
    modules = {name: home.rpartition("/")[2].partition(".")[0] for name, home in homes.items()}
    repo.write(path, "".join(shell.format(name=n, module=m) for n, m in modules.items()))
    repo.commit("a module a function, and a bundle")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    news = [chunk_id(repo, homes[n], n) for n in ("values", "pairs")]
    assert [got[g]["new_chunk_id"] for g in gold] == news
    # (git pairs the old file with one of the new ones, which names the other.)
    assert got[gold[0]]["evidence"] == "body identical, the only one in a file of its name"


COPIED = {
    "python": (
        "src/helpers.py",
        "class Helpers:\n    def compute_total(self, items):\n{body}",
        "        total = 0\n        for item in items:\n            if item.weight > 3:\n"
        "                total += item.weight * item.price\n            else:\n"
        "                total -= item.discount\n        return round(total, 2)\n",
        ("src/cart.py", "class Cart:\n    def _sum(self, items):\n{body}", "Cart._sum"),
        ("src/orders.py", "class Invoice:\n    def _sum(self, items):\n{body}", "Invoice._sum"),
        "Helpers.compute_total",
    ),
    "java": (
        "src/p/Helpers.java",
        "package p;\n\npublic class Helpers {{\n    double computeTotal(List<Item> items) {{\n"
        "{body}    }}\n}}\n",
        "        double total = 0;\n        for (Item item : items) {\n"
        "            if (item.weight > 3) {\n                total += item.weight * item.price;\n"
        "            } else {\n                total -= item.discount;\n            }\n        }\n"
        "        return total;\n",
        (
            "src/p/Cart.java",
            "package p;\n\npublic class Cart {{\n"
            "    double sum(List<Item> items) {{\n{body}    }}\n}}\n",
            "Cart.sum",
        ),
        (
            "src/q/Orders.java",
            "package q;\n\nclass Invoice {{\n"
            "    double sum(List<Item> items) {{\n{body}    }}\n}}\n",
            "Invoice.sum",
        ),
        "Helpers.computeTotal",
    ),
}


@pytest.mark.parametrize("language", sorted(COPIED))
def test_copies_under_other_names_stay_copies_whatever_their_files_are_named(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) A method deleted and pasted into two classes under another name,
    one of them in a file named for its class: both copies are candidates, neither wins."""
    path, text, body, first, second, name = COPIED[language]
    repo.write(path, text.format(body=body))
    repo.write("src/keep.txt", "kept\n")
    old = repo.commit("old")
    gold = [chunk_id(repo, path, name)]
    repo.rm(path)
    for copy_path, copy_text, _ in (first, second):
        repo.write(copy_path, copy_text.format(body=body))
    repo.commit("copied twice")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
    copies = {chunk_id(repo, p, n) for p, _, n in (first, second)}
    assert copies <= set(got[gold[0]]["candidates"])


# language: (old file and text, new file and text with two near copies, ID's name)
TWO_TYPES = {
    "rust": (
        "src/version.rs",
        "pub struct Version;\n\nimpl<'de> Deserialize<'de> for Version {\n{body}}\n",
        "src/serde.rs",
        "impl<'de> Deserialize<'de> for Version {\n{body}}\n\n"
        "impl<'de> Deserialize<'de> for VersionReq {\n{req}}\n",
        "Version.deserialize",
        "    fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>\n"
        "    where\n        D: Deserializer<'de>,\n    {\n"
        "        struct VersionVisitor;\n"
        "        deserializer.deserialize_str(VersionVisitor)\n"
        '            .map_err(|err| Error::custom(format!("bad version: {}", err)))\n'
        "    }\n",
    ),
    "python": (
        "semver/version.py",
        "class Version:\n{body}",
        "semver/parsing.py",
        "class Version:\n{body}\n\nclass VersionReq:\n{req}",
        "Version.parse",
        "    @classmethod\n    def parse(cls, text):\n"
        "        parts = VersionVisitor().visit(text.strip().split('.'))\n"
        "        if not parts:\n            raise ValueError(f'bad version: {text!r}')\n"
        "        return cls(*parts)\n",
    ),
}


@pytest.mark.parametrize("language", sorted(TWO_TYPES))
def test_of_near_copies_under_one_last_name_the_one_named_as_it_was_is_its_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """semver 1.0 moved `Version`'s deserializer to `serde.rs`, beside `VersionReq`'s, the
    same code but for its type: the two bodies are about as alike to the old one, both
    named `deserialize`; the one under `Version` is where it went."""
    path, text, new_path, new_text, name, body = TWO_TYPES[language]
    repo.write(path, text.replace("{body}", body))
    old = repo.commit("old")
    gold = chunk_id(repo, path, name)
    repo.rm(path)
    # Each copy edited a little: neither is the old body whole.
    mine = body.replace("bad version", "bad semver")
    req = body.replace("VersionVisitor", "VersionReqVisitor").replace("bad version", "bad req")
    repo.write(new_path, new_text.replace("{body}", mine).replace("{req}", req))
    repo.commit("moved beside another type's copy")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, new_path, name)
    assert "alike and its qualified name" in got[gold]["evidence"]
