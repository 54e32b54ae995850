from __future__ import annotations

import io
import json
import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.commands.convert import _progress_line
from evaltools.example.convert.pipeline import Stats
from evaltools.report.progress import Progress
from tests.conftest import CORPUS
from tests.example import gen_records


def test_corpus_to_jsonl_refuses_lossy_files_naming_the_lines(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", str(CORPUS), "--to", "jsonl", "-o", "all.jsonl", "--jobs", "1"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(
        f"{CORPUS.as_posix()}/vscode--log-object-property.md:6:1: CV007 [error] "
    )
    assert out[0].endswith(
        "at line 6 is not part of the example: not converted (move it into `## Reasoning` "
        "(right after the front matter) to keep it, or pass --allow-lossy to drop it)"
    )
    assert "zed--change-match-arm.md:6:1: CV007 [error]" in out[1]
    assert out[2] == "15 examples to jsonl (13 written, 2 refused): all.jsonl"
    assert len((in_tmp / "all.jsonl").read_text().splitlines()) == 13
    args = ["convert", str(CORPUS), "--to", "jsonl", "-o", "all.jsonl", "--allow-lossy"]
    assert main(args) == 1  # the output exists
    assert "CV010 [error] all.jsonl already exists: pass --force" in capsys.readouterr().out
    assert main([*args, "--force"]) == 0
    assert capsys.readouterr().out.count("CV008 [warning]") == 2
    assert len((in_tmp / "all.jsonl").read_text().splitlines()) == 15


