"""rules/hexes.py and rules/plane.py: the one hex and the one table-top geometry."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from rules import hexes, plane

coord = st.integers(-50, 50)
hex_ = st.tuples(coord, coord)


def test_hex_directions_go_counter_clockwise_from_plus_q() -> None:
    assert hexes.neighbours((0, 0)) == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    assert hexes.neighbour([2, 3], 6) == hexes.neighbour([2, 3], 0) == (3, 3)
    assert hexes.direction_to((0, 0), (0, -1)) == 2 and hexes.direction_to((0, 0), (2, 0)) is None


@given(hex_, hex_)
def test_hex_distance_is_a_metric_with_neighbours_at_one(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert hexes.distance(a, b) == hexes.distance(b, a) >= 0
    assert (hexes.distance(a, b) == 0) == (a == b)
    assert all(hexes.distance(a, n) == 1 and hexes.adjacent(list(a), n) for n in hexes.neighbours(a))
    assert all(hexes.direction_to(a, hexes.neighbour(a, d)) == d for d in range(6))


def test_hex_positions_and_labels() -> None:
    assert hexes.as_hex([1, -2]) == (1, -2) and hexes.as_list((1, -2)) == [1, -2]
    assert [hexes.as_hex(p) for p in (None, [1], [1, True], [1.0, 2], "1,2")] == [None] * 5
    assert hexes.label([3, -1]) == "3,-1" and hexes.label(None) == "nowhere"
    assert (
        hexes.parse_label("3,-1") == (3, -1)
        and hexes.parse_label("3") is None
        and hexes.parse_label("a,b") is None
    )
    assert not hexes.adjacent(None, [0, 0])


def test_plane_rounds_half_up_and_faces_in_whole_degrees() -> None:
    assert [plane.round_half_up(v) for v in (0.5, 1.5, 2.5, -0.5, -1.5)] == [1, 2, 3, 0, -1]
    assert plane.rounded([0.5, 2.49]) == [1, 2]
    assert [plane.facing_toward([0, 0], p) for p in ([100, 0], [0, 100], [-1, 0], [0, -100], [0, 0])] == [
        0,
        90,
        180,
        270,
        0,
    ]
    assert plane.facing_toward([0, 0], [1000, -1]) == 0, "359.94 degrees is a whole 0, not 360"
    assert plane.angle_between(350, 10) == 20 and plane.angle_between(0, 180) == 180


def test_plane_distances_steps_and_paths() -> None:
    assert plane.distance([0, 0], [300, 400]) == 500.0
    assert plane.base_gap([0, 0], 50, [300, 400], 50) == 400.0
    assert plane.path_length([[0, 0], [300, 400], [300, 500]]) == 600.0
    assert plane.along_path([[0, 0], [300, 400], [300, 500]], 550) == [300.0, 450.0]
    assert plane.along_path([[0, 0], [0, 100]], 999) == [0.0, 100.0]
    assert plane.rounded(plane.step_toward([0, 0], [300, 400], 250)) == [150, 200]
    assert plane.rounded(plane.step_away([0, 0], [-100, 0], 600)) == [600, 0]
    assert plane.step_away([5, 5], [5, 5], 100) == [5.0, 5.0], "no direction away from the same point"
    assert plane.centroid([[0, 0], [200, 0], [100, 300]]) == [100.0, 100.0]


def test_plane_bearings_relative_to_a_facing() -> None:
    assert math.isclose(plane.relative_bearing([0, 0], 0, [0, 100]), 90.0)
    assert math.isclose(plane.relative_bearing([0, 0], 90, [100, 0]), -90.0)
    assert math.isclose(abs(plane.relative_bearing([0, 0], 0, [-100, 0])), 180.0)


def test_plane_segments_and_sentences() -> None:
    assert plane.distance_to_segment([50, 10], [0, 0], [100, 0]) == 10.0
    assert plane.distance_to_segment([-30, 40], [0, 0], [100, 0]) == 50.0
    assert plane.crosses([0, 0], [100, 0], [[50, 10]], 20) and not plane.crosses(
        [0, 0], [100, 0], [[50, 30]], 20
    )
    assert plane.is_point([1, 2]) and not plane.is_point([1.5, 2]) and not plane.is_point((1, 2))
    assert plane.inches(600) == '6.0"' and plane.inches(625) == '6.25"'
    assert plane.where([1300, 1200]) == '(13", 12")' and plane.where([1220, 1200]) == '(12.2", 12")'


def test_plane_touch_along_finds_where_a_straight_move_meets_a_base() -> None:
    # Moving +x from 0 toward 200, a base 300 away with reach 100 is met after 200 - not on this segment.
    assert plane.touch_along([0, 0], [200, 0], [300, 0], 100) is None
    assert plane.touch_along([0, 0], [200, 0], [250, 0], 100) == 150
    assert plane.touch_along([0, 0], [200, 0], [100, 300], 100) is None  # passes it by
    assert plane.touch_along([0, 0], [200, 0], [-100, 0], 100) is None  # touching at the start, moving off
    assert plane.touch_along([0, 0], [200, 0], [50, 0], 100) == 0.0  # within reach and closing in
