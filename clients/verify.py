"""``lantable verify``: replay a table's journal and check everything fair play signs.

Pure: it takes the journal's records as plain data (``clients/commands/journal.py``
reads them from the SQLite file) and the game plugin, so a seat can check a copy of
the journal on its own machine. For a fair table it checks every commitment's and every reveal's
signature, every revealed link against the seat's previous link (its commitment),
every event's digest against the history before it, every seed, every roll and
shuffle (by replaying the game from the seeds and comparing its events with the
journal's) and the final result. A table created without fair play is said to be
one, and checked as such: its journal must replay from its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lantable.plugins import IllegalAction
from lantable.plugins.decks import Requests
from lantable.protocol import fairplay as fp
from lantable.protocol.undo import is_undo, undo_fields, undone_seqs

if TYPE_CHECKING:
    from lantable.plugins import Game

    from .verify_decks import DeckAudit


@dataclass
class Report:
    """The verdict: ``problems`` (each names its event or action) make it fail;
    ``notes`` are facts a player should know (faults, host-rng events)."""

    table: str
    fair: bool
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    events: int = 0
    actions: int = 0
    deals: int = 0  # rounds of hidden decks audited
    undos: int = 0  # undo rows checked (host/undo.py)
    scores: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def verdict(self) -> str:
        what = "fair play" if self.fair else "no fair play"
        if self.problems:
            return (f"FAIL: table {self.table} ({what}): {len(self.problems)} problem(s); "
                    f"the first: {self.problems[0]}")
        undos = (f" ({self.undos} undo{'s' if self.undos != 1 else ''} by consent among them"
                 f"{', each signed by every seat' if self.fair else ''})" if self.undos else "")
        if not self.fair:
            return (f"OK, but NOT FAIR PLAY: table {self.table} was created without fair play; "
                    f"its {self.actions} actions{undos} replay from the host's seed, which its "
                    f"owner could choose or read")
        deals = (f", {self.deals} hidden deals (every pass, key, opened card and claim)"
                 if self.deals else "")
        return (f"OK: table {self.table} (fair play): {self.events} random events and "
                f"{self.actions} signed actions{undos}{deals} check: every signature, link, seed, "
                f"roll and shuffle, and the final result")

    def to_map(self) -> dict[str, Any]:
        return {"table": self.table, "fair": self.fair, "ok": self.ok,
                "verdict": self.verdict(), "problems": self.problems, "notes": self.notes,
                "events": self.events, "actions": self.actions, "scores": self.scores}


@dataclass(frozen=True)
class JournalCopy:
    """What ``verify`` reads: the table row, its actions and its fair-play records."""

    table: str
    game: str
    game_version: str
    seats: int
    options: dict[str, Any]
    seed: int
    status: str
    actions: list[tuple[int, int, dict[str, Any], list[dict[str, Any]]]]  # seq, seat, ...
    fair: list[dict[str, Any]]
    clock: list[dict[str, Any]] = field(default_factory=list)  # host/clock.py's records


def verify(copy: JournalCopy, game: Game) -> Report:
    """Check one table's journal; never raises on bad data (it becomes a problem)."""
    report = Report(copy.table, fair=bool(copy.fair), actions=len(copy.actions))
    if copy.game_version != game.info["version"]:
        report.notes.append(f"the journal was written by {copy.game} {copy.game_version}; "
                            f"replaying with {game.info['version']}")
    try:
        if copy.fair:
            _FairCheck(copy, game, report).run()
        else:
            _replay_seeded(copy, game, report)
        if copy.clock:
            from .verify_clock import check_clock

            check_clock(copy, game, report)
    except Exception as exc:  # noqa: BLE001 - a corrupt journal is a finding, not a crash
        report.problems.append(f"the journal could not be replayed: {exc!r}")
    return report


def _replay_seeded(copy: JournalCopy, game: Game, report: Report) -> None:
    rng = random.Random(copy.seed)
    state = game.setup(copy.seats, copy.options, rng)
    undos = _Undos(copy, game, report)
    for seq, seat, action, recorded in copy.actions:
        if is_undo(action):
            back = undos.undo(seq, seat, action)
            if back is None:
                return
            state, rng = back
            continue
        before = undos.before(seq, state, rng)
        if not _apply(game, state, seq, seat, action, recorded, rng, report, ""):
            return
        undos.applied(seq, seat, recorded, state, before, rng)
    report.scores = game.scores(state)


