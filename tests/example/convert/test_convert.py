from __future__ import annotations

import importlib
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from evaltools.atomic import temps as atomic_temps
from evaltools.diagnostics import Diagnostic
from evaltools.example.convert.pipeline import Options, convert
from evaltools.example.markdown.reader import read_markdown
from evaltools.example.spec import Example, dumps_example
from evaltools.fileio import UsageError
from tests.conftest import CORPUS, REPO
from tests.example import gen_records
from tests.example.gen_records import kinds, run

# Imported dynamically: whether jsonschema's types are known is the project's choice.
jsonschema: Any = importlib.import_module("jsonschema")
SCHEMA = json.loads((REPO / "schemas" / "example-spec.schema.json").read_text())


def test_ten_thousand_records_to_a_directory_and_back(tmp_path: Path) -> None:
    lines = gen_records.jsonl_lines(10_000)
    lines[4000] = lines[3999]  # the same example twice: a file-name collision
    extra = json.loads(lines[6000])
    extra["predictions"] = [{"actual_output": "", "provider": "zeta2:1"}]
    lines[6000] = json.dumps(extra, ensure_ascii=False, separators=(",", ":")) + "\n"
    lines[-1] = lines[-1][:-200]  # a truncated last line, without its newline
    source = tmp_path / "set.jsonl"
    source.write_text("".join(lines))
    stats, found = run([source], "md", tmp_path / "md", jobs=2)
    assert [(f.code, f.line) for f in found] == [
        ("CV011", 4001),
        ("CV007", 6001),
        ("IO008", 10_000),
    ]
    assert "`predictions` cannot be kept in Markdown" in found[1].message
    assert "was it cut short" in found[2].message
    assert (stats.read, stats.written, stats.refused, stats.malformed) == (10_000, 9_998, 1, 1)
    assert stats.bytes_read == source.stat().st_size
    names = sorted(p.name for p in (tmp_path / "md").iterdir())
    assert len(names) == 9_998 and names[0] == "ex-00000-codex-acp--add-derive.md"
    stats, found = run([tmp_path / "md"], "jsonl", tmp_path / "back.jsonl", jobs=2)
    assert found == [] and stats.written == 9_998
    back = (tmp_path / "back.jsonl").read_text()
    assert back == "".join(lines[:6000] + lines[6001:-1])
    for line in back.splitlines()[:50]:
        jsonschema.validate(json.loads(line), SCHEMA)
    stats, found = run(
        [tmp_path / "md"], "jsonl", tmp_path / "some.jsonl", name="tuple", offset=100, limit=500
    )
    tuples = [i for i in range(10_000) if "tuple" in gen_records.spec(i).name]
    kept = [json.loads(line)["name"] for line in (tmp_path / "some.jsonl").read_text().splitlines()]
    assert kept == [gen_records.spec(i).name for i in tuples[100:600]]


def test_filters_apply_name_repo_then_offset_then_limit(tmp_path: Path) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 600)
    specs = [gen_records.spec(i) for i in range(600)]
    matching = [s.name for s in specs if "flask" in s.repository_url and "add" in s.name]
    stats, found = run(
        [source], "jsonl", tmp_path / "out.jsonl", name="add", repo="flask", offset=5, limit=7
    )
    assert found == []
    got = [json.loads(line)["name"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert got == matching[5:12]
    assert (stats.skipped, stats.selected, stats.written) == (5, 7, 7)
    # --limit stops reading: the run did not go through all 600 records.
    assert stats.read < 600


@pytest.mark.parametrize("to", ["jsonl", "json"])
def test_a_run_whose_every_example_is_refused_leaves_no_output_to_trip_the_next(
    tmp_path: Path, to: str
) -> None:
    # zed--change-match-arm has a paragraph outside any block: CV007 without --allow-lossy.
    source = CORPUS / "zed--change-match-arm.md"
    out = tmp_path / f"out.{to}"
    stats, found = run([source], to, out)
    assert (stats.written, stats.refused, kinds(found)) == (0, 1, ["CV007"])
    assert not out.exists()
    stats, found = run([source], to, out, allow_lossy=True)  # no --force needed
    assert (stats.written, kinds(found)) == (1, ["CV008"])
    assert out.read_bytes()


def test_a_fifo_output_is_still_closed_when_every_example_is_refused(tmp_path: Path) -> None:
    # Its reader waits for the end of the stream: no output must still end it.
    import threading

    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_bytes()), daemon=True)
    reader.start()
    stats, found = run([CORPUS / "zed--change-match-arm.md"], "jsonl", fifo)
    reader.join(timeout=10)
    assert not reader.is_alive() and read == [b""]
    assert (stats.written, kinds(found)) == (0, ["CV007"])


