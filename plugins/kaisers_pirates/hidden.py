"""Kaiser's Pirates with a hidden Action deck: the host runs the game without knowing
any hand (docs/fair-play.md, "Kaiser's Pirates"; the game API of docs/plugins.md,
"Hidden decks").

With the option ``hidden_deck`` (2-4 seats) every Action card nobody has turned over
is a masked token in the state (:mod:`.masked`): a position of the round's shuffle
of the one deck, ``action`` (card ``k`` of the deck is ``S["action_cards"][k]``).
The plain rules run unchanged; they only write marker events where a card is dealt,
handed over, looked at or turned over, which this module turns into requests to the
table's ``decks``:

- **a round** shuffles the deck afresh (``decks.shuffle``) and deals each hand
  (``decks.deal``); the card drawn at the end of a turn is the next position, dealt;
  the set-aside cards (R 2.1) are the positions never dealt;
- **a card played face up** (a committed card played, a reaction, an Assist, a late
  answer) names the card and claims its position (``"claims"``); it is opened at once;
- **a card committed face down** (4.3) names its token and seals its claim
  (``"sealed"``): nobody, the host included, learns it until the turn's cards are
  discarded face up (R 3.1.5) or it is played; then it is opened and the seal checked.
  A commitment whose card does not fit its use (which an honest client never sends)
  is void when opened;
- **Recon Aircraft** (R 3.3.31) takes two positions of the victim's hand picked with
  ``rng`` and gives them to the thief (``decks.give``); **Exchange Information**
  (R 3.3.11) gives the chosen positions blind to the teammate;
- **Intelligence** (R 3.3.17) shows the victim's hand, or the deck's top positions,
  to the player (``decks.show``); the new order of the top is public as positions;
- **Deception** (R 3.3.10) picks a position of the victim's hand with ``rng`` and
  opens it, then commits it.

What the host cannot check before a face-down card is opened: that it fits its use.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from lantable.plugins import IllegalAction
from lantable.plugins.decks import claims_for, claims_of, sample_dealer, sealed_for, sealed_of

from . import turn, views
from .data import ACTIONS, SHIPS
from .masked import MARKER, is_masked, split, token
from .rules import kind
from .state import Action, Events, State

DECK = "action"
Decks = Any  # lantable.plugins.decks.Requests


def enabled(seats: int, options: dict[str, Any]) -> bool:
    return bool(options.get("hidden_deck")) and seats >= 2


def decks_for(seats: int, options: dict[str, Any]) -> dict[str, int] | None:
    """``game_decks``: the Action deck, with the option ``hidden_deck`` (not solitaire:
    with one seat nobody else could hold a key)."""
    if not enabled(seats, options):
        return None
    from .rounds import new_state

    S = new_state(seats, dict(options), random.Random(0), [])
    return {DECK: len(S["action_cards"])}


def start(S: State) -> None:
    """Make a new state a hidden-deck one (before its first round)."""
    S["hidden"] = {"round": 0, "asked": [], "known": [{} for _ in range(S["n_players"])],
                   "opened": {}}


# -- markers to requests -------------------------------------------------------------------


def send(S: State, ev: Events, decks: Decks) -> Events:
    """Turn the rules' marker events into requests; return the other events."""
    out = []
    for e in ev:
        if e["type"] != MARKER:
            out.append(e)
            continue
        op, toks, seat = e["op"], e["tokens"], e["seat"]
        if op == "shuffle":
            decks.shuffle(DECK)
            S["hidden"]["known"] = [{} for _ in S["hidden"]["known"]]
            S["hidden"]["opened"] = {}
            continue
        if op == "give":
            for t in toks:
                _ask(S, decks, "give", [t], seat)
        else:
            _ask(S, decks, op, toks, seat)
    return out


def _ask(S: State, decks: Decks, op: str, toks: list[int], seat: int | None) -> None:
    positions = [split(t)[1] for t in toks]
    if op == "deal":
        decks.deal(DECK, positions, seat)
    elif op == "give":
        decks.give(DECK, positions[0], seat)
    elif op == "show":
        decks.show(DECK, positions, seat)
    else:
        decks.open(DECK, positions)
    S["hidden"]["asked"].append({"op": op, "tokens": toks, "seat": seat})


# -- replacing tokens ------------------------------------------------------------------------


def _replace(x: Any, mapping: dict[int, int]) -> Any:
    if isinstance(x, dict):
        return {k: _replace(v, mapping) for k, v in x.items()}
    if isinstance(x, list):
        return [_replace(v, mapping) for v in x]
    if type(x) is int and x in mapping:
        return mapping[x]
    return x


