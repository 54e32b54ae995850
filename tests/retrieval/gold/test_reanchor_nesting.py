"""Of an enclosing pair about as alike, the one that fits the old definition is where it
went: the one with its last name, else the more alike, else the inner one (a function
renamed around the inner function it kept is the outer one, jsonschema 4; a function moved
into a new class of one method is the method; a class of one method is the class)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_follow import repo

__all__ = ["repo"]  # the fixture


ROLE = {
    "python": (
        "docs/role.py",
        '''from docutils import nodes


def setup(app):
    app.add_role("validator", {outer}("https://json-schema.org"))


def {outer}(spec):
    """
    Docutils calls the role; it cannot be a class.
    """

    def validator(name, raw_text, text, lineno, inliner):
        """Link to the documentation of a validator."""
        if text == "$ref":
            return [nodes.reference(raw_text, text, refuri=spec + "/ref")], []
        elif text == "$dynamicRef":
            return [nodes.reference(raw_text, text, refuri=spec + "/dynamic")], []
        else:
            uri = spec + "/validation#" + text.lower()
{extra}
        return [nodes.reference(raw_text, text, refuri=uri)], []

    return validator
''',
        "            uri = uri.replace(' ', '-')",
    ),
    "typescript": (
        "docs/role.ts",
        """import {{ reference }} from "docutils";

export function setup(app: App): void {{
  app.addRole("validator", {outer}("https://json-schema.org"));
}}

export function {outer}(spec: string) {{
  function validator(name: string, rawText: string, text: string): Node[] {{
    let uri: string;
    if (text === "$ref") {{
      return [reference(rawText, text, spec + "/ref")];
    }} else if (text === "$dynamicRef") {{
      return [reference(rawText, text, spec + "/dynamic")];
    }} else {{
      uri = spec + "/validation#" + text.toLowerCase();
    }}
{extra}
    return [reference(rawText, text, uri)];
  }}

  return validator;
}}
""",
        '    uri = uri.replace(" ", "-");',
    ),
}


@pytest.mark.parametrize("language", sorted(ROLE))
def test_a_function_renamed_around_its_inner_function_is_the_outer_one(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, extra = ROLE[language]
    repo.write(path, text.format(outer="docutils_sucks", extra=""))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "docutils_sucks")]
    new = text.format(outer="docutils_does_not_allow_using_classes", extra=extra)
    repo.write(path, new)
    repo.commit("renamed, the link spelt out")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(
        repo, path, "docutils_does_not_allow_using_classes"
    )


ONE_METHOD = {
    "java": (
        "src/greet/Greeter.java",
        "src/welcome/Welcomer.java",
        """package {pkg};

public class {cls} {{
    public String {method}(String name, boolean formal) {{
        StringBuilder text = new StringBuilder();
        if (formal) {{
            text.append("Good day, ").append(name).append(".");
        }} else {{
            text.append("Hi ").append(name).append("!");
        }}
        return text.toString(){tail};
    }}
}}
""",
    ),
    "python": (
        "pkg/greet/greeter.py",
        "pkg/welcome/welcomer.py",
        """class {cls}:
    def {method}(self, name, formal):
        text = []
        if formal:
            text.append("Good day, " + name + ".")
        else:
            text.append("Hi " + name + "!")
        return "".join(text){tail}
""",
    ),
}


@pytest.mark.parametrize("language", sorted(ONE_METHOD))
def test_a_class_of_one_method_and_its_method_each_go_to_their_like(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A class renamed and moved with its one method renamed: the class is as alike to the
    new class as to the method; its depth says which it is."""
    path, moved, text = ONE_METHOD[language]
    repo.write(path, text.format(pkg="greet", cls="Greeter", method="greet", tail=""))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "Greeter"), chunk_id(repo, path, "Greeter.greet")]
    repo.rm(path)
    tail = ".strip()" if language == "python" else ".trim()"
    repo.write(moved, text.format(pkg="welcome", cls="Welcomer", method="welcome", tail=tail))
    repo.commit("renamed and moved")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    news = [chunk_id(repo, moved, "Welcomer"), chunk_id(repo, moved, "Welcomer.welcome")]
    assert [got[g]["new_chunk_id"] for g in gold] == news


