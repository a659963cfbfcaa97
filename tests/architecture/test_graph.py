"""The shape of the house, from the import graph of every module of ours (`import_graph.py`): no cycle
anywhere (imports inside functions and under TYPE_CHECKING included), and a short way down from the
entry point to the bottom."""

from __future__ import annotations

from pathlib import Path

from tests.architecture.import_graph import ENTRY, cycles, graph, longest_chain, room, rooms

MAX_ROOMS_DOWN = 10  # scheduler → cli → bot → web → … → parser, measured in rooms (see `room`)


def test_no_module_imports_itself_through_others() -> None:
    assert cycles(graph(everywhere=True)) == []


def test_the_rooms_import_each_other_without_a_cycle() -> None:
    assert cycles(rooms(graph())) == []


def test_the_longest_way_down_from_the_entry_point_is_short() -> None:
    chain = longest_chain(rooms(graph()))
    assert chain[0] == ENTRY and len(chain) <= MAX_ROOMS_DOWN, " → ".join(chain)


def test_the_measures_themselves() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    assert longest_chain({"x": {"y", "z"}, "y": {"z"}, "z": set()}, "x") == ["x", "y", "z"]
    assert (room("engine.clock.words"), room("engine.ruleset"), room("bot.thread_bot")) == (
        "engine.clock",
        "engine.ruleset",
        "bot",
    )


MAX_LOOSE_ENGINE_MODULES = 6  # the small kernel at the bottom; everything else lives in a package


def test_the_engine_is_packages_and_a_small_kernel() -> None:
    engine = Path(__file__).resolve().parents[2] / "engine"
    loose = sorted(p.stem for p in engine.glob("*.py") if p.name != "__init__.py")
    packages = sorted(p.name for p in engine.iterdir() if (p / "__init__.py").exists())
    assert len(loose) <= MAX_LOOSE_ENGINE_MODULES, loose
    assert {"clock", "dice", "offline", "referee", "rules", "ruleset"} <= set(packages), packages
