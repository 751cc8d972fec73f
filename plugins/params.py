"""Parameterised legal actions: templates with typed parameters.

A game whose actions have continuous or huge parameters (a heading, a distance, a
course of several segments) lists a **template** among its legal actions instead of
every concrete action. A template is an action with a ``"params"`` key::

    {"type": "move", "ship": "s1",
     "params": {"segments": {"kind": "list", "min_items": 1, "max_items": 2,
                             "item": {"heading": {"kind": "heading"},
                                      "distance": {"kind": "int", "min": 0, "max": 8380}}}}}

A client fills it by copying every other key and giving each parameter a value of its
kind; the result is an ordinary action that ``game_apply`` validates (and may still
refuse: a course that runs a ship aground is a legal template but an illegal action)::

    {"type": "move", "ship": "s1", "segments": [{"heading": 900, "distance": 5000}]}

Parameter kinds (each a map with ``"kind"`` and an optional ``"help"``):

- ``choice``: one of ``"values"`` (any plain data, e.g. ids);
- ``int``: an integer in ``"min" .. "max"`` (inclusive), with an optional ``"unit"``;
- ``number``: a float or int in ``"min" .. "max"``;
- ``heading``: an integer in ``0 .. 3599``, tenths of a degree counter-clockwise from
  east (+x), the geometry convention of every lantable game;
- ``list``: between ``"min_items"`` and ``"max_items"`` items, each a map whose keys
  are the parameters of ``"item"``.

Everything here is pure and needs no game: clients, bots and the host share it.
"""

from __future__ import annotations

import random
from typing import Any

Action = dict[str, Any]
KINDS = ("choice", "int", "number", "heading", "list")
HEADINGS = 3600


def is_template(action: Any) -> bool:
    return isinstance(action, dict) and isinstance(action.get("params"), dict)


def fill(template: Action, values: dict[str, Any]) -> Action:
    """The concrete action: the template's fixed keys plus ``values``."""
    out = {k: v for k, v in template.items() if k != "params"}
    out.update(values)
    return out


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_value(spec: dict[str, Any], value: Any, name: str) -> str | None:
    """Why ``value`` does not fit ``spec``, or None."""
    kind = spec.get("kind")
    if kind == "choice":
        return None if value in spec["values"] else f"{name} must be one of {spec['values']}"
    if kind == "int":
        if not _is_int(value) or not spec["min"] <= value <= spec["max"]:
            return f"{name} must be an integer in {spec['min']}..{spec['max']}, got {value!r}"
        return None
    if kind == "number":
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              and spec["min"] <= value <= spec["max"])
        return None if ok else f"{name} must be a number in {spec['min']}..{spec['max']}"
    if kind == "heading":
        if not _is_int(value) or not 0 <= value < HEADINGS:
            return f"{name} must be a heading in tenths of a degree, 0..3599, got {value!r}"
        return None
    if kind == "list":
        lo, hi = spec.get("min_items", 0), spec["max_items"]
        if not isinstance(value, list) or not lo <= len(value) <= hi:
            return f"{name} must be a list of {lo}..{hi} items"
        for i, item in enumerate(value):
            if not isinstance(item, dict) or set(item) != set(spec["item"]):
                return f"{name}[{i}] must be a map with keys {sorted(spec['item'])}"
            for key, sub in spec["item"].items():
                why = check_value(sub, item[key], f"{name}[{i}].{key}")
                if why:
                    return why
        return None
    return f"{name}: unknown parameter kind {kind!r}"


def check(template: Action, action: Action) -> str | None:
    """Why ``action`` is not a filling of ``template`` (types and ranges), or None."""
    for key, value in template.items():
        if key != "params" and action.get(key) != value:
            return f"{key} must be {value!r}"
    extra = set(action) - set(template) - set(template["params"])
    if extra:
        return f"unexpected field(s) {sorted(extra)}"
    for name, spec in template["params"].items():
        if name not in action:
            return f"missing parameter {name!r}"
        why = check_value(spec, action[name], name)
        if why:
            return why
    return None


def sample_value(spec: dict[str, Any], rng: random.Random) -> Any:
    kind = spec["kind"]
    if kind == "choice":
        return rng.choice(spec["values"])
    if kind == "int":
        return rng.randint(spec["min"], spec["max"])
    if kind == "number":
        return rng.uniform(spec["min"], spec["max"])
    if kind == "heading":
        return rng.randrange(HEADINGS)
    if kind == "list":
        n = rng.randint(spec.get("min_items", 0), spec["max_items"])
        return [{k: sample_value(s, rng) for k, s in spec["item"].items()} for _ in range(n)]
    raise ValueError(f"unknown parameter kind {kind!r}")


def sample(template: Action, rng: random.Random) -> Action:
    """A random filling (uniform over each parameter's range)."""
    return fill(template, {k: sample_value(s, rng) for k, s in template["params"].items()})


def _grid_value(spec: dict[str, Any], steps: int) -> list[Any]:
    kind = spec["kind"]
    if kind == "choice":
        return list(spec["values"])
    if kind in ("int", "number"):
        lo, hi = spec["min"], spec["max"]
        pts = sorted({lo + (hi - lo) * i // (steps - 1) if kind == "int"
                      else lo + (hi - lo) * i / (steps - 1) for i in range(steps)})
        return pts
    if kind == "heading":
        return [HEADINGS * i // 8 for i in range(8)]
    if kind == "list":
        n = max(1, spec.get("min_items", 0))
        keys = list(spec["item"])
        combos: list[dict[str, Any]] = [{}]
        for k in keys:
            combos = [{**c, k: v} for c in combos for v in _grid_value(spec["item"][k], steps)]
        return [[dict(c) for _ in range(n)] for c in combos]
    raise ValueError(f"unknown parameter kind {kind!r}")


def grid(template: Action, steps: int = 3) -> list[Action]:
    """A small generic discretisation (every choice, ``steps`` points of a range, the
    eight compass headings; a list repeats one item): the fallback for a game that has
    no ``game_discretise``. Its actions are well-typed but the game may refuse some."""
    combos: list[dict[str, Any]] = [{}]
    for name, spec in template["params"].items():
        combos = [{**c, name: v} for c in combos for v in _grid_value(spec, steps)]
    return [fill(template, c) for c in combos]


def describe(template: Action) -> str:
    """``move(ship=s1; segments: 1-2 x {heading, distance 0..8380})``: a template in words."""
    fixed = ", ".join(f"{k}={v}" for k, v in template.items() if k not in ("type", "params"))
    parts = []
    for name, spec in template["params"].items():
        parts.append(f"{name}: {_spec_words(spec)}")
    head = f"{template['type']}({fixed}" + ("; " if fixed else "")
    return head + "; ".join(parts) + ")"


def _spec_words(spec: dict[str, Any]) -> str:
    kind = spec["kind"]
    if kind == "choice":
        return "one of " + ", ".join(str(v) for v in spec["values"])
    if kind in ("int", "number"):
        unit = f" {spec['unit']}" if spec.get("unit") else ""
        return f"{spec['min']}..{spec['max']}{unit}"
    if kind == "heading":
        return "heading 0..3599 (tenths of a degree, counter-clockwise from east)"
    if kind == "list":
        inner = ", ".join(f"{k} {_spec_words(s)}" for k, s in spec["item"].items())
        return f"{spec.get('min_items', 0)}-{spec['max_items']} x {{{inner}}}"
    return kind