def test_offset_past_the_end_converts_nothing_and_says_so(tmp_path: Path) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 20)
    stats, found = run([source], "jsonl", tmp_path / "out.jsonl", offset=50)
    assert found == [] and stats.written == 0
    assert stats.notes == [
        "--offset 50 is past the end: only 20 examples matched, so nothing was converted"
    ]
    assert (tmp_path / "out.jsonl").read_bytes() == b""
    stats, _ = run([source], "jsonl", tmp_path / "none.jsonl", limit=0)
    assert stats.written == 0 and stats.notes == []
    stats, _ = run([source], "md", tmp_path / "md", offset=5)
    assert stats.written == 15 and len(list((tmp_path / "md").iterdir())) == 15
    # A run that writes nothing leaves no folder behind, not even the parents it made...
    stats, _ = run([source], "md", tmp_path / "new" / "md", offset=50)
    assert stats.written == 0 and not (tmp_path / "new").exists()
    # ...and never removes a folder that was there before.
    (tmp_path / "kept").mkdir()
    stats, _ = run([source], "md", tmp_path / "kept" / "md", name="no such name")
    assert stats.written == 0 and list((tmp_path / "kept").iterdir()) == []
    assert (tmp_path / "kept").is_dir()


def test_name_collisions_get_numbered_suffixes_in_input_order(tmp_path: Path) -> None:
    base = Example(gen_records.spec(0))
    names = ["same", "same", "Same", "same-2", "a/b", "a:b", "same"]
    lines = []
    for name in names:
        base.spec.name = name
        lines.append(dumps_example(base) + "\n")
    source = tmp_path / "dups.jsonl"
    source.write_text("".join(lines))
    stats, found = run([source], "md", tmp_path / "md")
    assert sorted(p.name for p in (tmp_path / "md").iterdir()) == sorted(
        ["same.md", "same-2.md", "Same-3.md", "same-2-2.md", "a-b.md", "a-b-2.md", "same-4.md"]
    )
    assert kinds(found) == ["CV011"] * 5
    assert [f.line for f in found] == [2, 3, 4, 6, 7]
    assert "written as Same-3.md" in found[1].message
    assert stats.renamed == 5
    # A renamed file keeps its example's name in the title.
    renamed = (tmp_path / "md" / "same-2.md").read_text()
    assert "\n# same\n" in renamed
    assert read_markdown(renamed, "same-2").spec.name == "same"
    assert "\n# " not in (tmp_path / "md" / "same.md").read_text()
    # The same for one .json per example.
    stats, found = run([source], "json", tmp_path / "json")
    assert stats.renamed == 5 and (tmp_path / "json" / "same-4.json").is_file()


def test_malformed_records_are_reported_and_the_rest_converts(tmp_path: Path) -> None:
    lines = gen_records.jsonl_lines(30)
    broken = json.loads(lines[3])
    broken["revision"] = 7
    lines[3] = json.dumps(broken) + "\n"
    lines[10] = "\n"
    lines[-1] = lines[-1][:100]  # truncated last line, no newline
    source = tmp_path / "set.jsonl"
    source.write_text("".join(lines))
    stats, found = run([source], "md", tmp_path / "md")
    assert [(f.code, f.line) for f in found] == [("CV002", 4), ("CV004", 11), ("IO008", 30)]
    assert found[0].pointer == "/revision"
    assert all(f.path == source.as_posix() for f in found)
    assert (stats.malformed, stats.written) == (3, 27)