TOTAL = {
    "python": (
        "src/pricing.py",
        "def compute_total(items, threshold):\n{body}",
        "    total = 0\n    for item in items:\n        if item.weight > threshold:\n"
        "            total += item.weight * item.price\n        else:\n"
        "            total -= item.discount\n    return round(total, 2)\n",
        "class Calculator:\n    def run(self, items, threshold):\n{body}",
        "Calculator.run",
    ),
    "java": (
        "src/p/Pricing.java",
        "package p;\n\npublic class Pricing {{\n"
        "    public double computeTotal(List<Item> items, double threshold) {{\n{body}    }}\n}}\n",
        "        double total = 0;\n        for (Item item : items) {\n"
        "            if (item.weight > threshold) {\n"
        "                total += item.weight * item.price;\n            } else {\n"
        "                total -= item.discount;\n            }\n        }\n"
        "        return Math.round(total * 100) / 100.0;\n",
        "package p;\n\npublic class Calculator {{\n"
        "    public double run(List<Item> items, double threshold) {{\n{body}    }}\n}}\n",
        "Calculator.run",
    ),
}


@pytest.mark.parametrize("language", sorted(TOTAL))
def test_a_function_moved_into_a_new_class_of_one_method_is_the_method(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(A review's case.) The class holds nothing but the method, so both are about as
    alike; the method, more alike, is where the function went, not its class."""
    path, before, body, after, method = TOTAL[language]
    repo.write(path, before.format(body=body))
    old = repo.commit("old")
    name = "compute_total" if language == "python" else "Pricing.computeTotal"
    gold = [chunk_id(repo, path, name)]
    moved = path.replace("Pricing", "Calculator").replace("pricing", "calc")
    repo.rm(path)
    indented = "".join(
        f"    {line}\n" if language == "python" else f"{line}\n" for line in body.splitlines()
    )
    repo.write(moved, after.format(body=indented))
    repo.commit("a class of one method")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, moved, method)


CONSTRUCTOR = {
    "javascript": (
        "lib/client.js",
        "function Client(server, conn) {\n{body}}\n\nClient.prototype.setup = function () {\n"
        "  this.conn.on('data', this.ondata);\n};\n\nmodule.exports = Client;\n",
        "  this.server = server;\n  this.conn = conn;\n  this.encoder = server.encoder;\n"
        "  this.decoder = new server.parser.Decoder();\n  this.id = conn.id;\n"
        "  this.request = conn.request;\n  this.sockets = new Map();\n  this.setup();\n",
        "class Client {\n  constructor(server, conn) {\n{body}  }\n\n  setup() {\n"
        "    this.conn.on('data', this.ondata);\n  }\n\n{rest}}\n\nmodule.exports = Client;\n",
        "  {name}(packet, opts) {{\n    if (this.conn.readyState !== 'open') {{\n"
        "      return this.buffer.push([packet, opts]);\n    }}\n"
        "    this.encoder.encode(packet).forEach((p) => this.conn.write(p, opts));\n  }}\n\n",
        "  ",
    ),
    "python": (
        "pkg/client.py",
        "def Client(server, conn):\n{body}\n\ndef setup(client):\n    client.conn.on('data')\n",
        "    self = Namespace()\n    self.server = server\n    self.conn = conn\n"
        "    self.encoder = server.encoder\n    self.decoder = server.parser.Decoder()\n"
        "    self.id = conn.id\n    self.request = conn.request\n    self.sockets = {}\n"
        "    return self\n",
        "class Client:\n    def __init__(self, server, conn):\n{body}\n    def setup(self):\n"
        "        self.conn.on('data')\n\n{rest}",
        "    def {name}(self, packet, opts=None):\n        if self.conn.ready_state != 'open':\n"
        "            return self.buffer.append((packet, opts))\n"
        "        for part in self.encoder.encode(packet):\n"
        "            self.conn.write(part, opts)\n\n",
        "    ",
    ),
}


@pytest.mark.parametrize("language", sorted(CONSTRUCTOR))
def test_a_constructor_function_become_a_class_is_the_class(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """socket.io 3: the constructor function `Client` became `class Client`, its body the
    class's constructor: the body did not leave the name, which still holds it."""
    path, before, body, after, method, indent = CONSTRUCTOR[language]
    repo.write(path, before.replace("{body}", body))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "Client")]
    inner = "".join(f"{indent}{line}\n" for line in body.splitlines())
    if language == "python":
        inner = inner.replace("        self = Namespace()\n", "").replace(
            "        return self\n", ""
        )
    rest = "".join(method.format(name=n) for n in ("packet", "write_to_engine", "send", "emit"))
    repo.write(path, after.replace("{body}", inner).replace("{rest}", rest))
    repo.commit("a class")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, path, "Client")
