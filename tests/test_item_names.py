"""harness.item_names: an item's name made and read back."""

from __future__ import annotations


def test_item_names_round_trip() -> None:
    from harness.collect import short_name
    from harness.item_names import item_name, parse_item_name

    assert item_name("t", None, 0, 1) == "t"
    assert item_name("t", "gir-r", 0, 1) == "t[gir-r]"
    assert item_name("t", None, 2, 3) == "t[r2]"
    assert item_name("t", "gi-r", 1, 3) == "t[gi-r/r1]"
    assert parse_item_name("t") == ("t", None, 0)
    assert parse_item_name("t[gir-r]") == ("t", "gir-r", 0)
    assert parse_item_name("t[r2]") == ("t", None, 2)
    assert parse_item_name("t[gi-r/r1]") == ("t", "gi-r", 1)
    long = "x" * 5000
    assert len(short_name(long)) < 60 and short_name(long) != short_name("x" * 4999)
