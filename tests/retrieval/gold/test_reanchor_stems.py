"""Files renamed in place by one pattern, checked in a plain tree (no history): commons-io
2.12 renamed its `*TestCase.java` to `*Test.java`, each class with its file, and the set
names a member or two of each. Shown by `MIN_RENAMED` gone files, the pattern renames each;
shown by fewer, it renames none."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.retrieval.gold.reanchor.plain.file_renames import MIN_RENAMED, _moved_with_parents
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def java(stem: str, subject: str) -> tuple[str, str, str]:
    """A JUnit class testing `subject`: its path, text and its one test's symbol."""
    text = (
        f"public class {stem} {{\n    @Test\n    public void test{subject}() {{\n"
        f'        assertEquals(1, {subject}.parse("1"));\n    }}\n}}\n'
    )
    return f"src/test/java/org/example/{stem}.java", text, f"{stem}.test{subject}"


def typescript(stem: str, subject: str) -> tuple[str, str, str]:
    """A test module of `subject`: its path, text and its one helper's symbol."""
    text = (
        f"function check{subject}(input: string): number {{\n"
        f"  return {subject.lower()}.parse(input)\n}}\n\n"
        f"test('{subject}', () => expect(check{subject}('1')).toBe(1))\n"
    )
    return f"test/{stem}.ts", text, f"check{subject}"


# language: (the file of a subject under a stem, the old stem, the new stem)
CASES = {
    "java": (java, "{}TestCase", "{}Test"),
    "typescript": (typescript, "{}.spec", "{}.test"),
}
SUBJECTS = ["Charsets", "Endian", "Filenames", "Streams"]


def renamed(
    language: str, count: int, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str], dict[str, dict[str, object]]]:
    """`count` files renamed by the pattern, one gold ID in each: the exit code, the new
    chunk IDs and each ID's verdict."""
    make, before, after = CASES[language]
    olds = [make(before.format(s), s) for s in SUBJECTS[:count]]
    for path, text, _ in olds:
        repo.write(path, text)
    old = repo.commit("tests")
    gold = [chunk_id(repo, path, symbol) for path, _, symbol in olds]
    news = [make(after.format(s), s) for s in SUBJECTS[:count]]
    for (old_path, _, _), (path, text, _) in zip(olds, news, strict=True):
        repo.rm(old_path)
        repo.write(path, "\n" + text)
    repo.commit("renamed")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    wanted = [chunk_id(repo, path, symbol) for path, _, symbol in news]
    return code, wanted, {g: got[g] for g in gold}


