"""Every definition of a tree, found by the language's own front end.

Python: `ast`, in process. Go: go/parser through `go/main.go` (Debian's golang-go). Rust:
`syn` 1 through `rust/` (cargo, with Debian's packaged crates, librust-syn-dev; see
rust/.cargo/config.toml). TypeScript and JavaScript: the TypeScript compiler API through
`ts/extract.js` (typescript installed with npm into benchmarks/.cache/ts). Java: javac's
tree API through `java/Extract.java` (JDK 17).

Each helper prints one JSON object a line: `path`, leaf `name`, `def` (false for a Rust
`impl`, which only qualifies what it holds), its first and last token's line and column
(`sl`, `sc`, `el`, `ec`) and `body`, the definition as the front end prints it (no
comments, its own formatting), or `path` and `error` for a file it cannot parse. Names are
qualified here by nesting, as evaltools does (docs/spans.md).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE.parent / ".cache"

EXTENSIONS = {
    "python": (".py",),
    "go": (".go",),
    "rust": (".rs",),
    "ts": (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"),
    "java": (".java",),
}


@dataclass(frozen=True)
class Def:
    path: str
    name: str
    start: int
    end: int
    body: tuple[str, ...]

    @property
    def chunk_id(self) -> str:
        return f"{self.path}:{self.start}-{self.end}:{self.name}"

    @property
    def key(self) -> tuple[str, str]:
        return (self.path, self.name)


@dataclass(frozen=True)
class Raw:
    """One item a helper printed: positions are (line, column) of its first and last token."""

    path: str
    name: str
    is_def: bool
    first: tuple[int, int]
    last: tuple[int, int]
    text: str


def qualify(items: list[Raw]) -> list[Def]:
    """Names dotted by nesting (the enclosing items' qualified names), as evaltools'
    `ts_symbols._qualify` does with byte ranges."""
    ordered = sorted(items, key=lambda r: (r.first, (-r.last[0], -r.last[1])))
    found: list[Def] = []
    stack: list[tuple[tuple[int, int], str]] = []
    for item in ordered:
        while stack and stack[-1][0] <= item.first:
            stack.pop()
        qualified = f"{stack[-1][1]}.{item.name}" if stack else item.name
        if item.is_def:
            leaf = item.name.rpartition(".")[2]
            body = normalise(item.text, leaf)
            found.append(Def(item.path, qualified, item.first[0], item.last[0], body))
        stack.append((item.last, qualified))
    return found


_TOKEN = re.compile(r"[\w$]+|\S")


def normalise(text: str, leaf: str) -> tuple[str, ...]:
    """The printed definition's tokens (words and single marks: no comment, no layout), its
    own name blanked to `_` (a renamed definition keeps its body)."""
    if leaf and not leaf.startswith("<"):
        text = re.sub(rf"(?<![\w$]){re.escape(leaf)}(?![\w$])", "_", text)
    return tuple(_TOKEN.findall(text))


def source_files(root: Path, language: str) -> list[str]:
    suffixes = EXTENSIONS[language]
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
        for name in sorted(files):
            # a link is no definition of its own (uuid 11 links `.local/uuid/*.js` to a build)
            if name.lower().endswith(suffixes) and not (Path(folder) / name).is_symlink():
                found.append((Path(folder) / name).relative_to(root).as_posix())
    return found


def definitions(root: Path, language: str) -> tuple[list[Def], list[str]]:
    """Every definition of `language` below `root`, and the files its front end refused."""
    paths = source_files(root, language)
    if language == "python":
        return python_definitions(root, paths)
    out = subprocess.run(
        helper_command(language, root),
        input="\n".join(paths) + "\n",
        capture_output=True,
        text=True,
        check=True,
        env=helper_env(language),
    ).stdout
    return parse_helper_output(out)


def parse_helper_output(out: str) -> tuple[list[Def], list[str]]:
    by_file: dict[str, list[Raw]] = {}
    refused: list[str] = []
    # One row a line, split at "\n" only: JSON leaves U+2028 and the like in strings raw,
    # and `splitlines` would cut a row there (js-yaml 3.14's source has them).
    for line in filter(None, out.split("\n")):
        row = json.loads(line)
        if row.get("error"):
            refused.append(row["path"])
            continue
        raw = Raw(
            row["path"],
            row["name"],
            row["def"],
            (row["sl"], row["sc"]),
            (row["el"], row["ec"]),
            row["body"],
        )
        by_file.setdefault(raw.path, []).append(raw)
    found: list[Def] = []
    for items in by_file.values():
        found.extend(qualify(items))
    return found, refused


def helper_command(language: str, root: Path) -> list[str]:
    if language == "go":
        return [str(_build_go()), str(root)]
    if language == "rust":
        return [str(_build_rust()), str(root)]
    if language == "ts":
        _install_typescript()
        return ["node", str(HERE / "ts" / "extract.js"), str(root)]
    if language == "java":
        return ["java", "-cp", str(_build_java()), "Extract", str(root)]
    raise ValueError(language)


def helper_env(language: str) -> dict[str, str]:
    env = dict(os.environ)
    if language == "ts":
        env["NODE_PATH"] = str(CACHE / "ts" / "node_modules")
    return env


def _newer(target: Path, sources: list[Path]) -> bool:
    return target.exists() and all(target.stat().st_mtime >= s.stat().st_mtime for s in sources)


def _build_go() -> Path:
    binary = CACHE / "refactor-truth-go"
    sources = [HERE / "go" / "main.go", HERE / "go" / "go.mod"]
    if not _newer(binary, sources):
        CACHE.mkdir(exist_ok=True)
        env = {**os.environ, "GOFLAGS": "-mod=mod", "GOPROXY": "off"}
        subprocess.run(
            ["go", "build", "-o", str(binary), "."], cwd=HERE / "go", check=True, env=env
        )
    return binary


def _build_rust() -> Path:
    target = CACHE / "rust-target"
    binary = target / "release" / "refactor-truth-rust"
    sources = [HERE / "rust" / "src" / "main.rs", HERE / "rust" / "Cargo.toml"]
    if not _newer(binary, sources):
        env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
        subprocess.run(
            ["cargo", "build", "--release", "-q", "--offline"],
            cwd=HERE / "rust",
            check=True,
            env=env,
        )
    return binary


def _build_java() -> Path:
    classes = CACHE / "java"
    source = HERE / "java" / "Extract.java"
    if not _newer(classes / "Extract.class", [source]):
        subprocess.run(["javac", "-d", str(classes), str(source)], check=True)
    return classes


def _install_typescript() -> None:
    into = CACHE / "ts"
    if not (into / "node_modules" / "typescript").is_dir():
        into.mkdir(parents=True, exist_ok=True)
        npm = shutil.which("npm") or "npm"
        subprocess.run([npm, "install", "-q", "--prefix", str(into), "typescript@5"], check=True)


def python_definitions(root: Path, paths: list[str]) -> tuple[list[Def], list[str]]:
    found: list[Def] = []
    refused: list[str] = []
    for path in paths:
        try:
            tree = ast.parse((root / path).read_bytes())
        except (SyntaxError, ValueError):
            refused.append(path)
            continue
        _walk_python(tree, path, "", found)
    return found, refused


def _walk_python(node: ast.AST, path: str, prefix: str, found: list[Def]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + child.name
            start = min([d.lineno for d in child.decorator_list] + [child.lineno])
            assert child.end_lineno is not None
            text = ast.unparse(child)  # no comments, one formatting
            found.append(Def(path, name, start, child.end_lineno, normalise(text, child.name)))
            _walk_python(child, path, name + ".", found)
        else:
            _walk_python(child, path, prefix, found)