class _Undos:
    """The undo rows of a journal (host/undo.py): each takes back the last action that
    stands, made by the seat that asks, which drew nothing and is no barrier of the
    game's; the state goes back to before it."""

    def __init__(self, copy: JournalCopy, game: Game, report: Report) -> None:
        self.copy, self.game, self.report = copy, game, report
        self.undone = undone_seqs(copy.actions)
        self.kept: dict[int, tuple[Any, Any]] = {}
        self.live: list[tuple[int, int, bool]] = []  # (seq, seat, undoable) that stand

    def before(self, seq: int, state: Any, rng: Any) -> Any:
        if seq not in self.undone:
            return None
        copied = rng
        if isinstance(rng, random.Random) and not isinstance(rng, fp.FairRandom):
            copied = random.Random()
            copied.setstate(rng.getstate())
        self.kept[seq] = (self.game.clone(state), copied)
        return copied.getstate() if isinstance(copied, random.Random) and \
            not isinstance(copied, fp.FairRandom) else None

    def applied(self, seq: int, seat: int, events: list[dict[str, Any]], state: Any,
                before: Any, rng: Any, drew: bool = False) -> None:
        if before is not None and isinstance(rng, random.Random) and \
                not isinstance(rng, fp.FairRandom):
            drew = drew or rng.getstate() != before
        undoable = seq in self.undone and not drew and \
            not self.game.undo_barrier(events, state)
        self.live.append((seq, seat, undoable))

    def undo(self, seq: int, seat: int, action: dict[str, Any]) -> tuple[Any, Any] | None:
        """The state (and rng) before the action undo ``seq`` takes back, or None (a
        problem: replaying cannot go on)."""
        self.report.undos += 1
        undoes = action.get("undoes")
        name = f"undo {seq} (of action {undoes}, asked by seat {seat})"
        if not self.live or self.live[-1][0] != undoes or undoes not in self.kept:
            self.report.problems.append(f"{name}: action {undoes} is not the last action that "
                                        f"stands: the undo was altered or moved")
            return None
        _, by, undoable = self.live.pop()
        if by != seat:
            self.report.problems.append(f"{name}: action {undoes} is seat {by}'s, not the "
                                        f"asking seat's")
        if not undoable:
            self.report.problems.append(f"{name}: action {undoes} drew from the rng or revealed "
                                        f"something, so it could not be taken back")
        return self.kept.pop(undoes)


def _apply(game: Game, state: Any, seq: int, seat: int, action: dict[str, Any],
           recorded: list[dict[str, Any]], rng: random.Random, report: Report,
           where: str, audit: DeckAudit | None = None) -> bool:
    """Replay one action (and, at a hidden-deck table, the cards it turned over);
    False (with a problem) when replaying cannot go on."""
    try:
        if audit is None:
            events = game.apply(state, seat, action, rng)
        else:
            from .verify_decks import replay_step

            decks = Requests(audit.sizes, audit.seats)
            events = list(game.apply(state, seat, action, rng, decks))
            events += replay_step(game, audit, state, seq, decks.take())
    except fp.NeedRandomness:
        report.problems.append(f"action {seq} (seat {seat}): it draws dice or cards, but the "
                               f"journal has no random event for it")
        return False
    except IllegalAction as exc:
        report.problems.append(f"action {seq} (seat {seat}){where}: the game refuses it in "
                               f"replay ({exc}): the action or an earlier one was altered")
        return False
    if events != recorded:
        report.problems.append(f"action {seq} (seat {seat}){where}: the journal's events "
                               f"(its rolls, cards and results) differ from the replay")
    return True