@pytest.mark.parametrize("language", list(CASES))
def test_files_renamed_by_one_pattern_take_their_ids(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, wanted, got = renamed(language, MIN_RENAMED, repo, tmp_path, capsys)
    assert code == 1
    assert [v["new_chunk_id"] for v in got.values()] == wanted
    assert all("renamed as others of the set were" in str(v["evidence"]) for v in got.values())


@pytest.mark.parametrize("language", list(CASES))
def test_a_pattern_too_few_files_show_renames_none(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, got = renamed(language, MIN_RENAMED - 1, repo, tmp_path, capsys)
    assert code == 1
    assert [v["new_chunk_id"] for v in got.values()] == [None] * (MIN_RENAMED - 1)


def test_a_change_at_the_start_is_not_the_pattern_of_one_at_the_end(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`CaseInsensitiveMapTest` -> `InsensitiveMapTest` loses `Case` at its start; the
    set's pattern (`FooTestCase` -> `FooTest`) loses it at the end: no rename."""
    make, before, after = CASES["java"]
    olds = [make(before.format(s), s) for s in SUBJECTS[:MIN_RENAMED]]
    odd = make("CaseInsensitiveMapTest", "Get")
    for path, text, _ in [*olds, odd]:
        repo.write(path, text)
    old = repo.commit("tests")
    gold = chunk_id(repo, odd[0], odd[2])
    shown = [chunk_id(repo, path, symbol) for path, _, symbol in olds]  # the pattern
    for (old_path, _, _), s in zip(olds, SUBJECTS, strict=False):
        repo.rm(old_path)
        path, text, _ = make(after.format(s), s)
        repo.write(path, text)
    repo.rm(odd[0])
    path, text, _ = make("InsensitiveMapTest", "Get")
    repo.write(path, text)
    repo.commit("renamed")
    ids = [gold, *shown]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert all(got[g]["new_chunk_id"] is not None for g in shown)
    assert got[gold]["new_chunk_id"] is None


def test_the_type_named_as_its_file_is_renamed_with_it(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, before, after = CASES["java"]
    olds = [make(before.format(s), s) for s in SUBJECTS[:MIN_RENAMED]]
    for path, text, _ in olds:
        repo.write(path, text)
    old = repo.commit("tests")
    gold = [chunk_id(repo, path, path.rpartition("/")[2][:-5]) for path, _, _ in olds]
    for (old_path, _, _), s in zip(olds, SUBJECTS, strict=False):
        repo.rm(old_path)
        path, text, _ = make(after.format(s), s)
        repo.write(path, text)
    repo.commit("renamed")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    news = [make(after.format(s), s)[0] for s in SUBJECTS[:MIN_RENAMED]]
    assert [got[g]["new_chunk_id"] for g in gold] == [
        chunk_id(repo, path, path.rpartition("/")[2][:-5]) for path in news
    ]


def _under(made: tuple[str, str, str], folder: str) -> tuple[str, str, str]:
    """A file made by `CASES`, moved to `folder`."""
    path, text, symbol = made
    return f"{folder}/{path.rpartition('/')[2]}", text, symbol


@pytest.mark.parametrize(
    "layout",
    [("", False), ("/bugs", False), ("/bugs", True)],
    ids=["folder", "subfolder", "subfolder-shown-moved-too"],
)
@pytest.mark.parametrize("language", list(CASES))
def test_files_renamed_by_the_pattern_in_the_folder_theirs_moved_to_take_their_ids(
    language: str,
    layout: tuple[str, bool],
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """commons-beanutils 2.0 moved `org/apache/commons/beanutils` to `.../beanutils2` and
    renamed each `FooTestCase.java` in it, and in its folders, to `FooTest.java`: the files
    kept by name show where the folder went, the others the pattern. A file kept by name in
    the subfolder (`layout`'s flag) shows it moved too: the place its renamed files went is
    then reached both ways, and still holds one rename of each."""
    subfolder, kept_below = layout
    make, before, after = CASES[language]
    kept = [make(f"{s}Util", s) for s in ("Alpha", "Beta", "Gamma")]
    folder = kept[0][0].rpartition("/")[0]
    if kept_below:
        kept.append(_under(make("DeltaUtil", "Delta"), folder + subfolder))
    olds = [_under(make(before.format(s), s), folder + subfolder) for s in SUBJECTS[:MIN_RENAMED]]
    for path, text, _ in [*kept, *olds]:
        repo.write(path, text)
    old = repo.commit("tests")
    shown = [chunk_id(repo, path, symbol) for path, _, symbol in kept]  # the folder moved
    gold = [chunk_id(repo, path, symbol) for path, _, symbol in olds]
    for made in kept:
        repo.rm(made[0])
        below = made[0].rpartition("/")[0][len(folder) :]
        path, text, _ = _under(made, f"{folder}s{below}")
        repo.write(path, "\n" + text)
    news = [
        _under(make(after.format(s), s), f"{folder}s{subfolder}") for s in SUBJECTS[:MIN_RENAMED]
    ]
    for (old_path, _, _), (path, text, _) in zip(olds, news, strict=True):
        repo.rm(old_path)
        repo.write(path, "\n" + text)
    repo.commit("moved and renamed")
    code, got = gold_check(
        repo, tmp_path, capsys, [*shown, *gold], old, root=plain_copy(repo, tmp_path)
    )
    assert code == 1
    wanted = [chunk_id(repo, path, symbol) for path, _, symbol in news]
    assert [got[g]["new_chunk_id"] for g in gold] == wanted
    assert all("renamed as others of the set were" in got[g]["evidence"] for g in gold)


@pytest.mark.parametrize(
    ("moved", "wanted"),
    [
        ({"src/a": ["lib/a"]}, ["lib/a/bugs"]),
        ({"src/a": [""]}, ["bugs"]),  # its folder moved to the root
        ({"src": ["lib"], "src/a/bugs": ["x"]}, ["x", "lib/a/bugs"]),
    ],
)
def test_the_folders_a_folder_moved_to_follow_its_parents(
    moved: dict[str, list[str]], wanted: list[str]
) -> None:
    shown: dict[tuple[str | None, str], list[str]] = {
        (None, folder): news for folder, news in moved.items()
    }
    assert list(_moved_with_parents("src/a/bugs", None, shown)) == wanted
