"""The card-type protocol: what one Action card type may define.

A card type is one class; everything the rules say about it is a method of that
class, so a reader finds a card's whole rule in one place:

- **when it may be committed and played** (4.3, digest 6.2): ``acts_when_committed``
  and ``own_uses`` (the placements besides the interception halves every card has),
  ``plays`` (the ``play`` actions once committed for its action);
- **its effect**: ``perform`` (an action card), ``attach`` (an Assist card joining an
  attack), ``react`` (a Reaction card answering one);
- **who may answer with it**: ``attach_offers`` (Assist) and ``answers`` (Reaction);
- **its phantom (solitaire) behaviour** (R 5.4.3): ``phantom_entries`` names the
  Solitaire-card column entries that are this card, ``phantom`` performs one
  (by default: ``phantom_target``, then the card's own ``perform`` with the
  Solitaire card's dice).

The defaults say "not possible": a subclass overrides only what its card does.
Card data (dice, names) stays in :mod:`..data`; ``cd`` below is one card's data,
or for the phantom the Solitaire card's indicators (:func:`pseudo`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..data import SHIPS, SOLO_ENTRY_PAIRS
from ..state import Action, Ctx, Events, State

if TYPE_CHECKING:
    import random

CardData = dict[str, Any]

PHANTOM = 1  # the solitaire phantom's seat (digest 8.2)
HUMAN = 0


def pseudo(sc: dict[str, Any], t: str) -> CardData:
    """Card data for the phantom's action or reaction: the Solitaire card's indicators,
    except the pairs ``SOLO_ENTRY_PAIRS`` fixes for some entries (Heavy Weather)."""
    cd = {"type": t, "ch": sc["ch"], "re": sc["re"], "ch2": sc["ch"], "re2": sc["re"],
          "att": sc["att"], "icpt": sc["att"], "def": sc["def"], "night": sc["night"],
          "torp": sc["torp"], "mine": sc["mine"], "gun": sc["att"], "dc": sc["att"], "vp": 0}
    cd.update(SOLO_ENTRY_PAIRS.get(t, {}))
    return cd


def best(rng: random.Random, ships: list[int], low: bool = False) -> int:
    """The phantom's "best" ship: highest (or lowest) VP, ties broken by the rng."""
    key = [SHIPS[s]["vp"] for s in ships]
    want = min(key) if low else max(key)
    tied = [s for s, k in zip(ships, key, strict=True) if k == want]
    return tied[int(rng.random() * len(tied))]


def play(c: int, **kw: Any) -> Action:
    """A ``play`` action of card ``c``."""
    return {"type": "play", "card": c, **kw}


class CardType:
    """One Action card type. ``name`` is its ``type`` in :mod:`..data`; ``kind`` its
    kind there (N normal, A assist, R reaction, T team)."""

    name: ClassVar[str] = ""
    kind: ClassVar[str] = "N"
    #: Deception, Fog Bank and Island Refuge stay in play when played, not discarded
    stays_in_play: ClassVar[bool] = False
    #: Solitaire column entries performed as this card (R 5.4.3 items 4-11)
    phantom_entries: ClassVar[tuple[str, ...]] = ()

    # -- committing and playing (4.3, 4.5) --------------------------------------------

    def acts_when_committed(self, team: bool) -> bool:
        """May it be committed upright, for its action (4.3)? Normal and Assist cards
        may; Team cards only in the team game; Reactions never (Reflag excepted)."""
        return self.kind in ("N", "A") or (self.kind == "T" and team)

    def own_uses(self, c: int, miners: list[int], team: bool) -> list[Action]:
        """Its placements besides the two interception halves (turn._commit_offers)."""
        if self.acts_when_committed(team):
            return [{"type": "commit", "card": c, "use": "act"}]
        return []

    def plays(self, S: State, seat: int, c: int) -> list[Action]:
        """The ``play`` actions of card ``c`` once committed for its action (in a
        fixed order: bots pick by index)."""
        return []  # Assist cards are attached, never played alone

    def perform(self, S: State, rng: random.Random, seat: int, cd: CardData, c: int | None,
                action: Action, ev: Events) -> None:
        """Its effect; ``c`` is None when the phantom performs it."""
        raise AssertionError(f"{self.name} has no effect of its own")

    # -- attaching to an attack (Assist cards, 5.5) -------------------------------------

    def attach_offers(self, S: State, ctx: Ctx, c: int, window: str) -> list[Action]:
        """Its actions in the ``attach`` or ``board`` window of context ``ctx``."""
        return []

    def attach(self, S: State, ctx: Ctx, action: Action) -> None:
        """Its effect on the attack (the card is already marked played)."""

    def phantom_attach(self, S: State, rng: random.Random, ctx: Ctx, target: int,
                       rest: list[int]) -> None:
        """The phantom's Special Action of this name on its interception (R 5.4.3 item 3);
        ``rest``: the defender's other merchants not yet intercepted."""

    # -- answering an attack (Reaction cards, 5.8) -------------------------------------

    def react(self, S: State, rng: random.Random, ctx: Ctx, action: Action, cd: CardData,
              cid: int | None, ev: Events) -> None:
        """Its effect on the attack (the card is already played and recorded)."""

    def roll(self, S: State, rng: random.Random, ctx: Ctx, ev: Events) -> bool:
        """Replace the attack's roll (a duel); False: the ordinary roll follows."""
        return False

    # -- the phantom (R 5.4.3) --------------------------------------------------------

    def phantom_target(self, S: State, rng: random.Random) -> Action | None:
        """The phantom's choice of target (``{}``: none needed), None if impossible."""
        return None

    def phantom(self, S: State, rng: random.Random, sc: dict[str, Any], entry: str,
                ev: Events) -> bool:
        """Perform a Solitaire column entry that is this card; False when it is ignored."""
        target = self.phantom_target(S, rng)
        if target is None:
            return False
        self.perform(S, rng, PHANTOM, pseudo(sc, self.name), None, dict(target), ev)
        return True


class AssistType(CardType):
    """An Assist card: committed for its action, then attached to an attack (5.5)."""

    kind: ClassVar[str] = "A"


class ReactionType(CardType):
    """A Reaction card: played from the hand by the defender of an attack (5.8)."""

    kind: ClassVar[str] = "R"
    #: context kinds it may answer (see :mod:`..combat`)
    against: ClassVar[tuple[str, ...]] = ()

    def answers(self, S: State, ctx: Ctx) -> list[dict[str, Any]] | None:
        """The extra fields of each way it may answer ``ctx``; None if it may not."""
        return [{}]

