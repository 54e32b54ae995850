"""The body index's near search: the same answers as scoring every body, found through
an inverted index of tokens, and honest about searches it cut short."""

from __future__ import annotations

import difflib
import hashlib
import random
import re

import pytest

from evaltools.retrieval.gold.reanchor.history import bodies, hollow
from evaltools.retrieval.gold.reanchor.history.bodies import (
    BODY_MARGIN,
    MAX_SCORED,
    Body,
    BodyIndex,
    file_bodies,
    make_body,
)

WORDS = [f"w{i}" for i in range(60)] + ["(", ")", ".", "=", ",", "self", "return"]


def full_scan(index: BodyIndex, old: Body, floor: float) -> tuple[list[tuple[float, Body]], bool]:
    """The search as it was before the token index: every body of the language bounded."""
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(old.tokens)
    bounds: list[tuple[float, int]] = []
    for position, body in enumerate(index.bodies):
        if body.language != old.language:
            continue
        matcher.set_seq1(body.tokens)
        if matcher.real_quick_ratio() >= floor and (bound := matcher.quick_ratio()) >= floor:
            bounds.append((bound, position))
    bounds.sort(key=lambda pair: -pair[0])
    found: list[tuple[float, Body]] = []
    best = 0.0
    for scored, (bound, position) in enumerate(bounds):
        if bound < max(floor, best - BODY_MARGIN):
            break
        if scored == MAX_SCORED:
            return sorted(found, key=lambda p: (-p[0], p[1].chunk_id)), False
        body = index.bodies[position]
        matcher.set_seq1(body.tokens)
        score = 1.0 if body.fingerprint == old.fingerprint else matcher.ratio()
        if score >= floor:
            found.append((score, body))
            best = max(best, score)
    return sorted(found, key=lambda p: (-p[0], p[1].chunk_id)), True


def mutate(rng: random.Random, tokens: list[str], edits: int) -> list[str]:
    out = list(tokens)
    for _ in range(edits):
        kind = rng.randrange(3)
        at = rng.randrange(len(out) + 1)
        if kind == 0:
            out.insert(at, rng.choice(WORDS))
        elif out and kind == 1:
            del out[min(at, len(out) - 1)]
        elif out:
            out[min(at, len(out) - 1)] = rng.choice(WORDS)
    return out


