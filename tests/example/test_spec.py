from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import (
    Example,
    ExampleSpec,
    RecentFile,
    SpecError,
    dumps_example,
    example_from_json_dict,
    example_to_json_dict,
    filename,
    spec_to_json_dict,
    unmodelled_keys,
    without_unmodelled,
)
from tests.conftest import corpus_files

SCHEMA = json.loads(
    (Path(__file__).parents[2] / "schemas" / "example-spec.schema.json").read_text()
)
MINIMAL = {
    "repository_url": "u",
    "revision": "r",
    "cursor_path": "p",
    "cursor_position": "x\n",
    "edit_history": "",
    "expected_patches": [],
}


def test_json_field_order_and_omission_rules() -> None:
    spec = ExampleSpec(name="n", repository_url="u", revision="r", cursor_path="p")
    assert list(spec_to_json_dict(spec)) == [
        "name",
        "repository_url",
        "revision",
        "uncommitted_diff",
        "cursor_path",
        "cursor_position",
        "edit_history",
        "expected_patches",
    ]
    full = ExampleSpec(
        name="n",
        tags=["t"],
        reasoning="",
        recently_opened_files=[RecentFile("a", 3), RecentFile("b")],
        recently_viewed_files=[RecentFile("c")],
        uncommitted_diff_contains_edit_history=True,
        rejected_patch="",
        telemetry={
            "request_id": "1",
            "device_id": "d",
            "time": "t",
            "rejection_reason": "x",
            "was_shown": True,
        },
        human_feedback=[{"message": "m"}],
        rating="Negative",
    )
    data = spec_to_json_dict(full)
    assert list(data) == [
        "name",
        "repository_url",
        "revision",
        "tags",
        "reasoning",
        "uncommitted_diff",
        "recently_opened_files",
        "recently_viewed_files",
        "uncommitted_diff_contains_edit_history",
        "cursor_path",
        "cursor_position",
        "edit_history",
        "expected_patches",
        "rejected_patch",
        "telemetry",
        "human_feedback",
        "rating",
    ]
    assert data["recently_opened_files"] == [{"path": "a", "cursor_position": 3}, {"path": "b"}]
    assert example_from_json_dict(data).spec == full
    jsonschema.validate(data, SCHEMA)


def test_runtime_fields_are_kept_in_place_and_untouched() -> None:
    line = (
        '{"name":"é","prompt":{"input":"x"},"repository_url":"u","revision":"r",'
        '"uncommitted_diff":"","cursor_path":"p","cursor_position":"x\\n","edit_history":"",'
        '"expected_patches":["a"],"predictions":[{"actual_output":null,"provider":"zeta2"}],'
        '"score":[{"delta_chr_f":1.5}]}'
    )
    example = example_from_json_dict(json.loads(line))
    assert list(example.extra) == ["prompt", "predictions", "score"]
    assert dumps_example(example) == line
    assert list(example_to_json_dict(Example(example.spec, example.extra))) == [
        *spec_to_json_dict(example.spec),
        "prompt",
        "predictions",
        "score",
    ]


def test_keys_nested_in_recent_files_are_kept_in_place_and_compared() -> None:
    line = (
        '{"name":"n","repository_url":"u","revision":"r","uncommitted_diff":"",'
        '"recently_opened_files":[{"note":"keep me","path":"a","cursor_position":3},{"path":"b"}],'
        '"recently_viewed_files":[{"path":"c","seen":{"n":[1,2]}}],'
        '"cursor_path":"p","cursor_position":"x\\n","edit_history":"","expected_patches":[]}'
    )
    example = example_from_json_dict(json.loads(line))
    opened = example.spec.recently_opened_files
    assert opened == [RecentFile("a", 3, {"note": "keep me"}), RecentFile("b")]
    assert dumps_example(example) == line
    assert unmodelled_keys(example.spec) == [
        "/recently_opened_files/0/note",
        "/recently_viewed_files/0/seen",
    ]
    held = without_unmodelled(example.spec)
    assert unmodelled_keys(held) == [] and held != example.spec
    assert spec_to_json_dict(held)["recently_opened_files"][0] == {
        "path": "a",
        "cursor_position": 3,
    }
    assert unmodelled_keys(example.spec) != []  # the spec itself is left as it was


def test_corpus_specs_pass_the_schema_and_survive_json() -> None:
    for path in corpus_files():
        spec = from_markdown(path.read_text(encoding="utf-8"), path.stem)
        data = json.loads(dumps_example(Example(spec)))
        jsonschema.validate(data, SCHEMA)
        assert example_from_json_dict(data).spec == spec


@pytest.mark.parametrize(
    ("patch", "pointer"),
    [
        ({"cursor_path": None}, "/cursor_path"),
        ({"expected_patches": "x"}, "/expected_patches"),
        ({"expected_patches": ["a", 3]}, "/expected_patches/1"),
        ({"tags": [True]}, "/tags/0"),
        (
            {"recently_opened_files": [{"path": "a", "cursor_position": -1}]},
            "/recently_opened_files/0/cursor_position",
        ),
        # The reference reads a usize: 2^64 is as unreadable as -1, in JSON as in Markdown.
        (
            {"recently_viewed_files": [{"path": "a", "cursor_position": 2**64}]},
            "/recently_viewed_files/0/cursor_position",
        ),
        ({"recently_viewed_files": [{}]}, "/recently_viewed_files/0"),
        ({"uncommitted_diff_contains_edit_history": 1}, "/uncommitted_diff_contains_edit_history"),
        ({"telemetry": {"request_id": "1"}}, "/telemetry/device_id"),
        ({"human_feedback": [{}]}, "/human_feedback/0/message"),
        ({"rating": "Good"}, "/rating"),
    ],
)
def test_type_errors_point_at_the_value(patch: dict[str, object], pointer: str) -> None:
    with pytest.raises(SpecError) as caught:
        example_from_json_dict({**MINIMAL, **patch})
    assert caught.value.pointer == pointer


def test_missing_required_field_and_non_object() -> None:
    data = dict(MINIMAL)
    del data["revision"]
    with pytest.raises(SpecError, match="required field `revision`") as caught:
        example_from_json_dict(data)
    assert caught.value.pointer == "/revision"
    with pytest.raises(SpecError, match="must be a JSON object"):
        example_from_json_dict([1])


def test_filename_replaces_what_the_reference_replaces() -> None:
    assert filename('a b:c~d^e?f*g[h\\i@j{k/l<m>n|o"p]q}') == "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p]q}"
