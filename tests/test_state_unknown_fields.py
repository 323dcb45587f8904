"""A saved state is untrusted input: a field its reader does not know is an error naming it
(docs/scaling.md, "State"), at the top level and inside the nested score histogram, while
every form ``to_dict`` writes (weighted, with and without scores, version 1 and 2 histograms,
a matrix with an outside margin) still reads back."""

from __future__ import annotations

import json

import numpy as np
import pytest

from confmat import Accumulator, ConfusionMatrix, GroupedAccumulator
from confmat.binned import ScoreHistogram


def _states():
    cm = ConfusionMatrix([[3, 1], [0, 2]], labels=["a", "b"])
    outside = ConfusionMatrix.from_table(np.ones((3, 3), dtype=np.int64), ["a", "b"],
                                         has_outside_margin=True)
    acc = Accumulator(scores=True)
    acc.update([0, 1, 1], [0, 1, 0], scores=[0.1, 0.8, 0.4], sample_weight=[1.0, 2.0, 0.5])
    plain = Accumulator()
    plain.update(["x", "y"], ["y", "y"])
    grouped = GroupedAccumulator(pos_label=1)
    grouped.update([0, 1, 1], [0, 1, 0], {"site": ["a", "b", "b"]})
    given = ScoreHistogram([0, 1], bins=8).update([0, 1, 1], [0.2, 0.9, 0.4])
    rule = ScoreHistogram(pos_label="p", bins=8).update(["n", "p"], [0.2, 0.9])
    return [(ConfusionMatrix, cm), (ConfusionMatrix, outside), (Accumulator, acc),
            (Accumulator, plain), (GroupedAccumulator, grouped), (ScoreHistogram, given),
            (ScoreHistogram, rule)]


@pytest.mark.parametrize("case", range(len(_states())))
def test_every_written_state_reads_back_and_an_extra_field_is_refused(case):
    cls, obj = _states()[case]
    data = obj.to_dict()
    again = cls.from_json(json.dumps(data))
    assert again.to_dict() == data
    bad = dict(data, comment="added by hand")
    with pytest.raises(ValueError, match=r"unknown field 'comment'"):
        cls.from_dict(bad)
    with pytest.raises(ValueError, match=r"unknown field 'comment'"):
        cls.from_json(json.dumps(bad))


def test_an_extra_field_inside_the_nested_histogram_is_named_by_its_path():
    acc = Accumulator(scores=True)
    acc.update([0, 1], [0, 1], scores=[0.2, 0.7])
    data = acc.to_dict()
    data["scores"]["weights"] = [1, 1]
    with pytest.raises(ValueError, match=r"unknown field 'scores'\['weights'\]: a confmat score "
                                         r"histogram has the fields"):
        Accumulator.from_dict(data)


def test_several_unknown_fields_are_all_named():
    data = dict(ConfusionMatrix([[1, 0], [0, 1]]).to_dict(), a=1, b=2)
    with pytest.raises(ValueError, match=r"unknown fields 'a', 'b'"):
        ConfusionMatrix.from_dict(data)