def test_extra_fields_refuse_md_but_survive_json_and_jsonl(tmp_path: Path) -> None:
    data = json.loads(gen_records.jsonl_lines(1)[0])
    data["rating"] = "Positive"
    data["prompt"] = {"input": "…", "provider": "zeta2:1"}
    data["score"] = [{"delta_chr_f": 0.5}]
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    source = tmp_path / "extra.jsonl"
    source.write_text(line)
    stats, found = run([source], "md", tmp_path / "md")
    assert kinds(found) == ["CV007"] and stats.refused == 1
    assert "`prompt`, `score`, `rating` cannot be kept in Markdown" in found[0].message
    assert "--allow-lossy" in found[0].message
    assert not (tmp_path / "md").exists()  # nothing written: no folder left behind
    stats, found = run([source], "md", tmp_path / "md", allow_lossy=True)
    assert kinds(found) == ["CV008"] and stats.written == 1
    stats, found = run([source], "jsonl", tmp_path / "same.jsonl")
    assert found == [] and (tmp_path / "same.jsonl").read_text() == line
    stats, found = run([source], "json", tmp_path / "json")
    [written] = (tmp_path / "json").iterdir()
    value = json.loads(written.read_text())
    assert list(value) == list(json.loads(line))
    jsonschema.validate(value, SCHEMA)


def test_json_output_follows_the_reference_order_and_passes_the_schema(tmp_path: Path) -> None:
    data = json.loads(gen_records.jsonl_lines(1)[0])
    shuffled = dict(reversed(list(data.items())))
    shuffled["tags"] = ["a", "b"]
    source = tmp_path / "one.json"
    source.write_text(json.dumps(shuffled))
    run([source], "json", tmp_path / "out")
    text = (tmp_path / "out" / f"{data['name']}.json").read_text()
    value = json.loads(text)
    assert list(value)[:4] == ["name", "repository_url", "revision", "tags"]
    assert text.startswith('{\n  "name": ') and text.endswith("}\n")
    jsonschema.validate(value, SCHEMA)


def test_existing_outputs_are_refused_without_force(tmp_path: Path) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 3)
    run([source], "md", tmp_path / "md")
    first = tmp_path / "md" / f"{gen_records.spec(0).name}.md"
    first.write_text("mine")
    stats, found = run([source], "md", tmp_path / "md")
    assert kinds(found) == ["CV010"] * 3 and stats.refused == 3
    assert first.read_text() == "mine"
    stats, found = run([source], "md", tmp_path / "md", force=True)
    assert found == [] and first.read_text() != "mine"
    out = tmp_path / "out.jsonl"
    out.write_text("keep")
    stats, found = run([source], "jsonl", out)
    assert kinds(found) == ["CV010"] and out.read_text() == "keep" and stats.read == 0
    run([source], "jsonl", out, force=True)
    assert out.read_text() == source.read_text()
    assert not list(tmp_path.rglob(".evaltools-*"))


def test_parallel_run_gives_the_same_output(tmp_path: Path) -> None:
    source = tmp_path / "set.jsonl"
    lines = gen_records.jsonl_lines(200)
    lines[50] = "{broken\n"
    source.write_text("".join(lines))
    _, serial = run([source], "md", tmp_path / "one", jobs=1, chunk_size=16)
    stats, parallel = run([source], "md", tmp_path / "two", jobs=2, chunk_size=16)
    assert serial == parallel and kinds(parallel) == ["IO008"]
    assert stats.written == 199
    for path in (tmp_path / "one").iterdir():
        assert (tmp_path / "two" / path.name).read_bytes() == path.read_bytes()
    stats, _ = run([source], "jsonl", tmp_path / "p.jsonl", jobs=2, chunk_size=16, limit=20)
    assert stats.written == 20
    assert len((tmp_path / "p.jsonl").read_text().splitlines()) == 20
    stats, _ = run([source], "md", tmp_path / "lim", jobs=2, chunk_size=16, limit=20)
    assert len(list((tmp_path / "lim").iterdir())) == 20  # nothing spooled is left behind