class _FairCheck:
    def __init__(self, copy: JournalCopy, game: Game, report: Report) -> None:
        self.copy, self.game, self.report = copy, game, report
        self.commits: dict[int, dict[str, Any]] = {}
        self.acted: dict[int, int] = {}  # seat -> the seq of its last action checked
        self.events: dict[int, dict[str, Any]] = {}  # seq -> event record
        self.signed: dict[int, dict[str, Any]] = {}  # seq -> the seat's action signature
        self.undo_sigs: dict[int, dict[str, Any]] = {}  # seq -> an undo's signatures
        self.last: dict[int, tuple[int, str]] = {}
        self.excluded: set[int] = set()
        self.final: dict[str, Any] | None = None
        self.forfeit: dict[str, Any] | None = None
        self.number = 0  # the last event checked

    def problem(self, text: str) -> None:
        self.report.problems.append(text)

    def run(self) -> None:
        copy = self.copy
        config = copy.fair[0]
        if config.get("kind") != "config":
            self.problem("the fair-play records do not start with the table's config")
            return
        config = {k: v for k, v in config.items() if k != "kind"}
        for rec in copy.fair[1:]:
            self._record(rec)
        missing = [s for s in range(copy.seats) if s not in self.commits]
        if missing:
            if copy.status != "waiting":
                self.problem(f"seats {missing} have no commitment in the journal")
            return
        commits = [self.commits[s] for s in range(copy.seats)]
        transcript = fp.transcript_start(copy.table, copy.game, copy.game_version, copy.seats,
                                         copy.options, config, commits)
        self.last = {s: (0, c["tip"]) for s, c in self.commits.items()}
        setup = self.events.pop(0, None)
        if setup is None:
            if copy.actions:
                self.problem("the set-up has no random event")
            return
        seed = self._event(setup, fp.event_digest(transcript, 1, 0, None, None), "the set-up")
        audit = None
        if config.get("hidden_decks"):
            from .verify_decks import DeckAudit, replay_step  # rbcl: only for hidden decks

            audit = DeckAudit(copy.table, copy.seats, self.game.decks(copy.seats, copy.options),
                              [c["key"] for c in commits], copy.fair)
            self.report.deals = len(audit.deals)
        decks = None if audit is None else Requests(audit.sizes, audit.seats)
        state = self.game.setup(copy.seats, copy.options, fp.FairRandom(seed), decks)
        if audit is not None and decks is not None:
            replay_step(self.game, audit, state, 0, decks.take())
        probe = fp.FairRandom()
        try:
            self._actions(state, transcript, probe, audit)
        finally:
            if audit is not None:
                self.report.problems += audit.problems
                self.report.notes += audit.notes

    def _actions(self, state: Any, transcript: str, probe: fp.FairRandom,
                 audit: DeckAudit | None) -> None:
        copy = self.copy
        undos = _Undos(copy, self.game, self.report)
        for seq, seat, action, recorded in copy.actions:
            if is_undo(action):
                self._undo_signatures(seq, action)
                back = undos.undo(seq, seat, action)
                if back is None:
                    return
                state = back[0]
                transcript = fp.transcript_next(transcript, seq, seat, action)
                continue
            undos.before(seq, state, probe)
            self._action_signature(seq, seat, action)
            if audit is not None:
                audit.check_claims(seq, seat, action)
            rec = self.events.pop(seq, None)
            rng, where = probe, ""
            if rec is not None:
                where = f", event {rec.get('event')}"
                number = rec.get("event")  # a bad number is named by _event
                digest = fp.event_digest(transcript, number if isinstance(number, int) else -1,
                                         seq, seat, action)
                rng = fp.FairRandom(self._event(rec, digest, f"action {seq}"))
            if not _apply(self.game, state, seq, seat, action, recorded, rng, self.report,
                          where, audit):
                return
            if rec is not None and rng.draws == 0:
                self.problem(f"event {rec.get('event')} (action {seq}): the action draws nothing, "
                             f"yet an event was held for it")
            undos.applied(seq, seat, recorded, state, None, rng, drew=rec is not None)
            transcript = fp.transcript_next(transcript, seq, seat, action)
        for seq, rec in sorted(self.events.items()):
            self.problem(f"event {rec.get('event')}: it serves action {seq}, which is not in "
                         f"the journal")
        self.report.scores = self.game.scores(state)
        self._final(transcript)

    def _record(self, rec: dict[str, Any]) -> None:
        kind = rec.get("kind")
        if kind == "commit":
            seat = rec["seat"]
            try:
                fp.verify_signature(rec["key"], rec["sig"], "commit", *fp.commit_fields(
                    self.copy.table, seat, rec["key"], rec["tip"], rec["length"]))
            except (fp.FairPlayError, ValueError) as exc:
                self.problem(f"seat {seat}'s commitment: {exc}")
            self.commits[seat] = rec
        elif kind == "uncommit":
            self.commits.pop(rec["seat"], None)
        elif kind == "event":
            self.events[rec["seq"]] = rec
        elif kind == "act":
            self.signed[rec["seq"]] = rec
        elif kind == "undo":
            self.undo_sigs[rec["seq"]] = rec
        elif kind == "fault":
            self.report.notes.append(f"event {rec['event']}: {rec['message']}")
            if rec["reason"] == "withheld" and rec["outcome"] == "host_rng":
                self.excluded.add(rec["seat"])
            if rec["reason"] == "bad_reveal":
                self._bad_reveal(rec)
        elif kind == "forfeit":
            self.forfeit = rec
            why = ("were named at a hidden deal" if rec.get("deal")
                   else "ran out of time (the host's word)" if rec.get("clock")
                   else "withheld their reveals")
            self.report.notes.append(f"the table ended at event {rec['event']}: seats "
                                     f"{rec['seats']} {why} and forfeit")
        elif kind == "final":
            self.final = rec

    def _action_signature(self, seq: int, seat: int, action: dict[str, Any]) -> None:
        """The seat signed this very action, after an update it had seen."""
        rec = self.signed.get(seq)
        if rec is None or rec.get("seat") != seat:
            self.problem(f"action {seq} (seat {seat}): the journal has no signature of it by "
                         f"that seat")
            return
        base = rec.get("base")
        own = self.acted.get(seat, 0)
        self.acted[seat] = seq
        try:
            if not isinstance(base, int) or not 0 <= base < seq:
                raise fp.FairPlayError(f"it was signed for update {base}, not before it")
            if base < own:  # a signature used again (issue 25, finding 9)
                raise fp.FairPlayError(f"it was signed for update {base}, before the seat's "
                                       f"own action {own}: a signature used again")
            fp.verify_signature(self.commits[seat]["key"], str(rec.get("sig", "")), "act",
                                *fp.act_fields(self.copy.table, seat, base, action))
        except (fp.FairPlayError, ValueError, KeyError) as exc:
            self.problem(f"action {seq} (seat {seat}): its signature: {exc} (the action was "
                         f"altered, or is not the seat's)")

    def _undo_signatures(self, seq: int, action: dict[str, Any]) -> None:
        """Every seat signed this very undo (host/undo.py)."""
        undoes = action.get("undoes")
        rec = self.undo_sigs.get(seq)
        name = f"undo {seq} (of action {undoes})"
        if rec is None or rec.get("undoes") != undoes:
            self.problem(f"{name}: the journal has no signatures of it by the seats")
            return
        sigs = {s.get("seat"): s.get("sig") for s in rec.get("sigs", []) if isinstance(s, dict)}
        for seat in range(self.copy.seats):
            if seat not in sigs:
                self.problem(f"{name}: seat {seat} did not sign it")
                continue
            try:
                fp.verify_signature(self.commits[seat]["key"], str(sigs[seat]), "undo",
                                    *undo_fields(self.copy.table, seat, seq, int(str(undoes))))
            except (fp.FairPlayError, ValueError, KeyError, TypeError) as exc:
                self.problem(f"{name}: seat {seat}'s signature: {exc} (the undo was altered, or "
                             f"seat {seat} never agreed to it)")

    def _bad_reveal(self, rec: dict[str, Any]) -> None:
        """A seat named for a bad reveal: its signed evidence must indeed not check."""
        seat = rec["seat"]
        commit = self.commits.get(seat)
        if commit is None or "link" not in rec:
            return
        pending = next((r for r in self.copy.fair if r.get("kind") == "pending"
                        and r.get("event") == rec["event"]), None)
        if pending is None:
            return
        try:
            fp.verify_signature(commit["key"], rec["sig"], "reveal", *fp.reveal_fields(
                self.copy.table, seat, rec["event"], rec["link"], pending["digest"]))
        except (fp.FairPlayError, ValueError):
            return  # not even signed by the seat: the host names it, but cannot prove it
        self.report.notes.append(f"event {rec['event']}: seat {seat} signed a link that does "
                                 f"not hash to its commitment (proof kept in the journal)")

    def _event(self, rec: dict[str, Any], digest: str, serves: str) -> str:
        """Check one settled event; returns the seed its reveals give."""
        number = rec.get("event")
        name = f"event {number} ({serves})"
        self.report.events += 1
        if not isinstance(number, int):
            self.problem(f"{name}: the event has no number")
            number = self.number + 1
        elif number != self.number + 1:
            self.problem(f"{name}: events are numbered out of order (expected "
                         f"{self.number + 1})")
        self.number = number
        if rec.get("digest") != digest:
            self.problem(f"{name}: its digest does not match the history before it: the "
                         f"set-up, an earlier action or this one was altered")
        revealed = set()
        for r in rec.get("reveals", []):
            seat = r.get("seat")
            if not isinstance(seat, int):
                self.problem(f"{name}: a reveal names no seat ({seat!r})")
                continue
            revealed.add(seat)
            commit = self.commits.get(seat)
            if commit is None:
                self.problem(f"{name}: seat {seat} revealed without a commitment")
                continue
            try:
                fp.verify_signature(commit["key"], r["sig"], "reveal", *fp.reveal_fields(
                    self.copy.table, seat, number, r["link"], digest))
            except (fp.FairPlayError, ValueError) as exc:
                self.problem(f"{name}: seat {seat}'s reveal signature: {exc}")
            last_event, last_link = self.last[seat]
            try:
                fp.check_link(r["link"], number, last_link, last_event)
                self.last[seat] = (number, str(r["link"]))
            except (fp.FairPlayError, ValueError) as exc:
                self.problem(f"{name}: seat {seat}'s link: {exc}")
        withheld = set(rec.get("withheld") or ())
        absent = set(range(self.copy.seats)) - revealed - withheld - self.excluded
        if absent:
            self.problem(f"{name}: seats {sorted(absent)} neither revealed nor were named as "
                         f"withholding")
        if withheld:
            self.excluded |= withheld
            self.report.notes.append(
                f"{name}: drawn with the host's value mixed in, because seats "
                f"{sorted(withheld)} withheld (announced; the host could have chosen it)")
        if rec.get("fallback") and not withheld:
            self.report.notes.append(f"{name}: drawn with the host's value only (no seat was "
                                     f"left to reveal; the host could have chosen it)")
        try:
            seed: str | None = fp.event_seed(
                self.copy.table, number, digest,
                [(int(r["seat"]), str(r["link"])) for r in rec.get("reveals", [])],
                rec.get("fallback"))
        except (KeyError, TypeError, ValueError):
            seed = None  # a malformed reveal: named above
        if seed != rec.get("seed"):
            self.problem(f"{name}: the journal's seed is not the one its reveals give")
        # go on with the journal's seed when the reveals give none (the problem is named)
        return seed if seed is not None else str(rec.get("seed", ""))

    def _final(self, transcript: str) -> None:
        if self.copy.status != "finished":
            self.report.notes.append(f"the table is {self.copy.status}: no final result yet")
            return
        if self.final is None:
            self.problem("the table is finished but the journal has no final result")
            return
        scores = dict(self.report.scores or {})
        if self.forfeit is not None:
            seats, n = self.forfeit["seats"], self.copy.seats
            scores["rank"] = [n if s in seats else r for s, r in enumerate(scores["rank"])]
            scores["forfeit"] = sorted(seats)
        if self.final.get("scores") != scores:
            self.problem(f"the final result: the journal says {self.final.get('scores')}, the "
                         f"replay gives {scores}")
        if self.final.get("transcript") != transcript:
            self.problem("the final result: its transcript is not the journal's history")
        self.report.scores = scores
