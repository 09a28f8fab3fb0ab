"""Weights files: the weights as data, JSON and back, files with metadata, and every bad input named."""

from __future__ import annotations

import json

import pytest

from c4engine.errors import C4Error, WeightsError, echo_path
from c4engine.search.engine.weights import WindowWeights, load_weights

WEIGHTS = WindowWeights(own=(0.25, 12.5, 500.0), opponent=(-1.5, -20.0, -300.0), center=4.0)


def test_weights_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    weights = WindowWeights(own=(0.5, 7, 90.25), opponent=(-1, -12.5, -200), center=2.5)
    assert WindowWeights.from_dict(weights.to_dict()) == weights
    assert WindowWeights.from_dict(json.loads(json.dumps(weights.to_dict()))) == weights
    path = tmp_path / "weights.json"
    weights.save(path)
    saved = json.loads(path.read_text())
    assert saved == {"own": [0.5, 7, 90.25], "opponent": [-1, -12.5, -200], "center": 2.5}
    assert WindowWeights.load(path) == weights
    assert WindowWeights.load(str(path)) == weights
    # integers and lists are accepted and stored as float tuples
    assert WindowWeights(own=[1, 2], opponent=[-1, -2], center=1).own == (1.0, 2.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"own": [1, 10, 100], "opponent": [-1, -10]}, "own has 3 weights but opponent has 2"),
        ({"own": [1, "ten", 100], "opponent": [-1, -10, -100]}, "own[1] must be a number"),
        ({"own": [1, 10, 100], "opponent": [-1, -10, float("nan")]}, "opponent[2] must be a finite number"),
        ({"own": [1, True], "opponent": [-1, -1]}, "own[1] must be a number"),
        ({"own": [], "opponent": []}, "at least one weight"),
        ({"own": "1,10,100", "opponent": [-1, -10, -100]}, "own must be a list"),
        ({"own": [1, 10, 100]}, "missing opponent"),
        ({"own": [1], "opponent": [-1], "center": None}, "center must be a number"),
        ({"own": [1], "opponent": [-1], "centre": 3}, "unknown weight field(s) 'centre'"),
        ([1, 2, 3], "must be a JSON object"),
    ],
)
def test_bad_weights(data, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(WeightsError) as info:
        WindowWeights.from_dict(data)
    assert message in str(info.value)
    assert isinstance(info.value, C4Error)
    assert isinstance(info.value, ValueError)


def test_bad_weight_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.json"
    path.write_text("{own: [1, 2, 3]")
    with pytest.raises(WeightsError, match="not valid JSON"):
        WindowWeights.load(path)
    path.write_text(json.dumps({"own": [1, 2, 3], "opponent": [-1]}))
    with pytest.raises(WeightsError, match=r"broken\.json: own has 3 weights"):
        WindowWeights.load(path)


def test_weights_are_frozen() -> None:
    with pytest.raises(AttributeError):
        WEIGHTS.center = 5  # type: ignore[misc]


def test_weights_files_with_metadata(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "tuned.json"
    WEIGHTS.save(path, {"depth": 3, "method": "cma"})
    assert load_weights(path) == (WEIGHTS, {"depth": 3, "method": "cma"})
    assert WindowWeights.load(path) == WEIGHTS
    WEIGHTS.save(path)
    assert load_weights(path) == (WEIGHTS, {})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "no such file"),
        ("[1, 2]", "must be a JSON object, not list"),
        ('{"own": [1], "opponent": [-1], "metadata": 3}', "metadata must be a JSON object"),
        ('{"own": [1], "opponent": [-1], "extra": {}}', "unknown weight field(s) 'extra'"),
        ("\xff\xfe", "cannot read weights file"),
    ],
)
def test_weight_file_errors(tmp_path, text: str | None, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "weights.json"
    if text == "\xff\xfe":
        path.write_bytes(b"\xff\xfe\x00")
    elif text is not None:
        path.write_text(text)
    with pytest.raises(WeightsError) as info:
        load_weights(path)
    assert message in str(info.value) and echo_path(path) in str(info.value)