def generated(seed: int, words: list[str] = WORDS) -> tuple[BodyIndex, list[Body]]:
    """Families of edited copies (near bodies) among unrelated ones, in two languages;
    from few `words`, every token is common and bodies resemble one another by chance."""
    rng = random.Random(seed)
    found: list[Body] = []
    olds: list[Body] = []
    for family in range(40):
        # Zipf-like: a few tokens in nearly every body, most in few (as in code).
        weights = [1 / (rank + 1) for rank in range(len(words))]
        base = rng.choices(words, weights, k=rng.randint(5, 60))
        ext = ".py" if family % 3 else ".ts"
        olds.append(make_body(f"old{family}{ext}", f"old{family}", "f", [" ".join(base)]))
        for copy in range(rng.randint(0, 4)):
            tokens = mutate(rng, base, rng.randint(0, len(base) // 2))
            path = f"f{family}_{copy}{ext}"
            found.append(make_body(path, f"{path}:1-1:g", "g", [" ".join(tokens)]))
    rng.shuffle(found)
    return BodyIndex(found), olds


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("floor", [0.5, 0.6, 0.7])
@pytest.mark.parametrize("vocabulary", [WORDS, WORDS[:6]], ids=["varied", "few-words"])
def test_near_finds_what_scoring_every_body_finds(
    seed: int, floor: float, vocabulary: list[str]
) -> None:
    index, olds = generated(seed, vocabulary)
    for old in olds:
        assert index.near(old, floor) == full_scan(index, old, floor)
        assert index.near(old, floor, complete=True) == full_scan(index, old, floor)


def test_an_empty_body_finds_only_empty_ones() -> None:
    empty = make_body("a.py", "a.py:1-1:f", "f", ["# only a comment"])
    other = make_body("b.py", "b.py:1-1:g", "g", ["# another"])
    full = make_body("c.py", "c.py:1-2:h", "h", ["return 1"])
    index = BodyIndex([other, full])
    assert index.near(empty) == ([(1.0, other)], True)


def test_a_search_cut_short_says_so_and_scores_only_a_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index, olds = generated(1)
    monkeypatch.setattr(bodies, "MAX_POSTINGS", 3)
    old = max(olds, key=lambda b: len(b.tokens))
    found, complete = index.near(old)
    assert not complete
    assert len(found) <= bodies.INEXACT_SCORED
    # Asked only for a complete answer, it scores nothing.
    assert index.near(old, complete=True) == ([], False)


def previous_body(path: str, chunk_id: str, name: str, lines: list[str]) -> Body:
    """A body as it was computed before lines were tokenised once per file: the oracle."""
    leaf = name.rpartition(".")[2]
    kept = [text for line in lines if (text := line.strip()) and not text.startswith(("#", "//"))]
    tokens = tuple("_" if t == leaf else t for t in re.findall(r"\w+|[^\w\s]", "\n".join(kept)))
    digest = hashlib.blake2b("\0".join(tokens).encode("utf-8", "surrogateescape"), digest_size=16)
    size = sum(map(len, tokens))
    return Body(path, chunk_id, name, size, digest.hexdigest(), "python", tokens)


# Form feeds, lone carriage returns and Unicode separators end a line for `splitlines`, not
# for tree-sitter's rows (and chunk IDs): a body's lines are cut at `\n` only.
PIECES = [*WORDS, "  # a comment", "// also", "", "   ", "é", "x_1", "run", "Store", "\t", "'s'"]
PIECES += ["\x0c", "\r", "\u2028", "\xa0# after a no-break space", "\x0c// after a feed", "a#b"]


@pytest.mark.parametrize("seed", range(40))
def test_file_bodies_are_the_bodies_of_each_span_alone(seed: int) -> None:
    rng = random.Random(seed)
    lines = [" ".join(rng.choices(PIECES, k=rng.randrange(6))) for _ in range(rng.randrange(1, 40))]
    data = "\n".join(lines).encode() + rng.choice([b"", b"\n", b"\r\n"])
    named = []
    for number in range(rng.randrange(1, 8)):  # spans that nest and overlap, as a class's do
        start = rng.randrange(1, len(lines) + 1)
        end = rng.randrange(start, len(lines) + 1)
        name = rng.choice(["run", "Store.run", "Store", "x_1", "é", "Store.missing"])
        named.append((name, start, end, f"a.py:{start}-{end}:{name}#{number}"))
    found = file_bodies("a.py", data, named)
    text = data.decode().split("\n")
    expected = [previous_body("a.py", c, n, text[s - 1 : e]) for n, s, e, c in named]
    assert found == expected
    assert found == [make_body("a.py", c, n, text[s - 1 : e]) for n, s, e, c in named]


@pytest.mark.parametrize("seed", range(20))
def test_ascii_text_gives_the_tokens_of_the_unicode_pattern(seed: int) -> None:
    # ASCII text takes a faster pattern; \x1c-\x1f are blank to `str.isspace`, not to ASCII `\s`.
    rng = random.Random(seed)
    for _ in range(200):
        text = "".join(chr(rng.randrange(128)) for _ in range(rng.randrange(40)))
        assert bodies._token_pattern(text).findall(text) == re.findall(r"\w+|[^\w\s]", text)


LONG = "var " + ",".join(f"v{i}=function(n){{return n+{i}}}" for i in range(60))  # minified


@pytest.mark.parametrize("path", ["dist/app.min.js", "pkg/table.py"])
def test_a_line_longer_than_the_limit_is_left_out_of_bodies(path: str) -> None:
    """Such a line holds other definitions too (minified code): no evidence of its code,
    and never compared (a minified bundle's ten thousand tokens made each comparison take
    a second). A definition with nothing else has no body; one with a long literal keeps
    the rest of its lines."""
    assert len(LONG) > bodies.MAX_LINE_CHARS
    lines = ["def f(x):", "    return x + 1", LONG, "# " + LONG]
    data = "\n".join(lines).encode()
    named = [("f", 1, 2, f"{path}:1-2:f"), ("g", 3, 3, f"{path}:3-3:g"), ("c", 4, 4, "c")]
    named.append(("f", 1, 3, f"{path}:1-3:f"))
    found = file_bodies(path, data, named)
    assert found == [make_body(path, c, n, lines[s - 1 : e]) for n, s, e, c in named]
    short, long, comment, literal = found
    assert literal.tokens == short.tokens and literal.fingerprint == short.fingerprint
    assert bodies.has_body(short) and bodies.has_body(comment)  # a comment line is no code
    assert not bodies.has_body(long) and long.tokens == ()
    twin = make_body(path, "x", "g", [LONG])
    assert bodies.similarity(long, twin) == 0.0
    index = BodyIndex([short, long, twin, comment, literal])
    assert index.exact(long) == [] and index.near(long) == ([], True)
    assert all(b is not long and b is not twin for _, b in index.near(short, 0.0)[0])
    assert index.exact(short) == [short, literal]


@pytest.mark.parametrize(
    ("path", "text", "declared", "coded"),
    [
        ("A.java", "/** Uses {@link Script}. */\nSet<String> getVariables();", True, False),
        ("A.java", "@Override\npublic String asString() {\n  return name;\n}", False, True),
        ("a.rs", "/// The variables.\nfn f(&self) -> Vec<String>;", True, False),
        ("a.rs", "fn f(&self) -> Vec<String> {\n    self.vars.clone()\n}", False, True),
        ("A.java", '@Deprecated(since = "2")\n@GET("/{id}")\nString f(int id);', True, False),
        ("A.java", "int f = compute(1, 2);", False, False),
        # A type and a module, not functions declared.
        ("a.rs", "pub struct Hook(pub fn(&mut u8));", False, False),
        ("a.rs", "mod tests;", False, False),
        # Languages whose declarations are no definitions, or have none.
        ("a.ts", "export const f = (a: string) => new SemVer(a).major;", False, False),
        ("a.py", "def f(self) -> int: ...", False, False),
    ],
)
def test_a_bare_declaration_is_told_from_code(
    path: str, text: str, declared: bool, coded: bool
) -> None:
    body = make_body(path, f"{path}:1-2:f", "f", text.split("\n"))
    assert (hollow.declared_only(body), hollow.implemented(body)) == (declared, coded)
