"""Options that take several names (``--labels``, ``--by``, ...): comma-separated, with CSV's
double quotes for a name that holds a comma, a quote or surrounding spaces. The oracle of the
splitting is Python's ``csv`` writer (a list written as one CSV record must read back as that
list); the matrices are scikit-learn's ``confusion_matrix`` on pandas' read of the file."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from confmat.cli import cli
from confmat.cli.common import InputError, split_values

pytest.importorskip("duckdb")

NAME = st.text(alphabet=st.sampled_from(list('ab ,"\'x;')), min_size=1, max_size=8)


def csv_record(names: list[str], quoting: int) -> str:
    buf = io.StringIO()
    csv.writer(buf, quoting=quoting, lineterminator="").writerow(names)
    return buf.getvalue()


@settings(max_examples=300, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=5))
def test_a_list_written_as_a_csv_record_reads_back(names):
    # every name quoted: read back exactly, commas, quotes and spaces included
    assert split_values([csv_record(names, csv.QUOTE_ALL)]) == names


@settings(max_examples=300, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=5))
def test_minimal_quoting_reads_back_up_to_the_outer_spaces_of_unquoted_names(names):
    # csv quotes only names with a comma or a quote; the others are read stripped, and a
    # name of spaces only is no name
    got = split_values([csv_record(names, csv.QUOTE_MINIMAL)])
    want = [n if ("," in n or '"' in n) else n.strip() for n in names]
    assert got == [n for n in want if n]


@pytest.mark.parametrize("text", ['"a,b', '"a" b', ' "x"y', 'c,"d'])
def test_a_quote_left_open_or_followed_by_text_is_an_error(text):
    with pytest.raises(InputError, match="double quote"):
        split_values([text])


@pytest.fixture
def clinical(tmp_path):
    rng = np.random.default_rng(7)
    names = np.array(["Carcinoma, NOS", "benign", 'cyst "simple"'])
    y = names[rng.integers(0, 3, 60)]
    p = np.where(rng.random(60) < 0.7, y, names[rng.integers(0, 3, 60)])
    g = np.array(["site, A", "site B"])[rng.integers(0, 2, 60)]
    path = tmp_path / "c.csv"
    pd.DataFrame({"y": y, "yhat": p, "site, region": g}).to_csv(path, index=False)
    return path


def test_labels_with_commas_and_quotes_order_the_matrix(clinical):
    df = pd.read_csv(clinical)
    order = ['cyst "simple"', "Carcinoma, NOS", "benign"]
    res = CliRunner().invoke(cli, ["report", str(clinical), "--true", "y", "--pred", "yhat",
                                   "--format", "json", "--no-intervals",
                                   "--labels", '"cyst ""simple""", "Carcinoma, NOS"',
                                   "--labels", "benign"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["labels"] == order
    assert out["counts"] == confusion_matrix(df["y"], df["yhat"], labels=order).tolist()


def test_a_group_column_with_a_comma_in_its_name(clinical):
    df = pd.read_csv(clinical)
    res = CliRunner().invoke(cli, ["report", str(clinical), "--true", "y", "--pred", "yhat",
                                   "--by", '"site, region"', "--format", "json",
                                   "--no-intervals"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    sizes = df.groupby("site, region").size()
    assert {r["group"]: r["size"] for r in out["rows"]} == sizes.to_dict()


def test_an_open_quote_is_exit_2_naming_the_option(clinical):
    res = CliRunner().invoke(cli, ["report", str(clinical), "--true", "y", "--pred", "yhat",
                                   "--labels", '"Carcinoma, NOS'])
    assert res.exit_code == 2
    assert "--labels" in res.output and "double quote" in res.output
    assert "Traceback" not in res.output
