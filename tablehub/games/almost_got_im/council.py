"""End of round, before the Blackout: accusation, seconding, the Vote, the verdict.

Phases: ``accuse`` (the Brains: ``accuse`` a non-Subdued other player or
``no_accusation``; skipped in round 1 and under Poison Ivy), ``second`` (the others
clockwise from the Brains' left, the accused excepted: ``second`` or ``no_second``; the
first ``second`` starts the Vote), ``vote`` (everyone but the accused, clockwise from the
Brains: ``vote`` guilty true/false; the tally is made when the last ballot is in, a tie
goes the Brains' way) and ``verdict`` (a Guilty accused who is not Batman: ``reveal`` a
Full House as Catwoman for the solo win, or ``accept`` being Subdued).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablehub.games.almost_got_im import blackout
from tablehub.games.almost_got_im.cards import UNKNOWN
from tablehub.games.base import PUBLIC, Move

if TYPE_CHECKING:
    from tablehub.games.almost_got_im.state import AgiState


def suspects(state: AgiState) -> list[int]:
    """Who the Brains may accuse: any other player who is not Subdued."""
    return [s for s in range(state.n) if s != state.brains and not state.subdued[s]]


def after_turns(state: AgiState) -> None:
    if state.round > 1 and not state.no_vote and suspects(state):
        state.phase = "accuse"
    else:
        blackout.start(state)


def legal(state: AgiState) -> list[Move]:
    phase = state.phase
    if phase == "accuse":
        brains = state.brains
        moves: list[Move] = [
            {"kind": "accuse", "player": brains, "target": t} for t in suspects(state)
        ]
        moves.append({"kind": "no_accusation", "player": brains})
        return moves
    if phase == "second":
        seat = state.poll[0]
        return [{"kind": "second", "player": seat}, {"kind": "no_second", "player": seat}]
    if phase == "vote":
        seat = state.voters[len(state.ballots)]
        return [
            {"kind": "vote", "player": seat, "guilty": True},
            {"kind": "vote", "player": seat, "guilty": False},
        ]
    assert state.accused is not None
    accused = state.accused
    moves = [{"kind": "accept", "player": accused}]
    hand = state.hands[accused]
    if state.roles[accused] == "catwoman" and UNKNOWN not in hand and _full_house(state, hand):
        moves.append({"kind": "reveal", "player": accused})
    return moves


def _full_house(state: AgiState, cards: list[str]) -> bool:
    return state.rules.roles["catwoman"].hand.met(cards)


def _in_phase(state: AgiState, phase: str, what: str) -> str | None:
    return None if state.phase == phase else f"{what} is not possible now"


# ----------------------------------------------------------------- accusation
def check_accuse(state: AgiState, move: Move) -> str | None:
    problem = _in_phase(state, "accuse", "an accusation")
    if problem:
        return problem
    target = move.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < state.n:
        return f"target must be a seat 0..{state.n - 1}"
    if target == state.brains:
        return "the Brains cannot accuse themselves"
    if state.subdued[target]:
        return "accusations may not be made against Subdued players"
    return None


def apply_accuse(state: AgiState, move: Move) -> None:
    brains, target = state.brains, move["target"]
    state.accused = target
    state.seconder = None
    state.poll = [s for s in state.clockwise(brains) if s not in (brains, target)]
    state.phase = "second"
    state.emit("accused", PUBLIC, player=brains, target=target)
    state.say("accused", brains=state.name(brains), name=state.name(target))


def check_no_accusation(state: AgiState, move: Move) -> str | None:
    return _in_phase(state, "accuse", "declining to accuse")


def apply_no_accusation(state: AgiState, move: Move) -> None:
    state.emit("no_accusation", PUBLIC, player=state.brains)
    blackout.start(state)


def check_second(state: AgiState, move: Move) -> str | None:
    return _in_phase(state, "second", "seconding")


def apply_second(state: AgiState, move: Move) -> None:
    seat = state.poll[0]
    assert state.accused is not None
    state.seconder = seat
    state.poll = []
    state.voters = [s for s in state.clockwise(state.brains) if s != state.accused]
    state.ballots = []
    state.phase = "vote"
    state.emit("seconded", PUBLIC, player=seat)
    state.say("seconded", name=state.name(seat), accused=state.name(state.accused))


def check_no_second(state: AgiState, move: Move) -> str | None:
    return _in_phase(state, "second", "declining to second")


def apply_no_second(state: AgiState, move: Move) -> None:
    state.poll.pop(0)
    if state.poll:
        return
    state.say("not_seconded")
    state.accused = None
    blackout.start(state)


# ----------------------------------------------------------------- the Vote
def check_vote(state: AgiState, move: Move) -> str | None:
    problem = _in_phase(state, "vote", "voting")
    if problem:
        return problem
    if not isinstance(move.get("guilty"), bool):
        return "guilty must be true (thumbs up) or false (thumbs down)"
    return None


def apply_vote(state: AgiState, move: Move) -> None:
    state.ballots.append(move["guilty"])
    if len(state.ballots) < len(state.voters):
        return
    accused = state.accused
    assert accused is not None
    guilty_votes = sum(state.ballots)
    innocent_votes = len(state.ballots) - guilty_votes
    tie_break = state.ballots[state.voters.index(state.brains)]
    guilty = guilty_votes > innocent_votes or (guilty_votes == innocent_votes and tie_break)
    record = {
        "round": state.round,
        "brains": state.brains,
        "accused": accused,
        "seconder": state.seconder,
        "votes": [[s, b] for s, b in zip(state.voters, state.ballots, strict=True)],
        "guilty": guilty,
    }
    state.history.append(record)
    state.voters, state.ballots = [], []
    state.emit("vote_result", PUBLIC, **record)
    if not guilty:
        state.say("innocent", name=state.name(accused))
        state.accused = None
        blackout.start(state)
    elif state.roles[accused] == "batman":
        state.say("guilty_batman", name=state.name(accused))
        state.villains_win()
    else:
        state.say("guilty")
        state.phase = "verdict"


# ----------------------------------------------------------------- verdict
def check_accept(state: AgiState, move: Move) -> str | None:
    return _in_phase(state, "verdict", "accepting the verdict")


def apply_accept(state: AgiState, move: Move) -> None:
    accused = state.accused
    assert accused is not None
    state.subdued[accused] = True
    state.by_batman[accused] = False
    state.last_subdue_round = state.round
    state.accused = None
    state.emit("subdued", PUBLIC, player=accused, by="vote")
    state.say("subdued", name=state.name(accused))
    if state.tally() >= state.needed():
        state.batman_wins()
    else:
        blackout.start(state)


def check_reveal(state: AgiState, move: Move) -> str | None:
    problem = _in_phase(state, "verdict", "showing a Full House")
    if problem:
        return problem
    accused = state.accused
    assert accused is not None
    if state.roles[accused] != "catwoman":
        return "only Catwoman in Disguise wins by showing a Full House when Voted Guilty"
    if "hand" in move:
        cards = move["hand"]
        problem = state.hand_problem(accused, cards)
        if problem:
            return problem
    else:
        cards = state.hands[accused]
        if UNKNOWN in cards:
            return "show the hand face up: the hub has not seen all of it"
    if not _full_house(state, cards):
        return "that hand is not a Full House"
    return None


def apply_reveal(state: AgiState, move: Move) -> None:
    accused = state.accused
    assert accused is not None
    if "hand" in move:
        state.learn_hand(accused, move["hand"])
    state.public[accused] = list(state.hands[accused])
    state.emit("full_house", PUBLIC, player=accused, hand=list(state.hands[accused]))
    state.say("catwoman_wins", name=state.name(accused))
    state.end_game("catwoman", [accused])


MOVES = {
    "accuse": (check_accuse, apply_accuse),
    "no_accusation": (check_no_accusation, apply_no_accusation),
    "second": (check_second, apply_second),
    "no_second": (check_no_second, apply_no_second),
    "vote": (check_vote, apply_vote),
    "accept": (check_accept, apply_accept),
    "reveal": (check_reveal, apply_reveal),
}