def test_jsonl_to_md_and_back_through_the_cli(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = gen_records.write_jsonl(in_tmp / "set.jsonl", 600)
    assert main(["convert", "set.jsonl", "--to", "md", "-o", "md", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == "600 examples to md (600 written): md\n"
    assert main(["convert", "md", "--to", "jsonl", "-o", "back.jsonl", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["written"] == 600 and report["findings"] == [] and report["to"] == "jsonl"
    assert (in_tmp / "back.jsonl").read_text() == "".join(lines)


def test_json_report_lists_findings_and_counts(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = gen_records.jsonl_lines(10)
    lines[4] = '{"name": 1}\n'
    (in_tmp / "set.jsonl").write_text("".join(lines))
    args = ["convert", "set.jsonl", "--to", "json", "-o", "out", "--format", "json"]
    assert main([*args, "--name", "flask", "--offset", "1", "--limit", "2"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {k: report[k] for k in ("selected", "written", "malformed", "skipped")} == {
        "selected": 2,
        "written": 2,
        "malformed": 1,
        "skipped": 1,
    }
    [finding] = report["findings"]
    assert finding["code"] == "CV002" and finding["line"] == 5
    assert finding["pointer"] == "/repository_url"
    assert sorted(p.name for p in (in_tmp / "out").iterdir()) == [
        f"{gen_records.spec(i).name}.json" for i in (2, 3)
    ]


def test_a_field_of_the_wrong_type_is_reported_at_its_value(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(gen_records.jsonl_lines(1)[0])
    data["revision"] = 123
    (in_tmp / "bad.json").write_text(json.dumps(data, indent=2))
    (in_tmp / "bad.jsonl").write_text(json.dumps(data, ensure_ascii=False) + "\n")
    column = json.dumps(data, ensure_ascii=False).index("123") + 1
    for name, where in (("bad.json", "4:15"), ("bad.jsonl", f"1:{column}")):
        assert main(["convert", name, "--to", "md", "-o", "-"]) == 1
        assert capsys.readouterr().err.startswith(
            f"{name}:{where}: CV002 [error] /revision must be a string, not a number"
        )


def test_stdin_to_stdout_keeps_the_report_off_stdout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = gen_records.jsonl_lines(3)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("".join(lines).encode())))
    assert main(["convert", "-", "--to", "jsonl", "-o", "-", "--offset", "5"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "note: --offset 5 is past the end: only 3 examples matched" in captured.err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("".join(lines).encode())))
    assert main(["convert", "-", "--to", "jsonl", "-o", "-", "--repo", "codex"]) == 0
    captured = capsys.readouterr()
    assert captured.out == lines[0]
    assert captured.err == (
        "1 example to jsonl (1 written, 2 not matching --name/--repo): stdout\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--offset", "-1"], "must not be negative"),
        (["--jobs", "-1"], "--jobs must be 0 (every core), 1 (no worker processes) or more"),
        (["--to", "jsonl", "-o", "set.jsonl", "--force"], "-o set.jsonl: is also an input"),
        (["missing.md"], "no such file or directory: missing.md"),
        (["-", "-"], "stdin (-) can be read only once"),
        (["--to", "jsonl", "-o", "."], "is a directory"),
        (["--to", "md", "-o", "set.jsonl"], "is a file"),
        (["--to", "jsonl", "-o", "x.md"], "name the file *.jsonl"),
        (["--to", "jsonl", "-o", "out/"], "-o out/: names a folder; name the file to write"),
    ],
)
def test_usage_errors_exit_2(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    gen_records.write_jsonl(in_tmp / "set.jsonl", 1)
    if "--to" not in argv:
        argv = [*argv, "--to", "md", "-o", "md"]
    sources = [] if argv[0] in ("missing.md", "-") else ["set.jsonl"]
    assert main(["convert", *sources, *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_folder_typed_for_md_or_json_is_one(in_tmp: Path) -> None:
    gen_records.write_jsonl(in_tmp / "set.jsonl", 1)
    assert main(["convert", "set.jsonl", "--to", "json", "-o", "out/"]) == 0
    assert [p.suffix for p in (in_tmp / "out").iterdir()] == [".json"]
    # Named like a file, typed as a folder: a folder (before: a file `x.json`).
    assert main(["convert", "set.jsonl", "--to", "json", "-o", "x.json/"]) == 0
    assert [p.suffix for p in (in_tmp / "x.json").iterdir()] == [".json"]
    # A jsonl output typed as a folder wrote nothing (before: a file `out2`).
    assert main(["convert", "set.jsonl", "--to", "jsonl", "-o", "out2/"]) == 2
    assert not (in_tmp / "out2").exists()


def test_help_and_required_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "--help"]) == 0
    assert "--allow-lossy" in capsys.readouterr().out
    assert main(["convert", "x.md", "-o", "out"]) == 2
    assert "--to" in capsys.readouterr().err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_only_on_a_terminal_for_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    now = [0.0]
    screen = _Terminal()
    progress = Progress(screen, clock=lambda: now[0])
    progress.update((s := Stats(read=10)).read, lambda rate: _progress_line(s, rate))
    assert screen.getvalue() == ""  # short so far
    now[0] = 3.0
    progress.update(
        (s := Stats(read=300, written=290, bytes_read=3_000_000)).read,
        lambda rate: _progress_line(s, rate),
    )
    assert screen.getvalue() == "\r300 records read, 290 written (3.0 MB, 100 records/s)\x1b[K"
    now[0] = 3.1
    progress.update((s := Stats(read=400)).read, lambda rate: _progress_line(s, rate))
    assert screen.getvalue().count("\r") == 1  # throttled
    progress.clear()
    assert screen.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()
    progress = Progress(quiet, clock=lambda: now[0])
    progress.update((s := Stats(read=5000)).read, lambda rate: _progress_line(s, rate))
    progress.clear()
    assert quiet.getvalue() == ""
    closed = io.StringIO()
    closed.close()
    assert not Progress(closed).enabled


def test_file_problems_keep_their_io_codes(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "crlf.md").write_bytes(b"+++\r\nrepository_url = 1\r\n")
    assert main(["convert", "crlf.md", "--to", "jsonl", "-o", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("crlf.md:1:4: IO003 [error] line ends with CRLF")


def test_json_python_reads_but_the_reference_refuses_is_not_converted(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = gen_records.jsonl_lines(1)[0]
    surrogate = good.replace('"name":"', '"name":"\\ud800', 1)
    duplicate = good.replace("{", '{"name":"first",', 1)
    assert good not in (surrogate, duplicate)
    (in_tmp / "set.jsonl").write_text(surrogate + duplicate)
    for target in ("md", "jsonl"):
        assert main(["convert", "set.jsonl", "--to", target, "-o", "-"]) == 1
        out, err = capsys.readouterr()
        assert out == ""
        # One rule (IO008) and one wording for invalid JSON, at the column at fault.
        escape = surrogate.find("\\ud800") + 1
        repeated = duplicate.find('"name"', len('{"name":"first",')) + 1
        assert f"set.jsonl:1:{escape}: IO008 [error] string holds a lone UTF-16" in err
        assert f'set.jsonl:2:{repeated}: IO008 [error] key "name" occurs twice in one' in err
        assert "internal error" not in err


def test_an_output_that_is_a_fifo_stays_one(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As for -o /dev/null: renaming the finished file onto it would replace the node.
    lines = gen_records.write_jsonl(in_tmp / "set.jsonl", 3)
    fifo = in_tmp / "out.jsonl"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["convert", "set.jsonl", "--to", "jsonl", "-o", str(fifo)]) == 0
    assert capsys.readouterr().out == f"3 examples to jsonl (3 written): {fifo.as_posix()}\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    reader.join(timeout=120)  # liveness only: the writer has closed the FIFO
    assert b"".join(received).decode() == "".join(lines)


def test_names_starting_with_a_dot_do_not_become_hidden_files(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Directories are read without hidden files: `.x.md` would drop out of md -> jsonl.
    line = json.loads(gen_records.jsonl_lines(1)[0])
    names = [".hidden", ".", "visible"]
    (in_tmp / "set.jsonl").write_text(
        "".join(json.dumps({**line, "name": n}) + "\n" for n in names)
    )
    assert main(["convert", "set.jsonl", "--to", "md", "-o", "md"]) == 0
    assert sorted(p.name for p in (in_tmp / "md").iterdir()) == ["-.md", "-hidden.md", "visible.md"]
    assert main(["convert", "md", "--to", "jsonl", "-o", "back.jsonl"]) == 0
    back = [json.loads(x)["name"] for x in (in_tmp / "back.jsonl").read_text().splitlines()]
    assert sorted(back) == sorted(names)


@pytest.mark.parametrize(
    ("to", "output", "shown"),
    [
        ("md", "single.md", "-o single.md names one file"),
        ("json", "single.json", "-o single.json names one file"),
        ("md", "-", "-o - (stdout) takes one example"),
    ],
)
def test_several_examples_for_one_output_file_are_refused_before_writing(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], to: str, output: str, shown: str
) -> None:
    sources = [
        str(CORPUS / "flask--add-import-statement.md"),
        str(CORPUS / "zed--change-match-arm.md"),
    ]
    assert main(["convert", *sources, "--to", to, "-o", output]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"evaltools convert: error: {shown}, but 2 examples were selected: name a directory "
        "with -o for one file per example, or write them all into one file with --to jsonl "
        "(or select one with --name, --offset or --limit 1)\n"
    )
    assert list(in_tmp.iterdir()) == []


@pytest.mark.parametrize("to", ["json", "jsonl"])
def test_text_after_a_recent_file_tab_that_is_no_position_is_refused(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], to: str
) -> None:
    text = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
    block = "## Recently Opened Files\n\n```\nsrc/flask/app.py\tline 12\nsrc/flask/ctx.py\tabc\n```"
    (in_tmp / "x.md").write_text(text.replace("## Edit History", f"{block}\n\n## Edit History", 1))
    assert main(["convert", "x.md", "--to", to, "-o", f"x.{to}"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("x.md:9:18: CV007 [error] `line 12` after the tab")
    assert out[0].endswith("or pass --allow-lossy to drop it)")
    assert out[1].startswith("x.md:10:18: CV007 [error] `abc` after the tab")
    output = in_tmp / f"x.{to}"
    assert not output.exists() or output.read_text() == ""
    output.unlink(missing_ok=True)
    assert main(["convert", "x.md", "--to", to, "-o", f"x.{to}", "--allow-lossy"]) == 0
    assert capsys.readouterr().out.count("CV008 [warning]") == 2
    written = json.loads((in_tmp / f"x.{to}").read_text())
    assert written["recently_opened_files"] == [
        {"path": "src/flask/app.py"},
        {"path": "src/flask/ctx.py"},
    ]


def test_keys_nested_in_recent_files_are_kept_in_json_and_refused_for_markdown(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(gen_records.jsonl_lines(1)[0])
    record["recently_opened_files"] = [
        {"path": "src/a.py", "cursor_position": 3, "note": "keep me"},
        {"meta": {"seen": 2}, "path": "src/b.py"},
    ]
    record["recently_viewed_files"] = [{"path": "src/c.py", "why": None}]
    (in_tmp / "x.json").write_text(json.dumps(record, indent=2) + "\n")
    assert main(["convert", "x.json", "--to", "jsonl", "-o", "x.jsonl"]) == 0
    assert main(["convert", "x.jsonl", "--to", "json", "-o", "back.json"]) == 0
    capsys.readouterr()
    for written in ("x.jsonl", "back.json"):
        data = json.loads((in_tmp / written).read_text())
        assert data["recently_opened_files"] == record["recently_opened_files"]
        assert list(data["recently_opened_files"][1]) == ["meta", "path"]
        assert data["recently_viewed_files"] == record["recently_viewed_files"]
    assert main(["convert", "x.json", "--to", "md", "-o", "x.md"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "x.json:17:15: CV007 [error] `recently_opened_files/0/note`, "
        "`recently_opened_files/1/meta`, `recently_viewed_files/0/why` cannot be kept in "
        "Markdown: not converted (convert to .jsonl instead, or pass --allow-lossy to drop it)"
    )
    assert len(out) == 2  # the keys are the loss, named once
    assert not (in_tmp / "x.md").exists()
    assert main(["convert", "x.json", "--to", "md", "-o", "x.md", "--allow-lossy"]) == 0
    assert "CV008 [warning]" in capsys.readouterr().out
    assert "src/a.py\t3\nsrc/b.py\n" in (in_tmp / "x.md").read_text()


@pytest.mark.parametrize(("to", "output"), [("jsonl", "all.jsonl"), ("md", "one.md")])
def test_an_output_created_while_the_run_worked_is_kept_without_force(
    in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    to: str,
    output: str,
) -> None:
    from evaltools.example.convert import sinks

    source = CORPUS / "flask--add-import-statement.md"
    placed = in_tmp / output
    sink = sinks.JsonlSink if to == "jsonl" else sinks.SingleSink
    checked = sink.refusal

    def refusal_then_someone_writes(self: sinks.Sink) -> tuple[str, str] | None:
        found = checked(self)  # type: ignore[arg-type]
        placed.write_bytes(b"someone's file\n")  # after the check, before the write
        return found

    monkeypatch.setattr(sink, "refusal", refusal_then_someone_writes)
    assert main(["convert", str(source), "--to", to, "-o", output, "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert f"CV012 [error] cannot write {output}: file changed while evaltools" in out
    assert out.count("nothing was written") == 1
    assert placed.read_bytes() == b"someone's file\n"
    assert sorted(p.name for p in in_tmp.iterdir()) == [output]
