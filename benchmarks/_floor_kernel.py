"""The floor of benchmarks/floor.py: the least a random two-player round can be, in Python.

Not an engine and not a rule of the suite: a yardstick. It deals 10, 10 and 8 from a deck shuffled
as R-SHUFFLE says (SplitMix64, seed k, the engine's own class), and plays a random hand card a turn
(the choice of two table cards at random too), month matching, the flip, a running count of each
seat's captures by kind, and Go or Stop by a coin flip once a seat's count reaches the threshold.
It never checks an action, builds no event, reads no option, settles nothing and knows none of
the special rules (ppeok, bombs, shaking, steals, bonus cards, chongtong): every real engine does
all of that as well. Typed so that mypyc can compile it (floor.py --mypyc) as the engine's build is.
"""

from __future__ import annotations

from gostop_conformance.reference import SplitMix64


def play_rounds(first_seed: int, count: int, month: list[int], kind: list[int], units: list[int], thresholds: list[int]) -> int:
    """Play rounds `first_seed` .. `first_seed + count - 1`; the number of decisions taken.
    `kind` is 0 junk, 1 animal, 2 ribbon, 3 bright; `thresholds` the counts that score (junk
    units, animals, ribbons, brights) and the Go threshold."""
    decisions = 0
    for seed in range(first_seed, first_seed + count):
        decisions += _round(seed, month, kind, units, thresholds)
    return decisions


def _round(seed: int, month: list[int], kind: list[int], units: list[int], thresholds: list[int]) -> int:
    deck = list(range(len(month)))
    SplitMix64(seed).shuffle(deck)
    player = SplitMix64(seed ^ 0x5DEECE66D)
    hands = [deck[0:10], deck[10:20]]
    table: list[list[int]] = [[] for _ in range(13)]
    for c in deck[20:28]:
        table[month[c]].append(c)
    stock = deck[28:]
    counts = [[0, 0, 0, 0], [0, 0, 0, 0]]  # per seat: junk units, animals, ribbons, brights
    raised = [thresholds[4], thresholds[4]]
    seat = 0
    decisions = 0
    while stock:
        caught: list[int] = []
        hand = hands[seat]
        if hand:
            decisions += 1
            c = hand.pop(player.below(len(hand)))
            on = table[month[c]]
            _land(c, on, player.below(2) if len(on) == 2 else 0, caught)
        f = stock.pop()
        _land(f, table[month[f]], 0, caught)
        mine = counts[seat]
        for c in caught:
            k = kind[c]
            mine[k] += units[c] if k == 0 else 1
        score = 0
        for k in range(4):
            if mine[k] >= thresholds[k]:
                score += mine[k] - thresholds[k] + 1
        if score >= raised[seat]:
            decisions += 1
            if player.below(2) == 0:
                break  # Stop
            raised[seat] = score + 1  # Go: the next decision needs a higher score
        seat ^= 1
    return decisions


def _land(card: int, on: list[int], pick: int, caught: list[int]) -> None:
    """Month matching: `card` takes the one table card of its month, or the one at `pick` of two,
    or all three; or it stays on the table."""
    if len(on) == 2:
        caught.append(card)
        caught.append(on.pop(pick))
    elif on:
        caught.append(card)
        caught.extend(on)
        on.clear()
    else:
        on.append(card)
