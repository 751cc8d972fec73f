"""Manila board values: the game's data file.

Sources, per value (rules: ``docs/rules/manila.md``, sections 2 and 5):

- **Printed in the rulebook text (Italian transcript):** starting cash 30; nutmeg
  profit 24; jade profit 36; dock A/B and shipyard A/B payouts 6 and 8; small pilot
  cost 2; insurance cost 0 and its +10; price values 0, 5, 10, 20 and the end at 30;
  mortgage 12, redemption 15; share purchase price = max(5, price); 3 shares of each
  good shuffled, 2 dealt each; 4 accomplices with 3 players, 3 otherwise.
- **From the published English edition (not in the text; its board graphics were
  lost):** every seat cost; silk profit 30 and ginseng profit 18; dock and shipyard
  C payout 15; dock/shipyard costs 4/3/2; pirate spaces 5 each; large pilot 5; the
  exact price sequence 0-5-10-20-30; 5 shares per good.
- **Designed here:** nothing. (Every value above is the rulebook's or the published
  edition's; designed *decisions* are table options, see ``docs/rules/manila.md``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

GOODS: Final = ("nutmeg", "silk", "ginseng", "jade")


def by_good(values: Sequence[int]) -> dict[str, int]:
    """``{good: value}`` from four values in the order of GOODS. Written out, since
    every view builds a few (a test holds its keys equal to GOODS)."""
    return {"nutmeg": values[0], "silk": values[1], "ginseng": values[2], "jade": values[3]}

SEAT_COSTS: Final = {"nutmeg": (2, 3, 4), "silk": (3, 4, 5), "ginseng": (1, 2, 3),
                     "jade": (3, 4, 5, 5)}
PROFIT: Final = {"nutmeg": 24, "silk": 30, "ginseng": 18, "jade": 36}

PRICE_TRACK: Final = (0, 5, 10, 20, 30)  # step -> price; step 4 ends the game
END_STEP: Final = 4
SHARES_PER_GOOD: Final = 5
SHUFFLED_PER_GOOD: Final = 3  # 12 shuffled, 2 dealt to each player
DEALT_EACH: Final = 2

START_CASH: Final = 30
MORTGAGE_VALUE: Final = 12
REDEEM_COST: Final = 15
MIN_SHARE_PRICE: Final = 5
INSURANCE_BONUS: Final = 10

DOCK_COST: Final = (4, 3, 2)  # A, B, C
DOCK_PAY: Final = (6, 8, 15)
YARD_COST: Final = (4, 3, 2)
YARD_PAY: Final = (6, 8, 15)
PIRATE_COST: Final = (5, 5)  # captain (bow), second
PILOT_COST: Final = {"small": 2, "large": 5}
INSURANCE_COST: Final = 0

LAST_SPACE: Final = 13  # beyond 13 is Manila
PIRATE_SPACE: Final = 13
START_SUM: Final = 9
MAX_START: Final = 5


def accomplices(players: int) -> int:
    """Accomplices each (section 3.2)."""
    return 4 if players == 3 else 3