def reveal(S: State, mapping: dict[int, int]) -> None:
    """Every copy of each token of ``mapping`` becomes its card (not in ``S["hidden"]``)."""
    for key in list(S):
        if key != "hidden":
            S[key] = _replace(S[key], mapping)


# -- the host's side of an action ----------------------------------------------------------------


def _card_id(S: State, k: int) -> int:
    if not 0 <= k < len(S["action_cards"]):
        raise IllegalAction(f"no card {k} in the Action deck")
    return int(S["action_cards"][k])


def apply(S: State, seat: int, action: Action, rng: random.Random, decks: Decks) -> Events:
    """Apply ``action`` of ``seat`` to a hidden-deck state: its claimed cards replace
    their tokens, then the plain rules run; the claimed cards are opened."""
    if seat not in turn.to_act(S):
        raise IllegalAction(f"seat {seat} is not to act now")
    rnd = S["hidden"]["round"]
    mapping = {token(rnd, pos): _card_id(S, card) for d, pos, card in claims_of(action)
               if d == DECK}
    sealed = sealed_of(action)
    plain = {k: v for k, v in action.items() if k not in ("claims", "sealed")}
    trial = copy.deepcopy(S)
    reveal(trial, mapping)
    _check(trial, seat, plain, sealed, mapping)
    reveal(S, mapping)
    ev: Events = []
    turn.apply_legal(S, seat, plain, rng, ev)
    turn.advance(S, rng, ev)
    for tok in mapping:
        _ask(S, decks, "open", [tok], None)
    return send(S, ev, decks)


def _mine(S: State, seat: int) -> set[int]:
    """Where ``seat``'s own cards are: its hand and, in its turn, its committed cards."""
    cards = set(S["players"][seat]["hand"])
    T = S["this_turn"]
    if T is not None and T["seat"] == seat:
        cards |= {e["card"] for e in T["committed"]}
    return cards


def _check(S: State, seat: int, action: Action, sealed: list[tuple[str, int]],
           mapping: dict[int, int]) -> None:
    """``action`` is legal for ``seat`` (the trial state holds its claimed cards)."""
    mine = _mine(S, seat)
    if any(c not in mine for c in mapping.values()):
        raise IllegalAction("a claimed card is not in your hand or among your committed cards")
    card = action.get("card")
    if action.get("type") == "commit" and is_masked(card):
        rnd, pos = split(card)
        if sealed != [(DECK, pos)] or rnd != S["hidden"]["round"]:
            raise IllegalAction("a card committed face down seals its claim on its position")
        if action not in _face_down_commits(S, seat, card):
            raise IllegalAction(f"action {action!r} is not legal now for seat {seat}")
        return
    if sealed:
        raise IllegalAction("only a card committed face down seals its claim")
    T = S["this_turn"]
    entry = next((e for e in T["committed"] if e["card"] == card), None) if T else None
    if action.get("type") == "play" and entry is not None and not _fits_use(S, entry):
        raise IllegalAction(f"card {card} was committed for a use it does not allow "
                            f"({entry['use']}): it cannot be played")
    kind = S["pending"]["kind"] if S["pending"] else None
    if kind in ("exchange", "order", "keep", "discard"):
        legal = turn.legal_actions(S, seat)  # these read no hidden card
    else:
        legal = turn.legal_actions(_scrubbed(S, seat), seat)
    if action not in legal:
        raise IllegalAction(f"action {action!r} is not legal now for seat {seat} "
                            f"(decision {kind!r})")


def _scrubbed(S: State, seat: int) -> State:
    """A copy in which ``seat``'s masked cards can be read by no rule: dropped from its
    hand, its masked commitments marked played (their actions name cards it claims)."""
    C = copy.deepcopy(S)
    C["players"][seat]["hand"] = [c for c in C["players"][seat]["hand"] if not is_masked(c)]
    T = C["this_turn"]
    if T is not None:
        for e in T["committed"]:
            if is_masked(e["card"]):
                e["played"] = True
        T["recon_cards"] = [c for c in T["recon_cards"] if not is_masked(c)]
    return C


def _face_down_commits(S: State, seat: int, card: int) -> list[Action]:
    """Every placement a masked card could have (4.3; ``turn._commit_offers`` for some
    card): its fit to the card is checked when the card is opened."""
    T = S["this_turn"]
    P = S["players"][seat]
    kind = S["pending"]["kind"] if S["pending"] else None
    if card not in P["hand"] or not (kind == "commit" or (
            kind == "resolve" and card in T["recon_cards"])):
        return []
    busy = {e["ship"] for e in T["committed"] if e["ship"] is not None}
    sh = S["ships"]
    ships = [s for s in P["german"] if not sh[s]["prize"] and sh[s]["refuge"] is None
             and s not in busy and s not in T["left_refuge"]]
    miners = [s for s in ships if SHIPS[s]["mines"] and SHIPS[s]["kind"] == "raider"]
    out: list[Action] = [{"type": "commit", "card": card, "use": "icpt", "ship": s}
                         for s in ships]
    out.append({"type": "commit", "card": card, "use": "brit"})
    out += [{"type": "commit", "card": card, "use": "mines", "ship": s} for s in miners]
    out.append({"type": "commit", "card": card, "use": "act"})
    return out