def test_single_file_and_stdout_outputs(tmp_path: Path) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 2)
    stats, found = run([source], "md", tmp_path / "one.md", limit=1)
    assert found == [] and stats.written == 1
    text = (tmp_path / "one.md").read_text()
    assert read_markdown(text, "one").spec.name == gen_records.spec(0).name
    with pytest.raises(UsageError, match=r"-o \S+one\.json names one file, but 2 examples"):
        run([source], "json", tmp_path / "x" / "one.json")
    assert not (tmp_path / "x").exists()
    stdout = io.BytesIO()
    found = []
    convert([source], Options("md", Path("-"), offset=1), found.append, stdout=stdout)
    assert found == [] and stdout.getvalue().startswith(b"+++\n")
    assert f"\n# {gen_records.spec(1).name}\n".encode() in stdout.getvalue()
    stdout = io.BytesIO()
    stdin = io.BytesIO(source.read_bytes())
    convert([Path("-")], Options("jsonl", Path("-")), found.append, stdout=stdout, stdin=stdin)
    names = [json.loads(line)["name"] for line in stdout.getvalue().splitlines()]
    assert names == [gen_records.spec(0).name, gen_records.spec(1).name]


def test_a_one_example_output_refuses_several_while_streaming(tmp_path: Path) -> None:
    # How many examples are selected is known only as they are read: nothing is written
    # until the end, and the run stops at the chunk where a second one turns up.
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 40)
    for output in (tmp_path / "one.md", Path("-")):
        stdout = io.BytesIO()
        options = Options("md", output, jobs=2, chunk_size=8)
        with pytest.raises(UsageError, match="but at least 8 examples were selected"):
            convert([source], options, print, stdout=stdout)
        assert stdout.getvalue() == b""
    options = Options("json", tmp_path / "one.json", offset=35, limit=3, chunk_size=8)
    with pytest.raises(UsageError, match="but 3 examples were selected"):
        convert([source], options, print)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.jsonl"]
    # One example among many, known to be the only one only at the end: written.
    only = gen_records.spec(37).name
    stats, found = run([source], "json", tmp_path / "one.json", name=only, jobs=2, chunk_size=8)
    assert found == [] and (stats.read, stats.selected, stats.written) == (40, 1, 1)
    assert json.loads((tmp_path / "one.json").read_text())["name"] == only


def test_unwritable_file_names_are_reported(tmp_path: Path) -> None:
    data = json.loads(gen_records.jsonl_lines(1)[0])
    data["name"] = "nul\u0000name"
    long = dict(data, name="x" * 300)
    source = tmp_path / "names.jsonl"
    source.write_text(json.dumps(data) + "\n" + json.dumps(long) + "\n")
    _, found = run([source], "md", tmp_path / "md")
    assert kinds(found) == ["CV012", "CV012"]
    assert "cannot write" in found[1].message and "too long" in found[1].message
    assert not (tmp_path / "md").exists()


def test_an_interrupted_run_leaves_no_output(tmp_path: Path) -> None:
    source = tmp_path / "set.jsonl"
    lines = gen_records.jsonl_lines(40)
    lines[30] = "{\n"
    source.write_text("".join(lines))

    def stop(finding: Diagnostic) -> None:
        raise KeyboardInterrupt

    for to, out in (("jsonl", tmp_path / "o.jsonl"), ("md", tmp_path / "md")):
        with pytest.raises(KeyboardInterrupt):
            convert([source], Options(to, out, chunk_size=8), stop)
        assert not list(tmp_path.rglob(".evaltools-*"))
    assert not (tmp_path / "o.jsonl").exists()
    assert len(list((tmp_path / "md").iterdir())) == 30


def test_usage_problems(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown target"):
        convert([], Options("yaml", tmp_path), print)
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    with pytest.raises(UsageError, match="is a file"):
        convert([], Options("md", blocker), print)
    with pytest.raises(UsageError, match="is a directory"):
        convert([], Options("jsonl", tmp_path), print)


def test_failures_while_spooling_and_single_outputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 1)
    (tmp_path / "one.md").write_text("mine")
    stats, found = run([source], "md", tmp_path / "one.md")
    assert kinds(found) == ["CV010"] and stats.read == 0
    (tmp_path / "blocker").write_text("x")
    stats, found = run([source], "md", tmp_path / "blocker" / "one.md")
    assert kinds(found) == ["CV012"] and "cannot write" in found[0].message

    def full(fd: int, data: object) -> int:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch, pytest.raises(OSError, match="No space left"):
        patch.setattr(os, "write", full)
        atomic_temps.spool(f"{tmp_path}/x-", b"data")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "one.md", "set.jsonl"]
