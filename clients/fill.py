"""Filling a template (a legal action with typed parameters) by asking a person.

The terminal client calls :func:`fill_template` when a person picks a template; it
asks one short question per parameter (a list parameter asks how many items first)
and re-asks until the answer fits (``lantable.plugins.params``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from lantable.plugins import params

Ask = Callable[[str], Awaitable[str]]


def _prompt(name: str, spec: dict[str, Any]) -> str:
    kind = spec["kind"]
    if kind == "heading":
        return f"{name}: heading in tenths of a degree, 0..3599 (east 0, north 900, west 1800)"
    if kind == "choice":
        return f"{name}: one of {', '.join(map(str, spec['values']))}"
    unit = f" {spec['unit']}" if spec.get("unit") else ""
    return f"{name}: {spec['min']}..{spec['max']}{unit}"


def _parse(text: str, spec: dict[str, Any]) -> Any:
    text = text.strip()
    if spec["kind"] == "choice":
        for v in spec["values"]:
            if str(v) == text:
                return v
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


async def _value(name: str, spec: dict[str, Any], ask: Ask) -> Any:
    if spec["kind"] == "list":
        lo, hi = max(1, spec.get("min_items", 0)), spec["max_items"]
        count = lo if lo == hi else None
        while count is None:
            answer = (await ask(f"{name}: how many ({lo}-{hi})? ")).strip()
            if answer.isdigit() and lo <= int(answer) <= hi:
                count = int(answer)
        if spec.get("help"):
            await ask(f"({spec['help']}; press enter) ")
        items = []
        for i in range(count):
            items.append({key: await _value(f"{name}[{i + 1}].{key}", sub, ask)
                          for key, sub in spec["item"].items()})
        return items
    while True:
        value = _parse(await ask(_prompt(name, spec) + "? "), spec)
        why = params.check_value(spec, value, name)
        if why is None:
            return value
        await ask(f"{why} (press enter) ")


async def fill_template(template: dict[str, Any], ask: Ask) -> dict[str, Any]:
    """Ask for every parameter of ``template``; returns the concrete action."""
    values = {}
    for name, spec in template["params"].items():
        values[name] = await _value(name, spec, ask)
    return params.fill(template, values)