# -- cards reaching the game -------------------------------------------------------------------


def cards_opened(S: State, cards: dict[int, int], seat: int | None, shown: bool) -> Events:
    """Cards the game asked for: opened to everyone (``seat`` None: every copy of their
    tokens becomes the card), or, where the host deals, dealt, given or shown to a seat."""
    asked = S["hidden"]["asked"]
    entry = None
    while asked:
        head = asked.pop(0)
        if (head["op"] == "open") == (seat is None) and \
                sorted(split(t)[1] for t in head["tokens"]) == sorted(cards):
            entry = head
            break
    if entry is None:
        raise ValueError(f"cards {sorted(cards)} were not asked for")
    by_pos = {split(t)[1]: t for t in entry["tokens"]}
    current = all(split(t)[0] == S["hidden"]["round"] for t in entry["tokens"])
    if seat is not None:
        if current:
            S["hidden"]["known"][seat].update({str(p): k for p, k in cards.items()})
        return []
    mapping = {by_pos[p]: _card_id(S, k) for p, k in cards.items()}
    if current:
        S["hidden"]["opened"].update({str(p): k for p, k in cards.items()})
    reveal(S, mapping)
    ev: Events = [{"type": "cards_turned", "cards": sorted(mapping.values())}]
    T = S["this_turn"]
    if T is not None:
        for e in T["committed"]:
            if e["card"] in mapping.values():
                ev += _settle(S, T, e)
    return ev


def _fits_use(S: State, e: dict[str, Any]) -> bool:
    """Whether a committed card allows its use (4.3), now that it is known."""
    # Deception's card is committed whatever it is (R 3.3.10), by the rules, not a seat.
    return is_masked(e["card"]) or bool(e.get("deceived")) or views.fits(S, e["card"], e["use"])


def _settle(S: State, T: dict[str, Any], e: dict[str, Any]) -> Events:
    """A committed card just turned over: Deception's gets its use (R 3.3.10); a
    commitment its card does not fit is void."""
    c = e["card"]
    if e.get("deceived"):
        P = S["players"][T["seat"]]
        if ACTIONS[c]["type"] == "lay_mines":
            miners = [s for s in P["german"] if kind(S, s) == "raider" and SHIPS[s]["mines"]
                      and S["ships"][s]["refuge"] is None]
            if miners:
                e["use"], e["ship"] = "mines", miners[0]
        return [{"type": "deception_card", "seat": T["seat"], "card": c}]
    if not e["played"] and not _fits_use(S, e):
        e["played"] = True
        return [{"type": "commit_void", "seat": T["seat"], "card": c, "use": e["use"]}]
    return []


# -- views and the client-side half --------------------------------------------------------------


def _state_of(view: dict[str, Any], seat: int) -> State:
    """A state from ``seat``'s view, every hidden card at its token (no card known)."""
    hv = view["hidden"]
    v = copy.deepcopy(view)
    me = v["me"]
    me["hand"], me["known_deck_top"] = [], []  # the tokens are put back below
    me["seen"] = None
    S = views.sample(v, seat, random.Random(0))
    for p, hand in zip(S["players"], hv["hands"], strict=True):
        p["hand"] = list(hand)
    S["players"][seat].update({"known_deck_top": list(view["me"]["known_deck_top"]),
                               "seen": copy.deepcopy(view["me"]["seen"]),
                               "giving": list(view["me"]["giving"])})
    T = S["this_turn"]
    if T is not None:
        for e, c in zip(T["committed"], hv["committed"], strict=True):
            e["card"] = c
        T["recon_cards"] = list(hv["recon"])
    S["action_unseen"] = list(hv["unseen"])
    S["action_deck_top"] = list(hv["top"])
    S["hidden"] = {"round": hv["round"], "asked": [], "known": [{} for _ in S["players"]],
                   "opened": dict(hv["opened"])}
    return S


