"""Weighted RRF and best-rank pooling, checked against hand-computed values."""

from __future__ import annotations

import copy
import math

import pytest

from prism.retrieval.fusion import pool_best_rank, weighted_rrf

# --- weighted_rrf ---------------------------------------------------------------------------------------------


def test_rrf_arithmetic_by_hand():
    rankings = {"dense": ["d1", "d2", "d3"], "bm25": ["d3", "d2", "d1"]}
    fused = weighted_rrf(rankings, {"dense": 1.0, "bm25": 0.3}, k=60)
    assert fused == [
        ("d1", 1 / 61 + 0.3 / 63),  # 1st by dense, 3rd by BM25
        ("d2", 1 / 62 + 0.3 / 62),
        ("d3", 1 / 63 + 0.3 / 61),
    ]


def test_rrf_with_ids_missing_from_one_list_and_the_default_k():
    fused = weighted_rrf({"dense": ["a", "b"], "bm25": ["c", "a"]}, {"dense": 0.5, "bm25": 0.5})
    assert fused == [("a", 0.5 / 61 + 0.5 / 62), ("c", 0.5 / 61), ("b", 0.5 / 62)]
    assert all(score <= (0.5 + 0.5) / 61 for _, score in fused)


def test_rrf_ties_go_to_the_best_rank_then_the_id():
    # k = 1: "z" = "n" = 0.5/(1+1) = 0.25; "a" = 0.5/(1+3) + 0.5/(1+3) = 0.25; "m" = "o" = 0.5/(1+2)
    fused = weighted_rrf({"x": ["z", "m", "a"], "y": ["n", "o", "a"]}, {"x": 0.5, "y": 0.5}, k=1)
    assert fused == [("n", 0.25), ("z", 0.25), ("a", 0.25), ("m", 0.5 / 3), ("o", 0.5 / 3)]
    # n, z (best rank 1, then by id) before a (best rank 3) although "a" sorts first by id
    # mirrored rank patterns tie exactly and fall back to the id
    assert weighted_rrf({"x": ["q", "p"], "y": ["p", "q"]}, {"x": 1, "y": 1}) == [
        ("p", 1 / 61 + 1 / 62),
        ("q", 1 / 61 + 1 / 62),
    ]


def test_rrf_sum_does_not_depend_on_list_order():
    rankings = {f"l{i}": ["a", "b"] if i % 2 else ["b", "a"] for i in range(7)}
    weights = {f"l{i}": 0.1 * (i + 1) for i in range(7)}
    forward = weighted_rrf(rankings, weights, k=60)
    backward = weighted_rrf(dict(reversed(list(rankings.items()))), weights, k=60)
    assert forward == backward


def test_empty_lists_contribute_nothing():
    assert weighted_rrf({"dense": ["a"], "bm25": []}, {"dense": 0.5, "bm25": 0.5}) == [("a", 0.5 / 61)]
    assert weighted_rrf({"dense": [], "bm25": []}, {"dense": 0.5, "bm25": 0.5}) == []
    assert weighted_rrf({}, {}) == []


def test_zero_weight_switches_a_list_off_and_extra_weights_are_ignored():
    fused = weighted_rrf({"dense": ["a"], "bm25": ["b", "a"]}, {"dense": 1.0, "bm25": 0.0, "web": 2.0}, k=60)
    assert fused == [("a", 1 / 61)]


def test_rrf_inputs_are_not_mutated():
    rankings = {"dense": ["a", "b"], "bm25": ["b", "c"]}
    weights = {"dense": 0.7, "bm25": 0.3}
    before = copy.deepcopy((rankings, weights))
    weighted_rrf(rankings, weights, k=10)
    assert (rankings, weights) == before


@pytest.mark.parametrize(
    ("rankings", "weights", "k", "error", "match"),
    [
        ({"dense": ["a"]}, {"dense": 1.0}, 0, ValueError, "k must be >= 1"),
        ({"dense": ["a"]}, {"dense": -0.1}, 60, ValueError, "finite number >= 0"),
        ({"dense": ["a"]}, {"dense": math.nan}, 60, ValueError, "finite number >= 0"),
        ({"dense": ["a"]}, {}, 60, ValueError, "no RRF weight"),
        ({"dense": ["a", "b", "a"]}, {"dense": 1.0}, 60, ValueError, "names chunk 'a' twice"),
        ({"dense": "abc"}, {"dense": 1.0}, 60, TypeError, "not a single string"),
        ({"dense": [("a", 0.9)]}, {"dense": 1.0}, 60, TypeError, "expected str chunk ids"),
    ],
)
def test_rrf_validation(rankings, weights, k, error, match):
    with pytest.raises(error, match=match):
        weighted_rrf(rankings, weights, k=k)


# --- pool_best_rank -------------------------------------------------------------------------------------------


def test_pool_keeps_each_ids_best_rank_and_its_score_there():
    pooled = pool_best_rank([[("a", 9.0), ("b", 5.0)], [("b", 7.0), ("c", 6.0), ("a", 1.0)]])
    # a: rank 1 (9.0); b: rank 1 in list 2 (7.0), beating its rank 2; c: rank 2 (6.0)
    assert pooled == [("a", 9.0), ("b", 7.0), ("c", 6.0)]


def test_pool_orders_equal_rank_by_score_then_first_appearance():
    assert pool_best_rank([[("x", 1.0)], [("y", 2.0)]]) == [("y", 2.0), ("x", 1.0)]
    assert pool_best_rank([[("x", 1.0)], [("y", 1.0)]]) == [("x", 1.0), ("y", 1.0)]
    assert pool_best_rank([[("y", 1.0)], [("x", 1.0)]]) == [("y", 1.0), ("x", 1.0)]


def test_pool_same_best_rank_twice_keeps_the_higher_score_and_repeats_keep_the_first_position():
    assert pool_best_rank([[("a", 0.2), ("b", 0.1)], [("a", 0.5)]]) == [("a", 0.5), ("b", 0.1)]
    assert pool_best_rank([[("a", 3.0), ("b", 2.0), ("a", 1.0)]]) == [("a", 3.0), ("b", 2.0)]


def test_pool_of_nothing_and_feeding_rrf():
    assert pool_best_rank([]) == [] and pool_best_rank([[], []]) == []
    dense = pool_best_rank([[("a", 0.9), ("b", 0.8)], [("c", 0.95)]])
    bm25 = pool_best_rank([[("b", 12.0)]])
    fused = weighted_rrf({"dense": [c for c, _ in dense], "bm25": [c for c, _ in bm25]}, {"dense": 1, "bm25": 1})
    assert dense == [("c", 0.95), ("a", 0.9), ("b", 0.8)]
    assert fused == [("b", 1 / 63 + 1 / 61), ("c", 1 / 61), ("a", 1 / 62)]


def test_pool_inputs_are_not_mutated():
    rankings = [[("a", 1.0), ("b", 0.5)], [("b", 0.7)]]
    before = copy.deepcopy(rankings)
    pool_best_rank(rankings)
    assert rankings == before


@pytest.mark.parametrize(
    ("rankings", "error", "match"),
    [
        (["ab"], TypeError, "not a string"),
        ([[("a",)]], TypeError, "pairs"),
        ([[(1, 0.5)]], TypeError, "pairs"),
        ([[("a", "high")]], TypeError, "must be a number"),
        ([[("a", math.nan)]], ValueError, "is NaN"),
    ],
)
def test_pool_validation(rankings, error, match):
    with pytest.raises(error, match=match):
        pool_best_rank(rankings)