def own_cards(view: dict[str, Any], cards: dict[str, dict[int, int]]) -> dict[int, int]:
    """position -> deck card of what ``seat`` knows: where the host deals, its view's
    ``cards``; at a hidden-deck table, what its client opened (``cards``)."""
    out = {int(p): k for p, k in (view["hidden"].get("cards") or {}).items()}
    out.update({int(p): k for p, k in (cards.get(DECK) or {}).items()})
    out.update({int(p): k for p, k in ((view.get("_hand") or {}).get(DECK) or {}).items()})
    return out


def readable(view: dict[str, Any], x: Any = None) -> Any:
    """``x`` (default: the view itself) with every token the view's seat can read (its
    own cards, from ``view["_hand"]`` or ``view["hidden"]["cards"]``) as its card, for
    the game's words and board; unchanged without a hidden deck."""
    x = view if x is None else x
    hv = view.get("hidden") if isinstance(view, dict) else None
    if not hv:
        return x
    ids = view["action_cards"]
    opened = {int(p) for p in hv["opened"]}
    known = {token(hv["round"], p): ids[k] for p, k in own_cards(view, {}).items()
             if p not in opened and 0 <= k < len(ids)}
    return _replace(x, known) if known else x


def seat_actions(view: dict[str, Any], seat: int, cards: dict[str, dict[int, int]]
                 ) -> list[Action]:
    """``game_seat_actions``: ``seat``'s legal actions from its view and the cards it
    knows, in the form a hidden-deck table takes (claims, seals, tokens)."""
    if view.get("seat") != seat or seat not in view["to_act"]:
        return []
    S = _state_of(view, seat)
    rnd = S["hidden"]["round"]
    ids = S["action_cards"]
    opened = {int(p) for p in view["hidden"]["opened"]}  # public now, tokens gone
    known = {token(rnd, p): ids[k] for p, k in own_cards(view, cards).items()
             if p not in opened}
    reveal(S, known)
    back = {c: t for t, c in known.items()}
    index = {c: k for k, c in enumerate(ids)}
    return [_hidden_form(a, back, index) for a in turn.legal_actions(S, seat)]


def _hidden_form(a: Action, back: dict[int, int], index: dict[int, int]) -> Action:
    """A plain action as sent at a hidden-deck table."""
    out = dict(a)
    if "cards" in out:
        out["cards"] = [back.get(c, c) for c in out["cards"]]
    c = out.get("card")
    if c not in back:
        return out
    tok = back[c]
    rnd, pos = split(tok)
    k = index[c]
    if out["type"] == "commit":
        out["card"] = tok
        out["sealed"] = sealed_for(DECK, [(pos, k)])
    elif out["type"] == "give":
        out["card"] = tok
    else:
        out["claims"] = claims_for(DECK, [(pos, k)])
    return out


def legal_actions(S: State, seat: int) -> list[Action]:
    """Where the host deals: the client half over the seat's view and its cards."""
    return seat_actions(views.view(S, seat), seat, {})


def dealt(S: State) -> State:
    """A copy of an in-process state with every token of the current round replaced
    by the card its dealer put there (for the bots' heuristic; the dealer's record is
    only in states dealt in-process, never on a hidden-deck host). Tokens of a round
    it does not know stay."""
    record = (S.get("_dealer") or {}).get("decks", {}).get(DECK)
    C = copy.deepcopy(S)
    if record and record["order"]:
        rnd, ids = S["hidden"]["round"], S["action_cards"]
        reveal(C, {token(rnd, p): ids[k] for p, k in enumerate(record["order"])})
    return C


# -- sampling (greedy and mcts bots) ------------------------------------------------------------


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A full hidden-deck state ``seat`` cannot tell from the true one: every position
    it does not know dealt at random, with the dealer's record, so that bots play it
    in-process."""
    S = _state_of(view, seat)
    hv = view["hidden"]
    rnd = hv["round"]
    n = len(S["action_cards"])
    held: dict[int, int] = {}
    for s, hand in enumerate(hv["hands"]):
        held.update({split(t)[1]: s for t in hand if is_masked(t)})
    T = S["this_turn"]
    if T is not None:
        held.update({split(c)[1]: T["seat"] for c in hv["committed"] if is_masked(c)})
    opened = {int(p): k for p, k in hv["opened"].items()}
    mine = own_cards(view, {})
    known = {**opened, **mine}
    order = sample_dealer(S, sizes={DECK: n}, seats=S["n_players"], held={DECK: held},
                          known={DECK: known}, opened={DECK: sorted(opened)}, rng=rng)[DECK]
    for s in range(S["n_players"]):
        S["hidden"]["known"][s] = {str(pos): order[pos] for pos, h in held.items() if h == s}
    S["hidden"]["known"][seat].update({str(p): k for p, k in mine.items()})
    S["hidden"]["round"] = rnd
    return S
